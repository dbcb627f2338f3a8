"""Exact facet counts: the kept counts follow every change, each facet equals the filtered total,
the plans are bounded by the smaller side, and cached pages follow the data version."""

import json
import shutil
import socket
import subprocess
import time
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers import curation, merging
from papers.caching import bump_after_migrations, data_version
from papers.counts import refresh_counts
from papers.facet_rows import row_conditions
from papers.facets import (
    _counts_statement,
    _matches_statement,
    count_facets,
    kept_venue_counts,
)
from papers.filtering import PaperFilterSet
from papers.models import (
    Author,
    Authorship,
    FacetCount,
    Paper,
    PaperFacets,
    PaperTopic,
    Topic,
    Venue,
)
from tests.factories import finish, make_author, make_paper, make_topic, make_venue
from tests.support import parse

pytestmark = pytest.mark.django_db


def kept_counts() -> set[tuple]:
    return set(FacetCount.objects.values_list("facet", "value", "by_facet", "by_value", "n"))


def recounted() -> set[tuple]:
    """The counts as a recount from nothing gives them."""
    FacetCount.objects.all().delete()
    PaperFacets.objects.all().delete()
    refresh_counts()
    return kept_counts()


def orm_count(**filters) -> int:
    return Paper.objects.filter(**filters).distinct().count()


def test_each_venue_count_is_the_total_its_filter_gives(corpus):
    home = count_facets({})
    assert home.total == Paper.objects.count() == 5
    assert {option.value: option.count for option in home.venue} == {
        "acl-2025": 3,
        "emnlp-2024": 2,
    }
    for option in home.venue:
        assert count_facets({"venue": [option.value]}).total == option.count
    for option in home.topic:
        assert count_facets({"topic": [option.value]}).total == option.count
        assert option.count == orm_count(topics__slug=option.value)
    assert [(o.value, o.count) for o in home.author] == [
        ("ada-lovelace", 3),
        ("alan-turing", 2),
        ("grace-hopper", 2),
    ]
    assert [(o.value, o.count) for o in home.year] == [("2025", 3), ("2024", 2)]
    assert [(o.value, o.count) for o in home.country][:1] == [("United Kingdom", 2)]


@pytest.mark.parametrize(
    "selected, fixed, text",
    [
        ({"venue": ["acl-2025"], "topic": ["attention"]}, {}, ""),
        ({"venue": ["acl-2025"], "topic": ["attention"]}, {}, "attention"),
        ({"topic": ["efficiency", "attention"]}, {}, ""),
        ({"year": ["2025"], "country": ["United Kingdom"]}, {}, "cache"),
        ({"author": ["ada-lovelace"]}, {}, ""),
        ({"country": ["China"]}, {"venue": ["acl-2025"]}, ""),
        ({}, {"topic": ["attention"]}, "attention"),
        ({"venue": ["acl-2025", "emnlp-2024"]}, {"author": ["grace-hopper"]}, ""),
        ({}, {}, "attention"),
        ({}, {}, '"machine translation"'),
        ({}, {}, "long-context"),
        ({}, {}, "translation -yoruba"),
        ({"venue": ["emnlp-2024"]}, {}, '"parallel corpus"'),
        ({"topic": ["attention"]}, {}, "attention or speech"),
        ({"year": ["2024"]}, {}, "attention"),
        ({"author": ["alan-turing"]}, {}, "cache"),
        ({"country": ["United Kingdom"]}, {}, "attention -speech"),
        ({"venue": ["acl-2025", "emnlp-2024"]}, {}, "model"),
        ({"author": ["grace-hopper"]}, {}, '"parallel corpus"'),
        ({"country": ["Atlantis"]}, {}, "cache"),
        ({}, {}, 'cache -eviction or "parallel corpus"'),
        ({}, {}, 'the or "machine translation" or speech'),
        ({"venue": ["emnlp-2024"]}, {}, 'kv or "parallel corpus"'),
        ({"venue": ["acl-2025"], "topic": ["attention"]}, {}, 'cache or "parallel corpus"'),
    ],
)
def test_each_facet_is_counted_under_the_other_filters(corpus, selected, fixed, text):
    """Every count equals the ORM's count of the papers a click would give."""
    facets = count_facets(selected, fixed, text)
    lookups = {
        "venue": "venue__slug__in",
        "topic": "topics__slug__in",
        "author": "authors__slug__in",
        "year": "venue__year__in",
        "country": "country__in",
    }

    def papers(leave_out=None):
        result = Paper.objects.matching(text) if text else Paper.objects.all()
        for name, values in {**fixed, **selected}.items():
            if name != leave_out or name in fixed:
                result = result.filter(**{lookups[name]: values})
        return result.distinct()

    assert facets.total == papers().count()
    for name, lookup in lookups.items():
        if name in fixed:
            continue
        for option in getattr(facets, name):
            assert option.count == papers(name).filter(**{lookup: [option.value]}).count()
        counted = {option.value for option in getattr(facets, name)}
        related = {"venue": "venue__slug", "year": "venue__year", "topic": "topics__slug"}
        related |= {"author": "authors__slug", "country": "country"}
        expected = {str(v) for v in papers(name).values_list(related[name], flat=True) if v}
        assert counted == expected


def test_kept_counts_follow_every_curation_change(corpus):
    """After each change the counts kept by difference equal a recount from nothing."""
    efficiency = Topic.objects.get(slug="efficiency")
    curation.add_topic_to_papers(efficiency, [corpus["translation"].pk, corpus["speech"].pk])
    after_add = kept_counts()
    assert ("t", str(efficiency.pk), "", "", 4) in after_add
    curation.remove_topic_from_papers(efficiency, [corpus["kv"].pk])
    curation.set_topics(corpus["retrieval"].pk, add=[efficiency.pk])
    merging.merge_papers(corpus["kv"], [corpus["cache2"]])
    curation.delete_papers(Paper.objects.filter(pk=corpus["speech"].pk))
    kept = kept_counts()
    assert kept == recounted()
    assert count_facets({}).total == Paper.objects.count() == 3


def test_a_load_refreshes_the_counts_of_what_it_wrote(seeds):
    kept = kept_counts()
    assert kept == recounted()
    assert count_facets({}).total == Paper.objects.count()


def test_a_moved_paper_leaves_its_old_venue(corpus):
    emnlp = Venue.objects.get(slug="emnlp-2024")
    Paper.objects.filter(pk=corpus["kv"].pk).update(venue=emnlp)
    assert refresh_counts([corpus["kv"].pk]) == 1
    venues = {option.value: option.count for option in count_facets({}).venue}
    assert venues == {"acl-2025": 2, "emnlp-2024": 3}
    assert kept_counts() == recounted()


def stale_lexemes() -> int:
    """Narrow rows whose lexemes are not their paper's stripped search vector, or whose title
    lexemes are not its stripped title vector."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM papers_paperfacets f JOIN papers_paper p ON p.id = f.paper_id "
            "WHERE f.lexemes IS DISTINCT FROM strip(p.search_vector) "
            "OR f.title_lexemes IS DISTINCT FROM strip(p.title_vector)"
        )
        return cursor.fetchone()[0]


def test_the_narrow_rows_lexemes_follow_every_change_of_a_paper(corpus):
    """A new title (a save or a bulk update) and a renamed author reach the stripped vectors
    the queries are counted from, with no refresh of the counts; a renamed topic, whose name
    is no words of its papers, does not."""
    assert stale_lexemes() == 0
    kv = corpus["kv"]
    kv.title = "Evicting the Zyzzyva Cache"
    kv.save()
    Paper.objects.filter(pk=corpus["speech"].pk).update(abstract="Quokka speech.")
    attention = Topic.objects.get(slug="attention")
    attention.name = "Wombat attention"
    attention.save()
    curation.record_topic_edit(attention, renamed=True)
    ada = Author.objects.get(name="Ada Lovelace")
    ada.name = "Ada Wallaby"
    ada.save()
    curation.record_author_edit(ada, ["name"])
    assert stale_lexemes() == 0
    assert PaperFacets.objects.filter(title_lexemes="zyzzyva").count() == 1
    assert count_facets({}, text="zyzzyva").total == 1
    assert count_facets({}, text="quokka").total == 1
    assert count_facets({}, text="wallaby").total == orm_count(authors__name="Ada Wallaby") == 3
    assert count_facets({}, text="wombat").total == 0


# Plans ---------------------------------------------------------------------------------------


def plan_of(selected, fixed=None, text="") -> dict:
    """The plan of the counts' statement (with a query: of its matches' statement)."""
    if text:
        statement, params = _matches_statement(selected, fixed or {}, text)
    else:
        statement, params = _counts_statement(selected, fixed or {})
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + statement, params)
        plan = cursor.fetchone()[0]
    return (plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"]


def nodes(plan):
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def rows_read(plan, relation: str) -> int:
    """Rows the plan's scans of ``relation`` read (returned or filtered out), over all loops."""
    return sum(
        (
            node["Actual Rows"]
            + node.get("Rows Removed by Filter", 0)
            + node.get("Rows Removed by Index Recheck", 0)
        )
        * node["Actual Loops"]
        for node in nodes(plan)
        if node.get("Relation Name") == relation
    )


# The work one run of a statement does, in the transaction's own statistics (the matching
# functions aggregate inside, where EXPLAIN of the statement does not look).
_WORK_SQL = """SELECT 'call ' || funcname, calls FROM pg_stat_xact_user_functions
WHERE funcname LIKE 'papers\\_%%'
UNION ALL SELECT relname, seq_tup_read + COALESCE(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables"""


def work_of(selected, fixed=None, text="") -> dict[str, int]:
    """What one run of the matches' statement did: ``call <function>``: the times each matching
    function ran; ``<table>``: the table's rows it read (sequentially or through an index,
    rows a recheck then refused included), zeros left out."""
    statement, params = _matches_statement(selected, fixed or {}, text)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL track_functions = 'all'")
        cursor.execute(_WORK_SQL)
        before = dict(cursor.fetchall())
        cursor.execute(statement, params)
        cursor.fetchall()
        cursor.execute(_WORK_SQL)
        after = dict(cursor.fetchall())
    done = {name: after[name] - before.get(name, 0) for name in after}
    return {name: n for name, n in done.items() if n}


@pytest.mark.parametrize(
    "selected",
    [{}, {"venue": ["acl-2025"]}, {"year": ["2025"]}, {"topic": ["attention"]}],
)
def test_without_a_query_one_filter_reads_kept_counts(corpus, selected):
    """Kept counts where their pair is kept; the facets whose pair is not (a venue's or a
    year's authors and years, a topic's authors) from the narrow rows of the filter's papers:
    read from kept counts, they were empty."""
    relations = {node.get("Relation Name") for node in nodes(plan_of(selected))} - {None}
    kept = {"papers_facetcount", "papers_venue", "papers_topic", "papers_topicredirect"}
    assert relations <= kept | {"papers_author", "papers_paperfacets"}
    assert "papers_facetcount" in relations
    facets = count_facets(selected)
    authors = {(o.value, o.count) for o in facets.author}
    assert authors and sum(n for _, n in authors) >= facets.total


def test_a_venues_authors_and_year_are_counted():
    venue = make_venue("ACL 2025", 2025)
    make_paper("One.", venue=venue, authors=["Ada Lovelace", "Alan Turing"])
    make_paper("Two.", venue=venue, authors=["Ada Lovelace"])
    make_paper("Three.", venue=make_venue("EMNLP 2024", 2024), authors=["Grace Hopper"])
    finish()
    facets = count_facets({"venue": ["acl-2025"]})
    assert [(o.value, o.count) for o in facets.author] == [("ada-lovelace", 2), ("alan-turing", 1)]
    assert [(o.value, o.count) for o in facets.year] == [("2025", 2)]
    assert [(o.value, o.count) for o in facets.venue] == [("acl-2025", 2), ("emnlp-2024", 1)]


@pytest.fixture
def common_word():
    """2,000 papers saying "models" in one venue; 6 in another, 3 of them on a topic."""
    big, small = make_venue("Big 2024", 2024), make_venue("Small 2024", 2024)
    topic = make_topic("parsing")
    Paper.objects.bulk_create(
        Paper(abstract=f"Paper {n} trains models on data {n}.", venue=big) for n in range(2000)
    )
    for n in range(6):
        paper = make_paper(f"Small paper {n} about models {n}.", venue=small)
        if n < 3:
            PaperTopic.objects.create(paper=paper, topic=topic)
    finish()
    with connection.cursor() as cursor:
        cursor.execute(
            "ANALYZE papers_paper; ANALYZE papers_paperfacets; ANALYZE papers_facetcount"
        )
    return small, topic


def test_filters_and_a_common_word_read_the_filters_papers_not_the_matches(common_word):
    """The known pathological case: venue + topic + a word most papers have. The papers read
    are the filters' (the venue's 6 and the topic's 3), never the word's 2,006 matches."""
    small, topic = common_word
    selected = {"venue": [small.slug], "topic": [topic.slug]}
    plan = plan_of(selected, text="models")
    assert rows_read(plan, "papers_paper") <= 6
    facets = count_facets(selected, text="models")
    assert facets.total == 3
    assert [(o.value, o.count) for o in facets.venue] == [("small-2024", 3)]
    assert [(o.value, o.count) for o in facets.topic] == [("parsing", 3)]


def test_a_query_alone_is_counted_from_the_narrow_rows(common_word):
    """A word (with or without an exclusion) is matched on the narrow rows' stripped vectors:
    no paper's wide row is read; a phrase needs positions and reads the papers it matches."""
    for text, total in [("models", 2006), ("models -small", 2000), ("models or zebra", 2006)]:
        work = work_of({}, text=text)
        assert work["call papers_lexeme_match_ids"] == 1
        assert "papers_paper" not in work
        assert count_facets({}, text=text).total == total == Paper.objects.matching(text).count()
    assert work_of({}, text='"trains models"') == {
        "call papers_text_match_ids": 1,
        "papers_paper": 2000,
        "papers_dataversion": 1,
    }
    assert count_facets({}, text='"trains models"').total == 2000
    assert count_facets({}, text='"models trains"').total == 0


def test_a_compound_tests_positions_only_where_its_joined_word_is_missing():
    """'dataset or "data set"' (a compound, and its words in a row): the papers writing it
    joined are matched on the narrow rows, and positions are tested only on the others with
    both words (5, of which 3 write them in a row); a phrase that is not one of the query's
    alternatives ("data or set", whose "or" is a word of the phrase, a stop word) is matched
    whole. The counts are exact either way."""
    venue = make_venue("Main 2024", 2024)
    for n in range(30):
        make_paper(f"A new dataset {n} for parsing.", venue=venue)
    for n in range(3):
        make_paper(f"A new data set {n} for tagging.", venue=venue)
    make_paper("The data or set of rules.", venue=venue)
    make_paper("The data we set aside.", venue=venue)
    finish()
    text = 'dataset or "data set"'
    assert work_of({}, text=text) == {
        "call papers_lexeme_match_ids": 1,
        "call papers_text_match_ids": 1,
        "papers_paperfacets": 30,
        "papers_paper": 5,
        "papers_dataversion": 1,
    }
    assert count_facets({}, text=text).total == 33 == Paper.objects.matching(text).count()
    whole = '"data or set"'
    assert work_of({}, text=whole) == {
        "call papers_text_match_ids": 1,
        "papers_paper": 5,
        "papers_dataversion": 1,
    }
    assert count_facets({}, text=whole).total == 2 == Paper.objects.matching(whole).count()


def test_one_filter_and_a_query_read_every_match_and_no_flags(common_word):
    """Nothing narrows the rows: the statement reads the word's 2,006 matches from the lexemes'
    bitmap and the filter's keys, no per-row flag; the small venue's 6 are counted in memory."""
    small, _ = common_word
    statement, _params = _matches_statement({"venue": [small.slug]}, {}, "models")
    assert "array_agg(u.c_" not in statement
    work = work_of({"venue": [small.slug]}, text="models")
    # The filter's key, from a table of two venues: through its index (1 row) or by a scan (2),
    # as the table's size on disk after the suite's earlier tests makes the planner choose.
    assert work.pop("papers_venue") in {1, 2}
    assert work == {
        "call papers_lexeme_match_ids": 1,
        "papers_paperfacets": 2006,
        "papers_dataversion": 1,
    }
    facets = count_facets({"venue": [small.slug]}, text="models")
    assert facets.total == 6
    assert [(o.value, o.count) for o in facets.venue] == [("big-2024", 2000), ("small-2024", 6)]


def test_a_word_most_papers_have_reads_only_its_matches_ids():
    """A word four papers in five have: its statement reads the matches' ids only (no row of
    another paper, no author array), and the counts from memory are exact: the authors' top 15
    by count, ties by name (a busy author on no matching paper is not among them)."""
    venue, other = make_venue("Main 2024", 2024), make_venue("Other 2023", 2023)
    for k in range(1, 17):
        for n in range(k):
            make_paper(f"Models {k} {n}.", venue=venue, topics=["parsing"], authors=[f"Author {k}"])
    for n in range(40):
        make_paper(f"Busy {n}.", venue=other, topics=["speech"], authors=["Busy Bee"])
    finish()
    assert work_of({}, text="models") == {
        "call papers_lexeme_match_ids": 1,
        "papers_paperfacets": 136,
        "papers_dataversion": 1,
    }
    facets = count_facets({}, text="models")
    assert facets.total == 136 == Paper.objects.matching("models").count()
    assert [(o.value, o.count) for o in facets.venue] == [("main-2024", 136)]
    assert [(o.value, o.count) for o in facets.year] == [("2024", 136)]
    assert [(o.value, o.count) for o in facets.topic] == [("parsing", 136)]
    assert [(o.label, o.count) for o in facets.author] == [
        (f"Author {k}", k) for k in range(16, 1, -1)
    ]
    facets = count_facets({}, text="busy")
    assert (facets.total, [(o.label, o.count) for o in facets.author]) == (40, [("Busy Bee", 40)])
    assert [(o.value, o.count) for o in facets.topic] == [("speech", 40)]


def explained(run) -> list[dict]:
    """The plans of the statements ``run()`` executes, run again under EXPLAIN ANALYZE."""
    with CaptureQueriesContext(connection) as captured:
        run()
    plans = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + query["sql"])
            plan = cursor.fetchone()[0]
            plans.append((plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"])
    return plans


@pytest.mark.parametrize("order", ["relevance", "newest"])
def test_the_page_of_filters_and_a_common_word_reads_the_filters_papers(common_word, order):
    """The page's ids (ranked, or newest first) read the papers of the venue and the topic,
    never the 2,006 the word matches."""
    small, topic = common_word
    papers = Paper.objects.filter(venue=small, topics=topic)
    if order == "relevance":
        [plan] = explained(lambda: papers.ranked_ids("models", 25))
    else:
        [plan] = explained(lambda: papers.newest_ids(25, 0, "models"))
    assert rows_read(plan, "papers_paper") <= 25
    assert len(papers.ranked_ids("models", 25)) == len(papers.newest_ids(25, 0, "models")) == 3


def test_the_ranked_page_under_filters_finds_its_candidates_on_the_narrow_rows(common_word):
    """With the filters as conditions on the narrow rows, a word's candidates are found there
    (the filters' indexes and the title's combined): no wide row is read but the 3 candidates'
    own, and the page is the one the filters' papers give; a phrase takes the positions' way."""
    small, topic = common_word
    papers = Paper.objects.filter(venue=small, topics=topic)
    narrow = row_conditions({"venue": [small.slug]}, {"topic": [topic.slug]})
    [plan] = explained(lambda: papers.ranked_ids("models", 25, narrow=narrow))
    assert rows_read(plan, "papers_paper") == 3 + 3  # the titles', then the abstracts' probes
    assert rows_read(plan, "papers_paperfacets") <= 6
    for text in ["models", "small models", "models -trains", '"about models"', "small or zebra"]:
        assert papers.ranked_ids(text, 25, narrow=narrow) == papers.ranked_ids(text, 25)
    assert [score for _, score in papers.ranked_ids("small models", 25, narrow=narrow)]


def test_a_topics_newest_page_reads_its_venue_only_as_far_as_the_page():
    """Without a query, a topic's page counts its segments from kept counts and reads the
    newest venue's papers in proceedings order, each tested against the topic as read, until
    the page is full: not the venue's 3,000 papers hashed against the topic's links."""
    venue, topic = make_venue("Big 2025", 2025), make_topic("parsing")
    papers = Paper.objects.bulk_create(
        Paper(title=f"Paper {n:04}", abstract=f"Paper {n} parses.", venue=venue)
        for n in range(3000)
    )
    PaperTopic.objects.bulk_create(PaperTopic(paper=p, topic=topic) for p in papers[::4])
    author = make_author("Ada Lovelace")  # complete records: titled, with an author
    Authorship.objects.bulk_create(Authorship(paper=p, author=author, position=1) for p in papers)
    finish()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE papers_paper; ANALYZE papers_papertopic; ANALYZE papers_facetcount")
    on_topic = Paper.objects.filter(topics=topic)
    kept = kept_venue_counts({}, {"topic": [topic.slug]})

    def links_read(plan) -> set[str]:
        """How the topic's links were read: "SubPlan" (paper by paper), or joined."""
        return {
            node["Parent Relationship"]
            for node in nodes(plan)
            if node.get("Relation Name") == "papers_papertopic" and node["Actual Loops"]
        }

    [plan] = explained(lambda: on_topic.newest_ids(25, 50, kept=kept))
    # Page 3 needs the first 75 of the venue's 750 papers on the topic: the links are probed
    # paper by paper, in proceedings order, never joined to the venue's papers, which the
    # planner may hash whole when it misjudges the venue's size (at 100,000 papers it did).
    assert links_read(plan) == {"SubPlan"}
    assert rows_read(plan, "papers_paper") <= 75 * 4
    # The last page needs them all: they are joined, the venue read once.
    [plan] = explained(lambda: on_topic.newest_ids(25, 725, kept=kept))
    assert "SubPlan" not in links_read(plan) != set()
    expected = list(on_topic.in_order("newest").values_list("pk", flat=True))
    assert on_topic.newest_ids(25, 50, kept=kept) == expected[50:75]
    assert on_topic.newest_ids(25, 725, kept=kept) == expected[725:] != []


def test_an_authors_newest_page_reads_their_papers_by_id_not_the_venue():
    """Filtered (here by an author), a segment holding few of the filtered papers among many
    is read by their ids: its venue's 3,000 papers are not passed in order to find 12."""
    venue = make_venue("Big 2025", 2025)
    author, other = make_author("Ada Lovelace"), make_author("Alan Turing")
    papers = Paper.objects.bulk_create(
        Paper(title=f"Paper {n:04}", abstract=f"Paper {n}.", venue=venue) for n in range(3000)
    )
    Authorship.objects.bulk_create(
        Authorship(paper=p, author=author if n % 250 == 0 else other, position=1)
        for n, p in enumerate(papers)
    )
    finish()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE papers_paper; ANALYZE papers_authorship")
        # Reading the venue in order needs no sort: tempted so, the planner took that way when
        # the page asked for "id IN (the author's papers)" (it did on its own, in full runs).
        cursor.execute("SET LOCAL enable_sort = off")
    hers = Paper.objects.filter(PaperFilterSet.condition("author", [author.slug]))
    [plan] = explained(lambda: hers.newest_ids(25, 0))
    in_order = sum(
        node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
        for node in nodes(plan)
        if node.get("Index Name") == "paper_venue_order"
    )
    assert in_order == 0
    expected = list(hers.in_order("newest").values_list("pk", flat=True))
    assert hers.newest_ids(25, 0) == expected == [papers[n].pk for n in range(0, 3000, 250)]


def test_a_rare_word_under_broad_filters_reads_the_papers_it_matches(common_word):
    """Here the query is the smaller side: no paper's wide row is read, the narrow rows at most
    once (on this small table the planner may scan them rather than use the lexemes' index)."""
    _, topic = common_word
    paper = make_paper("A unique zyzzyva of models.", venue=Venue.objects.get(slug="big-2024"))
    PaperTopic.objects.create(paper=paper, topic=topic)
    finish()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE papers_paperfacets")
    selected = {"venue": ["big-2024"], "topic": [topic.slug]}
    plan = plan_of(selected, text="zyzzyva")
    assert rows_read(plan, "papers_paper") == 0
    assert rows_read(plan, "papers_paperfacets") <= PaperFacets.objects.count()
    assert count_facets(selected, text="zyzzyva").total == 1
    # A phrase is still tested on the vector of its one match, read through the vector index.
    plan = plan_of(selected, text='"unique zyzzyva"')
    matches = [node for node in nodes(plan) if node.get("Function Name") == "papers_text_matches"]
    assert [node["Actual Rows"] for node in matches if node["Actual Loops"]] == [1]
    assert count_facets(selected, text='"unique zyzzyva"').total == 1


# The cache -----------------------------------------------------------------------------------


@pytest.fixture
def response_cache(settings):
    settings.RESPONSE_CACHE = True
    cache.clear()
    yield
    cache.clear()


def queries_for(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries), response


def test_a_repeated_page_comes_from_the_cache_until_the_data_changes(
    client, corpus, response_cache
):
    first, _ = queries_for(client, "/?venue=acl-2025")
    again, response = queries_for(client, "/?venue=acl-2025")
    assert first > 1 and again == 1  # the data version only
    assert "3 papers" in parse(response).find(id="results-heading").text
    version = data_version()
    curation.delete_papers(Paper.objects.filter(pk=corpus["speech"].pk))
    assert data_version() > version
    after, response = queries_for(client, "/?venue=acl-2025")
    assert after == first
    assert "2 papers" in parse(response).find(id="results-heading").text


def test_no_stale_page_after_an_admin_edit(client, corpus, response_cache, django_user_model):
    before = client.get("/").content.decode()
    assert "ACL 2025" in before
    curator = django_user_model.objects.create_superuser("curator", "c@example.org", "pw")
    admin = type(client)()
    admin.force_login(curator)
    venue = Venue.objects.get(slug="acl-2025")
    response = admin.post(
        f"/admin/papers/venue/{venue.pk}/change/",
        {"name": "ACL Vienna 2025", "slug": "acl-2025", "year": "2025", "curated_fields": ""},
    )
    assert response.status_code == 302, response.content[:500]
    after = client.get("/").content.decode()
    assert "ACL Vienna 2025" in after


def test_the_facets_are_cached_apart_from_the_page(client, corpus, response_cache):
    """Page 2 of a list reuses the facets page 1 counted."""
    client.get("/?topic=attention")
    with CaptureQueriesContext(connection) as captured:
        client.get("/?topic=attention&sort=title")
    assert not any("papers_paperfacets" in q["sql"] for q in captured.captured_queries)
    assert not any("papers_facetcount" in q["sql"] for q in captured.captured_queries)


@pytest.fixture
def redis_cache(settings, tmp_path):
    """A real redis-server started for the test, as the cache; skipped where none is installed."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{port}/0",
            }
        }
        settings.RESPONSE_CACHE = True
        yield
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_pages_are_cached_in_a_real_redis(client, corpus, redis_cache):
    first, _ = queries_for(client, "/?q=attention")
    again, _ = queries_for(client, "/?q=attention")
    assert first > 1 and again == 1
    curation.note_change()
    assert queries_for(client, "/?q=attention")[0] == first


@pytest.mark.parametrize(
    "url, backend, location",
    [
        ("", "django.core.cache.backends.locmem.LocMemCache", None),
        (
            "redis://cache:6379/0",
            "django.core.cache.backends.redis.RedisCache",
            "redis://cache:6379/0",
        ),
        (
            "memcached://cache:11211",
            "django.core.cache.backends.memcached.PyMemcacheCache",
            "cache:11211",
        ),
        ("pymemcache://m:11211", "django.core.cache.backends.memcached.PyMemcacheCache", "m:11211"),
    ],
)
def test_cache_url_chooses_the_backend(url, backend, location):
    from database import cache_config

    config = cache_config(url)
    assert (config["BACKEND"], config.get("LOCATION")) == (backend, location)


def test_an_unknown_cache_url_is_refused():
    from django.core.exceptions import ImproperlyConfigured

    from database import cache_config

    with pytest.raises(ImproperlyConfigured, match="CACHE_URL must start with"):
        cache_config("mongodb://db")


@pytest.mark.django_db
def test_a_migration_of_the_app_raises_the_data_version():
    """Cached pages from before a deploy go (migrations change vectors, rules, descriptions)."""
    version = data_version()
    papers_app = apps.get_app_config("papers")
    other = SimpleNamespace(app_label="auth")
    bump_after_migrations(papers_app, "default", plan=[(other, False)])
    assert data_version() == version
    bump_after_migrations(papers_app, "default", plan=[(SimpleNamespace(app_label="papers"), True)])
    assert data_version() == version + 1
