"""The benchmark keeps working: its corpus code, and one end-to-end run on 500 papers.

No timing is asserted: the benchmark measures, the suite only checks that it runs.
"""

import os
import random
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench import acronym_queries, typo_queries
from bench.corpus import build_corpus, scale_records, synthetic_records
from bench.known_item import title_query
from bench.name_queries import summary, theirs
from bench.narrow_subjects import narrow_subjects
from bench.quality import outside_topic_training
from bench.report import (
    LoadTiming,
    Row,
    checks,
    load_section,
    misses_section,
    plan_excerpt,
    verdict,
)
from bench.request_mix import RequestSpec, _combined, distinct_urls
from bench.run import parse_arguments, split_urls
from bench.server import get
from bench.timing import HttpTiming, SqlTiming, inner_plan, slowest_nested_plan
from papers.text import normalise_abstract, normalise_title
from tests.factories import make_paper

PROJECT_DIR = Path(__file__).resolve().parent.parent


def test_synthetic_corpus_is_fixed_by_its_seed():
    first = synthetic_records(50, seed=7)
    again = synthetic_records(50, seed=7)
    other = synthetic_records(50, seed=8)
    assert first == again
    assert first != other
    assert all(record.title and record.abstract and record.authors for record in first)


def test_copies_are_new_papers_to_the_loader():
    originals = synthetic_records(40, seed=3)
    copies = scale_records(originals, 500, seed=3)
    assert len(originals) + len(copies) == 500
    everything = originals + copies
    assert len({(r.venue, normalise_title(r.title)) for r in everything}) == 500
    assert len({normalise_abstract(r.abstract) for r in everything}) == 500
    assert len({r.external_id for r in everything}) == 500
    assert scale_records(originals, 500, seed=3) == copies
    assert scale_records(originals, 30, seed=3) == []


def test_corpus_sizes():
    corpus = build_corpus(300, anthology=None, seed=1)
    assert corpus.size == 300
    assert corpus.xml_files == []
    assert "synthetic" in corpus.description


def test_arguments_default_to_100000_papers():
    options = parse_arguments([])
    assert options.papers == 100_000
    assert options.database == "papers_bench"
    assert options.clients == (1, 8)


def test_known_item_queries_take_two_to_four_title_words():
    import random

    rng = random.Random(1)
    title = "UniGen: Universal Domain Generalization for Sentiment Classification"
    for _ in range(20):
        query = title_query(title, rng)
        words = query.split()
        assert 2 <= len(words) <= 4
        assert all(word in title for word in words)


def test_the_benchmark_runs_end_to_end_on_500_papers(tmp_path):
    output = tmp_path / "results.md"
    command = [
        sys.executable,
        str(PROJECT_DIR / "bench" / "run.py"),
        "--papers",
        "500",
        "--synthetic",
        "--database",
        "papers_bench_test",
        "--drop",
        "--requests",
        "2",
        "--requests-concurrent",
        "8",
        "--time-limit",
        "10",
        "--workers",
        "2",
        "--output",
        str(output),
        "--work-dir",
        str(tmp_path / "work"),
    ]
    completed = subprocess.run(
        command,
        cwd=PROJECT_DIR,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = output.read_text(encoding="utf-8")
    assert report in completed.stdout
    assert "| JSON Lines | 500 |" in report
    for name in (
        "search: common word",
        "search: phrase",
        "search: A–Z, deep page",
        "list + facets (home)",
        "filter: topic A–Z, deep page",
        "filter: venue",
        "filter: year + q",
        "paper page",
        "similar page",
    ):
        assert f"| {name} | ≤ " in report
    assert "| parse | " in report  # the load's phases
    assert "## Misses, and why" in report
    assert "PostgreSQL" in report
    assert "200×" in report  # at least the list page answered


def test_urls_are_distinct_and_later_pages_come_only_when_the_variants_run_out():
    assert distinct_urls([{"q": "a"}, {"q": "b"}], 5) == [
        "/?q=a",
        "/?q=b",
        "/?q=a&page=2",
        "/?q=b&page=2",
        "/?q=a&page=3",
    ]
    assert distinct_urls([{}], 2) == ["/", "/?page=2"]
    assert distinct_urls([{"q": "x"}], 1, "/api/papers/") == ["/api/papers/?q=x"]
    assert distinct_urls([], 3) == []


def test_each_use_of_a_row_gets_urls_of_its_own_while_there_are_enough():
    urls = [f"/u{n}" for n in range(12)]
    parts = split_urls(urls, 3, 4)
    assert parts == {
        "c1": ["/u0", "/u1", "/u2"],
        "c8": ["/u3", "/u4", "/u5", "/u6"],
        "warm": ["/u7", "/u8"],
        "sql": ["/u9", "/u10", "/u11"],
    }
    few = split_urls(["/a", "/b"], 3, 4)
    assert few == {
        "c1": ["/a", "/b"],
        "c8": ["/a", "/b"],
        "warm": ["/a", "/b"],
        "sql": ["/a", "/b"],
    }


def test_pairs_of_the_first_items_come_first():
    assert _combined(["v1", "v2"], ["t1", "t2", "t3"]) == [
        ("v1", "t1"),
        ("v1", "t2"),
        ("v2", "t1"),
        ("v1", "t3"),
        ("v2", "t2"),
        ("v2", "t3"),
    ]


def _timing(clients: int, latencies: list[float], seconds: float) -> HttpTiming:
    return HttpTiming(clients=clients, latencies_ms=latencies, seconds=seconds)


def _row(kind: str, one: list[float], eight: list[float], sql_ms: float, plan=()) -> Row:
    spec = RequestSpec("filter: venue + topic + q=models", kind, ["/?q=models"])
    sql = SqlTiming(queries=4, milliseconds=sql_ms, slowest_ms=sql_ms - 1, plan=list(plan))
    return Row(spec, sql, {1: _timing(1, one, 1.0), 8: _timing(8, eight, 1.0)})


def test_the_verdict_checks_every_target_of_issue_14():
    # c1: p50 40, p95 60 (≤ 100); c8: p95 240 = 4× (≤ 5×), 20 requests in 1 s against 10: 2×.
    met = _row("search", [40.0] * 9 + [60.0], [100.0] * 18 + [240.0] * 2, sql_ms=30.0)
    assert verdict(met) == "c1 p95 ≤ 100 ✓, c8/c1 p95 4.0× ✓, c8/c1 req/s 2.0× ✓, app/SQL 1.3× ✓"
    missed = _row("list", [90.0] * 10, [500.0] * 12, sql_ms=20.0)
    assert [(c.name, c.passed) for c in checks(missed)] == [
        ("p95", False),
        ("c8 p95", False),
        ("c8 req/s", False),
        ("app/SQL", False),
    ]
    # The SQL under 10 ms is not held to app/SQL.
    fast_sql = _row("page", [30.0] * 10, [60.0] * 20, sql_ms=5.0)
    assert verdict(fast_sql) == "c1 p95 ≤ 40 ✓, c8/c1 p95 2.0× ✓, c8/c1 req/s 2.0× ✓"


def test_a_miss_shows_the_plan_when_the_sql_is_the_cause():
    plan = ["Nested Loop  (actual rows=5000 loops=1)", "  ->  Bitmap Heap Scan on papers_paper"]
    slow_sql = _row("search", [300.0] * 10, [900.0] * 20, sql_ms=250.0, plan=plan)
    lines = misses_section([slow_sql], [])
    assert lines[2] == "- **filter: venue + topic + q=models**: c1 p95 ≤ 100 ✗."
    assert "  Nested Loop  (actual rows=5000 loops=1)" in lines
    slow_app = _row("search", [300.0] * 10, [900.0] * 20, sql_ms=20.0, plan=plan)
    text = "\n".join(misses_section([slow_app], []))
    assert "Nested Loop" not in text
    assert "The SQL alone takes 20 ms: the rest is outside PostgreSQL" in text
    assert misses_section([], []) == ["## Misses, and why", "", "None: every target met."]


def test_a_p95_miss_is_explained_by_the_sql_of_the_slowest_urls():
    # The row's SQL column (20 ms) timed other URLs; the p95 came from /?q=models.
    row = _row("search", [300.0] * 10, [900.0] * 20, sql_ms=20.0)
    row.tail_sql = SqlTiming(
        queries=6, milliseconds=180.0, slowest_ms=150.0, plan=["Seq Scan on f"], urls=["/?q=a"]
    )
    text = "\n".join(misses_section([row], []))
    assert "At the slowest one-client URLs (`/?q=a`), the SQL alone takes 180 ms; its " in text
    assert "  Seq Scan on f" in text
    # A statement whose work is inside the project's functions says so: its plan cannot; the
    # plan of the slowest statement they run shows it, where auto_explain gave one.
    row.tail_sql.functions = ["papers_text_match_ids"]
    text = "\n".join(misses_section([row], []))
    assert "  The statement calls `papers_text_match_ids()`: their work is inside, in no " in text
    row.tail_sql.inner_plan = [
        "Aggregate  (actual rows=1 loops=1)",
        "  ->  Bitmap Heap Scan on p  (actual rows=39659 loops=1)",
        "        Rows Removed by Index Recheck: 19031",
    ]
    text = "\n".join(misses_section([row], []))
    assert (
        "  The statement calls `papers_text_match_ids()`; inside, the slowest statement runs "
        "this plan:\n\n  ```\n  Aggregate  (actual rows=1 loops=1)\n"
        "    ->  Bitmap Heap Scan on p  (actual rows=39659 loops=1)\n"
        "          Rows Removed by Index Recheck: 19031\n  ```" in text
    )
    row.tail_sql.milliseconds = 30.0
    text = "\n".join(misses_section([row], []))
    assert "(`/?q=a`), the SQL alone takes 30 ms: the rest is outside PostgreSQL" in text
    assert "Seq Scan" not in text


def test_the_slowest_nested_statement_s_plan_is_kept_without_its_text():
    messages = [
        "duration: 2.5 ms  plan:\nQuery Text: SELECT 1\nResult  (actual rows=1 loops=1)",
        "duration: 90.1 ms  plan:\nQuery Text: SELECT id FROM p WHERE v @@ q\n"
        "Query Parameters: $1 = 'x'\nBitmap Heap Scan on p  (actual rows=7 loops=1)\n"
        "  Recheck Cond: (v @@ q)",
        "duration: 95.0 ms  plan:\nQuery Text: SELECT f(q)\nResult  (actual rows=1 loops=1)",
    ]
    assert slowest_nested_plan(messages) == [
        "Bitmap Heap Scan on p  (actual rows=7 loops=1)",
        "  Recheck Cond: (v @@ q)",
    ]
    assert slowest_nested_plan(messages[-1:]) == []


@pytest.mark.django_db
def test_auto_explain_shows_what_a_matching_function_does_inside(corpus):
    phrase = "SELECT length(papers_text_match_ids(phraseto_tsquery('english', 'kv cache')))"
    plan = inner_plan(phrase)
    if not plan:
        pytest.skip("auto_explain cannot be loaded here (a superuser and contrib are needed)")
    assert plan[0].startswith("Aggregate  ")
    assert any("Bitmap Heap Scan on papers_paper p" in line for line in plan)
    assert inner_plan("SELECT 1") == []


def test_a_plans_excerpt_shows_the_nodes_that_handle_the_most_rows():
    plan = [
        "Append  (actual rows=173.00 loops=1)",
        "  CTE complement",
        "    ->  Result  (actual rows=1.00 loops=1)",
        "  CTE o",
        "    ->  Seq Scan on papers_paperfacets f  (actual rows=17446.00 loops=1)",
        "          Filter: (NOT (lexemes @@ 'model'::tsquery))",
        "    ->  Function Scan on unnest a  (actual rows=4.80 loops=5140)",
        "    ->  Index Scan using facetcount_top  (actual rows=117.00 loops=1)",
    ]
    assert plan_excerpt(plan, 3) == [plan[0], plan[4], plan[6]]
    assert plan_excerpt([], 3) == []


def test_the_slowest_urls_are_distinct_and_slowest_first():
    timing = HttpTiming(clients=1, timed=[(5.0, "/a"), (50.0, "/b"), (40.0, "/b"), (30.0, "/c")])
    assert timing.slowest_urls(2) == ["/b", "/c"]
    assert timing.slowest_urls(5) == ["/b", "/c", "/a"]


def test_the_load_section_says_what_the_headline_rate_counts():
    phases = {
        "parse": 2.0,
        "match and write papers": 4.0,
        "topic model": 2.0,
        "similarity model": 2.0,
    }
    timing = LoadTiming("Anthology XML", 26_000, 10.0, phases)
    assert timing.rate == 2600
    assert timing.rate_without(("topic model", "similarity model")) == 26_000 / 6.0
    lines = load_section([timing])
    assert "| Anthology XML | 26,000 | 10.0 | 2,600 | ✓ | 4,333 |" in lines
    assert "| parse | 2.0 (13,000) |" in lines
    assert any("the commit and the similarity model" in line for line in lines)
    slow = LoadTiming("JSON Lines", 74_000, 74.0, {"names": 30.0, "parse": 4.0})
    assert misses_section([], [slow])[2] == (
        "- **Load, JSON Lines: 1,000 papers/s against 2,000.** "
        "The longest phases: names 30.0 s, parse 4.0 s."
    )


@pytest.mark.django_db
def test_quality_keeps_apart_the_papers_the_topic_model_trained_on():
    trained = make_paper("One abstract.", "One", external_id="2020.acl-main.7")
    untrained = make_paper("Two abstract.", "Two", external_id="2020.acl-main.8")
    seed = make_paper("Three abstract.", "Three")
    assert outside_topic_training([trained.pk, untrained.pk, seed.pk]) == [untrained.pk, seed.pk]


def test_a_path_beyond_ascii_is_sent_percent_encoded():
    """An author's slug may have letters beyond ASCII: the benchmark's client sends it as a
    browser does (http.client refused it, and the timing thread died)."""
    seen = []

    class Recorder(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        assert get(port, "/authors/jørgen-wedel/")[0] == 200
        assert get(port, "/?q=%22language+models%22&venue=acl-2024")[0] == 200
    finally:
        server.shutdown()
    assert seen == ["/authors/j%C3%B8rgen-wedel/", "/?q=%22language+models%22&venue=acl-2024"]


def test_a_name_query_result_is_theirs_when_an_author_has_the_name_however_written():
    results = [
        {"authors": ["Ivan Vulic", "Ann Lee"]},
        {"authors": ["Ivan Petrov"]},
        {"authors": []},
    ]
    assert theirs("Ivan Vulić", results) == [True, False, False]
    assert summary({"Ivan Vulić": [True, False, False], "Ann Lee": [False, True]}) == (
        "first result theirs: 1/2; mean share of the first page theirs: 0.417"
    )


def test_an_acronym_query_result_writes_it_so_as_typed_or_in_capitals():
    titles = ["GLUE-X: Harder Tasks", "Glue Pizza", "SuperGLUE", "A SQUAD of Models"]
    assert acronym_queries.written_so("GLUE", titles) == [True, False, False, False]
    assert acronym_queries.written_so("SQuAD", titles) == [False, False, False, True]
    pages = {"GLUE": [True, False, True], "CLIP": [False, True], "SQuAD": [True] * 12}
    assert acronym_queries.summary(pages, {"GLUE": 4, "CLIP": 1, "SQuAD": 11}) == (
        "first result writes it so: 2/3; "
        "mean share of the first 10 that do, of the most they could: 0.833"
    )


def test_a_typo_is_one_edit_inside_the_word_and_its_outcome_is_read_from_the_answer():
    rng = random.Random(5)
    for word in ["tagging", "attention", "summarization"] * 20:
        typo = typo_queries.misspelt(word, rng)
        assert typo != word and (typo[0], typo[-1]) == (word[0], word[-1])
        assert abs(len(typo) - len(word)) <= 1
    answer = {"corrected_query": None, "suggestion": None}
    assert typo_queries.outcome("tagging", answer) == "not respelled"
    assert typo_queries.outcome("tagging", answer | {"suggestion": "tagging"}) == "offered"
    assert typo_queries.outcome("tagging", answer | {"corrected_query": "tagging"}) == (
        "given back at once"
    )
    assert typo_queries.outcome("tagging", answer | {"corrected_query": "tapping"}) == (
        "another word"
    )


def test_narrow_subjects_count_the_first_five_naming_the_subject(client, corpus):
    from papers import similarity
    from papers.models import Paper

    similarity.refresh_embeddings(force=True)
    [share] = narrow_subjects([("kv cache", r"\bcache")])
    texts = {paper.pk: f"{paper.title} {paper.abstract}" for paper in Paper.objects.all()}
    naming = {pk for pk, text in texts.items() if re.search(r"\bcache", text, re.IGNORECASE)}
    titled = [pk for pk, title in Paper.objects.values_list("pk", "title") if "Cache" in title]
    assert len(texts) <= 6 and len(titled) == 2
    # Five papers or fewer besides it: its similar papers are all the others; a slot left
    # empty counts as a paper not naming the subject.
    expected = sum(len(naming - {pk}) / 5 for pk in titled) / len(titled)
    assert (share.subject, share.papers) == ("kv cache", 2)
    assert round(share.paper_share, 4) == round(expected, 4)
    assert 0 < share.text_share <= len(naming) / 5
