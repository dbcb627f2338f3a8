"""Similar papers fitted on the collection (papers/similarity.py) and the paths of similar_to."""

import numpy as np
import pytest
from django.db import connection

from papers import neighbours, similarity
from papers.models import Paper, PaperTopic, Similarity, SimilarityState, Topic
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

MLWQ = "MLWQ: Efficient Small Language Model Deployment via Multi-Level Weight Quantization"


@pytest.fixture
def fitted(seeds):
    """The seeds loaded: the loader has fitted the model when its load finished."""
    return similarity.refresh_embeddings(force=True)


@pytest.fixture
def unfitted(seeds):
    """The seeds with no fitted model, as before the first refresh: no paper has a Similarity
    row, so similar_to takes the text path.

    The text path weighs terms by the table's row estimate (pg_class.reltuples); an earlier
    large load (the Anthology tests) leaves it at tens of thousands, so it is brought up to
    date here, as the loader does after a large load, and the ranking is the seeds' own."""
    Similarity.objects.all().delete()
    SimilarityState.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute(f'ANALYZE "{Paper._meta.db_table}"')


# MLWQ's five most similar papers on each path (the untitled ones by their derived title).
TEXT_PATH_TOP = [
    "Large language models (LLMs) are increasingly used across research and industry…",
    "Rethinking Token Reduction for State Space Models",
    "A Middle Path for On-Premises LLM Deployment: Preserving Privacy Without Sacrificing "
    "Model Confidentiality",
    "AnchorAttention: Difference-Aware Sparse Attention with Stripe Granularity",
    "Large language models (LLMs) have made significant strides in code acceleration (CA) tasks",
]
# The first shares the rare word of MLWQ's title, "deployment" (papers/rare_words.py).
FITTED_PATH_TOP = [
    "A Middle Path for On-Premises LLM Deployment: Preserving Privacy Without Sacrificing "
    "Model Confidentiality",
    "Large language models (LLMs) are increasingly used across research and industry…",
    "AnchorAttention: Difference-Aware Sparse Attention with Stripe Granularity",
    "A Generic Method for Fine-grained Category Discovery in Natural Language Texts",
    "Rethinking Token Reduction for State Space Models",
]


def titles(papers) -> list[str]:
    return [paper.display_title for paper in papers]


def _mlwq():
    return Paper.objects.get(title=MLWQ)


def test_the_loader_fits_the_model_and_a_refresh_then_skips_when_unchanged(seeds):
    assert similarity.refresh_embeddings()["skipped"] is True
    fitted = similarity.refresh_embeddings(force=True)
    with_text = Paper.objects.exclude(title="", abstract="").count()
    assert fitted["skipped"] is False
    assert fitted["papers"] == with_text
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*), min(cardinality(neighbours)) FROM {Similarity._meta.db_table}"
        )
        rows, fewest = cursor.fetchone()
    assert rows == with_text and fewest == min(similarity.NEIGHBOURS, with_text - 1)
    again = similarity.refresh_embeddings()
    assert again == {"skipped": True, "reason": "unchanged", "papers": 0, "seconds": 0.0}
    paper = _mlwq()
    paper.abstract += " A new sentence about pruning."
    paper.save()
    assert similarity.refresh_embeddings()["skipped"] is False


def test_quantization_paper_finds_efficiency_papers(fitted):
    paper = _mlwq()
    similar = Paper.objects.similar_to(paper, 5)
    assert len(similar) == 5
    assert paper.pk not in [item.pk for item in similar]
    scores = [item.score for item in similar]
    assert scores == sorted(scores, reverse=True)
    # second, after the paper sharing its title's rare word "deployment": TriTera (untitled in
    # the dump), ternary LLMs trained with quantization-aware training
    assert "ternary language models" in similar[1].abstract
    efficiency = [
        item
        for item in similar
        if any(
            word in item.abstract.lower() for word in ("quantiz", "compression", "token reduction")
        )
    ]
    assert len(efficiency) >= 2
    assert similar[0].shared_terms  # the words that made it similar
    assert all(len(item.shared_terms) <= 8 for item in similar)


def test_the_similar_page_reads_three_statements_for_its_twenty_cards(
    fitted, client, django_assert_num_queries
):
    """The paper, the similar rows, their cards with their topics: a card reads no column its
    query left out."""
    paper = _mlwq()
    with django_assert_num_queries(3):
        response = client.get(f"/papers/{paper.pk}/similar/")
    cards = parse(response).find_all("li", class_="card")
    assert len(cards) == 20
    best = Paper.objects.similar_to(paper, 3)
    assert [card.find("h2").find("a").text for card in cards[:3]] == [
        item.display_title for item in best
    ]
    assert {"search_vector", "title_vector", "doi"} <= best[0].get_deferred_fields()


def test_similar_to_uses_two_queries_on_both_paths(unfitted, django_assert_num_queries):
    paper = _mlwq()
    with django_assert_num_queries(2):
        text_path = Paper.objects.similar_to(paper, 5)
    assert similarity.refresh_embeddings()["skipped"] is False
    with django_assert_num_queries(2):
        fitted_path = Paper.objects.similar_to(paper, 5)
    assert titles(text_path) == TEXT_PATH_TOP
    assert titles(fitted_path) == FITTED_PATH_TOP
    assert paper.pk not in [item.pk for item in text_path + fitted_path]


def test_text_path_without_embeddings(unfitted):
    """No refresh (or no numpy): the full-text "more like this" still answers."""
    similar = Paper.objects.similar_to(_mlwq(), 10)
    assert len(similar) == 10
    assert titles(similar[:5]) == TEXT_PATH_TOP
    assert all(item.shared_terms for item in similar)  # found by the words they share
    scores = [item.score for item in similar]
    assert scores == sorted(scores, reverse=True)


def test_among_ranks_exactly_the_papers_given(fitted):
    paper = _mlwq()
    best = Paper.objects.similar_to(paper, 3)
    others = Paper.objects.exclude(pk__in=[paper.pk] + [item.pk for item in best])
    given = [*others.values_list("pk", flat=True)[:10], paper.pk]
    ranked = Paper.objects.similar_to(paper, 20, among=Paper.objects.filter(pk__in=given))
    assert {item.pk for item in ranked} <= set(given) - {paper.pk}
    assert len(ranked) == 10
    scores = [item.score for item in ranked]
    assert scores == sorted(scores, reverse=True)


def _stored_score(paper, other) -> float:
    row = Similarity.objects.get(paper_id=paper.pk)
    return row.scores[row.neighbours.index(other.pk)]


def test_a_shared_area_adds_the_product_of_its_confidences(client, corpus):
    translation, speech, kv = corpus["translation"], corpus["speech"], corpus["kv"]
    area = Topic.objects.get(slug="machine-translation")  # an area; the dump linked it
    similarity.refresh_embeddings(force=True)
    before = _stored_score(translation, speech)
    PaperTopic.objects.create(paper=speech, topic=area, source="model", confidence=0.5)
    # a rule's link to an area is a word match, not the paper's area: it never counts
    PaperTopic.objects.create(paper=kv, topic=area, source="rule")
    unshared = _stored_score(translation, kv)
    assert similarity.refresh_embeddings()["skipped"] is False  # area links are in the model
    assert _stored_score(translation, speech) - before == pytest.approx(0.3 * 1 * 0.5, abs=2e-4)
    assert _stored_score(translation, kv) == pytest.approx(unshared, abs=2e-4)
    signals = {
        item.pk: {signal["signal"]: signal for signal in item.explanation}
        for item in Paper.objects.similar_to(translation, 4)
    }
    area_signal = {"signal": "areas", "weight": 0.15, "areas": ["machine translation"]}
    assert signals[speech.pk]["areas"] == area_signal
    assert "topics" not in signals[speech.pk]  # the area is not counted again as a topic
    assert "areas" not in signals[kv.pk]
    page = parse(client.get(f"/papers/{translation.pk}/similar/"))
    shown = [p.text for p in page.find_all("p", class_="shared")]
    assert sum("same area: machine translation" in text for text in shown) == 1


def test_inverted_file_search_agrees_with_exact_search(monkeypatch):
    rng = np.random.default_rng(1)
    centres = rng.standard_normal((20, 32))
    vectors = (centres[rng.integers(0, 20, 3000)] + 0.3 * rng.standard_normal((3000, 32))).astype(
        np.float32
    )
    neighbours.normalise(vectors)
    exact, _ = neighbours.nearest(vectors, 10)
    monkeypatch.setattr(neighbours, "EXACT_LIMIT", 100)
    approximate, cosines = neighbours.nearest(vectors, 10)
    assert not (exact == np.arange(3000)[:, None]).any()  # never itself
    assert not (approximate == np.arange(3000)[:, None]).any()
    assert (np.diff(cosines, axis=1) <= 1e-6).all()  # best first
    recall = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approximate, exact, strict=True)])
    assert recall > 0.9


def test_merge_best_keeps_each_candidate_once_with_its_best_score():
    # row 0: column 2 in both lists (0.5 and 0.5) and again as an extra (0.9, e.g. a shared
    # author); columns 3 and 4 tie at 0.4 (the lower index first); -1 pads and itself are out
    near = np.array([[2, 3, -1], [0, 2, 4]])
    near_scores = np.array([[0.5, 0.4, 0.0], [0.8, 0.3, 0.2]], dtype=np.float32)
    year = np.array([[4, 2, 0], [3, -1, -1]])
    year_scores = np.array([[0.4, 0.5, 0.7], [0.6, 0.0, 0.0]], dtype=np.float32)
    extra = (np.array([0, 1]), np.array([2, 1]), np.array([0.9, 0.99], dtype=np.float32))
    found, scores = neighbours.merge_best(
        [(near, near_scores), (year, year_scores)], extra, k=3, chunk=1
    )
    assert found.tolist() == [[2, 3, 4], [0, 3, 2]]
    assert scores.astype(np.float64).round(2).tolist() == [[0.9, 0.4, 0.4], [0.8, 0.6, 0.3]]


def test_merge_best_pads_rows_with_fewer_candidates():
    near = np.array([[1], [-1]])
    found, scores = neighbours.merge_best(
        [(near, np.array([[0.7], [0.0]], dtype=np.float32))],
        (np.array([], dtype=np.int64), np.array([], dtype=np.int64), np.array([])),
        k=2,
    )
    assert found.tolist() == [[1, -1], [-1, -1]]
    assert scores.astype(np.float64).round(2).tolist() == [[0.7, 0.0], [0.0, 0.0]]


def test_search_in_threads_equals_search_in_one(monkeypatch):
    vectors = np.random.default_rng(2).standard_normal((2500, 16)).astype(np.float32)
    monkeypatch.setattr(neighbours, "EXACT_LIMIT", 100)
    monkeypatch.setattr(neighbours, "THREADS", 2)
    threaded = neighbours.nearest(vectors, 5)
    monkeypatch.setattr(neighbours, "THREADS", 1)
    single = neighbours.nearest(vectors, 5)
    assert (threaded[0] == single[0]).all()
    assert (threaded[1] == single[1]).all()


def test_pair_scores_are_the_pairs_inner_products_in_any_blocks():
    vectors = np.random.default_rng(3).standard_normal((50, 8)).astype(np.float32)
    rows = np.array([0, 0, 3, 49, 7])
    columns = np.array([1, 0, 2, 12, 7])
    expected = np.einsum("ij,ij->i", vectors[rows], vectors[columns])
    for block in (1, 2, 5, 100):
        assert neighbours.pair_scores(vectors, rows, columns, block=block).tolist() == (
            expected.tolist()
        )


@pytest.mark.parametrize(
    ("texts", "shown", "hidden"),
    [
        # "vlm" and "vlms" were shown as two shared terms (an outside tester).
        (
            [
                ("Hallucination in VLMs", "Each VLM hallucinates objects; VLMs hallucinate less."),
                ("Grounding VLMs", "A VLM grounded in boxes, and VLMs that hallucinate less."),
            ],
            "vlms",
            "vlm",
        ),
        # "easy-to-use" and "easy" too (an outside researcher).
        (
            [
                ("Toolkit One", "An easy-to-use toolkit for tagging; easy to install."),
                ("Toolkit Two", "An easy-to-use toolkit for parsing; easy to extend."),
            ],
            "easy-to-use",
            "easy",
        ),
    ],
)
def test_one_word_is_one_shared_term(db, texts, shown, hidden):
    venue = make_venue("ACL 2024", 2024)
    texts = texts + [
        (f"Filler {n}", f"Parsing treebanks number {n} for syntax.") for n in range(10)
    ]
    papers = [make_paper(abstract, title=title, venue=venue) for title, abstract in texts]
    finish()
    [similar, *_] = Paper.objects.similar_to(papers[0], 5)
    assert similar.pk == papers[1].pk
    assert shown in similar.shared_terms
    assert hidden not in similar.shared_terms


def test_a_subject_word_a_few_percent_of_papers_use_is_shown_shared(db):
    # DynaSent's neighbours all said "similar wording": "sentiment", in 3.5% of the papers, was
    # too common to show at 2% (an outside researcher). In 12 of 250 papers here: 4.8%.
    venue = make_venue("ACL 2024", 2024)
    sentiment = [
        make_paper(f"Sentiment of reviews, dataset {n}.", title=f"Sentiment {n}", venue=venue)
        for n in range(12)
    ]
    for n in range(238):
        make_paper(f"Parsing treebanks number {n} for syntax.", title=f"Filler {n}", venue=venue)
    finish()
    with connection.cursor() as cursor:  # the collection's size is the planner's estimate
        cursor.execute("ANALYZE papers_paper")
    [similar, *_] = Paper.objects.similar_to(sentiment[0], 5)
    assert similar.pk in {paper.pk for paper in sentiment[1:]}
    assert "sentiment" in similar.shared_terms
