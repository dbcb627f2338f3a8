"""Every kind of hostile file ends a load with a clear message naming file and line, never a
traceback, and leaves the database as it was (record-level cases: test_validation.py)."""

import os
import subprocess
import sys

import pytest
from django.core.management.base import CommandError
from django.db import connection

from tests.conftest import PROJECT_DIR
from tests.test_loading import run, snapshot
from tests.test_validation import words

HOSTILE_FILES = [
    (
        "findings.txt",
        f"Findings of ACL 2024\n\n{words(30)}\n\n{words(31)}\n\nACL 2024\n".encode(),
        "line 1: the first line 'Findings of ACL 2024' names a venue, not a country: a list "
        "page's header is '<venue> Papers' (e.g. 'Findings of ACL 2024 Papers')",
    ),
    (
        "details.jsonl",
        b'{"title": "x", "venue": "ACL 2025", "authors": ["Ann"], "author_details": [{}, {}]}\n',
        "line 1: field 'author_details' must list one object per author",
    ),
    (
        "dates.jsonl",
        b'{"title": "x", "venue": "ACL 2025", "venue_details": {"start_date": "May 5"}}\n',
        "line 1: venue_details 'start_date' must be a date (YYYY-MM-DD)",
    ),
    (
        "feed.xml",
        b"<?xml version='1.0'?>\n<rss version='2.0'><channel><title>x</title></channel></rss>\n",
        'not an Anthology file: the root is <rss>, <collection id="..."> expected',
    ),
    (
        "page.txt",
        b"<!DOCTYPE html>\n<html><body>ACL 2025 Papers</body></html>\n",
        "an HTML page: save the conference page as text (the browser's Save as, Text) and "
        "load that file",
    ),
    (
        "latin1.txt",
        "ACL 2025 Papers\n\nCaf\xe9 abstract.\n".encode("latin-1"),
        "line 3: not UTF-8 text (byte 0xe9)",
    ),
    ("binary.txt", b"ACL 2025 Papers\n\n\x00\x01\x02\n", "a binary file, not a text dump"),
    # Saved as UTF-16, it was "a binary file" (an outside tester).
    (
        "utf16.txt",
        "ACL 2025 Papers\n\nAn abstract.\n".encode("utf-16"),
        "UTF-16 text, not UTF-8: save the file as UTF-8 and load that",
    ),
    (
        "utf16.jsonl",
        '{"title": "x", "venue": "ACL 2025"}\n'.encode("utf-16"),
        "UTF-16 text, not UTF-8: save the file as UTF-8 and load that",
    ),
    ("empty.jsonl", b"\n \n", "the file is empty"),
    (
        "bad.jsonl",
        b'{"title": "x", "venue": "ACL 2025"}\n{"title": \n',
        "line 2: not valid JSON (Expecting value, character 12)",
    ),
    # A traceback each, before (an outside tester).
    (
        "deep.jsonl",
        b'{"title": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
        "line 1: not valid JSON here (nested too deeply)",
    ),
    (
        "long-number.jsonl",
        b'{"title": "x", "venue": "ACL 2025", "year": ' + b"9" * 5000 + b"}\n",
        "line 1: not valid JSON here (a number too long to read)",
    ),
    (
        "list.jsonl",
        b'{"title": "x", "venue": "ACL 2025"}\n[1, 2]\n',
        "line 2: each line must be a JSON object",
    ),
    # An array on the first line: told as JSON, not as a page without its header.
    (
        "array.jsonl",
        b'\n\n[{"title": "x", "venue": "ACL 2025"}]\n',
        "line 3: each line must be a JSON object, not an array",
    ),
    (
        "type.jsonl",
        b'{"title": 5, "venue": "ACL 2025"}\n',
        "line 1: field 'title' must be text or null",
    ),
    (
        "authors.jsonl",
        b'{"title": "x", "venue": "ACL 2025", "authors": "Ann"}\n',
        "line 1: field 'authors' must be a list of text",
    ),
    (
        "blank-author.jsonl",
        b'{"title": "x", "venue": "ACL 2025", "authors": [""]}\n',
        "line 1: an author with an empty name",
    ),
    (
        "nul.jsonl",
        b'{"title": "x\\u0000y", "venue": "ACL 2025"}\n',
        "line 1: the title contains a NUL character",
    ),
    (
        "surrogate.jsonl",
        b'{"title": "x\\ud800y", "venue": "ACL 2025"}\n',
        "line 1: the title contains a lone surrogate (not Unicode text)",
    ),
    (
        "column.jsonl",
        b'{"title": "x", "venue": "ACL 2025", "external_id": "' + b"9" * 101 + b'"}\n',
        "line 1: the external id is 101 characters long (at most 100)",
    ),
    (
        "tsvector.jsonl",
        b'{"venue": "ACL 2025", "abstract": "' + words(200_000).encode() + b'"}\n',
        "line 1: the abstract is 1,330,095 characters long (at most 20,000)",
    ),
    (
        "header.txt",
        b"Accepted Papers\n\nAn abstract.\n",
        "line 1: the list header 'Accepted Papers' names no venue (expected e.g. 'ACL 2025 Papers')",
    ),
    (
        "lecture.txt",
        b"An abstract.\n\nA Title\n",
        "line 1: not a list page (no '<venue> Papers' header) and no venue line after the "
        "lecture's abstract, so no paper can be placed",
    ),
    (
        "bad.xml",
        b'<collection id="2024.x"><volume id="1"><meta>\n</collection>',
        "line 2: not well-formed XML: mismatched tag",
    ),
    (
        "laughs.xml",
        b'<?xml version="1.0"?>\n<!DOCTYPE collection [<!ENTITY a "aaaa">]>\n'
        b'<collection id="2024.x"><volume id="1"><meta><booktitle>&a;</booktitle></meta>'
        b"</volume></collection>",
        "line 2: refused unsafe XML (EntitiesForbidden: entity declarations and external "
        "entities are not allowed)",
    ),
    (
        "long-field.xml",
        b'<collection id="2024.x"><volume id="main"><meta><booktitle>B</booktitle>'
        b'<year>2024</year></meta>\n<paper id="1"><title>T</title><pages>'
        + b"1" * 51
        + b"</pages></paper></volume></collection>",
        "line 2: the pages is 51 characters long (at most 50)",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "content", "where_and_why"), HOSTILE_FILES, ids=[row[0] for row in HOSTILE_FILES]
)
def test_every_hostile_file_kind_gets_a_clear_message_and_changes_nothing(
    seeds, tmp_path, name, content, where_and_why
):
    path = tmp_path / name
    path.write_bytes(content)
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        run("load_papers", str(path))
    where = f"{path}, " if where_and_why.startswith("line ") else f"{path}: "
    assert str(refused.value) == f"nothing was loaded: {where}{where_and_why}"
    assert snapshot() == before


@pytest.mark.django_db
def test_a_paper_the_database_refuses_is_named_by_file_and_line(seeds, write_dump):
    """Whatever the checks before writing miss, the database's refusal of a row names it."""
    with connection.cursor() as cursor:  # rolled back with the test's transaction
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the seeds' checks done, ALTER may run
        cursor.execute(
            "ALTER TABLE papers_paper ADD CONSTRAINT no_zebras CHECK (title NOT LIKE '%zebra%')"
        )
    path = write_dump(
        "zebra.jsonl",
        '{"title": "Horses", "venue": "ACL 2031"}\n{"title": "A zebra", "venue": "ACL 2031"}\n',
    )
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        run("load_papers", str(path))
    assert str(refused.value) == (
        # The paper's source as recorded: its folder's name and its own.
        f"nothing was loaded: {path.parent.name}/zebra.jsonl, line 2: the database refused "
        "this paper: new row for "
        'relation "papers_paper" violates check constraint "no_zebras"'
    )
    assert snapshot() == before


def test_a_database_out_of_reach_is_a_message_not_a_traceback(write_dump):
    path = write_dump("fine.jsonl", '{"title": "Fine", "venue": "ACL 2031"}\n')
    result = subprocess.run(
        [sys.executable, "manage.py", "load_papers", str(path)],
        cwd=PROJECT_DIR,
        env={**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nowhere"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("CommandError: the database failed during the load: ")
    assert "Traceback" not in result.stderr
