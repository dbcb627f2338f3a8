"""A query's words as typed (papers/typed_words.py): which are counted, which are acronyms."""

from papers.typed_words import acronyms, patterns, typed_words


def test_the_words_counted_are_lowercased_once_without_stop_words_or_negations():
    assert typed_words("GLUE and the glue -pizza or BERT") == ["glue", "bert"]
    # An excluded phrase's words too: they are no words of the papers wanted.
    assert typed_words('cache -"kv store" or -"tea') == ["cache"]
    # But a word typed is counted where an excluded phrase has it too.
    assert typed_words('summarization -"abstractive summarization"') == ["summarization"]


def test_a_word_of_two_capitals_or_more_is_an_acronym():
    assert acronyms("SQuAD and BERT for Bert") == {1: "SQuAD", 2: "BERT"}
    assert acronyms("GLUE benchmark") == {1: "GLUE"}
    assert acronyms("Glue benchmark -GLUE") == {}


def test_several_words_all_in_capitals_are_caps_lock_not_acronyms():
    assert acronyms("MACHINE TRANSLATION") == {}
    assert acronyms("GLUE") == {1: "GLUE"}


def test_an_acronym_is_matched_as_written_or_in_capitals():
    assert patterns("SQuAD tasks") == {
        "word_pattern1": r"\msquad\M",
        "cased1": r"\m(?:SQuAD|SQUAD)\M",
        "word_pattern2": r"\mtasks\M",
    }
