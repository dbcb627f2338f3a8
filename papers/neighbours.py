"""Nearest neighbours by inner product over dense vectors (numpy only, no database).

Exact up to ``EXACT_LIMIT`` vectors; beyond, an inverted-file search: spherical k-means puts
the vectors into about sqrt(N) clusters and each cluster's vectors are compared with the vectors
of its nearest clusters only (about ``PROBE_CANDIDATES``), so the search stays near-linear in N.
The vectors need not be unit length (papers/similarity.py appends its venue and year signals
to the text vectors): the inner product is the score, the clusters only choose candidates.
"""

from __future__ import annotations

EXACT_LIMIT = 8_000
PROBE_CANDIDATES = 1_500
BLOCK = 1_000
SEED = 20240607


def normalise(vectors):
    """Scale each row to unit length in place (zero rows stay zero); the old norms."""
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1)
    safe = np.where(norms > 0, norms, 1.0).astype(vectors.dtype)
    vectors /= safe[:, None]
    return norms


def nearest(vectors, k: int):
    """Each row's k nearest other rows by inner product: (indices, scores), best first; -1 pads."""
    import numpy as np

    n = len(vectors)
    near = np.full((n, k), -1, dtype=np.int64)
    best = np.zeros((n, k), dtype=np.float32)
    if k <= 0:
        return near, best
    if n <= EXACT_LIMIT:
        for start in range(0, n, BLOCK):
            queries = np.arange(start, min(start + BLOCK, n))
            _top(vectors[queries] @ vectors.T, queries, np.arange(n), k, near, best, own=queries)
        return near, best
    centroids, labels = _clusters(vectors)
    members = [np.flatnonzero(labels == c) for c in range(len(centroids))]
    size = max(1.0, n / len(centroids))
    probe = int(min(len(centroids), max(2, round(PROBE_CANDIDATES / size))))
    closest = np.argsort(-(centroids @ centroids.T), axis=1)[:, :probe]
    for c, queries in enumerate(members):
        if not len(queries):
            continue
        # the cluster itself first, so the query's own column is its position in `queries`
        others = [members[o] for o in closest[c] if o != c]
        candidates = np.concatenate([queries, *others])
        for start in range(0, len(queries), BLOCK):
            chunk = queries[start : start + BLOCK]
            scores = vectors[chunk] @ vectors[candidates].T
            own = np.arange(start, start + len(chunk))
            _top(scores, chunk, candidates, k, near, best, own)
    return near, best


def _top(scores, queries, candidates, k, near, best, own):
    import numpy as np

    rows = np.arange(len(queries))
    scores[rows, own] = -np.inf  # never the paper itself
    take = min(k, scores.shape[1] - 1)
    if take <= 0:
        return
    part = np.argpartition(-scores, take - 1, axis=1)[:, :take]
    values = np.take_along_axis(scores, part, axis=1)
    order = np.argsort(-values, axis=1, kind="stable")
    part = np.take_along_axis(part, order, axis=1)
    values = np.take_along_axis(values, order, axis=1)
    keep = np.isfinite(values)
    found = np.where(keep, np.asarray(candidates)[part], -1)
    near[queries, :take] = found
    best[queries, :take] = np.where(keep, values, 0)


def _clusters(vectors, iterations: int = 6):
    """Spherical k-means (about sqrt(N) centroids, fitted on a sample): centroids, labels."""
    import numpy as np

    n = len(vectors)
    count = max(2, int(np.sqrt(n)))
    rng = np.random.default_rng(SEED)
    sample = vectors[rng.choice(n, min(n, count * 40), replace=False)].copy()
    normalise(sample)
    centroids = sample[rng.choice(len(sample), count, replace=False)].copy()
    for _ in range(iterations):
        labels = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, labels, sample)
        empty = ~sums.any(axis=1)
        sums[empty] = centroids[empty]
        normalise(sums)
        centroids = sums
    labels = np.concatenate(
        [np.argmax(vectors[s : s + 10_000] @ centroids.T, axis=1) for s in range(0, n, 10_000)]
    )
    return centroids, labels
