"""Nearest neighbours by inner product over dense vectors (numpy only, no database).

Exact up to ``EXACT_LIMIT`` vectors; beyond, an inverted-file search: spherical k-means puts
the vectors into about sqrt(N) clusters and each cluster's vectors are compared with the vectors
of its nearest clusters only (about ``PROBE_CANDIDATES``), so the search stays near-linear in N.
The vectors need not be unit length (papers/similarity.py appends its venue and year signals
to the text vectors): the inner product is the score, the clusters only choose candidates.

The blocks of queries are searched, and the blocks of rows merged (``merge_best``) and of pairs
scored (``pair_scores``), by ``THREADS`` threads: numpy's products, partitions and sorts release
the GIL, and each block writes rows of its own, so the two cores of a small server share the
work (the caller keeps BLAS itself to one thread per call).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

THREADS = max(1, min(2, os.cpu_count() or 1))
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
        everything = np.arange(n)
        _in_threads(
            lambda start: _search(
                vectors, everything[start : start + BLOCK], everything, start, k, near, best
            ),
            range(0, n, BLOCK),
        )
        return near, best
    centroids, labels = _clusters(vectors)
    members = [np.flatnonzero(labels == c) for c in range(len(centroids))]
    size = max(1.0, n / len(centroids))
    probe = int(min(len(centroids), max(2, round(PROBE_CANDIDATES / size))))
    closest = np.argsort(-(centroids @ centroids.T), axis=1)[:, :probe]

    def cluster(c):
        queries = members[c]
        # the cluster itself first, so the query's own column is its position in `queries`
        others = [members[o] for o in closest[c] if o != c]
        candidates = np.concatenate([queries, *others])
        for start in range(0, len(queries), BLOCK):
            _search(vectors, queries[start : start + BLOCK], candidates, start, k, near, best)

    _in_threads(cluster, [c for c in range(len(centroids)) if len(members[c])])
    return near, best


def nearest_within(vectors, groups, k: int):
    """Each row's k nearest rows of its own group (groups > 0; rows of group 0 get none), as
    ``nearest`` finds them: (indices into ``vectors``, scores), best first; -1 pads."""
    import numpy as np

    near = np.full((len(vectors), k), -1, dtype=np.int64)
    best = np.zeros((len(vectors), k), dtype=np.float32)
    for group in np.unique(groups[groups > 0]):
        members = np.flatnonzero(groups == group)
        if len(members) < 2:
            continue
        local, scores = nearest(vectors[members], min(k, len(members) - 1))
        near[members, : local.shape[1]] = np.where(local >= 0, members[local], -1)
        best[members, : scores.shape[1]] = scores
    return near, best


def pair_scores(vectors, rows, columns, block: int = 16_384):
    """The inner product of each pair (vectors[rows[i]], vectors[columns[i]]), float32, a block
    of pairs at a time (gathering all 4.6 million pairs' vectors of a 100,000-paper collection
    at once took 7 GB and 20 s)."""
    import numpy as np

    scores = np.empty(len(rows), dtype=np.float32)

    def pairs(start):
        part = slice(start, start + block)
        scores[part] = np.einsum("ij,ij->i", vectors[rows[part]], vectors[columns[part]])

    _in_threads(pairs, range(0, len(rows), block))
    return scores


def _in_threads(work, items) -> None:
    """``work`` on every item, by THREADS threads (errors re-raised here)."""
    if THREADS == 1:
        for item in items:
            work(item)
        return
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for _ in pool.map(work, items):
            pass


def _search(vectors, chunk, candidates, offset, k, near, best) -> None:
    """The chunk's k best among ``candidates``, where chunk[i] is candidates[offset + i]."""
    import numpy as np

    scores = vectors[chunk] @ vectors[candidates].T
    _top(scores, chunk, candidates, k, near, best, np.arange(offset, offset + len(chunk)))


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


def merge_best(lists, extra, k: int, chunk: int = 1_024):
    """Each row's k best of several candidate lists, as (indices, scores) padded with -1.

    ``lists`` are (indices [n, m], scores [n, m]) pairs, as ``nearest`` returns them; ``extra``
    is (rows, columns, scores) of further candidates sorted by row (the caller's own signals).
    A candidate found more than once keeps its best score; ties go to the lower index. Blocks of
    rows are merged as matrices (row-wise sorts in numpy), never row by row in Python, by
    THREADS threads; a block is as wide as its row with the most extras (1,000 for a prolific
    author's paper at 100,000 papers), so blocks are small.
    """
    import numpy as np

    n = len(lists[0][0])
    near = np.full((n, k), -1, dtype=np.int64)
    best = np.zeros((n, k), dtype=np.float32)
    extra_rows, extra_columns, extra_scores = (np.asarray(part) for part in extra)

    def merge(start):
        stop = min(start + chunk, n)
        low, high = np.searchsorted(extra_rows, [start, stop])
        padded = _padded(
            extra_rows[low:high] - start,
            extra_columns[low:high],
            extra_scores[low:high],
            stop - start,
        )
        columns = np.hstack([indices[start:stop] for indices, _ in lists] + [padded[0]])
        scores = np.hstack([values[start:stop] for _, values in lists] + [padded[1]])
        found, values = _best_distinct(columns, scores, np.arange(start, stop), len(lists) + 1, k)
        near[start:stop, : found.shape[1]] = found
        best[start:stop, : values.shape[1]] = values

    _in_threads(merge, range(0, n, chunk))
    return near, best


def _padded(rows, columns, scores, height: int):
    """The (row, column, score) triples as two [height, widest row] matrices, -1 padded."""
    import numpy as np

    counts = np.bincount(rows, minlength=height)
    width = int(counts.max()) if len(rows) else 0
    place = np.arange(len(rows)) - (np.cumsum(counts) - counts)[rows]
    padded_columns = np.full((height, width), -1, dtype=np.int64)
    padded_scores = np.zeros((height, width), dtype=np.float32)
    padded_columns[rows, place] = columns
    padded_scores[rows, place] = scores
    return padded_columns, padded_scores


def _best_distinct(columns, scores, own, sources: int, k: int):
    """Each row's k best distinct columns (a column repeats at most ``sources`` times a row)."""
    import numpy as np

    scores = np.where((columns >= 0) & (columns != own[:, None]), scores, -np.inf)
    order = np.argsort(columns, axis=1, kind="stable")
    columns = np.take_along_axis(columns, order, axis=1)
    scores = np.take_along_axis(scores, order, axis=1).astype(np.float32)
    repeated = columns[:, 1:] == columns[:, :-1]
    for _ in range(sources - 1):  # carry each run's best score to its last entry
        scores[:, 1:] = np.where(repeated, np.maximum(scores[:, 1:], scores[:, :-1]), scores[:, 1:])
    scores[:, :-1][repeated] = -np.inf
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]  # ties: the lower column first
    columns = np.take_along_axis(columns, order, axis=1)
    scores = np.take_along_axis(scores, order, axis=1)
    kept = np.isfinite(scores)
    return np.where(kept, columns, -1), np.where(kept, scores, 0).astype(np.float32)
