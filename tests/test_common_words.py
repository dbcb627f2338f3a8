"""Queries of common words matched in the process's memory: the same counts and pages as SQL
gives, the words read once per state of the data, and a broad query's newest matches ranked."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers import common_words, curation
from papers.common_words import common_query, may_be_common, plain_terms, warm_words
from papers.facet_memory import warm_memory
from papers.facets import count_facets
from papers.models import Paper
from papers.search import PaperFilterSet, search_page
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def common_from_two(monkeypatch):
    """Any word two papers have is common (at 100,000 papers it takes 5,000)."""
    monkeypatch.setattr(common_words, "COMMON_MIN", 2)
    monkeypatch.setattr(common_words, "COMMON_SHARE", 0.0)


@pytest.fixture
def never_common(monkeypatch):
    monkeypatch.setattr(common_words, "COMMON_MIN", 10**9)


def facets_of(facets) -> dict:
    return {
        name: [(o.value, o.count) for o in getattr(facets, name)]
        for name in ("venue", "year", "topic", "author", "country")
    } | {"total": facets.total}


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("'kv' & 'cach'", (["'kv'", "'cach'"], [])),
        ("'cach' & !'quantis'", (["'cach'"], ["'quantis'"])),
        ("'it''s' & 'x'", (["'it''s'", "'x'"], [])),
        ("'kv' <-> 'cach'", None),
        ("'kv' | 'cach'", None),
        ("( 'a' | 'b' ) & 'c'", None),
        ("!'cach'", None),
        ("", None),
    ],
)
def test_plain_terms_reads_the_required_and_excluded_words(query, terms):
    assert plain_terms(query) == terms


@pytest.mark.parametrize(
    ("text", "maybe"),
    [
        ("kv cache", True),
        ("cache -attention", True),
        ('"kv cache"', False),
        ("few-shot", False),
        ("cache or attention", False),
        ("Oregon corpora", True),
    ],
)
def test_a_phrase_or_an_or_is_never_asked_about(text, maybe):
    assert may_be_common(text) is maybe


@pytest.mark.parametrize(
    ("text", "selected", "fixed"),
    [
        ("cache", {}, {}),
        ("attention", {}, {}),
        ("attention -cache", {}, {}),
        ("attention cache", {"venue": ["acl-2025"]}, {}),
        ("attention", {"topic": ["efficiency"], "year": ["2025"]}, {}),
        ("attention", {"country": ["China"]}, {"author": ["ada-lovelace"]}),
        ("attention -yoruba", {}, {"topic": ["attention"]}),
    ],
)
def test_a_query_of_common_words_is_counted_as_sql_counts_it(
    corpus, common_from_two, text, selected, fixed
):
    common = common_query(text, selected, fixed)
    assert common is not None
    assert facets_of(count_facets(selected, fixed, text, common)) == facets_of(
        count_facets(selected, fixed, text)
    )


def test_the_counts_of_a_common_word_are_exact(corpus, common_from_two):
    facets = count_facets({}, {}, "attention", common_query("attention", {}, {}))
    assert facets_of(facets) == {
        "total": 3,
        "venue": [("acl-2025", 2), ("emnlp-2024", 1)],
        "year": [("2025", 2), ("2024", 1)],
        "topic": [("attention", 2), ("efficiency", 2)],
        "author": [("ada-lovelace", 3), ("alan-turing", 1), ("grace-hopper", 1)],
        "country": [("China", 1), ("United Kingdom", 1), ("United States", 1)],
    }


def test_a_rare_word_or_a_phrase_is_matched_in_sql(corpus, common_from_two):
    assert common_query("yoruba", {}, {}) is None
    assert common_query("cache yoruba", {}, {}) is None
    assert common_query('"kv cache"', {}, {}) is None
    assert common_query("the", {}, {}) is None  # a stop word: no word at all


def test_the_words_are_read_once_then_held_until_the_data_changes(corpus, common_from_two):
    common_query("attention cache", {}, {})
    with CaptureQueriesContext(connection) as again:
        common = common_query("cache attention", {}, {})
    assert len(again.captured_queries) == 1  # the query's words; both are held
    assert common.matches.sum() == 2
    curation.delete_papers(Paper.objects.filter(pk=corpus["cache2"].pk))
    with CaptureQueriesContext(connection) as changed:
        common = common_query("cache attention", {}, {})
    # The words, the facet arrays of the new state, then the words' matches again.
    assert len(changed.captured_queries) == 3
    assert common.matches.sum() == 1


def test_an_excluded_rare_word_is_read_but_not_held(corpus, common_from_two):
    common = common_query("attention -yoruba -retrieval", {}, {})
    assert common.matches.sum() == 2
    assert set(common.memory.words) == {"'attent'"}


@pytest.fixture
def three_years(db):
    """Three papers titled about attention, the oldest written first."""
    papers = {}
    for year in (2023, 2025, 2024):
        venue = make_venue(f"ACL {year}", year)
        papers[year] = make_paper(
            f"We study attention heads of models in {year}.",
            title=f"Attention Heads {year}",
            venue=venue,
        )
    finish()
    return papers


def page_of(url_query: dict):
    filterset = PaperFilterSet(url_query)
    assert filterset.is_valid()
    return search_page(filterset)


def test_a_broad_query_of_common_words_ranks_its_newest_matches(
    three_years, common_from_two, monkeypatch
):
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    results = page_of({"q": "attention heads"})
    assert results.count == 3
    assert [paper.pk for paper in results.papers] == [three_years[2025].pk, three_years[2024].pk]
    assert results.notices == [
        "3 papers match; the best of them are ranked among the 2 newest. "
        "Add words or filters to narrow the search."
    ]


def test_in_sql_a_broad_query_ranks_the_first_matches_found(three_years, never_common, monkeypatch):
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    results = page_of({"q": "attention heads"})
    # The first two title matches, and the first two of the whole vectors (fewer than 25 titles).
    assert three_years[2023].pk in {paper.pk for paper in results.papers}
    assert "ranked among the first 2 found" in results.notices[0]


@pytest.mark.parametrize(
    "url",
    [
        "/?q=attention",
        "/?q=cache+attention",
        "/?q=attention+-cache",
        "/?q=attention&venue=emnlp-2024",
        "/?q=long+context&topic=efficiency",
        "/api/papers/?q=attention",
    ],
)
def test_pages_of_common_words_are_those_sql_gives(client, corpus, monkeypatch, url):
    monkeypatch.setattr(common_words, "COMMON_MIN", 10**9)
    in_sql = client.get(url).content
    monkeypatch.setattr(common_words, "COMMON_MIN", 2)
    monkeypatch.setattr(common_words, "COMMON_SHARE", 0.0)
    assert common_query(url.split("q=")[1].split("&")[0].replace("+", " "), {}, {}) is not None
    assert client.get(url).content == in_sql


def test_a_page_of_common_words_shows_its_results(client, corpus, common_from_two):
    page = parse(client.get("/?q=cache").content)
    titles = [node.text for node in page.find_all("h3", class_="card-title")]
    assert titles == [
        "Quantised KV Cache Compression",
        "Evicting the KV Cache for Long-Context Inference",
    ]


def test_a_warmed_process_reads_no_word_for_its_first_query(corpus, common_from_two):
    """What the gunicorn master does before it forks its workers (gunicorn.conf.py)."""
    memory = warm_memory()
    assert warm_words(memory) == len(memory.words) > 0
    assert "'attent'" in memory.words and "'yoruba'" not in memory.words
    assert warm_words(warm_memory()) == 0  # nothing more to read, the arrays kept
    with CaptureQueriesContext(connection) as first:
        common = common_query("attention -cache", {}, {})
    assert len(first) == 1
    assert common.matches.sum() == 1
