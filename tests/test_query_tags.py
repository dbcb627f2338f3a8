"""The query strings a list's facet links and filter chips toggle
(papers/templatetags/query_tags.py)."""

import pytest
from django.test import RequestFactory

from papers.search_fields import MAX_VALUES
from papers.templatetags.query_tags import FULL, facet_link, toggle_query
from tests.support import parse

URL = "/?q=kv+cache&venue=acl-2025&page=3&year=2024"


@pytest.mark.parametrize(
    "name, value, expected",
    [
        ("venue", "emnlp-2024", "?q=kv+cache&venue=acl-2025&venue=emnlp-2024&year=2024"),
        ("venue", "acl-2025", "?q=kv+cache&year=2024"),
        ("topic", "long-context", "?q=kv+cache&venue=acl-2025&year=2024&topic=long-context"),
        ("year", "2025", "?q=kv+cache&venue=acl-2025&year=2025"),
        ("year", 2024, "?q=kv+cache&venue=acl-2025"),
        ("q", "kv cache", "?venue=acl-2025&year=2024"),
        ("q", "a&b=c", "?q=a%26b%3Dc&venue=acl-2025&year=2024"),
    ],
)
def test_a_value_is_added_or_removed_in_its_place_and_the_page_reset(name, value, expected):
    context = {"request": RequestFactory().get(URL)}
    assert toggle_query(context, name, value) == expected


def test_the_links_of_one_request_each_toggle_their_own_value():
    """The request's parameters are read once for all its links (_parameters)."""
    context = {"request": RequestFactory().get(URL)}
    assert [toggle_query(context, "venue", slug) for slug in ("a", "acl-2025", "b")] == [
        "?q=kv+cache&venue=acl-2025&venue=a&year=2024",
        "?q=kv+cache&year=2024",
        "?q=kv+cache&venue=acl-2025&venue=b&year=2024",
    ]


def test_without_a_request_or_parameters():
    assert toggle_query({}, "venue", "acl-2025") == "?venue=acl-2025"
    assert toggle_query({"request": RequestFactory().get("/?page=2")}, "page", "3") == "?"


def test_a_facet_full_of_values_offers_no_more(db):
    """At MAX_VALUES venues chosen, another venue would be a 400: it is shown, not linked; a
    chosen one still links (to remove it), and other facets still add."""
    chosen = [f"venue-{n}" for n in range(MAX_VALUES)]
    request = RequestFactory().get("/", [("venue", slug) for slug in chosen])
    context = {"request": request}
    more = parse(facet_link(context, "venue", "other", "Other", 3, False))
    assert more.find_all("a") == []
    assert more.find("span", class_="is-full").attrs["title"] == FULL
    chosen_link = parse(facet_link(context, "venue", "venue-0", "Venue 0", 3, True)).find("a")
    assert "venue=venue-0" not in chosen_link.attrs["href"]
    topic = parse(facet_link(context, "topic", "summarization", "Summarization", 3, False))
    assert topic.find("a").attrs["href"].endswith("&topic=summarization")
