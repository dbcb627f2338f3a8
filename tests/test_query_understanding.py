"""Query understanding: the order a new query gets, identifiers, author names, partial
matches, corrected spelling, word forms and phrases (pages and API on real PostgreSQL)."""

from urllib.parse import urlencode

import pytest

from tests.factories import finish, make_paper, make_venue
from tests.support import parse

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
    assert fields == {"q": "", "sort": ""}
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
    corrected = parse(response).find("p", class_="corrected")
    assert corrected.text == (
        "Showing results for Evicting the KV cache for long context. "
        "Search instead for Evictng the KV cache for long contxt"
    )
    assert corrected.find("a").attrs["href"] == "?q=Evictng+the+KV+cache+for+long+contxt&literal=1"
    assert titles(response)[0] == "Evicting the KV Cache for Long-Context Inference"
    body = client.get("/api/papers/?q=Evictng+the+KV+cache+for+long+contxt").json()
    assert body["corrected_query"] == "Evicting the KV cache for long context"
    assert body["results"][0]["id"] == corpus["kv"].pk
    literal = client.get("/api/papers/?q=Evictng+the+KV+cache+for+long+contxt&literal=1").json()
    assert literal["corrected_query"] is None
    assert literal["count"] == 0


def test_a_respelling_that_matches_nothing_is_only_suggested(client, corpus):
    response = client.get("/?q=Evictng+yoruba")
    page = parse(response)
    link = page.find("p", class_="suggestion").find("a")
    assert link.text == "Evicting yoruba"
    assert not page.find_all("p", class_="corrected")
    partial = page.find("section", class_="partial")
    assert partial.find("h3").text == "Matching some of your words"
    assert [a.text for a in partial.find_all("a") if a.attrs["href"].startswith("/papers/")] == [
        "Parallel Data for Yoruba Translation"
    ]
