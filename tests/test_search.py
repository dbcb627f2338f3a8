"""Search, facets and similarity at the QuerySet level, on small factories and on the seeds."""

import json
from datetime import date
from urllib.parse import urlencode

import pytest
from django.db.models import Count
from django.http import QueryDict

from papers.facets import count_facets, kept_venue_counts
from papers.filtering import PaperFilterSet
from papers.headlines import MARK_START, MARK_STOP
from papers.models import Paper, Topic
from papers.search import search_page
from papers.spelling import did_you_mean
from papers.text import bounded_query, typed_intent, typed_query, whole_words
from tests.factories import finish, make_paper, make_venue, many_papers
from tests.support import parse

pytestmark = pytest.mark.django_db


def ranked(text, **filters):
    return [pk for pk, _ in Paper.objects.filter(**filters).ranked_ids(text, 25)]


def test_title_matches_rank_first(corpus):
    assert set(ranked("kv cache")[:2]) == {corpus["kv"].pk, corpus["cache2"].pk}
    assert ranked("kv cache eviction") == [corpus["kv"].pk, corpus["cache2"].pk]
    assert ranked("faithfulness")[0] == corpus["retrieval"].pk


def test_phrases_or_and_exclusion(corpus):
    assert ranked('"accented speech"') == [corpus["speech"].pk]
    assert ranked('"speech accented"') == []
    assert set(ranked("yoruba or accented")) == {corpus["translation"].pk, corpus["speech"].pk}
    assert ranked("cache -quantising") == [corpus["kv"].pk]


def test_not_in_capitals_excludes_as_a_minus_does(corpus, client):
    def answer(query):
        body = client.get("/api/papers/?" + urlencode({"q": query})).json()
        return body["count"], [result["id"] for result in body["results"]]

    assert answer("cache NOT quantising") == answer("cache -quantising") == (1, [corpus["kv"].pk])
    assert answer('attention NOT "kv cache"') == (1, [corpus["retrieval"].pk])
    # A small "not" is a stop word, as websearch_to_tsquery has it: the papers with both.
    count, ids = answer("cache not quantising")
    assert (count, ids[0]) == (1, corpus["cache2"].pk)
    page = parse(client.get("/?q=cache+NOT+quantising").content)
    assert page.find("input", name="q").attrs["value"] == "cache -quantising"


def test_a_query_of_exclusions_alone_lists_the_newest_first(corpus, client):
    # Nothing to rank by: ranked, the untitled, authorless records came first.
    untitled = make_paper("A record without title or authors.", venue=make_venue("ACL 2026", 2026))
    finish()

    def answer(query, sort=""):
        body = client.get("/api/papers/?" + urlencode({"q": query, "sort": sort})).json()
        return [result["id"] for result in body["results"]], body["notices"]

    for query in ["-quantising", "NOT quantising", '-"kv cache" or -yoruba', "-cache -", '-x ""']:
        ids, notices = answer(query)
        assert (ids, notices) == answer(query, "newest")
        assert ids[0] != untitled.pk and untitled.pk in ids
    page = parse(client.get("/?q=-quantising").content)
    assert page.find("select", id="id_sort").find("option").text == "Newest venue first"
    # A word to look for is ranked by relevance, also where an excluded phrase has it too
    # ('bias -"gender bias"' was listed newest first: an outside researcher).
    for query in ["cache -quantising", 'cache -"kv cache"']:
        page = parse(client.get("/?" + urlencode({"q": query})).content)
        assert page.find("select", id="id_sort").find("option").text == "Relevance"


@pytest.mark.parametrize(
    "typed, searched",
    [
        ("hallucination NOT vision", "hallucination -vision"),
        # Typed as a title, NOT is a word of it.
        ("Attention is NOT Explanation", "Attention is NOT Explanation"),
        ("ATTENTION IS NOT EXPLANATION", "ATTENTION IS NOT EXPLANATION"),
        ("LLMs dont know", "LLMs don't know"),
        # A contraction's letters inside a compound or an address are left as typed.
        ("dont-stop-pretraining", "dont-stop-pretraining"),
        ("github.com/allenai/dont", "github.com/allenai/dont"),
    ],
)
def test_a_query_is_read_for_what_its_words_mean(typed, searched):
    assert typed_intent(typed) == searched


def test_a_contraction_typed_without_its_apostrophe_is_searched_as_written_with_it(client):
    knowing = make_paper(
        "Large language models don't know what they don't know.", title="Do LLMs Know?"
    )
    make_paper("Dong et al. study knowledge in language models.", title="Probing LLMs")
    finish()
    body = client.get("/api/papers/?q=LLMs+dont+know").json()
    # It was a word no paper has, respelled "LLMs dong know".
    assert body["corrected_query"] is None
    assert (body["count"], body["results"][0]["id"]) == (1, knowing.pk)
    page = parse(client.get("/?q=LLMs+dont+know").content)
    assert page.find("input", name="q").attrs["value"] == "LLMs don't know"


def test_ranked_ids_agrees_with_the_uncapped_search(corpus):
    many_papers(40, word="attention")
    finish()
    capped = ranked("attention")
    full = list(Paper.objects.search("attention").values_list("pk", flat=True))
    assert capped[:25] == full[:25]


def test_an_authors_papers_found_by_their_name_come_newest_venue_first(client):
    """A name scores each of its papers alike (the name is in none of their texts): the
    ties come newest venue first, in the pages, the API and the uncapped search, not in
    the order the papers were loaded."""
    for year in (2019, 2021, 2023):
        venue = make_venue(f"ACL {year}", year=year, start_date=date(year, 7, 1))
        make_paper(
            f"Abstract {year}.", title=f"Parsing in {year}", venue=venue, authors=["Ada Lovelace"]
        )
    make_paper(
        "Abstract.",
        title="Undated",
        venue=make_venue("Workshop", year=None),
        authors=["Ada Lovelace"],
    )
    finish()
    newest_first = ["Parsing in 2023", "Parsing in 2021", "Parsing in 2019", "Undated"]
    listed = client.get("/api/papers/?q=Ada+Lovelace").json()["results"]
    assert [paper["title"] for paper in listed] == newest_first
    page = parse(client.get("/?q=Ada+Lovelace").content)
    cards = page.find_all("h3", class_="card-title")
    assert [card.find("a").text for card in cards] == newest_first
    found = Paper.objects.search("Ada Lovelace").values_list("title", flat=True)
    assert list(found) == newest_first


def test_papers_scored_alike_come_newest_venue_first(client):
    """Two papers scored alike (the same words as long) come newest venue first, not in the
    order they were loaded, in the pages and the uncapped search."""
    for year in (2019, 2023):
        venue = make_venue(f"ACL {year}", year=year, start_date=date(year, 7, 1))
        make_paper(f"Zebras graze, {year % 10}.", title=f"Zebras {year}", venue=venue)
    finish()
    listed = client.get("/api/papers/?q=zebras").json()["results"]
    assert [paper["title"] for paper in listed] == ["Zebras 2023", "Zebras 2019"]
    assert listed[0]["score"] == listed[1]["score"]
    found = Paper.objects.search("zebras").values_list("title", flat=True)
    assert list(found) == ["Zebras 2023", "Zebras 2019"]


def test_an_authors_papers_rank_above_papers_by_others_sharing_the_names_words(client, monkeypatch):
    """ "Yang Liu" matches every paper by a Yang and a Liu: the papers of the authors the query
    names come first, on every page, in the API and in the list's exports."""
    old, new = (make_venue(f"ACL {y}", year=y, start_date=date(y, 7, 1)) for y in (2020, 2024))
    make_paper(
        "First, at much greater length than the second one.",
        title="Hers, first",
        venue=old,
        authors=["Ada Lovelace"],
    )
    make_paper("Second.", title="Hers, second", venue=new, authors=["Bo Li", "Ada Lovelace"])
    for number in range(3):
        make_paper(
            f"Other {number}.",
            title=f"Theirs {number}",
            venue=new,
            authors=["Ada Li", "Bo Lovelace"],
        )
    finish()
    expected = ["Hers, second", "Hers, first", "Theirs 0", "Theirs 1", "Theirs 2"]
    answer = client.get("/api/papers/?q=Ada+Lovelace").json()
    assert (answer["count"], [paper["title"] for paper in answer["results"]]) == (5, expected)
    exported = client.get("/?q=Ada+Lovelace&format=csljson")
    assert [item["title"] for item in json.loads(b"".join(exported.streaming_content))] == expected
    # Past the papers counted in their abstracts (RESCORED), the author's papers keep their
    # order: newest venue first, not by the estimates of the ones not counted.
    monkeypatch.setattr("papers.relevance.RESCORED", 1)
    answer = client.get("/api/papers/?q=Ada+Lovelace").json()
    assert [paper["title"] for paper in answer["results"][:2]] == expected[:2]
    # Where not every match is ranked, the notice says the author's papers come first.
    monkeypatch.setattr("papers.search.CANDIDATE_CAP", 2)
    assert client.get("/api/papers/?q=Ada+Lovelace").json()["notices"] == [
        "Only 2 of the 5 matching papers are ranked: the papers of the author named, then "
        "those with your words in the shortest titles, then those whose titles have most of "
        "your words, the newest first among equals. Add words or filters to rank them all, or "
        "list them newest first to page through every one."
    ]


def test_candidate_cap_bounds_the_ranked_set(corpus):
    many_papers(30, word="zebra")
    finish()
    ids = Paper.objects.ranked_ids("zebra", limit=100, cap=10)
    assert len(ids) == 10


def test_filters_apply_inside_the_ranking(corpus):
    assert ranked("attention", venue__slug="emnlp-2024") == [corpus["retrieval"].pk]


def test_headlines_are_computed_and_marked(corpus):
    [paper] = Paper.objects.cards([corpus["kv"].pk], "eviction")
    assert (
        paper.title_headline
        == f"{MARK_START}Evicting{MARK_STOP} the KV Cache for Long-Context Inference"
    )
    assert f"{MARK_START}eviction{MARK_STOP} policy" in paper.headline


def test_sentinels_in_the_data_never_become_marks(db):
    paper = make_paper(f"Sneaky {MARK_START}bold{MARK_STOP} cache text.", title=f"T{MARK_START}x")
    finish()
    [card] = Paper.objects.cards([paper.pk], "cache")
    assert card.headline == f"Sneaky bold {MARK_START}cache{MARK_STOP} text"
    assert card.title_headline == "Tx"


def test_facets_count_under_the_other_filters(corpus):
    facets = count_facets({"venue": ["acl-2025"], "topic": ["efficiency"]}, text="cache")
    assert facets.total == 2
    assert [(o.value, o.count) for o in facets.venue] == [("acl-2025", 2)]
    assert [(o.value, o.count) for o in facets.topic] == [("efficiency", 2), ("attention", 1)]
    assert [(o.value, o.count) for o in facets.country] == [("China", 1), ("United Kingdom", 1)]
    assert [(o.value, o.count) for o in facets.year] == [("2025", 2)]
    assert [(o.value, o.count) for o in facets.author] == [("ada-lovelace", 2), ("alan-turing", 1)]


def test_filterset_facets_or_within_and_across(corpus):
    results = search_page(
        PaperFilterSet(QueryDict("venue=acl-2025&venue=emnlp-2024&country=United+Kingdom"))
    )
    assert results.count == 2
    assert {o.value: o.count for o in results.facets.venue} == {"acl-2025": 2}
    assert {o.value: o.count for o in results.facets.country} == {
        "United Kingdom": 2,
        "China": 1,
        "Nigeria": 1,
        "United States": 1,
    }
    results = search_page(PaperFilterSet(QueryDict("topic=attention&topic=speech&year=2025")))
    assert sorted(p.pk for p in results.papers) == sorted([corpus["kv"].pk, corpus["speech"].pk])


def test_filterset_sorts(corpus):
    by_title = search_page(PaperFilterSet(QueryDict("sort=title"))).papers
    assert [p.display_title for p in by_title] == sorted(p.display_title for p in by_title)
    newest = search_page(PaperFilterSet(QueryDict(""))).papers
    # Newest venue first, the untitled (incomplete) paper of 2025 after every complete one.
    assert [p.venue.year for p in newest] == [2025, 2025, 2024, 2024, 2025]
    assert not newest[-1].title


def test_title_order_starts_at_each_titles_first_letter(db):
    # 108 titles of the folder opening with a quote, a bracket, a symbol or a LaTeX command
    # sorted after Z, and "Ìròyìn" too, as the C collation orders them.
    venue = make_venue("ACL 2025", 2025)
    titles = [
        "“Judge me by my size”: Yoda",
        "\\textit{GeoHard}: Class-wise Hardness",
        "ÌròyìnSpeech: A Yorùbá Speech Corpus",
        "♫ MuSiQue: Multihop Questions",
        "(Re)construing Meaning",
        "Zebras",
        "Attention Is Enough",
        "3D Scenes",
    ]
    for title in titles:
        make_paper(f"An abstract about {title}.", title=title, venue=venue, authors=["Ada"])
    finish()
    by_title = search_page(PaperFilterSet(QueryDict("sort=title"))).papers
    assert [p.title for p in by_title] == [titles[i] for i in (7, 6, 1, 2, 0, 3, 4, 5)]


def test_did_you_mean_uses_the_collections_words(corpus):
    assert did_you_mean("evicton polcy") == "eviction policy"
    assert did_you_mean("Accnted speech") == "Accented speech"
    assert did_you_mean("cache") is None
    assert did_you_mean("zzzzqqq") is None
    assert did_you_mean("?? --") is None
    # Candidates share the word's first letter (bounded work): "ettention" is near enough to
    # "attention" by trigrams, but its first letter is not corrected.
    assert did_you_mean("atention") == "attention"
    assert did_you_mean("ettention") is None


@pytest.mark.parametrize(
    ("typed", "bounded"),
    [
        ("m m M m", ("m", False)),
        ("a or b or c", ("a or b or c", False)),
        (
            'cache -"language model" -"language model" "language model"',
            ('cache -"language model" "language model"', False),
        ),
        (" ".join(f"w{n}" for n in range(33)), (" ".join(f"w{n}" for n in range(32)), True)),
        (
            " ".join(f"w{n}" for n in range(30)) + ' "a b c"',
            (" ".join(f"w{n}" for n in range(30)) + ' "a b"', True),
        ),
        # An excluded phrase is one term; past the limit it is left out whole (a shorter
        # phrase would exclude more).
        (
            " ".join(f"w{n}" for n in range(30)) + ' -"a b c"',
            (" ".join(f"w{n}" for n in range(30)), True),
        ),
    ],
)
def test_a_query_keeps_each_term_once_and_32_words(typed, bounded):
    assert bounded_query(typed) == bounded


@pytest.mark.parametrize(
    "typed",
    [
        "ｃａｃｈｅ ｅｖｉｃｔｉｏｎ",  # full-width letters
        "cache evic\u200btion",  # a zero-width space inside a word
        "cache\u00ad eviction",  # a soft hyphen
        "\ufeffcache eviction",  # a byte order mark
    ],
)
def test_a_query_typed_in_other_forms_of_its_letters_finds_the_same(client, corpus, typed):
    wanted = client.get("/api/papers/?q=cache+eviction").json()
    found = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [r["id"] for r in found["results"]] == [r["id"] for r in wanted["results"]] != []


def test_a_ligature_is_read_as_its_letters():
    assert typed_query("ﬁne-tuning") == "fine-tuning"
    assert typed_query("nai\u0308ve") == "naïve"
    assert typed_query("fine\u2011tuning and few\u2013shot") == "fine-tuning and few-shot"
    assert typed_query("“chain of thought”") == '"chain of thought"'


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("kv cache eviction", "kv cache"),  # the cut at 10 would split "eviction"
        ("kv cache  eviction", "kv cache"),  # the cut falls between two spaces
        ("kv cache e", "kv cache e"),  # no cut
        ("transformers", "transforme"),  # one word longer than the length
    ],
)
def test_a_long_query_is_cut_between_words(text, cut):
    assert whole_words(text, 10) == cut


def test_did_you_mean_leaves_short_words_and_other_scripts_alone(corpus):
    make_paper("CA and CA again: the CA of a cellular automaton.", title="CA Rules")
    # "ca" is two edits from "cafe": too far for a word of four letters.
    assert did_you_mean("cafe") is None
    # Read as "caf", "café" was respelled "caoé"; a word with other letters than a to z is
    # not respelled, and the rest of the query still is.
    assert did_you_mean("café") is None
    assert did_you_mean("café evicton") == "café eviction"


@pytest.mark.django_db
def test_did_you_mean_writes_a_word_as_titles_and_abstracts_write_it():
    # The first papers having the lexeme have it from an author's name only.
    for n in range(3):
        make_paper(f"Ranking passages {n}.", title=f"Rankers {n}", authors=["Ana Retrieval"])
    readers = make_paper("Retrieval of passages for readers.", title="Readers")
    finish()
    Paper.objects.filter(pk=readers.pk).update(pages="1-9")  # its row last in the table
    assert did_you_mean("retreival") == "retrieval"


@pytest.mark.django_db
def test_a_rare_word_beside_a_far_commoner_near_one_is_respelled(monkeypatch):
    monkeypatch.setattr("papers.spelling.COMMONER_BY", 3)
    make_paper("An embodied agent.", title="TagE: Embodied Agents")
    for n in range(3):
        make_paper(f"Sequence tagging of corpus {n}.", title=f"Taggers {n}")
    finish()
    assert did_you_mean("taging") == "tagging"  # 'tage' is one paper's name, 'tag' three's
    monkeypatch.setattr("papers.spelling.COMMONER_BY", 4)
    assert did_you_mean("taging") is None


@pytest.mark.django_db
def test_a_respelling_is_chosen_on_the_words_as_written_not_their_stems():
    # "mechanism" stems to mechan, three edits from the typed stem; one paper's misspelling
    # "mechanims" stems to mechanim, one edit away: as written, "mechanism" is the nearer.
    for n in range(5):
        make_paper(f"An attention mechanism for parsing {n}.", title=f"Mechanisms {n}")
    make_paper("A gating mechanims.", title="Gates")
    finish()
    assert did_you_mean("mechansim") == "mechanism"


def test_similar_papers(corpus):
    similar = Paper.objects.similar_to(corpus["kv"], 10)
    ids = [p.pk for p in similar]
    assert ids[0] == corpus["cache2"].pk
    assert corpus["kv"].pk not in ids
    assert similar[0].shared_terms[:3] and "cache" in similar[0].shared_terms
    assert [p.score for p in similar] == sorted((p.score for p in similar), reverse=True)


def test_similar_to_an_empty_paper_is_empty(db):
    paper = make_paper("", title="")
    finish()
    assert Paper.objects.similar_to(paper) == []


# --- the seeds ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "title_start"),
    [
        ("token reduction state space models", "Rethinking Token Reduction for State Space Models"),
        ("layer-aware representation filtering safety", "Layer-Aware Representation Filtering"),
        ("zeroth-order fine-tuning momentum", "MUZO: Leveraging Multiple Queries and Momentum"),
        (
            "speculative sampling channel simulation",
            "Speculative decoding accelerates large language model",
        ),
    ],
)
def test_seed_papers_are_found_by_their_subject(seeds, query, title_start):
    first = Paper.objects.get(pk=ranked(query)[0])
    assert first.display_title.startswith(title_start)


def test_seed_facets(seeds):
    results = search_page(PaperFilterSet(QueryDict("")))
    assert results.count == 79
    assert {o.value: o.count for o in results.facets.venue} == {
        "acl-2025": 57,
        "emnlp-2025": 11,
        "emnlp-2024": 11,
    }
    results = search_page(PaperFilterSet(QueryDict("topic=llm-safety")))
    assert [p.title for p in results.papers] == [
        "Layer-Aware Representation Filtering: Purifying Finetuning Data to Preserve LLM Safety Alignment"
    ]


def test_facets_of_a_common_word_are_exact(corpus):
    """Every count of a query matching most papers is exact (no sample, no estimate)."""
    many_papers(40)
    finish()
    facets = count_facets({}, {}, "corpus")
    matching = Paper.objects.matching("corpus")
    assert facets.total == matching.count() == 41
    expected = {
        row["venue__slug"]: row["n"]
        for row in matching.values("venue__slug").annotate(n=Count("pk"))
    }
    assert {option.value: option.count for option in facets.venue} == expected


def test_newest_order_reads_any_page_from_the_venue_index(corpus):
    """newest_ids gives exactly the ORM's default order, at every offset and under filters."""
    many_papers(60)
    finish()
    everything = list(Paper.objects.in_order("newest").values_list("pk", flat=True))
    for offset in (0, 7, 25, len(everything) - 3):
        assert Paper.objects.all().newest_ids(10, offset) == everything[offset : offset + 10]
    cached = Paper.objects.filter(search_vector=querysets_query("cache"))
    expected = list(cached.in_order("newest").values_list("pk", flat=True))
    assert Paper.objects.all().newest_ids(25, 0, "cache") == expected[:25]


def test_newest_order_from_kept_counts_under_filters(corpus):
    """Under filters whose counts per venue are kept (venues, a year, one topic, a country),
    newest_ids reads the segments from them and still gives exactly the ORM's order, the
    incomplete records last, at every offset."""
    untitled = many_papers(30)
    finish()
    venue = untitled[0].venue
    topic = Topic.objects.filter(paper_links__isnull=False).order_by("pk").first()
    country = Paper.objects.exclude(country="").order_by("pk").first().country
    cases = [
        {"venue": [venue.slug, "acl-2024"]},
        {"year": [str(venue.year)]},
        {"topic": [topic.slug]},
        {"country": [country]},
        {"topic": [topic.slug], "year": [str(venue.year)]},
    ]
    for filters in cases:
        kept = kept_venue_counts({}, filters)
        assert kept is not None
        filterset = PaperFilterSet(QueryDict(urlencode(filters, doseq=True)))
        papers = Paper.objects.filter(*filterset.conditions().values())
        expected = list(papers.in_order("newest").values_list("pk", flat=True))
        assert expected, filters
        for offset in (0, 5, max(0, len(expected) - 3)):
            assert papers.newest_ids(10, offset, "", kept) == expected[offset : offset + 10]
    assert kept_venue_counts({"author": ["someone"]}) is None
    assert kept_venue_counts({"topic": ["a", "b"]}) is None


def querysets_query(text):
    from papers.querysets import web_query

    return web_query(text)


@pytest.mark.parametrize(
    "query",
    ["q=cache", "q=cache&sort=title", "venue=acl-2025", "q=attention&country=United+Kingdom"],
)
def test_filterset_qs_is_the_whole_set_the_pages_show(corpus, query):
    """.qs (filters that really filter, uncapped) holds what the page shows, in its order."""
    filterset = PaperFilterSet(QueryDict(query))
    shown = [paper.pk for paper in search_page(filterset).papers]
    assert list(filterset.qs.values_list("pk", flat=True)) == shown
    assert shown


def misspelt_beside_right(right: int, typos: list[str]) -> None:
    """``right`` papers spelling "transformer" right, and one paper per abstract of ``typos``
    (which misspell it)."""
    for n in range(right):
        make_paper(f"A transformer for parsing {n}.", title=f"Transformers {n}")
    for n, abstract in enumerate(typos):
        make_paper(abstract, title=f"Typos {n}")
    finish()


@pytest.mark.django_db
def test_a_query_finding_a_few_misspellings_is_offered_the_common_spelling(client):
    # Four papers misspell it (more than RARE_WORD: offered, not shown at once), beside 50
    # times as many spelling it right.
    misspelt_beside_right(201, [f"A transfomer that parses {n}." for n in range(4)])
    page = parse(client.get("/?q=transfomer"))
    assert page.find("h2", id="results-heading").text.strip() == "4 papers"
    suggestion = page.find("p", class_="suggestion")
    assert suggestion.text == "Did you mean transformer?"
    assert suggestion.find("a").attrs["href"] == "?q=transformer"
    # The API offers it too.
    body = client.get("/api/papers/?q=transfomer").json()
    assert (body["count"], body["suggestion"], body["corrected_query"]) == (4, "transformer", None)
    # Asked for as typed: no suggestion.
    assert parse(client.get("/?q=transfomer&literal=1")).find_all("p", class_="suggestion") == []
    assert client.get("/api/papers/?q=transfomer&literal=1").json()["suggestion"] is None


def test_a_word_of_a_few_papers_one_edit_from_a_far_commoner_one_is_respelled_at_once(client):
    # "taging" is in one paper's name (tagE), and one edit from the collection's "tagging":
    # its papers are shown, with the way back to the word as typed.
    for n in range(60):
        make_paper(f"Sequence tagging with a tagger, {n}.", title=f"Tagging {n}")
    make_paper("tagE follows spoken instructions.", title="tagE: an Embodied Agent")
    finish()
    body = client.get("/api/papers/?q=taging").json()
    assert (body["count"], body["corrected_query"], body["suggestion"]) == (60, "tagging", None)
    literal = client.get("/api/papers/?q=taging&literal=1").json()
    assert (literal["count"], literal["corrected_query"]) == (1, None)


def test_a_word_a_matched_title_has_is_a_name_offered_a_respelling_not_replaced(client):
    # "SAPIENT" is one paper's name, one edit from the collection's "salient": that paper is
    # what was asked for.
    for n in range(60):
        make_paper(f"Salient spans matter, {n}.", title=f"Salient Spans {n}")
    named = make_paper("A multi-turn agent.", title="SAPIENT: Mastering Multi-turn Dialogue")
    finish()
    for typed in ["SAPIENT", "sapient"]:
        body = client.get("/api/papers/?q=" + typed).json()
        assert (body["count"], body["corrected_query"]) == (1, None)
        assert [result["id"] for result in body["results"]] == [named.pk]
        assert body["suggestion"] == ("SALIENT" if typed.isupper() else "salient")


def test_a_query_of_a_few_matches_is_respelled_for_a_word_of_up_to_ten_papers(client):
    # "transfomer" is in five papers (more than RARE_WORD), one of which also says parsing:
    # the query matches one paper, and its misspelt word is still respelled.
    misspelt_beside_right(
        251, ["A transfomer that parses 0."] + [f"A transfomer {n}." for n in range(1, 5)]
    )
    body = client.get("/api/papers/?q=transfomer+parses").json()
    assert (body["count"], body["corrected_query"]) == (251, "transformer parses")


def transfomer_modles(client, typos: int) -> dict:
    """The API's answer to "transfomer modles" over 260 papers saying "transformer models"
    and ``typos`` misspelling "transformer"."""
    misspelt_beside_right(0, [f"A transfomer that parses {n}." for n in range(typos)])
    for n in range(260):
        make_paper(f"Transformer models for parsing {n}.", title=f"Transformers {n}")
    finish()
    return client.get("/api/papers/?q=transfomer+modles").json()


def test_a_query_matching_nothing_is_offered_a_respelling_of_a_word_of_a_few_papers(client):
    # "transfomer" is in four papers (more than RARE_WORD), "modles" in none: both are
    # respelled, where "modles" alone was, to "transfomer models", which no paper has; offered,
    # not shown at once, since a word of four papers may be meant ("mentor", not "mention").
    body = transfomer_modles(client, 4)
    assert (body["count"], body["corrected_query"]) == (0, None)
    assert body["suggestion"] == "transformer models"


def test_a_query_matching_nothing_has_a_word_of_three_papers_replaced_at_once(client):
    body = transfomer_modles(client, 3)
    assert (body["count"], body["corrected_query"]) == (260, "transformer models")


def test_a_respelled_querys_exports_and_feed_are_the_respellings(client):
    # The page listed "neural"'s papers for "nueral", but its export and feed addressed as
    # typed held none (an outside tester): they are the respelling's, as the page's links.
    for n in range(3):
        make_paper(f"A neural tagger, {n}.", title=f"Neural Tagging {n}")
    finish()
    for address in ["/?q=nueral&format=bibtex", "/feeds/search/?q=nueral"]:
        response = client.get(address)
        assert (response.status_code, response["Location"]) == (
            302,
            address.replace("nueral", "neural"),
        )
    exported = client.get("/?q=neural&format=ris")
    assert exported["X-Papers-Exported"] == "3"
    # As typed, where the page shows it so.
    for address in ["/?q=nueral&literal=1&format=ris", "/?q=nueral&sort=newest&format=ris"]:
        assert client.get(address)["X-Papers-Exported"] == "0"


def test_two_letters_swapped_are_respelled(client):
    # Trigrams miss it: "nueral" shares three of its eleven with "neural".
    for n in range(60):
        make_paper(f"A neural tagger, {n}.", title=f"Neural Tagging {n}")
    make_paper("A nerual tagger.", title="Typo")
    finish()
    for typed in ["nueral tagging", "nerual tagging", "neurla tagging"]:
        body = client.get("/api/papers/?q=" + typed).json()
        assert (body["count"], body["corrected_query"]) == (60, "neural tagging")


def test_a_respelling_of_many_edits_is_offered_not_shown(client):
    # "unterminated" is in no paper; "undermined" is three edits away and about something
    # else: offered, not shown in its place.
    for n in range(60):
        make_paper(f"Trust is undermined by errors, {n}.", title=f"Trust {n}")
    finish()
    body = client.get("/api/papers/?q=unterminated").json()
    assert (body["count"], body["corrected_query"], body["suggestion"]) == (0, None, "undermined")
    body = client.get("/api/papers/?q=undermied").json()
    assert (body["count"], body["corrected_query"]) == (60, "undermined")


def test_a_topics_name_is_a_filter_not_words_of_its_papers(client):
    tagged = make_paper("Stance detection in tweets.", title="Stances", topics=["Argument Mining"])
    arguing = make_paper("We mine arguments from essays.", title="Argument Mining in Essays")
    finish()
    body = client.get("/api/papers/?q=argument+mining").json()
    assert (body["count"], [r["id"] for r in body["results"]]) == (1, [arguing.pk])
    body = client.get("/api/papers/?topic=argument-mining").json()
    assert [r["id"] for r in body["results"]] == [tagged.pk]
