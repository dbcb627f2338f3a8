"""Queries matched in the process's memory over their words' bits: the same counts and pages as
SQL gives, the common words read once per state of the data, a broad query's newest matches
ranked, and a phrase's papers in doubt tested in SQL."""

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers import curation, word_memory
from papers.facet_memory import warm_memory
from papers.facets import count_facets
from papers.filtering import PaperFilterSet
from papers.models import Paper
from papers.search import search_page
from papers.word_memory import drop_held_phrases, every_paper, matched_query, warm_words
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def common_from_two(monkeypatch):
    """Any word two papers have is held (at 100,000 papers it takes 5,000)."""
    monkeypatch.setattr(word_memory, "COMMON_MIN", 2)
    monkeypatch.setattr(word_memory, "COMMON_SHARE", 0.0)


@pytest.fixture
def sql_alone(monkeypatch):
    """The pages as SQL alone gives them: no query matched in memory."""
    monkeypatch.setattr("papers.search.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.matched_query", lambda *args: None)


def facets_of(facets) -> dict:
    return {
        name: [(o.value, o.count) for o in getattr(facets, name)]
        for name in ("venue", "year", "topic", "author", "country")
    } | {"total": facets.total}


def ids_of(matched, mask) -> set[int]:
    return set(matched.memory.ids[np.flatnonzero(mask)].tolist())


@pytest.mark.parametrize(
    ("text", "selected", "fixed"),
    [
        ("cache", {}, {}),
        ("attention", {}, {}),
        ("yoruba", {}, {}),
        ("kv cache eviction", {}, {}),
        ("attention -cache", {}, {}),
        ("cache or speech", {}, {}),
        ("-cache", {}, {}),
        ("zyzzyva", {}, {}),
        ("attention cache", {"venue": ["acl-2025"]}, {}),
        ("attention", {"topic": ["efficiency"], "year": ["2025"]}, {}),
        ("attention", {"country": ["China"]}, {"author": ["ada-lovelace"]}),
        ("attention -yoruba", {}, {"topic": ["attention"]}),
    ],
)
def test_a_query_without_a_phrase_is_counted_as_sql_counts_it(
    corpus, common_from_two, text, selected, fixed
):
    matched = matched_query(text, selected, fixed)
    assert matched is not None
    assert facets_of(count_facets(selected, fixed, text, matched)) == facets_of(
        count_facets(selected, fixed, text)
    )
    assert ids_of(matched, matched.matches) == set(
        Paper.objects.filter(*PaperFilterSet(data={}, fixed=fixed).fixed_conditions())
        .matching(text)
        .values_list("pk", flat=True)
    )


def test_the_counts_of_a_word_are_exact(corpus, common_from_two):
    facets = count_facets({}, {}, "attention", matched_query("attention", {}, {}))
    assert facets_of(facets) == {
        "total": 3,
        "venue": [("acl-2025", 2), ("emnlp-2024", 1)],
        "year": [("2025", 2), ("2024", 1)],
        "topic": [("attention", 2), ("efficiency", 2)],
        "author": [("ada-lovelace", 3), ("alan-turing", 1), ("grace-hopper", 1)],
        "country": [("China", 1), ("United Kingdom", 1), ("United States", 1)],
    }


PHRASES = ['"kv cache"', '"attention cache"', 'speech or "long context"', 'cache -"long context"']


@pytest.mark.parametrize("text", PHRASES)
@pytest.mark.parametrize("fixed", [{}, {"venue": ["acl-2025"]}])
def test_a_phrase_whose_words_leave_many_papers_in_doubt_is_matched_through_the_index(
    corpus, monkeypatch, text, fixed
):
    """Too many to probe one by one: every match is read from the index's bitmap, once, and
    kept under the page's conditions."""
    monkeypatch.setattr(word_memory, "UNCERTAIN_MAX", 0)
    with CaptureQueriesContext(connection) as queries:
        matched = matched_query(text, {}, fixed)
    assert not matched.titles_exact
    assert "papers_text_match_ids" in queries.captured_queries[-1]["sql"]
    page = Paper.objects.filter(*PaperFilterSet(data={}, fixed=fixed).fixed_conditions())
    assert ids_of(matched, matched.matches) == set(page.matching(text).values_list("pk", flat=True))
    assert facets_of(count_facets({}, fixed, text, matched)) == facets_of(
        count_facets({}, fixed, text)
    )


def test_a_phrase_read_through_the_index_is_held_for_its_next_pages(corpus, monkeypatch):
    """Its next page, filter or order, or the same words in another form, read no match
    again, until the data changes; the latest PHRASES_HELD such queries are held."""
    monkeypatch.setattr(word_memory, "UNCERTAIN_MAX", 0)
    monkeypatch.setattr(word_memory, "PHRASES_HELD", 1)
    matched_query('"kv cache"', {}, {})
    with CaptureQueriesContext(connection) as again:
        matched = matched_query('"KV caches"', {"venue": ["acl-2025"]}, {})  # the same query
    assert not any("papers_text_match_ids" in q["sql"] for q in again.captured_queries)
    assert ids_of(matched, matched.matches) == {corpus["kv"].pk, corpus["cache2"].pk}
    matched_query('"long context"', {}, {})  # the one held now
    with CaptureQueriesContext(connection) as dropped:
        matched_query('"kv cache"', {}, {})
    assert "papers_text_match_ids" in dropped.captured_queries[-1]["sql"]
    drop_held_phrases()  # as a new worker (the benchmark's SQL timing)
    with CaptureQueriesContext(connection) as forgotten:
        matched_query('"kv cache"', {}, {})
    assert "papers_text_match_ids" in forgotten.captured_queries[-1]["sql"]
    curation.delete_papers(Paper.objects.filter(pk=corpus["cache2"].pk))
    with CaptureQueriesContext(connection) as changed:
        matched = matched_query('"kv cache"', {}, {})
    assert "papers_text_match_ids" in changed.captured_queries[-1]["sql"]
    assert ids_of(matched, matched.matches) == {corpus["kv"].pk}


@pytest.mark.parametrize("text", PHRASES)
def test_a_phrase_whose_words_leave_few_papers_in_doubt_is_counted_exactly(corpus, text):
    """The papers in doubt are tested in SQL, one statement more."""
    with CaptureQueriesContext(connection) as queries:
        matched = matched_query(text, {}, {})
    assert not matched.titles_exact
    assert "search_vector @@" in queries.captured_queries[-1]["sql"]
    found = set(Paper.objects.matching(text).values_list("pk", flat=True))
    assert found == ids_of(matched, matched.matches)
    assert facets_of(count_facets({}, {}, text, matched)) == facets_of(count_facets({}, {}, text))


def test_stop_words_alone_are_left_to_sql(corpus):
    assert matched_query("the of", {}, {}) is None


def test_the_common_words_are_read_once_then_held_until_the_data_changes(corpus, common_from_two):
    matched_query("attention cache", {}, {})
    with CaptureQueriesContext(connection) as again:
        matched = matched_query("cache attention", {}, {})
    assert len(again.captured_queries) == 1  # the query's words; both are held
    assert matched.matches.sum() == 2
    curation.delete_papers(Paper.objects.filter(pk=corpus["cache2"].pk))
    with CaptureQueriesContext(connection) as changed:
        matched = matched_query("cache attention", {}, {})
    # The words, the facet arrays of the new state, then the words' matches again.
    assert len(changed.captured_queries) == 3
    assert matched.matches.sum() == 1


def test_a_rare_word_is_read_for_its_query_alone(corpus, common_from_two):
    matched = matched_query("attention -yoruba -retrieval", {}, {})
    assert matched.matches.sum() == 2
    assert set(matched.memory.words) == {"'attent'"}
    with CaptureQueriesContext(connection) as again:
        matched_query("attention -yoruba -retrieval", {}, {})
    assert len(again.captured_queries) == 2  # the words, then the rare ones again


@pytest.fixture
def three_years(db):
    """Three papers titled about attention heads, the oldest written first."""
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


@pytest.mark.parametrize("text", ["attention heads", '"attention heads"'])
def test_a_broad_query_ranks_its_newest_matches_among_equal_titles(three_years, monkeypatch, text):
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    results = page_of({"q": text})
    assert results.count == 3
    assert [paper.pk for paper in results.papers] == [three_years[2025].pk, three_years[2024].pk]
    assert results.notices == [
        "Only 2 of the 3 matching papers are ranked: those with your words in the shortest "
        "titles, then those whose titles have most of your words, the newest first among "
        "equals. Add words or filters to rank them all, or list them newest first to page "
        "through every one."
    ]


def test_a_broad_query_ranks_the_titles_with_fewest_other_words(three_years, monkeypatch):
    """The candidates the ranking would put first: "Attention Heads" before newer titles
    with a third word, the newest among those."""
    shortest = make_paper(
        "Attention heads, counted.", title="Attention Heads", venue=make_venue("ACL 2020", 2020)
    )
    finish()
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    results = page_of({"q": "attention heads"})
    assert results.count == 4
    assert [paper.pk for paper in results.papers] == [shortest.pk, three_years[2025].pk]


def test_a_broad_query_ranks_titles_with_some_of_its_words_before_newer_papers(
    three_years, monkeypatch
):
    """After the title matches, the candidates are the matches whose titles have most of the
    query's words: "Attention Probes" (2020) before a 2025 paper with both words in its abstract
    alone, which the ranking would put below it."""
    older = make_paper(
        "Probes of attention heads.", title="Attention Probes", venue=make_venue("ACL 2020", 2020)
    )
    make_paper(
        "Attention heads, pruned.", title="Pruning Transformers", venue=make_venue("ACL 2025", 2025)
    )
    finish()
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 4)
    results = page_of({"q": "attention heads"})
    assert results.count == 5
    assert {paper.title for paper in results.papers[:3]} == {
        "Attention Heads 2023",
        "Attention Heads 2024",
        "Attention Heads 2025",
    }
    assert [paper.pk for paper in results.papers[3:]] == [older.pk]


def test_in_sql_a_broad_query_ranked_the_first_matches_found(three_years, sql_alone, monkeypatch):
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    results = page_of({"q": "attention heads"})
    # The first two title matches the index gives, in the table's order, whatever their year.
    assert results.count == 3
    assert results.notices == [
        "Only 2 of the 3 matching papers are ranked: the first 2 found. "
        "Add words or filters to rank them all, or list them newest first to page through "
        "every one."
    ]


def test_a_phrase_keeps_its_exact_matches_only(three_years):
    make_paper(
        "Heads of attention, and attention in general.",
        title="Heads",
        venue=make_venue("ACL 2025", 2025),
    )
    finish()
    results = page_of({"q": '"attention heads"'})
    assert results.count == 3
    assert {paper.title for paper in results.papers} == {
        "Attention Heads 2023",
        "Attention Heads 2024",
        "Attention Heads 2025",
    }


@pytest.mark.parametrize(
    "url",
    [
        "/?q=attention",
        "/?q=cache+attention",
        "/?q=attention+-cache",
        "/?q=cache+or+speech",
        "/?q=%22kv+cache%22",
        "/?q=%22long+context%22+-quantised",
        "/?q=attention&venue=emnlp-2024",
        "/?q=long+context&topic=efficiency",
        "/?q=kv+cache+eviction",
        "/venues/acl-2025/?q=cache",
        "/api/papers/?q=attention",
        "/?q=attention&sort=newest",
        "/?q=%22kv+cache%22+or+speech&sort=newest",
        "/?q=cache&venue=acl-2025&sort=newest",
        "/api/papers/?q=cache+or+speech&sort=newest",
        "/?q=attention&sort=title",
        "/?q=%22kv+cache%22+or+speech&sort=title",
        "/?q=cache&venue=acl-2025&sort=title",
        "/api/papers/?q=cache+or+speech&sort=title",
    ],
)
def test_pages_are_those_sql_alone_gives(client, corpus, monkeypatch, url):
    expected = client.get(url).content
    monkeypatch.setattr("papers.search.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.matched_query", lambda *args: None)
    assert client.get(url).content == expected


def test_a_page_matched_in_memory_shows_its_results(client, corpus):
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
        matched = matched_query("attention -cache", {}, {})
    assert len(first) == 1
    assert matched.matches.sum() == 1


@pytest.mark.parametrize(
    ("selected", "fixed"),
    [
        ({}, {}),
        ({"venue": ["acl-2025"]}, {}),
        ({"topic": ["efficiency"], "year": ["2025"]}, {}),
        ({"country": ["China"]}, {"author": ["ada-lovelace"]}),
        ({"venue": ["emnlp-2024", "acl-2025"]}, {"topic": ["attention"]}),
    ],
)
def test_a_page_without_a_query_is_counted_as_sql_counts_it(corpus, selected, fixed):
    every = every_paper(selected, fixed)
    assert facets_of(count_facets(selected, fixed, "", every)) == facets_of(
        count_facets(selected, fixed)
    )


def test_a_phrase_whose_title_candidates_all_fail_still_shows_its_matches(monkeypatch):
    """Titles with the phrase's words apart are its title superset; the one match has the
    phrase in its abstract only: it is ranked from the exact matches."""
    venue = make_venue("ACL 2025", 2025)
    for n in range(6):
        make_paper(f"Paper {n}.", title=f"All you need is not attention {n}", venue=venue)
    match = make_paper("We show attention is all you need.", title="Transformers", venue=venue)
    finish()
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    monkeypatch.setattr(word_memory, "SUPERSET_READ", 1)
    results = page_of({"q": '"attention is all you need"'})
    assert results.count == 1
    assert [paper.pk for paper in results.papers] == [match.pk]


def test_a_phrase_with_many_papers_in_doubt_is_ranked_from_its_matches(corpus, monkeypatch):
    monkeypatch.setattr(word_memory, "UNCERTAIN_MAX", 0)
    results = page_of({"q": '"kv cache"'})
    assert results.count == 2
    assert {paper.pk for paper in results.papers} == {corpus["kv"].pk, corpus["cache2"].pk}


@pytest.fixture
def three_venues(db):
    """Three numbered papers about attention in each of three venues, and an untitled one in
    two of them: {(venue year, number): paper}, the untitled ones numbered 9."""
    papers = {}
    for year, acronym in ((2023, "acl"), (2025, "acl"), (2024, "emnlp")):
        venue = make_venue(f"{acronym.upper()} {year}", year)
        for number in (3, 1, 2):
            papers[(year, number)] = make_paper(
                f"Attention in {acronym} {year}, paper {number}.",
                title=f"Attention {year} {number}",
                venue=venue,
                authors=["Ada Lovelace"],
                external_id=f"{year}.{acronym}-long.{number}",
            )
        if year != 2023:
            papers[(year, 9)] = make_paper(
                f"Untitled attention in {year}.",
                venue=venue,
                authors=["Ada Lovelace"],
                external_id=f"{year}.{acronym}-long.9",
            )
    finish()
    return papers


@pytest.mark.parametrize("query", ["attention", '"attention in"', "attention -untitled"])
def test_a_query_s_newest_pages_are_placed_in_memory_as_sql_places_them(
    three_venues, monkeypatch, query
):
    """Complete records first, the newest venue first, each venue in proceedings order; pages
    of two cut across the venues' segments."""
    for module in ("papers.search", "papers.search_notices"):
        monkeypatch.setattr(f"{module}.PAGE_SIZE", 2)
    order = [(2025, 1), (2025, 2), (2025, 3), (2024, 1), (2024, 2), (2024, 3)]
    order += [(2023, 1), (2023, 2), (2023, 3), (2025, 9), (2024, 9)]
    expected = [three_venues[key].pk for key in order if "untitled" not in query or key[1] != 9]
    pages = range(1, (len(expected) + 1) // 2 + 1)
    read = [
        [paper.pk for paper in page_of({"q": query, "sort": "newest", "page": n}).papers]
        for n in pages
    ]
    assert [pk for page in read for pk in page] == expected
    monkeypatch.setattr("papers.search.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.matched_query", lambda *args: None)
    assert [
        [paper.pk for paper in page_of({"q": query, "sort": "newest", "page": n}).papers]
        for n in pages
    ] == read


@pytest.mark.parametrize(
    "asked",
    [
        {"q": "attention"},
        {"q": '"attention in"'},
        {"q": "attention -untitled"},
        {"venue": ["acl-2023", "emnlp-2024"]},
        {"author": "ada-lovelace", "year": "2025"},
    ],
)
def test_title_pages_are_placed_in_memory_as_sql_places_them(three_venues, monkeypatch, asked):
    """Complete records first, each part A–Z (an untitled paper by its abstract); the page's
    ids come from the memory's title order, for a query or for filters without one, not from
    a statement walking the title index."""
    for module in ("papers.search", "papers.search_notices"):
        monkeypatch.setattr(f"{module}.PAGE_SIZE", 2)
    order = [(2023, 1), (2023, 2), (2023, 3), (2024, 1), (2024, 2), (2024, 3)]
    order += [(2025, 1), (2025, 2), (2025, 3), (2024, 9), (2025, 9)]
    wanted = {
        "attention": order,
        '"attention in"': order,
        "attention -untitled": [key for key in order if key[1] != 9],
        "venue": [key for key in order if key[0] in (2023, 2024)],
        "author": [key for key in order if key[0] == 2025],
    }
    expected = [three_venues[key].pk for key in wanted[asked.get("q") or next(iter(asked))]]
    pages = range(1, (len(expected) + 1) // 2 + 1)

    def read():
        return [
            [paper.pk for paper in page_of({**asked, "sort": "title", "page": n}).papers]
            for n in pages
        ]

    warm_memory()  # its one statement reads the title order
    with CaptureQueriesContext(connection) as statements:
        in_memory = read()
    assert [pk for page in in_memory for pk in page] == expected
    assert not any("display_key" in statement["sql"] for statement in statements)
    monkeypatch.setattr("papers.search.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.every_paper", lambda *args: None)
    assert read() == in_memory
