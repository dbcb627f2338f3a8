"""One load at a time, and a database's refusal during a load told as a clear DumpError.

Two loads writing at once would each find the other's new papers missing and insert them
twice: every load holds a PostgreSQL advisory lock while it writes. Whatever the checks before
writing miss, the database may still refuse; the load then ends with a message naming the file
and, where the error names the row, the paper's line.
"""

import re
from collections.abc import Callable
from contextlib import contextmanager

from django.db import DatabaseError, connection

from .records import DumpError, ParsedFile

# The key of the advisory lock every load holds ("load" in ASCII).
LOAD_LOCK_ID = 0x6C6F6164


@contextmanager
def load_lock(on_wait: Callable[[], None] | None = None):
    """Hold the database's load lock for the block: concurrent loads would each find the
    other's new papers missing and insert them twice. Waits (telling `on_wait`) while held.

    The block runs without the statement timeout meant for web requests: a load may take long.
    """
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 0")
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [LOAD_LOCK_ID])
        if not cursor.fetchone()[0]:
            if on_wait:
                on_wait()
            cursor.execute("SELECT pg_advisory_lock(%s)", [LOAD_LOCK_ID])
    try:
        yield
    finally:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [LOAD_LOCK_ID])
                cursor.execute("RESET statement_timeout")
        except DatabaseError:
            pass  # the connection is gone, and the server released its lock with it


class LoadRunning(ValueError):
    """A curation refused while a load runs: the load would undo it, or fail on it."""


def refuse_during_load(action: str) -> None:
    """Hold the load lock to the end of the transaction, or raise LoadRunning ("A load is
    running: {action} when it has ended."). A merge or a deletion waits for no load, nor a
    load for it: a load that had matched a paper deleted meanwhile failed whole, and one that
    had read the papers of a merge wrote its copy over the merge."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [LOAD_LOCK_ID])
        if not cursor.fetchone()[0]:
            raise LoadRunning(f"A load is running: {action} when it has ended.")


def refused_write(error: DatabaseError, parsed_files: list[ParsedFile]) -> DumpError:
    """A database error during the write, as the clear message a bad file gets: the paper's
    file and line when the error names the row (COPY does), else the files of the load."""
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    paper = getattr(error, "paper", None)
    if paper is not None:
        return DumpError(
            paper.source_file, f"the database refused this paper: {reason}", paper.source_position
        )
    sources = ", ".join(parsed.source for parsed in parsed_files) or "the load"
    return DumpError(sources, f"the database refused the load: {reason}")


def refused_copy_row(error: DatabaseError) -> int | None:
    """The row of a COPY that PostgreSQL refused, from the error's context ("COPY t, line 3")."""
    context = getattr(getattr(error.__cause__, "diag", None), "context", None) or ""
    match = re.search(r"\bCOPY \S+, line (\d+)", context)
    return int(match[1]) if match else None
