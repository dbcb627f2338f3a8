"""Queries over papers: full-text matches, ranking, list orders, cards and counts.

Ranked search (``ranked_ids``) never ranks every match. A common query such as "language
models" matches most of a large NLP collection, and ranking tens of thousands of rows (each
stored vector detoasted, then sorted) costs far more than a page's budget. Instead the ranking
runs over a bounded candidate set under the page's filters: papers whose *title* matches and
papers whose weighted vector matches, at most ``CANDIDATE_CAP`` each. The pages choose them in
memory (papers/word_memory.py: the titles with the fewest other words first); otherwise they
are two LIMITed index scans (the index paper_title_tsv on the stored ``Paper.title_vector``,
the GIN index paper_search_vector), which do not sort. The union is ranked
by the score of papers/relevance.py (its one definition) in two stages: every candidate on its
title and size, then the best of them on their abstracts too; no stored vector is read. When a
query matches no more than the cap, which is every specific query, the candidates are all its
matches; beyond it, relevance pages stop at the cap and the page says so. When title matches
alone fill the page, the abstract candidates are not read at all.

The default order reads each venue's papers from the index paper_venue_order (``newest_ids``),
at any depth. Facets are counted by papers/facets.py (papers/search.py calls it), similar
papers by papers/similar.py.
"""

import re
from typing import NamedTuple

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.search import SearchQuery
from django.db import connections, models
from django.db.models import Count, F, OuterRef, Prefetch
from django.db.models.expressions import RawSQL
from django.db.models.functions import JSONObject, Lower

from .compound_marks import headline_query, typed_compounds, whole_compound_marks
from .compounds import websearch_text
from .expressions import (
    SEARCH_CONFIG,
    title_vector_sql,
    venue_order,
)
from .headlines import (
    HEADLINE_OPTIONS,
    TITLE_HEADLINE_OPTIONS,
    Headline,
    elided,
    phrase_marks,
)
from .links import page_url
from .matching import QUERY_SQL, TESTS, matching_within, rows_matching, unless_phrase
from .newest_order import newest_page_statement
from .relevance import Piece, ranked_statement, relevance, size_sql
from .similar import explanation, similar_rows
from .tables import sql

# Each candidate is scored on its title (papers/relevance.py): the work of a common query's
# page. 500 instead of 2,000: known-item MRR@10 on the tuning set unchanged (0.901 titles,
# 0.627 abstracts, against 0.901 and 0.628), a quarter of the scoring.
CANDIDATE_CAP = 500
# Candidates chosen in memory (papers/word_memory.py), as the ids' rows: the query's matches, or
# a superset of them (a phrase's words) in the order wanted, of which the first ``cap`` that
# pass the test (TESTED_IDS_SQL's {test}, on a paper ``p``) are kept.
CHOSEN_IDS_SQL = "SELECT unnest(%s::bigint[]) AS id"
TESTED_IDS_SQL = """SELECT c.id FROM unnest(%s::bigint[]) WITH ORDINALITY AS c(id, n)
CROSS JOIN LATERAL (
    SELECT p.title_vector, p.search_vector FROM {paper} AS p WHERE p.id = c.id OFFSET 0
) AS p
WHERE {test} ORDER BY c.n LIMIT {cap}"""
WEB_QUERY_SQL = "websearch_to_tsquery(%(config)s::regconfig, %(text)s)"
# websearch_to_tsquery's exclusion: a "-" opening a word.
NEGATION = re.compile(r"(?:^|[\s(])-\w")
# Authors named on a result card; "et al." stands for the rest.
CARD_AUTHORS = 3
# What a result card shows, and the API's rows made of cards, and nothing else: a paper has
# some thirty columns (its vectors, as text, longer than its abstract), and building each of
# them into 25 papers and their venues cost more than the cards' query.
CARD_FIELDS = (
    *("title", "abstract", "venue", "country", "external_id", "complete"),
    *("venue__name", "venue__slug", "venue__year", "venue__month", "venue__start_date"),
)


def web_query(text: str) -> SearchQuery:
    return SearchQuery(websearch_text(text), search_type="websearch", config=SEARCH_CONFIG)


def _chosen(text: str, cap: int, title_ids, ids, titles_exact: bool):
    """((SQL, params) of the title candidates, of the candidates) chosen in memory: the ids as
    they are, but title candidates that are a superset, of which the first ``cap`` that
    match the query are kept (the title's vector, and the whole vector where the query
    excludes a word)."""
    if titles_exact:
        return (CHOSEN_IDS_SQL, [title_ids]), (CHOSEN_IDS_SQL, [ids])
    query = [SEARCH_CONFIG, websearch_text(text)]
    tests = [TESTS["title"], TESTS["vector"]] if NEGATION.search(text) else [TESTS["title"]]
    title_sql = sql(TESTED_IDS_SQL, test=" AND ".join(tests), cap=int(cap))
    return (title_sql, [title_ids, *query * len(tests)]), (CHOSEN_IDS_SQL, [ids])


class CardTopic(NamedTuple):
    """A topic as a result card and the API's rows show it."""

    name: str
    slug: str

    def get_absolute_url(self) -> str:
        return page_url("topic-detail", self.slug)


class PaperQuerySet(models.QuerySet):
    def with_related(self):
        """Venue, topics and ordered authors, for a paper's page, record or export line."""
        from .models import Authorship

        return self.select_related("venue").prefetch_related(
            "topics", Prefetch("authorships", Authorship.objects.select_related("author"))
        )

    # --- full text -------------------------------------------------------------------------

    def matching(self, text: str):
        """Papers whose weighted vector matches the websearch query (no ranking)."""
        return self.filter(search_vector=web_query(text))

    def with_relevance(self, text: str):
        """The papers annotated with ``score``, their relevance (RELEVANCE_SQL) to ``text``."""
        table = self.model._meta.db_table
        title = title_vector_sql(table)
        in_title = f"({title} @@ {WEB_QUERY_SQL})::int"
        score = RawSQL(*relevance(table, text, in_title), output_field=models.FloatField())
        return self.annotate(score=score)

    def search(self, text: str):
        """Every match, best first: uncapped, for small sets, exports and scripts; the pages
        use ``ranked_ids``, which bounds the work. Papers scored alike come newest venue
        first, as on the pages."""
        return (
            self.matching(text)
            .with_relevance(text)
            .order_by("-score", F("venue__held_on").desc(nulls_last=True), "pk")
        )

    def ranked_ids(
        self,
        text: str,
        limit: int,
        offset: int = 0,
        cap: int = CANDIDATE_CAP,
        words=None,
        narrow=None,
        candidates=None,
        authored=(),
    ):
        """[(id, score)] of one page of the best matches, ranked within a capped candidate set.

        ``self`` carries the non-text filters; see the module docstring for the design.
        ``words``: the text whose words the score counts as typed, when not ``text``.
        ``narrow``: the same filters as conditions on the papers' narrow rows (where, params:
        papers/facet_rows.py row_conditions), where a query without a phrase finds its
        candidates through the filters' indexes and the vectors' together.
        ``candidates``: the ids of the title matches and of the matches to rank, already
        chosen under the filters, and whether the title matches are exact or a superset to
        test (papers/word_memory.py MatchedQuery.candidates).
        ``authored``: the ids of the matches by the authors the query names, ranked first.
        """
        if candidates is None:
            filtered, filtered_params, title_sql, title_params, vector_sql, vector_params = (
                self._match_sets(text, cap, narrow)
            )
        else:
            filtered, filtered_params = "", []
            (title_sql, title_params), (vector_sql, vector_params) = _chosen(text, cap, *candidates)
        statement, params = ranked_statement(
            text,
            self._candidate_rows(title_sql, title_params),
            self._candidate_rows(vector_sql, vector_params),
            limit,
            offset,
            cap,
            prefix=Piece(filtered, filtered_params),
            words=words,
            authored=(self._candidate_rows(CHOSEN_IDS_SQL, [list(authored)]), list(authored)),
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(statement, params)
            return [(row[0], float(row[1])) for row in cursor.fetchall()]

    def _candidate_rows(self, ids_sql: str, params: list) -> Piece:
        """The rows the ranking reads of each candidate (id, title, size, venue_id), one
        probe per id (OFFSET 0: never a join that reads every paper)."""
        table = self.model._meta.db_table
        return Piece(
            f"SELECT p.id, p.title, {size_sql('p')} AS size, p.venue_id "
            f"FROM ({ids_sql}) AS m CROSS JOIN LATERAL "
            f"(SELECT * FROM {table} AS p WHERE p.id = m.id OFFSET 0) AS p",
            list(params),
        )

    def _match_sets(self, text: str, cap: int, narrow=None):
        """(CTE of the filtered ids or "", its params, SQL of up to ``cap`` title matches, its
        params, SQL of up to ``cap`` matches of the whole vector, its params).

        Unfiltered, both are LIMITed scans of their GIN indexes; filtered, each is read from
        the smaller side, the filters' papers or the query's matches (papers/matching.py),
        but for a query without a phrase under ``narrow`` conditions (``ranked_ids``): then
        from the narrow rows, the filters' indexes and the vectors' combined.
        """
        query = web_query(text)
        base = self.order_by()
        negated = NEGATION.search(text)
        if not self.query.where:
            titled = base.filter(title_vector=query)
            if negated:
                # A title can match "a -b" while the abstract has b: only then is the title
                # index not enough (a title match is otherwise a match of the whole vector).
                titled = titled.filter(search_vector=query)
            title_sql, title_params = titled.values("id")[:cap].query.sql_with_params()
            vector = base.filter(search_vector=query).values("id")[:cap]
            return "", [], title_sql, list(title_params), *vector.query.sql_with_params()
        ids_sql, ids_params = base.values("id").query.sql_with_params()
        title_sql, title_params = matching_within("filtered", text, "title")
        vector_sql, vector_params = matching_within("filtered", text)
        if negated:
            title_sql = f"SELECT id FROM ({title_sql}) AS t WHERE id IN ({vector_sql})"
            title_params = [*title_params, *vector_params]
        title_sql = f"SELECT id FROM ({title_sql}) AS t LIMIT {int(cap)}"
        vector_sql = f"SELECT id FROM ({vector_sql}) AS v LIMIT {int(cap)}"
        if narrow is not None:
            tests = ("title", "vector") if negated else ("title",)
            title_sql, title_params = unless_phrase(
                rows_matching(*narrow, text, tests), (title_sql, title_params), text, cap
            )
            vector_sql, vector_params = unless_phrase(
                rows_matching(*narrow, text), (vector_sql, vector_params), text, cap
            )
        return (
            f"filtered AS MATERIALIZED ({ids_sql}),",
            list(ids_params),
            sql(title_sql),
            title_params,
            sql(vector_sql),
            vector_params,
        )

    def newest_ids(self, limit: int, offset: int = 0, text: str = "", kept=None) -> list[int]:
        """One page of ids in the default order (``in_order("newest")``), at any depth, of
        these papers matching ``text`` if any; ``kept``: the filters' kept counts
        (papers/facets.py ``kept_venue_counts``). One statement: papers/newest_order.py."""
        statement, params = newest_page_statement(self, limit, offset, text, kept)
        with connections[self.db].cursor() as cursor:
            cursor.execute(statement, params)
            return [row[0] for row in cursor.fetchall()]

    def in_order(self, sort: str):
        """The queryset in a list order: "title" (A–Z), "newest" (newest venue first by date,
        a volume's papers in proceedings order), or "relevance" (left as it is: ranked by
        ``search``). Both browse orders put complete records (title and authors) first."""
        if sort == "title":
            return self.order_by(F("complete").desc(), "display_key", "pk")
        if sort == "relevance":
            return self
        return self.order_by(
            F("complete").desc(), *venue_order("venue__"), "number", "display_key", "pk"
        )

    def with_first_authors(self):
        """Each paper's first CARD_AUTHORS + 1 authors as ``first_authors`` ({name, slug}, in
        order), in the papers' own query: a card links the first few and knows if more follow."""
        from .models import Authorship

        authorships = Authorship.objects.filter(paper=OuterRef("pk")).order_by("position")
        names = authorships.values(json=JSONObject(name="author__name", slug="author__slug"))
        return self.annotate(first_authors=ArraySubquery(names[: CARD_AUTHORS + 1]))

    def with_topic_rows(self):
        """Each paper's topics as ``topic_rows`` ({name, slug}, by name), in the papers' own
        query: a prefetch was one more query a page, and a model built for each topic."""
        from .models import PaperTopic

        links = PaperTopic.objects.filter(paper=OuterRef("pk")).order_by("topic__name")
        topics = links.values(json=JSONObject(name="topic__name", slug="topic__slug"))
        return self.annotate(topic_rows=ArraySubquery(topics))

    def cards(self, ids, text: str = "", typed: str = ""):
        """The papers with these ids, in this order, ready for result cards (one query): their
        venue, ``card_topics`` (CardTopic, by name) and ``first_authors``.

        With a query, ``title_headline`` and ``headline`` come from ts_headline, computed only
        here, i.e. only for the papers of the page shown; a phrase's words are marked only where
        the whole phrase stands (papers/headlines.py ``phrase_marks``), and the compounds the
        query ``typed`` are marked whole, their parts nowhere else (papers/compound_marks.py).
        """
        qs = (
            self.filter(pk__in=list(ids))
            .select_related("venue")
            .only(*CARD_FIELDS)
            .with_first_authors()
            .with_topic_rows()
        )
        compounds = typed_compounds(typed, text) if text else frozenset()
        if text:
            marked = headline_query(text, compounds)
            qs = qs.annotate(
                headline=Headline("abstract", marked, HEADLINE_OPTIONS),
                title_headline=Headline("title", marked, TITLE_HEADLINE_OPTIONS),
                tsquery=RawSQL(f"{QUERY_SQL}::text", [SEARCH_CONFIG, marked]),
            )
        found = {paper.pk: paper for paper in qs.order_by()}
        for paper in found.values():
            paper.card_topics = [CardTopic(**topic) for topic in paper.topic_rows]
            if text:
                headline = phrase_marks(elided(paper.headline, paper.abstract), paper.tsquery)
                paper.headline = whole_compound_marks(headline, compounds)
                title_headline = phrase_marks(paper.title_headline, paper.tsquery)
                paper.title_headline = whole_compound_marks(title_headline, compounds)
        return [found[pk] for pk in ids if pk in found]

    # --- one paper's neighbourhood ----------------------------------------------------------

    def similar_to(self, paper, limit: int = 20, among=None):
        """The papers most like ``paper`` (a Paper or an id), best first, each with ``score``,
        ``shared_terms`` (the words) and ``explanation`` (the signals of the score with their
        weights, papers/similar.py); ``among`` ranks exactly those papers. Each paper is read as
        a result card is (``cards``: its card's columns, first authors and topics, in the same
        query): the search vectors of twenty papers were a third of the time of loading them."""
        pk = paper.pk if hasattr(paper, "pk") else int(paper)
        if among is not None:
            if hasattr(among, "values_list"):
                among = among.values_list("pk", flat=True)
            among = [int(value) for value in among]
        rows = similar_rows(pk, limit, among)
        papers = {paper.pk: paper for paper in self.model.objects.cards([row.id for row in rows])}
        result = []
        for row in rows:
            if row.id in papers:
                similar = papers[row.id]
                similar.score = row.score
                similar.shared_terms = [term for term, _ in row.terms]
                similar.explanation = explanation(row)
                result.append(similar)
        return result

    def ids_by_title(self, titles: list[str]) -> dict[str, int]:
        """{lowercased title: id} of the papers whose title is one of these (any case)."""
        lowered = [title.lower() for title in titles]
        rows = self.annotate(lowered=Lower("title")).filter(lowered__in=lowered)
        return {row["lowered"]: row["pk"] for row in rows.values("pk", "lowered")}

    def topic_counts(self):
        """[{topic__slug, topic__name, n}] of these papers' topics, commonest first: every
        one (a vocabulary's worth, which a venue's chart folds behind "more"; cut at 30, ACL
        2024's chart left 16 of its 46 topics out)."""
        from .models import PaperTopic

        return (
            PaperTopic.objects.filter(paper__in=self.order_by().values("pk"))
            .values("topic__slug", "topic__name")
            .annotate(n=Count("pk"))
            .order_by("-n", "topic__name")
        )

    def venue_counts(self):
        """[{venue__slug, venue__name, venue__year, n}] of these papers, newest venue first."""
        return (
            self.values("venue__slug", "venue__name", "venue__year")
            .annotate(n=Count("pk"))
            .order_by("-venue__year", "venue__name")
        )
