"""Names with a number that titles write as a superscript ("M^3CoT", shown M³CoT): found as
typed, as copied from the page and as usually written (papers/understanding.py
``_superscripted``, papers/text.py ``typed_query``, papers/word_forms.py)."""

from urllib.parse import urlencode

import pytest

from papers.text import typed_query
from papers.understanding import join_compounds
from papers.word_forms import superscript_number
from tests.factories import finish, make_paper, make_venue

pytestmark = pytest.mark.django_db


def test_superscript_digits_are_searched_as_latex_writes_them():
    assert typed_query("M³CoT and MC² or x¹⁰") == "M^3CoT and MC^2 or x^10"
    assert typed_query("ﬁne-tuning") == "fine-tuning"


@pytest.mark.parametrize(
    ("word", "written"),
    [("M3CoT", "M^3CoT"), ("mc2", "mc^2"), ("GPT4o", "GPT^4o"), ("BERT", None), ("3D", None)],
)
def test_a_numbered_name_s_superscript_form(word, written):
    assert superscript_number(word) == written


@pytest.fixture
def numbered(db):
    venue = make_venue("ACL 2024", 2024)
    papers = {
        "m3cot": make_paper(
            "A benchmark for multi-step multi-modal reasoning.",
            title="M^3CoT: A Novel Benchmark for Multi-Domain Chain-of-Thought",
            venue=venue,
        ),
        "mc2": make_paper(
            "We study minority languages in China.",
            title="MC^2: Towards Transparent NLP for Minority Languages",
            venue=venue,
        ),
    }
    for n in range(5):
        make_paper(f"We fine-tune T5 on task {n}.", title=f"Task {n} with T5", venue=venue)
    finish()
    return papers


@pytest.mark.parametrize(
    ("typed", "key"),
    [("M3CoT", "m3cot"), ("m3cot benchmark", "m3cot"), ("M³CoT", "m3cot"), ("MC²", "mc2")],
)
def test_a_name_written_with_a_superscript_is_found_however_typed(client, numbered, typed, key):
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [result["id"] for result in body["results"]] == [numbered[key].pk]


def test_only_a_rare_numbered_name_is_searched_in_its_other_form(numbered):
    assert join_compounds("M3CoT")[0] == "M3CoT or M^3CoT"
    # T5 is in five papers: it means what it says (its other form would be a phrase to test).
    assert join_compounds("T5")[0] == "T5"
    # Not inside a quoted phrase, not where it is excluded.
    assert join_compounds('"M3CoT"')[0] == '"M3CoT"'
