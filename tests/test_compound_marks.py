"""Marks on compounds with a stop word part (papers/compound_marks.py): the query the headlines
read, the marks widened over the compound, and the cards and search page that show them."""

import pytest

from papers.compound_marks import headline_query, stop_word_parts, whole_compound_marks
from papers.models import Paper
from tests.factories import finish, make_paper
from tests.support import parse
from tests.test_headlines import marked, shown


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("fewshot", ["few", "shot"]),
        ("onpremises", ["on", "premises"]),
        ("inthewild", ["in", "the", "wild"]),  # the most stop words
        ("stateoftheart", ["state", "of", "the", "art"]),
        ("endtoend", ["end", "to", "end"]),
        ("language", None),  # no stop word in it
        ("without", None),  # itself a stop word, of stop words
        ("theory", ["the", "ory"]),  # harmless: no text writes "the-ory"
        ("transformers", ["trans", "for", "mers"]),
    ],
)
def test_a_joined_word_is_split_at_its_stop_words(word, parts):
    assert stop_word_parts(word) == parts


def test_the_headlines_query_adds_the_compounds_hyphenated():
    assert headline_query("fewshot learning") == "fewshot learning or few-shot learning"
    assert headline_query('onpremises "large models"') == (
        'onpremises "large models" or on-premises "large models"'
    )
    # Nothing to add: the query as it is; an excluded word is not marked anyway.
    assert headline_query("language models") == "language models"
    assert headline_query("models -fewshot") == "models -fewshot"


def test_a_mark_is_widened_over_the_stop_word_parts_of_its_compound():
    assert shown(whole_compound_marks(marked("Few-[Shot] and On-[Premises] LLMs"))) == (
        "[Few-Shot] and [On-Premises] LLMs"
    )
    assert shown(whole_compound_marks(marked("in-the-[wild] and [sign]-in"))) == (
        "[in-the-wild] and [sign-in]"
    )
    assert shown(whole_compound_marks(marked("[Zero]-[Shot] [models]"))) == "[Zero-Shot] [models]"
    # A content word beside the mark stays out of it; an unmarked text is left as it is.
    assert shown(whole_compound_marks(marked("Pre-[Trained] models"))) == "Pre-[Trained] models"
    assert shown(whole_compound_marks(marked("State-of-the-[Art]"))) == "State-[of-the-Art]"
    assert shown(whole_compound_marks(marked("[Sign]-in-Pre"))) == "[Sign-in]-Pre"
    assert whole_compound_marks("Few-Shot") == "Few-Shot"


def test_cards_mark_a_stop_word_compound_and_show_its_passage(client, db):
    # "few-shot" marked no word of any card, and its snippets were the abstracts' first lines
    # (an outside researcher).
    opening = " ".join(f"Sentence {n} says nothing of interest here." for n in range(12))
    paper = make_paper(
        f"{opening} We study few-shot tagging.", title="Few-Shot Tagging with On-Premises Models"
    )
    make_paper("Fully supervised tagging.", title="Supervised Tagging")
    finish()
    [card] = Paper.objects.cards([paper.pk], "fewshot")
    assert shown(card.title_headline) == "[Few-Shot] Tagging with On-Premises Models"
    assert shown(card.headline).endswith("We study [few-shot] tagging.")
    page = parse(client.get("/?q=few-shot"))
    title = page.find("h3", class_="card-title")
    assert [mark.text for mark in title.find_all("mark")] == ["Few-Shot"]
    body = client.get("/api/papers/?q=few-shot").json()
    assert [r["id"] for r in body["results"]] == [paper.pk]
    assert body["results"][0]["snippet"].endswith("We study <mark>few-shot</mark> tagging.")
