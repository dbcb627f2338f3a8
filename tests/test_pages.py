"""Every page through the test client: content, links, query counts, hostile parameters."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.models import Paper, Topic, TopicRedirect
from tests.factories import finish, make_paper, make_venue, many_papers

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


def test_home_lists_every_paper_newest_venue_first(client, corpus):
    html = get(client, "/").content.decode()
    assert "5 papers" in html
    titles = re.findall(r'<h3 class="card-title"><a href="/papers/\d+/">([^<]+)</a>', html)
    # ACL 2025 (2025) before EMNLP 2024, then title A–Z (untitled by their abstract).
    assert titles == [
        "Evicting the KV Cache for Long-Context Inference",
        "Quantised KV Cache Compression",
        "Speech recognition systems struggle with accented speech",
        "Noisy Retrieval Hurts Faithfulness",
        "Parallel Data for Yoruba Translation",
    ]
    assert html.count("derived title</span>") == 1


def test_search_puts_the_paper_on_the_subject_first(client, corpus):
    html = get(client, "/?q=kv+cache+eviction").content.decode()
    first = re.search(r'<h3 class="card-title"><a href="/papers/(\d+)/">', html).group(1)
    assert int(first) == corpus["kv"].pk
    assert "<mark>KV</mark> <mark>Cache</mark>" in html
    assert "2 papers" in html


def test_facet_links_toggle_filters_and_counts_follow_other_filters(client, corpus):
    html = get(client, "/?q=attention&venue=acl-2025").content.decode()
    # Under venue=acl-2025 two papers match; the venue facet itself still counts every venue.
    assert "2 papers" in html
    assert re.search(r'href="\?q=attention"[^>]*aria-current="true">.*?ACL 2025.*?>2<', html, re.S)
    assert re.search(
        r'href="\?q=attention&amp;venue=acl-2025&amp;venue=emnlp-2024".*?EMNLP 2024.*?>1<',
        html,
        re.S,
    )
    assert 'aria-label="Remove filter Venue acl-2025"' in html


def test_list_query_count_is_fixed(client, corpus):
    many_papers(30)
    finish()
    small, _ = count_queries(client, "/?q=kv+cache")
    large, response = count_queries(client, "/?q=corpus")
    browse, _ = count_queries(client, "/?venue=acl-2025&page=2")
    assert (small, large, browse) == (4, 4, 4)
    assert response.content.decode().count('class="card"') == 25


def test_no_results_offers_closest_titles_and_did_you_mean(client, corpus):
    queries, response = count_queries(client, "/?q=Evictng+the+KV+cache+for+long+contxt")
    html = response.content.decode()
    assert "No papers found" in html
    assert 'Did you mean <a href="?q=Evicting%20the%20KV%20cache%20for%20long%20context">' in html
    assert "Evicting the KV Cache for Long-Context Inference</a>" in html
    assert queries == 4


def test_pagination_edges(client, corpus):
    many_papers(60, word="zebra")
    finish()
    html = get(client, "/?q=zebra").content.decode()
    assert "60 papers, showing 1–25" in html
    assert '<link rel="next" href="?q=zebra&amp;page=2">' in html
    assert 'rel="prev"' not in html
    html = get(client, "/?q=zebra&page=3").content.decode()
    assert "showing 51–60" in html
    assert '<link rel="prev" href="?q=zebra&amp;page=2">' in html
    assert 'rel="next"' not in html
    html = get(client, "/?q=zebra&page=99999999999999999999").content.decode()
    assert "There are only 3 pages; showing the last." in html
    assert "showing 51–60" in html
    for bad in ["abc", "-1", "0", "1.5", "%00", "２"]:
        response = get(client, f"/?q=zebra&page={bad}", status=400)
        assert "page must be" in response.content.decode()


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


def test_long_query_is_cut_with_a_message(client, corpus):
    html = get(client, "/?q=" + "cache+" * 200).content.decode()
    assert "only its first 500 were used" in html


def test_paper_page(client, corpus):
    paper = corpus["kv"]
    queries, response = count_queries(client, f"/papers/{paper.pk}/")
    html = response.content.decode()
    assert queries == 5
    assert '<h1 id="paper-title">Evicting the KV Cache for Long-Context Inference</h1>' in html
    assert f'<link rel="canonical" href="http://testserver/papers/{paper.pk}/">' in html
    assert (
        '<meta name="citation_title" content="Evicting the KV Cache for Long-Context Inference">'
        in html
    )
    assert html.count('<meta name="citation_author"') == 2
    assert '<meta name="citation_publication_date" content="2025">' in html
    assert '<a href="/topics/efficiency/">efficiency</a>' in html
    assert "author = {Ada Lovelace and Alan Turing}" in html
    assert f'href="/papers/{corpus["cache2"].pk}/">Quantised KV Cache Compression</a>' in html
    assert 'data-copy-target="bibtex" hidden' in html
    get(client, f"/papers/{paper.pk}-evicting-the-kv-cache/")
    get(client, f"/papers/{paper.pk}/evicting-the-kv-cache/")
    get(client, "/papers/999999/", status=404)
    get(client, "/papers/99999999999999999999999999/", status=404)


def test_derived_title_is_marked(client, corpus):
    html = get(client, f"/papers/{corpus['speech'].pk}/").content.decode()
    assert (
        '<h1 id="paper-title">Speech recognition systems struggle with accented speech</h1>' in html
    )
    assert '<span class="badge">derived title</span>' in html


def test_related_titles_link_when_in_the_collection(client, corpus):
    paper = make_paper(
        "An abstract about parsing.",
        title="Parsing Things",
        related_titles=["Noisy Retrieval Hurts Faithfulness", "A Paper We Do Not Have"],
    )
    finish()
    html = get(client, f"/papers/{paper.pk}/").content.decode()
    assert (
        f'<a href="/papers/{corpus["retrieval"].pk}/">Noisy Retrieval Hurts Faithfulness</a>'
        in html
    )
    assert "<li>A Paper We Do Not Have</li>" in html


def test_similar_page(client, corpus):
    queries, response = count_queries(client, f"/papers/{corpus['kv'].pk}/similar/")
    html = response.content.decode()
    assert queries == 4
    first = re.search(r'<h2 class="card-title"><a href="/papers/(\d+)/">', html).group(1)
    assert int(first) == corpus["cache2"].pk
    assert "Shared terms: " in html
    assert f'href="/papers/{corpus["kv"].pk}/">Evicting' in html  # only in the heading
    assert html.count(f'<h2 class="card-title"><a href="/papers/{corpus["kv"].pk}/"') == 0


def test_venue_pages(client, corpus):
    queries, response = count_queries(client, "/venues/")
    html = response.content.decode()
    assert queries == 1
    assert '<a href="/venues/acl-2025/">ACL 2025</a>' in html
    assert '<td class="num">3</td>' in html
    queries, response = count_queries(client, "/venues/acl-2025/?q=cache")
    html = response.content.decode()
    assert queries == 6
    assert '<svg class="chart"' in html
    assert "efficiency: 2 papers" in html
    assert "2 papers" in html
    get(client, "/venues/nowhere/", status=404)


def test_topic_pages_and_redirects(client, corpus):
    html = get(client, "/topics/").content.decode()
    assert '<a href="/topics/attention/">attention</a>' in html
    queries, response = count_queries(client, "/topics/attention/")
    html = response.content.decode()
    assert queries == 6
    assert "2 papers" in html
    assert "ACL 2025: 1 papers" in html
    TopicRedirect.objects.create(old_slug="attn", topic=Topic.objects.get(slug="attention"))
    response = get(client, "/topics/attn/", status=301)
    assert response["Location"] == "/topics/attention/"
    get(client, "/topics/none-such/", status=404)


def test_author_page(client, corpus):
    queries, response = count_queries(client, "/authors/ada-lovelace/")
    html = response.content.decode()
    assert queries == 6
    assert "3 papers" in html
    assert '<a href="/authors/alan-turing/">Alan Turing</a> (1)' in html
    assert '<a href="/authors/grace-hopper/">Grace Hopper</a> (1)' in html
    assert '<a href="/venues/acl-2025/">ACL 2025</a> (2)' in html


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
        html = get(client, url).content.decode()
        assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", html) == []
        assert " style=" not in html and "<style" not in html
        assert re.search(r"\son[a-z]+=", html) is None


def test_healthz(client, db):
    assert get(client, "/healthz").json() == {"status": "ok"}


def test_paper_rows_stay_unchanged(client, corpus):
    before = list(Paper.objects.values_list("pk", "title").order_by("pk"))
    get(client, "/?q=cache")
    assert list(Paper.objects.values_list("pk", "title").order_by("pk")) == before
