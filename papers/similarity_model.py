"""The fitted similar-papers model read back: papers like a pasted text, and a paper projected
into the model when a curator saves it.

papers/similarity.py stores the fitted model (vocabulary, idf, SVD components, each fitted
paper's embedding, year, conference and area weights) in SimilarityState.model. A process
loads it once and keeps it while the stored fingerprint is unchanged (one short query per use
checks it). A text is projected as the fit projected the papers — sublinear TF-IDF over the
model's vocabulary, the SVD components, normalised — then smoothed towards its
SMOOTH_NEIGHBOURS nearest stored embeddings; the score adds the share of the text's rare
words each paper uses (papers/rare_words.py, from each fitted paper's stored rare part). Papers
projected on save since the fit (Similarity.projected) are read with their embeddings by each
text search (their texts once per process while those rows are unchanged), so they are found
too, with their new text; a paper projected on save gets its rare part from its title and
abstract, as the fit gave the others theirs.

numpy and scikit-learn are imported inside the functions, as in papers/similarity.py.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from dataclasses import dataclass, field

from django.db import connection, transaction

from . import similarity
from .neighbours import normalise
from .rare_words import RARE_WEIGHT, rare_coverage, rare_part, rare_scores
from .similar import SHOWN_TERM_FLOOR, SHOWN_TERM_SHARE, SIMILAR_SHOWN_MAX
from .tables import sql

_cache: dict = {}

_PROJECTED_SQL = "SELECT paper_id, embedding FROM {similarity} WHERE projected"
_TEXTS_SQL = "SELECT id, title, abstract FROM {paper} WHERE id = ANY(%s)"

_PAPER_SQL = """
SELECT p.title, p.abstract, COALESCE(v.year, 0), COALESCE(v.parent_id, v.id)
FROM {paper} p JOIN {venue} v ON v.id = p.venue_id WHERE p.id = %s
"""

# Papers sharing authors with the paper (authors of at most AUTHOR_MAX_PAPERS papers, as in
# the fit), with how many.
_COAUTHORED_SQL = """
SELECT y.paper_id, count(*) FROM {authorship} x
JOIN {authorship} y ON y.author_id = x.author_id AND y.paper_id <> x.paper_id
WHERE x.paper_id = %s
  AND (SELECT count(*) FROM {authorship} z WHERE z.author_id = x.author_id) <= %s
GROUP BY y.paper_id
"""

_WRITE_ROW_SQL = """
INSERT INTO {similarity} (paper_id, embedding, neighbours, scores, projected)
VALUES (%s, %s, %s, %s, true)
ON CONFLICT (paper_id) DO UPDATE SET embedding = EXCLUDED.embedding,
    neighbours = EXCLUDED.neighbours, scores = EXCLUDED.scores, projected = true
"""


@dataclass
class Model:
    """The stored model, as arrays, with what projecting a text needs."""

    fingerprint: str
    arrays: dict
    vocabulary: dict[str, int] = field(default_factory=dict)
    position: dict[int, int] = field(default_factory=dict)
    counter: object = None
    rare: object = None  # each paper's rare part (papers/rare_words.py); None in older models

    @property
    def embeddings(self):
        return self.arrays["embeddings"]


def current_model() -> Model | None:
    """The stored model (loaded once per process and fingerprint), or None before a fit."""
    with connection.cursor() as cursor:
        cursor.execute(
            sql("SELECT fingerprint FROM {similarity_state} WHERE id = 1 AND model IS NOT NULL")
        )
        row = cursor.fetchone()
    if row is None:
        return None
    cached = _cache.get("model")
    if cached is not None and cached.fingerprint == row[0]:
        return cached
    with connection.cursor() as cursor:
        cursor.execute(sql("SELECT fingerprint, model FROM {similarity_state} WHERE id = 1"))
        fingerprint, blob = cursor.fetchone()
    model = _read(fingerprint, bytes(blob))
    _cache["model"] = model
    return model


def _read(fingerprint: str, blob: bytes) -> Model:
    import numpy as np
    from scipy import sparse
    from sklearn.feature_extraction.text import CountVectorizer

    with np.load(io.BytesIO(blob), allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    if "areas" not in arrays:  # a model stored before the area signal: no paper has an area
        arrays["areas"] = np.zeros((len(arrays["ids"]), len(similarity.area_slugs())), np.float32)
    vocabulary = {term: column for column, term in enumerate(arrays["terms"].tolist())}
    rare = None
    if "rare_data" in arrays:
        parts = (arrays["rare_data"], arrays["rare_indices"], arrays["rare_indptr"])
        rare = sparse.csr_matrix(parts, shape=(len(arrays["ids"]), len(arrays["rare_columns"])))
    return Model(
        rare=rare,
        fingerprint=fingerprint,
        arrays=arrays,
        vocabulary=vocabulary,
        position={pk: row for row, pk in enumerate(arrays["ids"].tolist())},
        counter=CountVectorizer(stop_words="english", vocabulary=vocabulary, dtype=np.float32),
    )


def _weighted(model: Model, texts: list[str]):
    """The texts' TF-IDF vectors as the fit weighs them: sublinear, unit length (csr)."""
    import numpy as np
    from sklearn.preprocessing import normalize

    counts = model.counter.transform(texts).tocsr()
    counts.data = 1 + np.log(counts.data)
    return normalize(counts.multiply(model.arrays["idf"]).tocsr())


def _rare_shared(model: Model, weighted, title: str):
    """The rare weight a paper titled ``title``, of TF-IDF vector ``weighted``, shares with
    each fitted paper (papers/rare_words.py); zeros from a model stored without rare parts."""
    import numpy as np

    if model.rare is None:
        return np.zeros(len(model.arrays["ids"]), dtype=np.float32)
    titled = model.counter.transform([title])
    titled.data[:] = 1
    columns, idf = model.arrays["rare_columns"], model.arrays["idf"]
    return rare_scores(model.rare, rare_part(weighted, titled, columns, idf))


def _rare_covered(model: Model, weighted):
    """The share of a text's rare weight (its TF-IDF vector ``weighted``) each fitted paper
    uses (papers/rare_words.py rare_coverage); zeros from a model stored without the rare
    words' parts."""
    import numpy as np

    if model.rare is None:
        return np.zeros(len(model.arrays["ids"]), dtype=np.float32)
    return rare_coverage(model.rare, model.arrays["rare_columns"], weighted)


def _projected_rare(model: Model, ids, embeddings):
    """The rare parts of the papers projected since the fit, in the order of ``ids``: their
    texts read and vectorised once per process while those rows stay the same (every text
    search reads the rows; vectorising 5,000 texts took 0.6 s)."""
    key = (model.fingerprint, ids.tobytes(), embeddings.tobytes())
    cached = _cache.get("projected")
    if cached is not None and cached[0] == key:
        return cached[1]
    with connection.cursor() as cursor:
        cursor.execute(sql(_TEXTS_SQL), [ids.tolist()])
        texts = {pk: similarity.model_text(title, abstract) for pk, title, abstract in cursor}
    weighted = _weighted(model, [texts.get(pk, "") for pk in ids.tolist()])
    rare = weighted.tocsc()[:, model.arrays["rare_columns"]].tocsr()
    _cache["projected"] = (key, rare)
    return rare


def project(model: Model, text: str):
    """(the text's smoothed unit vector in the model, all zeros when no word is known; its
    TF-IDF vector, for the rare words' part)."""
    import numpy as np

    weighted = _weighted(model, [text])
    vector = np.asarray(weighted @ model.arrays["components"].T, dtype=np.float32)
    if not normalise(vector).any():
        return vector[0], weighted
    embeddings = model.embeddings
    near = np.argsort(-(embeddings @ vector[0]), kind="stable")[: similarity.SMOOTH_NEIGHBOURS]
    vector[0] += similarity.SMOOTH_WEIGHT * embeddings[near].mean(axis=0)
    normalise(vector)
    return vector[0], weighted


def _projected_rows():
    """(ids, embeddings) of the papers projected on save since the fit."""
    import numpy as np

    with connection.cursor() as cursor:
        cursor.execute(sql(_PROJECTED_SQL))
        rows = cursor.fetchall()
    ids = np.asarray([row[0] for row in rows], dtype=np.int64)
    embeddings = np.asarray([row[1] for row in rows], dtype=np.float32)
    return ids, embeddings


def similar_to_text(text: str, limit: int, allowed=None) -> list[tuple[int, float]] | None:
    """[(paper id, score)] of the papers most like ``text``, best first, among ``allowed``
    ids when given; None when no model has been fitted yet. The score is the cosine plus
    RARE_WEIGHT times the share of the text's rare weight the paper uses."""
    import numpy as np

    model = current_model()
    if model is None:
        return None
    vector, weighted = project(model, text)
    if not vector.any():
        return []
    ids, embeddings = model.arrays["ids"], model.embeddings
    extra_ids, extra_embeddings = _projected_rows()
    scores = embeddings @ vector + RARE_WEIGHT * _rare_covered(model, weighted)
    if len(extra_ids):
        stale = [model.position[pk] for pk in extra_ids.tolist() if pk in model.position]
        scores[stale] = -np.inf  # their projected text replaces the fitted one
        ids = np.concatenate([ids, extra_ids])
        extra_scores = extra_embeddings @ vector
        if model.rare is not None:
            extra_rare = _projected_rare(model, extra_ids, extra_embeddings)
            columns = model.arrays["rare_columns"]
            extra_scores += RARE_WEIGHT * rare_coverage(extra_rare, columns, weighted)
        scores = np.concatenate([scores, extra_scores])
    if allowed is not None:
        scores = np.where(np.isin(ids, np.asarray(list(allowed), dtype=np.int64)), scores, -np.inf)
    take = min(limit, len(scores))
    best = np.argpartition(-scores, take - 1)[:take] if take else np.array([], dtype=np.int64)
    best = best[np.argsort(-scores[best], kind="stable")]
    return [(int(ids[i]), round(float(scores[i]), 4)) for i in best if np.isfinite(scores[i])]


def shared_terms(model: Model, text: str, paper) -> list[tuple[str, float]]:
    """The distinctive words ``text`` shares with the paper's title and abstract (never with its
    author names, nor a number: "both use '80'" said nothing), most distinctive first, each with
    its share of their weight."""
    analyse = model.counter.build_analyzer()
    idf = model.arrays["idf"]
    papers = len(model.position)
    # smooth idf = ln((1 + n) / (1 + df)) + 1: the idf of a word in SHOWN_TERM_SHARE of papers
    least_idf = math.log((1 + papers) / (1 + max(SHOWN_TERM_FLOOR, papers * SHOWN_TERM_SHARE))) + 1
    asked = Counter(word for word in analyse(text) if word in model.vocabulary)
    found = Counter(analyse(similarity.model_text(paper.title, paper.abstract)))
    names = set(analyse(paper.author_names))
    weights = {}
    for word, count in asked.items():
        word_idf = float(idf[model.vocabulary[word]])
        if word in found and word not in names and word_idf >= least_idf and word[0].isalpha():
            weights[word] = (1 + math.log(count)) * (1 + math.log(found[word])) * word_idf**2
    best = sorted(weights.items(), key=lambda item: (-item[1], item[0]))[:SIMILAR_SHOWN_MAX]
    total = sum(weight for _, weight in best) or 1.0
    return [(word, round(weight / total, 2)) for word, weight in best]


def project_paper(pk: int) -> bool:
    """Write paper ``pk``'s Similarity row from the fitted model, now (a curator saved it);
    False when there is no model or the paper has no known word (its row is then removed)."""
    import numpy as np

    model = current_model()
    with connection.cursor() as cursor:
        cursor.execute(sql(_PAPER_SQL), [pk])
        row = cursor.fetchone()
    if model is None or row is None:
        return False
    title, abstract, year, event = row
    vector, weighted = project(model, similarity.model_text(title, abstract))
    if not vector.any():
        with connection.cursor() as cursor:
            cursor.execute(sql("DELETE FROM {similarity} WHERE paper_id = %s"), [pk])
        return False
    arrays = model.arrays
    scores = model.embeddings @ vector + RARE_WEIGHT * _rare_shared(model, weighted, title)
    scores += similarity.YEAR_BOOST * ((arrays["years"] == year) & (year > 0))
    scores += similarity.VENUE_BOOST * (arrays["events"] == event)
    scores += similarity.AREA_BOOST * (arrays["areas"] @ similarity.area_weights([pk])[0])
    with connection.cursor() as cursor:
        cursor.execute(sql(_COAUTHORED_SQL), [pk, similarity.AUTHOR_MAX_PAPERS])
        for other, count in cursor.fetchall():
            if other in model.position:
                scores[model.position[other]] += similarity.AUTHOR_BOOST * min(
                    count, similarity.AUTHOR_CAP
                )
    if pk in model.position:
        scores[model.position[pk]] = -np.inf
    take = min(similarity.NEIGHBOURS, int(np.isfinite(scores).sum()))
    best = np.argsort(-scores, kind="stable")[:take]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            sql(_WRITE_ROW_SQL),
            [
                pk,
                vector.astype(np.float64).round(5).tolist(),
                arrays["ids"][best].tolist(),
                scores[best].astype(np.float64).round(4).tolist(),
            ],
        )
    return True
