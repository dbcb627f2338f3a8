"""An address of this site pasted into the search box (papers/own_pages.py): it opens the page
it addresses, in the list, the API, the exports and the feed."""

from urllib.parse import quote, urlencode

import pytest

from papers.merged_keys import PAPER
from papers.models import MergedKey, TopicRedirect
from papers.search_notices import ADDRESS_ELSEWHERE
from tests.factories import make_author

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "location", "shown"),
    [
        ("http://testserver/authors/ada-lovelace/", "/authors/ada-lovelace/", "Ada Lovelace"),
        (
            "http://localhost:8000/venues/emnlp-2024/?sort=title#top",
            "/venues/emnlp-2024/",
            "EMNLP 2024",
        ),
        ("https://127.0.0.1/topics/efficiency/", "/topics/efficiency/", "efficiency"),
        ("  HTTP://LOCALHOST/topics/EFFICIENCY/ ", "/topics/efficiency/", "efficiency"),
    ],
)
def test_an_address_of_an_author_venue_or_topic_here_opens_it(
    client, corpus, typed, location, shown
):
    response = client.get("/?" + urlencode({"q": typed}))
    assert (response.status_code, response["Location"]) == (302, location)
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert (body["count"], body["results"], body["suggestion"]) == (0, [], None)
    assert body["notices"] == [f"That is the page of {shown}; here: {location}"]


@pytest.mark.parametrize(
    "path",
    ["/papers/{pk}/", "/papers/{pk}-evicting-the-kv-cache/", "/papers/2021.naacl-main.463/"],
)
def test_an_address_of_a_paper_here_opens_it(client, corpus, path):
    paper = corpus["kv"]
    paper.external_id = "2021.naacl-main.463"
    paper.save()
    typed = "http://testserver" + path.format(pk=paper.pk)
    response = client.get("/?" + urlencode({"q": typed}))
    # The paper's stable address, whichever of its addresses was pasted.
    assert (response.status_code, response["Location"]) == (302, "/papers/2021.naacl-main.463/")
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [result["id"] for result in body["results"]] == [paper.pk]


def test_an_address_of_a_moved_paper_or_topic_opens_where_it_went(client, corpus):
    MergedKey.objects.create(paper=corpus["kv"], kind=PAPER, key="999999")
    response = client.get("/?q=http://testserver/papers/999999/")
    assert (response.status_code, response["Location"]) == (302, corpus["kv"].get_absolute_url())
    efficiency = corpus["kv"].topics.get(slug="efficiency")
    TopicRedirect.objects.create(old_slug="speed", topic=efficiency)
    response = client.get("/?q=http://testserver/topics/speed/")
    assert (response.status_code, response["Location"]) == (302, "/topics/efficiency/")


def test_an_address_here_exports_and_feeds_its_page_s_papers(client, corpus):
    address = "http://testserver/topics/efficiency/"
    response = client.get("/?" + urlencode({"q": address, "format": "bibtex"}))
    assert (response.status_code, response["Location"]) == (
        302,
        "/topics/efficiency/?format=bibtex",
    )
    response = client.get("/feeds/search/?" + urlencode({"q": address}))
    assert (response.status_code, response["Location"]) == (302, "/feeds/topics/efficiency/")
    paper = corpus["kv"]
    feed = client.get(f"/feeds/search/?q=http://testserver/papers/{paper.pk}/")
    assert feed.content.decode().count("<entry>") == 1
    assert paper.title in feed.content.decode()


def test_an_address_with_a_slug_in_another_script_opens_it(client, db):
    author = make_author("王小明")
    typed = "http://testserver/authors/" + quote(author.slug) + "/"
    response = client.get("/?" + urlencode({"q": typed}))
    assert (response.status_code, response["Location"]) == (302, author.get_absolute_url())


def test_a_wildcard_host_makes_no_other_site_ours(client, corpus, settings):
    settings.ALLOWED_HOSTS = ["*"]
    response = client.get("/?q=https://example.com/authors/ada-lovelace/")
    assert response.status_code == 200


def test_another_host_or_another_page_here_is_not_opened(client, corpus):
    # A host this site does not answer to is another site, whatever its path.
    body = client.get("/api/papers/?q=https://papers.example.org/authors/ada-lovelace/").json()
    assert body["notices"] == [ADDRESS_ELSEWHERE.format(host="papers.example.org")]
    # Pages that show no one paper, author, venue or topic are searched as typed.
    for typed in ["http://testserver/?q=cache", "http://testserver/authors/nobody-here/"]:
        assert client.get("/?" + urlencode({"q": typed})).status_code == 200
