"""The query strings a list's facet links and filter chips toggle, and the line saying why a
paper is similar (papers/templatetags)."""

from types import SimpleNamespace

import pytest
from django.template.defaultfilters import floatformat
from django.test import RequestFactory

from papers.templatetags.papers_tags import decimals, similar_why
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


def test_a_similar_paper_s_reasons_in_words_and_their_weights_on_hover():
    item = SimpleNamespace(
        explanation=[
            {"signal": "text", "weight": 0.61234, "terms": [{"term": "kv cache"}, {"term": "<b>"}]},
            {"signal": "authors", "weight": 0.1, "authors": ["Ana & Bo", "Chen"]},
            {"signal": "year", "weight": 0.02, "year": 2024},
            {"signal": "venue", "weight": 0.03, "venue": "ACL 2024"},
            {"signal": "areas", "weight": 0.05, "areas": ["Machine Translation"]},
            {"signal": "topics", "weight": 0.04, "topics": ["Long Context", "Efficient Inference"]},
        ]
    )
    assert similar_why(item) == (
        '<p class="shared" title="text 0.61, authors +0.10, year +0.02, venue +0.03, '
        'areas +0.05, topics +0.04">Why: both use “kv cache”, “&lt;b&gt;” · '
        "same authors: Ana &amp; Bo, Chen · same year (2024) · same venue (ACL 2024) · "
        "same area: Machine Translation · shared topics: Long Context, Efficient Inference</p>\n"
    )


def test_a_similar_paper_without_shared_words_is_similar_in_wording():
    item = SimpleNamespace(explanation=[{"signal": "text", "weight": 0.3, "terms": []}])
    assert similar_why(item) == '<p class="shared" title="text 0.30">Why: similar wording</p>\n'


@pytest.mark.parametrize(
    ("value", "places", "written"),
    [
        (0.4817, 3, "0.482"),
        (0.125, 2, "0.13"),  # half up, not to even
        (2.675, 2, "2.68"),  # from the shortest decimal form, not the binary 2.67499...
        (3, 2, "3.00"),
        (-0.0001, 2, "0.00"),  # no "-0.00"
        (-1.005, 2, "-1.01"),
        (1e-9, 3, "0.000"),
    ],
)
def test_decimals_writes_what_floatformat_writes(value, places, written):
    assert decimals(value, places) == written == str(floatformat(value, places))
