"""Atom feeds of venues, topics, authors and searches: valid Atom, newest papers first."""

import logging
import re
import xml.etree.ElementTree as ET
from datetime import date

import pytest

from papers.models import Paper, Venue
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

ATOM = "{http://www.w3.org/2005/Atom}"


def read_feed(client, url) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    root = ET.fromstring(response.content)  # our own output
    assert_valid_atom(root)
    return root


def assert_valid_atom(root: ET.Element) -> None:
    """RFC 4287's required elements: the feed's id, title, updated and an author (or one per
    entry), a self link; each entry's id, title, updated and an alternate link."""
    assert root.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert len(root.findall(f"{ATOM}{name}")) == 1, name
        assert root.find(f"{ATOM}{name}").text.strip(), name
    assert root.find(f"{ATOM}author/{ATOM}name").text
    assert [link.get("rel") for link in root.findall(f"{ATOM}link")] == ["alternate", "self"]
    ids = []
    for entry in root.findall(f"{ATOM}entry"):
        for name in ("id", "title", "updated"):
            assert len(entry.findall(f"{ATOM}{name}")) == 1, name
            assert entry.find(f"{ATOM}{name}").text.strip(), name
        assert entry.find(f"{ATOM}link").get("rel") == "alternate"
        assert re.fullmatch(
            r"https?://[^/]+/papers/[\w.-]+/", entry.find(f"{ATOM}link").get("href")
        )
        ids.append(entry.find(f"{ATOM}id").text)
    assert len(ids) == len(set(ids))


def titles(root) -> list[str]:
    return [entry.find(f"{ATOM}title").text for entry in root.findall(f"{ATOM}entry")]


@pytest.fixture
def newer(corpus):
    """A 2026 paper, newest of all, on attention by Ada Lovelace."""
    paper = make_paper(
        "Attention sinks in streaming language models, revisited with a cache.",
        title="Attention Sinks Revisited",
        venue=make_venue("ACL 2026", 2026),
        topics=["attention"],
        authors=["Ada Lovelace"],
    )
    finish()
    return paper


def test_venue_feed(client, corpus):
    root = read_feed(client, "/feeds/venues/acl-2025/")
    assert root.find(f"{ATOM}title").text == "New papers at ACL 2025 · Paper browser"
    assert root.find(f"{ATOM}id").text == "http://testserver/venues/acl-2025/"
    # The list's "Newest venue first": one venue's papers in proceedings order, the untitled
    # (incomplete) record last, saying so.
    assert titles(root) == [
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
        "[untitled] Speech recognition systems struggle with accented speech",
    ]
    listed = client.get("/api/papers/?venue=acl-2025&sort=newest").json()["results"]
    assert [paper["display_title"] for paper in listed] == [
        title.removeprefix("[untitled] ") for title in titles(root)
    ]


def test_topic_feed_puts_the_newest_venue_first(client, newer):
    root = read_feed(client, "/feeds/topics/attention/")
    assert titles(root) == [
        "Attention Sinks Revisited",
        "Evicting the KV Cache for Long-Context Inference",
        "Noisy Retrieval Hurts Faithfulness",
    ]
    entry = root.find(f"{ATOM}entry")
    assert entry.find(f"{ATOM}author/{ATOM}name").text == "Ada Lovelace"
    assert entry.find(f"{ATOM}summary").text.startswith("ACL 2026. Attention sinks")


def test_an_entry_names_each_author_in_an_element_of_its_own(client, db):
    make_paper(
        "Routing tokens to experts.",
        title="Routing",
        venue=make_venue("ACL 2026", 2026),
        authors=["Jianhui Pang", "Fanghua Ye", "Derek F. Wong"],
    )
    finish()
    entry = read_feed(client, "/feeds/search/?q=routing").find(f"{ATOM}entry")
    names = [author.find(f"{ATOM}name").text for author in entry.findall(f"{ATOM}author")]
    assert names == ["Jianhui Pang", "Fanghua Ye", "Derek F. Wong"]


def test_an_entry_links_and_names_the_papers_stable_address(client, db):
    venue = make_venue("ACL 2026", 2026)
    make_paper("Routing tokens.", title="Routing", venue=venue, external_id="2026.acl-long.7")
    make_paper("Routing words.", title="Routing Words", venue=venue)
    finish()
    entries = read_feed(client, "/feeds/search/?q=routing").findall(f"{ATOM}entry")
    serial = Paper.objects.get(title="Routing Words")
    expected = [
        "http://testserver/papers/2026.acl-long.7/",
        f"http://testserver/papers/{serial.pk}/",
    ]
    assert sorted(entry.find(f"{ATOM}id").text for entry in entries) == sorted(expected)
    assert sorted(entry.find(f"{ATOM}link").get("href") for entry in entries) == sorted(expected)


def test_a_summary_is_html_whose_text_is_the_abstract_as_written(client, db):
    make_paper(
        "We map each <post, reply> pair & its <script>alert(1)</script> context to a label.",
        title="Angle Brackets in Abstracts",
        venue=make_venue("ACL 2026", 2026),
    )
    finish()
    summary = read_feed(client, "/feeds/search/?q=angle").find(f"{ATOM}entry/{ATOM}summary")
    assert summary.get("type") == "html"
    # What a feed reader renders: the summary's HTML, read as HTML, is the text as written.
    rendered = parse(summary.text)
    assert rendered.find_all() == []
    assert rendered.text == (
        "ACL 2026. We map each <post, reply> pair & its <script>alert(1)</script> "
        "context to a label."
    )


def test_author_feed(client, newer):
    root = read_feed(client, "/feeds/authors/ada-lovelace/")
    assert titles(root) == [
        "Attention Sinks Revisited",
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
        "Noisy Retrieval Hurts Faithfulness",
    ]


def test_search_feed_takes_the_lists_parameters(client, newer):
    root = read_feed(client, "/feeds/search/?q=cache&venue=acl-2025&sort=title&page=3")
    # Filters by name, not by slug.
    assert root.find(f"{ATOM}title").text == ("New papers: “cache”, venue ACL 2025 · Paper browser")
    assert root.find(f"{ATOM}id").text == "http://testserver/?q=cache&venue=acl-2025"
    self_link = [link for link in root.findall(f"{ATOM}link") if link.get("rel") == "self"]
    assert self_link[0].get("href") == "http://testserver/feeds/search/?q=cache&venue=acl-2025"
    assert titles(root) == [
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
    ]
    assert titles(read_feed(client, "/feeds/search/"))[0] == "Attention Sinks Revisited"


def test_a_feed_puts_the_later_venue_of_a_year_first_whatever_was_loaded_first(client, db):
    # Findings of ACL 2025 (July) came after NAACL 2025 (April) because it was loaded first.
    july = make_venue("Findings of ACL 2025", 2025, month="July")
    april = make_venue("NAACL 2025", 2025, month="April")
    make_paper("Sarcasm in July.", title="July Sarcasm", venue=july)
    make_paper("Sarcasm in April.", title="April Sarcasm", venue=april)
    finish()
    assert titles(read_feed(client, "/feeds/search/?q=sarcasm")) == [
        "July Sarcasm",
        "April Sarcasm",
    ]


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/feeds/venues/nowhere/", 404),
        ("/feeds/topics/nothing/", 404),
        ("/feeds/authors/nobody/", 404),
        ("/feeds/search/?year=abc", 400),
        ("/feeds/search/?venue=not%20a%20slug", 400),
    ],
)
def test_feed_errors(client, corpus, url, status, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get(url).status_code == status
    # A mistyped address is logged in a line, without a traceback.
    assert [record.exc_info for record in caplog.records] == [None]


def test_pages_link_their_feeds(client, corpus):
    for url, feed in [
        ("/venues/acl-2025/", "/feeds/venues/acl-2025/"),
        ("/topics/attention/", "/feeds/topics/attention/"),
        ("/authors/ada-lovelace/", "/feeds/authors/ada-lovelace/"),
        ("/?q=cache&page=2&sort=title", "/feeds/search/?q=cache"),
        ("/", "/feeds/search/"),
    ]:
        page = parse(client.get(url))
        links = page.find_all("link", rel="alternate", type="application/atom+xml")
        assert [link.attrs["href"] for link in links] == [feed], url


def test_a_noncharacter_in_the_query_leaves_the_feed_well_formed(client, newer):
    # U+FFFE, which XML refuses, was copied into the feed's title.
    root = read_feed(client, "/feeds/search/?q=cache%EF%BF%BE")
    assert root.find(f"{ATOM}title").text == "New papers: “cache” · Paper browser"


def test_an_entry_is_published_when_its_venue_was_held(client, newer):
    Venue.objects.filter(slug="acl-2025").update(start_date=date(2025, 7, 27))
    root = read_feed(client, "/feeds/venues/acl-2025/")
    entries = root.findall(f"{ATOM}entry")
    assert {entry.find(f"{ATOM}published").text for entry in entries} == {
        "2025-07-27T00:00:00+00:00"
    }
    # A venue of a year alone: the first of January.
    entry = read_feed(client, "/feeds/venues/acl-2026/").find(f"{ATOM}entry")
    assert entry.find(f"{ATOM}published").text == "2026-01-01T00:00:00+00:00"
    # Proceedings loaded before the conference: published no later than updated.
    Venue.objects.filter(slug="acl-2026").update(start_date=date(2099, 7, 1))
    entry = read_feed(client, "/feeds/venues/acl-2026/").find(f"{ATOM}entry")
    assert entry.find(f"{ATOM}published").text == entry.find(f"{ATOM}updated").text
