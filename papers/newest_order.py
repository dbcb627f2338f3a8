"""The SQL of the default order's pages, read at any depth (``PaperQuerySet.newest_ids``):
the papers counted per segment (venue and completeness), the segments a page falls in, and
each one's papers read in proceedings order from the index paper_venue_order."""

from functools import cache

# The segments of the filtered papers: venue and completeness, read from the index
# paper_segment without visiting the (wide) paper rows, one probe per paper (OFFSET 0: never a
# join that reads every paper).
FILTERED_SEGMENTS_SQL = (
    "SELECT p.venue_id, p.complete FROM filtered f CROSS JOIN LATERAL "
    "(SELECT venue_id, complete FROM {paper} p WHERE p.id = f.id OFFSET 0) AS p"
)
# The papers per segment, counted from their (venue, completeness) rows {rows}.
COUNTED_SEGMENTS_SQL = (
    "SELECT c.venue_id, c.complete, count(*) AS n FROM ({rows}) AS c "
    "GROUP BY c.venue_id, c.complete"
)
# The segments from kept counts, without counting the papers: {kept}, rows (venue_id, n) of
# the papers of each venue, split by their incomplete records ({member}: "AND" the test that
# they pass the filters, on the unaliased table, or ""), counted in the index
# paper_venue_complete (few: a record lacking its title or authors).
KEPT_SEGMENTS_SQL = """
SELECT s.venue_id, s.complete, s.n FROM (
    SELECT k.venue_id, k.n,
           (SELECT count(*) FROM {paper}
            WHERE {paper}.venue_id = k.venue_id AND NOT {paper}.complete {member}) AS incomplete
    FROM ({kept}) AS k OFFSET 0
) AS v CROSS JOIN LATERAL (
    VALUES (v.venue_id, true, v.n - v.incomplete), (v.venue_id, false, v.incomplete)
) AS s(venue_id, complete, n)
WHERE s.n > 0
"""
# Every venue's papers, as papers/counts.py keeps them.
ALL_KEPT_SQL = (
    "SELECT k.value::bigint AS venue_id, k.n FROM {facet_count} k "
    "WHERE k.facet = 'v' AND k.by_facet = '' AND k.by_value = ''"
)
# A paper among the filtered ones, tested row by row against their hash ("IS TRUE" keeps the
# planner from joining them instead): each segment's papers are then read in order from the
# index paper_venue_order until the page is full, never every filtered paper probed for each.
FILTERED_MEMBER_SQL = "({paper}.id IN (SELECT id FROM filtered)) IS TRUE"
# A paper of a kept segment passing the filters ({member}, papers/facets.py
# kept_venue_counts), tested row by row as FILTERED_MEMBER_SQL is: joined instead, a topic's
# links were hashed against every paper of the segment's venue (5,336 rows for a page of 25
# at 100,000 papers).
KEPT_MEMBER_SQL = "(TRUE {member}) IS TRUE"
# The segments (complete or not, venue) the page falls in, from running totals in the default
# order, then each segment's papers read from the index paper_venue_order. {prefix}: CTEs the
# others read; {counts}: the filtered papers' venue ids and completeness; {ranks}: each venue's
# place in venue_order(); {pieces}: one segment's filtered ids in proceedings order
# (w.venue_id, w.complete), skipped into and cut to the page: one query, or two of which
# w.dense lets one read (the page needs at most half the segment's papers: they are found
# soon in order, each tested as read; else reading the whole segment at once costs less).
NEWEST_SQL = """
WITH {prefix} counts AS ({counts}),
ranks AS MATERIALIZED ({ranks}),
ordered AS (
    SELECT c.venue_id, c.complete, c.n,
           sum(c.n) OVER (ORDER BY c.complete DESC, r.rank ROWS UNBOUNDED PRECEDING) - c.n
           AS start
    FROM counts c JOIN ranks r ON r.id = c.venue_id
),
w AS MATERIALIZED (
    SELECT venue_id, complete, start, (GREATEST(%s - start, 0) + %s) * 2 <= n AS dense
    FROM ordered WHERE start < %s AND start + n > %s
)
SELECT page.id FROM w CROSS JOIN LATERAL (
    SELECT x.id, row_number() OVER () AS rn FROM ({pieces}) AS x
) AS page
ORDER BY w.start, page.rn
LIMIT %s
"""


@cache
def venue_ranks() -> tuple[str, tuple]:
    """(SQL, params) of the venues' ids with their rank in the list's newest-first order
    (papers/expressions.py ``venue_order``): the same for every page, so built once."""
    from django.db.models import Window
    from django.db.models.functions import RowNumber

    from .expressions import venue_order
    from .models import Venue

    ranks = Venue.objects.annotate(rank=Window(RowNumber(), order_by=venue_order()))
    return ranks.values("id", "rank").query.sql_with_params()
