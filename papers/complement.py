"""The counts of a query that matches most papers: the kept counts less the other papers'.

A common word (``models`` matches four papers in five) alone on the list would have every
match's narrow row grouped per venue, topic, country and author (~100k author links at 26k
papers). When the query may match more than half the papers, and has no phrase (the narrow rows'
stripped vectors decide a match), each count is read instead as the kept count over all papers
(``FacetCount``, papers/counts.py) less the count over the papers the query does *not* match
(``o``): exact, and the work follows the smaller side. The authors' top values are read in the
kept order: an author's count among the matches is at most its count among all papers, so
only the authors counted at least as much as the 15th best of a first few can be among the top
(and their ties), and only those are read.

Whether it applies is decided when the statement runs (the CTE ``complement``, from the query's
estimate, papers/matching.py); otherwise every part here is empty and the matches' rows (``u``)
are counted as usual, so the two ways add up to the right counts either way.
"""

from .matching import estimate_sql, in_lexemes, is_phrase

# Authors read in the kept order to find a floor under the top values' counts.
AUTHOR_PREFIX = 120
APPLIES = "(SELECT yes FROM complement)"
_PAPERS_SQL = (
    "SELECT COALESCE(sum(n), 0) FROM {facet_count} "
    "WHERE by_facet = '' AND by_value = '' AND facet = 'v'"
)
_KEPT = (
    "SELECT value::text, n FROM {facet_count} "
    f"WHERE by_facet = '' AND by_value = '' AND facet = '{{code}}' AND {APPLIES}"
)
_KEPT_TOTAL = (
    "SELECT '' AS value, COALESCE(sum(n), 0) AS n FROM {facet_count} "
    f"WHERE by_facet = '' AND by_value = '' AND facet = 'v' AND {APPLIES}"
)
_AUTHORS = f"""SELECT c.value, c.n - COALESCE(x.n, 0) AS n FROM {{facet_count}} c
LEFT JOIN o_authors x ON x.value = c.value
WHERE c.by_facet = '' AND c.by_value = '' AND c.facet = 'a' AND {APPLIES}"""
_AUTHOR_FLOOR = f"""COALESCE((SELECT n FROM (
    SELECT c.n - COALESCE(x.n, 0) AS n FROM (
        SELECT value, n FROM {{facet_count}}
        WHERE by_facet = '' AND by_value = '' AND facet = 'a' ORDER BY n DESC LIMIT {AUTHOR_PREFIX}
    ) c LEFT JOIN o_authors x ON x.value = c.value
) top ORDER BY n DESC OFFSET {{limit}} - 1 LIMIT 1), 0)"""


def complement_parts(text: str) -> list[tuple[str, str, list]]:
    """The parts the counts by complement read: whether they apply, the rows of the papers
    the query does not match (``o``) and those papers' author counts."""
    (phrase, phrase_params), (lexemes, lexemes_params) = is_phrase(text), in_lexemes(text)
    estimate, estimate_params = estimate_sql(text)
    applies = f"SELECT NOT {phrase} AND ({estimate}) * 2 > ({_PAPERS_SQL}) AS yes"
    rows = (
        "SELECT f.paper_id, f.venue_id, f.country, f.topic_ids, f.author_ids "
        f"FROM {{paper_facets}} f WHERE {APPLIES} AND NOT ({lexemes})"
    )
    # Grouped by the id (ids hash faster than their text), then named as the kept counts are.
    authors = (
        "SELECT a::text AS value, n FROM (SELECT a, count(*) AS n "
        "FROM o CROSS JOIN LATERAL unnest(o.author_ids) a GROUP BY 1) g"
    )
    return [
        ("complement", applies, [*phrase_params, *estimate_params]),
        ("o", rows, lexemes_params),
        ("o_authors", authors, []),
    ]


def by_complement(name: str, code: str, direct: str, grouped: str, limit: int | None) -> str:
    """The counts of facet ``name`` (kept under ``code``; or the total): those of the matches'
    rows (``direct``, empty when the complement applies) plus, when it does, the kept counts
    less those of the papers not matched (``grouped``, a template of ``rows``)."""
    if name == "author":
        floor = _AUTHOR_FLOOR.replace("{limit}", str(limit))
        kept = f"{_AUTHORS} AND c.n >= {floor}"
        return f"SELECT value::text, n FROM ({direct}) d UNION ALL {kept}"
    kept = _KEPT_TOTAL if name == "total" else _KEPT.replace("{code}", code)
    others = grouped.format(flags="TRUE", rows="o")
    return (
        f"SELECT value, sum(n) AS n FROM (SELECT value::text, n FROM ({direct}) d "
        f"UNION ALL {kept} UNION ALL SELECT value::text, -n FROM ({others}) x) c GROUP BY value"
    )
