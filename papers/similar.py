"""The SQL of "similar papers": candidates, scores and the signals that explain them.

Candidates come from the fitted model when the paper has a row in the similarity table
(papers/similarity.py refreshes it after each load, and writes a row for a paper a curator
saves): the paper's stored nearest neighbours, scored by their stored fused score (text cosine,
rare words shared, same year, same conference, shared research areas, shared authors) plus
SIMILAR_TOPIC_BOOST per shared topic that is not an area (at most three; the areas are in the
fused score). ``among`` (a bounded list of ids, e.g. from bench/quality.py) ranks exactly those
papers instead, by the cosine of the stored embeddings. A paper without a row (no model fitted
yet) gets the full-text "more like this" path: its SIMILAR_TERMS most distinctive lexemes of
title and abstract (1 + ln of their weighted frequency, title ×3, times ln(N / document
frequency) from the Lexeme table; lexemes in over a fifth of the collection are not distinctive,
the paper's author names never count), candidates from two LIMITed GIN scans (papers sharing two
of those lexemes, up to SIMILAR_CAP, and papers sharing one, up to a tenth of that), each scored
by the share of the paper's term weight it contains, plus TEXT_TOPIC_BOOST per shared topic and
TEXT_VENUE_BOOST for the same venue.

Every result carries what made it similar: the shared terms — lexemes of both papers' titles or
abstracts (never of either paper's author names) found in at most SHOWN_TERM_SHARE of the
collection (or SHOWN_TERM_FLOOR papers), most distinctive first, each with its share of their
weight, spelled as the paper writes them — and the signals of the score: the text (cosine and
rare words), same year, same conference, the shared areas by name with the product of their
confidences, the shared authors by name, the shared topics by name (explanation()).
"""

from dataclasses import dataclass, field

from . import similarity
from .rare_words import RARE_PAIRS, RARE_PAPERS, RARE_SHARE, RARE_WEIGHT
from .tables import reading_cursor, sql
from .word_forms import acronym_number

SIMILAR_TERMS = 15
SIMILAR_CAP = 1500
SIMILAR_SHOWN_TERMS = 40  # lexemes looked for in each result to show the shared terms
SIMILAR_TOPIC_BOOST = 0.05  # per shared topic but an area, on the fitted (embedding) path
SIMILAR_SHOWN_MAX = 8  # shared terms shown per result, the most distinctive first
SHOWN_TERM_SHARE = 0.06  # a shared term is shown when at most this share of papers use it
SHOWN_TERM_FLOOR = 10  # … or at most this many (a small collection)
TEXT_TOPIC_BOOST = 0.15  # per shared topic, on the text path
TEXT_VENUE_BOOST = 0.05  # the same venue, on the text path


@dataclass
class SimilarRow:
    """One similar paper: its id, its score and the signals that make it up."""

    id: int
    score: float
    fitted: bool
    terms: list[tuple[str, float]] = field(default_factory=list)
    cosine: float | None = None  # ranking given papers (``among``): their cosine, the score
    same_year: int | None = None
    same_venue: str | None = None
    authors: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    areas: list[str] = field(default_factory=list)
    area_weight: float = 0.0


# The paper, and the size of the collection (the planner's estimate, exact when small).
_SOURCE = """
src AS (
    SELECT p.id, p.venue_id, p.search_vector, v.year, COALESCE(v.parent_id, v.id) AS event,
           concat_ws(' ', p.title, p.abstract) AS text,
           tsvector_to_array(to_tsvector('english', p.author_names)) AS names,
           ARRAY(SELECT topic_id FROM {paper_topic} WHERE paper_id = p.id) AS topics
    FROM {paper} p JOIN {venue} v ON v.id = p.venue_id WHERE p.id = %(pk)s
),
stats AS MATERIALIZED (
    SELECT CASE WHEN c.reltuples >= 1 THEN c.reltuples
                ELSE (SELECT count(*) FROM {paper}) END::float8 AS n
    FROM pg_class c WHERE c.oid = '{paper}'::regclass
)"""

# The paper's most distinctive lexemes of title (A) and abstract (C), weighted; the best
# SIMILAR_TERMS form the query; `single` matches a lexeme in another title or abstract only.
_TERMS = """
pool AS (
    SELECT t.lexeme,
           ('''' || replace(t.lexeme, '''', '''''') || ''':AC')::tsquery AS single,
           (1 + ln((SELECT sum(CASE w WHEN 'A' THEN 3 ELSE 1 END)
                    FROM unnest(t.weights) AS w WHERE w IN ('A', 'C'))))
           * ln((stats.n + 1) / (l.documents + 0.5)) AS weight,
           l.documents <= GREATEST(%(shown_floor)s, stats.n * %(shown_share)s) AS shown
    FROM src
    CROSS JOIN LATERAL unnest(src.search_vector) AS t(lexeme, positions, weights)
    JOIN {lexeme} l ON l.word = t.lexeme
    CROSS JOIN stats
    WHERE l.documents >= 2
      AND l.documents <= GREATEST(3, stats.n * 0.2)
      AND length(t.lexeme) >= 3
      AND t.lexeme ~ '^[[:alpha:]][[:alnum:]-]*$'
      AND t.lexeme NOT IN ('textbf', 'textit', 'emph', 'http', 'https', 'www')
      AND t.weights && ARRAY['A', 'C']
      AND t.lexeme <> ALL(src.names)
    ORDER BY weight DESC, t.lexeme
    LIMIT %(pool)s
),
ranked AS (
    SELECT lexeme, single, weight, shown,
           row_number() OVER (ORDER BY weight DESC, lexeme) <= %(terms)s AS query_term
    FROM pool
),
terms AS (SELECT lexeme, single, weight FROM ranked WHERE query_term),
q AS (
    SELECT string_agg(quoted, ' | ')::tsquery AS any_term, sum(weight) AS total
    FROM (SELECT '''' || replace(lexeme, '''', '''''') || ''':AC' AS quoted, weight
          FROM terms) AS quoted_terms
),
pairs AS (
    SELECT string_agg('(''' || replace(a.lexeme, '''', '''''') || ''':AC & '''
                      || replace(b.lexeme, '''', '''''') || ''':AC)', ' | ')::tsquery AS two
    FROM terms a JOIN terms b ON a.lexeme < b.lexeme
)"""

# The paper's stored nearest neighbours, best first; none when it has no row.
_FITTED_NEIGHBOURS = """
    SELECT n.id, n.score::float8 AS base
    FROM {similarity} s
    CROSS JOIN LATERAL unnest(s.neighbours, s.scores) AS n(id, score)
    WHERE s.paper_id = %(pk)s"""

# Exactly the papers given, by the cosine of their stored embeddings with the paper's.
_FITTED_AMONG = """
    SELECT c.paper_id AS id,
           (SELECT sum(x * y)::float8 FROM unnest(c.embedding, s.embedding) AS v(x, y)) AS base
    FROM {similarity} s
    JOIN {similarity} c ON c.paper_id = ANY(%(among)s::bigint[])
    WHERE s.paper_id = %(pk)s AND c.paper_id <> %(pk)s"""

# Fitted candidates when there are any, else the two LIMITed full-text scans.
_CANDIDATES = """
fitted AS MATERIALIZED ({fitted}),
cand AS (
    SELECT id, base FROM fitted
    UNION ALL
    SELECT id, NULL::float8 FROM (
        (SELECT p.id FROM {paper} p, pairs
         WHERE p.search_vector @@ pairs.two AND p.id <> %(pk)s LIMIT %(cap)s)
        UNION
        (SELECT p.id FROM {paper} p, q
         WHERE p.search_vector @@ q.any_term AND p.id <> %(pk)s LIMIT %(small_cap)s)
    ) AS text_cand
    WHERE NOT EXISTS (SELECT 1 FROM fitted)
)"""

# Each lexeme's shortest surface form in the paper's title and abstract (first seen on ties).
_SURFACE = """
surface AS MATERIALIZED (
    SELECT DISTINCT ON (stem) stem, word FROM (
        -- A hyphenated word is the surface of its joined lexeme (long-context: longcontext).
        SELECT w.word, (ts_lexize('english_stem', replace(w.word, '-', '')))[1] AS stem, w.ord
        FROM src, regexp_split_to_table(
            lower(src.text) || ' ' || regexp_replace(lower(src.text), '-', ' ', 'g'),
            '[^[:alnum:]-]+'
        ) WITH ORDINALITY AS w(word, ord)
        WHERE w.word <> ''
    ) AS words
    WHERE stem IS NOT NULL
    ORDER BY stem, length(word), ord
)"""

# The score: the stored fused score plus shared topics on the fitted path; on the text path,
# the share of the query terms' weight the paper contains (computed only there: CASE is lazy).
_SCORED = """
scored AS (
    SELECT p.id, cand.base IS NOT NULL AS fitted, cand.base, shared_topics.names AS topics,
           CASE WHEN cand.base IS NOT NULL THEN
               cand.base + %(topic_boost)s * LEAST(cardinality(shared_topics.names), 3)
           ELSE
               COALESCE((SELECT sum(r.weight) FROM terms r WHERE p.search_vector @@ r.single)
                        / NULLIF(q.total, 0), 0)
               + %(text_topic_boost)s * cardinality(shared_topics.names)
               + CASE WHEN p.venue_id = src.venue_id THEN %(text_venue_boost)s ELSE 0 END
           END AS score
    FROM cand
    JOIN {paper} p ON p.id = cand.id
    CROSS JOIN q CROSS JOIN src
    CROSS JOIN LATERAL (
        SELECT ARRAY(SELECT t.name FROM {paper_topic} b JOIN {topic} t ON t.id = b.topic_id
                     WHERE b.paper_id = p.id AND b.topic_id = ANY(src.topics)
                       AND (cand.base IS NULL OR t.slug <> ALL(%(areas)s))
                     ORDER BY t.name) AS names
    ) AS shared_topics
    WHERE p.id <> %(pk)s
),
top AS (
    SELECT id, fitted, base, topics, score FROM scored ORDER BY score DESC, id LIMIT %(limit)s
),
-- The shown terms of the results only: distinctive, and never either paper's author names.
explained AS (
    SELECT top.*, shared.lexemes, shared.weights
    FROM top
    JOIN {paper} p ON p.id = top.id
    CROSS JOIN LATERAL (
        SELECT tsvector_to_array(to_tsvector('english', p.author_names)) AS names
    ) AS other
    CROSS JOIN LATERAL (
        SELECT array_agg(r.lexeme ORDER BY r.weight DESC, r.lexeme) AS lexemes,
               array_agg(r.weight ORDER BY r.weight DESC, r.lexeme) AS weights
        FROM ranked r
        WHERE r.shown AND r.lexeme <> ALL(other.names) AND p.search_vector @@ r.single
    ) AS shared
)"""

# Shared authors count when they have at most AUTHOR_MAX_PAPERS papers, and shared areas
# (with the product of the links' confidences) as in the fit.
_RESULT = """
SELECT top.id, top.score, top.fitted,
       ARRAY(SELECT COALESCE(s.word, w.lexeme)
             FROM unnest(top.lexemes) WITH ORDINALITY AS w(lexeme, ord)
             LEFT JOIN surface s ON s.stem = w.lexeme
             ORDER BY w.ord) AS words,
       top.weights,
       CASE WHEN %(among)s::bigint[] IS NOT NULL THEN top.base END AS cosine,
       CASE WHEN v.year = src.year THEN v.year END AS same_year,
       CASE WHEN COALESCE(v.parent_id, v.id) = src.event
            THEN COALESCE(parent.name, v.name) END AS same_venue,
       ARRAY(SELECT au.name FROM {authorship} x
             JOIN {authorship} y ON y.author_id = x.author_id AND y.paper_id = top.id
             JOIN {author} au ON au.id = x.author_id
             WHERE x.paper_id = src.id
               AND (SELECT count(*) FROM {authorship} z WHERE z.author_id = x.author_id)
                   <= %(author_max)s
             ORDER BY x.position) AS authors,
       top.topics, area.names, area.weight
FROM explained AS top
CROSS JOIN src
CROSS JOIN LATERAL (
    SELECT array_agg(t.name ORDER BY t.name) AS names,
           sum(COALESCE(a.confidence, 1) * COALESCE(b.confidence, 1)) AS weight
    FROM {paper_topic} a
    JOIN {paper_topic} b ON b.topic_id = a.topic_id AND b.paper_id = top.id
    JOIN {topic} t ON t.id = a.topic_id
    WHERE a.paper_id = src.id AND t.slug = ANY(%(areas)s)
      AND a.source <> 'rule' AND b.source <> 'rule'
) AS area
JOIN {paper} p ON p.id = top.id
JOIN {venue} v ON v.id = p.venue_id
LEFT JOIN {venue} parent ON parent.id = v.parent_id
ORDER BY top.score DESC, top.id
"""


def _statement(fitted: str) -> str:
    parts = [_SOURCE, _TERMS, _CANDIDATES.replace("{fitted}", fitted), _SURFACE, _SCORED]
    return sql("WITH " + ",".join(parts) + _RESULT)


def _parts_in_compounds(terms: dict[str, float]) -> dict[str, float]:
    """``terms`` with each part of a hyphenated term shown counted in that term: "easy-to-use"
    and "easy" were shown as two shared terms (an outside researcher)."""
    merged = dict(terms)
    for compound in [term for term in terms if "-" in term]:
        for part in set(compound.split("-")) - {compound}:
            if part in merged:
                merged[compound] += merged.pop(part)
    return merged


def _row(values) -> SimilarRow:
    pk, score, fitted, words, weights, cosine, same_year, same_venue, *signals = values
    authors, topics, areas, area_weight = signals
    terms = {}
    for word, weight in zip(words or [], weights or [], strict=True):
        # An acronym's two numbers are two lexemes, one word to a reader: "vlm" and "vlms"
        # were shown as two shared terms (an outside tester).
        other = acronym_number(word)
        if other in terms:
            terms[other] += weight
        else:
            terms.setdefault(word, weight)
    shown = list(_parts_in_compounds(terms).items())[:SIMILAR_SHOWN_MAX]
    total = sum(weight for _, weight in shown) or 1.0
    return SimilarRow(
        id=pk,
        score=round(float(score), 4),
        fitted=fitted,
        terms=[(word, round(weight / total, 2)) for word, weight in shown],
        cosine=None if cosine is None else round(float(cosine), 4),
        same_year=same_year,
        same_venue=same_venue,
        authors=list(authors),
        topics=list(topics),
        areas=list(areas or []),
        area_weight=float(area_weight or 0),
    )


def similar_rows(pk: int, limit: int, among: list[int] | None = None) -> list[SimilarRow]:
    """The papers most like paper ``pk``, best first, with what made each similar."""
    params = {
        "pk": pk,
        "among": among,
        "pool": SIMILAR_SHOWN_TERMS,
        "topic_boost": SIMILAR_TOPIC_BOOST,
        "text_topic_boost": TEXT_TOPIC_BOOST,
        "text_venue_boost": TEXT_VENUE_BOOST,
        "shown_share": SHOWN_TERM_SHARE,
        "shown_floor": SHOWN_TERM_FLOOR,
        "author_max": similarity.AUTHOR_MAX_PAPERS,
        "areas": similarity.area_slugs(),
        "terms": SIMILAR_TERMS,
        "cap": SIMILAR_CAP,
        "small_cap": max(SIMILAR_CAP // 10, limit),
        "limit": limit,
    }
    statement = _statement(_FITTED_NEIGHBOURS if among is None else _FITTED_AMONG)
    with reading_cursor() as cursor:
        cursor.execute(statement, params)
        return [_row(values) for values in cursor.fetchall()]


def method() -> dict:
    """The weights of the fitted score, for the pages' account of it."""
    return {
        "year": similarity.YEAR_BOOST,
        "venue": similarity.VENUE_BOOST,
        "area": similarity.AREA_BOOST,
        "author": similarity.AUTHOR_BOOST,
        "author_cap": similarity.AUTHOR_CAP,
        "author_max": similarity.AUTHOR_MAX_PAPERS,
        "topic": SIMILAR_TOPIC_BOOST,
        "title_repeat": similarity.TITLE_REPEAT,
        "rare": RARE_WEIGHT,
        "rare_share": f"{RARE_SHARE:.0%}",
        "rare_papers": RARE_PAPERS,
        "rare_pairs": RARE_PAIRS,
    }


def explanation(row: SimilarRow) -> list[dict]:
    """The signals of ``row``'s score, each with its weight (they add up to the score)."""
    signals = []
    topic_boost = SIMILAR_TOPIC_BOOST if row.fitted else TEXT_TOPIC_BOOST
    topics = row.topics[:3] if row.fitted else row.topics
    topics_weight = round(topic_boost * len(topics), 4)
    authors = row.authors if row.fitted else []
    authors_weight = round(similarity.AUTHOR_BOOST * min(len(authors), similarity.AUTHOR_CAP), 4)
    year_weight = similarity.YEAR_BOOST if row.fitted and row.same_year else 0.0
    if row.fitted:
        venue_weight = similarity.VENUE_BOOST if row.same_venue else 0.0
    else:
        venue_weight = TEXT_VENUE_BOOST if row.same_venue else 0.0
    areas = row.areas if row.fitted else []
    areas_weight = round(similarity.AREA_BOOST * row.area_weight, 4) if areas else 0.0
    rest = topics_weight + authors_weight + year_weight + venue_weight + areas_weight
    # Ranking given papers, the cosine alone; else the fitted path's cosine and rare words'
    # part (papers/rare_words.py), or the text path's share of the paper's terms.
    text_weight = row.cosine if row.cosine is not None else row.score - rest
    signals.append(text_signal(text_weight, row.terms))
    if authors:
        signals.append({"signal": "authors", "weight": authors_weight, "authors": authors})
    if year_weight:
        signals.append({"signal": "year", "weight": year_weight, "year": row.same_year})
    if venue_weight:
        signals.append({"signal": "venue", "weight": venue_weight, "venue": row.same_venue})
    if areas:
        signals.append({"signal": "areas", "weight": areas_weight, "areas": areas})
    if topics:
        signals.append({"signal": "topics", "weight": topics_weight, "topics": topics})
    return signals


def text_signal(weight: float, terms: list[tuple[str, float]]) -> dict:
    """The text part of a score: its weight and the distinctive shared terms with theirs."""
    return {
        "signal": "text",
        "weight": round(float(weight), 4),
        "terms": [{"term": term, "weight": share} for term, share in terms],
    }
