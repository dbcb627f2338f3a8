"""The JSON API: list with the page's parameters, one record, similar papers, errors."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import finish, many_papers
from tests.support import parse

pytestmark = pytest.mark.django_db


def test_list_ranks_like_the_page(client, corpus):
    with CaptureQueriesContext(connection) as context:
        body = client.get("/api/papers/?q=kv+cache+eviction").json()
    # 3 (the query's words, its matches and facets, the page's ids, the cards), +1 for
    # the authors of a name-like query, +1 for the compounds (words in a row), +1 for the
    # words' matches (none is common enough to be held: papers/word_memory.py; the papers
    # matching some words are found there too), +1: the first query since the data changed
    # reads the facet arrays (papers/facet_memory.py), +1: few papers match, so a respelling to
    # offer is looked for (papers/spelling.py FEW_MATCHES; not an author's name: some paper
    # matches, papers/respelled.py), +1: every author of the page's papers, +1: the words'
    # other forms (papers/word_lookups.py).
    assert len(context.captured_queries) == 10
    assert body["count"] == 2
    assert (body["page"], body["pages"], body["next"], body["previous"]) == (1, 1, None, None)
    first = body["results"][0]
    assert first["id"] == corpus["kv"].pk
    assert set(first) == {
        "id",
        "external_id",
        "title",
        "display_title",
        "venue",
        "venue_slug",
        "year",
        "topics",
        "topic_slugs",
        "country",
        "url",
        "snippet",
        "score",
        "authors",
        "partial",
    }
    assert first["partial"] is False
    assert first["title"] == "Evicting the KV Cache for Long-Context Inference"
    assert (first["venue"], first["venue_slug"]) == ("ACL 2025", "acl-2025")
    assert first["year"] == 2025
    assert first["topics"] == ["attention", "efficiency"]
    assert first["topic_slugs"] == ["attention", "efficiency"]
    assert first["country"] == "United Kingdom"
    assert first["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert first["url"] == f"http://testserver/papers/{corpus['kv'].pk}/"
    assert "<mark>KV</mark> <mark>cache</mark>" in first["snippet"]
    assert first["score"] > body["results"][1]["score"] > 0


def test_list_filters_and_untitled(client, corpus):
    body = client.get("/api/papers/?venue=acl-2025&country=United+Kingdom").json()
    assert body["count"] == 2
    speech = next(item for item in body["results"] if item["id"] == corpus["speech"].pk)
    assert speech["title"] is None
    assert speech["display_title"] == "Speech recognition systems struggle with accented speech"
    assert speech["score"] is None


def test_list_pages(client, corpus):
    many_papers(30, word="zebra")
    finish()
    body = client.get("/api/papers/?q=zebra").json()
    assert (body["count"], body["pages"], len(body["results"])) == (30, 2, 25)
    assert body["next"] == "http://testserver/api/papers/?q=zebra&page=2"
    second = client.get(body["next"]).json()
    assert len(second["results"]) == 5
    assert second["previous"] == "http://testserver/api/papers/?q=zebra&page=1"


@pytest.mark.parametrize(
    ("query", "field"),
    [("year=abc", "year"), ("venue=%3Cx%3E", "venue"), ("sort=nope", "sort")],
)
def test_bad_parameters_are_400_json(client, corpus, query, field):
    response = client.get("/api/papers/?" + query)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "Some of the parameters are not valid."
    assert field in body["details"]


def test_bad_page_and_long_query(client, corpus):
    response = client.get("/api/papers/?page=x")
    assert response.status_code == 400
    assert response.json() == {"error": "page must be a positive whole number, not “x”."}
    response = client.get("/api/papers/?q=" + "a" * 501)
    assert (response.status_code, response.json()) == (
        400,
        {"error": "q is at most 500 characters."},
    )
    response = client.get("/api/papers/?q=" + "+".join(f"word{n}" for n in range(33)))
    assert (response.status_code, response.json()) == (400, {"error": "q has at most 32 words."})
    # A repeated word counts once.
    assert client.get("/api/papers/?q=" + "cache+" * 40).status_code == 200


def test_detail_record(client, corpus):
    paper = corpus["kv"]
    paper.source_file = "000_x.txt"
    paper.save()
    with CaptureQueriesContext(connection) as context:
        body = client.get(f"/api/papers/{paper.pk}/").json()
    assert len(context.captured_queries) == 3
    assert body == {
        "id": paper.pk,
        "external_id": None,
        "title": "Evicting the KV Cache for Long-Context Inference",
        "display_title": "Evicting the KV Cache for Long-Context Inference",
        "abstract": paper.abstract,
        "venue": "ACL 2025",
        "year": 2025,
        "topics": ["attention", "efficiency"],
        "country": "United Kingdom",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "source": "000_x.txt",
        "related_titles": [],
        # The slugs the list's filters take, as the list's results give them.
        "venue_slug": "acl-2025",
        "topic_slugs": ["attention", "efficiency"],
        "anthology_id": None,
        "doi": None,
        "pages": None,
        "bibkey": None,
        "anthology_url": None,
        "pdf_url": None,
    }
    paper.external_id, paper.doi, paper.pages = (
        "2025.acl-long.7",
        "10.18653/v1/2025.acl-long.7",
        "1-9",
    )
    paper.save()
    body = client.get("/api/papers/2025.acl-long.7/").json()
    assert {
        key: body[key] for key in ("anthology_id", "doi", "pages", "anthology_url", "pdf_url")
    } == {
        "anthology_id": "2025.acl-long.7",
        "doi": "10.18653/v1/2025.acl-long.7",
        "pages": "1-9",
        "anthology_url": "https://aclanthology.org/2025.acl-long.7/",
        "pdf_url": "https://aclanthology.org/2025.acl-long.7.pdf",
    }


@pytest.mark.parametrize("raw", ["999999", "abc", "99999999999999999999999", "-1", "0"])
def test_unknown_ids_are_404_json(client, corpus, raw):
    for url in [f"/api/papers/{raw}/", f"/api/papers/{raw}/similar/"]:
        response = client.get(url)
        assert response.status_code == 404
        assert response.json() == {"error": f"No paper with id {raw!r}."}


def test_similar(client, corpus):
    body = client.get(f"/api/papers/{corpus['kv'].pk}/similar/?limit=2").json()
    assert len(body["results"]) == 2
    first = body["results"][0]
    assert first["id"] == corpus["cache2"].pk
    listed = client.get("/api/papers/").json()["results"][0]
    # The list's fields ("partial" aside: it says how a search's words matched) and the reasons.
    assert set(first) == set(listed) - {"partial"} | {"explanation", "shared_terms"}
    assert (first["venue"], first["year"]) == ("ACL 2025", 2025)
    assert first["authors"] == ["Ada Lovelace"]
    assert first["topics"] == ["efficiency"]
    assert "cache" in first["shared_terms"]
    assert first["score"] >= body["results"][1]["score"]
    ids = [
        item["id"]
        for item in client.get(f"/api/papers/{corpus['kv'].pk}/similar/").json()["results"]
    ]
    assert corpus["kv"].pk not in ids
    assert len(ids) == len(set(ids))


def test_similar_newest_first_as_the_page(client, corpus):
    pk = corpus["kv"].pk
    by_score = client.get(f"/api/papers/{pk}/similar/").json()["results"]
    newest = client.get(f"/api/papers/{pk}/similar/?sort=newest").json()["results"]
    expected = sorted(by_score, key=lambda item: -(item["year"] or 0))
    assert [item["id"] for item in newest] == [item["id"] for item in expected]
    assert [item["year"] for item in newest] != [item["year"] for item in by_score]
    page = parse(client.get(f"/papers/{pk}/similar/?sort=newest"))
    shown = [node.find("a").attrs["href"] for node in page.find_all("h2", class_="card-title")]
    assert shown == [f"/papers/{item['id']}/" for item in newest]
    response = client.get(f"/api/papers/{pk}/similar/?sort=foo")
    assert (response.status_code, response.json()) == (
        400,
        {"error": "sort must be similar or newest."},
    )


@pytest.mark.parametrize("limit", ["0", "101", "abc", "-5", "1e3", "２"])
def test_similar_bad_limit(client, corpus, limit):
    response = client.get(f"/api/papers/{corpus['kv'].pk}/similar/?limit={limit}")
    assert response.status_code == 400
    assert response.json() == {"error": "limit must be a whole number from 1 to 100."}


@pytest.mark.parametrize(
    "url",
    [
        "/api/papers/",
        "/api/papers/{pk}/",
        "/api/papers/{pk}/similar/",
        "/api/venues/",
        "/api/topics/",
    ],
)
def test_api_answers_get_and_head_only(client, corpus, url):
    url = url.format(pk=corpus["kv"].pk)
    assert client.head(url).status_code == 200
    for method in ("post", "put", "patch", "delete"):
        response = getattr(client, method)(url, data="{}", content_type="application/json")
        assert (response.status_code, response["Allow"]) == (405, "GET, HEAD"), method


def test_every_api_error_is_json(client, corpus):
    missing = client.get("/api/nothing/")
    assert (missing.status_code, missing.json()) == (404, {"error": "No such address in the API."})
    posted = client.post("/api/papers/")
    assert (posted.status_code, posted["Allow"]) == (405, "GET, HEAD")
    assert posted.json() == {"error": "POST is not answered here; use GET, HEAD."}
    fetched = client.get("/api/similar/")
    assert fetched.json() == {"error": "GET is not answered here; use POST."}
    # The pages keep their own 404.
    assert client.get("/nothing/")["Content-Type"].startswith("text/html")


def test_a_parameter_the_list_does_not_know_is_said(client, corpus):
    body = client.get("/api/papers/?venues=acl-2025&zzz=1&q=cache").json()
    assert body["notices"] == [
        "“venues” is not a parameter of this list, and is not used: did you mean “venue”?",
        "“zzz” is not a parameter of this list, and is not used.",
    ]
    assert client.get("/api/papers/?venue=acl-2025&literal=1").json()["notices"] == []
    # Not "did you mean “sort”?" for an export asked of the API: the pages give them.
    assert client.get("/api/papers/?venue=acl-2025&format=csv").json()["notices"] == [
        "“format” is not a parameter of the API, which answers JSON: the same list's page gives "
        "its BibTeX, RIS and CSL-JSON (its address without /api/papers/, with format=bibtex)."
    ]


def test_the_venues_and_topics_indexes_give_the_filters_slugs(client, corpus):
    with CaptureQueriesContext(connection) as context:
        venues = client.get("/api/venues/").json()["results"]
    assert len(context.captured_queries) == 1
    assert venues == [
        {
            "slug": "acl-2025",
            "name": "ACL 2025",
            "year": 2025,
            "parent": None,
            "papers": 3,
            "url": "http://testserver/venues/acl-2025/",
        },
        {
            "slug": "emnlp-2024",
            "name": "EMNLP 2024",
            "year": 2024,
            "parent": None,
            "papers": 2,
            "url": "http://testserver/venues/emnlp-2024/",
        },
    ]
    for venue in venues:
        listed = client.get(f"/api/papers/?venue={venue['slug']}").json()
        assert listed["count"] == venue["papers"]
    topics = client.get("/api/topics/").json()["results"]
    assert [(t["slug"], t["name"], t["papers"]) for t in topics] == [
        ("attention", "attention", 2),
        ("efficiency", "efficiency", 2),
        ("machine-translation", "machine translation", 1),
        ("speech", "speech", 1),
    ]
    assert topics[0]["url"] == "http://testserver/topics/attention/"


def test_a_repeated_request_is_answered_not_modified(client, corpus):
    page = client.get("/api/papers/?q=kv+cache")
    again = client.get("/api/papers/?q=kv+cache", HTTP_IF_NONE_MATCH=page["ETag"])
    assert (again.status_code, again.content) == (304, b"")
    feed = client.get("/feeds/venues/acl-2025/")
    polled = client.get("/feeds/venues/acl-2025/", HTTP_IF_MODIFIED_SINCE=feed["Last-Modified"])
    assert polled.status_code == 304


def test_the_api_page_documents_every_field_the_api_answers_and_no_other(client, corpus):
    page = parse(client.get("/api/").content)
    listed = client.get("/api/papers/?q=cache").json()
    detail = client.get(f"/api/papers/{corpus['kv'].pk}/").json()
    similar = client.get(f"/api/papers/{corpus['kv'].pk}/similar/").json()["results"][0]

    def documented(section: str) -> set[str]:
        """The field names a section names, as code (not paths, values or bodies)."""
        codes = {code.text for code in page.find(id=section).find_all("code")}
        return {code for code in codes if code.isidentifier()}

    named = client.get("/api/papers/?q=Ada+Lovelace").json()["authors"][0]
    year = client.get("/api/papers/?q=cache+2025&literal=1").json()["filters"][0]
    assert documented("list-fields") == {*listed, *listed["results"][0], *named, *year}
    assert documented("paper-fields") == set(detail)
    assert documented("similar-fields") == set(similar)
    venue = client.get("/api/venues/").json()["results"][0]
    topic = client.get("/api/topics/").json()["results"][0]
    assert documented("venue-fields") == set(venue)
    assert documented("topic-fields") == set(topic)
    # Its examples answer, and every page's footer leads to it.
    for link in page.find("article").find_all("a"):
        assert client.get(link.attrs["href"]).status_code == 200, link.attrs["href"]
    footer = parse(client.get("/").content).find("footer")
    assert [a.attrs["href"] for a in footer.find_all("a") if a.text == "JSON API"] == ["/api/"]
