"""One load: parse every file, then write them in one transaction, one load at a time.

Parsing happens first, for every file, so a bad file stops the run before anything is written
(papers/sources.py finds the files and hands each to its parser). The records are then written
by papers/writing.py inside one transaction under the load lock (papers/load_guard.py), and
the similarity model is refreshed after the commit. Each phase is told to a ``Progress``
(papers/progress.py), which says nothing unless the caller gives one that does.
"""

from pathlib import Path

from django.db import DatabaseError, transaction

from .load_guard import load_lock, refused_write
from .progress import Progress
from .records import LoadSummary, ParsedFile
from .similarity import refresh_embeddings
from .sources import collect_files, read_source
from .writing import RecordWriter


def parse_files(
    paths: list[Path], progress: Progress, skipped: list[str] | None = None
) -> list[ParsedFile]:
    """Parse every file first; the first bad one raises DumpError before anything is written."""
    files = collect_files(paths, skipped)
    progress.phase("reading files", len(files), "files")
    parsed_files = []
    for path, source in files:
        progress.advance(len(parsed_files), source)
        parsed = read_source(path, source)
        parsed_files.append(parsed)
        progress.file_read(parsed)
    progress.finish()
    return parsed_files


def load_files(
    paths: list[Path], dry_run: bool = False, progress: Progress | None = None, on_wait=None
) -> LoadSummary:
    """Parse, then write in one transaction; one load at a time (`on_wait` is told when this
    one has to wait for another). Raises DumpError for bad input and for a refused write."""
    progress = progress or Progress()
    skipped: list[str] = []
    parsed_files = parse_files(paths, progress, skipped)
    summary = LoadSummary(files=len(parsed_files), warnings=skipped)
    for parsed in parsed_files:
        summary.papers_read += len(parsed.papers)
        summary.warnings.extend(parsed.warnings)
    if dry_run:
        return summary
    with load_lock(on_wait):
        try:
            with transaction.atomic():
                RecordWriter(summary, progress).write(parsed_files)
        except DatabaseError as error:
            raise refused_write(error, parsed_files) from error
        finally:
            progress.finish()
        # After the commit: the similarity model is derived data, refitted only when papers
        # changed; until it is, similar papers come from the full-text path.
        progress.phase("similarity fit")
        refresh_embeddings()
        progress.finish()
    return summary
