"""Facet counts for the list: venue, year, country, topic and author, in one SQL statement.

Each facet is counted under the *other* filters (so a facet shows what a click would give):
the chosen papers carry one boolean per filter, and conditional sums (FILTER) count each facet
with its own flag left out. Topics and authors come from the link tables joined to the counted
ids, LIMITed.

Bounded work at any collection size: up to EXACT_BOUND matches every count is exact, computed
over those papers only (a LIMITed probe, no sort); beyond it they are estimated from the papers
of the sample (one in SAMPLE_EVERY, the partial index paper_sample; for a text query the
function papers_text_sample AND-s its bitmap with the search index's), scaled up, and marked
``estimated`` — the page says so. The total stays exact when the fully filtered set is itself
within the bound (a second LIMITed probe).
"""

from dataclasses import dataclass, field

from django.db import connection, models
from django.db.models import ExpressionWrapper, Q
from django.db.models.expressions import RawSQL

from .expressions import SAMPLE_EVERY, SEARCH_CONFIG, in_sample
from .tables import sql

EXACT_BOUND = 5000
FACET_AUTHOR_LIMIT = 15
FACET_COUNTRY_LIMIT = 25
FACET_TOPIC_LIMIT = 40
FACET_NAMES = ("venue", "topic", "author", "year", "country")


@dataclass
class FacetOption:
    value: str
    label: str
    count: int


@dataclass
class Facets:
    total: int = 0
    venue: list[FacetOption] = field(default_factory=list)
    year: list[FacetOption] = field(default_factory=list)
    country: list[FacetOption] = field(default_factory=list)
    topic: list[FacetOption] = field(default_factory=list)
    author: list[FacetOption] = field(default_factory=list)
    estimated: bool = False  # counted on the sample (more than EXACT_BOUND matches)
    total_estimated: bool = False


def estimate(count: int) -> int:
    """A count scaled up from the sample, rounded to two significant figures."""
    if count <= 0:
        return 0
    digits = len(str(int(count))) - 2
    return round(count, -digits) if digits > 0 else count


# The statement's named parts. {probe} and {sample} are the chosen papers' rows (id, venue_id,
# country and a c_<facet> flag per active filter); {filtered} counts the fully filtered set.
_CHOSEN_SQL = """
probe AS MATERIALIZED ({probe}),
big AS (SELECT count(*) > {bound} AS yes FROM probe),
chosen AS MATERIALIZED (
    SELECT probe.*, 1 AS w FROM probe WHERE NOT (SELECT yes FROM big)
    UNION ALL
    SELECT s.*, {every} AS w FROM ({sample}) AS s WHERE (SELECT yes FROM big)
),
filtered AS ({filtered}),
flagged AS (
    SELECT c.id, c.venue_id, c.country, c.w, {flags}
    FROM chosen c
)"""

_PLACES_SQL = """
places AS (
    SELECT venue_id, country,
           sum(w) FILTER (WHERE f_all) AS n_all,
           sum(w) FILTER (WHERE f_venue) AS n_venue,
           sum(w) FILTER (WHERE f_year) AS n_year,
           sum(w) FILTER (WHERE f_country) AS n_country
    FROM flagged GROUP BY venue_id, country
)"""

_TOPICS_SQL = """
topics AS (
    SELECT t.slug, t.name, n FROM (
        SELECT pt.topic_id, sum(f.w) AS n FROM flagged f
        JOIN {paper_topic} pt ON pt.paper_id = f.id
        WHERE f.f_topic GROUP BY pt.topic_id
    ) AS counted JOIN {topic} t ON t.id = counted.topic_id
    ORDER BY n DESC, t.name LIMIT {topic_limit}
)"""

_AUTHORS_SQL = """
authors AS (
    SELECT a.slug, a.name, n FROM (
        SELECT au.author_id, sum(f.w) AS n FROM flagged f
        CROSS JOIN LATERAL unnest(ARRAY(
            SELECT x.author_id FROM {authorship} x WHERE x.paper_id = f.id
        )) AS au(author_id)
        WHERE f.f_author GROUP BY au.author_id
        ORDER BY n DESC LIMIT {author_pool}
    ) AS counted JOIN {author} a ON a.id = counted.author_id
    ORDER BY n DESC, a.name LIMIT {author_limit}
)"""

_ROWS_SQL = """
SELECT 'flags', NULL, NULL, NULL, NULL,
       (SELECT yes FROM big)::int, (SELECT n FROM filtered), NULL, NULL
UNION ALL
SELECT 'place', v.slug, v.name, v.year, p.country, p.n_all, p.n_venue, p.n_year, p.n_country
FROM places p JOIN {venue} v ON v.id = p.venue_id
UNION ALL
SELECT 'topic', slug, name, NULL, NULL, n, NULL, NULL, NULL FROM topics
UNION ALL
SELECT 'author', slug, name, NULL, NULL, n, NULL, NULL, NULL FROM authors
"""


def _text_function(name: str, text: str, *extra) -> RawSQL:
    """The ids a set-returning search function (migration 0001) gives for a query."""
    arguments = ", %s" * len(extra)
    return RawSQL(
        f"SELECT s.id FROM {name}(websearch_to_tsquery(%s::regconfig, %s){arguments}) s",
        [SEARCH_CONFIG, text, *extra],
    )


def _flag_columns(names: list[str]) -> str:
    """f_<facet>: the paper passes every active filter but that facet's own."""

    def others(name):
        terms = [f"c.c_{other}" for other in names if other != name]
        return " AND ".join(terms) if terms else "TRUE"

    flags = [f"{others(None)} AS f_all"]
    flags += [f"{others(name)} AS f_{name}" for name in FACET_NAMES]
    return ", ".join(flags)


def _chosen_queries(papers, matches, conditions: dict[str, Q], text: str):
    """(probe, sample): the first matches, up to the bound, and the sample's matches."""
    base = matches.order_by()
    flags = {
        f"c_{name}": ExpressionWrapper(condition, output_field=models.BooleanField())
        for name, condition in conditions.items()
    }
    columns = ["id", "venue_id", "country", *flags]
    if text:
        # The first matches through the search index's bitmap (the planner would rather scan
        # the table, detoasting every vector it passes), then the rows by id.
        unordered = papers.order_by()
        probe_ids = _text_function("papers_text_probe", text, EXACT_BOUND + 1)
        probe = unordered.filter(pk__in=probe_ids)
        sample = unordered.filter(pk__in=_text_function("papers_text_sample", text))
    else:
        probe = base
        sample = base.filter(in_sample())
    probe = probe.annotate(**flags).values(*columns)[: EXACT_BOUND + 1]
    return probe, sample.annotate(**flags).values(*columns)


def _filtered_count_query(matches, conditions: dict[str, Q], text: str):
    """SQL and params counting the fully filtered set (only needed beyond the bound)."""
    if not conditions and text:
        return "SELECT NULL::bigint AS n", []
    narrowed = matches.order_by().filter(*conditions.values()).values("id")
    if text:
        # A query's matches are counted up to the bound only; without a query the count is
        # cheap (narrow indexes), so it is exact and uncapped.
        narrowed = narrowed[: EXACT_BOUND + 1]
    sql, params = narrowed.query.sql_with_params()
    return f"SELECT count(*) AS n FROM ({sql}) AS f WHERE (SELECT yes FROM big)", list(params)


def count_facets(papers, matches, conditions: dict[str, Q], text: str = "") -> Facets:
    """Counts per facet of ``matches``, the papers of ``papers`` (a queryset under any fixed
    conditions) that match the query ``text``, each under the other ``conditions`` (the user's
    filters by facet name)."""
    probe, sample = _chosen_queries(papers, matches, conditions, text)
    probe_sql, probe_params = probe.query.sql_with_params()
    sample_sql, sample_params = sample.query.sql_with_params()
    filtered_sql, filtered_params = _filtered_count_query(matches, conditions, text)
    chosen = _CHOSEN_SQL.format(
        probe=probe_sql,
        sample=sample_sql,
        filtered=filtered_sql,
        flags=_flag_columns(list(conditions)),
        bound=EXACT_BOUND,
        every=SAMPLE_EVERY,
    )
    counted = sql(
        f"{_PLACES_SQL}, {_TOPICS_SQL}, {_AUTHORS_SQL} {_ROWS_SQL}",
        topic_limit=FACET_TOPIC_LIMIT,
        author_pool=FACET_AUTHOR_LIMIT * 4,
        author_limit=FACET_AUTHOR_LIMIT,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH {chosen}, {counted}", [*probe_params, *sample_params, *filtered_params]
        )
        rows = cursor.fetchall()
    return fold_facets(rows, exact_total_known=not text)


def _sorted_options(counts: dict, key, scale) -> list[FacetOption]:
    return [
        FacetOption(value, label, scale(n))
        for value, (label, n) in sorted(counts.items(), key=lambda item: key(item))
    ]


def fold_facets(rows, exact_total_known: bool = False) -> Facets:
    """Facets from the rows of the facet statement."""
    facets = Facets()
    venues, years, countries, topics, authors = {}, {}, {}, {}, {}
    venue_years: dict[str, int] = {}
    total, exact_total = 0, None
    for kind, key, label, year, country, n_all, n_venue, n_year, n_country in rows:
        if kind == "flags":
            facets.estimated, exact_total = bool(n_all), n_venue
        elif kind == "place":
            total += n_all or 0
            if n_venue:
                venue_years[key] = year or 0
                venues[key] = (label, venues.get(key, (label, 0))[1] + n_venue)
            if n_year and year:
                years[str(year)] = (str(year), years.get(str(year), ("", 0))[1] + n_year)
            if n_country and country:
                countries[country] = (country, countries.get(country, ("", 0))[1] + n_country)
        elif kind == "topic":
            topics[key] = (label, n_all)
        else:
            authors[key] = (label, n_all)
    scale = estimate if facets.estimated else int
    if (
        facets.estimated
        and exact_total is not None
        and (exact_total <= EXACT_BOUND or exact_total_known)
    ):
        facets.total = int(exact_total)
    else:
        facets.total = scale(total)
        facets.total_estimated = facets.estimated
    facets.venue = _sorted_options(venues, lambda i: (-venue_years[i[0]], i[1][0]), scale)
    facets.year = _sorted_options(years, lambda i: -int(i[0]), scale)
    facets.country = _sorted_options(countries, lambda i: (-i[1][1], i[0]), scale)
    facets.country = facets.country[:FACET_COUNTRY_LIMIT]
    facets.topic = [FacetOption(slug, name, scale(n)) for slug, (name, n) in topics.items()]
    facets.author = [FacetOption(slug, name, scale(n)) for slug, (name, n) in authors.items()]
    return facets
