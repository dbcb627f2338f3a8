"""One load: parse every file, then write them in one transaction, one load at a time.

Parsing happens first, for every file, so a bad file stops the run before anything is written
(papers/sources.py finds the files and hands each to its parser). Large loads of several files
are parsed by one process per CPU (parsing is pure Python, and the files are independent). The
records are then written by papers/writing.py inside one transaction under the load lock
(papers/load_guard.py), and the similarity model is refreshed after the commit, from a fit
started ahead in a forked process once the texts were final (papers/fit_ahead.py). Each phase is
told to a ``Progress`` (papers/progress.py), which says nothing unless the caller gives one
that does.
"""

import gc
import multiprocessing
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing, contextmanager
from pathlib import Path

from django.db import DatabaseError, transaction

from .fit_ahead import FitAhead
from .load_guard import load_lock, refused_write
from .progress import Progress
from .record_merging import merge_records
from .records import LoadSummary, ParsedFile
from .similarity import refresh_embeddings
from .sources import collect_files, read_source
from .writing import RecordWriter

# Below this many bytes of files, starting parsing processes costs more than it saves.
PARALLEL_PARSE_BYTES = 8 * 2**20


def _parsed_in_order(files: list[tuple[Path, str]]) -> Iterator[ParsedFile]:
    """Each (file, source name) parsed, in order; by several processes when the files are many
    and large."""
    workers = min(os.cpu_count() or 1, len(files))
    paths, sources = [path for path, _ in files], [source for _, source in files]
    if workers < 2 or sum(path.stat().st_size for path in paths) < PARALLEL_PARSE_BYTES:
        yield from map(read_source, paths, sources)
        return
    # Forked workers only parse (no database): they leave the parent's connection alone.
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    try:
        yield from pool.map(read_source, paths, sources)
    finally:
        # A bad file ends the load: the files not yet parsed are not parsed.
        pool.shutdown(cancel_futures=True)


def parse_files(
    paths: list[Path], progress: Progress | None = None, skipped: list[str] | None = None
) -> list[ParsedFile]:
    """Parse every file first; the first bad one raises DumpError before anything is written."""
    progress = progress or Progress()
    files = collect_files(paths, skipped)
    progress.phase("reading files", len(files), "files")
    parsed_files = []
    with closing(_parsed_in_order(files)) as parsed_in_order:
        for _path, source in files:
            progress.advance(len(parsed_files), source)
            parsed = next(parsed_in_order)
            parsed_files.append(parsed)
            progress.file_read(parsed)
    progress.finish()
    return parsed_files


@contextmanager
def _no_cycle_collection():
    """The block without Python's cyclic garbage collector (enabled again after it, if it was).

    A load holds hundreds of thousands of objects (records, rows, names) and frees few: each
    automatic collection walked all of them, about 1.5 s of a fresh Anthology load's 7 s of
    Python outside the similarity fit, to find nothing to free. Its few cycles are collected
    after the load."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_files(
    paths: list[Path], dry_run: bool = False, progress: Progress | None = None, on_wait=None
) -> LoadSummary:
    """Parse, then write in one transaction; one load at a time (`on_wait` is told when this
    one has to wait for another). Raises DumpError for bad input and for a refused write."""
    with _no_cycle_collection():
        return _load_files(paths, dry_run, progress or Progress(), on_wait)


def _load_files(paths: list[Path], dry_run: bool, progress: Progress, on_wait) -> LoadSummary:
    skipped: list[str] = []
    summary = LoadSummary(warnings=skipped)
    with summary.timed("parse"):
        parsed_files = parse_files(paths, progress, skipped)
    summary.files = len(parsed_files)
    for parsed in parsed_files:
        summary.papers_read += len(parsed.papers)
        summary.warnings.extend(parsed.warnings)
    if dry_run:
        # The run's own copies of a paper are merged (no database needed): what they
        # disagree on is told as a load would tell it.
        summary.warnings.extend(merge_records(parsed_files).warnings)
        return summary
    with load_lock(on_wait), FitAhead() as fit_ahead:
        try:
            with transaction.atomic():
                RecordWriter(summary, progress, fit_ahead).write(parsed_files)
                # The commit checks the deferred foreign keys of every row written.
                committing = time.perf_counter()
            summary.phases["commit"] = time.perf_counter() - committing
        except DatabaseError as error:
            raise refused_write(error, parsed_files) from error
        finally:
            progress.finish()
        # After the commit: the similarity model is derived data, refitted only when papers
        # changed (with the fit started ahead, when there is one); until it is, similar papers
        # come from the full-text path.
        progress.phase("similarity fit")
        with summary.timed("similarity model"):
            refresh_embeddings(ahead=fit_ahead)
        progress.finish()
    return summary
