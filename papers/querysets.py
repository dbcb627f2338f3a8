"""Query logic for papers: search, facets and similarity live here, not in views.

Design for 100,000 papers
-------------------------
Ranked search (``ranked_ids``) never ranks every match. A common query such as
"language models" matches most of a large NLP collection, and ranking tens of thousands of
rows with ts_rank_cd (detoasting each stored vector, then sorting) costs far more than the
150 ms budget. Instead the ranking runs over a bounded candidate set built by two LIMITed
index scans, both under the page's filters:

1. papers whose *title* matches the query, found through the expression index
   ``paper_title_tsv`` (migration 0002) on the title's own tsvector, at most
   ``CANDIDATE_CAP`` of them;
2. papers whose weighted search vector matches, found through the GIN index
   ``paper_search_vector``, at most ``CANDIDATE_CAP`` of them.

Neither scan sorts: PostgreSQL stops the bitmap heap scan after the LIMIT. The union (at most
twice the cap) is then ranked: a title match scores 1 + 2 / (1 + lexemes in the title), plus
BODY_WEIGHT times ts_rank over the weighted vector normalised to [0, 1), so a paper whose title
matches the query always ranks above one that only mentions it in its abstract. When a query matches no more than the
cap, which is every specific query, the ranking is exact; beyond it, relevance pages stop at
the cap and the page says so. When title matches alone fill the page, the abstract candidates
are not read at all (a title match always outranks an abstract-only one).

Facets and the total are one SQL statement (``facets``): conditional sums (FILTER) give the
venue, year and country facets each under the *other* filters, topics and authors come from
the link tables joined to the counted ids, LIMITed. Up to EXACT_BOUND matches every count is
exact; beyond it they are estimated from a 1-in-SAMPLE_EVERY sample and shown as "about N".
The default order reads each venue's papers from an index (``newest_ids``), at any depth.

Similar papers use a "more like this" query built in SQL from the paper's most distinctive
lexemes (tf in the paper × idf from the Lexeme table); see ``similar_to``.
"""

import re
from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db import connection, models
from django.db.models import Count, ExpressionWrapper, F, Func, Q, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, Left, Lower, NullIf

from .text import websearch_text

SEARCH_CONFIG = "english"
CANDIDATE_CAP = 2000
# ts_rank weights for D, C, B, A: abstract (C) a fifth of the title (A), names (B) 0.4.
RANK_WEIGHTS = "{0.05, 0.2, 0.4, 1.0}"
# The score: a title match counts 1 + 2 / (1 + lexemes in the title), so it always outranks
# an abstract-only match and shorter matching titles come first; the whole vector's
# ts_rank (normalised into [0, 1) by rank / (rank + 1)) adds at most BODY_WEIGHT. Measured
# on 200 known-item queries over the Anthology (bench/quality.py): MRR@10 0.855, against
# 0.817 for ts_rank_cd plus a flat title boost.
BODY_WEIGHT = 0.5
TITLE_SCORE_SQL = "(1 + 2.0 / (1 + {table}.title_terms))"
# Private-use characters that never occur in the data (they are stripped from it before
# ts_headline runs), so only ts_headline's own marks can become <mark> after escaping.
MARK_START = "\ue000"
MARK_STOP = "\ue001"
HEADLINE_OPTIONS = (
    f"StartSel={MARK_START}, StopSel={MARK_STOP}, MaxWords=40, MinWords=18, ShortWord=2, "
    'MaxFragments=2, FragmentDelimiter=" … "'
)
TITLE_HEADLINE_OPTIONS = f"StartSel={MARK_START}, StopSel={MARK_STOP}, HighlightAll=true"
FACET_AUTHOR_LIMIT = 15
# Facet counts are exact up to this many matches, estimated from a sample beyond it.
EXACT_BOUND = 5000
SAMPLE_EVERY = 16  # must match the partial index paper_sample (migration 0005)
FACET_COUNTRY_LIMIT = 25
FACET_TOPIC_LIMIT = 40
SIMILAR_TERMS = 15
SIMILAR_CAP = 1500
SIMILAR_SHOWN_TERMS = 40  # lexemes looked for in each result to show the shared terms
SIMILAR_TOPIC_BOOST = 0.05  # per shared topic, on the fitted (embedding) path
SIMILAR_SHOWN_MAX = 8  # shared terms shown per result, the most distinctive first


# websearch_to_tsquery's exclusion: a "-" opening a word.
_NEGATION = re.compile(r"(?:^|[\s(])-\w")


def web_query(text: str) -> SearchQuery:
    return SearchQuery(websearch_text(text), search_type="websearch", config=SEARCH_CONFIG)


def title_vector() -> SearchVector:
    """The title's own tsvector, exactly as the expression index paper_title_tsv spells it."""
    return SearchVector("title", config=SEARCH_CONFIG)


class Headline(Func):
    """ts_headline over a column whose mark sentinels were removed first."""

    output_field = models.TextField()

    def __init__(self, column: str, text: str, options: str):
        super().__init__(F(column))
        self.text = text
        self.options = options

    def as_sql(self, compiler, connection, **extra):
        column_sql, column_params = compiler.compile(self.source_expressions[0])
        sql = (
            f"ts_headline(%s::regconfig, translate({column_sql}, %s, ''), "
            "websearch_to_tsquery(%s::regconfig, %s), %s)"
        )
        params = [SEARCH_CONFIG, *column_params, MARK_START + MARK_STOP, SEARCH_CONFIG]
        return sql, [*params, self.text, self.options]


def display_order():
    """Title A–Z with untitled papers ordered by their abstract (which their derived title starts).

    The expression of the index paper_venue_order (migration 0005): keep them identical.
    """
    return Lower(Left(Coalesce(NullIf("title", Value("")), "abstract"), 200))


def _and(conditions) -> Q:
    combined = Q()
    for condition in conditions:
        combined &= condition
    return combined


def _count(condition: Q):
    return Count("pk", filter=condition) if condition else Count("pk")


@dataclass
class FacetOption:
    value: str
    label: str
    count: int
    active: bool = False


@dataclass
class Facets:
    total: int = 0
    venue: list[FacetOption] = field(default_factory=list)
    year: list[FacetOption] = field(default_factory=list)
    country: list[FacetOption] = field(default_factory=list)
    topic: list[FacetOption] = field(default_factory=list)
    author: list[FacetOption] = field(default_factory=list)
    estimated: bool = False  # counted on a 1-in-SAMPLE_EVERY sample (more than EXACT_BOUND)
    total_estimated: bool = False


class Estimate(int):
    """A count estimated from a sample: an int everywhere, printed as "about 71,000"."""

    def __str__(self):
        return f"about {int(self):,}"


def _estimate(count: int) -> Estimate:
    """A sampled count rounded to two significant figures (no false precision)."""
    if count <= 0:
        return Estimate(0)
    digits = len(str(int(count))) - 2
    return Estimate(round(count, -digits) if digits > 0 else count)


def _fold_facets(rows, active: dict[str, list[str]], exact: bool = False) -> Facets:
    """Facets from the rows of the facet statement (see ``PaperQuerySet.facets``)."""
    facets = Facets()
    venues, years, countries, topics, authors = {}, {}, {}, [], []
    total = 0
    for kind, key, label, year, country, n_all, n_venue, n_year, n_country in rows:
        if kind == "flags":
            facets.estimated = bool(n_all)
            exact_total = n_venue
        elif kind == "place":
            total += n_all or 0
            if n_venue:
                venues.setdefault(key, [label, year or 0, 0])[2] += n_venue
            if n_year and year:
                years[year] = years.get(year, 0) + n_year
            if n_country and country:
                countries[country] = countries.get(country, 0) + n_country
        elif kind == "topic":
            topics.append((key, label, n_all))
        elif kind == "author":
            authors.append((key, label, n_all))

    count = _estimate if facets.estimated else int

    def chosen(name, value):
        return str(value) in active.get(name, [])

    if facets.estimated and exact_total is not None and (exact_total <= EXACT_BOUND or exact):
        facets.total = int(exact_total)
    else:
        facets.total = count(total)
    facets.total_estimated = isinstance(facets.total, Estimate)
    facets.venue = [
        FacetOption(slug, label, count(n), chosen("venue", slug))
        for slug, (label, _year, n) in sorted(
            venues.items(), key=lambda item: (-item[1][1], item[1][0])
        )
    ]
    facets.year = [
        FacetOption(str(year), str(year), count(n), chosen("year", year))
        for year, n in sorted(years.items(), reverse=True)
    ]
    facets.country = [
        FacetOption(name, name, count(n), chosen("country", name))
        for name, n in sorted(countries.items(), key=lambda item: (-item[1], item[0]))
    ][:FACET_COUNTRY_LIMIT]
    facets.topic = [
        FacetOption(slug, name, count(n), chosen("topic", slug)) for slug, name, n in topics
    ]
    facets.author = [
        FacetOption(slug, name, count(n), chosen("author", slug)) for slug, name, n in authors
    ]
    return facets


class PaperQuerySet(models.QuerySet):
    def with_related(self):
        return self.select_related("venue").prefetch_related("topics")

    # --- full text -------------------------------------------------------------------------

    def matching(self, text: str):
        """Papers whose weighted vector matches the websearch query (no ranking)."""
        return self.filter(search_vector=web_query(text))

    def search(self, text: str):
        """Every match, annotated with ``score`` and best first (uncapped: for small sets and
        scripts; the pages use ``ranked_ids``, which bounds the work)."""
        rank = RawSQL(
            "ts_rank(%s::float4[], papers_paper.search_vector, "
            "websearch_to_tsquery(%s::regconfig, %s), 32) * %s + CASE WHEN "
            "to_tsvector(%s::regconfig, COALESCE(papers_paper.title, '')) "
            f"@@ websearch_to_tsquery(%s::regconfig, %s) THEN {TITLE_SCORE_SQL.format(table='papers_paper')} ELSE 0 END",
            [RANK_WEIGHTS, SEARCH_CONFIG, text, BODY_WEIGHT, SEARCH_CONFIG, SEARCH_CONFIG, text],
            output_field=models.FloatField(),
        )
        return self.matching(text).annotate(score=rank).order_by("-score", "pk")

    def ranked_ids(self, text: str, limit: int, offset: int = 0, cap: int = CANDIDATE_CAP):
        """[(id, score)] of one page of the best matches, ranked within a capped candidate set.

        ``self`` carries the non-text filters; see the module docstring for the design.
        """
        query = web_query(text)
        base = self.order_by()
        titled = base.annotate(title_vector=title_vector()).filter(title_vector=query)
        if _NEGATION.search(text):
            # A title can match "a -b" while the abstract has b: only then is the title
            # index not enough (a title match is otherwise a match of the whole vector).
            titled = titled.filter(search_vector=query)
        by_title = titled.values("id")[:cap]
        by_vector = base.filter(search_vector=query).values("id")[:cap]
        title_sql, title_params = by_title.query.sql_with_params()
        vector_sql, vector_params = by_vector.query.sql_with_params()
        sql = f"""
            WITH titles AS MATERIALIZED ({title_sql})
            SELECT p.id,
                   ts_rank(%s::float4[], p.search_vector, websearch_to_tsquery(%s::regconfig, %s), 32) * %s
                   + c.in_title * {TITLE_SCORE_SQL.format(table="p")} AS score
            FROM (
                SELECT id, max(in_title) AS in_title FROM (
                    SELECT t.id, 1 AS in_title FROM titles AS t
                    UNION ALL
                    SELECT v.id, 0 AS in_title FROM ({vector_sql}) AS v(id)
                    WHERE (SELECT count(*) FROM titles) < %s
                ) AS both_sets GROUP BY id
            ) AS c
            JOIN papers_paper p ON p.id = c.id
            ORDER BY score DESC, p.id
            LIMIT %s OFFSET %s
        """
        params = [
            *title_params,
            RANK_WEIGHTS,
            SEARCH_CONFIG,
            text,
            BODY_WEIGHT,
            *vector_params,
            offset + limit,
            limit,
            offset,
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [(row[0], float(row[1])) for row in cursor.fetchall()]

    def newest_ids(self, limit: int, offset: int = 0, text: str = "") -> list[int]:
        """One page of ids in the default order (newest venue first, then title), any depth.

        ``self`` carries the filters. Rather than sorting every paper to skip ``offset`` of
        them, one statement counts the papers per venue (narrow index), finds the venues the
        page falls in from the running totals in venue order, and reads each of those venues'
        papers from the index paper_venue_order (venue, title key, id), skipping into it.
        """
        base = (self.matching(text) if text else self).order_by()
        counts_sql, counts_params = base.values("venue_id").query.sql_with_params()
        inner = (
            base.filter(venue_id=RawSQL("w.venue_id", []))
            .order_by(display_order(), "pk")
            .values("id")
        )
        inner_sql, inner_params = inner.query.sql_with_params()
        sql = f"""
        WITH counts AS (
            SELECT c.venue_id, count(*) AS n FROM ({counts_sql}) AS c GROUP BY c.venue_id
        ),
        ordered AS (
            SELECT c.venue_id, c.n,
                   sum(c.n) OVER (ORDER BY v.year DESC NULLS LAST, v.name, v.id
                                  ROWS UNBOUNDED PRECEDING) - c.n AS start
            FROM counts c JOIN papers_venue v ON v.id = c.venue_id
        ),
        w AS MATERIALIZED (
            SELECT venue_id, start FROM ordered
            WHERE start < %(end)s AND start + n > %(offset)s
        )
        SELECT page.id FROM w CROSS JOIN LATERAL (
            SELECT x.id, row_number() OVER () AS rn FROM (
                {inner_sql} OFFSET GREATEST(%(offset)s - w.start, 0) LIMIT %(limit)s
            ) AS x
        ) AS page
        ORDER BY w.start, page.rn
        LIMIT %(limit)s
        """
        sql = sql.replace("%(end)s", "%s").replace("%(offset)s", "%s").replace("%(limit)s", "%s")
        ordered_params = [
            *counts_params,
            offset + limit,
            offset,
            *inner_params,
            offset,
            limit,
            limit,
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, ordered_params)
            return [row[0] for row in cursor.fetchall()]

    def cards(self, ids, text: str = ""):
        """The papers with these ids, in this order, ready for result cards (2 queries).

        With a query, ``title_html`` and ``snippet`` come from ts_headline, computed only here,
        i.e. only for the papers of the page shown.
        """
        qs = self.filter(pk__in=list(ids)).select_related("venue").prefetch_related("topics")
        if text:
            qs = qs.annotate(
                headline=Headline("abstract", text, HEADLINE_OPTIONS),
                title_headline=Headline("title", text, TITLE_HEADLINE_OPTIONS),
            )
        found = {paper.pk: paper for paper in qs.order_by()}
        return [found[pk] for pk in ids if pk in found]

    # --- facets ---------------------------------------------------------------------------

    def facets(
        self, conditions: dict[str, Q], active: dict[str, list[str]], text: str = ""
    ) -> Facets:
        """Counts per venue, year, country, topic and author, each under the other conditions.

        ``self`` is the collection under any fixed conditions (a venue, topic or author page);
        ``text`` the query; ``conditions`` the user's filters by facet name; ``active`` the
        selected values. One SQL statement, whatever the size of the collection:

        * up to EXACT_BOUND papers match ``text`` (and the fixed conditions): every count is
          exact, computed over those papers only (a LIMITed probe, no sort);
        * more: the counts are estimated from the matches among one paper in SAMPLE_EVERY
          (the partial index paper_sample; for a text query the function
          papers_text_sample AND-s its bitmap with the search index's), scaled up, and
          marked as estimates (``Facets.estimated``; the numbers are ``Estimate`` ints that
          print as "about N"). The total stays exact when the fully filtered set is itself
          within the bound (a second LIMITed probe). Facet lists are LIMITed.
        """
        base = (self.matching(text) if text else self).order_by()
        names = list(conditions)
        flags = {
            f"c_{name}": ExpressionWrapper(condition, output_field=models.BooleanField())
            for name, condition in conditions.items()
        }
        columns = ["id", "venue_id", "country", *flags]
        probe = base.annotate(**flags).values(*columns)[: EXACT_BOUND + 1]
        if text:
            # The first matches through the search index's bitmap (the planner would rather
            # scan the table, detoasting every vector it passes), then the rows by id.
            probe_ids = RawSQL(
                "SELECT s.id FROM papers_text_probe(websearch_to_tsquery(%s::regconfig, %s), %s) s",
                [SEARCH_CONFIG, text, EXACT_BOUND + 1],
            )
            probe = self.order_by().filter(pk__in=probe_ids).annotate(**flags).values(*columns)
            sample_ids = RawSQL(
                "SELECT s.id FROM papers_text_sample(websearch_to_tsquery(%s::regconfig, %s)) s",
                [SEARCH_CONFIG, text],
            )
            sample = self.order_by().filter(pk__in=sample_ids)
        else:
            sample = base.alias(bucket=F("id") % SAMPLE_EVERY).filter(bucket=0)
        sample = sample.annotate(**flags).values(*columns)
        probe_sql, probe_params = probe.query.sql_with_params()
        sample_sql, sample_params = sample.query.sql_with_params()
        params = [*probe_params, *sample_params]

        def others(name):
            terms = [f"c.c_{other}" for other in names if other != name]
            return " AND ".join(terms) if terms else "TRUE"

        filtered_sql = "SELECT NULL::bigint AS n"
        if names or not text:
            # Without a query the filtered count is cheap (narrow indexes): exact, uncapped.
            narrowed = base.filter(*conditions.values()).values("id")
            if text:
                narrowed = narrowed[: EXACT_BOUND + 1]
            narrowed_sql, narrowed_params = narrowed.query.sql_with_params()
            filtered_sql = (
                f"SELECT count(*) AS n FROM ({narrowed_sql}) AS f WHERE (SELECT yes FROM big)"
            )
            params += narrowed_params
        sql = f"""
        WITH probe AS MATERIALIZED ({probe_sql}),
        big AS (SELECT count(*) > {EXACT_BOUND} AS yes FROM probe),
        chosen AS MATERIALIZED (
            SELECT probe.*, 1 AS w FROM probe WHERE NOT (SELECT yes FROM big)
            UNION ALL
            SELECT s.*, {SAMPLE_EVERY} AS w FROM ({sample_sql}) AS s WHERE (SELECT yes FROM big)
        ),
        filtered AS ({filtered_sql}),
        flagged AS (
            SELECT c.id, c.venue_id, c.country, c.w,
                   {others(None)} AS f_all, {others("venue")} AS f_venue,
                   {others("year")} AS f_year, {others("country")} AS f_country,
                   {others("topic")} AS f_topic, {others("author")} AS f_author
            FROM chosen c
        ),
        places AS (
            SELECT venue_id, country,
                   sum(w) FILTER (WHERE f_all) AS n_all,
                   sum(w) FILTER (WHERE f_venue) AS n_venue,
                   sum(w) FILTER (WHERE f_year) AS n_year,
                   sum(w) FILTER (WHERE f_country) AS n_country
            FROM flagged GROUP BY venue_id, country
        ),
        topics AS (
            SELECT t.slug, t.name, n FROM (
                SELECT pt.topic_id, sum(f.w) AS n FROM flagged f
                JOIN papers_papertopic pt ON pt.paper_id = f.id
                WHERE f.f_topic GROUP BY pt.topic_id
            ) AS counted JOIN papers_topic t ON t.id = counted.topic_id
            ORDER BY n DESC, t.name LIMIT {FACET_TOPIC_LIMIT}
        ),
        authors AS (
            SELECT a.slug, a.name, n FROM (
                SELECT au.author_id, sum(f.w) AS n FROM flagged f
                CROSS JOIN LATERAL unnest(ARRAY(
                    SELECT x.author_id FROM papers_authorship x WHERE x.paper_id = f.id
                )) AS au(author_id)
                WHERE f.f_author GROUP BY au.author_id
                ORDER BY n DESC LIMIT {FACET_AUTHOR_LIMIT * 4}
            ) AS counted JOIN papers_author a ON a.id = counted.author_id
            ORDER BY n DESC, a.name LIMIT {FACET_AUTHOR_LIMIT}
        )
        SELECT 'flags', NULL, NULL, NULL, NULL,
               (SELECT yes FROM big)::int, (SELECT n FROM filtered), NULL, NULL
        UNION ALL
        SELECT 'place', v.slug, v.name, v.year, p.country, p.n_all, p.n_venue, p.n_year, p.n_country
        FROM places p JOIN papers_venue v ON v.id = p.venue_id
        UNION ALL
        SELECT 'topic', slug, name, NULL, NULL, n, NULL, NULL, NULL FROM topics
        UNION ALL
        SELECT 'author', slug, name, NULL, NULL, n, NULL, NULL, NULL FROM authors
        """
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        return _fold_facets(rows, active, exact=not text)

    # --- no results -------------------------------------------------------------------------

    def closest_titles(self, text: str, limit: int = 5):
        """Titles nearest the words typed, by trigram word similarity (pg_trgm GIN index)."""
        from django.contrib.postgres.search import TrigramWordSimilarity

        return list(
            self.filter(title__trigram_word_similar=text)
            .annotate(similarity=TrigramWordSimilarity(text, "title"))
            .select_related("venue")
            .order_by("-similarity", "pk")[:limit]
        )

    # --- similar papers ---------------------------------------------------------------------

    def similar_to(self, paper, limit: int = 20, among=None):
        """The papers most like ``paper``: a list of Paper with ``score`` and ``shared_terms``.

        With fitted embeddings (papers/similarity.py, refreshed after each load), the
        candidates are the paper's stored nearest neighbours (smoothed LSA, at most
        similarity.NEIGHBOURS), scored by their cosine plus SIMILAR_TOPIC_BOOST per shared
        topic. ``among`` (a queryset or ids, bounded by the caller, e.g. bench/quality.py)
        ranks exactly those papers instead, by the cosine of their stored embeddings computed
        in SQL. A paper without embeddings (none fitted yet, numpy missing, added since the
        last refresh) falls back to the full-text "more like this" below, which is also the
        path on any PostgreSQL; shared terms are found the same way on both paths.

        One SQL statement picks the paper's SIMILAR_TERMS most distinctive lexemes
        (1 + ln of their weighted frequency in the paper, title ×3 and names ×2, times
        ln(N / document frequency) from the Lexeme table; lexemes in over a fifth of the
        collection are not distinctive and are skipped). Candidates come from two LIMITed GIN
        scans: papers sharing at least two of those lexemes (an OR of AND-ed pairs) up to
        SIMILAR_CAP, and papers sharing any one, up to a tenth of that, so the cost is bounded
        at any collection size. Each candidate is scored by the share of the paper's term
        weight it contains (an idf-weighted overlap in [0, 1], each term tested by a binary
        search of the candidate's vector, no ranking function over positions), plus 0.15 per
        shared topic and 0.05 for the same venue; never the paper itself. Shared terms are
        spelled as the paper writes them. A second query fetches the papers shown.
        """
        pk = paper.pk if hasattr(paper, "pk") else int(paper)
        sql = """
        WITH src AS (
            SELECT id, venue_id, search_vector,
                   concat_ws(' ', title, abstract, topic_names, author_names) AS text
            FROM papers_paper WHERE id = %(pk)s
        ),
        stats AS (
            SELECT CASE WHEN c.reltuples >= 1 THEN c.reltuples
                        ELSE (SELECT count(*) FROM papers_paper) END::float8 AS n
            FROM pg_class c WHERE c.oid = 'papers_paper'::regclass
        ),
        pool AS (
            SELECT t.lexeme,
                   ('''' || replace(t.lexeme, '''', '''''') || '''')::tsquery AS single,
                   (1 + ln((SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END)
                            FROM unnest(t.weights) AS w)))
                   * ln((stats.n + 1) / (l.documents + 0.5)) AS weight
            FROM src
            CROSS JOIN LATERAL unnest(src.search_vector) AS t(lexeme, positions, weights)
            JOIN papers_lexeme l ON l.word = t.lexeme
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
            SELECT string_agg(quote_literal_tsq, ' | ')::tsquery AS any_term,
                   sum(weight) AS total
            FROM (SELECT '''' || replace(lexeme, '''', '''''') || '''' AS quote_literal_tsq, weight
                  FROM terms) AS quoted
        ),
        pairs AS (
            SELECT string_agg('(''' || replace(a.lexeme, '''', '''''') || ''' & '''
                              || replace(b.lexeme, '''', '''''') || ''')', ' | ')::tsquery AS two
            FROM terms a JOIN terms b ON a.lexeme < b.lexeme
        ),
        fitted AS MATERIALIZED ({fitted}),
        cand AS (
            SELECT id, base FROM fitted
            UNION ALL
            SELECT id, NULL::float8 FROM (
                (SELECT p.id FROM papers_paper p, pairs
                 WHERE p.search_vector @@ pairs.two AND p.id <> %(pk)s LIMIT %(cap)s)
                UNION
                (SELECT p.id FROM papers_paper p, q
                 WHERE p.search_vector @@ q.any_term AND p.id <> %(pk)s LIMIT %(small_cap)s)
            ) AS text_cand
            WHERE NOT EXISTS (SELECT 1 FROM fitted)
        ),
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
        ),
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
            JOIN papers_paper p ON p.id = cand.id
            CROSS JOIN q CROSS JOIN src
            CROSS JOIN LATERAL (
                SELECT count(*) AS n FROM papers_papertopic a
                JOIN papers_papertopic b ON a.topic_id = b.topic_id
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
        top AS (
            SELECT id, score, lexemes FROM scored ORDER BY score DESC, id LIMIT %(limit)s
        )
        SELECT top.id, top.score,
               ARRAY(SELECT COALESCE(s.word, w.lexeme)
                     FROM unnest(top.lexemes) WITH ORDINALITY AS w(lexeme, ord)
                     LEFT JOIN surface s ON s.stem = w.lexeme
                     ORDER BY w.ord) AS words
        FROM top ORDER BY top.score DESC, top.id
        """
        if among is None:
            fitted = _FITTED_NEIGHBOURS_SQL
        else:
            fitted = _FITTED_AMONG_SQL
            if hasattr(among, "values_list"):
                among = among.values_list("pk", flat=True)
            among = [int(value) for value in among]
        sql = sql.replace("{fitted}", fitted)
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
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        papers = self.model.objects.select_related("venue").in_bulk([row[0] for row in rows])
        result = []
        for row_pk, score, words in rows:
            similar = papers.get(row_pk)
            if similar is None:
                continue
            similar.score = round(float(score), 4)
            similar.shared_terms = list(dict.fromkeys(words or []))[:SIMILAR_SHOWN_MAX]
            result.append(similar)
        return result


# The paper's stored nearest neighbours (papers/similarity.py), best first; none when the
# paper has no row (the text path then runs).
_FITTED_NEIGHBOURS_SQL = """
            SELECT n.id, n.cosine::float8 AS base
            FROM papers_similarity s
            CROSS JOIN LATERAL unnest(s.neighbours, s.scores) AS n(id, cosine)
            WHERE s.paper_id = %(pk)s
"""

# Exactly the papers given, by the cosine of their stored embeddings with the paper's.
_FITTED_AMONG_SQL = """
            SELECT c.paper_id AS id,
                   (SELECT sum(x * y)::float8 FROM unnest(c.embedding, s.embedding) AS v(x, y))
                   AS base
            FROM papers_similarity s
            JOIN papers_similarity c ON c.paper_id = ANY(%(among)s::int[])
            WHERE s.paper_id = %(pk)s AND c.paper_id <> %(pk)s
"""

_SPELLING_CANDIDATES_SQL = """
SELECT t.word, s.stem, l.word, l.documents
FROM unnest(%s::text[]) AS t(word)
CROSS JOIN LATERAL (SELECT (ts_lexize('english_stem', t.word))[1] AS stem) AS s
CROSS JOIN LATERAL (
    SELECT l.word, l.documents FROM papers_lexeme l
    WHERE s.stem IS NOT NULL AND l.word %% s.stem AND l.word ~ '^[a-z]+$'
      AND NOT EXISTS (SELECT 1 FROM papers_lexeme k WHERE k.word = s.stem)
    ORDER BY similarity(l.word, s.stem) DESC, l.documents DESC, l.word
    LIMIT 20
) AS l
"""

_SURFACE_FORMS_SQL = """
SELECT DISTINCT c.lexeme, m[1]
FROM unnest(%s::text[]) AS c(lexeme)
CROSS JOIN LATERAL (
    SELECT lower(p.title || ' ' || p.abstract) AS text FROM papers_paper p
    WHERE p.search_vector @@ plainto_tsquery('simple', c.lexeme)
    LIMIT 3
) AS found
CROSS JOIN LATERAL regexp_matches(
    found.text, '\\m(' || left(c.lexeme, GREATEST(3, length(c.lexeme) - 1)) || '[a-z]*)', 'g'
) AS m
"""


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, transpositions."""
    previous2, previous = None, list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def did_you_mean(text: str) -> str | None:
    """The query respelled from the collection's own vocabulary, or None (at most two queries).

    Each alphabetic word whose stem the collection lacks gets the Lexeme words near its stem
    by trigram similarity (pg_trgm GIN index on Lexeme.word); the closest by edit distance
    (ties: the commoner) wins and is written as the collection writes it.
    """
    import re

    words = []
    for word in re.findall(r"[A-Za-z]{3,}", text):
        lowered = word.lower()
        if lowered not in {"and", "or", "not"} and lowered not in words:
            words.append(lowered)
    words = words[:8]
    if not words:
        return None
    best: dict[str, tuple] = {}
    with connection.cursor() as cursor:
        cursor.execute(_SPELLING_CANDIDATES_SQL, [words])
        for typed, stem, lexeme, documents in cursor.fetchall():
            key = (edit_distance(stem, lexeme), -documents, lexeme)
            if key[0] <= max(2, len(stem) // 3) and (typed not in best or key < best[typed]):
                best[typed] = key
        if not best:
            return None
        cursor.execute(_SURFACE_FORMS_SQL, [sorted({key[2] for key in best.values()})])
        forms: dict[str, list[str]] = {}
        for lexeme, form in cursor.fetchall():
            forms.setdefault(lexeme, []).append(form)
    replacements = {}
    for typed, key in best.items():
        spelled = sorted(forms.get(key[2], []), key=lambda form: (edit_distance(typed, form), form))
        if spelled and spelled[0] != typed:
            replacements[typed] = spelled[0]
    if not replacements:
        return None

    def swap(match):
        typed = match.group(0)
        better = replacements.get(typed.lower())
        if better is None:
            return typed
        if typed.isupper() and len(typed) > 1:
            return better.upper()
        return better.capitalize() if typed[0].isupper() else better

    return re.sub(r"[A-Za-z]{3,}", swap, text)
