"""What makes loads fast keeps them right: the search vector's trigger, one rewrite of topic
names per load, parsing in several processes, the load's phases."""

import json
import os
import pickle

import pytest
from django.conf import settings
from django.db import connection

from papers import loading, staging, writing
from papers.denormalise import refresh_topic_names, topic_names_deferred
from papers.loading import load_files, parse_files
from papers.models import Paper, PaperTopic
from papers.progress import Progress
from papers.records import DumpError
from tests.factories import ABSTRACT_A, ABSTRACT_B, ABSTRACT_C, finish, make_paper, make_topic

# The trigger's full branch, written out (compounds joined and split, papers_compounds): what
# every paper's vector must equal.
FULL_VECTOR = """
SELECT count(*) FROM papers_paper p WHERE p.search_vector IS DISTINCT FROM (
    setweight(to_tsvector('english', COALESCE(papers_compounds(p.title), '')), 'A')
    || setweight(to_tsvector('english', COALESCE(papers_compounds(p.abstract), '')), 'C')
    || setweight(to_tsvector('english', COALESCE(papers_compounds(p.author_names), '')), 'B'))
"""


def papers_whose_vector_differs() -> int:
    with connection.cursor() as cursor:
        cursor.execute(FULL_VECTOR)
        return cursor.fetchone()[0]


def lexemes(paper: Paper) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT search_vector::text FROM papers_paper WHERE id = %s", [paper.pk])
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_the_trigger_keeps_every_vector_equal_to_a_full_parse():
    paper = make_paper(
        "Parsing morphologically rich languages with graph networks.",
        title="Graph parsing",
        topics=["syntax"],
        authors=["Ada Lovelace"],
    )
    finish()
    # Title (A), abstract (C), then the authors' names (B), positions in that order; not the
    # topic's name, which is a filter, not the paper's words.
    assert lexemes(paper) == (
        "'ada':10B 'graph':1A,8C 'languag':6C 'lovelac':11B 'morpholog':4C 'network':9C "
        "'pars':2A,3C 'rich':5C"
    )
    # A change of topics leaves the vector; of authors, the cheap branch; of the title, the
    # full one.
    Paper.objects.filter(pk=paper.pk).update(topic_names="semantics, dialogue systems")
    assert "'dialogu'" not in lexemes(paper)
    Paper.objects.filter(pk=paper.pk).update(author_names="Grace Hopper")
    assert "'hopper':11B" in lexemes(paper) and "'lovelac'" not in lexemes(paper)
    assert papers_whose_vector_differs() == 0
    Paper.objects.filter(pk=paper.pk).update(title="Tree parsing")
    assert "'tree':1A" in lexemes(paper)
    assert papers_whose_vector_differs() == 0


@pytest.mark.django_db
def test_a_statement_cannot_write_a_vector_of_its_own():
    paper = make_paper("Speech recognition for low-resource languages.", title="ASR")
    finish()
    before = lexemes(paper)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE papers_paper SET search_vector = 'bogus'::tsvector WHERE id = %s", [paper.pk]
        )
    assert lexemes(paper) == before
    assert "'bogus'" not in before


@pytest.mark.django_db
def test_deferred_topic_names_are_noted_then_rewritten_once():
    paper = make_paper("Dialogue state tracking with slot memories.", title="Slots")
    other = make_paper("Neural machine translation of idioms.", title="Idioms")
    finish()
    PaperTopic.objects.create(paper=paper, topic=make_topic("dialogue"))
    with topic_names_deferred() as pending:
        assert refresh_topic_names([paper.pk]) == 0
        assert Paper.objects.get(pk=paper.pk).topic_names == ""
    assert pending.ids == {paper.pk}
    assert refresh_topic_names(pending.ids) == 1
    assert Paper.objects.get(pk=paper.pk).topic_names == "dialogue"
    assert Paper.objects.get(pk=other.pk).topic_names == ""
    with topic_names_deferred() as pending:
        refresh_topic_names([paper.pk])
        refresh_topic_names()
    assert pending.ids is None  # every paper


def test_a_dump_error_survives_the_trip_back_from_a_parsing_process():
    error = pickle.loads(pickle.dumps(DumpError("a.txt", "no abstract", 12)))
    assert (error.source, error.reason, error.line, str(error)) == (
        "a.txt",
        "no abstract",
        12,
        "a.txt, line 12: no abstract",
    )


class FilesSeen(Progress):
    """The files a load says it read, in order."""

    def __init__(self):
        self.sources = []

    def file_read(self, parsed):
        self.sources.append(parsed.source)


def test_several_processes_parse_as_one_does(monkeypatch, write_dump):
    files = sorted(settings.FIXTURES_DIR.glob("0*.txt"))
    alone = parse_files(files)
    monkeypatch.setattr(loading, "PARALLEL_PARSE_BYTES", 0)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    seen = FilesSeen()
    together = parse_files(files, seen)
    assert together == alone
    assert seen.sources == [parsed.source for parsed in alone]
    bad = write_dump("zz_bad.txt", "")
    with pytest.raises(DumpError) as raised:
        parse_files([*files, bad])
    assert raised.value.source.endswith("zz_bad.txt")
    assert raised.value.reason == "the file is empty"


@pytest.mark.django_db
def test_a_load_reports_its_phases_in_the_order_they_ran():
    summary = load_files([settings.FIXTURES_DIR])
    assert list(summary.phases) == [
        "parse",
        "match and write papers",
        "topic and author links",
        "names",
        "topic model",
        "topic rules",
        "similarity model",
        "word statistics",
        "search indexes",
        "facet counts",
        "commit",
    ]
    assert all(seconds >= 0 for seconds in summary.phases.values())
    assert papers_whose_vector_differs() == 0


def planner_row_estimate(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [table])
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_a_large_load_leaves_statistics_of_the_rows_it_wrote(monkeypatch):
    # Statistics taken before the staged papers moved in described a table without them: the
    # pages' plans then read every paper once per venue, until autovacuum came by.
    monkeypatch.setattr(writing, "ANALYZE_AFTER", 1)
    summary = load_files([settings.FIXTURES_DIR])
    assert "statistics" in summary.phases
    assert planner_row_estimate("papers_paper") == 79
    assert planner_row_estimate("papers_papertopic") == PaperTopic.objects.count()


def paper_rows_written() -> tuple[int, int]:
    """(inserted, updated) rows of the papers table so far (in this transaction, and in any
    earlier one whose counts the server has not yet gathered: compare two readings)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_inserted('papers_paper'::regclass), "
            "pg_stat_get_xact_tuples_updated('papers_paper'::regclass)"
        )
        return cursor.fetchone()


@pytest.mark.django_db
def test_a_load_writes_each_new_paper_row_once_with_its_final_names_and_vector():
    make_topic("Machine translation", rule='translation OR "machine translation"')
    inserted, updated = paper_rows_written()
    summary = load_files([settings.FIXTURES_DIR])
    # The rule gave seeds a topic: before staging, each of those rows was written by the COPY
    # and again with its topic names.
    assert summary.rule_links > 0
    assert paper_rows_written() == (inserted + 79, updated)
    assert Paper.objects.filter(topic_names__contains="Machine translation").count() == (
        summary.rule_links
    )
    assert not Paper.objects.filter(topic_names="").exclude(topics=None).exists()
    assert papers_whose_vector_differs() == 0


@pytest.mark.django_db
def test_the_staged_papers_table_is_gone_after_a_load():
    # Unlogged, not temporary, so that parallel workers parse the staged papers' vectors
    # (papers/staging.py): no end of transaction drops it, the load does.
    load_files([settings.FIXTURES_DIR])
    assert Paper.objects.count() == 79
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s)", [staging.STAGED])
        assert cursor.fetchone() == (None,)


# Each paper's names from its links, one paper at a time: topics by name, authors in their
# order on the paper.
NAMES_FROM_LINKS = """
SELECT p.id,
    COALESCE((SELECT string_agg(t.name, ', ' ORDER BY t.name) FROM papers_papertopic pt
              JOIN papers_topic t ON t.id = pt.topic_id WHERE pt.paper_id = p.id), ''),
    COALESCE((SELECT string_agg(a.name, ', ' ORDER BY w.position) FROM papers_authorship w
              JOIN papers_author a ON a.id = w.author_id WHERE w.paper_id = p.id), '')
FROM papers_paper p ORDER BY p.id
"""


@pytest.mark.django_db
def test_a_load_writes_each_new_papers_names_in_the_order_of_its_links(write_dump):
    records = [
        {"abstract": ABSTRACT_A, "authors": ["Grace Hopper", "Ada Lovelace", "Alan Turing"]},
        {"abstract": ABSTRACT_B, "authors": ["Barbara Liskov", "Edsger Dijkstra"]},
        {"abstract": ABSTRACT_C, "authors": []},
    ]
    topics = [["Syntax", "Dialogue"], ["Semantics"], []]
    lines = [
        json.dumps({"title": f"Paper {n}", "venue": "V 2024", "topics": topics[n], **record})
        for n, record in enumerate(records)
    ]
    load_files([settings.FIXTURES_DIR, write_dump("papers.jsonl", "\n".join(lines) + "\n")])
    with connection.cursor() as cursor:
        cursor.execute(NAMES_FROM_LINKS)
        from_links = cursor.fetchall()
    assert list(Paper.objects.order_by("pk").values_list("pk", "topic_names", "author_names")) == (
        from_links
    )
    assert list(
        Paper.objects.filter(title__startswith="Paper ")
        .order_by("title")
        .values_list("topic_names", "author_names")
    ) == [
        ("Dialogue, Syntax", "Grace Hopper, Ada Lovelace, Alan Turing"),
        ("Semantics", "Barbara Liskov, Edsger Dijkstra"),
        ("", ""),
    ]
    assert papers_whose_vector_differs() == 0


@pytest.mark.django_db
def test_only_the_loaders_inserts_keep_the_vector_they_write():
    paper = make_paper("Speech recognition for low-resource languages.", title="ASR")
    finish()
    columns = "title, abstract, abstract_key, venue_id, country, presentation_format, " + (
        "related_titles, pages, doi, url, bibkey, reviewed, curated_fields, topic_names, "
        "author_names, source_file, created, updated, search_vector"
    )
    insert = (
        f"INSERT INTO papers_paper ({columns}) SELECT title, abstract, '', venue_id, country, "
        "presentation_format, related_titles, pages, doi, url, bibkey, reviewed, "
        "curated_fields, topic_names, author_names, source_file, created, updated, "
        "'given'::tsvector FROM papers_paper WHERE id = %s RETURNING search_vector::text"
    )
    with connection.cursor() as cursor:
        cursor.execute(insert, [paper.pk])
        assert cursor.fetchone()[0] == lexemes(paper)
        cursor.execute("SELECT set_config('papers.loader_vectors', 'on', true)")
        cursor.execute(insert, [paper.pk])
        assert cursor.fetchone()[0] == "'given'"
        # Updates recompute whatever the setting.
        cursor.execute(
            "UPDATE papers_paper SET search_vector = 'bogus'::tsvector WHERE id = %s", [paper.pk]
        )
    assert lexemes(paper) != "'bogus'"
