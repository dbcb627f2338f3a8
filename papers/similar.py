"""The SQL of "similar papers": candidates, scores and the shared terms that explain them.

Candidates come from the fitted model when the paper has a row in the similarity table
(papers/similarity.py refreshes it after each load): the paper's stored nearest neighbours,
scored by their cosine plus SIMILAR_TOPIC_BOOST per shared topic. ``among`` (a bounded list of
ids, e.g. from bench/quality.py) ranks exactly those papers instead, by the cosine of the
stored embeddings. A paper without a row (added since the last refresh) gets the full-text
"more like this" path: its SIMILAR_TERMS most distinctive lexemes (1 + ln of their weighted
frequency in the paper, title ×3 and names ×2, times ln(N / document frequency) from the
Lexeme table; lexemes in over a fifth of the collection are not distinctive), candidates from
two LIMITed GIN scans (papers sharing two of those lexemes, up to SIMILAR_CAP, and papers
sharing one, up to a tenth of that), each scored by the share of the paper's term weight it
contains, plus 0.15 per shared topic and 0.05 for the same venue. Shared terms are found the
same way on both paths and spelled as the paper writes them.
"""

from django.db import connection

from .tables import sql

SIMILAR_TERMS = 15
SIMILAR_CAP = 1500
SIMILAR_SHOWN_TERMS = 40  # lexemes looked for in each result to show the shared terms
SIMILAR_TOPIC_BOOST = 0.05  # per shared topic, on the fitted (embedding) path
SIMILAR_SHOWN_MAX = 8  # shared terms shown per result, the most distinctive first

# The paper, and the size of the collection (the planner's estimate, exact when small).
_SOURCE = """
src AS (
    SELECT id, venue_id, search_vector,
           concat_ws(' ', title, abstract, topic_names, author_names) AS text
    FROM {paper} WHERE id = %(pk)s
),
stats AS (
    SELECT CASE WHEN c.reltuples >= 1 THEN c.reltuples
                ELSE (SELECT count(*) FROM {paper}) END::float8 AS n
    FROM pg_class c WHERE c.oid = '{paper}'::regclass
)"""

# The paper's most distinctive lexemes, weighted; the best SIMILAR_TERMS form the query.
_TERMS = """
pool AS (
    SELECT t.lexeme,
           ('''' || replace(t.lexeme, '''', '''''') || '''')::tsquery AS single,
           (1 + ln((SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END)
                    FROM unnest(t.weights) AS w)))
           * ln((stats.n + 1) / (l.documents + 0.5)) AS weight
    FROM src
    CROSS JOIN LATERAL unnest(src.search_vector) AS t(lexeme, positions, weights)
    JOIN {lexeme} l ON l.word = t.lexeme
    CROSS JOIN stats
    WHERE l.documents >= 2
      AND l.documents <= GREATEST(3, stats.n * 0.2)
      AND length(t.lexeme) >= 3
      AND t.lexeme ~ '^[[:alpha:]][[:alnum:]-]*$'
      AND t.lexeme NOT IN ('textbf', 'textit', 'emph', 'http', 'https', 'www')
    ORDER BY weight DESC, t.lexeme
    LIMIT %(pool)s
),
ranked AS (
    SELECT lexeme, single, weight,
           row_number() OVER (ORDER BY weight DESC, lexeme) <= %(terms)s AS query_term
    FROM pool
),
terms AS (SELECT lexeme, single, weight FROM ranked WHERE query_term),
q AS (
    SELECT string_agg(quoted, ' | ')::tsquery AS any_term, sum(weight) AS total
    FROM (SELECT '''' || replace(lexeme, '''', '''''') || '''' AS quoted, weight
          FROM terms) AS quoted_terms
),
pairs AS (
    SELECT string_agg('(''' || replace(a.lexeme, '''', '''''') || ''' & '''
                      || replace(b.lexeme, '''', '''''') || ''')', ' | ')::tsquery AS two
    FROM terms a JOIN terms b ON a.lexeme < b.lexeme
)"""

# The paper's stored nearest neighbours, best first; none when it has no row.
_FITTED_NEIGHBOURS = """
    SELECT n.id, n.cosine::float8 AS base
    FROM {similarity} s
    CROSS JOIN LATERAL unnest(s.neighbours, s.scores) AS n(id, cosine)
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

# Each lexeme's shortest surface form in the paper (first seen on ties), to show it.
_SURFACE = """
surface AS MATERIALIZED (
    SELECT DISTINCT ON (stem) stem, word FROM (
        SELECT w.word, (ts_lexize('english_stem', w.word))[1] AS stem, w.ord
        FROM src, regexp_split_to_table(
            lower(src.text) || ' ' || regexp_replace(lower(src.text), '-', ' ', 'g'),
            '[^[:alnum:]-]+'
        ) WITH ORDINALITY AS w(word, ord)
        WHERE w.word <> ''
    ) AS words
    WHERE stem IS NOT NULL
    ORDER BY stem, length(word), ord
)"""

_SCORED = """
scored AS (
    SELECT p.id,
           CASE WHEN cand.base IS NOT NULL THEN
               cand.base + %(topic_boost)s * LEAST(shared_topics.n, 3)
           ELSE
               COALESCE(shared.weight / NULLIF(q.total, 0), 0)
               + 0.15 * shared_topics.n
               + CASE WHEN p.venue_id = src.venue_id THEN 0.05 ELSE 0 END
           END AS score,
           shared.lexemes
    FROM cand
    JOIN {paper} p ON p.id = cand.id
    CROSS JOIN q CROSS JOIN src
    CROSS JOIN LATERAL (
        SELECT count(*) AS n FROM {paper_topic} a
        JOIN {paper_topic} b ON a.topic_id = b.topic_id
        WHERE a.paper_id = %(pk)s AND b.paper_id = p.id
    ) AS shared_topics
    CROSS JOIN LATERAL (
        SELECT sum(r.weight) FILTER (WHERE r.query_term) AS weight,
               array_agg(r.lexeme ORDER BY r.weight DESC) AS lexemes
        FROM ranked r
        WHERE p.search_vector @@ r.single
    ) AS shared
    WHERE p.id <> %(pk)s
),
top AS (SELECT id, score, lexemes FROM scored ORDER BY score DESC, id LIMIT %(limit)s)"""

_RESULT = """
SELECT top.id, top.score,
       ARRAY(SELECT COALESCE(s.word, w.lexeme)
             FROM unnest(top.lexemes) WITH ORDINALITY AS w(lexeme, ord)
             LEFT JOIN surface s ON s.stem = w.lexeme
             ORDER BY w.ord) AS words
FROM top ORDER BY top.score DESC, top.id
"""


def _statement(fitted: str) -> str:
    parts = [_SOURCE, _TERMS, _CANDIDATES.replace("{fitted}", fitted), _SURFACE, _SCORED]
    return sql("WITH " + ",".join(parts) + _RESULT)


def similar_rows(pk: int, limit: int, among: list[int] | None = None) -> list[tuple]:
    """[(id, score, shared words)] of the papers most like paper ``pk``, best first."""
    params = {
        "pk": pk,
        "among": among,
        "pool": SIMILAR_SHOWN_TERMS,
        "topic_boost": SIMILAR_TOPIC_BOOST,
        "terms": SIMILAR_TERMS,
        "cap": SIMILAR_CAP,
        "small_cap": max(SIMILAR_CAP // 10, limit),
        "limit": limit,
    }
    statement = _statement(_FITTED_NEIGHBOURS if among is None else _FITTED_AMONG)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return [
            (row_pk, round(float(score), 4), list(dict.fromkeys(words or []))[:SIMILAR_SHOWN_MAX])
            for row_pk, score, words in cursor.fetchall()
        ]
