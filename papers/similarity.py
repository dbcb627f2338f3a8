"""Similar papers from a model the app fits on its own collection, at load time.

``refresh_embeddings()`` (called by the loader once a load has finished) fits LSA on the
collection: TF-IDF over title and abstract (sublinear tf, English stop words, words in 2 to
half of the papers), a truncated SVD to ``DIMENSIONS`` dimensions (randomized, fitted on at
most ``FIT_SAMPLE`` papers, every paper projected), each vector normalised. Each vector is then
smoothed towards its ``SMOOTH_NEIGHBOURS`` nearest neighbours (one step of diffusion over the
k-nearest-neighbour graph: papers in the same dense region of the collection move closer), and
each paper's ``NEIGHBOURS`` nearest papers under the smoothed vectors are stored with their
cosines in the Similarity table (plain real[] arrays, no pgvector), so the paper
and similar pages read one row instead of comparing vectors per request.

Nearest neighbours are exact up to ``EXACT_LIMIT`` papers; beyond, an inverted-file search:
spherical k-means puts the papers into about sqrt(N) clusters and each cluster's papers are
compared with the papers of its nearest clusters only (about ``PROBE_CANDIDATES`` papers), so the
refresh stays near-linear in the collection.

Measured on the 1,504 ACL/EMNLP 2020 papers of tracks.csv, ranked among themselves, P@5
same-track (bench/quality.py): TF-IDF cosine 0.42, LSA 0.47, smoothed LSA 0.49 (+ shared
topics 0.49).

A refresh is skipped when the collection's fingerprint (count and a hash of every id, title and
abstract) is the one the stored rows were computed from. A paper added since the last refresh
has no row: its similar papers come from the full-text "more like this" path (papers/similar.py).
numpy, scipy and scikit-learn are imported inside the functions, so the web processes, which
only read the stored rows, never load them.
"""

from __future__ import annotations

import logging
import time

from django.db import connection, transaction

from .tables import sql

log = logging.getLogger(__name__)

DIMENSIONS = 128
FIT_SAMPLE = 30_000
NEIGHBOURS = 100
SMOOTH_NEIGHBOURS = 5
SMOOTH_WEIGHT = 1.0
EXACT_LIMIT = 8_000
PROBE_CANDIDATES = 1_500
BLOCK = 1_000
SEED = 20240607

_STATE_SQL = """
INSERT INTO {similarity_state} (id, fingerprint, papers, dimensions, computed)
VALUES (1, %s, %s, %s, now())
ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, papers = EXCLUDED.papers,
    dimensions = EXCLUDED.dimensions, computed = EXCLUDED.computed
"""

_FINGERPRINT_SQL = """
SELECT count(*),
       COALESCE(sum(hashtextextended(id::text || ' ' || title || ' ' || abstract, 0)
                    % 1000000007), 0)
FROM {paper}
"""


def fingerprint() -> str:
    with connection.cursor() as cursor:
        cursor.execute(sql(_FINGERPRINT_SQL))
        count, digest = cursor.fetchone()
    return f"v1:{DIMENSIONS}:{count}:{digest}"


def stored_fingerprint() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(sql("SELECT fingerprint FROM {similarity_state} WHERE id = 1"))
        row = cursor.fetchone()
    return row[0] if row else None


def refresh_embeddings(force: bool = False) -> dict:
    """Fit the collection's embeddings and nearest neighbours, unless nothing changed.

    Returns a summary: {"skipped": bool, "papers": n, "seconds": s} (and "reason" when
    nothing was computed).
    """
    started = time.perf_counter()
    current = fingerprint()
    if not force and stored_fingerprint() == current:
        return {"skipped": True, "reason": "unchanged", "papers": 0, "seconds": 0.0}
    with connection.cursor() as cursor:
        cursor.execute(sql("SELECT id, title, abstract FROM {paper} ORDER BY id"))
        rows = cursor.fetchall()
    ids = [row[0] for row in rows]
    texts = [f"{row[1]}. {row[2]}" for row in rows]
    del rows
    from threadpoolctl import threadpool_limits

    # One BLAS thread: the products here are many and small, and OpenBLAS threads contending
    # with the web and database processes made them 10-20x slower on a 2-core machine.
    with threadpool_limits(limits=1):
        embeddings, valid = embed(texts)
        rows_out = []
        if embeddings is not None:
            rows_out = neighbour_rows(ids, embeddings, valid)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql("DELETE FROM {similarity}"))
        if rows_out:
            with cursor.copy(
                sql("COPY {similarity} (paper_id, embedding, neighbours, scores) FROM STDIN")
            ) as copy:
                for line in rows_out:
                    copy.write(line)
        cursor.execute(
            sql(_STATE_SQL),
            [current, len(rows_out), 0 if embeddings is None else embeddings.shape[1]],
        )
    seconds = time.perf_counter() - started
    log.info("similar papers: %d papers in %.1f s", len(rows_out), seconds)
    return {"skipped": False, "papers": len(rows_out), "seconds": round(seconds, 1)}


def embed(texts: list[str]):
    """(normalised smoothed LSA vectors as float32 [n, d], mask of papers with any text)."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.utils.extmath import randomized_svd

    n = len(texts)
    if n < 3:
        return None, None
    vectorizer = TfidfVectorizer(
        stop_words="english",
        sublinear_tf=True,
        min_df=2,
        max_df=0.5 if n >= 50 else 1.0,
        dtype=np.float32,
    )
    try:
        matrix = vectorizer.fit_transform(texts)
    except ValueError:  # no word in two papers
        return None, None
    dims = min(DIMENSIONS, matrix.shape[1] - 1, n - 1)
    if dims < 2:
        return None, None
    rng = np.random.default_rng(SEED)
    sample = np.sort(rng.choice(n, FIT_SAMPLE, replace=False)) if n > FIT_SAMPLE else None
    fit_on = matrix if sample is None else matrix[sample]
    _, _, components = randomized_svd(fit_on, dims, n_iter=3, random_state=SEED)
    vectors = np.asarray(matrix @ components.T.astype(np.float32), dtype=np.float32)
    valid = _normalise(vectors) > 0
    index = np.flatnonzero(valid)
    if len(index) < 2:
        return None, None
    near, _ = nearest(vectors[index], min(SMOOTH_NEIGHBOURS, len(index) - 1))
    smoothed = vectors.copy()
    smoothed[index] += SMOOTH_WEIGHT * vectors[index][near].mean(axis=1)
    _normalise(smoothed)
    return smoothed, valid


def neighbour_rows(ids, vectors, valid) -> list[str]:
    """COPY text lines: paper id, embedding, neighbour ids and their cosines, best first."""
    import numpy as np

    index = np.flatnonzero(valid)
    k = min(NEIGHBOURS, len(index) - 1)
    near, cosines = nearest(vectors[index], k)
    id_array = np.asarray(ids)[index]
    lines = []
    # Rounded in float64 so that str() gives the short decimal (fast, and small rows).
    rounded = vectors[index].astype(np.float64).round(5).tolist()
    rounded_cosines = cosines.astype(np.float64).round(4).tolist()
    for row, position in enumerate(index):
        found = near[row] >= 0
        count = int(found.sum())
        embedding = ",".join(map(str, rounded[row]))
        neighbours = ",".join(map(str, id_array[near[row][found]].tolist()))
        scores = ",".join(map(str, rounded_cosines[row][:count]))  # found ones come first
        lines.append(f"{ids[position]}\t{{{embedding}}}\t{{{neighbours}}}\t{{{scores}}}\n")
    return lines


def _normalise(vectors):
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1)
    safe = np.where(norms > 0, norms, 1.0).astype(vectors.dtype)
    vectors /= safe[:, None]
    return norms


def nearest(vectors, k: int):
    """Each row's k nearest other rows by cosine: (indices, cosines), best first; -1 pads."""
    import numpy as np

    n = len(vectors)
    near = np.full((n, k), -1, dtype=np.int64)
    cosines = np.zeros((n, k), dtype=np.float32)
    if k <= 0:
        return near, cosines
    if n <= EXACT_LIMIT:
        for start in range(0, n, BLOCK):
            queries = np.arange(start, min(start + BLOCK, n))
            _top(vectors[queries] @ vectors.T, queries, np.arange(n), k, near, cosines, own=queries)
        return near, cosines
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
            _top(scores, chunk, candidates, k, near, cosines, own)
    return near, cosines


def _top(scores, queries, candidates, k, near, cosines, own):
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
    cosines[queries, :take] = np.where(keep, values, 0)


def _clusters(vectors, iterations: int = 6):
    """Spherical k-means (about sqrt(N) centroids, fitted on a sample): centroids, labels."""
    import numpy as np

    n = len(vectors)
    count = max(2, int(np.sqrt(n)))
    rng = np.random.default_rng(SEED)
    sample = vectors[rng.choice(n, min(n, count * 40), replace=False)]
    centroids = sample[rng.choice(len(sample), count, replace=False)].copy()
    for _ in range(iterations):
        labels = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, labels, sample)
        empty = ~sums.any(axis=1)
        sums[empty] = centroids[empty]
        _normalise(sums)
        centroids = sums
    labels = np.concatenate(
        [np.argmax(vectors[s : s + 10_000] @ centroids.T, axis=1) for s in range(0, n, 10_000)]
    )
    return centroids, labels
