"""The pages a server process serves itself as it starts (site/first_pages.py)."""

import pytest
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext
from first_pages import sample_paths, serve_samples

from papers.models import Author, Paper, Topic

WITHOUT_DATA = ["/", "/?q=language+models", "/api/papers/?q=language+models"]


def test_a_collection_without_papers_is_sampled_by_the_pages_that_need_none(db):
    assert sample_paths() == WITHOUT_DATA


@pytest.fixture
def connection_kept():
    """The test's transaction stays open across the requests: Django closes a connection in
    a transaction as a request starts and finishes (its test client stops that too)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def test_each_sample_page_answers_as_a_reader_s_request_over_https_would(
    corpus, settings, connection_kept
):
    """Sent as HTTPS: a site that redirects plain HTTP serves the pages."""
    settings.SECURE_SSL_REDIRECT = True
    paper = Paper.objects.order_by("pk").first().pk
    topic = Topic.objects.order_by("pk").first().slug
    author = Author.objects.order_by("pk").first().slug
    paths = [
        *WITHOUT_DATA,
        f"/papers/{paper}/",
        f"/papers/{paper}/similar/",
        f"/?topic={topic}",
        f"/authors/{author}/",
    ]
    assert serve_samples(get_wsgi_application()) == [(path, "200 OK") for path in paths]


def test_the_samples_leave_no_page_in_the_cache(corpus, settings, connection_kept, client):
    """A worker's own samples do the work: the master's are not kept for them to hit."""
    settings.RESPONSE_CACHE = True
    cache.clear()
    serve_samples(get_wsgi_application())
    with CaptureQueriesContext(connection) as first:
        client.get("/?q=language+models")
    with CaptureQueriesContext(connection) as again:
        client.get("/?q=language+models")
    cache.clear()
    assert len(again) == 1 < len(first)  # the data's version, then the page from the cache
