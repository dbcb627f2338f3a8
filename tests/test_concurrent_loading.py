"""Loads at the same time: one waits for the other, and the database itself refuses duplicates."""

import subprocess
import sys
import time

import pytest
from django.db import IntegrityError, connection, transaction

from papers import curation
from papers.load_guard import LOAD_LOCK_ID, LoadRunning
from papers.loading import load_files
from papers.merging import merge_papers
from papers.models import Author, DeletedKey, Paper, Topic, Venue
from papers.records import DumpError
from tests.factories import finish, make_paper, make_venue
from tests.support import load_running
from tests.test_hostile_loading import database_url, manage

WAITING = "another load is running; waiting…"


def write_folder(folder, papers: int = 300, files: int = 3) -> None:
    """`papers` distinct abstracts of a venue the database does not know, over `files` list pages."""
    folder.mkdir()
    for number in range(files):
        abstracts = [
            f"Paper {n} of the concurrency venue measures method {n * 7919 % 10007} on corpus {n % 97}."
            for n in range(number, papers, files)
        ]
        (folder / f"part{number}.txt").write_text(
            "\n\n".join(["CONC 2031 Papers", *abstracts]) + "\n", encoding="utf-8"
        )


def backends_waiting_for_the_load_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
            "AND objid = %s AND database = (SELECT oid FROM pg_database "
            "WHERE datname = current_database())",
            [LOAD_LOCK_ID],
        )
        return cursor.fetchone()[0]


def wait_until(condition, processes, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        for process in processes:
            assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_two_loads_of_one_new_folder_at_once_load_each_paper_once(tmp_path):
    folder = tmp_path / "new"
    write_folder(folder)
    # Hold the load lock here so both runs are certain to meet at it, then let them race.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [LOAD_LOCK_ID])
    processes = [manage("load_papers", str(folder)) for _ in range(2)]
    try:
        wait_until(lambda: backends_waiting_for_the_load_lock() == 2, processes, "no wait")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [LOAD_LOCK_ID])
    results = [process.communicate(timeout=300) for process in processes]
    assert [process.returncode for process in processes] == [0, 0], results
    for _, err in results:
        assert err.splitlines().count(WAITING) == 1
    for out, _ in results:  # a line per file (no terminal), then the summary
        assert out.splitlines()[:-1] == [f"new/part{number}.txt: 100 papers" for number in range(3)]
    summaries = sorted(out.strip().splitlines()[-1] for out, _ in results)
    assert summaries == [
        "Loaded 3 files, 300 papers read: 0 new, 0 updated, 300 unchanged; 0 new venues, 0 new topics, 0 new authors; 0 topic links from rules; 0 warnings",
        "Loaded 3 files, 300 papers read: 300 new, 0 updated, 0 unchanged; 1 new venues, 0 new topics, 0 new authors; 0 topic links from rules; 0 warnings",
    ]
    assert Paper.objects.count() == 300
    assert Paper.objects.values("abstract").distinct().count() == 300
    assert list(Venue.objects.values_list("name", flat=True)) == ["CONC 2031"]


@pytest.mark.django_db
def test_the_database_refuses_a_second_paper_with_an_abstract_unless_external_ids_differ():
    venue = make_venue()

    def add(key: str, external_id: str | None) -> Paper:
        return Paper.objects.create(
            abstract="text", abstract_key=key, external_id=external_id, venue=venue
        )

    add("same", None)
    add("same", "2024.acl-long.1")
    add("same", "2024.acl-long.2")
    add("", None)
    add("", None)
    with pytest.raises(IntegrityError, match="paper_abstract_once"), transaction.atomic():
        add("same", None)
    assert Paper.objects.filter(abstract_key="same").count() == 3


# Another session that inserts the venue a load is about to create, and commits it only once
# the load waits on that row: the load's own insert of the venue then fails.
RIVAL_VENUE = """
import sys, time, psycopg
with psycopg.connect(sys.argv[1]) as rival:
    rival.execute(
        "INSERT INTO papers_venue (name, slug, acronym, full_name, location, month,"
        " welcome_text, booktitle, external_id, curated_fields)"
        " VALUES ('CONC 2031', 'conc-2031', '', '', '', '', '', '', '', '{}')"
    )
    print("inserted", flush=True)
    while not rival.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted"
    ).fetchone()[0]:
        time.sleep(0.05)
    rival.commit()
"""


@pytest.mark.django_db(transaction=True)
def test_a_venue_created_meanwhile_ends_the_load_with_a_clear_message(tmp_path):
    folder = tmp_path / "new"
    write_folder(folder, papers=6, files=1)
    rival = subprocess.Popen(
        [sys.executable, "-c", RIVAL_VENUE, database_url()],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert rival.stdout.readline() == "inserted\n", rival.communicate()
    with pytest.raises(DumpError) as refused:
        load_files([folder])
    rival.communicate(timeout=60)
    assert rival.returncode == 0
    assert str(refused.value) == (
        "new/part0.txt: the database refused the load: duplicate key value violates "
        'unique constraint "papers_venue_name_key"'
    )
    assert Paper.objects.count() == 0
    assert list(Venue.objects.values_list("name", flat=True)) == ["CONC 2031"]


@pytest.mark.django_db(transaction=True)
def test_papers_are_not_merged_while_a_load_runs():
    # A load that has read the papers would write its copy of the survivor over what the merge
    # filled in (a reviewer): the merge is refused until the load ends.
    survivor = make_paper("The first copy.", title="One Paper", related_titles=["r1"])
    copy = make_paper("The second copy.", title="One Paper (copy)", related_titles=["r2"])
    refused = pytest.raises(LoadRunning, match=r"^A load is running: merge the papers when it has")
    with load_running(), refused:
        merge_papers(survivor, [copy])
    assert Paper.objects.count() == 2
    merge_papers(survivor, [copy])
    assert list(Paper.objects.values_list("related_titles", flat=True)) == [["r1", "r2"]]


@pytest.mark.django_db(transaction=True)
def test_nothing_is_deleted_while_a_load_runs():
    # A load that had matched a paper a curator deleted meanwhile failed whole, on its links to
    # it (an outside curator): the deletion is refused until the load ends.
    paper = make_paper("A paper to delete.", title="Doomed", authors=["Ada Lovelace"])
    topic = Topic.objects.create(name="Doomed Topic", slug="doomed-topic")
    finish()
    deletions = [
        (curation.delete_papers, Paper.objects.filter(pk=paper.pk), "papers"),
        (curation.delete_topics, Topic.objects.filter(pk=topic.pk), "topics"),
        (curation.delete_authors, Author.objects.filter(name="Ada Lovelace"), "authors"),
    ]
    with load_running():
        for delete, queryset, noun in deletions:
            with pytest.raises(LoadRunning, match=rf"^A load is running: delete the {noun} when"):
                delete(queryset)
    assert (Paper.objects.count(), Topic.objects.count(), Author.objects.count()) == (1, 1, 1)
    assert DeletedKey.objects.count() == 0
    for delete, queryset, _ in deletions:
        delete(queryset)
    assert (Paper.objects.count(), Topic.objects.count(), Author.objects.count()) == (0, 0, 0)
