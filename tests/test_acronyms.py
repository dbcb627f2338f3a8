"""The acronyms a query is also searched as the words of (papers/acronyms.py)."""

import pytest

from papers.acronyms import expansion


@pytest.mark.parametrize(
    ("word", "words"),
    [
        ("RAG", '"retrieval augmented generation"'),
        ("rag", '"retrieval augmented generation"'),
        ("LLMs", '"large language model"'),
        ("QA", '"question answering"'),
        ("tts", '"text to speech"'),
        ("rags", '"retrieval augmented generation"'),
        ("ragout", None),
        ("s", None),
        ("model", None),
    ],
)
def test_an_acronym_stands_for_its_words_in_any_case_and_number(word, words):
    assert expansion(word) == words
