"""A query asked as a question or a request, read for its subject (papers/questions.py)."""

import pytest

from papers.questions import question_subject


@pytest.mark.parametrize(
    ("typed", "subject"),
    [
        (
            "which papers study gender bias in machine translation?",
            "gender bias machine translation",
        ),
        (
            "what is the best method for detecting hallucinations in llms?",
            "detecting hallucinations llms",
        ),
        ("how to evaluate summarization factuality", "evaluate summarization factuality"),
        ("Is there a dataset for Yoruba NER?", "dataset Yoruba NER"),
        # Verbs that ask whether something exists or how to cope (an outside tester).
        ("what methods exist for detecting sarcasm", "detecting sarcasm"),
        (
            "how to handle class imbalance in text classification",
            "class imbalance text classification",
        ),
        ("what is the deal or no deal dialogue dataset", "deal or no deal dialogue dataset"),
        ("papers on code-switching", "code-switching"),
        ("papers by Luis Espinosa Anke?", "Luis Espinosa Anke"),
        # Phrases and exclusions are kept whole; "or" is the search's own.
        ('which papers use "chain of thought" -survey', '"chain of thought" -survey'),
        ("what about bert or gpt?", "bert or gpt"),
        ("what papers study state tracking?", "state tracking"),
        # Who asks and when are no subject (an outside researcher).
        ("how do people evaluate machine translation?", "evaluate machine translation"),
        ("what is the state of the art in sarcasm detection?", "sarcasm detection"),
        # As the search hands it on, its repeated words dropped.
        ("what is the state of art in sarcasm detection?", "sarcasm detection"),
        ("what is the current state-of-the-art for NER", "NER"),
        ("what are current approaches to dialogue state tracking", "dialogue state tracking"),
        # Elsewhere they are subject words (a reviewer).
        ("which papers study people with aphasia?", "people aphasia"),
        ("how do models handle current events?", "models current events"),
        ("find papers about new york times corpus", "new york times corpus"),
        ("what do we know about tokenization?", "tokenization"),
        ("can you recommend papers on RLHF?", "RLHF"),
        ("tell me about prompt injection", "prompt injection"),
        ("what is the best way to detect AI-generated text", "detect AI-generated text"),
        # Words asking for papers before a word saying what about.
        ("recent work on speculative decoding", "speculative decoding"),
        ("recent papers on speculative decoding", "speculative decoding"),
        ("latest research on speculative decoding", "speculative decoding"),
        ("literature about pragmatics", "pragmatics"),
        # Asking words go where they ask: "literature" is a subject word further on.
        ("which papers study literature review generation", "literature review generation"),
        ("papers on scientific literature summarization", "scientific literature summarization"),
        (
            "I am looking for datasets for Bengali sentiment analysis",
            "datasets Bengali sentiment analysis",
        ),
    ],
)
def test_a_question_is_read_for_its_subject(typed, subject):
    assert question_subject(typed) == subject


@pytest.mark.parametrize(
    "typed",
    [
        "kv cache eviction",  # asks nothing
        "best practices for evaluation",  # does not open as a question
        "what papers?",  # nothing but asking words
        "what is -bert?",  # nothing but an exclusion
        # Subjects whose first word could ask, or that end with a question mark:
        "search engines",
        "list decoding",
        "papers with code",
        "new york times corpus?",
        "work on",  # nothing said about
        "recent advances in parsing",  # "advances" says what the papers are
        "research software on github",
    ],
)
def test_a_query_that_does_not_ask_is_searched_as_typed(typed):
    assert question_subject(typed) is None
