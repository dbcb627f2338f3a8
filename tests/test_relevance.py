"""The relevance score (papers/relevance.py) on a small corpus: words as typed, length
normalisation, stop words, title matches first, and its two bounded stages."""

from urllib.parse import urlencode

import pytest

from papers import relevance
from papers.models import Paper
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def forms(db):
    venue = make_venue("ACL 2024", 2024)
    papers = {
        "titled": make_paper(
            "Nothing more is said here.", title="Trees and Structures", venue=venue
        ),
        "exact": make_paper(
            "Our structures use trees for parsing sentences quickly.",
            title="Parsing Sentences",
            venue=venue,
        ),
        "stemmed": make_paper(
            "A tree structure, then a tree with a structure, and one more tree structure.",
            title="Grammar Induction",
            venue=venue,
        ),
        "short": make_paper("Sparse attention heads matter.", title="Heads Up", venue=venue),
        "long": make_paper(
            "We look at sparse attention heads in large models, trained on many languages, "
            "and we report what they attend to across tasks, layers, scales and seeds.",
            title="Looking Inside",
            venue=venue,
        ),
    }
    finish()
    return papers


def ranked(text: str) -> list[int]:
    return [pk for pk, _ in Paper.objects.ranked_ids(text, 25)]


def test_words_as_typed_outrank_the_same_stems(forms):
    # All three match "structures trees" by stem. The title match first; then the paper
    # saying "structures" and "trees", before the one saying "structure" and "tree" thrice.
    assert ranked("structures trees") == [
        forms["titled"].pk,
        forms["exact"].pk,
        forms["stemmed"].pk,
    ]
    assert ranked("structure tree") == [
        forms["titled"].pk,
        forms["stemmed"].pk,
        forms["exact"].pk,
    ]


def test_a_shorter_paper_with_the_same_words_ranks_first(forms):
    assert ranked("sparse attention heads")[:2] == [forms["short"].pk, forms["long"].pk]
    # "Heads Up" has "heads" in its title but not "sparse": no title match, length decides.
    assert ranked("sparse heads") == [forms["short"].pk, forms["long"].pk]


def test_a_typed_stop_word_counts_a_little(forms):
    # "they" (a stop word: no stem, so every paper matches without it) is in the long
    # abstract only: its score rises, the short one's stays.
    without = dict(Paper.objects.ranked_ids("sparse heads", 25))
    with_they = dict(Paper.objects.ranked_ids("sparse heads they", 25))
    assert with_they[forms["short"].pk] == pytest.approx(without[forms["short"].pk])
    assert with_they[forms["long"].pk] > without[forms["long"].pk]


def test_the_two_stages_agree_with_the_uncapped_score(db):
    # Every paper matches "grammar": the candidates are the collection, so their average size
    # is the collection's, which the uncapped score uses; all are read in stage two.
    venue = make_venue("ACL 2024", 2024)
    make_paper("Grammar rules.", title="Grammar Induction", venue=venue)
    make_paper("A grammar of grammars, for grammar writers.", title="Writers", venue=venue)
    make_paper("We induce a grammar from trees.", title="Tree Grammars", venue=venue)
    finish()
    capped = Paper.objects.ranked_ids("grammar", 25)
    full = [(paper.pk, paper.score) for paper in Paper.objects.search("grammar")]
    assert [pk for pk, _ in capped] == [pk for pk, _ in full]
    assert [score for _, score in capped] == pytest.approx([score for _, score in full])


def test_stage_two_reads_only_the_best_abstracts(forms, monkeypatch):
    # Stage one: no title has "structure" or "tree" as typed but the titled one (a title
    # match), each other paper counted once per word, so the shorter "exact" one comes second.
    # Read, the stemmed paper's three "tree structure"s put it second; unread (only the page's
    # two best are), it is not on the page.
    def page_of_two():
        return [pk for pk, _ in Paper.objects.ranked_ids("structure tree", 2)]

    assert page_of_two() == [forms["titled"].pk, forms["stemmed"].pk]
    monkeypatch.setattr(relevance, "RESCORED", 1)
    assert page_of_two() == [forms["titled"].pk, forms["exact"].pk]


def test_pages_of_a_ranking_neither_repeat_nor_skip_a_paper(db, monkeypatch):
    # Stage one ties every paper (the same title), so it takes them by id; stage two counts
    # the abstract's "zebra"s, the most in the last papers made. Rescoring the papers a page
    # reaches moved those last papers ahead on deep pages, over papers the first page had
    # shown.
    monkeypatch.setattr(relevance, "RESCORED", 10)
    venue = make_venue("ACL 2024", 2024)
    for index in range(30):
        make_paper(f"On {'zebra ' * (index // 10 + 1)}stripes {index}.", title="Zebra", venue=venue)
    finish()
    ranked = Paper.objects.ranked_ids("zebra", 30)
    whole = [pk for pk, _ in ranked]
    # One order: the scores only fall, past the papers whose abstracts were read too.
    assert [score for _, score in ranked] == sorted((score for _, score in ranked), reverse=True)
    pages = [
        pk for offset in range(0, 30, 4) for pk, _ in Paper.objects.ranked_ids("zebra", 4, offset)
    ]
    assert pages == whole
    assert len(set(whole)) == 30


def test_the_api_returns_the_pages_order(client, forms):
    query = urlencode({"q": "structures trees"})
    page = parse(client.get("/?" + query))
    titles = [node.find("a").text for node in page.find_all("h3", class_="card-title")]
    results = client.get("/api/papers/?" + query).json()["results"]
    assert titles == ["Trees and Structures", "Parsing Sentences", "Grammar Induction"]
    assert [r["title"] for r in results] == titles


def test_a_paper_without_an_abstract_is_not_counted_short(db):
    # The same title twice: one record without an abstract, one whose abstract says "spell"
    # again. Counted as short, the bare record's title words outweighed the other's extra
    # "spell"; of unknown length (normalised as average), it comes second.
    venue = make_venue("ACL 2024", 2024)
    bare = make_paper("", title="Chinese Spell Checking with Glyphs", venue=venue)
    described = make_paper(
        "We check the spelling of Chinese text with a glyph encoder. " * 12
        + "Spell checkers miss look-alike characters.",
        title="Chinese Spell Checking with Glyphs",
        venue=venue,
    )
    finish()
    assert ranked("chinese spell") == [described.pk, bare.pk]
    assert [paper.pk for paper in Paper.objects.search("chinese spell")] == [
        described.pk,
        bare.pk,
    ]


def test_a_shorter_matching_title_outweighs_a_dense_abstract(db):
    # Both titles have both words; the long title's short abstract repeats them. Of two titles
    # matching a query, the one with fewer other words is the likelier one meant: that
    # outweighs the abstract's repeats (it did not, with the length bonus at half its first
    # tuned weight).
    venue = make_venue("ACL 2024", 2024)
    short = make_paper(
        "We compare methods on a new benchmark of news articles and reviews. " * 4,
        title="Continual Classification",
        venue=venue,
    )
    long = make_paper(
        "Continual classification. " * 3,
        title="Continual Learning for Text Classification with Information Disentanglement",
        venue=venue,
    )
    for number in range(30):
        make_paper(f"Parsing with trees, {number} times.", title=f"Grammar {number}", venue=venue)
    finish()
    assert ranked("continual classification") == [short.pk, long.pk]


def test_a_title_naming_the_query_ranks_first(db):
    # "BART" asks for BART's paper, whose long title the length term put below the short
    # titles using BART ("Hie-BART: …", "… with BART").
    venue = make_venue("ACL 2020", 2020)
    named = make_paper(
        "We present BART, a denoising autoencoder for pretraining sequence-to-sequence models.",
        title="BART: Denoising Sequence-to-Sequence Pre-training for Natural Language "
        "Generation, Translation, and Comprehension",
        venue=venue,
    )
    hie = make_paper(
        "We extend BART with a hierarchical encoder for long documents; BART helps.",
        title="Hie-BART: Document Summarization with Hierarchical BART",
        venue=venue,
    )
    using = make_paper(
        "We fine-tune BART on templates.", title="Template-Based NER Using BART", venue=venue
    )
    finish()
    assert ranked("BART") == [named.pk, using.pk, hie.pk]
    assert ranked("hie-bart")[0] == hie.pk


def test_a_title_naming_the_query_before_its_setting_ranks_first(db):
    # "dense passage retrieval" asks for the paper whose title names it before "for …"; the
    # shorter titles ending with it, which the length term put first, are about something else
    # done for it. A title naming more before its setting is not named by the query.
    venue = make_venue("EMNLP 2020", 2020)
    named = make_paper(
        "We show that retrieval can be done with dense representations alone.",
        title="Dense Passage Retrieval for Open-Domain Question Answering",
        venue=venue,
    )
    ending = make_paper(
        "We pre-train with the query as the passage's context.",
        title="Query-as-context Pre-training for Dense Passage Retrieval",
        venue=venue,
    )
    improving = make_paper(
        "Entailment tuning helps.",
        title="Improve Dense Passage Retrieval with Entailment Tuning",
        venue=venue,
    )
    finish()
    assert ranked("dense passage retrieval") == [named.pk, ending.pk, improving.pk]


def test_a_name_before_a_colon_outranks_a_name_before_a_setting(db):
    # Counted as much, "Transformers with Learnable Activation Functions", shorter, came first
    # (a reviewer).
    venue = make_venue("EMNLP 2020", 2020)
    colon = make_paper(
        "A library of pretrained models.",
        title="Transformers: State-of-the-Art Natural Language Processing",
        venue=venue,
    )
    setting = make_paper(
        "Activations learned.",
        title="Transformers with Learnable Activation Functions",
        venue=venue,
    )
    finish()
    assert ranked("transformers") == [colon.pk, setting.pk]


def test_a_word_inside_a_compound_is_not_the_word_typed(db):
    # "supervised" stands alone in one title, is part of "Semi-Supervised" in the other: both
    # match (the index holds a compound's parts too), and the shorter title used to win. A
    # reader asking for the semi-supervised paper types its compound.
    venue = make_venue("ACL 2024", 2024)
    part = make_paper("Labels are few.", title="Semi-Supervised Emotion Tagging", venue=venue)
    alone = make_paper(
        "Labels are many.",
        title="Supervised Learning of Emotion in Dialogue Transcripts",
        venue=venue,
    )
    finish()
    assert ranked("supervised emotion") == [alone.pk, part.pk]
    assert ranked("semi-supervised emotion")[0] == part.pk


def test_a_title_s_length_counts_a_compound_as_one_word(db):
    # Three words against four: "Zero-Shot Cross-Lingual Transfer" is the likelier title for
    # "transfer", though its compounds and their parts make it seven terms of the index.
    venue = make_venue("ACL 2024", 2024)
    compounds = make_paper(
        "We move a model to new languages.",
        title="Zero-Shot Cross-Lingual Transfer",
        venue=venue,
    )
    plain = make_paper(
        "We move a model to new domains.", title="Transfer of Dense Retrieval Models", venue=venue
    )
    finish()
    assert ranked("transfer") == [compounds.pk, plain.pk]


def test_an_abstract_s_words_count_in_any_case(db):
    # The query's words are counted in an abstract ignoring case: "Glyph" three times at the
    # starts of sentences outweighs "glyph" once in an abstract of the same length.
    venue = make_venue("ACL 2024", 2024)
    once = make_paper(
        "We read Chinese text with a glyph encoder and many other encoders.",
        title="Reading Characters",
        venue=venue,
    )
    capitalised = make_paper(
        "Glyph shapes help. Glyph encoders read text. Glyph models are small.",
        title="Reading Characters",
        venue=venue,
    )
    finish()
    assert ranked("glyph") == [capitalised.pk, once.pk]
    assert ranked("Reading GLYPH") == [capitalised.pk, once.pk]


@pytest.fixture
def glue(db):
    venue = make_venue("ACL 2024", 2024)
    papers = {
        "pizza": make_paper("Models told users to put glue on pizza.", title="Glue Pizza"),
        "title": make_paper(
            "We build a harder benchmark of understanding tasks.",
            title="A Harder GLUE for Language Understanding Models",
            venue=venue,
        ),
        "abstract": make_paper(
            "We compress a model and test it on GLUE and on other tasks of many kinds.",
            title="Tiny Models through Dynamic Embeddings",
            venue=venue,
        ),
    }
    finish()
    return papers


def test_a_word_typed_as_an_acronym_asks_for_the_acronym(glue):
    # The short title "Glue Pizza" came first for "GLUE" (a whole-title match with few other
    # words). Typed in capitals, and written so in a title, the word means the benchmark: a
    # text having it only in another case has neither the word nor the title's bonus.
    expected = [glue["title"].pk, glue["abstract"].pk, glue["pizza"].pk]
    assert ranked("GLUE") == expected
    assert [paper.pk for paper in Paper.objects.search("GLUE")] == expected
    # Typed in lowercase, or with caps lock on, it is the word in any case.
    assert ranked("glue")[0] == glue["pizza"].pk
    assert ranked("GLUE PIZZA")[0] == glue["pizza"].pk


def test_a_compound_written_apart_is_the_compound_the_query_joins(client, db):
    # "question answering" is scored as questionanswering, the word the index makes of
    # "Question-Answering": a title writing it apart has it too, or the few hyphenated titles
    # ranked above every other.
    venue = make_venue("ACL 2024", 2024)
    hyphenated = make_paper(
        "Bots answer questions about meetings.",
        title="Question-Answering Bots for Meeting Transcripts",
        venue=venue,
    )
    exact = make_paper("A survey of the field.", title="Question Answering", venue=venue)
    visual = make_paper(
        "Answering questions about images, by question answering models.",
        title="Visual Question  Answering",
        venue=venue,
    )
    finish()
    for typed in ["question answering", "Question-Answering"]:
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        assert [r["id"] for r in body["results"]] == [exact.pk, visual.pk, hyphenated.pk]


def test_a_compound_with_a_stop_word_hyphenated_is_the_compound_written_apart(client, db):
    # "chain-of-thought" is scored on its words, chain and thought: a title hyphenating them
    # had them only as parts, and lost the whole-title and word-order terms, so every
    # "Chain-of-Thought" title ranked below every "Chain of Thought" one (an outside tester).
    venue = make_venue("ACL 2024", 2024)
    apart = make_paper("We reason in steps.", title="Chain of Thought Reasoning", venue=venue)
    hyphenated = make_paper("We reason in turns.", title="Chain-of-Thought Reasoning", venue=venue)
    longer = make_paper(
        "We verify each step.", title="Verified Chain of Thought for Tables", venue=venue
    )
    finish()
    for typed in ["chain-of-thought", "chain of thought"]:
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        scores = {r["id"]: r["score"] for r in body["results"]}
        assert sorted(scores, key=scores.get, reverse=True)[2] == longer.pk
        assert scores[hyphenated.pk] == pytest.approx(scores[apart.pk], abs=0.01)
