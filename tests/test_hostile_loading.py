"""The loader against hostile files and faults: a clear error, bounded memory, nothing lost."""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.db import connection

from papers import sources
from papers.loading import load_files
from papers.models import Paper
from papers.records import DumpError
from tests.conftest import PROJECT_DIR
from tests.factories import ABSTRACT_A, list_page
from tests.support import run, snapshot


def database_url() -> str:
    """The test database as a DATABASE_URL, for a load_papers run in another process."""
    db = connection.settings_dict
    if db["HOST"].startswith("/"):
        return f"postgres://{db['USER']}:{db['PASSWORD']}@/{db['NAME']}?host={db['HOST']}"
    return (
        f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def manage(*args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": database_url()},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


MEASURE_PEAK = (
    "import resource, subprocess, sys; "
    "code = subprocess.run([sys.executable, *sys.argv[1:]]).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)"
)


def write_big_list(path, papers: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write("ACL 2022 Papers\n\n")
        for number in range(papers):
            out.write(
                f"Paper {number} studies method {number * 7919 % 100003} on data set {number % 311}.\n\n"
            )


@pytest.mark.django_db(transaction=True)
def test_a_200_mb_file_is_refused_with_bounded_memory(seeds, tmp_path):
    huge = tmp_path / "huge.txt"
    with huge.open("w", encoding="utf-8") as out:
        out.write("ACL 2025 Papers\n\n")
        paragraph = ("A long abstract sentence about parsing. " * 25 + "\n\n").encode()
        out.flush()
    with huge.open("ab") as out:
        for _ in range(200 * 2**20 // len(paragraph) + 1):
            out.write(paragraph)
    assert huge.stat().st_size > 200 * 2**20
    before = snapshot()
    # A fresh parent whose only child is the load, so its children's peak is the load's own.
    process = subprocess.Popen(
        [sys.executable, "-c", MEASURE_PEAK, "manage.py", "load_papers", str(huge)],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": database_url()},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1
    assert "MiB is too large for a page dump (at most 32 MiB); split it" in err
    assert "Traceback" not in err
    assert int(out.split()[-1]) < 300 * 1024  # KiB: the file is never read into memory
    assert snapshot() == before


@pytest.mark.django_db
def test_a_5_mb_line_is_refused(write_dump):
    path = write_dump("oneline.txt", "ACL 2025 Papers\n\n" + "word " * 1_000_000 + "\n")
    with pytest.raises(DumpError, match=r"line 3: a line of 5,000,000 characters"):
        load_files([path])
    assert Paper.objects.count() == 0


@pytest.mark.django_db
def test_one_bad_file_in_a_folder_of_good_ones_loads_nothing(seeds, tmp_path):
    folder = tmp_path / "dumps"
    folder.mkdir()
    (folder / "a.txt").write_text(list_page("EACL 2024 Papers"), encoding="utf-8")
    (folder / "b.txt").write_bytes(b"\x89PNG garbage \x00")
    (folder / "c.txt").write_text(
        list_page("NAACL 2024 Papers", [ABSTRACT_A + " Again."]), encoding="utf-8"
    )
    before = snapshot()
    with pytest.raises(Exception, match=r"b\.txt: a binary file"):
        run("load_papers", str(folder))
    assert snapshot() == before


@pytest.mark.django_db
def test_links_in_folders_are_skipped_and_a_looping_link_named_is_an_error(tmp_path):
    folder = tmp_path / "dumps"
    folder.mkdir()
    (folder / "good.txt").write_text(list_page(), encoding="utf-8")
    (folder / "loop.txt").symlink_to(folder / "loop.txt")
    (folder / "back").symlink_to(folder)
    summary = load_files([folder])
    assert summary.new == 3
    assert sorted(w.rsplit("/", 1)[-1] for w in summary.warnings) == [
        "back: a symbolic link, skipped",
        "loop.txt: a symbolic link, skipped",
    ]
    with pytest.raises(DumpError, match="a symbolic link that leads nowhere"):
        load_files([folder / "loop.txt"])


@pytest.mark.django_db
def test_a_file_that_changes_while_it_is_read_is_refused(write_dump, monkeypatch):
    path = write_dump("growing.txt", list_page())
    real_parse = sources.parse_dump

    def parse_while_someone_appends(text, source):
        with path.open("a", encoding="utf-8") as out:
            out.write("\n\nA paragraph written while the loader was reading.\n")
        return real_parse(text, source)

    monkeypatch.setattr(sources, "parse_dump", parse_while_someone_appends)
    with pytest.raises(DumpError, match="changed while it was being read"):
        load_files([path])
    assert Paper.objects.count() == 0


def papers_being_written() -> bool:
    """Whether another session is writing papers (COPY or INSERT) in the test database."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
            "AND datname = current_database() AND state = 'active' "
            "AND query ~ '^(COPY|INSERT INTO) \"papers_paper\"'"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)
def test_load_killed_midway_leaves_the_database_as_it_was(seeds, tmp_path):
    big = tmp_path / "big.txt"
    write_big_list(big, 20_000)
    before = Paper.objects.count()
    process = manage("load_papers", str(big))
    deadline = time.monotonic() + 120
    while not papers_being_written():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the load never started writing"
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    # The server rolls the transaction back once it notices its client is gone.
    deadline = time.monotonic() + 30
    while papers_being_written() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert Paper.objects.count() == before
    process = manage("load_papers", str(big))
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "20000 new" in out
    assert Paper.objects.count() == before + 20_000


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE collection [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<collection id="2024.evil"><volume id="main"><meta><booktitle>&lol3;</booktitle><year>2024</year></meta>
<paper id="1"><title>&lol3;</title></paper></volume></collection>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE collection [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<collection id="2024.evil"><volume id="main"><meta><booktitle>x</booktitle><year>2024</year></meta>
<paper id="1"><title>&secret;</title></paper></volume></collection>
"""


@pytest.mark.django_db
@pytest.mark.parametrize("content", [BILLION_LAUGHS, EXTERNAL_ENTITY], ids=["entities", "external"])
def test_hostile_xml_among_good_dumps_loads_nothing(seeds, tmp_path, content):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.txt").write_text(list_page("EACL 2024 Papers"), encoding="utf-8")
    (folder / "evil.xml").write_bytes(content)
    before = snapshot()
    with pytest.raises(Exception, match=r"evil\.xml"):
        run("load_papers", str(folder))
    assert snapshot() == before
    assert not Paper.objects.filter(title__contains="lol").exists()
