"""One load: parse every file, then write them in one transaction, one load at a time.

Parsing happens first, for every file, so a bad file stops the run before anything is written
(papers/sources.py finds the files and hands each to its parser). The records are then written
by papers/writing.py inside one transaction under the load lock (papers/load_guard.py), and
the similarity model is refreshed after the commit.
"""

from collections.abc import Callable
from pathlib import Path

from django.db import DatabaseError, transaction

from .load_guard import load_lock, refused_write
from .records import LoadSummary, ParsedFile
from .similarity import refresh_embeddings
from .sources import collect_files, read_source
from .writing import RecordWriter


def parse_files(
    paths: list[Path],
    on_file: Callable[[ParsedFile], None] | None = None,
    skipped: list[str] | None = None,
) -> list[ParsedFile]:
    """Parse every file first; the first bad one raises DumpError before anything is written."""
    parsed_files = []
    for path in collect_files(paths, skipped):
        parsed = read_source(path)
        parsed_files.append(parsed)
        if on_file:
            on_file(parsed)
    return parsed_files


def load_files(
    paths: list[Path], dry_run: bool = False, on_file=None, on_progress=None, on_wait=None
) -> LoadSummary:
    """Parse, then write in one transaction; one load at a time (`on_wait` is told when this
    one has to wait for another). Raises DumpError for bad input and for a refused write."""
    skipped: list[str] = []
    parsed_files = parse_files(paths, on_file, skipped)
    summary = LoadSummary(files=len(parsed_files), warnings=skipped)
    for parsed in parsed_files:
        summary.papers_read += len(parsed.papers)
        summary.warnings.extend(parsed.warnings)
    if dry_run:
        return summary
    with load_lock(on_wait):
        try:
            with transaction.atomic():
                RecordWriter(summary, on_progress).write(parsed_files)
        except DatabaseError as error:
            raise refused_write(error, parsed_files) from error
        # After the commit: the similarity model is derived data, refitted only when papers
        # changed; until it is, similar papers come from the full-text path.
        refresh_embeddings()
    return summary
