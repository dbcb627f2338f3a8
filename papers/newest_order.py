"""The default order's pages, read at any depth (``PaperQuerySet.newest_ids``): one statement
counts the papers per segment (venue and completeness), finds the segments a page falls in,
and reads each one's papers in proceedings order from the index paper_venue_order. A query
matched in memory has its segments counted there instead (``matched_page_ids``)."""

from functools import cache
from typing import NamedTuple

import numpy as np
from django.db import models
from django.db.models import F
from django.db.models.expressions import RawSQL

from .matching import matching_within
from .tables import sql

# The filtered papers placed in their segments: venue and completeness, read from the index
# paper_segment without visiting the (wide) paper rows, one probe per paper (OFFSET 0: never a
# join that reads every paper).
PLACED_SQL = (
    "placed AS MATERIALIZED (SELECT f.id, p.venue_id, p.complete FROM filtered f "
    "CROSS JOIN LATERAL (SELECT venue_id, complete FROM {paper} p WHERE p.id = f.id OFFSET 0) "
    "AS p),"
)
FILTERED_SEGMENTS_SQL = "SELECT venue_id, complete FROM placed"
# A segment's filtered papers read by id, one probe each (OFFSET 0), in proceedings order,
# skipped into and cut to the page (parameters: offset, limit). Written out: as "id IN
# (placed)", the planner could read the venue's every paper in order instead, testing each
# (3,000 rows for an author's 12 papers, on a table whose statistics favoured it).
PLACED_IN_SEGMENT_SQL = """(SELECT p.id FROM placed AS pl CROSS JOIN LATERAL (
    SELECT p.id, p.number, p.display_key FROM {paper} AS p WHERE p.id = pl.id OFFSET 0
) AS p
WHERE NOT w.dense AND pl.venue_id = w.venue_id AND pl.complete = w.complete
ORDER BY p.number, p.display_key, p.id OFFSET GREATEST(%s - w.start, 0) LIMIT %s)"""
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
# Which way a segment's papers are read (NEWEST_SQL's w.dense).
_DENSE = RawSQL("w.dense", [], models.BooleanField())
_SPARSE = RawSQL("NOT w.dense", [], models.BooleanField())
# The other way for a kept segment is to join the filters to its venue's every paper: reading
# them one by one costs less while the page needs at most half of their matches.
KEPT_DENSE_SQL = "o.needed * 2 <= o.n"
# The other way for a filtered segment is to read its o.n papers by id (PLACED_IN_SEGMENT_SQL):
# reading its venue in order costs less while the ~needed × venue / n rows it passes are fewer
# than n (a common word's first page; an author has a dozen papers in a venue of thousands).
FILTERED_DENSE_SQL = (
    "o.needed * (SELECT k.n FROM {facet_count} k WHERE k.facet = 'v' AND k.by_facet = '' "
    "AND k.by_value = '' AND k.value = o.venue_id::text) < o.n * o.n"
)
# The segments (complete or not, venue) the page falls in, from running totals in the default
# order, then each segment's papers read from the index paper_venue_order. {prefix}: CTEs the
# others read; {counts}: the filtered papers' venue ids and completeness; {ranks}: each venue's
# place in venue_order(); {pieces}: one segment's filtered ids in proceedings order
# (w.venue_id, w.complete), skipped into and cut to the page: one query, or two of which
# w.dense lets one read: {dense}, of the segment's o.n papers and the o.needed the page reads
# through, whether they are found sooner in proceedings order, each paper tested as read, than
# the other way (KEPT_DENSE_SQL, FILTERED_DENSE_SQL).
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
    SELECT o.venue_id, o.complete, o.start, {dense} AS dense FROM (
        SELECT *, GREATEST(%s - start, 0) + %s AS needed
        FROM ordered WHERE start < %s AND start + n > %s
    ) AS o
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


def newest_page_statement(papers, limit: int, offset: int, text: str, kept) -> tuple[str, list]:
    """(SQL, params) of one page of ids of ``papers`` (a queryset carrying the filters) in the
    default order (``in_order("newest")``), at any depth, matching ``text`` if any.

    Rather than sorting every paper to skip ``offset`` of them, the statement counts the papers
    per (completeness, venue) segment, finds the segments the page falls in from the running
    totals in that order, and reads each one's papers from the index paper_venue_order (venue,
    complete, number, display order, id), skipping into it. Filtered, the filters' ids are read
    first (with a query, those of them it matches, papers/matching.py) and their segments
    counted by an index-only scan of paper_segment. Without a query, unfiltered or when
    ``kept`` gives the filtered papers' number per venue (papers/facets.py
    ``kept_venue_counts``), the segments are those counts split by the few incomplete
    records: none is counted. A kept segment's papers are then tested against a topic or
    country filter one by one as they are read, or, when the page needs over half of them,
    joined to it; a filtered segment's, as they are read, or, when few are among many, by
    their ids.
    """
    segments = _segments(papers, text, kept)
    ranks_sql, ranks_params = venue_ranks()
    pieces, pieces_params = [], []
    for base in segments.bases:
        if isinstance(base, str):  # written out whole (PLACED_IN_SEGMENT_SQL)
            pieces.append(base)
            pieces_params += [offset, limit]
            continue
        inner = (
            base.filter(venue_id=RawSQL("w.venue_id", []), complete=RawSQL("w.complete", []))
            .order_by("number", "display_key", "pk")
            .values("id")
        )
        inner_sql, inner_params = inner.query.sql_with_params()
        pieces.append(f"({inner_sql} OFFSET GREATEST(%s - w.start, 0) LIMIT %s)")
        pieces_params += [*inner_params, offset, limit]
    statement = sql(
        NEWEST_SQL,
        prefix=segments.prefix,
        counts=segments.counts,
        ranks=ranks_sql,
        dense=segments.dense,
        pieces=" UNION ALL ".join(pieces),
    )
    params = [
        *segments.prefix_params,
        *segments.counts_params,
        *ranks_params,
        *(offset, limit, offset + limit, offset),
        *pieces_params,
        limit,
    ]
    return statement, params


class _Segments(NamedTuple):
    """How the page statement counts its segments and reads their papers."""

    prefix: str  # CTEs before the counts
    prefix_params: list
    bases: list  # the papers a segment's page is read from: one queryset, or two gated by w.dense
    # (a string: a piece written out whole)
    counts: str  # SQL of the counts per segment (venue_id, complete, n)
    counts_params: list
    dense: str = "TRUE"  # SQL of w.dense, when there are two ways


def _segments(papers, text: str, kept) -> _Segments:
    """The page statement's ways of counting its segments and reading their papers."""
    if not papers.query.where:
        if text:
            base = papers.matching(text).order_by()
            rows, params = base.values("venue_id", "complete").query.sql_with_params()
            return _Segments("", [], [base], sql(COUNTED_SEGMENTS_SQL, rows=rows), list(params))
        counts = sql(KEPT_SEGMENTS_SQL, kept=sql(ALL_KEPT_SQL), member="")
        return _Segments("", [], [papers.order_by()], counts, [])
    if kept is not None and not text:
        rows, rows_params, member, member_params = kept
        member_test = sql(KEPT_MEMBER_SQL, member=member)
        counts = sql(KEPT_SEGMENTS_SQL, kept=rows, member=f"AND {member_test}")
        params = [*member_params, *rows_params]
        if not member:  # venues and years keep whole venues: their papers are read as they are
            return _Segments("", [], [papers.order_by()], counts, params)
        tested = RawSQL(member_test, member_params, models.BooleanField())
        bases = [papers.model.objects.filter(tested, _DENSE), papers.order_by().filter(_SPARSE)]
        return _Segments("", [], bases, counts, params, KEPT_DENSE_SQL)
    prefix, prefix_params = _filtered_ids(papers, text)
    tested = RawSQL(sql(FILTERED_MEMBER_SQL), [], models.BooleanField())
    bases = [papers.model.objects.filter(tested, _DENSE), sql(PLACED_IN_SEGMENT_SQL)]
    counts = sql(COUNTED_SEGMENTS_SQL, rows=FILTERED_SEGMENTS_SQL)
    prefix += sql(PLACED_SQL)
    return _Segments(prefix, prefix_params, bases, counts, [], sql(FILTERED_DENSE_SQL))


def _filtered_ids(papers, text: str) -> tuple[str, list]:
    """CTEs ending in ``filtered``: the ids of these papers, matching ``text`` if any."""
    ids_sql, ids_params = papers.order_by().values("id").query.sql_with_params()
    if not text:
        return f"filtered AS MATERIALIZED ({ids_sql}),", list(ids_params)
    matched, matched_params = matching_within("chosen", text)
    return (
        f"chosen AS MATERIALIZED ({ids_sql}), filtered AS MATERIALIZED ({sql(matched)}),",
        [*ids_params, *matched_params],
    )


def matched_page_ids(papers, matched, limit: int, offset: int) -> list[int]:
    """One page of ids in the default order of a query matched in memory
    (papers/word_memory.py MatchedQuery): its papers passing the filters are placed in their
    segments from the memory's arrays, and only the segments the page falls in are read, in
    proceedings order (one statement). In SQL, every match was probed for its segment ("language
    models": 60-120 ms at 100,000 papers)."""
    memory = matched.memory
    positions = np.flatnonzero(matched.chosen())
    # The default order's segments: complete records first, then the newest venue first.
    segment = (~memory.complete[positions]) * len(memory.newness) + memory.newness[
        memory.venue[positions]
    ]
    order = np.argsort(segment, kind="stable")
    positions, segment = positions[order], segment[order]
    starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    ends = np.r_[starts[1:], len(segment)].astype(np.int64)
    touched = np.flatnonzero((starts < offset + limit) & (ends > offset))
    if not len(touched):
        return []
    first, last = int(starts[touched[0]]), int(ends[touched[-1]])
    venues = memory.venues.ids[memory.venue[positions[starts[touched]]]].tolist()
    page = (
        papers.model.objects.filter(pk__in=memory.ids[positions[first:last]].tolist())
        .order_by(
            F("complete").desc(),
            RawSQL("array_position(%s::bigint[], venue_id)", (venues,)),
            "number",
            "display_key",
            "pk",
        )
        .values_list("pk", flat=True)
    )
    return list(page[offset - first : offset - first + limit])
