"""Every page through the test client: content, links, query counts, hostile parameters."""

import datetime
from urllib.parse import urlencode

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django.asserts import assertContains

from papers.counts import refresh_counts
from papers.models import Author, Authorship, Paper, Topic, TopicRedirect, Venue
from papers.search_notices import (
    EXCLUDED_EVERYTHING,
    FILTERED_EVERYTHING,
    NO_PAPER_HAS_THE_WORDS,
    NO_PAPER_HERE_HAS_THE_WORDS,
    NO_PAPER_IN_EVERY_FILTER,
    ONLY_STOP_WORDS,
)
from tests.factories import finish, make_paper, make_topic, make_venue, many_papers
from tests.support import parse

pytestmark = pytest.mark.django_db


def get(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, (url, response.content[:500])
    return response


def count_queries(client, url):
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    return len(context.captured_queries), response


def card_links(response, heading="h3") -> list:
    """The links of the result cards' titles, in the order shown."""
    return [title.find("a") for title in parse(response).find_all(heading, class_="card-title")]


def derived_title_badges(response) -> list:
    return [
        badge
        for badge in parse(response).find_all("span", class_="badge")
        if badge.text == "derived title"
    ]


def test_front_page_shows_the_venues_and_the_newest_complete_papers(client, corpus):
    queries, response = count_queries(client, "/")
    page = parse(response)
    assert queries == 3  # venues, the newest ids, their cards
    grid = page.find("table", class_="venue-grid")
    assert [th.text for th in grid.find("thead").find_all("th")] == ["Series", "2025", "2024"]
    rows = [
        [cell.text for cell in row.find_all() if cell.tag in ("th", "td")]
        for row in grid.find("tbody").find_all("tr")
    ]
    assert rows == [["ACL", "3", ""], ["EMNLP", "", "2"]]
    assert grid.find("tbody").find("a").attrs == {
        "href": "/venues/acl-2025/",
        "aria_label": "ACL 2025: 3 papers",
    }
    # Newest venue first, complete records only: the untitled speech paper is left out.
    assert [link.text for link in card_links(response)] == [
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
        "Noisy Retrieval Hurts Faithfulness",
        "Parallel Data for Yoruba Translation",
    ]
    browse = [link for link in page.find_all("a") if link.text.startswith("Browse all")]
    assert [(link.text, link.attrs["href"]) for link in browse] == [
        ("Browse all 5 papers, newest venue first", "?sort=newest")
    ]


def test_front_page_without_a_complete_record_says_what_would_list_them(client, db):
    # After the quick start (the seeds: no record with authors), "Newest papers" headed an
    # empty list (a newcomer).
    make_paper("A record without title or authors.", venue=make_venue("ACL 2025", 2025))
    finish()
    section = parse(get(client, "/")).find("section", aria_labelledby="recent-heading")
    assert section.find_all("ol") == []
    assert section.find("p", class_="hint").text == (
        "None of the records has both a title and authors yet (the seed pages give few): load "
        "the ACL Anthology's XML for complete records."
    )


def test_browse_orders_put_incomplete_records_last(client, corpus):
    newest = [link.text for link in card_links(get(client, "/?sort=newest"))]
    # ACL 2025 (2025) before EMNLP 2024, title A–Z within each; the untitled paper last.
    assert newest == [
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
        "Noisy Retrieval Hurts Faithfulness",
        "Parallel Data for Yoruba Translation",
        "Speech recognition systems struggle with accented speech",
    ]
    by_title = [link.text for link in card_links(get(client, "/?sort=title"))]
    assert by_title == [
        "Evicting the KV Cache for Long-Context Inference",
        "Noisy Retrieval Hurts Faithfulness",
        "Parallel Data for Yoruba Translation",
        "Quantised KV Cache Compression",
        "Speech recognition systems struggle with accented speech",
    ]
    # Newest first, chosen, says so (an outside tester took the newest venue's incomplete
    # record, last, for a wrong order); a ranked list does not, nor a list in its default
    # order (a venue's page says it of its records; a phone's first screen is the papers').
    hints = {
        address: [span.text for span in parse(get(client, address)).find_all(id="sort-help")]
        for address in (
            "/?venue=acl-2025&sort=newest",
            "/?q=cache&sort=newest",
            "/?q=cache",
            "/?venue=acl-2025",
        )
    }
    assert hints == {
        "/?venue=acl-2025&sort=newest": [
            "Records without a title or authors come after the others."
        ],
        "/?q=cache&sort=newest": ["Records without a title or authors come after the others."],
        "/?q=cache": [],
        "/?venue=acl-2025": [],
    }


def test_a_conference_without_papers_of_its_own_is_its_volumes_in_the_facet(client, findings_only):
    # No row for ACL 2024 itself, which could not be chosen: its Findings in its place, named
    # with the year under the series.
    [series] = parse(get(client, "/?q=zebras")).find_all("li", class_="series")
    assert series.find("span", class_="series-name").text == "ACL"
    [event] = series.find_all("li", class_="event")
    assert event.find_all("details") == []
    [volume] = event.find_all("a", class_="facet-link")
    assert volume.attrs["href"] == "?q=zebras&venue=findings-of-acl-2024"
    name = volume.find(class_="facet-name")
    assert (name.text, name.find(class_="visually-hidden").text) == ("ACL 2024 Findings", "ACL")
    assert volume.find(class_="count").text == "1 paper"


@pytest.mark.django_db
def test_the_venue_facet_shows_the_conferences_with_the_most_papers_at_once(client):
    # A series was shown whole: eight NAACLs of one paper each in sight, EMNLP 2024's three
    # papers behind "Show all" (now "Show N more venues").
    for year in range(2016, 2024):
        venue = make_venue(f"NAACL {year}", year, acronym="NAACL", month="June")
        make_paper(f"Zebras of {year}.", title=f"Zebras {year}", venue=venue)
    emnlp = make_venue("EMNLP 2024", 2024, acronym="EMNLP", month="November")
    for number in range(3):
        make_paper(f"Zebras, study {number}.", title=f"Zebra Study {number}", venue=emnlp)
    finish()
    facet = parse(get(client, "/?q=zebras")).find("section", class_="venue-facet")
    tree, more = facet.find("ul", class_="venue-tree"), facet.find("details", class_="facet-more")

    def venues(events):
        return [event.find("a", class_="facet-link").attrs["data_venue"] for event in events]

    # The series with the most papers in sight first, each series' conferences newest first.
    assert [s.text for s in tree.find_all("span", class_="series-name")] == ["NAACL", "EMNLP"]
    events = tree.find_all("li", class_="event")
    naacl = [f"naacl-{year}" for year in range(2023, 2015, -1)]
    assert venues(events) == [*naacl, "emnlp-2024"]
    # NAACL 2016 waits behind "Show 1 more venue" in its place in NAACL (a second tree
    # showed it under "NAACL (more)", after the other series).
    assert venues(e for e in events if "is-more" in e.attrs["class"]) == ["naacl-2016"]
    assert more.find("summary").find(class_="when-closed").text == "Show 1 more venue"
    assert [s for s in tree.find_all("li", class_="series") if "is-more" in s.attrs["class"]] == []


def test_a_conferences_folded_volumes_say_how_many_papers_they_hold(client, findings_only):
    make_paper(
        "Zebras again, at the main conference.", title="Zebra Crossings", venue=findings_only.parent
    )
    make_paper("More zebras, in the Findings.", title="Zebra Herds", venue=findings_only)
    finish()
    [event] = parse(get(client, "/?q=zebras")).find_all("li", class_="event")
    main = event.find("a", class_="facet-link")
    assert (main.find(class_="facet-name").text, main.find(class_="count").text) == (
        "ACL 2024",
        "1 paper",
    )
    # Closed, the fold counts its papers: "ACL 2024 1" alone read as the conference's all.
    summary = event.find("details", class_="volumes").find("summary")
    assert summary.text == "1 more volume of ACL 2024, 2 papers"
    assert summary.find(class_="visually-hidden").text == "of ACL 2024"


def test_a_conferences_count_opens_the_papers_of_all_its_volumes(client, corpus):
    findings = make_venue("Findings of ACL 2025", 2025, parent=Venue.objects.get(slug="acl-2025"))
    make_paper("Findings on caches.", title="Cache Findings", venue=findings)
    finish()
    page = parse(get(client, "/"))
    cell = page.find("table", class_="venue-grid").find("tbody").find("a")
    assert (cell.text, cell.attrs["href"], cell.attrs["aria_label"]) == (
        "4",
        "/?venue=acl-2025&venue=findings-of-acl-2025",
        "ACL 2025 and its other volumes: 4 papers",
    )
    listed = parse(get(client, cell.attrs["href"]))
    assert listed.find("h2", id="results-heading").text.strip() == "4 papers"


def test_a_conference_without_papers_of_its_own_points_to_its_volumes(client, findings_only):
    # The front page counts the venues with papers and links the year to the Findings.
    page = parse(get(client, "/"))
    assert page.find("p", class_="lead").text == (
        "1 paper from 1 venue of the ACL Anthology and the conferences' own pages."
    )
    [cell] = page.find("table", class_="venue-grid").find("tbody").find_all("a")
    assert (cell.text, cell.attrs["href"], cell.attrs["aria_label"]) == (
        "1",
        "/venues/findings-of-acl-2024/",
        "Findings of ACL 2024: 1 paper",
    )
    # Its own page says where its papers are, in place of an empty list, which it does not
    # search for: the venue, its topics, its volumes.
    queries, response = count_queries(client, "/venues/acl-2024/")
    assert queries == 3
    page = parse(response)
    [elsewhere] = page.find_all("p", class_="elsewhere")
    assert elsewhere.text == (
        "The collection has no paper of ACL 2024's main volume; its papers here are in "
        "Findings of ACL 2024 (1 paper)."
    )
    assert elsewhere.find("a").attrs["href"] == "/venues/findings-of-acl-2024/"
    assert page.find_all("section", class_="results") == []
    assert page.find_all("form", role="search") == [page.find("form", class_="header-search")]


def test_newest_venue_first_is_by_date_and_proceedings_order(client, db):
    acl = make_venue("ACL 2025", 2025, month="July")
    venues = {
        "naacl": make_venue("NAACL 2025", 2025, month="April"),
        "acl": acl,
        # Its month is earlier, but a conference's volumes follow its main volume.
        "findings": make_venue("Findings of ACL 2025", 2025, month="June", parent=acl),
        # No month: a journal's volume counts from 1 January.
        "tacl": make_venue("TACL 2025", 2025),
        "emnlp": make_venue("EMNLP 2024", 2024, start_date=datetime.date(2024, 11, 12)),
    }
    papers = [
        ("acl", "2025.acl-long.10", "Alpha"),
        ("acl", "2025.acl-long.2", "Zulu"),
        ("findings", "2025.findings-acl.1", "Bravo"),
        ("naacl", "2025.naacl-long.7", "Charlie"),
        ("tacl", "2025.tacl-1.1", "Delta"),
        ("emnlp", "2024.emnlp-main.3", "Echo"),
    ]
    for venue, external_id, title in papers:
        make_paper(
            f"An abstract about {title}.",
            title=title,
            venue=venues[venue],
            external_id=external_id,
            authors=["Ada Lovelace"],
        )
    finish()
    expected = ["Zulu", "Alpha", "Bravo", "Charlie", "Delta", "Echo"]
    assert [link.text for link in card_links(get(client, "/?sort=newest"))] == expected
    ordered = Paper.objects.in_order("newest")
    assert [paper.title for paper in ordered] == expected
    # Any page of the list is read by newest_ids: the same order at any offset.
    pages = [Paper.objects.newest_ids(2, offset) for offset in (0, 2, 4)]
    assert [pk for page in pages for pk in page] == [paper.pk for paper in ordered]


def test_search_puts_the_paper_on_the_subject_first(client, corpus):
    response = get(client, "/?q=kv+cache+eviction")
    assert card_links(response)[0].attrs["href"] == f"/papers/{corpus['kv'].pk}/"
    assertContains(response, "<mark>KV</mark> <mark>Cache</mark>", html=True)
    assert "2 papers" in response.content.decode()


def test_facet_links_toggle_filters_and_counts_follow_other_filters(client, corpus):
    response = get(client, "/?q=attention&venue=acl-2025")
    page = parse(response)
    # Under venue=acl-2025 two papers match; the venue facet itself still counts every venue.
    assert "2 papers" in response.content.decode()
    selected = page.find("a", class_="facet-link", href="?q=attention", aria_current="true")
    assert selected.find(class_="facet-name").text == "ACL 2025"
    assert selected.find(class_="count").text == "2 papers, selected: click to remove"
    added = page.find("a", class_="facet-link", href="?q=attention&venue=acl-2025&venue=emnlp-2024")
    # In the tree, under its series: the year, the series named for screen readers.
    assert added.find(class_="facet-name").text == "EMNLP 2024"
    assert added.find(class_="facet-name").find(class_="visually-hidden").text == "EMNLP"
    assert added.find(class_="count").text == "1 paper"
    [chip] = page.find("ul", class_="active-filters").find_all("a")
    assert chip.attrs["aria_label"] == "Remove filter Venue ACL 2025"
    assert chip.text == "Venue: ACL 2025 ×"
    # A facet with a value ticked says how a second one combines, and what its counts count.
    hints = {
        section.find("h3").text: section.find("p", class_="facet-hint").text
        for section in page.find_all("section", class_="facet")
        if section.find_all("p", class_="facet-hint")
    }
    assert hints == {
        "Venue": "Tick several for papers of any of them; each count is the venue's papers "
        "under the other filters."
    }
    page = parse(get(client, "/?topic=attention"))
    # Filtered, the list is named by its filters, as its chips name them.
    assert page.find("h1").text == "Papers: attention"
    assert page.find("title").text.startswith("attention – papers")
    named = parse(get(client, "/?year=2025&venue=acl-2025&topic=attention")).find("h1").text
    assert named == "Papers: ACL 2025, attention, 2025"
    [hint] = page.find_all("p", class_="facet-hint")
    assert hint.text == (
        "Tick several for papers on any of them; each count is the topic's papers under the "
        "other filters."
    )


def test_list_query_count_is_fixed(client, corpus):
    many_papers(30)
    finish()
    small, _ = count_queries(client, "/?q=kv+cache")
    large, response = count_queries(client, "/?q=corpus")
    browse, _ = count_queries(client, "/?venue=acl-2025&page=2")
    # "kv cache" is name-like (+1: authors of that name) and matches fewer than a page (the
    # papers matching some of its words are found in memory, papers/recall.py); "corpus" fills
    # pages, browsing has no query.
    # Each +1 for the venues (the facet's tree and the filters' names); both queries may hold
    # a compound (+1: two words in a row, a word of six letters or more). The first query since
    # the data changed reads the facet arrays (+1, papers/facet_memory.py); the next does not.
    # Each query reads its words' matches (+1: none is common enough to be held,
    # papers/word_memory.py) and counts them in memory. "kv cache" matches at most
    # FEW_MATCHES papers: its rare words are looked up for a respelling to offer (+1; not the
    # authors' names near it: some paper matches, papers/respelled.py).
    # "corpus", one word, is looked up as a family name (+1, first page). Each query's words
    # are looked up for their other forms (+1, papers/word_lookups.py).
    assert (small, large, browse) == (10, 8, 4)
    assert len(parse(response).find_all("li", class_="card")) == 25
    # A topic filter: +1, whether a value is a topic's old slug (papers/moved_filters.py).
    topic, _ = count_queries(client, "/?topic=attention&page=2")
    assert topic == 5


def test_a_literal_misspelt_query_shows_the_papers_matching_some_of_its_words(client, corpus):
    # literal=1: the query as typed, not respelled.
    queries, response = count_queries(client, "/?q=Evictng+the+KV+cache+for+long+contxt&literal=1")
    page = parse(response)
    assert page.find(id="results-heading").text.strip() == "No paper has all your words"
    partial = page.find("section", class_="partial")
    assert partial.find("h3").text == "Papers with some of your words"
    titles = [h3.find("a").text for h3 in partial.find_all("h3", class_="card-title")]
    assert titles == [corpus["kv"].title, corpus["cache2"].title]
    assert page.find_all("p", class_="notice") == []
    # Joined compounds, the query's words, their matches (counted in memory; +1: the facet
    # arrays, read on the first query since the data changed), the venues, the cards (those
    # matching some words found in memory, papers/recall.py), the words' other forms.
    assert queries == 7


def test_an_exclusion_that_removes_every_match_says_so(client, corpus):
    # "caching" is "cache" to the search: the query excludes what it asks for.
    queries, response = count_queries(client, "/?q=cache+-caching&literal=1")
    page = parse(response)
    assert page.find(id="results-heading").text.strip() == "No papers found"
    notices = [p.text for p in page.find_all("p", class_="notice")]
    assert notices == [EXCLUDED_EVERYTHING]
    # The query's words, their matches (counted in memory), the facet arrays (first query
    # since the data changed), the venues, the words' other forms; no papers matching some words.
    assert queries == 5
    body = client.get("/api/papers/?q=cache+-caching&literal=1").json()
    assert (body["count"], body["notices"]) == (0, [EXCLUDED_EVERYTHING])


def test_the_country_facet_is_offered_only_where_countries_are_known(client, corpus):
    # Most of the corpus's papers carry a country: the facet is offered.
    assert parse(client.get("/?q=cache")).find(id="facet-country").text == "Country"
    # Beside 40 more matches without one, the few with a country are under a twentieth.
    many_papers(40, word="cache")
    finish()
    page = parse(client.get("/?q=cache"))
    assert page.find_all(id="facet-country") == []
    # Chosen, it stays, to be removed.
    chosen = parse(client.get("/?q=cache&country=China"))
    assert chosen.find(id="facet-country").text == "Country"


def test_a_query_of_stop_words_or_symbols_says_what_was_searched(client, corpus):
    page = parse(client.get("/?q=the+of+and"))
    assert page.find(id="results-heading").text.strip() == "No papers found"
    assert [p.text for p in page.find_all("p", class_="notice")] == [ONLY_STOP_WORDS]
    # Punctuation alone has no words, common or not.
    page = parse(client.get("/?q=%3F%3F%3F"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [NO_PAPER_HAS_THE_WORDS]
    # "C++" is searched as "c": the page says so rather than list papers on vitamin C.
    body = client.get("/api/papers/?q=C%2B%2B+cache").json()
    assert body["notices"] == ["Symbols are not searched: “C++” is searched as “C”."]


def test_a_titles_maths_symbol_typed_as_shown_finds_it(client, db):
    # "μPLAN", as the page shows "\\mu{}PLAN", found nothing; "∞Bench" ranked other benches
    # first, the ∞ dropped (an outside researcher).
    mu = make_paper("We plan summaries.", title="\\mu{}PLAN: Summarizing with a Plan")
    bench = make_paper("Long contexts.", title="\\infty{}Bench: Long Context Evaluation")
    norm = make_paper("Sparse words.", title="Refinement by \\ell_1 Norm Optimisation")
    make_paper("Another bench of tests.", title="HAE-RAE Bench: Evaluation of Korean")
    finish()
    for typed, paper in [("μPLAN", mu), ("µPLAN", mu), ("∞Bench", bench), ("ℓ1 norm", norm)]:
        body = client.get("/api/papers/", {"q": typed}).json()
        assert [result["id"] for result in body["results"]][:1] == [paper.pk], typed
        assert body["count"] == 1, typed


def test_a_title_with_operators_pasted_as_shown_finds_it(client, db):
    # "A ∧ B ⇔ B ∧ A: …", pasted from its page, found nothing in full: the operators were
    # searched as "wedge" and "leftrightarrow", which a title writing the characters lacks (an
    # outside researcher).
    logic = make_paper("Symmetry.", title="A ∧ B ⇔ B ∧ A: Evaluating Logical Reasoning")
    norm = make_paper("Weights.", title="L2 Regularization Revisited")
    make_paper("Reasoning.", title="Evaluating Logical Reasoning of Models")
    finish()
    for typed, paper in [
        ("A ∧ B ⇔ B ∧ A: Evaluating Logical Reasoning", logic),
        ('"A ∧ B ⇔ B ∧ A: Evaluating"', logic),
        # A subscript digit is the digit, as the collection mostly writes it (a reviewer).
        ("L₂ regularization", norm),
    ]:
        body = client.get("/api/papers/", {"q": typed}).json()
        full = [result["id"] for result in body["results"] if not result["partial"]]
        assert (full, body["count"]) == ([paper.pk], 1), typed


@pytest.mark.parametrize(
    ("query", "notice"),
    [
        ("venue=nonexistent", "No venue has the address name “nonexistent”."),
        ("venue=ACL-2025", "No venue has the address name “ACL-2025”: did you mean “acl-2025”?"),
        ("topic=Summarization&q=cache", "No topic has the address name “Summarization”."),
        (
            "author=Ada-Lovelace",
            "No author has the address name “Ada-Lovelace”: did you mean “ada-lovelace”?",
        ),
        ("author=nobody-at-all", "No author has the address name “nobody-at-all”."),
        ("year=1999", "No paper of the collection is from 1999."),
        (
            "country=Germany",
            "No paper of the collection is from the country “Germany”: few of its sources "
            "tell a paper's country.",
        ),
        (
            "country=nigeria&q=yoruba",
            "No paper of the collection is from the country “nigeria”: did you mean “Nigeria”?",
        ),
    ],
)
def test_an_unknown_filter_value_is_named(client, corpus, query, notice):
    page = parse(get(client, "/?" + query))
    assert page.find(id="results-heading").text.strip() == "No papers found"
    assert page.find("p", class_="notice").text == notice
    assert client.get("/api/papers/?" + query).json()["notices"][0] == notice


@pytest.mark.parametrize(
    "query", ["venue=acl-2025&venue=nonexistent", "q=cache&venue=acl-2025&venue=nonexistent"]
)
def test_an_unknown_value_among_several_is_named_beside_the_results(client, corpus, query):
    page = parse(get(client, "/?" + query))
    assert page.find(id="results-heading").text.strip() != "No papers found"
    notices = [p.text for p in page.find_all("p", class_="notice")]
    assert notices == ["No venue has the address name “nonexistent”."]


def test_a_lone_filter_with_no_paper_says_so(client, corpus):
    make_topic("brand new")
    body = client.get("/api/papers/?topic=brand-new").json()
    assert body["notices"] == ["No paper of the collection has the topic chosen yet."]


@pytest.mark.parametrize("query", ["venue=acl-2025&year=2024", "topic=speech&country=Nigeria"])
def test_filters_with_no_paper_in_all_of_them_say_so(client, corpus, query):
    # Each value is known, and has papers; together they have none.
    page = parse(get(client, "/?" + query))
    assert page.find(id="results-heading").text.strip() == "No papers found"
    assert [p.text for p in page.find_all("p", class_="notice")] == [NO_PAPER_IN_EVERY_FILTER]
    assert client.get("/api/papers/?" + query).json()["notices"] == [NO_PAPER_IN_EVERY_FILTER]


def test_filters_that_remove_every_match_say_that_papers_outside_them_match(client, corpus):
    queries, response = count_queries(client, "/?q=yoruba&venue=acl-2025")
    page = parse(response)
    assert page.find(id="results-heading").text.strip() == "No papers found"
    assert [p.text for p in page.find_all("p", class_="notice")] == [FILTERED_EVERYTHING]
    [chip] = page.find("ul", class_="active-filters").find_all("a")
    assert chip.attrs["href"] == "?q=yoruba"
    # Joined compounds, the query's words, their matches (counted in memory), the facet
    # arrays, did-you-mean (1: "yoruba" is spelt as the collection spells it), whether the
    # venue chosen is known, whether papers outside the filters match, the venues, the
    # authors of that family name (one word), the words' other forms.
    assert queries == 10
    # No paper anywhere has the word: the notice says so, and no empty facets are shown.
    page = parse(client.get("/?q=zzqqxv&venue=acl-2025&literal=1"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [NO_PAPER_HAS_THE_WORDS]
    assert page.find("div", class_="results-layout").attrs["class"] == (
        "results-layout without-facets"
    )
    assert page.find_all(id="facets-heading") == []
    # A venue's page has papers of its own only: the words may be elsewhere.
    page = parse(client.get("/venues/acl-2025/?q=yoruba&literal=1"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [NO_PAPER_HERE_HAS_THE_WORDS]


def test_pagination_edges(client, corpus):
    many_papers(60, word="zebra")
    finish()
    response = get(client, "/?q=zebra")
    assert "60 papers, showing 1–25" in response.content.decode()
    assertContains(response, '<link rel="next" href="?q=zebra&amp;page=2">', html=True)
    assert parse(response).find_all(rel="prev") == []
    response = get(client, "/?q=zebra&page=3")
    assert "showing 51–60" in response.content.decode()
    assertContains(response, '<link rel="prev" href="?q=zebra&amp;page=2">', html=True)
    assert parse(response).find_all(rel="next") == []
    html = get(client, "/?q=zebra&page=99999999999999999999").content.decode()
    assert "There are only 3 pages; showing the last." in html
    assert "showing 51–60" in html
    for bad in ["abc", "-1", "0", "1.5", "%00", "２"]:
        response = get(client, f"/?q=zebra&page={bad}", status=400)
        assert "page must be" in response.content.decode()


def test_the_bare_list_s_first_page_is_not_the_front_page(client, corpus):
    # "/" without parameters is the front page: the list's first page keeps page=1. A
    # venue's page has no front page of its own.
    many_papers(60, word="zebra")
    finish()
    page = parse(get(client, "/?page=2"))
    assert page.find("a", rel="prev").attrs["href"] == "?page=1"
    assert page.find("a", aria_label="Page 1").attrs["href"] == "?page=1"
    assert page.find("link", rel="prev").attrs["href"] == "?page=1"
    page = parse(get(client, "/?q=zebra&page=2"))
    assert page.find("a", rel="prev").attrs["href"] == "?q=zebra"


@pytest.mark.parametrize(
    "query",
    [
        "q=%00%01",
        "q=" + "a" * 10000,
        'q="unbalanced',
        "q=-",
        "q=or+or+and",
        "q=%27%3B+DROP+TABLE+papers_paper%3B--",
        "q=%E0%A4%A",
        "q=%ue000mark",
        "venue=no-such-venue&venue=acl-2025&venue=acl-2025",
        "topic=nothing",
        "author=nobody",
        "country=%3Cscript%3E",
        "sort=relevance",
        "q=cache&sort=title",
        "q=cache&sort=newest",
    ],
)
def test_odd_parameters_never_fail(client, corpus, query):
    get(client, "/?" + query)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("year=abc", "Enter a number."),
        ("year=99999", "Ensure this value is less than or equal to 2100."),
        ("venue=%3Cscript%3E", "is not a valid slug"),
        ("sort=random", "Select a valid choice."),
        ("author=a%20b", "is not a valid slug"),
    ],
)
def test_malformed_parameters_give_400_with_a_message(client, corpus, query, message):
    response = get(client, "/?" + query, status=400)
    assert message in response.content.decode()


def test_long_query_is_cut_between_words_with_a_message(client, corpus):
    words = [f"{n:02d}" + "cache" * 4 for n in range(30)]  # 22 characters each, a space between
    page = parse(get(client, "/?q=" + "+".join(words)))
    # 21 words and a space are 483 characters; the 22nd word would end at 505.
    assert page.find("input", name="q").attrs["value"] == " ".join(words[:21])
    notices = [p.text for p in page.find_all("p", class_="notice")]
    assert (
        "Your search was longer than 500 characters; only its words within the first 500 were "
        "used." in notices
    )


def test_a_querys_repeated_words_count_once_and_words_past_32_are_left_out(client, corpus):
    # 250 one-letter words took 9 s (ts_headline's work grows faster than the query) and held
    # a worker: a repeated word asks nothing more, so it is asked once. The box shows the
    # query as typed.
    page = parse(get(client, "/?q=" + "cache+" * 80))
    assert page.find("input", name="q").attrs["value"] == " ".join(["cache"] * 80)
    # Past 500 characters as typed, not as searched: the box keeps every word.
    page = parse(get(client, "/?" + urlencode({"q": "transformer " * 60 + "attention"})))
    assert page.find("input", name="q").attrs["value"].endswith("transformer attention")
    typed = "neural machine translation without machine translation"
    page = parse(get(client, "/?" + urlencode({"q": typed})))
    assert page.find("input", name="q").attrs["value"] == typed
    assert page.find("h1").text == f"Papers matching “{typed}”"
    assert "were used" not in page.text
    words = [f"word{n}" for n in range(40)]
    page = parse(get(client, "/?q=" + "+".join(words)))
    assert page.find("input", name="q").attrs["value"] == " ".join(words[:32])
    notices = [p.text for p in page.find_all("p", class_="notice")]
    assert "Your search had more than 32 words; only its first 32 were used." in notices
    # A phrase past the limit keeps its first words.
    phrase = '"' + " ".join(words[:20]) + '" ' + '"' + " ".join(words[20:]) + '"'
    page = parse(get(client, "/?" + urlencode({"q": phrase})))
    expected = '"' + " ".join(words[:20]) + '" "' + " ".join(words[20:32]) + '"'
    assert page.find("input", name="q").attrs["value"] == expected


def test_paper_page(client, corpus):
    paper = corpus["kv"]
    queries, response = count_queries(client, f"/papers/{paper.pk}/")
    page = parse(response)
    assert queries == 5
    assertContains(
        response,
        '<h1 id="paper-title">Evicting the KV Cache for Long-Context Inference</h1>',
        html=True,
    )
    assertContains(
        response, f'<link rel="canonical" href="http://testserver/papers/{paper.pk}/">', html=True
    )
    assertContains(
        response,
        '<meta name="citation_title" content="Evicting the KV Cache for Long-Context Inference">',
        html=True,
    )
    assert len(page.find_all("meta", name="citation_author")) == 2
    assertContains(response, '<meta name="citation_publication_date" content="2025">', html=True)
    assertContains(response, '<a href="/topics/efficiency/">efficiency</a>', html=True)
    assert "author = {Ada Lovelace and Alan Turing}" in response.content.decode()
    similar = page.find("a", href=f"/papers/{corpus['cache2'].pk}/")
    assert similar.text == "Quantised KV Cache Compression"
    assert "hidden" in page.find(data_copy_target="bibtex").attrs
    get(client, f"/papers/{paper.pk}-evicting-the-kv-cache/")
    get(client, f"/papers/{paper.pk}/evicting-the-kv-cache/")
    get(client, "/papers/999999/", status=404)
    get(client, "/papers/99999999999999999999999999/", status=404)


def test_derived_title_is_marked(client, corpus):
    response = get(client, f"/papers/{corpus['speech'].pk}/")
    assertContains(
        response,
        '<h1 id="paper-title">Speech recognition systems struggle with accented speech</h1>',
        html=True,
    )
    assertContains(response, '<span class="badge">derived title</span>', html=True)


def test_related_titles_link_when_in_the_collection(client, corpus):
    paper = make_paper(
        "An abstract about parsing.",
        title="Parsing Things",
        related_titles=["Noisy Retrieval Hurts Faithfulness", "A Paper We Do Not Have"],
    )
    finish()
    response = get(client, f"/papers/{paper.pk}/")
    assertContains(
        response,
        f'<a href="/papers/{corpus["retrieval"].pk}/">Noisy Retrieval Hurts Faithfulness</a>',
        html=True,
    )
    assertContains(
        response,
        '<li><a href="/?q=A%20Paper%20We%20Do%20Not%20Have" title="Search for this title">'
        "A Paper We Do Not Have</a></li>",
        html=True,
    )


def test_similar_page(client, corpus):
    # The paper, the similar rows, their cards (with their topics).
    queries, response = count_queries(client, f"/papers/{corpus['kv'].pk}/similar/")
    assert queries == 3
    listed = [link.attrs["href"] for link in card_links(response, heading="h2")]
    assert listed[0] == f"/papers/{corpus['cache2'].pk}/"
    shared = parse(response).find("p", class_="shared")
    # What a reader can check, in words; the score's parts for the curious, after them.
    assert shared.text.startswith("Why: both use “") and "“cache”" in shared.text
    assert "“long-context”" in shared.text  # a joined compound's lexeme as the papers write it
    assert shared.find("span", class_="score-parts").text.startswith("(score: text 0.")
    kv = f"/papers/{corpus['kv'].pk}/"
    assert parse(response).find("a", href=kv).text.startswith("Evicting")  # the heading
    assert kv not in listed
    # Each similar paper names its authors as links to their pages.
    first = parse(response).find("li", class_="card", data_paper_id=str(corpus["cache2"].pk))
    authors = first.find("p", class_="authors").find_all("a")
    assert [(link.text, link.attrs["href"]) for link in authors] == [
        ("Ada Lovelace", "/authors/ada-lovelace/")
    ]
    # And its topics, as tags linking to their pages.
    tags = first.find("ul", class_="tags").find_all("a")
    assert [(link.text, link.attrs["href"]) for link in tags] == [
        ("efficiency", "/topics/efficiency/")
    ]


def test_a_venue_page_says_when_it_was_held_as_far_as_known(client, findings_only):
    facts = parse(get(client, "/venues/acl-2024/")).find("dl", class_="facts")
    pairs = zip(facts.find_all("dt"), facts.find_all("dd"), strict=True)
    assert [(dt.text, dd.text) for dt, dd in pairs] == [
        ("When", "August 2024"),
        ("Volumes", "Findings"),
    ]


def test_a_conference_without_papers_of_its_own_is_listed_without_a_count(client, findings_only):
    [conference] = parse(get(client, "/venues/")).find_all("li", class_="conference")
    assert conference.find("h3").text == "ACL 2024"
    assert conference.find("h3").find_all("a") == []  # its page has no papers to list
    assert conference.find("p", class_="meta").text == (
        "August 2024 · main volume not in the collection"
    )
    [volume] = conference.find("ul", class_="volumes-list").find_all("li")
    assert volume.text == "Findings 1"


def test_a_conference_of_incomplete_records_says_so_on_the_venue_index(client, findings_only):
    # ACL 2025's 32 records from its own pages, abstracts alone, were "32 papers" there, its
    # page saying the collection does not hold these proceedings (an outside researcher); and
    # EMNLP 2025's titles without authors were "untitled records" (another).
    acl = Venue.objects.get(slug="acl-2024")
    make_paper("An abstract alone.", venue=acl)
    make_paper("A title without authors.", title="Titled Alone", venue=acl)
    finish()
    [conference] = parse(get(client, "/venues/")).find_all("li", class_="conference")
    assert conference.find("h3").text == "ACL 2024 2 incomplete records"


def test_venue_pages(client, corpus):
    make_venue("Findings of ACL 2025", 2025, parent=Venue.objects.get(slug="acl-2025"))
    queries, response = count_queries(client, "/venues/")
    assert queries == 1
    series = parse(response).find_all("section", class_="series-block")
    assert [block.find("h2").text for block in series] == ["ACL 3 papers", "EMNLP 2 papers"]
    [acl] = series[0].find_all("li", class_="conference")
    assert acl.find("h3").text == "ACL 2025 3 papers"
    assert acl.find("p", class_="meta").text == "Annual Meeting of the ACL · Vienna"
    [volume] = acl.find("ul", class_="volumes-list").find_all("li")
    assert (volume.find("a").text, volume.find("a").attrs["href"]) == (
        "Findings",
        "/venues/findings-of-acl-2025/",
    )
    assert parse(response).find("main").find_all("table") == []
    queries, response = count_queries(client, "/venues/acl-2025/?q=cache")
    html = response.content.decode()
    # 7 (the list's 4, the venue, its chart, its other volumes); compounds are not looked up:
    # "cache" is one word too short to split in two parts of three letters. +1: the first query since the data changed
    # reads the facet arrays (papers/facet_memory.py). +1: the query's words are read, then
    # their matches (papers/word_memory.py), in place of the facets' statement. +1: few
    # papers match, so a respelling to offer is looked for (papers/spelling.py FEW_MATCHES).
    # +1: one word, looked up as a family name. +1: the venue's records without a title or
    # authors, which the page tells. +1: the words' other forms (papers/word_lookups.py).
    assert queries == 13
    # Named within the conference, as the venue index names them.
    [volume] = parse(response).find("ul", class_="volumes-list").find_all("a")
    assert (volume.text, volume.attrs["href"]) == ("Findings", "/venues/findings-of-acl-2025/")
    bars = parse(response).find("ol", class_="bar-chart").find_all("li")
    assert [bar.text for bar in bars] == [
        "efficiency2 papers",
        "attention1 paper",
        "speech1 paper",
    ]
    # Each bar opens the papers it counts: the venue's on that topic.
    assert [bar.find("a").attrs["href"] for bar in bars] == [
        "/venues/acl-2025/?topic=efficiency",
        "/venues/acl-2025/?topic=attention",
        "/venues/acl-2025/?topic=speech",
    ]
    assert "2 papers" in html
    # A record without a title or authors (an untitled one): the page says so, as it lists it
    # after the others.
    told = parse(response).find("p", class_="incomplete-records")
    assert told.text == (
        "1 of these 3 records has no title or no authors, as the source gave it: listed last."
    )
    Paper.objects.filter(venue__slug="acl-2025").update(title="")
    refresh_counts()
    told = parse(client.get("/venues/acl-2025/")).find("p", class_="incomplete-records")
    assert told.text == (
        "None of these records has a title and authors, as the source gave them: the collection "
        "does not hold these proceedings."
    )
    assert parse(client.get("/venues/emnlp-2024/")).find_all("p", class_="incomplete-records") == []
    get(client, "/venues/nowhere/", status=404)


def test_the_topics_are_listed_by_name_whatever_its_case(client, db):
    for name in ("LLM Safety", "Language Modeling", "attention", "Zero-shot Learning"):
        make_topic(name)
    rows = parse(get(client, "/topics/")).find("tbody").find_all("th")
    assert [row.text for row in rows] == [
        "attention",
        "Language Modeling",
        "LLM Safety",
        "Zero-shot Learning",
    ]


def test_topic_pages_and_redirects(client, corpus):
    assertContains(get(client, "/topics/"), '<a href="/topics/attention/">attention</a>', html=True)
    queries, response = count_queries(client, "/topics/attention/")
    html = response.content.decode()
    # The page's own, and the facets counted in memory: the first page since the data changed
    # reads the papers' facet values (+1, papers/facet_memory.py).
    assert queries == 7
    assert "2 papers" in html
    bars = parse(response).find("ol", class_="bar-chart").find_all("li")
    assert [bar.text for bar in bars] == ["ACL 20251 paper", "EMNLP 20241 paper"]
    assert [bar.find("a").attrs["href"] for bar in bars] == [
        "/topics/attention/?venue=acl-2025",
        "/topics/attention/?venue=emnlp-2024",
    ]
    page = parse(get(client, "/topics/attention/?venue=emnlp-2024"))
    assert page.find("h2", id="results-heading").text.strip() == "1 paper"
    TopicRedirect.objects.create(old_slug="attn", topic=Topic.objects.get(slug="attention"))
    response = get(client, "/topics/attn/", status=301)
    assert response["Location"] == "/topics/attention/"
    response = get(client, "/topics/attn/?venue=acl-2025", status=301)
    assert response["Location"] == "/topics/attention/?venue=acl-2025"
    # A list filtered by the old slug: the same list by the topic's slug now, named and
    # selected as such (and kept once where both are given).
    for path in ["/", "/api/papers/", "/feeds/search/"]:
        response = get(client, f"{path}?topic=attn&q=cache&topic=speech", status=301)
        assert response["Location"] == f"{path}?topic=attention&topic=speech&q=cache"
    response = get(client, "/?topic=attn&topic=attention", status=301)
    assert response["Location"] == "/?topic=attention"
    get(client, "/topics/none-such/", status=404)


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("/venues/ACL-2025/?q=cache", "/venues/acl-2025/?q=cache"),
        ("/topics/Attention/", "/topics/attention/"),
        ("/authors/Ada-Lovelace/?sort=newest", "/authors/ada-lovelace/?sort=newest"),
        ("/feeds/venues/ACL-2025/", "/feeds/venues/acl-2025/"),
        ("/feeds/authors/Ada-Lovelace/", "/feeds/authors/ada-lovelace/"),
    ],
)
def test_a_slug_typed_with_capitals_redirects_to_the_page(client, corpus, typed, address):
    assert get(client, typed, status=301)["Location"] == address
    get(client, address, status=200)


def test_a_capital_whose_small_letter_no_slug_has_is_no_page(client, corpus):
    # "İ" lowercased is "i" and a combining dot, which no slug the loader makes holds: its
    # address is no page (a 404 at the end, never a 500).
    for address in ("/authors/%C4%B0van/", "/feeds/authors/%C4%B0van/"):
        assert client.get(address, follow=True).status_code == 404


def test_a_venues_topic_chart_holds_every_topic_of_its_papers(client, db):
    # Cut at 30 rows, ACL 2024's chart left 16 of its 46 topics out (an outside tester).
    venue = make_venue("ACL 2024", 2024)
    for number in range(32):
        make_paper(f"An abstract {number}.", venue=venue, topics=[f"topic {number:02}"])
    finish()
    chart = parse(get(client, "/venues/acl-2024/")).find("figure", class_="chart-figure")
    assert chart.find("summary").text == "17 more (17 papers)"
    bars = [item.find("a").text for item in chart.find_all("li")]
    assert bars == [f"topic {number:02}" for number in range(32)]


def test_a_venues_and_a_topics_charts_are_disclosures_named_in_one_line(client, corpus):
    """Closed in the HTML: a phone shows their one line (static/css/site.css), a wide screen
    their charts, a venue's welcome letter and an author's venues and co-authors
    (::details-content, and static/js/site.js opens them)."""
    Venue.objects.filter(slug="acl-2025").update(welcome_text="*Welcome* to Vienna.")

    def folds(url):
        return [
            (fold.attrs, fold.find("summary").text, fold.find("summary").find("h2").text)
            for fold in parse(get(client, url)).find_all("details", class_="phone-fold")
        ]

    wide_open = {"class": "phone-fold", "data_wide_open": None}
    assert folds("/venues/acl-2025/") == [
        (wide_open, "Welcome", "Welcome"),
        (wide_open, "Papers per topic", "Papers per topic"),
    ]
    assert folds("/topics/attention/") == [
        (
            wide_open,
            "Share of papers per year 50.0% in 2024, 33.3% in 2025",
            "Share of papers per year",
        ),
        (wide_open, "Papers per venue", "Papers per venue"),
    ]
    # An author's venues and co-authors too: on a phone they pushed the papers a screen down.
    assert folds("/authors/ada-lovelace/") == [
        (wide_open, "Venues", "Venues"),
        (wide_open, "Co-authors", "Co-authors"),
    ]


def test_an_author_page_names_the_name_spaced_otherwise(client, db):
    # "AiTi Aw" (8 papers) and "Ai Ti Aw" (16) did not know of each other: 40 such pairs in the
    # Anthology folder (an outside researcher).
    make_paper("We translate.", title="Translation", authors=["Ai Ti Aw"])
    make_paper("We parse.", title="Parsing", authors=["AiTi Aw"])
    make_paper("We tag.", title="Tagging", authors=["Aiti Awe"])
    finish()
    for page, other in [("ai-ti-aw", "AiTi Aw"), ("aiti-aw", "Ai Ti Aw")]:
        section = parse(get(client, f"/authors/{page}/")).find("section", class_="namesakes")
        assert [a.text for a in section.find_all("a")] == [other]


def test_author_page(client, corpus):
    queries, response = count_queries(client, "/authors/ada-lovelace/")
    # author, namesakes, the name's other forms and its spacings, co-authors, the list's 4 and
    # the author's place in each paper; +1: the papers' facet values, read by the first page
    # that counts since the data changed (papers/facet_memory.py)
    assert queries == 11
    assert "3 papers" in response.content.decode()
    page = parse(response)
    coauthors = page.find("section", aria_labelledby="coauthors-heading").find_all("a")
    assert [(a.text, a.attrs["href"]) for a in coauthors] == [
        ("Alan Turing 1", "/authors/alan-turing/"),
        ("Grace Hopper 1", "/authors/grace-hopper/"),
    ]
    venues = page.find("section", aria_labelledby="venues-heading").find_all("a")
    # Each opens the papers it counts: the author's at that venue.
    assert [(a.text, a.attrs["href"]) for a in venues] == [
        ("ACL 2025 2", "?venue=acl-2025"),
        ("EMNLP 2024 1", "?venue=emnlp-2024"),
    ]
    assert page.find("label", **{"for": "id_q"}).text == "Search these papers"


def test_an_author_page_links_the_pages_of_its_name_written_otherwise(client, corpus):
    # Christopher Manning's papers were on three pages, with and without his middle initial
    # (an outside tester): each page links the others.
    initialled = Author.objects.create(name="Ada K. Lovelace", slug="ada-k-lovelace")
    Authorship.objects.create(paper=corpus["retrieval"], author=initialled, position=3)
    Author.objects.create(name="Ada Lovelace", slug="ada-lovelace-2")  # a namesake: apart

    def other_forms(slug):
        section = parse(client.get(f"/authors/{slug}/")).find(
            "section", aria_labelledby="other-forms-heading"
        )
        return [item.text for item in section.find_all("li")]

    assert other_forms("ada-lovelace") == ["Ada K. Lovelace, 1 paper · 2024 · with Ada Lovelace"]
    assert other_forms("ada-k-lovelace") == [
        "Ada Lovelace, 3 papers · 2024–2025 · with Alan Turing"
    ]
    page = parse(client.get("/authors/grace-hopper/"))
    assert page.find_all("section", aria_labelledby="other-forms-heading") == []
    # Middle names more or less: "Jackie Chi Kit Cheung" (24 papers) and "Jackie Cheung" (15)
    # did not link each other (an outside researcher), nor a double family name its last part.
    named = Author.objects.create(name="Ada Kim Byron Lovelace", slug="ada-kim-byron-lovelace")
    Authorship.objects.create(paper=corpus["kv"], author=named, position=4)
    hyphenated = Author.objects.create(name="Ada-Kim Lovelace", slug="ada-kim-lovelace")
    Authorship.objects.create(paper=corpus["kv"], author=hyphenated, position=5)
    assert other_forms("ada-kim-byron-lovelace") == [
        "Ada Lovelace, 3 papers · 2024–2025 · with Alan Turing",
        "Ada K. Lovelace, 1 paper · 2024 · with Ada Lovelace",
    ]
    assert "Ada Kim Byron Lovelace" in " ".join(other_forms("ada-lovelace"))
    # A hyphenated given name is another: Ada-Kim is not Ada.
    assert "Ada-Kim" not in " ".join(other_forms("ada-lovelace"))


def test_an_author_page_names_its_author_on_every_card(client, db):
    """Cards name their first three authors: on an author's page the author is in bold there,
    or named after them with their place."""
    venue = make_venue()
    others = ["Ann Lee", "Bo Li", "Cy Young", "Di Wu", "Ed Kim"]
    make_paper(
        "Written sixth of six.", title="Sixth", venue=venue, authors=[*others, "Ada Lovelace"]
    )
    make_paper(
        "Written fourth of six.",
        title="Fourth",
        venue=venue,
        authors=[*others[:3], "Ada Lovelace", *others[3:]],
    )
    make_paper("Written first.", title="First", venue=venue, authors=["Ada Lovelace", "Bo Li"])
    make_paper("Written next.", title="Next", venue=venue, authors=[*others[:3], "Ada Lovelace"])
    finish()
    page = parse(get(client, "/authors/ada-lovelace/?sort=title"))
    lines = [p.text for p in page.find_all("p", class_="authors")]
    assert lines == [
        "Ada Lovelace, Bo Li",
        "Ann Lee, Bo Li, Cy Young, Ada Lovelace (4th of 6)",  # nothing left out between
        "Ann Lee, Bo Li, Cy Young, Ada Lovelace",  # every author named
        "Ann Lee, Bo Li, Cy Young, …, Ada Lovelace (6th of 6)",
    ]
    bold = [p.find("strong").text for p in page.find_all("p", class_="authors")]
    assert bold == ["Ada Lovelace"] * 4
    # Elsewhere the cards are as they were.
    elsewhere = [p.text for p in parse(get(client, "/?sort=title")).find_all("p", class_="authors")]
    assert elsewhere[1] == "Ann Lee, Bo Li, Cy Young et al."  # the parser reads the no-break space


def test_a_search_for_an_author_names_them_on_every_card(client, db):
    """A query that is an author's name, and the author filter, name that author on each card
    as their page does: in bold, with their place where the first three leave them out, on
    every page of the list."""
    venue = make_venue()
    others = ["Ann Lee", "Bo Li", "Cy Young", "Di Wu"]
    for number in range(26):
        make_paper(
            f"Paper {number} on parsing.",
            title=f"Parsing {number:02}",
            venue=venue,
            authors=[*others, "Ada Lovelace"],
        )
    make_paper("Not hers.", title="Parsing alone", venue=venue, authors=others)
    finish()

    def lines(url):
        cards = parse(get(client, url)).find_all("p", class_="authors")
        return [(p.text, [b.text for b in p.find_all("strong")]) for p in cards]

    hers = ("Ann Lee, Bo Li, Cy Young, …, Ada Lovelace (5th of 5)", ["Ada Lovelace"])
    assert lines("/?q=Ada+Lovelace") == [hers] * 25
    assert lines("/?q=Ada+Lovelace&page=2") == [hers]
    by_filter = lines("/?author=ada-lovelace&sort=title")
    assert by_filter == [hers] * 25
    # A search that names no one, and papers without the author, are as they were.
    assert lines("/?q=parsing+alone")[0] == ("Ann Lee, Bo Li, Cy Young et al.", [])
    # Their papers (ranked first) and their places are the two queries more than a search
    # that names no one (the authors of a name-like query's name are looked up on every page,
    # found or not).
    named, _ = count_queries(client, "/?q=Ada+Lovelace&page=2")
    unnamed, _ = count_queries(client, "/?q=Ada+parsing&page=2")
    assert named - unnamed == 2


def test_co_authors_sharing_a_name_are_told_apart(client, corpus):
    # Two people named Alan Turing wrote with Ada Lovelace: their chips said the same.
    client.get("/authors/ada-lovelace/")  # what the first page after a change reads
    alone, _ = count_queries(client, "/authors/ada-lovelace/")
    namesake = Author.objects.create(name="Alan Turing", slug="alan-turing-2")
    Authorship.objects.create(paper=corpus["retrieval"], author=namesake, position=3)
    queries, response = count_queries(client, "/authors/ada-lovelace/")
    assert queries == alone + 1  # what tells the namesakes apart
    coauthors = parse(response).find("section", aria_labelledby="coauthors-heading")
    assert [(a.text, a.attrs["href"]) for a in coauthors.find_all("a")] == [
        ("Alan Turing (2025) 1", "/authors/alan-turing/"),
        ("Alan Turing (2024) 1", "/authors/alan-turing-2/"),
        ("Grace Hopper 1", "/authors/grace-hopper/"),
    ]


def test_an_authors_many_coauthors_fold_after_the_first_ten(client, db):
    venue = make_venue()
    names = [f"Coauthor {letter}" for letter in "ABCDEFGHIJKL"]
    for name in names:
        make_paper(f"An abstract written with {name}.", venue=venue, authors=["Ada Lovelace", name])
    finish()
    section = parse(get(client, "/authors/ada-lovelace/")).find(
        "section", aria_labelledby="coauthors-heading"
    )
    shown, folded = section.find_all("ul", class_="tags")
    assert [a.text for a in shown.find_all("a")] == [f"{name} 1" for name in names[:10]]
    # At most 30 co-authors are listed (AuthorQuerySet.coauthors_of): "more", not "all".
    assert section.find("details", class_="tags-more").find("summary").text == "2 more co-authors"
    assert [a.text for a in folded.find_all("a")] == [f"{name} 1" for name in names[10:]]


def test_an_authors_coauthors_beyond_those_listed_are_counted(client, db):
    # "20 more co-authors" read as the whole list; Iryna Gurevych has 252 (an outside
    # researcher).
    venue = make_venue()
    for n in range(33):
        make_paper(
            f"An abstract number {n}.", venue=venue, authors=["Ada Lovelace", f"Co Author{n}"]
        )
    finish()
    section = parse(get(client, "/authors/ada-lovelace/")).find(
        "section", aria_labelledby="coauthors-heading"
    )
    assert section.find("details", class_="tags-more").find("summary").text == (
        "20 more co-authors (of 33 in all: those with most papers shared)"
    )


def test_author_filter_on_the_list(client, corpus):
    html = get(client, "/?author=grace-hopper").content.decode()
    assert "2 papers" in html


def test_markup_in_the_data_is_shown_as_text(client, db):
    paper = make_paper(
        '<script>alert("x")</script> <img src=x onerror=alert(1)> &amp; javascript:alert(1) cache',
        title="<b>Bold</b> cache & co",
        venue=make_venue(),
        topics=["<i>topic</i>"],
    )
    finish()
    for url in ["/", "/?q=cache", f"/papers/{paper.pk}/", "/topics/", "/venues/acl-2025/"]:
        html = get(client, url).content.decode()
        assert "<script>alert" not in html
        assert "<img src=x" not in html
        assert "<b>Bold</b>" not in html
        assert "<i>topic</i>" not in html


def test_no_inline_scripts_or_styles(client, corpus):
    for url in [
        "/",
        "/?q=cache",
        f"/papers/{corpus['kv'].pk}/",
        f"/papers/{corpus['kv'].pk}/similar/",
        "/venues/",
        "/venues/acl-2025/",
        "/topics/",
        "/topics/attention/",
        "/authors/ada-lovelace/",
    ]:
        page = parse(get(client, url))
        assert [script for script in page.find_all("script") if "src" not in script.attrs] == []
        assert page.find_all(style=None) == [] and page.find_all("style") == []
        handlers = [name for node in page.iter() for name in node.attrs if name.startswith("on")]
        assert handlers == [], url


def test_healthz(client, db):
    assert get(client, "/healthz").json() == {"status": "ok"}


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/papers/{pk}/",
        "/papers/{pk}/similar/",
        "/venues/",
        "/venues/acl-2025/",
        "/topics/",
        "/topics/attention/",
        "/authors/ada-lovelace/",
        "/healthz",
    ],
)
def test_pages_answer_get_and_head_only(client, corpus, url):
    url = url.format(pk=corpus["kv"].pk)
    assert client.get(url).status_code == 200
    assert client.head(url).status_code == 200
    for method in ("post", "put", "patch", "delete"):
        response = getattr(client, method)(url)
        assert response.status_code == 405, (method, url)
        assert response["Allow"] == "GET, HEAD"


def test_zero_padded_page_numbers_are_pages(client, corpus):
    many_papers(30, word="zebra")
    finish()
    padded = get(client, "/?q=zebra&page=000000000000002")
    assert padded.context["results"].page == 2
    assert get(client, "/?q=zebra&page=000000000000001").context["results"].page == 1
    response = get(client, "/?q=zebra&page=0000", status=400)
    assert "page must be 1 or more." in response.content.decode()


def test_every_page_names_an_icon_and_favicon_ico_finds_it(client, db):
    page = parse(get(client, "/"))
    [icon] = page.find_all("link", rel="icon")
    assert icon.attrs["href"] == "/static/favicon.svg"
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
    assert finders.find("favicon.svg")


def test_a_quoted_query_is_not_quoted_again_in_the_heading(client, corpus):
    page = parse(client.get('/?q="kv+cache"').content)
    assert page.find("h1").text == "Papers matching “kv cache”"
    page = parse(client.get("/?q=kv+cache").content)
    assert page.find("h1").text == "Papers matching “kv cache”"
    page = parse(client.get('/?q="kv+cache"+eviction').content)
    assert page.find("h1").text == "Papers matching “‘kv cache’ eviction”"


def test_papers_with_some_of_the_words_are_counted_apart(client, corpus):
    page = parse(client.get("/?q=attention+eviction").content)
    assert page.find(id="results-heading").text.strip() == "2 papers with all your words"
    assert page.find(id="partial-heading").text == "More papers with some of your words"


def test_a_venue_page_orders_its_papers_as_its_proceedings(client, corpus):
    page = parse(client.get("/venues/acl-2025/").content)
    options = [option.text for option in page.find("select", id="id_sort").find_all("option")]
    assert options == ["Proceedings order", "Title A–Z"]
    page = parse(client.get("/?venue=acl-2025").content)
    options = [option.text for option in page.find("select", id="id_sort").find_all("option")]
    assert options == ["Newest venue first", "Title A–Z"]


@pytest.mark.parametrize(
    ("query", "notice"),
    [
        (
            "year=2024&year=2025",
            "Only one year can be chosen at a time: the last one given, “2025”, is used.",
        ),
        (
            "q=speech&q=cache",
            "Only one search can be chosen at a time: the last one given, “cache”, is used.",
        ),
        (
            "author=alan-turing&author=ada-lovelace",
            "Only one author can be chosen at a time: the last one given, “ada-lovelace”, is used.",
        ),
        (
            "q=cache&sort=title&sort=newest",
            "Only one order can be chosen at a time: the last one given, “newest”, is used.",
        ),
        (
            "q=cache&page=2&page=1",
            "Only one page can be chosen at a time: the last one given, “1”, is used.",
        ),
    ],
)
def test_a_repeated_single_value_is_said(client, corpus, query, notice):
    page = parse(get(client, "/?" + query))
    assert notice in [p.text for p in page.find_all("p", class_="notice")]
    assert notice in client.get("/api/papers/?" + query).json()["notices"]
    if "sort" in query:
        options = page.find("select", id="id_sort").find_all("option")
        assert [option.attrs["value"] for option in options if "selected" in option.attrs] == [
            "newest"
        ]


def test_a_reading_list_given_twice_is_one_list(client, corpus):
    page = parse(get(client, f"/list/?ids={corpus['kv'].pk}&ids={corpus['speech'].pk}"))
    ids = [item.attrs["data_paper_id"] for item in page.find_all("li", class_="card")]
    assert ids == [str(corpus["kv"].pk), str(corpus["speech"].pk)]


@pytest.mark.parametrize(
    "url, names",
    [
        ("/?q=cache", ["Search and sort"]),
        ("/venues/acl-2025/", ["Site search", "Search and sort"]),
        ("/authors/ada-lovelace/", ["Site search", "Search and sort"]),
    ],
)
def test_each_search_landmark_has_a_name_of_its_own(client, corpus, url, names):
    page = parse(client.get(url).content)
    assert [form.attrs.get("aria_label") for form in page.find_all("form", role="search")] == names


@pytest.mark.parametrize(
    "url, skips",
    [
        ("/?q=cache", ["#main", "#results-heading"]),
        ("/venues/acl-2025/", ["#main", "#results-heading"]),
        ("/topics/attention/", ["#main", "#results-heading"]),
        ("/authors/ada-lovelace/", ["#main", "#results-heading"]),
        ("/venues/", ["#main"]),
    ],
)
def test_a_list_skips_past_its_filters_to_its_results(client, corpus, url, skips):
    # About 60 tabs from the top of /?q=… to the first result, through every facet (an outside
    # researcher).
    page = parse(get(client, url))
    links = page.find_all("a", class_="skip-link")
    assert [link.attrs["href"] for link in links] == skips
    for link in links:
        assert page.find(id=link.attrs["href"][1:]).attrs["tabindex"] == "-1"


def test_title_order_heads_the_records_without_authors_apart(client, db):
    # Sorted A–Z, a titled record without authors came after "Zebras" with no word of why
    # (an outside tester).
    venue = make_venue("ACL 2025", 2025)
    make_paper("About apes.", title="Apes", venue=venue, authors=["Ada Lovelace"])
    make_paper("About zebras.", title="Zebras", venue=venue, authors=["Alan Turing"])
    make_paper("About bees.", title="Bees", venue=venue)
    finish()
    page = parse(get(client, "/?sort=title"))
    lists = page.find_all("ol", class_="result-list")
    assert [[card.find("h3").text for card in ol.find_all("li")] for ol in lists] == [
        ["Apes", "Zebras"],
        ["Bees"],
    ]
    assert lists[1].attrs["start"] == "3"
    assert (
        page.find("h3", class_="records-divider").text == "Records without a title or authors, A–Z"
    )
    # Nor newest first, where ACL 2025's untitled records followed ACL 2020's (an outside
    # researcher: "the newest venues last").
    older = make_venue("ACL 2020", 2020)
    make_paper("About cats.", title="Cats", venue=older, authors=["Grace Hopper"])
    finish()
    page = parse(get(client, "/?sort=newest"))
    lists = page.find_all("ol", class_="result-list")
    assert [[card.find("h3").text for card in ol.find_all("li")] for ol in lists] == [
        ["Apes", "Zebras", "Cats"],
        ["Bees"],
    ]
    divider = page.find("h3", class_="records-divider").text
    assert divider == "Records without a title or authors, newest venue first"
    # Not in the order of relevance.
    assert not parse(get(client, "/?q=about")).find_all("h3", class_="records-divider")
