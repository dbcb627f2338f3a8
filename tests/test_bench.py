"""The benchmark keeps working: its corpus code, and one end-to-end run on 500 papers.

No timing is asserted: the benchmark measures, the suite only checks that it runs.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.quality import outside_topic_training, title_query
from bench.run import build_corpus, parse_arguments, scale_records, synthetic_records
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
    for name in ('search: "language models"', "list + facets (home)", "paper page", "similar page"):
        assert f"| {name} |" in report
    assert "PostgreSQL" in report
    assert "200×" in report  # at least the list page answered


@pytest.mark.django_db
def test_quality_keeps_apart_the_papers_the_topic_model_trained_on():
    trained = make_paper("One abstract.", "One", external_id="2020.acl-main.7")
    untrained = make_paper("Two abstract.", "Two", external_id="2020.acl-main.8")
    seed = make_paper("Three abstract.", "Three")
    assert outside_topic_training([trained.pk, untrained.pk, seed.pk]) == [untrained.pk, seed.pk]
