"""The facet counts that do not depend on a query, exact and kept in step with every change.

``FacetCount`` holds the number of papers per venue, topic, author and country, and per pair of
them (the papers of a venue per topic, of a topic per author …: ``PAIRS``), so that a page with
no query and at most one filter reads its counts instead of counting (papers/facets.py). A year
is a set of venues, so its counts are the venues' summed.

``refresh_counts(paper_ids)`` keeps them exact by difference, in the caller's transaction: the
papers' rows in ``PaperFacets`` (what they were last counted under) are compared with their live
venue, country, topic links and authorships; the papers that differ have their old keys counted
out and their new ones in, and their rows rewritten. Its cost follows the papers given (all of
them, a set-based pass, when none are); every load and curation change calls it with the papers
it touched (papers/writing.py, papers/curation.py, papers/topic_rules.py, papers/tagging.py,
the admin), and it raises the data version that cached pages are keyed by (papers/caching.py).
"""

from contextvars import ContextVar

from django.db import connection, transaction

from .caching import bump_data_version, lock_changes
from .denormalise import Pending, deferring
from .tables import sql

# The number of papers, exact, from the kept venue counts (a few rows): the collection's size
# for the IDF of search and of partial matches.
COLLECTION_SIZE_SQL = (
    "SELECT COALESCE(sum(k.n), 0)::float AS papers FROM {facet_count} k "
    "WHERE k.facet = 'v' AND k.by_facet = ''"
)

# After this many papers changed, the planner's statistics of the tables are refreshed.
ANALYZE_AFTER = 1000
# (facet, by_facet): counted per value of ``facet`` among the papers with a value of
# ``by_facet``; "" is every paper. v venue, t topic, a author, c country. No counts are kept
# among an author's papers (they are few), nor of authors within a venue or a topic: those
# pairs are most of all pairs (every co-author of every paper), and a venue's or a topic's
# authors are counted from its papers' rows as quickly (papers/facets.py).
PAIRS = (
    ("v", ""),
    ("t", ""),
    ("a", ""),
    ("c", ""),
    ("t", "v"),
    ("c", "v"),
    ("v", "t"),
    ("c", "t"),
    ("v", "c"),
    ("t", "c"),
    ("a", "c"),
)
# Each key as a column of the rows it is read from: the diff's own (d), one row per topic link
# (t) or per authorship (a) of the papers in the diff.
_KEY_COLUMNS = {"v": "venue_id", "c": "country", "t": "topic", "a": "author"}

# The papers' facets as they are now: {where} limits them to the papers refreshed.
_LIVE_SQL = """
SELECT p.id AS paper_id, p.venue_id, p.country,
       COALESCE((SELECT array_agg(pt.topic_id ORDER BY pt.topic_id) FROM {paper_topic} pt
                 WHERE pt.paper_id = p.id), '{{}}') AS topic_ids,
       COALESCE((SELECT array_agg(DISTINCT s.author_id ORDER BY s.author_id)
                 FROM {authorship} s WHERE s.paper_id = p.id), '{{}}') AS author_ids
FROM {paper} p {where}
"""

# The papers whose facets changed: -1 rows for what was counted, +1 for what is now.
_DIFF_SQL = """
CREATE TEMP TABLE papers_facet_diff ON COMMIT DROP AS
WITH live AS MATERIALIZED ({live}),
kept AS MATERIALIZED (
    SELECT paper_id, venue_id, country, topic_ids, author_ids FROM {paper_facets} {where}
)
SELECT -1 AS sign, k.* FROM kept k WHERE NOT EXISTS (
    SELECT 1 FROM live l WHERE l.paper_id = k.paper_id
    AND (l.venue_id, l.country, l.topic_ids, l.author_ids)
        = (k.venue_id, k.country, k.topic_ids, k.author_ids)
)
UNION ALL
SELECT 1 AS sign, l.* FROM live l WHERE NOT EXISTS (
    SELECT 1 FROM kept k WHERE k.paper_id = l.paper_id
    AND (l.venue_id, l.country, l.topic_ids, l.author_ids)
        = (k.venue_id, k.country, k.topic_ids, k.author_ids)
)
"""

# The change of each count, then applied: added to the counts that exist, inserted where none
# does (one refresh runs at a time, so no other can insert the same key in between; cheaper
# than INSERT ... ON CONFLICT, which tries each row as an insertion first).
_COUNT_SQL = """
CREATE TEMP TABLE papers_facet_delta ON COMMIT DROP AS
WITH t AS MATERIALIZED (
    SELECT d.sign, d.venue_id, d.country, topic FROM papers_facet_diff d, unnest(d.topic_ids) topic
),
a AS MATERIALIZED (
    SELECT d.sign, d.venue_id, d.country, author
    FROM papers_facet_diff d, unnest(d.author_ids) author
),
d AS (SELECT * FROM papers_facet_diff)
SELECT * FROM ({pairs}) AS counted(facet, value, by_facet, by_value, n) WHERE n <> 0;
UPDATE {facet_count} c SET n = c.n + d.n FROM papers_facet_delta d
WHERE (c.by_facet, c.by_value, c.facet, c.value) = (d.by_facet, d.by_value, d.facet, d.value);
INSERT INTO {facet_count} (facet, value, by_facet, by_value, n)
SELECT d.facet, d.value, d.by_facet, d.by_value, d.n FROM papers_facet_delta d
WHERE NOT EXISTS (
    SELECT 1 FROM {facet_count} c
    WHERE (c.by_facet, c.by_value, c.facet, c.value) = (d.by_facet, d.by_value, d.facet, d.value)
);
DROP TABLE papers_facet_delta;
"""

_ROWS_SQL = """
DELETE FROM {paper_facets} f USING papers_facet_diff d WHERE d.sign < 0 AND f.paper_id = d.paper_id;
INSERT INTO {paper_facets}
    (paper_id, venue_id, country, topic_ids, author_ids, lexemes, title_lexemes)
SELECT d.paper_id, d.venue_id, d.country, d.topic_ids, d.author_ids, strip(p.search_vector),
       strip(p.title_vector)
FROM papers_facet_diff d JOIN {paper} p ON p.id = d.paper_id WHERE d.sign > 0;
DELETE FROM {facet_count} WHERE n = 0;
DROP TABLE papers_facet_diff;
"""


def _pairs_sql() -> str:
    """One grouped SELECT per pair, from the rows that hold both keys."""
    parts = []
    for facet, by in PAIRS:
        source = "a" if "a" in (facet, by) else "t" if "t" in (facet, by) else "d"
        keys = [_KEY_COLUMNS[key] for key in (facet, by) if key]
        by_value = f"{_KEY_COLUMNS[by]}::text" if by else "''"
        where = " WHERE country <> ''" if "c" in (facet, by) else ""
        # Grouped by the keys as they are (ids hash faster than their text).
        parts.append(
            f"SELECT '{facet}', {_KEY_COLUMNS[facet]}::text, '{by}', {by_value}, sum(sign) AS n "
            f"FROM {source}{where} GROUP BY {', '.join(keys)}"
        )
    return "\nUNION ALL\n".join(parts)


_DEFERRED: ContextVar[Pending | None] = ContextVar("deferred_counts", default=None)


def counts_deferred():
    """Within the block, refresh_counts() only notes papers, in the Pending it yields (its
    ``ids``: a set, or None once every paper is noted): a load's rules and model change the
    links of papers the load counts anyway, once, after them (papers/writing.py)."""
    return deferring(_DEFERRED)


def refresh_counts(paper_ids=None) -> int:
    """Bring the facet counts in step with these papers (all when None), deleted ones
    included; returns the number of papers whose facets changed (0 inside counts_deferred(),
    which only notes them). Raises the data version."""
    if (pending := _DEFERRED.get()) is not None:
        pending.add(paper_ids)
        return 0
    where, params = "", []
    if paper_ids is not None:
        ids = sorted({int(pk) for pk in paper_ids})
        where, params = "WHERE {column} = ANY(%s)", [ids]
    live = sql(_LIVE_SQL, where=where.format(column="p.id"))
    diff = sql(_DIFF_SQL, live=live, where=where.format(column="paper_id"))
    with transaction.atomic(), connection.cursor() as cursor:
        # One refresh at a time: two would each count the other's papers from stale rows.
        lock_changes()
        cursor.execute("DROP TABLE IF EXISTS pg_temp.papers_facet_diff")
        cursor.execute(diff, params * 2)
        changed = 0
        if cursor.rowcount:
            cursor.execute("SELECT count(DISTINCT paper_id) FROM papers_facet_diff")
            changed = cursor.fetchone()[0]
            cursor.execute(sql(_COUNT_SQL, pairs=_pairs_sql()))
            cursor.execute(sql(_ROWS_SQL))
        else:
            cursor.execute("DROP TABLE papers_facet_diff")
        if changed >= ANALYZE_AFTER:
            cursor.execute(sql("ANALYZE {facet_count}; ANALYZE {paper_facets}"))
        bump_data_version()
    return changed
