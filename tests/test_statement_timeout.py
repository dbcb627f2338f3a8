"""Web requests' queries give up before gunicorn does; loads and management commands are not cut."""

import os
import subprocess
import sys

import pytest
from django.db import connection

from papers.loading import load_files
from papers.progress import Progress
from tests.conftest import PROJECT_DIR
from tests.test_dumps import list_page

SHOW = "from django.db import connection as c; k = c.cursor(); k.execute('SHOW statement_timeout'); print(k.fetchone()[0])"


def statement_timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_web_queries_time_out_after_10_seconds_but_a_load_does_not(write_dump):
    assert statement_timeout() == "10s"  # the settings gunicorn's workers run with
    during = []

    class Watch(Progress):
        def advance(self, done, note=""):
            if note == "":  # the writing phase's batches (file reads name their file)
                during.append(statement_timeout())

    load_files([write_dump("a.txt", list_page("ACL 2031 Papers"))], progress=Watch())
    assert during == ["0"]
    assert statement_timeout() == "10s"


def test_management_commands_are_not_cut():
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SHOW],
        cwd=PROJECT_DIR,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_STATEMENT_TIMEOUT_MS"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0"]
