"""Papers like a text (page and API), the explanation of similar papers, and a paper a curator
saves getting similar papers at once (papers/similar_text.py, papers/similarity_model.py)."""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import urlencode

from papers import similarity, similarity_model
from papers.models import Paper, Similarity, Venue
from tests.support import parse
from tests.test_admin import form_data

MLWQ = "MLWQ: Efficient Small Language Model Deployment via Multi-Level Weight Quantization"
TOPICAL = "Speech translation, retrieval and reasoning: quantization of multilingual agents."
RESULT_FIELDS = {
    "id",
    "external_id",
    "title",
    "display_title",
    "venue",
    "venue_slug",
    "year",
    "authors",
    "topics",
    "topic_slugs",
    "country",
    "url",
    "snippet",
    "score",
    "explanation",
    "shared_terms",
}


@pytest.fixture
def fitted(seeds):
    similarity.refresh_embeddings(force=True)


@pytest.fixture
def fitted_corpus(corpus):
    similarity.refresh_embeddings(force=True)
    return corpus


def post_text(client, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post("/api/similar/", data, content_type=content_type)


def meta_year(meta: str) -> int:
    """The year a card's venue line gives: "ACL 2025 · July 2025 · score 0.5" → 2025."""
    return int(re.findall(r"\b(?:19|20)[0-9]{2}\b", meta.split(" · score")[0])[-1])


def name_words(*papers) -> set[str]:
    """Every word and stem of the papers' author names."""
    words = set()
    with connection.cursor() as cursor:
        for paper in papers:
            cursor.execute(
                "SELECT tsvector_to_array(to_tsvector('english', %s)), "
                "regexp_split_to_array(lower(%s), '[^[:alnum:]]+')",
                [paper.author_names, paper.author_names],
            )
            stems, plain = cursor.fetchone()
            words |= set(stems) | set(plain)
    return words - {""}


# The text API ---------------------------------------------------------------------------------


def test_a_papers_own_abstract_finds_that_paper_first(client, fitted):
    paper = Paper.objects.get(title=MLWQ)
    response = post_text(client, {"text": paper.abstract, "limit": 3})
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == 3
    first = results[0]
    assert set(first) == RESULT_FIELDS
    assert (first["id"], first["title"], first["venue"]) == (paper.pk, MLWQ, paper.venue.name)
    assert first["venue_slug"] == paper.venue.slug
    assert first["year"] == paper.venue.year
    assert first["authors"] == [a.author.name for a in paper.authorships.order_by("position")]
    assert [signal["signal"] for signal in first["explanation"]] == ["text"]
    assert first["explanation"][0]["weight"] == first["score"]
    assert "quantization" in first["shared_terms"]
    scores = [item["score"] for item in results]
    assert scores == sorted(scores, reverse=True)


def test_numbers_are_never_shared_terms(client, fitted):
    # "Why: both use 'cache', '80'" (an outside tester): a number says nothing of a subject.
    text = "A scalable vision language model evaluated on 18 benchmarks."
    results = post_text(client, {"text": text, "limit": 3}).json()["results"]
    assert [result["shared_terms"] for result in results[:2]] == [
        ["scalable", "vision"],
        ["evaluated"],
    ]


def test_the_limit_defaults_to_twenty(client, fitted):
    response = post_text(client, {"text": TOPICAL})
    assert len(response.json()["results"]) == 20


@pytest.mark.parametrize(
    "body",
    [
        {"text": ""},
        {"text": "   "},
        {"text": "x" * 10_001},
        {"text": 42},
        {"limit": 5},
        {"text": "language models", "limit": 0},
        {"text": "language models", "limit": 101},
        {"text": "language models", "limit": "x"},
        {"text": "language models", "limit": 2.5},
        {"text": "language models", "limit": True},
        {"text": "language models", "venue": "nonexistent"},
        {"text": "language models", "year": 1999},
        {"text": "language models", "sort": "bogus"},
        {"text": "language models", "year": [2024]},
    ],
)
def test_bad_text_requests_get_a_json_400(client, fitted, body):
    response = post_text(client, body)
    assert response.status_code == 400
    assert response.json()["error"] in (
        "text must be 1 to 10,000 characters; limit 1 to 100; venue a venue's slug, year a "
        "year of the collection, sort similar or newest.",
        "limit must be a whole number from 1 to 100.",
        'text must be a string: {"text": "…", "limit": 20}.',
        "venue, year and sort are each a string (year a number).",
    )


def test_the_api_filters_and_sorts_as_the_page(client, fitted):
    venue = Venue.objects.get(name="ACL 2025")
    body = {"text": TOPICAL, "venue": venue.slug, "limit": 5}
    results = post_text(client, body).json()["results"]
    assert len(results) == 5
    assert {result["venue"] for result in results} == {"ACL 2025"}
    results = post_text(client, {"text": TOPICAL, "year": 2024}).json()["results"]
    assert results and {result["year"] for result in results} == {2024}
    results = post_text(client, {"text": TOPICAL, "sort": "newest"}).json()["results"]
    years = [result["year"] for result in results]
    assert years == sorted(years, reverse=True)


def test_the_api_takes_a_volumes_slug_and_the_page_lists_conferences(client, fitted):
    # "findings-of-emnlp-2023", listed by /api/venues/, was refused (an outside researcher).
    acl = Venue.objects.get(name="ACL 2025")
    findings = Venue.objects.create(
        name="Findings of ACL 2025", slug="findings-of-acl-2025", parent=acl, year=2025
    )
    Paper.objects.filter(venue=acl).update(venue=findings)
    body = {"text": TOPICAL, "venue": "findings-of-acl-2025", "limit": 5}
    results = post_text(client, body).json()["results"]
    assert [result["venue"] for result in results] == ["Findings of ACL 2025"] * 5
    menu = parse(client.get("/similar/")).find("select", name="venue")
    offered = [option.attrs["value"] for option in menu.find_all("option")]
    assert acl.slug in offered and findings.slug not in offered


@pytest.mark.parametrize(
    "raw",
    ["not json", b"\xff\xfe", "[1, 2]", '"text"', "", "[" * 5000 + "]" * 5000, '{"text":' * 5000],
)
def test_a_body_that_is_not_a_json_object_gets_a_400(client, fitted, raw):
    response = post_text(client, raw)
    assert response.status_code == 400
    assert response.json() == {
        "error": 'The body must be a JSON object: {"text": "…", "limit": 20}.'
    }


def test_the_text_api_is_post_only_and_needs_no_csrf_token(fitted):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.get("/api/similar/").status_code == 405
    assert post_text(strict, {"text": "quantization of weights", "limit": 1}).status_code == 200


def test_the_longest_text_allowed_is_answered(client, fitted):
    text = ("quantization " * 1000)[:10_000]
    assert post_text(client, {"text": text, "limit": 1}).status_code == 200


def test_a_drafts_line_breaks_count_one_character_each(client, fitted):
    # The browser sends each as CR LF: 9,950 characters with a hundred line breaks were
    # refused as 10,056 (an outside researcher), as the page's maxlength let them through.
    draft = "\r\n".join(["quantization of weights " * 4] * 103)
    assert (len(draft), len(draft.replace("\r\n", "\n"))) == (10_092, 9_990)
    response = client.post("/similar/", {"text": draft})
    assert response.status_code == 200
    assert parse(response).find("li", class_="card") is not None


# The text page ------------------------------------------------------------------------------


def test_the_page_is_linked_from_the_header_and_the_list(client, fitted):
    page = parse(client.get("/"))
    hrefs = [link.attrs.get("href") for link in page.find_all("a")]
    assert hrefs.count("/similar/") == 2


def test_the_page_finds_the_paper_of_a_pasted_abstract(client, fitted):
    paper = Paper.objects.get(title=MLWQ)
    assert client.get("/similar/").status_code == 200
    response = client.post("/similar/", {"text": paper.abstract})
    assert response.status_code == 200
    cards = parse(response).find_all("li", class_="card")
    assert len(cards) == 20
    assert cards[0].find("h3").find("a").text == MLWQ
    assert "quantization" in cards[0].find("p", class_="shared").text
    # Each card's topics, by name, as the result cards show them.
    shown = {
        int(card.find("h3").find("a").attrs["href"].split("/")[2]): [
            link.text for tags in card.find_all("ul", class_="tags") for link in tags.find_all("a")
        ]
        for card in cards
    }
    assert shown == {
        pk: list(Paper.objects.get(pk=pk).topics.order_by("name").values_list("name", flat=True))
        for pk in shown
    }
    assert any(shown.values())


def results_links(page) -> list[str]:
    return [a.attrs["href"] for a in page.find_all("a") if a.text == "Link to these results"]


def test_the_results_of_a_short_text_have_an_address_of_their_own(client, fitted):
    # Posted, they could be neither kept nor sent (an outside tester).
    venue = Venue.objects.get(name="ACL 2025")
    posted = parse(client.post("/similar/", {"text": TOPICAL, "venue": venue.slug}))
    [address] = results_links(posted)
    assert address == f"/similar/?{urlencode({'text': TOPICAL, 'venue': venue.slug})}"
    asked = parse(client.get(address))
    titles = [
        [h3.text for h3 in page.find_all("h3", class_="card-title")] for page in (posted, asked)
    ]
    assert titles[0] == titles[1] and len(titles[0]) == 20
    # A long text's results have none: its address would pass what a server takes.
    assert results_links(parse(client.post("/similar/", {"text": TOPICAL * 40}))) == []


def test_the_page_filters_by_year_and_venue_and_sorts_by_newest(client, fitted):
    venue = Venue.objects.get(name="ACL 2025")
    response = client.post("/similar/", {"text": TOPICAL, "venue": venue.slug})
    page = parse(response)
    assert page.find("h2", id="similar-heading").text == (
        "20 papers closest to your text, at ACL 2025"
    )
    titles = [h3.find("a").text for h3 in page.find_all("h3", class_="card-title")]
    assert len(titles) == 20
    assert set(titles) <= {paper.display_title for paper in Paper.objects.filter(venue=venue)}
    response = client.post("/similar/", {"text": TOPICAL, "year": "2024"})
    metas = [p.text for p in parse(response).find_all("p", class_="meta")]
    assert metas and all(meta_year(meta) == 2024 for meta in metas)
    response = client.post("/similar/", {"text": TOPICAL, "sort": "newest"})
    page = parse(response)
    assert page.find("h2", id="similar-heading").text == (
        "20 papers closest to your text, newest first"
    )
    years = [meta_year(p.text) for p in page.find_all("p", class_="meta")]
    assert years == sorted(years, reverse=True)


def test_the_page_says_what_is_wrong_with_an_empty_text(client, fitted):
    response = client.post("/similar/", {"text": ""})
    assert response.status_code == 400
    assert parse(response).find("p", class_="notice").text == "This field is required."


# The explanation --------------------------------------------------------------------------------


def test_shared_authors_are_shown_as_such_never_as_terms(client, fitted_corpus):
    kv, cache2 = fitted_corpus["kv"], fitted_corpus["cache2"]
    similar = Paper.objects.similar_to(kv, 4)
    assert similar[0].pk == cache2.pk
    signals = {signal["signal"]: signal for signal in similar[0].explanation}
    assert signals["authors"] == {"signal": "authors", "weight": 0.05, "authors": ["Ada Lovelace"]}
    names = name_words(kv, *similar)
    for item in similar:
        assert not set(item.shared_terms) & names
    page = parse(client.get(f"/papers/{kv.pk}/similar/"))
    shared = page.find("p", class_="shared")
    assert "same authors: Ada Lovelace" in shared.text
    assert "authors +0.05" in shared.find("span", class_="score-parts").text


@pytest.mark.parametrize("path", ["fitted", "text"])
def test_no_author_name_is_ever_a_shared_term(seeds, path):
    if path == "fitted":
        similarity.refresh_embeddings(force=True)
    else:
        Similarity.objects.all().delete()
    authored = Paper.objects.exclude(author_names="").order_by("pk")[:40]
    for paper in authored:
        for item in Paper.objects.similar_to(paper, 10):
            assert not set(item.shared_terms) & name_words(paper, item), (paper.pk, item.pk)


def test_the_similar_page_sorts_by_newest_and_refuses_other_sorts(client, fitted):
    paper = Paper.objects.get(title=MLWQ)
    response = client.get(f"/papers/{paper.pk}/similar/?sort=newest")
    years = [meta_year(p.text) for p in parse(response).find_all("p", class_="meta")]
    assert len(years) == 20 and years == sorted(years, reverse=True)
    assert client.get(f"/papers/{paper.pk}/similar/?sort=oldest").status_code == 400


# A paper saved by a curator ---------------------------------------------------------------------


def test_a_paper_added_in_the_admin_gets_similar_papers_at_once(admin_client, fitted):
    mlwq = Paper.objects.get(title=MLWQ)
    url = reverse("admin:papers_paper_add")
    data = form_data(admin_client.get(url), "paper_form")
    abstract = mlwq.abstract.replace("quantization", "quantisation", 1) + " Typed in by hand."
    data.update(
        title=["Multi-Level Weight Quantization, Typed In"],
        abstract=[abstract],
        venue=[str(mlwq.venue_id)],
        _save=["Save"],
    )
    assert admin_client.post(url, data).status_code == 302
    added = Paper.objects.get(title="Multi-Level Weight Quantization, Typed In")
    row = Similarity.objects.get(paper_id=added.pk)
    assert len(row.neighbours) == min(similarity.NEIGHBOURS, Paper.objects.count() - 1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT projected FROM papers_similarity WHERE paper_id = %s", [added.pk])
        assert cursor.fetchone() == (True,)
    similar = Paper.objects.similar_to(added, 5)
    assert similar[0].pk == mlwq.pk
    assert [signal["signal"] for signal in similar[0].explanation] == ["text", "year", "venue"]
    found = post_text(admin_client, {"text": abstract, "limit": 2}).json()["results"]
    assert [item["id"] for item in found] == [added.pk, mlwq.pk]


def test_no_paper_under_the_filters_says_the_filters_may_be_why(client, fitted):
    response = client.post("/similar/", {"text": "zzqx qqzv", "year": "2024"})
    assert parse(response).find("main").find_all("p")[-1].text == (
        "No paper of the venue or year chosen uses the words of this text: try without them."
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("venue", "nonexistent", "Venue: Select a valid choice."),
        ("year", "1999", "Year: Select a valid choice. 1999 is not one of the available choices."),
        (
            "sort",
            "bogus",
            "Sort: Select a valid choice. bogus is not one of the available choices.",
        ),
    ],
)
def test_the_page_says_which_choice_is_wrong(client, fitted, field, value, message):
    response = client.post("/similar/", {"text": TOPICAL, field: value})
    assert response.status_code == 400
    page = parse(response)
    [notice] = page.find_all("p", class_="notice")
    assert notice.text.startswith(message)
    assert page.find("select", id=f"id_{field}").attrs["aria_describedby"] == notice.attrs["id"]


def test_papers_projected_since_the_fit_are_vectorised_once_not_per_search(client, fitted):
    # Every text search reads the projected papers; their texts are read and vectorised only
    # when those rows change (0.6 s for 5,000 of them, a reviewer).
    paper = Paper.objects.get(title=MLWQ)
    paper.abstract = "Ternary quantization of speech recognisers for phones."
    paper.save()
    assert similarity_model.project_paper(paper.pk)
    asked = {"text": "ternary quantization of speech recognisers", "limit": 3}
    with CaptureQueriesContext(connection) as first:
        found = post_text(client, asked).json()["results"]
    assert found[0]["id"] == paper.pk
    with CaptureQueriesContext(connection) as second:
        again = post_text(client, asked).json()["results"]
    assert again == found
    assert len(second) == len(first) - 1
    assert not any("abstract" in query["sql"] and "ANY" in query["sql"] for query in second)
