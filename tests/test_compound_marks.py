"""Marks on the compounds a query types (papers/compound_marks.py): which they are, the query
the headlines read, the marks made whole, and the cards and search page that show them."""

import pytest

from papers.compound_marks import headline_query, typed_compounds, whole_compound_marks
from papers.models import Paper
from tests.factories import finish, make_paper
from tests.support import parse
from tests.test_headlines import marked, shown

FEW_SHOT = frozenset({("few", "shot")})


@pytest.mark.parametrize(
    ("typed", "text", "compounds"),
    [
        ("few-shot tagging", "fewshot tagging", {("few", "shot")}),
        ("Few shot tagging", "fewshot tagging", {("few", "shot")}),  # apart, joined by the search
        ("zero shot", 'zeroshot or "zero shot"', {("zero", "shot")}),
        ("in the wild", "inthewild", {("in", "the", "wild")}),
        # Not a long word split at its stop words ("in-form"), nor words the search kept apart.
        ("inform users", "inform users", set()),
        ("distribution shift", "distribution shift", set()),
    ],
)
def test_the_compounds_are_those_the_query_types(typed, text, compounds):
    assert typed_compounds(typed, text) == compounds


def test_the_headlines_query_adds_the_compounds_with_a_stop_word_hyphenated():
    assert headline_query("fewshot learning", FEW_SHOT) == "fewshot learning or few-shot learning"
    on_premises = frozenset({("on", "premises")})
    assert headline_query('onpremises "large models"', on_premises) == (
        'onpremises "large models" or on-premises "large models"'
    )
    # Without a stop word part, a compound is searched as its words in a row already.
    zero_shot = frozenset({("zero", "shot")})
    assert headline_query('zeroshot or "zero shot"', zero_shot) == 'zeroshot or "zero shot"'
    assert headline_query("inform", frozenset()) == "inform"


def test_the_querys_compounds_are_marked_whole():
    headline = marked("Few-[Shot] and [few]-[shot], not On-[Premises] or step-by-[step]")
    assert shown(whole_compound_marks(headline, FEW_SHOT)) == (
        "[Few-Shot] and [few-shot], not On-[Premises] or step-by-[step]"
    )
    zero_shot = frozenset({("zero", "shot")})
    assert shown(whole_compound_marks(marked("[Zero]-[Shot] [models]"), zero_shot)) == (
        "[Zero-Shot] [models]"
    )
    # Marks on other compounds' parts stay as ts_headline put them.
    assert shown(whole_compound_marks(marked("out-of-[distribution]"), frozenset())) == (
        "out-of-[distribution]"
    )
    assert whole_compound_marks("Few-Shot", FEW_SHOT) == "Few-Shot"


def test_cards_mark_a_stop_word_compound_and_show_its_passage(client, db):
    # "few-shot" marked no word of any card, and its snippets were the abstracts' first lines
    # (an outside researcher).
    opening = " ".join(f"Sentence {n} says nothing of interest here." for n in range(12))
    paper = make_paper(
        f"{opening} We study few-shot tagging to inform users.",
        title="Few-Shot Tagging with On-Premises Models",
    )
    make_paper("Fully supervised tagging.", title="Supervised Tagging")
    finish()
    [card] = Paper.objects.cards([paper.pk], "fewshot", "few-shot")
    assert shown(card.title_headline) == "[Few-Shot] Tagging with On-Premises Models"
    assert shown(card.headline).endswith("We study [few-shot] tagging to inform users.")
    page = parse(client.get("/?q=few+shot"))
    title = page.find("h3", class_="card-title")
    assert [mark.text for mark in title.find_all("mark")] == ["Few-Shot"]
    body = client.get("/api/papers/?q=few-shot").json()
    assert [r["id"] for r in body["results"]] == [paper.pk]
    assert body["results"][0]["snippet"].endswith(
        "We study <mark>few-shot</mark> tagging to inform users."
    )
    # "inform" marks "inform", not the "form" of a word split at "in" (a reviewer).
    body = client.get("/api/papers/?q=inform").json()
    assert body["results"][0]["snippet"].endswith("tagging to <mark>inform</mark> users.")


def test_cards_mark_a_compounds_part_only_inside_the_compound(db):
    paper = make_paper(
        "Test data from another distribution: out-of-distribution detection.",
        title="Distribution Shift and Out-of-Distribution Detection",
    )
    finish()
    [card] = Paper.objects.cards(
        [paper.pk], "outofdistribution detection", "out-of-distribution detection"
    )
    assert shown(card.title_headline) == (
        "Distribution Shift and [Out-of-Distribution] [Detection]"
    )
    assert shown(card.headline) == (
        "Test data from another distribution: [out-of-distribution] [detection]."
    )
