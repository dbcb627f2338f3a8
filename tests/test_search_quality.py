"""bench/search_quality.py: its query sets, its BM25 reference and its measure (pure code)."""

from bench.search_quality import (
    BM25,
    TEST_SEED,
    TUNING_SEED,
    app_search,
    draw,
    measure,
    more_tuning,
    site_search,
)

PAPERS = [
    (pk, f"Paper {pk} about topic{pk % 7} and method{pk % 5} models", f"Abstract words{pk} " * 5)
    for pk in range(1, 201)
]


def test_tuning_and_test_sets_are_disjoint_and_fixed_by_their_seeds():
    tuning = draw(PAPERS, TUNING_SEED, 20, set())
    test = draw(PAPERS, TEST_SEED, 20, {pk for _, _, pk in tuning})
    assert tuning == draw(PAPERS, TUNING_SEED, 20, set())
    assert [kind for kind, _, _ in tuning].count("title") == 20
    assert [kind for kind, _, _ in tuning].count("abstract") == 20
    assert not {pk for _, _, pk in tuning} & {pk for _, _, pk in test}
    for kind, query, pk in tuning:
        source = PAPERS[pk - 1][1 if kind == "title" else 2]
        assert all(word in source for word in query.split())


def test_bm25_counts_the_title_three_times():
    bm25 = BM25(
        [
            (1, "Retrieval for translation", "We study retrieval."),
            (2, "Translation models", "Retrieval helps translation and retrieval again."),
            (3, "Speech", "Nothing about it."),
        ]
    )
    # Retrieval: three times in paper 1's title and once in its abstract, twice in paper 2's.
    assert bm25.search("retrieval") == [1, 2]
    # Equally rare words: "Speech" three times in a short paper beats "models" three times.
    assert bm25.search("speech models") == [3, 2]


def test_measure_gives_mrr_at_10_and_success_at_1():
    queries = [("title", "a", 1), ("title", "b", 2), ("title", "c", 3), ("abstract", "d", 4)]
    ranked = {"a": [1, 9], "b": [9, 2], "c": [9] * 10 + [3], "d": [4]}
    assert measure(queries, ranked.__getitem__) == {
        "title": ((1 + 0.5 + 0) / 3, 1 / 3, 3),
        "abstract": (1.0, 1.0, 1),
    }


def test_more_tuning_queries_keep_apart_from_the_test_set():
    tuning = draw(PAPERS, TUNING_SEED, 10, set())
    test = draw(PAPERS, TEST_SEED, 10, {pk for _, _, pk in tuning})
    more = more_tuning(PAPERS, [11, 22], 10, test)
    assert [kind for kind, _, _ in more].count("title") == 20
    assert [kind for kind, _, _ in more].count("abstract") == 20
    assert not {pk for _, _, pk in more} & {pk for _, _, pk in test}
    first = {pk for _, _, pk in more[:20]}
    assert not first & {pk for _, _, pk in more[20:]}


def test_the_site_ranks_through_its_api_as_search_page_does(live_server, corpus):
    search = site_search(live_server.url)
    assert search("kv cache") == app_search("kv cache")
    assert search("kv cache")[:2] == [corpus["cache2"].pk, corpus["kv"].pk]
