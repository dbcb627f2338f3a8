"""Names with a number that titles write as a superscript ("M^3CoT", shown M³CoT): found as
typed, as copied from the page and as usually written (papers/numbered_names.py, papers/text.py
``typed_query``)."""

import re
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.numbered_names import superscript_number
from papers.text import typed_query
from papers.understanding import join_compounds
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
    assert join_compounds("M3CoT")[0] == 'M3CoT or "M^3CoT"'
    assert join_compounds("M3CoT few-shot")[0] == 'M3CoT few shot or "M^3CoT" few shot'
    # T5 is in five papers: it means what it says (its other form would be a phrase to test).
    assert join_compounds("T5")[0] == "T5"
    # Letters the index does not keep: "S^5" would be the number alone, every paper with a 5.
    assert join_compounds("S5 A2")[0] == "S5 A2"
    # An acronym's letters are not expanded in the other form ("large language model" and 2).
    # Its version apart is searched too (papers/compounds.py), and only once.
    assert join_compounds("LLM2")[0] == 'LLM2 or "LLM 2" or "LLM^2"'
    # Not inside a quoted phrase, not where it is excluded.
    assert join_compounds('"M3CoT"')[0] == '"M3CoT"'
    assert join_compounds("benchmark -M3CoT")[0] == "benchmark -M3CoT"
    assert join_compounds("model -T5")[0] == "model -T5"  # not "-T^5", every paper with a 5


def test_the_numbered_names_of_a_query_cost_one_statement_with_its_other_words(numbered):
    # One statement asks which names are rare and which words are also written otherwise
    # (papers/word_lookups.py), however many the query has.
    # An excluded word too: it is excluded in its other spelling (papers/accents.py).
    for text in ("M3CoT T5 MC2", "cache", "-cache"):
        with CaptureQueriesContext(connection) as context:
            join_compounds(text)
        assert len(context.captured_queries) == 1
    with CaptureQueriesContext(connection) as context:
        join_compounds("-- 42")
    assert len(context.captured_queries) == 0


def test_a_found_numbered_name_is_shown_with_its_superscript_highlighted(client, numbered):
    page = client.get("/?" + urlencode({"q": "M3CoT"})).content.decode()
    titles = re.findall(r'<h3 class="card-title"><a href="/papers/\d+/">(.*?)</a>', page)
    assert titles == [
        "<mark>M<sup>3</sup>CoT</mark>: A Novel Benchmark for Multi-Domain Chain-of-Thought"
    ]
