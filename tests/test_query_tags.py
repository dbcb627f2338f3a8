"""The query strings a list's facet links and filter chips toggle
(papers/templatetags/query_tags.py)."""

import pytest
from django.test import RequestFactory

from papers.templatetags.query_tags import toggle_query

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
