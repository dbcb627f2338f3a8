"""The rare words two texts share (papers/rare_words.py) and their part in the similar-papers
score, on both paths."""

import numpy as np
import pytest
from scipy import sparse

from papers import rare_words, similarity, similarity_model
from papers.models import Paper
from tests.test_similar_text import post_text


def test_a_rare_word_is_in_few_papers_of_the_collection():
    # 30 papers: word 0 in all, word 1 in two, word 2 in 6 (RARE_FLOOR: 5 in a small one)
    dense = np.zeros((30, 3), dtype=np.float32)
    dense[:, 0] = 0.5
    dense[[3, 7], 1] = [0.6, 0.8]
    dense[:6, 2] = 0.1
    assert rare_words.rare_columns(sparse.csr_matrix(dense)).tolist() == [1]


def test_a_rare_part_turns_towards_the_titles_rare_words_and_keeps_its_length():
    # Rare words 1 and 2 (of 3) weigh 0.3 and 0.4 (length 0.5); the title has word 2 only.
    weighted = sparse.csr_matrix(np.array([[0.7, 0.3, 0.4]], dtype=np.float32))
    titled = sparse.csr_matrix(np.array([[1, 0, 1]], dtype=np.float32))
    idf = np.array([1.0, 3.0, 2.0])
    part = rare_words.rare_part(weighted, titled, np.array([1, 2]), idf).toarray()[0]
    # (0.3, 0.4) + TITLE_LEAN (0, 1), made as long as (0.3, 0.4) was
    assert [round(float(x), 4) for x in part] == [0.1048, 0.4889]


def test_a_collection_without_a_rare_word_has_empty_rare_parts():
    weighted = sparse.csr_matrix(np.full((30, 2), 0.5, dtype=np.float32))
    columns = rare_words.rare_columns(weighted)
    part = rare_words.rare_part(weighted, weighted, columns, np.ones(2))
    assert (columns.tolist(), part.shape, part.nnz) == ([], (30, 0), 0)
    assert [len(side) for side in rare_words.rare_pairs(part)] == [0, 0, 0]


def test_each_paper_keeps_the_papers_sharing_the_most_rare_weight_best_first():
    rare = sparse.csr_matrix(
        np.array(
            [
                [0.5, 0.5, 0.0],  # shares 0.25 with row 1, 0.1 with row 2, 0.3 with row 3
                [0.5, 0.0, 0.0],
                [0.0, 0.2, 0.0],
                [0.6, 0.0, 0.0],
                [0.0, 0.0, 0.1],  # shares 0.01 with row 2's nothing: below RARE_MIN
            ],
            dtype=np.float32,
        )
    )
    rows, columns, shared = rare_words.rare_pairs(rare, limit=2, block=2)
    pairs = [(r, c, round(float(s), 3)) for r, c, s in zip(rows, columns, shared, strict=True)]
    assert pairs == [
        (0, 3, 0.3),
        (0, 1, 0.25),
        (1, 3, 0.3),
        (1, 0, 0.25),
        (2, 0, 0.1),
        (3, 0, 0.3),
        (3, 1, 0.3),
    ]


def test_a_text_is_covered_by_the_share_of_its_rare_weight_a_paper_uses():
    # words 0 and 2 are rare (columns [0, 2] of 3); the text weighs them 0.6 and 0.8
    rare = sparse.csr_matrix(np.array([[0.1, 0.0], [0.3, 0.2], [0.0, 0.0]], dtype=np.float32))
    text = sparse.csr_matrix(np.array([[0.6, 0.0, 0.8]], dtype=np.float32))
    covered = rare_words.rare_coverage(rare, np.array([0, 2]), text)
    assert [round(float(share), 4) for share in covered] == [0.36, 1.0, 0.0]


def test_a_text_scores_its_rare_words_on_top_of_the_cosine(client, seeds, monkeypatch):
    similarity.refresh_embeddings(force=True)
    text = "Ternary quantization"
    monkeypatch.setattr(similarity_model, "RARE_WEIGHT", 0.0)
    cosines = {item["id"]: item["score"] for item in _results(client, text)}
    monkeypatch.setattr(similarity_model, "RARE_WEIGHT", 1.0)
    scores = {item["id"]: item["score"] for item in _results(client, text)}
    ternary = set(Paper.objects.filter(abstract__icontains="ternary").values_list("pk", flat=True))
    wordless = {
        pk
        for pk, abstract, title in Paper.objects.values_list("pk", "abstract", "title")
        if not any(word in f"{title} {abstract}".lower() for word in ("ternary", "quantiz"))
    }
    assert ternary and wordless
    assert all(scores[pk] > cosines[pk] + 0.05 for pk in ternary)
    assert all(scores[pk] == pytest.approx(cosines[pk], abs=1e-4) for pk in wordless)
    first = max(scores, key=scores.get)
    assert first not in wordless


def _results(client, text):
    return post_text(client, {"text": text, "limit": 100}).json()["results"]
