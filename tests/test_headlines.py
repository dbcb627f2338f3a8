"""Phrase marks (papers/headlines.py ``phrase_marks``): a phrase's words marked only where the
whole phrase stands, on ts_headline's own output."""

import pytest

from papers.headlines import FRAGMENT_DELIMITER, MARK_START, MARK_STOP, phrase_marks
from papers.models import Paper
from tests.factories import finish, make_paper


def marked(text: str) -> str:
    """``text`` with [brackets] as ts_headline's marks."""
    return text.replace("[", MARK_START).replace("]", MARK_STOP)


def shown(text: str) -> str:
    return text.replace(MARK_START, "[").replace(MARK_STOP, "]")


def test_lone_words_of_a_phrase_lose_their_marks():
    headline = marked("Large [language] [models] are [models] of [language]; [language] [models].")
    assert shown(phrase_marks(headline, "'languag' <-> 'model'")) == (
        "Large [language] [models] are models of language; [language] [models]."
    )


def test_a_stop_word_inside_a_phrase_counts_as_a_position():
    headline = marked("[language] of [models], [language] [models] and [language] in [models]")
    assert shown(phrase_marks(headline, "'languag' <2> 'model'")) == (
        "[language] of [models], language models and [language] in [models]"
    )


def test_words_asked_for_outside_a_phrase_keep_every_mark():
    headline = marked("[models] of [evaluation]: [language] [models]")
    assert shown(phrase_marks(headline, "'languag' <-> 'model' & 'evalu'")) == (
        "models of [evaluation]: [language] [models]"
    )
    # The same word alone and in a phrase: marked everywhere.
    headline = marked("[models] of [language]: [language] [models]")
    assert shown(phrase_marks(headline, "'languag' <-> 'model' & 'model'")) == (
        "[models] of language: [language] [models]"
    )


def test_an_excluded_phrase_marks_nothing():
    headline = marked("[BERT] uses [neural] layers, not [nets]")
    query = "'bert' & !( 'neural' <-> 'net' )"
    assert shown(phrase_marks(headline, query)) == "[BERT] uses neural layers, not nets"


def test_a_hyphenated_phrase_is_matched_by_its_parts():
    headline = marked("[fine]-[tuning] of [language] [models], then [fine] [tuning]")
    query = "'fine-tun' <-> 'fine' <-> 'tune' <2> 'languag' <-> 'model'"
    # "tuning" begins with no lexeme of the query (tune): not known, it may be any of them.
    assert shown(phrase_marks(headline, query)) == (
        "[fine]-[tuning] of [language] [models], then fine [tuning]"
    )


def test_a_compounds_part_keeps_its_mark_only_inside_the_compound():
    # "out-of-distribution detection" marked every lone "distribution" (a reviewer).
    headline = marked("[out]-[of]-[distribution] data, the same [distribution], in-[distribution]")
    query = "'out-of-distribut' <3> 'distribut' & 'detect'"
    assert shown(phrase_marks(headline, query)) == (
        "[out]-[of]-[distribution] data, the same distribution, in-distribution"
    )
    # Another compound's part is no part of the query's: "zero-shot" for "few-shot" (a reviewer).
    headline = marked("few-[shot] [learning], zero-[shot] [learning], 4-[shot]")
    query = "'few-shot' <2> 'shot' <-> 'learn'"
    assert shown(phrase_marks(headline, query)) == (
        "few-[shot] [learning], zero-shot learning, 4-shot"
    )
    # The stemmer rewrites a compound's end: "multi-party" is 'multi-parti' (a reviewer).
    headline = marked("[multi]-[party] [dialogue], [multi]-task")
    query = "'multi-parti' <-> 'multi' <-> 'parti' & 'dialogu'"
    assert shown(phrase_marks(headline, query)) == "[multi]-[party] [dialogue], multi-task"
    headline = marked("[sequence]-to-[sequence] [models] of [sequences]")
    query = "'sequence-to-sequ' <-> 'sequenc' <2> 'sequenc' & 'model'"
    assert shown(phrase_marks(headline, query)) == (
        "[sequence]-to-[sequence] [models] of sequences"
    )


def test_a_phrase_does_not_run_across_a_fragment_cut():
    headline = marked(f"about [language]{FRAGMENT_DELIMITER}[models] of")
    assert shown(phrase_marks(headline, "'languag' <-> 'model'")) == (
        f"about language{FRAGMENT_DELIMITER}models of"
    )


def test_a_query_without_a_phrase_is_left_as_it_is():
    headline = marked("[models] of [language]")
    assert phrase_marks(headline, "'languag' & 'model'") == headline
    assert phrase_marks("no marks", "'languag' <-> 'model'") == "no marks"


@pytest.mark.django_db
def test_cards_mark_a_phrase_only_where_it_stands():
    paper = make_paper(
        "Language is hard for models. We train language models on models of language.",
        title="Models of Language Models",
    )
    finish()
    [card] = Paper.objects.cards([paper.pk], '"language models"')
    assert shown(card.headline) == (
        "Language is hard for models. We train [language] [models] on models of language."
    )
    assert shown(card.title_headline) == "Models of [Language] [Models]"


def test_a_phrase_with_a_number_keeps_every_mark():
    # PostgreSQL reads "3.5" and "-3.5" as one word each: counted here as two, the phrase was
    # never found and every mark was dropped.
    headline = marked("We compare [GPT]-[3.5] with [Llama] [3.1] [models].")
    assert phrase_marks(headline, "'gpt' <-> '-3.5'") == headline
    assert phrase_marks(headline, "'llama' <-> '3.1' <-> 'model'") == headline
