"""Which papers of a filtered set match a text query, read from the smaller side.

Filters and a query meet on every filtered search (facets, ranked pages). Left to itself the
planner may read every paper a common word matches to keep the few a filter allows, or test
the vector of every paper of a broad filter for a rare word. Here the choice is made when the
statement runs, from sizes known cheaply: the number of the filters' papers (their ids, read
first) against the most papers the query can match (``ESTIMATE_SQL``: its rarest word's
document frequency, from the Lexeme table). No more papers than that: each is tested against
the query (one primary-key probe each, ``_EACH_SQL``). More: the query's matches are read from
the GIN index's bitmap (the functions papers_text_matches and papers_title_matches, schema_sql)
and kept when they are among the filters' papers. Either way the work follows the smaller side.
Where nothing narrows them, every match's id is read from a bitmap (``every_match_ids``).

A query without a phrase needs no positions: it is tested on the narrow rows' stripped vectors
(``PaperFacets.lexemes``, with their own GIN index), so its matches are found and counted
without reading a paper's wide row at all (``in_lexemes``, and the function
papers_lexeme_match_ids). A phrase (quoted, or a hyphenated word, which the parser makes a
phrase of its parts) never matches a stripped vector: those queries take the ways above
(``is_phrase`` tells which, when the statement runs), but for the alternatives of a query
that have no phrase (``every_match_ids``).
"""

import re

from .compounds import websearch_text
from .expressions import SEARCH_CONFIG, title_vector_sql

# The most papers a query can match: its rarest word's document frequency (every word must
# match), or their sum (an "or" query). Words the collection lacks match nothing.
ESTIMATE_SQL = (
    "SELECT COALESCE({aggregate}(documents), 0) FROM {{lexeme}} "
    "WHERE word = ANY(tsvector_to_array(to_tsvector(%s::regconfig, %s)))"
)
_OR = re.compile(r"\bor\b", re.IGNORECASE)
QUERY_SQL = "websearch_to_tsquery(%s::regconfig, %s)"
# The tests of one paper ``p`` against the query: its whole vector, or its title's.
TESTS = {
    "vector": f"p.search_vector @@ {QUERY_SQL}",
    "title": f"{title_vector_sql('p')} @@ {QUERY_SQL}",
}
FUNCTIONS = {"vector": "papers_text_matches", "title": "papers_title_matches"}

# {candidates}: a CTE of ids. OFFSET 0 keeps the lookup a per-candidate probe (the planner
# would otherwise join it to every paper the query matches).
_EACH_SQL = """SELECT c.id FROM {candidates} c CROSS JOIN LATERAL (
    SELECT p.title_vector, p.search_vector FROM {{paper}} p WHERE p.id = c.id OFFSET 0
) AS p
WHERE (SELECT count(*) FROM {candidates}) <= ({estimate}) AND {test}"""
_INDEXED_SQL = """SELECT m.id FROM {function}({query}) AS m
WHERE (SELECT count(*) FROM {candidates}) > ({estimate})
AND m.id IN (SELECT id FROM {candidates})"""


def estimate_sql(text: str) -> tuple[str, list]:
    """ESTIMATE_SQL for ``text`` (a template for papers.tables.sql) and its params."""
    aggregate = "sum" if _OR.search(text) else "min"
    return ESTIMATE_SQL.format(aggregate=aggregate), [SEARCH_CONFIG, websearch_text(text)]


def matching_within(candidates: str, text: str, test: str = "vector") -> tuple[str, list]:
    """(SQL, params) of the ids of the CTE ``candidates`` (a column ``id``) whose ``test``
    ("vector" or "title") matches ``text``: a template for papers.tables.sql."""
    estimate, estimate_params = estimate_sql(text)
    query = [SEARCH_CONFIG, websearch_text(text)]
    each = _EACH_SQL.format(candidates=candidates, estimate=estimate, test=TESTS[test])
    indexed = _INDEXED_SQL.format(
        candidates=candidates, estimate=estimate, function=FUNCTIONS[test], query=QUERY_SQL
    )
    statement = f"({each})\nUNION ALL\n({indexed})"
    return statement, [*estimate_params, *query, *query, *estimate_params]


# The narrow rows ``f`` (PaperFacets) that pass some conditions and match a query without a
# phrase, on the stripped vector of the title or of the whole paper: the planner combines the
# filters' indexes with the vector's (a bitmap AND), where testing the title of each of the
# filters' papers read every one's wide row (a topic's 11,000 papers for "models").
ROW_TESTS = {"title": "f.title_lexemes", "vector": "f.lexemes"}
_ROWS_SQL = "SELECT f.paper_id AS id FROM {{paper_facets}} f WHERE {where}"


def rows_matching(where: list[str], params: list, text: str, tests=("vector",)):
    """(SQL, params) of the ids of the narrow rows passing the conditions ``where`` (SQL on
    ``f`` with ``params``) whose stripped vectors of ``tests`` ("title", "vector") all match
    ``text``: right for a query without a phrase only (see ``is_phrase``); a template for
    papers.tables.sql."""
    matches = [f"{ROW_TESTS[test]} @@ {QUERY_SQL}" for test in tests]
    query = [SEARCH_CONFIG, websearch_text(text)]
    return _ROWS_SQL.format(where=" AND ".join([*where, *matches])), [
        *params,
        *query * len(tests),
    ]


# Whether the query holds a phrase operator (<-> or <N>): then it must be matched on positions.
# A "<" inside a lexeme only sends a query the longer way, never to a wrong answer.
PHRASE_SQL = f"(SELECT strpos(({QUERY_SQL})::text, '<') > 0)"
LEXEMES_SQL = f"f.lexemes @@ {QUERY_SQL}"


def is_phrase(text: str) -> tuple[str, list]:
    """(SQL, params) of a condition true when ``text`` has a phrase: evaluated once."""
    return PHRASE_SQL, [SEARCH_CONFIG, websearch_text(text)]


def in_lexemes(text: str) -> tuple[str, list]:
    """(SQL, params) of a condition on a PaperFacets row ``f``: its stripped vector matches
    ``text`` (right for a query without a phrase only, see ``is_phrase``)."""
    return LEXEMES_SQL, [SEARCH_CONFIG, websearch_text(text)]


# The "or" alternatives of a query (websearch syntax has no parentheses: a query is its
# alternatives or-ed). A compound is searched as one word or as its words in a row
# ('dataset or "data set"', papers/understanding.py), and a phrase anywhere makes PostgreSQL
# test the positions of every paper the query's words could match (45,000 for dataset). The
# alternatives without a phrase are exact on the stripped vectors, so the positions are tested
# only on the papers those leave (~5,000). PLAIN_SQL: the alternatives without a phrase or-ed,
# NULL when there are none, or when the alternatives split from the text are not exactly the
# query's own (then the query is matched whole).
_ALTERNATIVE = re.compile(r"\s+or\s+", re.IGNORECASE)
PLAIN_SQL = """SELECT CASE
    WHEN {query} = string_agg('(' || q::text || ')', ' | ' ORDER BY n)::tsquery
    THEN (string_agg('(' || q::text || ')', ' | ' ORDER BY n)
          FILTER (WHERE strpos(q::text, '<') = 0))::tsquery END AS plain
FROM unnest(ARRAY[{alternatives}]::tsquery[]) WITH ORDINALITY AS a(q, n) WHERE q::text <> ''"""
# Every match's ids (one bytea, papers_lexeme_match_ids and papers_text_match_ids): a query
# without a phrase from the stripped vectors; one with a phrase among its alternatives from
# the stripped vectors for the alternatives without one, positions tested only on the papers
# they leave; any other from the search vectors. Only the branch that applies runs.
_EVERY_IDS_SQL = """(SELECT CASE
    WHEN NOT {phrase} THEN papers_lexeme_match_ids({query})
    WHEN e.plain IS NULL THEN papers_text_match_ids({query})
    ELSE COALESCE(papers_lexeme_match_ids(e.plain), ''::bytea)
        || COALESCE(papers_text_match_ids({query} && !! e.plain), ''::bytea)
  END FROM ({plain}) AS e)"""


def every_match_ids(text: str) -> tuple[str, list]:
    """(SQL, params) of a bytea of the ids of every paper matching ``text`` (8 bytes each, big
    endian; NULL for none), read from GIN indexes' bitmaps: the narrow rows' stripped vectors
    for a query without a phrase, and for the alternatives without a phrase of one that has
    one; the search vectors (positions) for the rest."""
    query = [SEARCH_CONFIG, websearch_text(text)]
    alternatives = _ALTERNATIVE.split(text)
    plain = PLAIN_SQL.format(
        query=QUERY_SQL, alternatives=", ".join([QUERY_SQL] * len(alternatives))
    )
    plain_params = list(query)
    for alternative in alternatives:
        plain_params += [SEARCH_CONFIG, websearch_text(alternative)]
    statement = _EVERY_IDS_SQL.format(plain=plain, query=QUERY_SQL, phrase=PHRASE_SQL)
    # In the statement's order: the phrase test, the three branches that read the query, then
    # the alternatives' plain query.
    return statement, [*query, *query, *query, *query, *plain_params]


def unless_phrase(rows, otherwise, text: str, cap: int) -> tuple[str, list]:
    """(SQL, params) of up to ``cap`` ids: of ``rows`` (``rows_matching``) when ``text`` has no
    phrase, else of ``otherwise`` (already capped); the test runs once, and only the branch it
    chooses reads anything."""
    phrase, phrase_params = is_phrase(text)
    return (
        f"(SELECT id FROM ({rows[0]}) AS r WHERE NOT {phrase} LIMIT {int(cap)})\n"
        f"UNION ALL\n(SELECT id FROM ({otherwise[0]}) AS o WHERE {phrase})"
    ), [*rows[1], *phrase_params, *otherwise[1], *phrase_params]
