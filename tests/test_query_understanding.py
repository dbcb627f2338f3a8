"""Query understanding: the order a new query gets, identifiers, author names, partial
matches, corrected spelling, word forms and phrases (pages and API on real PostgreSQL)."""

import json
import xml.etree.ElementTree as ET
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.compounds import fold_compounds, index_compounds, version_apart
from papers.loading import load_files
from papers.models import Author, Authorship, Paper, Venue
from papers.name_keys import umlaut_key
from papers.regional_spelling import other_spelling
from papers.search_notices import NOTHING_AT_ANTHOLOGY_ADDRESS
from papers.understanding import join_compounds
from tests.factories import finish, make_paper, make_venue
from tests.support import parse
from tests.test_migrations import OGUNREMI

pytestmark = pytest.mark.django_db


def form_fields(response) -> dict[str, str]:
    """What the page's search form submits as it stands: inputs, and each select's choice."""
    form = parse(response).find("form", class_="search-form")
    fields = {}
    for node in form.find_all("input"):
        if node.attrs.get("name"):
            fields[node.attrs["name"]] = node.attrs.get("value") or ""
    for select in form.find_all("select"):
        options = select.find_all("option")
        chosen = [option for option in options if "selected" in option.attrs] or options[:1]
        fields[select.attrs["name"]] = chosen[0].attrs.get("value") or ""
    return fields


def titles(response) -> list[str]:
    return [node.find("a").text for node in parse(response).find_all("h3", class_="card-title")]


@pytest.fixture
def attention_paper(corpus):
    paper = make_paper(
        "The transformer relies on attention alone.",
        title="Attention Is All You Need",
        venue=make_venue("NeurIPS 2017", 2017),
    )
    finish()
    return paper


def test_the_home_forms_new_query_is_ranked_by_relevance(client, attention_paper):
    fields = form_fields(client.get("/"))
    assert fields == {"q": ""}
    response = client.get("/?" + urlencode({**fields, "q": "attention"}))
    # Relevance: the title match first, although its venue is the oldest.
    shown = titles(response)
    assert shown[0] == "Attention Is All You Need"
    assert len(shown) == 4


def test_a_sort_chosen_on_a_browse_page_is_dropped_for_a_new_query(client, attention_paper):
    browsing = client.get("/?sort=title")
    fields = form_fields(browsing)
    assert fields == {"q": "", "sort": "title", "sort_q": ""}
    response = client.get("/?" + urlencode({**fields, "q": "attention"}))
    assert titles(response)[0] == "Attention Is All You Need"
    assert form_fields(response) == {"q": "attention", "sort": ""}


def test_a_sort_chosen_for_the_query_is_kept(client, attention_paper):
    fields = form_fields(client.get("/?q=attention"))
    assert fields == {"q": "attention", "sort": ""}
    response = client.get("/?" + urlencode({**fields, "sort": "newest"}))
    assert titles(response)[-1] == "Attention Is All You Need"
    fields = form_fields(response)
    assert fields == {"q": "attention", "sort": "newest", "sort_q": "attention"}
    again = client.get("/?" + urlencode({**fields, "page": "1"}))
    assert titles(again) == titles(response)


def test_a_misspelt_query_shows_the_corrected_results(client, corpus):
    response = client.get("/?q=Evictng+the+KV+cache+for+long+contxt")
    page = parse(response)
    # The page names the query whose results it shows, first; the box keeps what was typed.
    assert page.find("h1").text == "Papers matching “Evicting the KV cache for long context”"
    assert page.find("title").text.startswith("Evicting the KV cache for long context – search")
    [results] = page.find_all("section", class_="results")
    corrected = results.find("p")
    assert corrected.attrs["class"] == "corrected"
    assert corrected.text == (
        "Showing results for “Evicting the KV cache for long context”. "
        "Search instead for “Evictng the KV cache for long contxt”."
    )
    assert corrected.find("a").attrs["href"] == "?q=Evictng+the+KV+cache+for+long+contxt&literal=1"
    assert titles(response)[0] == "Evicting the KV Cache for Long-Context Inference"
    body = client.get("/api/papers/?q=Evictng+the+KV+cache+for+long+contxt").json()
    assert body["corrected_query"] == "Evicting the KV cache for long context"
    assert body["results"][0]["id"] == corpus["kv"].pk
    literal = client.get("/api/papers/?q=Evictng+the+KV+cache+for+long+contxt&literal=1").json()
    assert literal["corrected_query"] is None
    assert literal["count"] == 0


def test_a_respelled_querys_exports_and_feed_hold_the_papers_shown(client, corpus):
    response = client.get("/?q=Evictng+the+KV+cache+for+long+contxt")
    shown = titles(response)
    assert shown[0] == corpus["kv"].title
    exports = parse(response).find("p", class_="exports")
    links = {a.text: a.attrs["href"] for a in exports.find_all("a")}
    assert links["CSL-JSON"] == "?q=Evicting+the+KV+cache+for+long+context&format=csljson"
    assert links["Atom feed"] == "/feeds/search/?q=Evicting+the+KV+cache+for+long+context"
    response = client.get("/" + links["CSL-JSON"])
    items = json.loads(b"".join(response.streaming_content))
    assert sorted(item["title"] for item in items) == sorted(shown)


def test_a_respelling_that_matches_nothing_is_only_suggested(client, corpus):
    response = client.get("/?q=Evictng+yoruba")
    page = parse(response)
    link = page.find("p", class_="suggestion").find("a")
    assert link.text == "Evicting yoruba"
    assert not page.find_all("p", class_="corrected")
    partial = page.find("section", class_="partial")
    assert page.find("h2", class_="results-count").text.strip() == "No paper has all your words"
    assert partial.find("h3").text == "Papers with some of your words"
    assert [a.text for a in partial.find_all("a") if a.attrs["href"].startswith("/papers/")] == [
        "Parallel Data for Yoruba Translation"
    ]


@pytest.fixture
def identified(corpus):
    corpus["kv"].external_id = "2021.naacl-main.463"
    corpus["kv"].doi = "10.18653/v1/2021.naacl-main.463"
    corpus["kv"].save()
    corpus["speech"].external_id = "P19-1001"
    corpus["speech"].save()
    corpus["translation"].doi = "10.1162/TACL_a_00001"
    corpus["translation"].save()
    return corpus


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("2021.naacl-main.463", "kv"),
        ("  2021.NAACL-main.463 ", "kv"),
        ("10.18653/v1/2021.naacl-main.463", "kv"),
        ("https://doi.org/10.18653/v1/2021.naacl-main.463", "kv"),
        ("https://aclanthology.org/2021.naacl-main.463/", "kv"),
        ("https://aclanthology.org/2021.naacl-main.463.pdf", "kv"),
        ("P19-1001", "speech"),
        ("p19-1001", "speech"),
        ("https://aclanthology.org/P19-1001.pdf", "speech"),
        ("10.1162/tacl_a_00001", "translation"),
        # As people paste them: no scheme, a version, the old address, a tracking parameter.
        ("aclanthology.org/2021.naacl-main.463", "kv"),
        ("www.aclanthology.org/2021.naacl-main.463/", "kv"),
        ("doi.org/10.18653/v1/2021.naacl-main.463", "kv"),
        ("https://aclanthology.org/2021.naacl-main.463v2.pdf", "kv"),
        ("2021.naacl-main.463v2", "kv"),
        ("https://www.aclweb.org/anthology/P19-1001/", "speech"),
        ("https://aclanthology.org/2021.naacl-main.463/?utm_source=x", "kv"),
    ],
)
def test_an_identifier_opens_the_paper(client, identified, typed, key):
    paper = identified[key]
    response = client.get("/?" + urlencode({"q": typed}))
    assert response.status_code == 302
    # Its stable address, as its page names it (an outside researcher expected it there).
    assert response["Location"] == paper.get_canonical_url()
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert body["count"] == 1
    assert [result["id"] for result in body["results"]] == [paper.pk]


def test_identifiers_listed_together_list_their_papers(client, identified):
    # Two Anthology IDs pasted together found "no paper with these words" (an outside tester).
    typed = "P19-1001, 10.18653/v1/2021.naacl-main.463 2099.acl-main.1"
    response = client.get("/?" + urlencode({"q": typed}))
    assert response.status_code == 200
    assert titles(response) == [identified["speech"].display_title, identified["kv"].title]
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [result["id"] for result in body["results"]] == [
        identified["speech"].pk,
        identified["kv"].pk,
    ]
    assert body["notices"] == ["The papers of the identifiers given: 2 of 3 name a paper here."]
    exported = client.get("/?" + urlencode({"q": typed, "format": "bibtex"}))
    bibtex = b"".join(exported.streaming_content).decode()
    # The speech paper has no title, which a citation needs.
    assert bibtex.startswith("% 1 paper left out: the source gives no title.")
    assert bibtex.count("@") == 1 and "{lovelace2025evicting" in bibtex
    # One of them known: listed, not opened.
    response = client.get("/?" + urlencode({"q": "P19-1001 2099.acl-main.1"}))
    assert (response.status_code, titles(response)) == (200, [identified["speech"].display_title])


def test_an_unknown_identifier_or_another_sites_address_is_told_not_searched(client, identified):
    response = client.get("/?q=2099.acl-main.1")
    assert response.status_code == 200
    assert "No papers found" in response.content.decode()
    assert [p.text for p in parse(response).find_all("p", class_="notice")] == [
        "No paper with the Anthology ID 2099.acl-main.1 is in this collection. The ACL Anthology "
        "may have it: https://aclanthology.org/2099.acl-main.1/"
    ]
    # Searched as words, addresses found unrelated papers and a respelling of the address (an
    # outside tester): they are told, with nothing listed, exported or fed.
    told = {
        "https://aclanthology.org/2099.acl-main.1/": (
            "No paper with the Anthology ID 2099.acl-main.1 is in this collection. The ACL "
            "Anthology may have it: https://aclanthology.org/2099.acl-main.1/"
        ),
        "https://doi.org/10.1234/xyz": (
            "No paper with the DOI 10.1234/xyz is in this collection: https://doi.org/10.1234/xyz"
        ),
        # An arXiv identifier, which the collection does not keep (searched as words, it
        # listed papers about arXiv: an outside researcher).
        **dict.fromkeys(
            ["arXiv:2307.03172", "2307.03172v2", "arxiv 2307.03172"],
            "This collection knows papers by their Anthology ID or DOI, not by their arXiv "
            "identifier: search for the paper's title, or see https://arxiv.org/abs/2307.03172",
        ),
        # An Anthology address of nothing here, and the Anthology's front page.
        "https://aclanthology.org/people/n/nobody-here/": NOTHING_AT_ANTHOLOGY_ADDRESS,
        "https://aclanthology.org/": NOTHING_AT_ANTHOLOGY_ADDRESS,
        # Another site's address with an Anthology ID in it is not the Anthology's.
        "https://example.org/2021.naacl-main.463": (
            "No paper in this collection gives that address at example.org. Search for the "
            "paper's title, or paste its Anthology ID, DOI or ACL Anthology address."
        ),
    }
    for typed, notice in told.items():
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        assert (body["count"], body["results"], body["suggestion"]) == (0, [], None), typed
        assert body["notices"] == [notice]
        page = parse(client.get("/?" + urlencode({"q": typed})))
        assert [p.text for p in page.find_all("p", class_="notice")] == [notice]
        exported = downloaded(client, "/?" + urlencode({"q": typed, "format": "bibtex"}))
        assert "@" not in exported
        feed = client.get("/feeds/search/?" + urlencode({"q": typed})).content.decode()
        assert "<entry>" not in feed


def downloaded(client, url: str) -> str:
    response = client.get(url)
    return b"".join(response.streaming_content).decode()


@pytest.mark.parametrize("typed", ["2021.naacl-main.463", "10.18653/v1/2021.naacl-main.463"])
def test_the_exports_and_feed_of_an_identifier_hold_its_paper(client, identified, typed):
    """The page opens the paper the query names; its exports and its feed are that paper."""
    bibtex = downloaded(client, "/?" + urlencode({"q": typed, "format": "bibtex"}))
    assert bibtex.count("@inproceedings{") == 1
    assert "title = {Evicting the {KV} Cache for Long-Context Inference}," in bibtex
    ris = downloaded(client, "/?" + urlencode({"q": typed, "format": "ris"}))
    assert ris.count("TY  - ") == 1
    feed = parse(client.get("/feeds/search/?" + urlencode({"q": typed})))
    assert [entry.find("title").text for entry in feed.find_all("entry")] == [
        identified["kv"].title
    ]


def test_papers_by_anthology_id_resolve(client, identified):
    """/papers/<Anthology ID>/ is the paper's page itself, under its stable name."""
    response = client.get("/papers/2021.naacl-main.463/")
    assert response.status_code == 200
    assert parse(response).find("h1").text == identified["kv"].title
    response = client.get("/papers/P19-1001/")
    canonical = parse(response).find("link", rel="canonical").attrs["href"]
    assert canonical == "http://testserver/papers/P19-1001/"
    response = client.get("/papers/p19-1001/")
    assert (response.status_code, response["Location"]) == (301, "/papers/P19-1001/")
    # One version's address (the Anthology's PDFs are "…v2"): 404 before (an outside researcher).
    response = client.get("/papers/2021.naacl-main.463v2/")
    assert (response.status_code, response["Location"]) == (301, "/papers/2021.naacl-main.463/")
    response = client.get("/papers/P19-1001v1/similar/")
    assert response["Location"] == f"/papers/{identified['speech'].pk}/similar/"
    response = client.get("/papers/2099.acl-main.1/")
    assert response.status_code == 404
    # It may be on the Anthology: the page links it there (a bare "not found" before).
    link = parse(response).find("main").find("a")
    assert link.attrs["href"] == "https://aclanthology.org/2099.acl-main.1/"
    # Its similar papers too, in the order asked for.
    response = client.get("/papers/2021.NAACL-main.463/similar/?sort=newest")
    expected = f"/papers/{identified['kv'].pk}/similar/?sort=newest"
    assert (response.status_code, response["Location"]) == (302, expected)
    assert client.get("/papers/2099.acl-main.1/similar/").status_code == 404


def test_the_api_names_a_paper_by_its_anthology_id_too(client, identified):
    assert client.get("/api/papers/2021.NAACL-main.463/").json()["id"] == identified["kv"].pk
    # A version's too, as the page's address (404 before: an outside researcher).
    assert client.get("/api/papers/2021.naacl-main.463v2/").json()["id"] == identified["kv"].pk
    # In as many statements as by its id: the ID is the lookup's condition.
    for path in ("", "similar/"):
        with CaptureQueriesContext(connection) as by_id:
            client.get(f"/api/papers/{identified['kv'].pk}/{path}")
        with CaptureQueriesContext(connection) as by_anthology_id:
            client.get(f"/api/papers/2021.naacl-main.463/{path}")
        assert len(by_anthology_id) == len(by_id)
    body = client.get("/api/papers/p19-1001/similar/?limit=2").json()
    assert len(body["results"]) == 2
    assert identified["speech"].pk not in [result["id"] for result in body["results"]]
    response = client.get("/api/papers/2099.acl-main.1/")
    assert (response.status_code, response.json()) == (
        404,
        {"error": "No paper with id '2099.acl-main.1'."},
    )


def test_a_name_query_offers_the_authors_page(client, corpus):
    namesake = Author.objects.create(name="Ada Lovelace", slug="ada-lovelace-2")
    Authorship.objects.create(paper=corpus["speech"], author=namesake, position=2)
    response = client.get("/?q=ada+LOVELACE")
    section = parse(response).find("section", class_="author-cards")
    assert section.find("h3").text == "Authors named “ada LOVELACE”"
    cards = section.find_all("li")
    # Namesakes side by side say what tells them apart: their years, their first co-author
    # (the commonest; the first of those sharing one paper each).
    assert [(card.find("a").attrs["href"], card.text) for card in cards] == [
        ("/authors/ada-lovelace/", "Ada Lovelace 3 papers · 2024–2025 · with Alan Turing"),
        ("/authors/ada-lovelace-2/", "Ada Lovelace 1 paper · 2025 · with Alan Turing"),
    ]
    namesakes = parse(client.get("/authors/ada-lovelace-2/")).find("section", class_="namesakes")
    assert namesakes.find("li").text == (
        "Ada Lovelace (papers not attributed to one person), 3 papers · 2024–2025 · with Alan Turing"
    )
    alone = parse(client.get("/?q=grace+hopper")).find("section", class_="author-cards")
    assert [card.text for card in alone.find_all("li")] == ["Grace Hopper 2 papers"]
    body = client.get("/api/papers/?q=Ada+Lovel%C3%A0ce").json()
    # The API tells them apart as the cards do.
    assert body["authors"] == [
        {
            "name": "Ada Lovelace",
            "url": "http://testserver/authors/ada-lovelace/",
            "papers": 3,
            "years": "2024–2025",
            "coauthor": "Alan Turing",
        },
        {
            "name": "Ada Lovelace",
            "url": "http://testserver/authors/ada-lovelace-2/",
            "papers": 1,
            "years": "2025",
            "coauthor": "Alan Turing",
        },
    ]
    assert client.get("/api/papers/?q=kv+cache").json()["authors"] == []


def test_a_name_query_offers_the_pages_with_middle_initials_too(client, corpus):
    # The Anthology keeps "Noah A. Smith" apart from "Noah Smith": both are the name asked.
    client.get("/api/papers/?q=Ada+Lovelace")  # what the first page after a change reads
    with CaptureQueriesContext(connection) as one_page:
        client.get("/api/papers/?q=Ada+Lovelace")
    initialled = Author.objects.create(name="Ada K. Lovelace", slug="ada-k-lovelace")
    Authorship.objects.create(paper=corpus["speech"], author=initialled, position=3)
    other = Author.objects.create(name="Ada Kingsley-Lovelace", slug="ada-kingsley-lovelace")
    Authorship.objects.create(paper=corpus["kv"], author=other, position=3)
    with CaptureQueriesContext(connection) as two_pages:
        body = client.get("/api/papers/?q=Ada+Lovelace").json()
    assert [(author["url"], author["papers"]) for author in body["authors"]] == [
        ("http://testserver/authors/ada-lovelace/", 3),
        ("http://testserver/authors/ada-k-lovelace/", 1),
    ]
    assert len(two_pages) == len(one_page)
    # Family name first, as citations write it.
    body = client.get("/api/papers/?q=Lovelace,+Ada").json()
    assert [author["url"] for author in body["authors"]] == [
        "http://testserver/authors/ada-lovelace/",
        "http://testserver/authors/ada-k-lovelace/",
    ]


def test_a_name_query_offers_the_pages_of_the_given_names_other_forms(client, corpus):
    # The Anthology names Daniel Jurafsky "Dan Jurafsky": either name is his.
    dan = Author.objects.create(name="Dan Brightwater", slug="dan-brightwater")
    Authorship.objects.create(paper=corpus["speech"], author=dan, position=3)
    samuel = Author.objects.create(name="Samuel R. Brightwater", slug="samuel-r-brightwater")
    Authorship.objects.create(paper=corpus["kv"], author=samuel, position=3)

    def offered(query):
        body = client.get("/api/papers/", {"q": query}).json()
        return [author["url"].removeprefix("http://testserver") for author in body["authors"]]

    assert offered("Daniel Brightwater") == ["/authors/dan-brightwater/"]
    assert offered("Danny Brightwater") == ["/authors/dan-brightwater/"]
    assert offered("Sam Brightwater") == ["/authors/samuel-r-brightwater/"]
    assert offered("Brightwater, Sam") == ["/authors/samuel-r-brightwater/"]
    assert offered("Christopher Brightwater") == []
    assert offered("Dana Brightwater") == []
    # A generation suffix the query leaves out ("Hal Daume": Hal Daumé III).
    suffixed = Author.objects.create(name="Grace Brightwater III", slug="grace-brightwater-iii")
    Authorship.objects.create(paper=corpus["kv"], author=suffixed, position=4)
    assert offered("Grace Brightwater") == ["/authors/grace-brightwater-iii/"]
    assert offered("Grace Brightwater III") == ["/authors/grace-brightwater-iii/"]


def test_a_name_written_otherwise_searches_its_authors_name(client, corpus):
    # "Daniel Jurafsky" found no paper with all its words, and "Daniel Roth" the papers of
    # another Daniel writing with Dan Roth (a reviewer): the author's name is searched instead.
    dan = Author.objects.create(name="Dan Brightwater", slug="dan-brightwater")
    Authorship.objects.create(paper=corpus["retrieval"], author=dan, position=3)
    daniel = Author.objects.create(name="Daniel Quill", slug="daniel-quill")
    Authorship.objects.create(paper=corpus["kv"], author=daniel, position=3)
    finish()
    body = client.get("/api/papers/?q=Daniel+Brightwater").json()
    assert (body["corrected_query"], body["count"]) == ("Dan Brightwater", 1)
    assert [result["id"] for result in body["results"]] == [corpus["retrieval"].pk]
    page = parse(client.get("/?q=Daniel+Brightwater"))
    assert page.find("p", class_="corrected").text == (
        "Showing results for “Dan Brightwater”. Search instead for “Daniel Brightwater”."
    )
    literal = client.get("/api/papers/?q=Daniel+Brightwater&literal=1").json()
    assert (literal["corrected_query"], literal["count"]) == (None, 0)
    bibtex = client.get("/?q=Daniel+Brightwater&format=bibtex")
    assert b"".join(bibtex.streaming_content).decode().count("@") == 1
    # Every word in an author's name: searched as typed ("Dan Quill" names Daniel Quill, whose
    # name has no "dan"; "Daniel Quill" is his).
    assert client.get("/api/papers/?q=Daniel+Quill").json()["corrected_query"] is None
    assert client.get("/api/papers/?q=Dan+Quill").json()["corrected_query"] == "Daniel Quill"
    assert client.get("/api/papers/?q=kv+cache").json()["corrected_query"] is None


def test_a_name_written_with_initials_searches_its_authors(client, corpus):
    # "Y. Goldberg" and "C. D. Manning", as citations write them, offered no author and ranked
    # papers by a "Y." Chen first (an outside researcher).
    samuel = Author.objects.create(name="Samuel R. Brightwater", slug="samuel-r-brightwater")
    Authorship.objects.create(paper=corpus["kv"], author=samuel, position=3)
    sara = Author.objects.create(name="Sara Brightwater", slug="sara-brightwater")
    Authorship.objects.create(paper=corpus["retrieval"], author=sara, position=3)
    rolf = Author.objects.create(name="Rolf Brightwater", slug="rolf-brightwater")
    Authorship.objects.create(paper=corpus["speech"], author=rolf, position=3)
    finish()

    def offered(query):
        body = client.get("/api/papers/", {"q": query}).json()
        return [author["url"].removeprefix("http://testserver") for author in body["authors"]]

    both = ["/authors/samuel-r-brightwater/", "/authors/sara-brightwater/"]
    for typed in ["S. Brightwater", "S Brightwater", "Brightwater, S.", "Brightwater S."]:
        assert sorted(offered(typed)) == both, typed
    for typed in ["S. R. Brightwater", "S.R. Brightwater", "Brightwater, S.R."]:
        assert sorted(offered(typed)) == both, typed  # a second initial may be left out
    assert offered("R. S. Brightwater") == ["/authors/rolf-brightwater/"]
    assert offered("T. Brightwater") == []
    # Two initials name the middle one: not Samuel X. Brightwater (an outside researcher).
    other = Author.objects.create(name="Samuel X. Brightwater", slug="samuel-x-brightwater")
    Authorship.objects.create(paper=corpus["retrieval"], author=other, position=4)
    assert offered("S. R. Brightwater") == [
        "/authors/samuel-r-brightwater/",
        "/authors/sara-brightwater/",
    ]
    # Initials several authors fit are searched as typed, every one of them offered.
    ambiguous = client.get("/api/papers/?q=S.+Brightwater").json()
    assert ambiguous["corrected_query"] is None and len(ambiguous["authors"]) == 3
    body = client.get("/api/papers/?q=R.+Brightwater").json()
    assert (body["corrected_query"], body["count"]) == ("Rolf Brightwater", 1)
    assert body["results"][0]["id"] == corpus["speech"].pk


def api_address(page_address: str) -> str:
    """The API's address of a list page's, as the API's ``filters`` give it."""
    if "?" in page_address:
        return page_address.replace("/?", "/api/papers/?", 1)
    return "/api/papers/?venue=" + page_address.rstrip("/").rsplit("/", 1)[-1]


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        (
            "kv cache EMNLP 2024",
            [{"label": "EMNLP 2024", "query": "kv cache", "url": "/?q=kv+cache&venue=emnlp-2024"}],
        ),
        ("acl 2025", [{"label": "ACL 2025", "query": "", "url": "/venues/acl-2025/"}]),
        (
            "kv cache 2024",
            [{"label": "2024", "query": "kv cache", "url": "/?q=kv+cache&year=2024"}],
        ),
        ('"acl 2025"', [{"label": "ACL 2025", "query": "", "url": "/venues/acl-2025/"}]),
        # A year that is part of a name or number is no year; two years name none, nor one no
        # paper is of ("context length 2048").
        ("GPT-2024 cache", []),
        ("context length 2048", []),
        ("cache 2023 2024", []),
        ("kv cache", []),
        # A series named without a year: its conferences of every year ("naacl" as a word
        # ranked the few papers saying it first).
        (
            "kv cache emnlp",
            [
                {
                    "label": "EMNLP (2024)",
                    "query": "kv cache",
                    "url": "/?q=kv+cache&venue=emnlp-2024",
                }
            ],
        ),
        ("ACL", [{"label": "ACL (2025)", "query": "", "url": "/?venue=acl-2025"}]),
    ],
)
def test_a_query_naming_a_venue_or_year_is_offered_the_filter(client, corpus, typed, offered):
    Venue.objects.filter(slug="acl-2025").update(acronym="ACL")
    Venue.objects.filter(slug="emnlp-2024").update(acronym="EMNLP")
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert body["filters"] == [
        {
            **named,
            "url": "http://testserver" + named["url"],
            "api_url": "http://testserver" + api_address(named["url"]),
        }
        for named in offered
    ]
    links = parse(client.get("/?" + urlencode({"q": typed}))).find_all("p", class_="named-filters")
    assert [a.attrs["href"] for p in links for a in p.find_all("a")] == [
        named["url"] for named in offered
    ]
    # Not where such a filter is chosen already.
    chosen = client.get("/api/papers/?" + urlencode({"q": typed, "year": 2024})).json()
    assert chosen["filters"] == []


def test_the_filter_offered_keeps_the_other_filters_and_its_page(client, corpus):
    Venue.objects.filter(slug="emnlp-2024").update(acronym="EMNLP")
    body = client.get("/api/papers/?q=cache+2024&author=ada-lovelace").json()
    assert [named["url"] for named in body["filters"]] == [
        "http://testserver/?q=cache&author=ada-lovelace&year=2024"
    ]
    # A venue's, topic's or author's page offers none: its links would leave it.
    page = parse(client.get("/authors/ada-lovelace/?q=cache+EMNLP+2024"))
    assert page.find_all("p", class_="named-filters") == []


@pytest.mark.parametrize(
    ("typed", "redirected"),
    [
        ("Ada Lovelace 2024", "/?q=Ada+Lovelace&year=2024"),
        ("2025 ada lovelace", "/?q=ada+lovelace&year=2025"),
        # Grace Hopper has no paper of 2025; "kv cache" names nobody.
        ("Grace Hopper 2025", None),
        ("kv cache 2024", None),
        # A venue named beside the name: the author's papers there.
        ("ada lovelace acl 2025", "/?q=ada+lovelace&venue=acl-2025"),
        ("Grace Hopper ACL 2025", None),
        # The family name of one author: their papers ("Jurafsky 2023" found nothing; "Manning"
        # searched as a word in 2024 found mostly "man").
        ("Lovelace 2024", "/?author=ada-lovelace&year=2024"),
        ("Hopper 2025", None),
    ],
)
def test_an_authors_name_and_a_year_opens_their_papers_of_that_year(
    client, corpus, typed, redirected
):
    # "Yoav Goldberg 2023" searched the year as a word: no paper had it (an outside tester).
    response = client.get("/?" + urlencode({"q": typed}))
    assert (response.status_code, response.get("Location")) == (
        (302, redirected) if redirected else (200, None)
    )


def test_the_export_and_feed_of_a_name_and_a_year_are_those_of_the_list_it_opens(client, corpus):
    # Their page listed his papers of 2023; its BibTeX and its feed had none (an outside tester).
    response = client.get("/?q=Ada+Lovelace+2024&format=bibtex")
    assert (response.status_code, response["Location"]) == (
        302,
        "/?q=Ada+Lovelace&year=2024&format=bibtex",
    )
    exported = b"".join(client.get(response["Location"]).streaming_content).decode()
    assert exported.count("@") == 1 and "Noisy Retrieval Hurts Faithfulness" in exported
    response = client.get("/feeds/search/?q=Ada+Lovelace+2024")
    assert (response.status_code, response["Location"]) == (
        302,
        "/feeds/search/?q=Ada+Lovelace&year=2024",
    )
    feed = ET.fromstring(client.get(response["Location"]).content)
    entries = feed.findall("{http://www.w3.org/2005/Atom}entry")
    assert [e.find("{http://www.w3.org/2005/Atom}title").text for e in entries] == [
        "Noisy Retrieval Hurts Faithfulness"
    ]


def test_a_name_and_a_year_is_searched_as_typed_where_asked_or_narrowed_already(client, corpus):
    typed = {"q": "Ada Lovelace 2024"}
    for params in ({"literal": 1}, {"year": 2025}, {"venue": "acl-2025"}):
        assert client.get("/?" + urlencode(typed | params)).status_code == 200
    assert client.get("/authors/ada-lovelace/?" + urlencode(typed)).status_code == 200
    # The API answers as the list page does (it gave the partial matches of the year's word).
    response = client.get("/api/papers/?" + urlencode(typed))
    assert response.get("Location") == "/api/papers/?q=Ada+Lovelace&year=2024"
    literal = client.get("/api/papers/?" + urlencode(typed | {"literal": 1})).json()
    assert [named["api_url"] for named in literal["filters"]] == [
        "http://testserver/api/papers/?q=Ada+Lovelace&year=2024"
    ]


@pytest.mark.parametrize(
    ("typed", "rest"),
    [("Ada Lovelace kv cache", "kv cache"), ("eviction policy ada lovelace", "eviction policy")],
)
def test_a_name_at_either_end_of_a_query_offers_the_author_and_their_papers(
    client, corpus, typed, rest
):
    # "Percy Liang evaluation" offered nobody (an outside tester).
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [author["name"] for author in body["authors"]] == ["Ada Lovelace"]
    assert body["filters"] == [
        {
            "label": "Ada Lovelace’s papers",
            "query": rest,
            "url": "http://testserver/?" + urlencode({"q": rest, "author": "ada-lovelace"}),
            "api_url": "http://testserver/api/papers/?"
            + urlencode({"q": rest, "author": "ada-lovelace"}),
        }
    ]
    page = parse(client.get("/?" + urlencode({"q": typed})))
    assert (
        page.find("p", class_="named-filters").text
        == f"Search “{rest}” in Ada Lovelace’s papers only"
    )
    cards = page.find(class_="author-cards")
    assert cards.find("h3").text == f"Author named in “{typed}”"
    assert [a.text for a in cards.find_all("a")] == ["Ada Lovelace"]
    # Sorted otherwise, the same (they went: an outside tester).
    sorted_body = client.get("/api/papers/?" + urlencode({"q": typed, "sort": "newest"})).json()
    assert [author["name"] for author in sorted_body["authors"]] == ["Ada Lovelace"]
    assert sorted_body["filters"] == body["filters"]


def test_a_query_whose_ends_are_no_family_name_looks_for_no_author(client, corpus):
    client.get("/?q=long+context+cache")  # the facet memory read, and its family words
    with CaptureQueriesContext(connection) as context:
        body = client.get("/api/papers/?q=long+context+cache").json()
    assert (body["authors"], body["filters"]) == ([], [])
    # AuthorQuerySet.named reads the redirects of slugs: the whole query's name alone was
    # looked up, not its ends'.
    looked_up = [q["sql"] for q in context.captured_queries if "papers_authorredirect" in q["sql"]]
    assert len(looked_up) == 1 and "'long-context-cache'" in looked_up[0]
    # Nor where the query is filtered by an author already, or is past its first page.
    body = client.get("/api/papers/?q=Ada+Lovelace+kv+cache&author=grace-hopper").json()
    assert (body["authors"], body["filters"]) == ([], [])


def test_a_fields_name_before_the_words_is_left_out_and_said(client, corpus):
    # "author:jurafsky" found one paper saying "author", and nothing said why (an outside
    # tester).
    body = client.get("/api/papers/?q=author:lovelace+title:cache").json()
    assert body["count"] == 2
    assert [author["name"] for author in body["authors"]] == []
    assert body["notices"] == [
        "Fields are not searched apart: “author:” and “title:” left out, the words are searched "
        "in titles, abstracts and authors' names; the filters narrow by author, venue, topic "
        "and year."
    ]
    form = form_fields(client.get("/?q=author:lovelace+title:cache"))
    assert form["q"] == "lovelace cache"
    # Only as a field's name: an address or a word ending so is searched as typed.
    assert client.get("/api/papers/?q=coauthor:lovelace").json()["notices"] == []


def test_a_venue_named_in_full_is_offered_not_the_venue_inside_its_name(client, corpus):
    # "Findings of EMNLP 2024" offered "Findings of" searched in EMNLP 2024 (an outside tester).
    emnlp = Venue.objects.get(slug="emnlp-2024")
    findings = make_venue("Findings of EMNLP 2024", 2024, parent=emnlp, acronym="EMNLP")
    body = client.get("/api/papers/?" + urlencode({"q": "findings of EMNLP 2024  cache"})).json()
    assert body["filters"] == [
        {
            "label": "Findings of EMNLP 2024",
            "query": "cache",
            "url": f"http://testserver/?q=cache&venue={findings.slug}",
            "api_url": f"http://testserver/api/papers/?q=cache&venue={findings.slug}",
        }
    ]


def test_the_filter_offered_reads_the_page_text(client, corpus):
    Venue.objects.filter(slug="emnlp-2024").update(acronym="EMNLP")
    named = parse(client.get("/?q=cache+emnlp+2024")).find("p", class_="named-filters")
    assert named.text == "Search “cache” in EMNLP 2024 only"


@pytest.mark.parametrize(
    ("typed", "location"),
    [
        ("https://aclanthology.org/people/a/ada-lovelace/", "/authors/ada-lovelace/"),
        ("aclanthology.org/people/ada-lovelace", "/authors/ada-lovelace/"),
        ("https://aclanthology.org/volumes/2025.acl-long/", "/venues/acl-2025/"),
        ("https://aclanthology.org/events/emnlp-2024/", "/venues/emnlp-2024/"),
    ],
)
def test_an_anthology_page_address_opens_ours(client, corpus, typed, location):
    Venue.objects.filter(slug="acl-2025").update(external_id="2025.acl-long")
    response = client.get("/?" + urlencode({"q": typed}))
    assert (response.status_code, response["Location"]) == (302, location)
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert (body["count"], body["results"], body["suggestion"]) == (0, [], None)
    assert body["notices"][0].endswith(f"here: {location}")


def test_an_anthology_page_address_exports_and_feeds_the_page_s_papers(client, corpus):
    address = "https://aclanthology.org/people/a/ada-lovelace/"
    response = client.get("/?" + urlencode({"q": address, "format": "bibtex"}))
    assert (response.status_code, response["Location"]) == (
        302,
        "/authors/ada-lovelace/?format=bibtex",
    )
    assert b"".join(client.get(response["Location"]).streaming_content).count(b"@") == 3
    response = client.get("/feeds/search/?" + urlencode({"q": address}))
    assert (response.status_code, response["Location"]) == (302, "/feeds/authors/ada-lovelace/")
    response = client.get("/feeds/search/?q=https://aclanthology.org/events/emnlp-2024/")
    assert (response.status_code, response["Location"]) == (302, "/feeds/venues/emnlp-2024/")


def test_an_anthology_page_address_of_nothing_here_is_searched_as_text(client, corpus):
    response = client.get("/?q=https://aclanthology.org/people/n/nobody-here/")
    assert response.status_code == 200
    assert "No papers found" in response.content.decode()


def test_a_family_name_alone_offers_its_few_authors_without_reranking(client, db):
    venue = make_venue("ACL 2024", 2024)
    ranked = make_paper("Bird song as language.", title="Bird Song Parsing", venue=venue)
    written = make_paper(
        "Language documentation in the field.", title="Field Work", authors=["Steven Bird"]
    )
    make_paper("A bird's eye view of parsing.", title="Parsing", authors=["Ann Gurevych"])
    Author.objects.filter(name="Ann Gurevych").update(family_name="Gurevych")
    for given in ["Li", "Wei", "Yu", "Bo", "Jie", "Min"]:
        make_paper(f"Study by {given}.", title=f"Study {given}", authors=[f"{given} Zhang"])
    finish()

    def cards(query):
        body = client.get("/api/papers/?" + urlencode({"q": query})).json()
        return [(author["name"], author["papers"]) for author in body["authors"]]

    # The family name the source told, or the name's last word.
    assert cards("gurevych") == [("Ann Gurevych", 1)]
    assert cards("Bird") == [("Steven Bird", 1)]
    # Offered, not ranked first: the word may mean what it says.
    body = client.get("/api/papers/?q=bird").json()
    ids = [r["id"] for r in body["results"]]
    assert ids[0] == ranked.pk and written.pk in ids[1:]
    section = parse(client.get("/?q=Bird")).find("section", class_="author-cards")
    assert [card.find("a").text for card in section.find_all("li")] == ["Steven Bird"]
    # Six authors named Zhang: too common a name to offer anyone.
    assert cards("Zhang") == []
    assert cards("parsing") == []


def authors_with_family_names(*named: tuple[str, str]) -> None:
    """A paper by each (name, family name the source told)."""
    for name, family in named:
        make_paper(f"A study by {name}.", title=f"Study of {name}", authors=[name])
        Author.objects.filter(name=name).update(family_name=family)
    finish()


def offered_authors(client, query: str) -> list[str]:
    body = client.get("/api/papers/?" + urlencode({"q": query})).json()
    return [author["name"] for author in body["authors"]]


def test_a_family_name_alone_offers_its_authors_written_with_a_generation_suffix(client, db):
    # "Daumé" offered nobody: the Anthology writes his family name "Daumé III".
    authors_with_family_names(("Hal Daumé III", "Daumé III"), ("Ann Lee Jr.", "Lee Jr."))
    assert offered_authors(client, "Daumé") == ["Hal Daumé III"]
    assert offered_authors(client, "Daume") == ["Hal Daumé III"]
    assert offered_authors(client, "Lee") == ["Ann Lee Jr."]
    assert offered_authors(client, "Hal") == []


def test_a_family_name_is_offered_its_authors_with_either_apostrophe(client, db):
    # The Anthology writes "O’Connor": "O'Connor" typed offered nobody (an outside tester).
    authors_with_family_names(("Brendan O’Connor", "O’Connor"), ("Ann D'Souza", "D'Souza"))
    assert offered_authors(client, "O'Connor") == offered_authors(client, "O’Connor")
    assert offered_authors(client, "O'Connor") == ["Brendan O’Connor"]
    assert offered_authors(client, "D’Souza") == ["Ann D'Souza"]


def test_a_family_name_with_particles_offers_its_authors(client, db):
    # "van der Goot" and "de Melo" offered nobody: only one word was read as a family name.
    authors_with_family_names(("Rob van der Goot", "van der Goot"), ("Gerard de Melo", "de Melo"))
    assert offered_authors(client, "van der Goot") == ["Rob van der Goot"]
    assert offered_authors(client, "Van  Der goot") == ["Rob van der Goot"]
    assert offered_authors(client, "de Melo") == ["Gerard de Melo"]
    assert offered_authors(client, "study Goot") == offered_authors(client, "der") == []


def test_a_name_with_combining_marks_is_found_with_or_without_them(client, db):
    # NFC keeps the acute of "ẹ́" apart: "Ogunremi" found nothing, and the name typed as
    # written offered nobody (an outside tester).
    kola, tolulope = "K\u1ecd\u0301l\u00e1 T\u00fab\u1ecd\u0300s\u00fan", OGUNREMI
    make_paper("Yoruba speech.", title="Yoruba Speech", authors=[kola, tolulope])
    finish()
    for typed in ["Ogunremi", "Tolulope Ogunremi", tolulope]:
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        assert (body["count"], offered_authors(client, typed)) == (1, [tolulope])
    assert offered_authors(client, kola) == offered_authors(client, "Tubosun") == [kola]


def test_a_family_name_typed_without_its_accents_or_umlauts_offers_its_authors(client, db):
    for name in ["Ivan Vulić", "Hinrich Schütze", "Ann Baur", "Brendan O’Connor"]:
        make_paper(f"A study by {name}.", title=f"Study of {name}", authors=[name])
    schuetze = Author.objects.get(name="Hinrich Schütze")
    Author.objects.filter(pk=schuetze.pk).update(umlaut_key=umlaut_key(schuetze.name))
    finish()

    def cards(query, **more):
        body = client.get("/api/papers/?" + urlencode({"q": query, **more})).json()
        return [author["name"] for author in body["authors"]]

    assert cards("Vulic") == cards("Vulić") == cards("VULIC") == ["Ivan Vulić"]
    assert cards("Schuetze") == cards("Schutze") == cards("Schütze") == ["Hinrich Schütze"]
    # Read as umlauts written out only for names that have umlauts: "Bauer" is not Baur (as
    # typed; respelled, its results are Baur's, and so is the author offered).
    assert cards("Bauer", literal=1) == []
    assert cards("Bauer") == ["Ann Baur"]
    assert cards("Baur") == ["Ann Baur"]
    # An apostrophe as the name writes it (the index keeps it).
    assert cards("O’Connor") == ["Brendan O’Connor"]


@pytest.mark.parametrize(
    ("literal", "corrected"),
    [("1", None), ("true", None), ("0", "evicting kv cache"), ("false", "evicting kv cache")],
)
def test_literal_is_on_only_when_said(client, corpus, literal, corrected):
    query = "/api/papers/?q=what+is+the+best+method+for+evicting+the+kv+cache%3F&literal=" + literal
    assert client.get(query).json()["corrected_query"] == corrected


def test_a_question_is_searched_for_its_subject(client, corpus):
    query = "/?q=what+is+the+best+method+for+evicting+the+kv+cache%3F"
    body = client.get("/api/papers" + query).json()
    assert (body["count"], body["corrected_query"]) == (2, "evicting kv cache")
    assert [(r["id"], r["partial"]) for r in body["results"]] == [
        (corpus["kv"].pk, False),
        (corpus["cache2"].pk, False),
    ]
    corrected = parse(client.get(query)).find("p", class_="corrected")
    assert corrected.text == (
        "Showing results for “evicting kv cache”. Search instead for "
        "“what is the best method for evicting the kv cache?”."  # as typed
    )
    assert corrected.find("a").attrs["href"] == (
        "?q=what+is+the+best+method+for+evicting+the+kv+cache%3F&literal=1"
    )


def test_the_state_of_the_art_asked_for_is_no_subject(client, corpus):
    # "state art kv cache" found nothing: the search drops the second "the" before the
    # question is read (an outside researcher asked so of sarcasm detection).
    body = client.get("/api/papers/?q=what+is+the+state+of+the+art+in+kv+cache%3F").json()
    assert (body["count"], body["corrected_query"]) == (2, "kv cache")


def test_a_question_for_an_authors_papers_offers_the_author(client, corpus):
    body = client.get("/api/papers/?q=papers+by+Ada+Lovelace%3F").json()
    assert body["corrected_query"] == "Ada Lovelace"
    assert [author["name"] for author in body["authors"]] == ["Ada Lovelace"]


def test_a_questions_exports_and_feed_search_its_subject(client, corpus):
    query = "q=what+is+the+best+method+for+evicting+the+kv+cache%3F"
    ris = b"".join(client.get(f"/?{query}&format=ris").streaming_content).decode()
    assert ris.count("TY  - ") == 2
    feed = parse(client.get(f"/feeds/search/?{query}"))
    assert len(feed.find_all("entry")) == 2
    assert feed.find("title").text == "New papers: “evicting kv cache” · Paper browser"


def test_a_title_asked_word_for_word_is_not_read_as_a_question(client, corpus):
    asked = make_paper(
        "Probing what models know.", title="What Do Models Know?", authors=["Ann Lee"]
    )
    opened = make_paper(
        "Forgetting in models.", title="How Can Models Forget? A Study", authors=["Bo Li"]
    )
    repeated = make_paper(
        "Probing multilingual encoders.",
        title="How Multilingual is Multilingual BERT?",
        authors=["Eva Park"],
    )
    finish()
    # The title as it is, without its "?", and the opening of a title: each is searched as
    # typed ("Models Know" and "Models Forget" alone, before: the asking words left out).
    for typed, paper in [
        ("What Do Models Know?", asked),
        ("what do models know", asked),
        ("How can models forget", opened),
        # Its repeated word kept: the words searched have it once.
        ("How multilingual is multilingual BERT?", repeated),
    ]:
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        assert body["corrected_query"] is None, typed
        assert [r["id"] for r in body["results"] if not r["partial"]] == [paper.pk]
    # A question that is no title's opening is read for its subject.
    body = client.get("/api/papers/?q=how+can+models+know").json()
    assert body["corrected_query"] == "models"


def test_a_question_as_typed_gets_the_papers_matching_most_of_its_words(client, corpus):
    # "best" and "method" are in no paper: nothing matches every word; the papers with two
    # or more of the rest follow, the rarer words and words in the title weighing more.
    query = "/?q=what+is+the+best+method+for+evicting+the+kv+cache%3F&literal=1"
    body = client.get("/api/papers" + query).json()
    assert body["count"] == 0
    assert [(r["id"], r["partial"]) for r in body["results"]] == [
        (corpus["kv"].pk, True),
        (corpus["cache2"].pk, True),
    ]
    page = parse(client.get(query))
    assert page.find("h2", class_="results-count").text.strip() == "No paper has all your words"
    partial = page.find("section", class_="partial")
    assert partial.find("h3").text == "Papers with some of your words"
    assert [title.find("a").text for title in partial.find_all("h3", class_="card-title")] == [
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
    ]


@pytest.fixture
def gender_bias(db):
    """Nine papers on machine translation alone, then the gender-bias papers: the oldest
    papers first, as an index scan finds them."""
    old = make_venue("ACL 2020", 2020)
    for n in range(9):
        make_paper(f"Machine translation with more data, part {n}.", title=f"NMT {n}", venue=old)
    papers = {
        "abstract": make_paper(
            "Gender bias in machine translation, measured.",
            title="Measuring Translation",
            venue=old,
        ),
        "title": make_paper(
            "A survey of the field.",
            title="Gender Bias in Machine Translation",
            venue=make_venue("TACL 2021", 2021),
        ),
        "newer": make_paper(
            "Gender bias in machine translation, measured again.",
            title="Measuring Translation Again",
            venue=make_venue("ACL 2024", 2024),
        ),
    }
    finish()
    return papers


def test_partial_matches_are_the_best_of_the_whole_collection(client, gender_bias, monkeypatch):
    """Every paper is scored: the one with every rare word in its title first, then those
    with them in their abstracts (the newest first), then those with the common words only.
    In SQL only the first PARTIAL_CAP papers the index scan finds are scored."""
    query = "/api/papers/?q=which+papers+study+gender+bias+in+machine+translation&literal=1"
    body = client.get(query).json()
    assert body["count"] == 0
    partial = [r["id"] for r in body["results"] if r["partial"]]
    assert partial[:3] == [gender_bias[k].pk for k in ("title", "newer", "abstract")]
    assert len(partial) == 12
    monkeypatch.setattr("papers.search.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.recall.PARTIAL_CAP", 3)
    in_sql = [r["id"] for r in client.get(query).json()["results"] if r["partial"]]
    assert len(in_sql) == 3  # the first PARTIAL_CAP the index scan finds, whichever they are


def results_in_memory_and_in_sql(client, query: str, monkeypatch) -> tuple[list, list]:
    """The API's results for ``query`` as the memory ranks them, then as SQL alone does."""
    in_memory = client.get(query).json()["results"]
    monkeypatch.setattr("papers.search.matched_query", lambda *args: None)
    monkeypatch.setattr("papers.page_matches.matched_query", lambda *args: None)
    return in_memory, client.get(query).json()["results"]


def test_partial_matches_score_alike_in_memory_and_in_sql(client, gender_bias, monkeypatch):
    query = "/api/papers/?q=gender+bias+machine+translation+survey+yoruba"
    in_memory, in_sql = (
        [(r["id"], r["score"]) for r in results]
        for results in results_in_memory_and_in_sql(client, query, monkeypatch)
    )
    assert [pk for pk, _ in in_memory[:3]] == [
        gender_bias[k].pk for k in ("title", "newer", "abstract")
    ]
    assert [pk for pk, _ in in_sql[:3]] == [
        gender_bias[k].pk for k in ("title", "abstract", "newer")
    ]
    assert [score for _, score in in_memory[:3]] == [score for _, score in in_sql[:3]]
    # A share of the most a paper could score: never read as a full match's score.
    assert all(0 < score <= 1 for _, score in in_memory + in_sql)


def test_partial_matches_leave_out_the_words_naming_a_venue_offered(client, db):
    # "emnlp 2023 sarcasm" listed papers saying "EMNLP 2023", none about sarcasm, below the
    # link to sarcasm in EMNLP 2023 (an outside researcher).
    emnlp = make_venue("EMNLP 2023", 2023)
    make_paper("Notes from EMNLP 2023 in Singapore.", title="Conference Notes", venue=emnlp)
    sarcasm = make_paper(
        "Detecting sarcasm in tweets.",
        title="Sarcasm Detection",
        venue=make_venue("ACL 2024", 2024),
    )
    finish()
    body = client.get("/api/papers/?q=emnlp+2023+sarcasm").json()
    assert (body["count"], [f["query"] for f in body["filters"]]) == (0, ["sarcasm"])
    assert [(r["id"], r["partial"]) for r in body["results"]] == [(sarcasm.pk, True)]
    # The venue's words as the index holds them: "findings" is 'find' (a reviewer).
    findings = make_venue("Findings of ACL 2023", 2023)
    make_paper("Findings from ACL 2023 reviewing.", title="Reviewing Notes", venue=findings)
    finish()
    body = client.get("/api/papers/?q=findings+of+acl+2023+sarcasm").json()
    assert [(r["id"], r["partial"]) for r in body["results"]] == [(sarcasm.pk, True)]


def test_a_query_naming_a_venue_no_paper_has_all_words_of_opens_its_words_there(client, db):
    # "EMNLP 2023 hallucination" showed "No paper has all your words" above hallucination
    # papers of other years (an outside researcher): its words in EMNLP 2023 are what it asks.
    emnlp = make_venue("EMNLP 2023", 2023)
    make_paper("Detecting sarcasm in tweets.", title="Sarcasm Detection", venue=emnlp)
    make_paper("Sarcasm in reviews.", title="Sarcastic Reviews", venue=make_venue("ACL 2024", 2024))
    finish()
    response = client.get("/?q=emnlp+2023+sarcasm")
    assert (response.status_code, response["Location"]) == (302, "/?q=sarcasm&venue=emnlp-2023")
    response = client.get("/api/papers/?q=sarcasm+EMNLP+2023")
    assert response["Location"] == "/api/papers/?q=sarcasm&venue=emnlp-2023"
    # Its export and feed follow the page.
    response = client.get("/?q=emnlp+2023+sarcasm&format=ris")
    assert response["Location"] == "/?q=sarcasm&venue=emnlp-2023&format=ris"
    response = client.get("/feeds/search/?q=emnlp+2023+sarcasm")
    assert response["Location"] == "/feeds/search/?q=sarcasm&venue=emnlp-2023"
    # Not as typed, nor where no paper there has the other words.
    assert client.get("/?q=emnlp+2023+sarcasm&literal=1").status_code == 200
    assert client.get("/?q=emnlp+2023+irony").status_code == 200


def test_a_conference_named_opens_its_words_in_all_its_volumes(client, db):
    # "ACL 2023 hallucination" opened the main volume's 14 papers where the front page's
    # "ACL 2023" counts its Findings and other volumes too, 30 papers (an outside researcher).
    acl = make_venue("ACL 2023", 2023)
    findings = make_venue("Findings of ACL 2023", 2023, parent=acl)
    demos = make_venue("ACL 2023 Demos", 2023, parent=acl)
    make_paper("Detecting hallucination.", title="Hallucination", venue=acl)
    make_paper("Hallucination in summaries.", title="Unfaithful Summaries", venue=findings)
    make_paper("A hallucination demo.", title="Demo", venue=demos)
    make_paper("Hallucination again.", title="Later", venue=make_venue("ACL 2024", 2024))
    finish()
    expected = "/?q=hallucination&venue=acl-2023&venue=acl-2023-demos&venue=findings-of-acl-2023"
    response = client.get("/?q=ACL+2023+hallucination")
    assert (response.status_code, response["Location"]) == (302, expected)
    assert client.get(expected).context["results"].count == 3
    # A volume named is that volume alone.
    response = client.get("/?q=findings+of+ACL+2023+hallucination")
    assert response["Location"] == "/?q=hallucination&venue=findings-of-acl-2023"
    # Offered with the query as typed, the filter says what it holds.
    page = parse(client.get("/?q=ACL+2023+hallucination&literal=1"))
    offered = page.find("p", class_="named-filters").find("a")
    assert offered.text == "Search “hallucination” in ACL 2023 and its other volumes only"
    assert offered.attrs["href"] == expected
    # Named alone, it is offered all its volumes' papers, not the main volume's page.
    offered = parse(client.get("/?q=ACL+2023")).find("p", class_="named-filters").find("a")
    assert offered.text == "All papers of ACL 2023 and its other volumes"
    assert (
        offered.attrs["href"] == "/?venue=acl-2023&venue=acl-2023-demos&venue=findings-of-acl-2023"
    )
    # A venue without other volumes is its page.
    offered = parse(client.get("/?q=ACL+2024")).find("p", class_="named-filters").find("a")
    assert (offered.text, offered.attrs["href"]) == ("All papers of ACL 2024", "/venues/acl-2024/")


def test_a_query_naming_a_venue_opens_its_words_there_where_more_papers_have_them(client, db):
    # "summarization EMNLP 2023" listed the one paper whose abstract says "EMNLP 2023" (of
    # EMNLP 2024) where EMNLP 2023 has 63 papers on summarization (an outside researcher).
    emnlp = make_venue("EMNLP 2023", 2023)
    for n in range(2):
        make_paper(f"Summarization of news {n}.", title=f"Summaries {n}", venue=emnlp)
    make_paper(
        "Summarization results after EMNLP 2023.",
        title="Summaries Revisited",
        venue=make_venue("EMNLP 2024", 2024),
    )
    make_paper("Dialogue after EMNLP 2023.", title="Dialogue", venue=make_venue("ACL 2024", 2024))
    make_paper("Dialogue systems.", title="Dialogue Systems", venue=emnlp)
    finish()
    response = client.get("/?q=summarization+EMNLP+2023")
    assert response["Location"] == "/?q=summarization&venue=emnlp-2023"
    response = client.get("/?q=summarization+EMNLP+2023&format=bibtex")
    assert response["Location"] == "/?q=summarization&venue=emnlp-2023&format=bibtex"
    # As many papers have every word typed as the venue has of the others: as typed.
    body = client.get("/api/papers/?q=dialogue+EMNLP+2023").json()
    assert (body["count"], body["results"][0]["title"]) == (1, "Dialogue")
    # A year alone is often a task's or a dataset's: the papers naming it stay (a reviewer).
    make_paper("We enter the SemEval 2022 task.", title="Shared Task Entry", venue=emnlp)
    for n in range(2):
        make_paper(f"A SemEval task {n}.", title=f"Task {n}", venue=make_venue(f"ACL {n}", 2022))
    finish()
    body = client.get("/api/papers/?q=SemEval+2022+task").json()
    assert [r["title"] for r in body["results"] if not r["partial"]] == ["Shared Task Entry"]


def test_partial_matches_of_an_author_named_put_their_papers_on_the_subject_first(client, db):
    # "Iryna Gurevych argument mining" listed her papers on anything and a paper citing her
    # before her papers on argument generation (an outside researcher).
    venue = make_venue("ACL 2024", 2024)
    on_subject = make_paper(
        "We generate arguments.", title="Argument Generation", venue=venue, authors=["Ada Lovelace"]
    )
    make_paper("We caption images.", title="Captions", venue=venue, authors=["Ada Lovelace"])
    others = make_paper(
        "Argument mining in essays.", title="Essays", venue=venue, authors=["Bo Chen"]
    )
    finish()
    body = client.get("/api/papers/?q=Ada+Lovelace+argument+mining").json()
    assert body["count"] == 0
    assert [author["name"] for author in body["authors"]] == ["Ada Lovelace"]
    assert [(r["id"], r["partial"]) for r in body["results"]] == [
        (on_subject.pk, True),
        (others.pk, True),
    ]


def test_partial_matches_with_more_of_the_words_come_first(client, db, monkeypatch):
    # "dependency parsing indian languages" put a paper on Indian culture (two rare words in
    # its title) above those on dependency parsing of languages (an outside researcher).
    indian = make_paper("Knowledge of Indian culture and languages.", title="Indian Languages")
    parsing = make_paper("Dependency parsing of many languages.", title="Parsing")
    graphs = [
        make_paper(f"Dependency parsing with graphs, {n}.", title=f"Graph Parser {n}")
        for n in range(6)
    ]
    finish()
    query = "/api/papers/?q=dependency+parsing+indian+languages"
    in_memory, in_sql = (
        [r["id"] for r in results]
        for results in results_in_memory_and_in_sql(client, query, monkeypatch)
    )
    for ranked in (in_memory, in_sql):
        assert ranked[0] == parsing.pk
        assert set(ranked[1:]) == {indian.pk, *(paper.pk for paper in graphs)}


def test_partial_matches_put_complete_records_first_among_equals(client, db, monkeypatch):
    # The seeds' records without authors, of the newest venue, took the first places among
    # papers matching as many words as well (an outside researcher).
    older, newer = make_venue("ACL 2023", 2023), make_venue("EMNLP 2025", 2025)
    complete = make_paper("Cache eviction, one.", title="Eviction", venue=older, authors=["Bo Li"])
    authorless = make_paper("Cache eviction, two.", title="Eviction Again", venue=newer)
    finish()
    query = "/api/papers/?q=kv+cache+eviction+xylophone&literal=1"
    in_memory, in_sql = (
        [r["id"] for r in results]
        for results in results_in_memory_and_in_sql(client, query, monkeypatch)
    )
    assert in_memory == in_sql == [complete.pk, authorless.pk]


def test_partial_matches_come_after_the_full_ones(client, corpus):
    body = client.get("/api/papers/?q=kv+cache+quantised").json()
    assert body["count"] == 1
    assert [(r["id"], r["partial"]) for r in body["results"]] == [
        (corpus["cache2"].pk, False),
        (corpus["kv"].pk, True),
    ]


@pytest.fixture
def reasoning(db):
    venue = make_venue("ACL 2024", 2024)
    papers = {
        "literal": make_paper(
            "Prompting with intermediate steps helps large models reason.",
            title="Faithful Chain of Thought Reasoning",
            venue=venue,
        ),
        "stemmed": make_paper(
            "Simultaneous translation with chained thoughts.",
            title="Chaining Simultaneous Thoughts for Translation",
            venue=venue,
        ),
        "hyphen": make_paper(
            "We study few-shot learning for named entity recognition.",
            title="Few-Shot Entity Recognition",
            venue=venue,
        ),
        "spaced": make_paper(
            "Learning from few shot examples for relation extraction.",
            title="Relation Extraction from Few Shot Examples",
            venue=venue,
        ),
        "abstract": make_paper(
            "A chain of thought prompt for arithmetic; entity recognition is out of scope.",
            title="Arithmetic Prompts",
            venue=venue,
        ),
    }
    finish()
    return papers


def api_ids(client, query: str) -> list[int]:
    return [
        r["id"] for r in client.get("/api/papers/?" + urlencode({"q": query})).json()["results"]
    ]


def test_a_quoted_phrase_ranks_the_literal_title_first(client, reasoning):
    # Both titles match the phrase by stems ("Chaining Simultaneous Thoughts": chain, one
    # word, thought); the one with the words as typed first, then the false friend, then the
    # abstract-only match.
    assert api_ids(client, '"chain of thought"') == [
        reasoning["literal"].pk,
        reasoning["stemmed"].pk,
        reasoning["abstract"].pk,
    ]
    assert api_ids(client, "chain thought") == [
        reasoning["literal"].pk,
        reasoning["stemmed"].pk,
        reasoning["abstract"].pk,
    ]


def test_hyphenated_spaced_and_joined_compounds_give_the_same_answer(client, reasoning):
    # The index holds "few-shot" as fewshot (and its parts): each spelling of the query asks
    # for fewshot. The paper writing "few shot" apart has only its parts.
    for query in ("few shot", "few-shot", "fewshot", "Few-Shot"):
        assert api_ids(client, query) == [reasoning["hyphen"].pk], query
    body = client.get("/api/papers/?q=Fewshot+entity").json()
    assert body["count"] == 1
    first = body["results"][0]
    assert (first["id"], first["partial"]) == (reasoning["hyphen"].pk, False)


@pytest.fixture
def compounds(db):
    venue = make_venue("EMNLP 2024", 2024)
    texts = {
        "few hyphen": ("Few-Shot Tagging", "We tag with few-shot prompts."),
        "few joined": ("Fewshot Parsing", "A fewshot parser."),
        "zero hyphen": ("Zero-Shot Parsing", "A zero-shot parser, no shot of data."),
        "zero joined": ("ZeroShot Tagging", "A zeroshot tagger."),
        "pre hyphen": ("Pre-Training Encoders", "Encoders and their pre-training."),
        "pre joined": ("Pretraining Decoders", "Decoders and their pretraining."),
        "multi joined": ("Multilingual Tagging", "A multilingual tagger."),
        "multi hyphen": ("Multi-Lingual Parsing", "A multi-lingual parser."),
        "model": ("Language Models", "A language model and its training."),
        "model hyphen": ("Tagging", "A language-model tagger trained on language data."),
    }
    papers = {
        key: make_paper(abstract, title=title, venue=venue)
        for key, (title, abstract) in texts.items()
    }
    # Ten more papers writing "language model" apart: one in twelve writes it as a compound.
    for n in range(10):
        make_paper(
            f"Study {n} of a language model.", title=f"Language Model Study {n}", venue=venue
        )
    finish()
    return papers


def api_answer(client, query: str) -> tuple[int, list[int]]:
    body = client.get("/api/papers/?" + urlencode({"q": query})).json()
    return body["count"], [r["id"] for r in body["results"]]


@pytest.mark.parametrize(
    "spellings, wanted",
    [
        (["few shot", "few-shot", "fewshot", "Few-Shot", "FewShot"], ["few hyphen", "few joined"]),
        (["zero shot", "zero-shot", "zeroshot"], ["zero hyphen", "zero joined"]),
        (["pre training", "pre-training", "pretraining"], ["pre hyphen", "pre joined"]),
        (["multi lingual", "multi-lingual", "multilingual"], ["multi hyphen", "multi joined"]),
    ],
)
def test_every_spelling_of_a_compound_gives_the_same_answer(client, compounds, spellings, wanted):
    answers = {query: api_answer(client, query) for query in spellings}
    first = answers[spellings[0]]
    assert sorted(first[1]) == sorted(compounds[key].pk for key in wanted)
    assert first[0] == len(wanted)
    assert all(answer == first for answer in answers.values()), answers
    # The list page: the same first page.
    pages = [titles(client.get("/?" + urlencode({"q": query}))) for query in spellings]
    assert sorted(pages[0]) == sorted(compounds[key].title for key in wanted)
    assert all(page == pages[0] for page in pages)


def test_a_compound_is_joined_only_where_the_collection_writes_it_as_one(compounds):
    # fewshot: two of the three papers with "shot"; languagemodel: one of the twelve with
    # "language" and "model", so "language-model" is searched as its words. Without a stop
    # word, the compound is also searched as its words in a row; scored on it joined.
    assert join_compounds("Few shot -few-shot language-model") == (
        "Fewshot -few-shot language model",
        "Fewshot -few-shot language model",
    )
    assert join_compounds("multilingual x") == (
        'multilingual x or "multi lingual" x',
        "multilingual x",
    )
    assert join_compounds('zero-shot "multi lingual" or multi lingual')[0] == (
        'zeroshot "multi lingual" or multilingual'
        ' or zeroshot "multi lingual" or "multi lingual"'
        ' or "zero shot" "multi lingual" or multilingual'
        ' or "zero shot" "multi lingual" or "multi lingual"'
    )


def test_the_export_and_the_feed_of_a_search_hold_the_papers_its_page_lists(client, compounds):
    # "few shot" is fewshot: not the zero-shot paper, whose abstract also has "shot".
    wanted = sorted([compounds["few hyphen"].title, compounds["few joined"].title])
    assert sorted(titles(client.get("/?q=few+shot"))) == wanted
    response = client.get("/?q=few+shot&format=csljson")
    assert sorted(item["title"] for item in json.loads(b"".join(response.streaming_content))) == (
        wanted
    )
    feed = ET.fromstring(client.get("/feeds/search/?q=few+shot").content)
    entries = feed.findall("{http://www.w3.org/2005/Atom}entry")
    assert sorted(e.find("{http://www.w3.org/2005/Atom}title").text for e in entries) == wanted


def test_a_hyphenated_compound_with_a_stop_word_is_searched_whole(client, db):
    # Split, "over-generation" would be its content word alone: every paper on generation.
    whole = make_paper("Curbing over-generation in summaries.", title="Less Output")
    # Overgeneration is in fewer than a tenth of the papers on generation.
    for n in range(10):
        make_paper(f"Text generation with plan {n}.", title=f"Planned Generation {n}")
    finish()
    assert join_compounds("over-generation") == ("overgeneration", "overgeneration")
    assert api_answer(client, "over-generation") == (1, [whole.pk])


def test_a_compound_with_a_stop_word_typed_apart_finds_the_papers_writing_it_apart(client, db):
    hyphen = make_paper("A sparse mixture-of-experts router.", title="Routers")
    spaced = make_paper("We scale a mixture of experts to many languages.", title="Scaling")
    # Both words, not in a row: not the phrase.
    apart = make_paper("A mixture of models, judged by experts.", title="Judged")
    make_paper("Parsing tweets in-the-wild.", title="Tweets")
    finish()
    # Joined alone, it found only the papers writing it hyphenated; a title is scored on its
    # words, which the titles writing it apart have too.
    assert join_compounds("mixture of experts") == (
        'mixtureofexperts or "mixture of experts"',
        '"mixture of experts"',
    )
    count, ids = api_answer(client, "mixture of experts")
    assert (count, sorted(ids[:2])) == (2, sorted([hyphen.pk, spaced.pk]))
    assert apart.pk not in ids[:2]
    # One content word ("in the wild": wild) stays joined: as its words in a row, it would be
    # every paper with that word.
    assert join_compounds("in the wild") == ("inthewild", "inthewild")


def test_a_title_saying_a_stop_word_compound_apart_ranks_first(client, db):
    apart = make_paper("How models use long contexts.", title="Lost in the Middle")
    hyphen = make_paper("Positions in long prompts.", title="Lost-in-the-Middle Effects")
    mention = make_paper(
        "Models get lost in the middle of long contexts; we calibrate attention.",
        title="Found in the Middle",
    )
    finish()
    assert api_answer(client, "lost in the middle") == (3, [apart.pk, hyphen.pk, mention.pk])


def test_a_misspelt_name_offers_the_author_its_respelling_names(client, db):
    venue = make_venue("ACL 2024", 2024)
    for n in range(6):
        make_paper(
            # Respellings are read from titles and abstracts: this one cites its author.
            f"Neural machine translation study {n}, after Neubig et al.",
            title=f"Translation Study {n}",
            venue=venue,
            authors=["Graham Neubig"],
        )
    make_paper("Parsing with grammars.", title="Parsing", venue=venue, authors=["Ada Lovelace"])
    finish()
    for query in ("Neubg", "Graham Neubg"):
        body = client.get("/api/papers/?" + urlencode({"q": query})).json()
        assert body["corrected_query"] == query.replace("Neubg", "Neubig"), query
        assert [(a["name"], a["papers"]) for a in body["authors"]] == [("Graham Neubig", 6)]
        assert body["count"] == 6


def test_a_respelled_compound_query_shows_the_words_typed(client, compounds):
    body = client.get("/api/papers/?q=few+shot+taging").json()
    assert body["corrected_query"] == "few shot tagging"
    assert body["count"] == 1
    assert [r["id"] for r in body["results"] if not r["partial"]] == [compounds["few hyphen"].pk]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "indexed"),
    [
        ("few-shot", "fewshot few shot  "),
        ("state-of-the-art", "stateoftheart state of the art"),
        ("end-to-end learning", "endtoend end to end  learning"),
        ("a-b-c-d-e-f", "abcd a b c d-ef e f  "),
        ("x--y a- -b", "x--y a- -b"),
        (
            "Jean-Pierre Müller-Lüdenscheidt",
            "JeanPierre Jean Pierre   MüllerLüdenscheidt Müller Lüdenscheidt  ",
        ),
        # A version number is one part: "GPT-3.5" was "GPT3 GPT 3  .5".
        ("GPT-3.5 Qwen2.5-7B", "GPT3.5 GPT 3.5   Qwen2.57B Qwen2.5 7B  "),
        # Markdown's bold marks go: "**M**ultiprompt" was "M" and "ultiprompt".
        ("**M**ultiprompt **E**nsembling (**MEAL**)", "Multiprompt Ensembling (MEAL)"),
    ],
)
def test_the_database_and_python_write_compounds_alike(text, indexed):
    # Search vectors are parsed from papers_compounds (SQL), queries folded by
    # index_compounds (Python): a difference would lose matches.
    with connection.cursor() as cursor:
        cursor.execute("SELECT papers_compounds(%s)", [text])
        assert cursor.fetchone()[0] == indexed
    assert index_compounds(text).split() == indexed.split()


def test_a_model_name_with_a_version_finds_every_paper_writing_it(client, db):
    # "GPT-3.5" found 23 of the 277 papers of the folder writing it (an outside tester).
    venue = make_venue("ACL 2025", 2025)
    written = ["GPT-3.5", "GPT3.5", "GPT-3.5-turbo", "GPT 3.5", "GPT-4", "GPT-3 with 5 shots"]
    for index, model in enumerate(written):
        make_paper(f"We prompt {model} for the task {index}.", title=f"Paper {index}", venue=venue)
    finish()
    assert join_compounds("GPT-3.5 summaries")[0] == ('GPT-3.5 summaries or "GPT 3.5" summaries')
    assert sorted(titles(client.get("/?q=GPT-3.5"))) == ["Paper 0", "Paper 1", "Paper 2", "Paper 3"]
    # Excluded, it is excluded in both forms ("-GPT-3.5" kept "GPT-3.5-turbo": an outside
    # tester); quoted, it is its parts in a row.
    assert join_compounds("task -GPT-3.5")[0] == 'task -GPT-3.5 -"GPT 3.5"'
    assert sorted(titles(client.get("/?q=task+-GPT-3.5"))) == ["Paper 4", "Paper 5"]
    assert sorted(titles(client.get('/?q="GPT-3.5"'))) == ["Paper 0", "Paper 2", "Paper 3"]


def test_a_model_name_finds_the_same_papers_however_its_version_is_typed(client, db):
    # "GPT3.5" found 225 papers, "GPT-3.5" 309; "Qwen 2.5" 7, "Qwen-2.5" 22; "Llama3" and
    # "Llama-3" missed the 60 papers writing "Llama 3", and "Llama 3" found papers with "llama"
    # and a 3 anywhere (outside testers).
    venue = make_venue("ACL 2025", 2025)
    written = [
        "Qwen-2.5",
        "Qwen2.5",
        "Qwen 2.5",
        "Llama-3",
        "Llama3",
        "Llama 3",
        "Llama 2 in 3 runs",
        "LLaMA3",
    ]
    for index, model in enumerate(written):
        make_paper(f"We prompt {model} for the task {index}.", title=f"Paper {index}", venue=venue)
    finish()
    for typed in ("Qwen-2.5", "Qwen2.5", "Qwen 2.5", "qwen2.5"):
        assert sorted(titles(client.get("/", {"q": typed}))) == ["Paper 0", "Paper 1", "Paper 2"]
    for typed in ("Llama-3", "Llama3", "Llama 3"):
        assert sorted(titles(client.get("/", {"q": typed}))) == [
            "Paper 3",
            "Paper 4",
            "Paper 5",
            "Paper 7",
        ]
    assert join_compounds("task -Qwen2.5")[0] == 'task -Qwen2.5 -"Qwen 2.5"'
    assert sorted(titles(client.get("/", {"q": "task -Qwen2.5"}))) == [
        f"Paper {i}" for i in range(3, 8)
    ]
    # Typed apart, a version is the name's only after a word that is not a stop word, a year
    # is no version ("improved by 2.5 points", "ACL 2023"), and a whole number only where the
    # collection writes the two as one word (in three papers here: "llama3"), not
    # "translation 50 languages" (30 papers lost to the phrase "translation 50": a reviewer).
    assert join_compounds("gains by 2.5 points")[0] == "gains by 2.5 points"
    assert join_compounds("parsing 2023")[0] == "parsing 2023"
    assert join_compounds("task 3 prompts")[0] == "task 3 prompts"
    assert [version_apart(word) for word in ("word2vec", "T5", "3-shot", "GPT4")] == [
        None,
        None,
        None,
        '"GPT 4"',
    ]


def test_a_hyphenated_compound_is_searched_as_the_index_writes_it():
    assert fold_compounds("few-shot -few-shot end-to-end") == "fewshot -fewshot endtoend"
    # In a phrase, at the positions the index gives it: joined, then its parts.
    assert fold_compounds('"few-shot learning" x-y') == '"fewshot few shot learning" xy'
    # Opening a phrase, apart: its parts follow the joined word in the index, so the phrase
    # finds the papers writing it hyphenated and those writing it apart. Not where a stop word
    # part would then open or close the phrase (a stop word at a phrase's edge is dropped).
    assert fold_compounds('"retrieval-augmented generation"') == '"retrieval augmented generation"'
    assert fold_compounds('"the mixture-of-experts"') == '"the mixture of experts"'
    assert fold_compounds('"dense retrieval-augmented"') == (
        '"dense retrievalaugmented retrieval augmented"'
    )
    assert fold_compounds('"models in-the-wild"') == '"models inthewild in the wild"'


def test_a_quoted_compound_opening_the_phrase_finds_it_hyphenated_and_apart(client, db):
    hyphen = make_paper("We study retrieval-augmented generation at scale.", title="Scale")
    spaced = make_paper("Retrieval augmented generation for questions.", title="Questions")
    make_paper("Generation augmented by the retrieval of passages.", title="Passages")
    finish()
    # Hyphenated, the phrase found the first alone (63 of 305 missed in the collection).
    for query in ('"retrieval-augmented generation"', '"retrieval augmented generation"'):
        count, ids = api_answer(client, query)
        assert (count, sorted(ids)) == (2, sorted([hyphen.pk, spaced.pk])), query


def test_a_quoted_compound_opening_with_a_stop_word_is_the_compound(client, compounds):
    # "few" is a stop word, which the search vectors do not hold: at the phrase's edge it was
    # dropped, and "few shot" quoted found every paper with "shot" (the zero-shot parser too).
    assert join_compounds('"few shot" tagging') == ('"few-shot" tagging', '"few-shot" tagging')
    assert join_compounds('"the few shot"')[0] == '"the few-shot"'
    for query in ('"few shot"', '"few-shot"', '"the few shot"'):
        assert api_answer(client, query) == (1, [compounds["few hyphen"].pk]), query
    # A phrase of two content words is left as typed: it finds the papers writing it apart as
    # well as those writing the compound (and says that "few" is not searched).
    assert join_compounds('"few shot tagging"')[0] == '"few shot tagging"'
    assert join_compounds('"tagging with few shot"')[0] == '"tagging with few shot"'


def test_a_quoted_phrase_of_two_content_words_finds_it_written_apart_too(client, db):
    apart = make_paper("Studies of in context learning in small models.", title="Apart")
    hyphen = make_paper("Studies of in-context learning in small models.", title="Hyphen")
    make_paper("Context learning for parsers, with many words.", title="Context")
    finish()
    count, ids = api_answer(client, '"in context learning"')
    # Written apart or hyphenated; "context learning" alone too (the stop word is not
    # searched, and the page says so).
    assert apart.pk in ids and hyphen.pk in ids and count == 3
    body = client.get("/api/papers/?" + urlencode({"q": '"in context learning" LLM'})).json()
    assert body["notices"] == [
        "“in” in “in context learning” is too common to be searched: the papers shown have the "
        "rest of the phrase."
    ]


def test_a_phrase_opening_with_a_stop_word_says_it_is_searched_without_it(client, db):
    very = make_paper("Parsing very low-resource languages.", title="Parsing")
    low = make_paper("Tagging low-resource languages.", title="Tagging")
    finish()
    body = client.get("/api/papers/?" + urlencode({"q": '"very low-resource"'})).json()
    assert (body["count"], sorted(r["id"] for r in body["results"])) == (2, [very.pk, low.pk])
    assert body["notices"] == [
        "“very” in “very low-resource” is too common to be searched: the papers shown have the "
        "rest of the phrase."
    ]
    page = parse(client.get("/?" + urlencode({"q": '"very low-resource"'})).content)
    assert [p.text for p in page.find_all("p", class_="notice")] == body["notices"]
    # An article is no word a reader expects a phrase to count.
    assert client.get("/api/papers/?q=%22the+low-resource%22").json()["notices"] == []


def test_rare_words_weigh_more_than_common_ones(client, reasoning):
    # "entity recognition": two papers; the title match first, the abstract match after.
    assert api_ids(client, "entity recognition") == [
        reasoning["hyphen"].pk,
        reasoning["abstract"].pk,
    ]


@pytest.mark.django_db
def test_an_authors_name_is_found_with_or_without_its_accents(client, write_dump):
    # Loaded (the loader's staged vectors) and written by a curator (the trigger's): both
    # parse the names without their accents too.
    line = {"external_id": "2031.acl-1", "venue": "ACL 2031", "title": "Cross-lingual Lexicons"}
    line |= {"abstract": "We induce bilingual lexicons.", "authors": ["Ivan Vulić", "Goran Glavaš"]}
    load_files([write_dump("accents.jsonl", json.dumps(line) + "\n")])
    finish()
    loaded = Paper.objects.get(external_id="2031.acl-1")
    edited = make_paper("Dialogue state tracking.", title="Tracking", authors=["Nguyễn Thị Minh"])
    finish()
    for typed, paper in [
        ("Vulic", loaded),
        ("Vulić", loaded),
        ("Goran Glavas", loaded),
        ("Nguyen Thi Minh", edited),
        ("Nguyễn", edited),
    ]:
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        assert [result["id"] for result in body["results"]] == [paper.pk], typed


def test_a_paper_writing_a_compound_apart_is_a_full_match_and_listed_once(client, compounds):
    # "pre training" is searched joined or as a phrase; the partial matches were those
    # lacking the joined word only, so this paper was listed again among them.
    apart = make_paper("We study pre training of encoders.", title="Encoders Apart")
    finish()
    body = client.get("/api/papers/?q=pre+training+encoders").json()
    assert body["count"] == 2
    assert [(r["id"], r["partial"]) for r in body["results"]] == [
        (compounds["pre hyphen"].pk, False),
        (apart.pk, False),
        (compounds["pre joined"].pk, True),
    ]


@pytest.mark.parametrize(
    "query",
    [
        "multi lingual pre training zero shot",
        "zero shot multi lingual pre training",
        "pre training zero shot multi lingual",
    ],
)
def test_more_compounds_than_phrases_still_find_the_papers_writing_them_apart(
    client, compounds, query
):
    # Only two compounds are also searched as phrases: the third was searched joined alone,
    # so the paper writing it apart was not a match, and the count changed with word order.
    apart = make_paper("A multi lingual parser: pre training for zero shot use.", title="Apart")
    hyphen = make_paper("A multi-lingual parser: pre-training for zero-shot use.", title="Hyphen")
    finish()
    count, ids = api_answer(client, query)
    assert (count, sorted(ids[:2])) == (2, sorted([apart.pk, hyphen.pk]))


def test_an_acronym_is_searched_in_both_numbers(client, db):
    singular = make_paper("An LLM that plans.", title="Planning")
    plural = make_paper("We ask LLMs to plan.", title="Asking")
    graphs = make_paper("GNNs on molecules.", title="Molecules")
    finish()
    assert join_compounds("LLM planning") == (
        'LLM planning or "large language model" planning or LLMs planning',
        "LLM planning",
    )
    for query in ("LLM", "LLMs", "llm", "llms"):
        count, ids = api_answer(client, query)
        assert (count, sorted(ids)) == (2, sorted([singular.pk, plural.pk])), query
    assert api_answer(client, "gnn") == (1, [graphs.pk])
    # An excluded acronym is excluded in both numbers; a hyphen inside a word excludes
    # nothing, and a phrase is as typed.
    excluded = '-LLM -LLMs -"large language model" plan'
    assert join_compounds("-LLM plan") == (excluded, excluded)
    excluded = 'plan -gnns -gnn -"graph neural network"'
    assert join_compounds("plan -gnns") == (excluded, excluded)
    assert api_answer(client, "plan -LLM") == (0, [])
    assert join_compounds("co-LLM") == (
        'co LLM or co "large language model" or co LLMs',
        "co LLM",
    )
    assert join_compounds('"LLM plan"') == ('"LLM plan"', '"LLM plan"')
    # A word with a vowel is left to the stemmer, which folds its plural (BERTs: bert).
    assert join_compounds("bert") == ("bert", "bert")
    # Two phrases at most: the first acronym's other number, then its words.
    assert join_compounds("BERT NER LLM") == (
        'BERT NER LLM or BERT "named entity recognition" LLM or BERT NER LLMs'
        ' or BERT "named entity recognition" LLMs',
        "BERT NER LLM",
    )


def test_an_acronym_is_searched_as_its_words_too(client, db):
    # "RAG" found none of the papers saying only "retrieval-augmented generation" (an outside
    # tester).
    acronym = make_paper("RAG for open questions.", title="Asking with RAG")
    words = make_paper("Retrieval-augmented generation grounds answers.", title="Grounded Answers")
    apart = make_paper("We study retrieval augmented generation.", title="Apart")
    other_order = make_paper("Generation augmented by retrieval of documents.", title="Order")
    finish()
    assert join_compounds("rags") == ('rags or "retrieval augmented generation"', "rags")
    found = sorted([acronym.pk, words.pk, apart.pk])
    for query in ("RAG", "rag", "RAGs"):
        count, ids = api_answer(client, query)
        assert (count, sorted(ids)) == (3, found), query
    # Its words are a phrase: in another order they are not it. An exclusion removes both.
    assert api_answer(client, "documents -RAG") == (1, [other_order.pk])
    assert api_answer(client, "answers -RAG") == (0, [])
    # Inside a quoted phrase a "-" is the phrase's, as typed: nothing is excluded there.
    assert join_compounds('"answers with -RAG"') == ('"answers with -RAG"', '"answers with -RAG"')
    assert join_compounds("ragout") == ("ragout", "ragout")


def test_british_and_american_spellings_find_the_same_papers(client, db):
    british = make_paper("Abstractive summarisation of dialogues.", title="Summarising Talk")
    american = make_paper("Extractive summarization of news.", title="Summarizing News")
    judged = make_paper("BLEU against human judgments of fluency.", title="Judging BLEU")
    finish()
    both = sorted([british.pk, american.pk])
    assert sorted(api_answer(client, "summarisation")[1]) == both
    assert sorted(api_answer(client, "summarization")[1]) == both
    assert api_answer(client, "BLEU human judgements") == (1, [judged.pk])
    # An exclusion removes either spelling.
    assert api_answer(client, "of -summarisation")[1][:1] == [judged.pk]
    assert api_answer(client, "of -summarisation")[0] == 1


def test_british_and_american_spellings_rank_alike(client, db):
    # "tokenisation" put papers saying it in their abstracts above the forty titles saying
    # "Tokenization", first for "tokenization" (an outside researcher).
    titled = make_paper("We split code into tokens.", title="Tokenization of Code")
    said = make_paper(
        "Tokenisation costs time; tokenisation of long inputs costs more.", title="Token Reduction"
    )
    finish()
    assert api_answer(client, "tokenisation") == api_answer(client, "tokenization")
    assert api_answer(client, "tokenisation") == (2, [titled.pk, said.pk])


@pytest.mark.parametrize(
    "word, other",
    [
        ("summarisation", "summarization"),
        ("Tokenizers", "Tokenisers"),
        ("optimised", "optimized"),
        ("analyse", "analyze"),
        ("judgements", "judgments"),
        ("dialog", "dialogue"),
        ("behaviour", "behavior"),
        ("supervised", None),
        ("promise", None),
        ("arising", None),
        ("exercise", None),
        ("analysis", None),
        ("treatise", None),
        ("improvisation", None),
        ("utilise", "utilize"),
        ("standardised", "standardized"),
        ("randomise", "randomize"),
        ("hypothesise", "hypothesize"),
        ("program", None),
    ],
)
def test_a_word_has_another_spelling_only_where_its_ending_names_one(word, other):
    assert other_spelling(word) == other


def test_an_excluded_compound_is_excluded_whole(db):
    # "-colour-blind" was "-colour -color-blind": every paper saying "colour" excluded.
    assert join_compounds("-colour-blind x") == ("-colour-blind x", "-colour-blind x")
    assert join_compounds("-LLM-based planning")[0] == "-LLM-based planning"
