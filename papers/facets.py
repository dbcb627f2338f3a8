"""Facet counts for the list: venue, year, country, topic and author, exact.

Each facet is counted under the *other* filters (so a facet shows what a click would give) and
under the page's fixed conditions (a venue, topic or author page). Every count is exact. The
pages give ``count_facets`` the matches they found in memory (papers/word_memory.py: every
paper for a page without a query, a query's matches), counted there in milliseconds. Where
they did not (the data changed meanwhile, a query of stop words, one the parser leaves), the
papers read are those of whichever side is smaller:

- With no query, a facet under no filter or under one filter of a kind whose counts are kept
  (a venue or venues, a year, one topic, a country) is read from ``FacetCount``
  (papers/counts.py): a few index entries, whatever the collection's size.
- Otherwise, with no query, the papers counted are read from ``PaperFacets``, the papers'
  narrow rows (venue, country, topic and author ids): those that pass all filters but at most
  one, each with a flag per filter, and each facet sums the rows whose other flags hold, in
  one statement. The filters select those rows through their indexes (venue, the topic and
  author arrays' GIN indexes), so the work follows the smallest filter's papers (the rows'
  parts: papers/facet_rows.py).
- With a query, the same rows are selected among its matches (with filters that narrow the
  rows, only the rows' matches, papers/matching.py), but only their ids and flags are read:
  they are counted in this process's memory of the papers' facet values
  (papers/facet_memory.py), which costs milliseconds where grouping the rows and their author
  arrays in SQL cost most of a common word's page. With at most one filter and no fixed
  condition nothing narrows them: every match's id is read from a GIN index's bitmap
  (papers/matching.py every_match_ids: a common word's matches are two thirds of the papers,
  and testing their rows' vectors cost twice the bitmap), and the filter's flags are worked
  out in memory from its keys.
"""

from dataclasses import dataclass, field

import numpy as np

from .counts import PAIRS
from .facet_memory import STATE_SQL, count_in_memory, memory_for, passing
from .facet_rows import KEYS, VALUE_KEYS, Statement, filter_params, narrows, rows_parts
from .matching import every_match_ids
from .tables import reading_cursor, sql

FACET_AUTHOR_LIMIT = 15
FACET_COUNTRY_LIMIT = 25
FACET_TOPIC_LIMIT = 100  # every topic of the vocabulary (about 50): none left out unseen
FACET_NAMES = ("venue", "topic", "author", "year", "country")
# The FacetCount code each facet is counted under (a year's counts are its venues').
CODES = {"venue": "v", "year": "v", "topic": "t", "author": "a", "country": "c"}
FACET_LIMITS = {
    "topic": FACET_TOPIC_LIMIT,
    "author": FACET_AUTHOR_LIMIT,
    "country": FACET_COUNTRY_LIMIT,
}


@dataclass
class FacetOption:
    value: str
    label: str
    count: int


@dataclass
class Facets:
    total: int = 0
    # Of the total, the papers without a title, where counted in memory (None: not counted).
    untitled: int | None = None
    venue: list[FacetOption] = field(default_factory=list)
    year: list[FacetOption] = field(default_factory=list)
    country: list[FacetOption] = field(default_factory=list)
    topic: list[FacetOption] = field(default_factory=list)
    author: list[FacetOption] = field(default_factory=list)


# The FacetCount keys (by_value, text) a filter's papers are counted under, where they are kept.
_KEPT = {
    name: f"SELECT key::text FROM ({VALUE_KEYS[name]}) AS k(key)"
    for name in ("venue", "year", "topic", "country")
}


def _kept(filters: dict[str, list[str]], facet: str):
    """(by_facet, SQL of its keys, params) when the counts of ``facet`` (or the "total") under
    ``filters`` (at most one) are kept in FacetCount; ("", None, []) under none; None when
    they must be counted from rows."""
    if not filters:
        return "", None, []
    if len(filters) > 1:
        return None
    ((name, values),) = filters.items()
    if name not in _KEPT or (name == "topic" and len(values) > 1):
        return None
    # The total is read from each value's own count; a facet's counts under a filter only for
    # the pairs kept (counts.PAIRS): a venue's authors and years are not, and read from kept
    # counts they were no one's (the facets were empty).
    if facet != "total" and (CODES[facet], CODES[name]) not in PAIRS:
        return None
    return CODES[name], _KEPT[name], filter_params(name, values)


def _kept_counts(code: str, kept, limit: int | None = None) -> tuple[str, list]:
    """Counts per value of ``code`` under the kept filter, summed over its keys (the venues of
    a year, the venues chosen); under no filter or one key, only the ``limit`` largest (and
    their ties), read in order from the index facetcount_top."""
    by_facet, keys, params = kept
    if keys is None or (limit and by_facet in ("t", "c")):
        among = "by_value = ''" if keys is None else f"by_value = ({keys} LIMIT 1)"
        rows = f"FROM {{facet_count}} WHERE by_facet = %s AND {among} AND facet = %s"
        if limit is None:
            return f"SELECT value, n {rows}", [by_facet, *params, code]
        cut = f"SELECT n {rows} ORDER BY n DESC OFFSET {limit - 1} LIMIT 1"
        body = f"SELECT value, n {rows} AND n >= COALESCE(({cut}), 0)"
        return body, [by_facet, *params, code, by_facet, *params, code]
    body = (
        "SELECT value, sum(n) AS n FROM {facet_count} "
        f"WHERE by_facet = %s AND by_value = ANY(ARRAY({keys})) AND facet = %s GROUP BY value"
    )
    return body, [by_facet, *params, code]


def _kept_total(kept) -> tuple[str, list]:
    """The number of papers under the kept filter: its values' own counts summed."""
    code, keys, params = kept
    among = "" if keys is None else f" AND value = ANY(ARRAY({keys}))"
    body = (
        "SELECT '' AS value, sum(n) AS n FROM {facet_count} "
        f"WHERE by_facet = '' AND by_value = '' AND facet = %s{among}"
    )
    return body, [code or "v", *params]


_GROUPED = {
    "venue": "SELECT venue_id AS value, count(*) AS n FROM {rows} u WHERE {flags} GROUP BY 1",
    "year": "SELECT venue_id AS value, count(*) AS n FROM {rows} u WHERE {flags} GROUP BY 1",
    "topic": (
        "SELECT t AS value, count(*) AS n FROM {rows} u CROSS JOIN LATERAL unnest(u.topic_ids) t "
        "WHERE {flags} GROUP BY 1"
    ),
    "author": (
        "SELECT a AS value, count(*) AS n FROM {rows} u CROSS JOIN LATERAL unnest(u.author_ids) a "
        "WHERE {flags} GROUP BY 1"
    ),
    "country": "SELECT country AS value, count(*) AS n FROM {rows} u "
    "WHERE {flags} AND country <> '' GROUP BY 1",
    "total": "SELECT '' AS value, count(*) AS n FROM {rows} u WHERE {flags}",
}


def _flags(selected: dict, leave_out: str | None) -> str:
    terms = [f"u.c_{name}" for name in selected if name != leave_out]
    return " AND ".join(terms) or "TRUE"


def _plan(selected, fixed) -> dict[str, object]:
    """For each facet shown (and the total): the kept counts it is read from, or None (rows)."""
    plan = {}
    for name in (*FACET_NAMES, "total"):
        if name in fixed:
            continue
        plan[name] = _kept({**fixed, **{k: v for k, v in selected.items() if k != name}}, name)
    return plan


def _counts_statement(selected, fixed) -> tuple[str, list]:
    """The statement of the counts with no query (rows as _LABELLED gives them)."""
    plan = _plan(selected, fixed)
    statement = Statement()
    from_rows = [name for name, kept in plan.items() if kept is None]
    for name, body, params in rows_parts(selected, fixed, "", from_rows) if from_rows else []:
        statement.add(name, body, params)
    for name, kept in plan.items():
        if kept is None:
            body, params = _GROUPED[name].format(flags=_flags(selected, name), rows="u"), []
        elif name == "total":
            body, params = _kept_total(kept)
        else:
            body, params = _kept_counts(CODES[name], kept, FACET_LIMITS.get(name))
        statement.add(f"{name}_counts", body, params)
    labelled = [_LABELLED[name] for name in plan]
    text_sql = "WITH " + ",\n".join(statement.parts) + "\n" + "\nUNION ALL\n".join(labelled)
    return sql(
        text_sql,
        topic_limit=FACET_TOPIC_LIMIT,
        author_limit=FACET_AUTHOR_LIMIT,
        country_limit=FACET_COUNTRY_LIMIT,
    ), statement.params


def _counted(fixed) -> list[str]:
    return [name for name in (*FACET_NAMES, "total") if name not in fixed]


def _every_match_needed(selected, fixed) -> bool:
    return not narrows(selected, fixed, _counted(fixed))


# The matches' ids as one string of 8-byte integers: a common word's 80,000 ids are sent and
# read in about 6 ms where an array of numbers takes about 10.
_IDS = "string_agg(int8send(u.paper_id), ''::bytea)"


def _matches_statement(selected, fixed, text) -> tuple[str, list]:
    """The statement of the ids of the matches of ``text`` that the counts need (those passing
    all filters but at most one, under the fixed conditions), per filter either a flag per
    match or, when no filter narrows the matches (every match is needed), its keys (the flags
    are then worked out in memory), and the data's state (papers/facet_memory.py), read in one
    snapshot."""
    if _every_match_needed(selected, fixed):
        ids, params = every_match_ids(text)
        keys = [KEYS[name] for name in selected]
        for name, values in selected.items():
            params += filter_params(name, values)
        return sql("SELECT " + ", ".join([STATE_SQL, ids, *keys])), params
    statement = Statement()
    for name, body, params in rows_parts(selected, fixed, text, _counted(fixed), "f.paper_id"):
        statement.add(name, body, params)
    columns = ", ".join([STATE_SQL, _IDS, *[f"array_agg(u.c_{name})" for name in selected]])
    return sql("WITH " + ",\n".join(statement.parts) + f"\nSELECT {columns} FROM u"), (
        statement.params
    )


# A change committed between the matches' statement and the reading of the arrays is seen by
# the next try; a change every few milliseconds, three times in a row, is not a collection's.
_TRIES = 3


def _count_matches(selected, fixed, text) -> Facets:
    statement, params = _matches_statement(selected, fixed, text)
    keyed = _every_match_needed(selected, fixed)
    limits = {name: FACET_LIMITS.get(name) for name in _counted(fixed)}
    with reading_cursor() as cursor:
        for _ in range(_TRIES):
            cursor.execute(statement, params)
            state, ids, *per_filter = cursor.fetchone()
            ids = np.frombuffer(ids or b"", dtype=">i8").astype(np.int64)
            found = memory_for(cursor.db.alias, state, cursor, ids)
            if found is not None:
                memory, positions, known = found
                flags = {
                    name: passing(memory, name, values, positions)
                    if keyed
                    else np.array(values or [], dtype=bool)[known]
                    for name, values in zip(selected, per_filter, strict=True)
                }
                return fold_facets(count_in_memory(memory, positions, flags, limits))
    raise RuntimeError("the papers changed during each of three counts")


# Each facet's rows as (kind, value, label, year, n); the longest facets cut to their top
# values, ties by name (every value counted as much as the last one kept is ranked by name).
_TOP = """(SELECT '{kind}', {value}, {label}, NULL::integer, c.n
    FROM {kind}_counts c {join}
    WHERE c.n > 0 AND c.n >= COALESCE(
        (SELECT n FROM {kind}_counts ORDER BY n DESC OFFSET {limit} - 1 LIMIT 1), 0)
    ORDER BY c.n DESC, {label} LIMIT {limit})"""
_LABELLED = {
    "venue": (
        "(SELECT 'venue', v.slug, v.name, v.year::integer, c.n FROM venue_counts c "
        "JOIN {venue} v ON v.id = c.value::bigint WHERE c.n > 0)"
    ),
    "year": (
        "(SELECT 'year', v.year::text, v.year::text, v.year::integer, sum(c.n) "
        "FROM year_counts c JOIN {venue} v ON v.id = c.value::bigint "
        "WHERE c.n > 0 AND v.year IS NOT NULL GROUP BY v.year)"
    ),
    "topic": _TOP.format(
        kind="topic",
        value="t.slug",
        label="t.name",
        join="JOIN {topic} t ON t.id = c.value::bigint",
        limit="{topic_limit}",
    ),
    "author": _TOP.format(
        kind="author",
        value="a.slug",
        label="a.name",
        join="JOIN {author} a ON a.id = c.value::bigint",
        limit="{author_limit}",
    ),
    "country": _TOP.format(
        kind="country", value="c.value", label="c.value", join="", limit="{country_limit}"
    ),
    "total": "(SELECT 'total', NULL, NULL, NULL, COALESCE(sum(n), 0) FROM total_counts)",
}


def count_facets(
    selected: dict[str, list[str]], fixed=None, text: str = "", matched=None
) -> Facets:
    """Exact counts per facet of the papers under the ``fixed`` conditions (a page's own:
    {facet: values}) that match the query ``text``, each under the ``selected`` filters of the
    other facets ({facet: values}; a facet's values are either-or). ``matched``: the query's
    exact matches in memory (papers/word_memory.py), counted there."""
    if matched is not None:
        limits = {name: FACET_LIMITS.get(name) for name in _counted(fixed or {})}
        return fold_facets(matched.count(limits))
    if text:
        return _count_matches(selected, fixed or {}, text)
    statement, params = _counts_statement(selected, fixed or {})
    with reading_cursor() as cursor:
        cursor.execute(statement, params)
        return fold_facets(cursor.fetchall())


def fold_facets(rows) -> Facets:
    """Facets from the rows of the facet statement, each facet in its order."""
    facets = Facets()
    for kind, key, label, year, n in rows:
        if kind in ("total", "untitled"):
            setattr(facets, kind, int(n))
        else:
            getattr(facets, kind).append((FacetOption(key, label, int(n)), year))
    facets.venue = [o for o, _ in sorted(facets.venue, key=lambda i: (-(i[1] or 0), i[0].label))]
    facets.year = [o for o, _ in sorted(facets.year, key=lambda i: -i[1])]
    for name in ("topic", "author", "country"):
        options = sorted(getattr(facets, name), key=lambda i: (-i[0].count, i[0].label))
        setattr(facets, name, [option for option, _ in options])
    return facets


# Whether a row of the papers table (named as the table: the statements that test it read it
# unaliased) of the venues counted passes the filter whose counts are read.
_MEMBER = {
    "t": "AND EXISTS (SELECT FROM {paper_topic} pt WHERE pt.paper_id = {paper}.id "
    "AND pt.topic_id::text = ({keys} LIMIT 1))",
    "c": "AND {paper}.country = ({keys} LIMIT 1)",
    "": "",
}


def kept_venue_counts(*filter_sets: dict[str, list[str]]) -> tuple[str, list, str, list] | None:
    """(SQL of rows (venue_id, n): how many papers of each venue pass all the filters, read
    from FacetCount, its params, the condition ("AND …" or "") that a row of the papers table
    of those venues passes them, its params) when the counts are kept: venues and years, with
    one topic or a country at most; None otherwise (the papers must be counted)."""
    where, params, among = ["k.facet = 'v'"], [], None
    for name, values in (item for filters in filter_sets for item in filters.items()):
        if name in ("venue", "year"):  # their kept keys are the venues' ids
            where.append(f"k.value = ANY(ARRAY({_KEPT[name]}))")
            params += filter_params(name, values)
        elif among is None and name in ("topic", "country") and len(values) == 1:
            among = (CODES[name], _KEPT[name], filter_params(name, values))
        else:
            return None
    by_facet, keys, key_params = among or ("", "SELECT ''", [])
    rows = (
        "SELECT k.value::bigint AS venue_id, k.n FROM {facet_count} k "
        f"WHERE k.by_facet = %s AND k.by_value = ({keys} LIMIT 1) AND {' AND '.join(where)}"
    )
    member = _MEMBER[by_facet].replace("{keys}", keys)
    return sql(rows), [by_facet, *key_params, *params], sql(member), key_params
