"""page_url: the URLs reverse gives, without reversing each one."""

import pytest
from django.urls import NoReverseMatch, reverse, set_script_prefix

from papers.links import page_url


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("paper-detail", 12),
        ("paper-detail", "0012"),
        ("venue-detail", "acl-2025"),
        ("topic-detail", "question-answering"),
        ("author-detail", "王小明"),
        ("author-detail", "иван-петров-2"),
    ],
)
def test_the_url_is_the_one_reverse_gives(name, value):
    assert page_url(name, value) == reverse(name, args=[value])


def test_the_author_url_quotes_the_slug_as_reverse_does():
    assert page_url("author-detail", "王小明") == "/authors/%E7%8E%8B%E5%B0%8F%E6%98%8E/"


@pytest.mark.parametrize(
    ("name", "value"), [("author-detail", ""), ("topic-detail", "a b"), ("paper-detail", "x")]
)
def test_a_value_the_route_refuses_is_refused(name, value):
    with pytest.raises(NoReverseMatch):
        page_url(name, value)


def test_the_script_prefix_is_the_requests():
    set_script_prefix("/papers-site/")
    try:
        assert page_url("venue-detail", "acl-2025") == "/papers-site/venues/acl-2025/"
    finally:
        set_script_prefix("/")
    assert page_url("venue-detail", "acl-2025") == "/venues/acl-2025/"
