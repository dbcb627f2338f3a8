"""Similar papers from a model the app fits on its own collection, at load time.

``refresh_embeddings()`` (called by the loader once a load has finished) fits LSA on the
collection: TF-IDF over the title (counted ``TITLE_REPEAT`` times) and the abstract, never the
author names (sublinear tf, English stop words, words in 2 to half of the papers), a truncated
SVD to ``DIMENSIONS`` dimensions (randomized, fitted on at most ``FIT_SAMPLE`` papers, every
paper projected), each vector normalised. Each vector is then smoothed towards its
``SMOOTH_NEIGHBOURS`` nearest neighbours (one step of diffusion over the k-nearest-neighbour
graph: papers in the same dense region of the collection move closer). A large load has that
fit (``fit``, which reads only the texts) started before its commit, in a forked process
(papers/fit_ahead.py), and the refresh takes the model when it was fitted on the same texts.

A pair's score fuses that text cosine with the signals a reader can check: ``YEAR_BOOST`` when
the papers appeared the same year, ``VENUE_BOOST`` when at the same conference (a volume and its
parent count as one), ``AREA_BOOST`` times the product of the two papers' confidences in each
research area they share (the ACL areas of papers/tagging.py, linked by the topic model, a
curator or a dump; an area rule's link is a word match, not a paper's area, and is left out),
``AUTHOR_BOOST`` per shared author (at most ``AUTHOR_CAP``), ``RARE_WEIGHT`` times the weight of
the rare words both use, which the 128 dimensions have no room for (papers/rare_words.py). Each
paper's ``NEIGHBOURS`` best papers under that score are stored in the Similarity table (plain
real[] arrays, no pgvector, written by one binary COPY: papers/similarity_store.py) with the
smoothed embedding, so the paper and similar pages read one row. The venue, year and area
signals are appended to the vectors (scaled columns), so the nearest-neighbour search
(papers/neighbours.py) ranks by the fused score directly; papers sharing authors are added as
candidates from the authorship table, and those sharing the most rare words from the rare words'
products.

The fitted model itself (vocabulary, idf, SVD components, the embeddings, each paper's year,
conference and rare words' part) is stored in SimilarityState.model, so that web processes can
project a text or a newly saved paper into it (papers/similarity_model.py).

Measured in the app's own setting (bench/quality.py --only similar-app: the whole Anthology
loaded, 26,014 papers; each labelled ACL 2020 paper's first five labelled papers among its 100
similar papers, missing slots counted as misses), P@5 same-track on the 753 papers of
tracks.csv: 0.608 (0.617 on the half the weights were chosen on, 0.599 on the other), P@10 0.52;
TF-IDF cosine in the same setting 0.32. Those figures are flattered: the area-topic model
trained on the tracks of 519 of these papers, so their areas repeat their labels. With every
labelled paper's areas from a topic model that never saw its label (bench/crossfit.py), P@5 is
0.469 (0.485 tuning half, 0.454 held-out half, 0.432 on the 234 papers outside the training
file). The rare words cost 0.003 of it (0.472 without) for narrow subjects: the share of a
paper's first five using a narrow word of its title (ten words chosen on, "sarcas", "irony",
"sign language" …) rose from 0.28 to 0.52, and on ten others ("poetry", "coreference" …) from
0.60 to 0.68 (YEAR_BOOST tells why the same year counts little). A refresh (imports left out)
takes about 6 s at 26,000 papers and 21-26 s at 100,000 on a shared 2-core machine
(bench/run.py's collection), TF-IDF (one core) the most; the rare words' products about 1 s.

A refresh is skipped when the collection's fingerprint (count and a hash of every id, title and
abstract, and of every area link) is the one the stored rows were computed from. numpy, scipy
and scikit-learn are imported inside the functions, so web processes that only read the stored
rows never load them.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection

from .neighbours import SEED, merge_best, nearest, nearest_within, normalise, pair_scores
from .rare_words import RARE_WEIGHT, rare_columns, rare_pairs, rare_part
from .similarity_store import Rows, model_blob, store
from .tables import sql

log = logging.getLogger(__name__)

MODEL_VERSION = "v5"  # v5: the rare words' part (papers/rare_words.py)
DIMENSIONS = 128
TITLE_REPEAT = 2
FIT_SAMPLE = 30_000
NEIGHBOURS = 100
SMOOTH_NEIGHBOURS = 5
SMOOTH_WEIGHT = 1.0
# The same year counts a little: at 0.15, 81% of a paper's first ten similar papers were of
# its own year, hiding earlier and later work (an outside tester), for no better ordering by
# subject (P@5 of the labelled papers among the first 100, bench/quality.py's papers: 0.629
# at 0.15, 0.630 at 0.05, 0.628 at 0): 48% at 0.05.
YEAR_BOOST = 0.05
VENUE_BOOST = 0.02
AREA_BOOST = 0.3
AUTHOR_BOOST = 0.05
AUTHOR_CAP = 2
AUTHOR_MAX_PAPERS = 60  # prolific authors' papers are not all candidates of each other

# The papers' text and their area links: the model reads both.
_FINGERPRINT_SQL = """
SELECT p.n, p.hash,
       (SELECT COALESCE(sum(hashtextextended(paper_id || ' ' || topic_id || ' ' || weight, 0)
                            %% 1000000007), 0) FROM ({areas}) AS links)
FROM (SELECT count(*) AS n,
             COALESCE(sum(hashtextextended(id::text || ' ' || title || ' ' || abstract, 0)
                          %% 1000000007), 0) AS hash
      FROM {paper}) AS p
"""

# Each paper's links to the area topics (of the papers %(ids)s, every paper's when NULL), but
# an area rule's (see above), with the topic model's confidence (1 for a curator's or a dump's
# link).
_AREAS_SQL = """
SELECT pt.paper_id, pt.topic_id, t.slug, COALESCE(pt.confidence, 1)::float8 AS weight
FROM {paper_topic} pt JOIN {topic} t ON t.id = pt.topic_id
WHERE t.slug = ANY(%(areas)s) AND pt.source <> 'rule'
  AND (%(ids)s::bigint[] IS NULL OR pt.paper_id = ANY(%(ids)s::bigint[]))
"""

_PAPERS_SQL = """
SELECT p.id, p.title, p.abstract, COALESCE(v.year, 0), COALESCE(v.parent_id, v.id)
FROM {paper} p JOIN {venue} v ON v.id = p.venue_id
ORDER BY p.id
"""

# Authorships of authors with few enough papers to make every pair of them a candidate.
_AUTHORSHIPS_SQL = """
SELECT a.paper_id, a.author_id FROM {authorship} a
WHERE a.author_id IN (SELECT author_id FROM {authorship} GROUP BY author_id
                      HAVING count(*) BETWEEN 2 AND %s)
"""


@dataclass
class Collection:
    """What the fit reads: each paper's id, model text, year, conference and area weights
    (float32 [n, areas], the confidence of each area link, 0 where none)."""

    ids: list[int]
    texts: list[str]
    years: list[int]
    events: list[int]
    areas: object


def model_text(title: str, abstract: str) -> str:
    """The text the model reads for a paper: the title TITLE_REPEAT times, then the abstract,
    one per line."""
    return "\n".join([title] * TITLE_REPEAT + [abstract])


def model_title(text: str) -> str:
    """The title of a model text (a title is one line)."""
    return text.split("\n", 1)[0]


def area_slugs() -> list[str]:
    """The area topics' slugs (imported here: papers.tagging imports the models, which import
    this module through the similar-papers queries)."""
    from .tagging import AREA_SLUGS

    return sorted(AREA_SLUGS)


def fingerprint() -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            sql(_FINGERPRINT_SQL, areas=sql(_AREAS_SQL)), {"areas": area_slugs(), "ids": None}
        )
        count, digest, areas = cursor.fetchone()
    return f"{MODEL_VERSION}:{DIMENSIONS}:{count}:{digest}:{areas}"


def stored_fingerprint() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(sql("SELECT fingerprint FROM {similarity_state} WHERE id = 1"))
        row = cursor.fetchone()
    return row[0] if row else None


def read_collection() -> Collection:
    with connection.cursor() as cursor:
        cursor.execute(sql(_PAPERS_SQL))
        rows = cursor.fetchall()
    ids = [row[0] for row in rows]
    return Collection(
        ids=ids,
        texts=[model_text(row[1], row[2]) for row in rows],
        years=[row[3] for row in rows],
        events=[row[4] for row in rows],
        areas=area_weights(ids, every_paper=True),
    )


def area_weights(ids: list[int], every_paper: bool = False):
    """The papers' area weights, float32 [len(ids), areas] (columns in area_slugs() order);
    ``every_paper``: ``ids`` are the whole collection, read without naming them."""
    import numpy as np

    slugs = area_slugs()
    position = {pk: row for row, pk in enumerate(ids)}
    with connection.cursor() as cursor:
        cursor.execute(sql(_AREAS_SQL), {"areas": slugs, "ids": None if every_paper else ids})
        links = [row for row in cursor.fetchall() if row[0] in position]
    weights = np.zeros((len(ids), len(slugs)), dtype=np.float32)
    for paper, _topic, slug, weight in links:
        weights[position[paper], slugs.index(slug)] = weight
    return weights


def refresh_embeddings(force: bool = False, ahead=None) -> dict:
    """Fit the collection's embeddings and nearest neighbours, unless nothing changed.
    ``ahead``: a fit a load started before its commit (papers/fit_ahead.py), taken when it read
    the very texts read here; its neighbours too when it read the very other inputs.

    Returns a summary: {"skipped": bool, "papers": n, "seconds": s} (and "reason" when
    nothing was computed).
    """
    started = time.perf_counter()
    current = fingerprint()
    if not force and stored_fingerprint() == current:
        return {"skipped": True, "reason": "unchanged", "papers": 0, "seconds": 0.0}
    collection = read_collection()
    shared = shared_authors(collection.ids)
    with one_blas_thread():
        taken, fitted, rows_out = ahead.take(collection, shared) if ahead else (False, None, None)
        if not taken:
            fitted = fit(collection.texts)
        if fitted is not None and rows_out is None:
            rows_out = neighbour_rows(collection, fitted, shared)
        blob = None if fitted is None else model_blob(collection, fitted)
    papers = store(rows_out, current, fitted, blob)
    seconds = time.perf_counter() - started
    log.info("similar papers: %d papers in %.1f s", papers, seconds)
    return {"skipped": False, "papers": papers, "seconds": round(seconds, 1)}


@contextmanager
def one_blas_thread():
    """Every BLAS library the model uses held to one thread for the block: the products here
    are many and small, and OpenBLAS threads contending with the web and database processes
    made them 10-20x slower on a 2-core machine. scipy's BLAS is loaded first (the limit holds
    only the libraries loaded when it is set): a process's first fit otherwise ran scipy's
    products on every core, and its floats differed from those of the fits after it."""
    from sklearn.utils.extmath import randomized_svd  # noqa: F401 - loads scipy's BLAS
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


def fit(texts: list[str]) -> dict | None:
    """The fitted model, or None when the collection is too small or has no word in two
    papers. "embeddings": the normalised smoothed LSA vectors (float32 [n, d]); "valid": the
    papers with any known word; "rare": each paper's rare part on the words "rare_columns", and
    "rare_pairs" the valid papers sharing the most (papers/rare_words.py; here, a load's fit
    runs ahead of its commit); "terms", "idf" and "components" project a text."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.utils.extmath import randomized_svd

    n = len(texts)
    if n < 3:
        return None
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
        return None
    dims = min(DIMENSIONS, matrix.shape[1] - 1, n - 1)
    if dims < 2:
        return None
    rng = np.random.default_rng(SEED)
    sample = np.sort(rng.choice(n, FIT_SAMPLE, replace=False)) if n > FIT_SAMPLE else None
    fit_on = matrix if sample is None else matrix[sample]
    _, _, components = randomized_svd(fit_on, dims, n_iter=3, random_state=SEED)
    components = components.astype(np.float32)
    vectors = np.asarray(matrix @ components.T, dtype=np.float32)
    valid = normalise(vectors) > 0
    if valid.sum() < 2:
        return None
    rare, columns = _rare_parts(matrix, vectorizer, texts)
    return {
        "rare": rare,
        "rare_columns": columns,
        "rare_pairs": rare_pairs(rare[np.flatnonzero(valid)]),
        "terms": vectorizer.get_feature_names_out(),
        "idf": vectorizer.idf_.astype(np.float32),
        "components": components,
        "embeddings": smooth(vectors, valid),
        "valid": valid,
    }


def _rare_parts(matrix, vectorizer, texts: list[str]):
    """(the papers' rare parts, the rare words' columns): papers/rare_words.py."""
    import numpy as np
    from sklearn.feature_extraction.text import CountVectorizer

    columns = rare_columns(matrix)
    titled = CountVectorizer(
        vocabulary=vectorizer.vocabulary_, binary=True, stop_words="english", dtype=np.float32
    ).transform([model_title(text) for text in texts])
    return rare_part(matrix, titled, columns, vectorizer.idf_), columns


def smooth(vectors, valid):
    """Each valid vector moved towards the mean of its SMOOTH_NEIGHBOURS nearest, normalised."""
    import numpy as np

    index = np.flatnonzero(valid)
    near, _ = nearest(vectors[index], min(SMOOTH_NEIGHBOURS, len(index) - 1))
    smoothed = vectors.copy()
    smoothed[index] += SMOOTH_WEIGHT * vectors[index][near].mean(axis=1)
    normalise(smoothed)
    return smoothed


def with_signals(embeddings, years, events, year_codes, event_codes, areas):
    """The embeddings with the year and conference appended as scaled one-hot columns and the
    area weights scaled, so that one inner product is cosine + YEAR_BOOST·same year +
    VENUE_BOOST·same conference + AREA_BOOST·Σ (the two papers' weights in each area)."""
    import numpy as np

    n = len(embeddings)
    year_part = np.zeros((n, len(year_codes)), dtype=np.float32)
    event_part = np.zeros((n, len(event_codes)), dtype=np.float32)
    rows = np.arange(n)
    year_index = np.array([year_codes.get(year, -1) for year in years], dtype=np.int64)
    event_index = np.array([event_codes.get(event, -1) for event in events], dtype=np.int64)
    known = (year_index >= 0) & (np.asarray(years) > 0)
    year_part[rows[known], year_index[known]] = np.sqrt(YEAR_BOOST)
    known = event_index >= 0
    event_part[rows[known], event_index[known]] = np.sqrt(VENUE_BOOST)
    area_part = np.float32(np.sqrt(AREA_BOOST)) * areas  # float32: a float64 scalar widens it
    return np.hstack([embeddings, year_part, event_part, area_part])


def codes(values) -> dict:
    return {value: code for code, value in enumerate(sorted(set(values)))}


def shared_authors(ids: list[int]):
    """A sparse [n, n] matrix: how many authors each pair of papers shares (diagonal zero)."""
    import numpy as np
    from scipy import sparse

    position = {pk: row for row, pk in enumerate(ids)}
    with connection.cursor() as cursor:
        cursor.execute(sql(_AUTHORSHIPS_SQL), [AUTHOR_MAX_PAPERS])
        pairs = [(position[p], a) for p, a in cursor.fetchall() if p in position]
    if not pairs:
        return sparse.csr_matrix((len(ids), len(ids)), dtype=np.float32)
    rows, authors = zip(*pairs, strict=True)
    author_index = codes(authors)
    matrix = sparse.csr_matrix(
        (
            np.ones(len(rows), dtype=np.float32),
            (rows, [author_index[a] for a in authors]),
        ),
        shape=(len(ids), len(author_index)),
    )
    shared = (matrix @ matrix.T).tocsr()
    shared.setdiag(0)
    shared.eliminate_zeros()
    return shared


def neighbour_rows(collection: Collection, fitted: dict, shared) -> Rows:
    """The Similarity rows: paper ids, embeddings, neighbour ids and their fused scores.

    Candidates: the approximate search over the whole collection, the search within the paper's
    own year (exact up to EXACT_LIMIT papers a year: the same-year signal puts most of a
    paper's best neighbours there, where the clusters of the whole collection miss some), the
    papers sharing its authors and those sharing the most rare words with it
    (papers/rare_words.py); each by its exact fused inner product (the searches' own scores;
    plus the shared authors' or rare words' part), merged over whole blocks of rows
    (papers/neighbours.py merge_best: a pair found twice keeps its best score)."""
    import numpy as np
    from scipy import sparse

    valid = fitted["valid"]
    index = np.flatnonzero(valid)
    years = np.asarray(collection.years)[index]
    vectors = with_signals(
        fitted["embeddings"][index],
        years.tolist(),
        [collection.events[i] for i in index],
        codes(collection.years),
        codes(collection.events),
        collection.areas[index],
    )
    shared = shared[index][:, index].tocoo()
    k = min(NEIGHBOURS, len(index) - 1)
    # Papers sharing authors or rare words: their fused score plus AUTHOR_BOOST per shared
    # author (capped) plus RARE_WEIGHT times the rare weight shared.
    rows, columns, rare_shared = fitted["rare_pairs"]
    bonus = sparse.coo_matrix(
        (AUTHOR_BOOST * np.minimum(shared.data, AUTHOR_CAP), (shared.row, shared.col)),
        shape=shared.shape,
    ) + sparse.coo_matrix((RARE_WEIGHT * rare_shared, (rows, columns)), shape=shared.shape)
    bonus = bonus.tocoo()  # rows in order, each pair once
    extra = (bonus.row, bonus.col, pair_scores(vectors, bonus.row, bonus.col) + bonus.data)
    found, fused = merge_best([nearest(vectors, k), nearest_within(vectors, years, k)], extra, k)
    ids = np.asarray(collection.ids, dtype=np.int64)[index]
    return Rows(ids, fitted["embeddings"][index], np.where(found >= 0, ids[found], -1), fused)
