import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

from papers.loading import load_files
from papers.progress import LineProgress, Progress, TerminalProgress
from papers.records import DumpError


class Command(BaseCommand):
    help = (
        "Load conference papers from text dumps, JSON Lines exports and ACL Anthology XML. "
        "All or nothing: one transaction, and a bad file stops the run with nothing written. "
        "On a terminal a bar shows each phase; -v 2 shows each dump block's role and evidence."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "paths",
            nargs="*",
            type=Path,
            help="Files or folders to load (default: the project's fixtures/ folder).",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Parse and check the files, report what was read and write nothing (papers "
            "are not matched against the database: only a load tells new from known).",
        )

    def handle(self, *args, paths, dry_run, verbosity, **options):
        paths = paths or [settings.FIXTURES_DIR]
        progress = self.progress(verbosity)
        try:
            if not dry_run:
                check_schema()
            summary = load_files(
                paths,
                dry_run=dry_run,
                progress=progress,
                on_wait=lambda: self.stderr.write(
                    "another load is running; waiting…", style_func=self.style.WARNING
                ),
            )
        except DumpError as error:
            raise CommandError(f"nothing was loaded: {error}") from None
        except KeyboardInterrupt:
            raise CommandError(
                "interrupted: a load stopped before its commit writes nothing"
            ) from None
        except DatabaseError as error:
            # Outside the write itself (reaching the database, refitting similar papers).
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "no detail"
            raise CommandError(f"the database failed during the load: {reason}") from None
        finally:
            # The bar's line ends before any message: an error was printed after the bar.
            progress.finish()
        for warning in summary.warnings:
            self.stderr.write(f"warning: {warning}", style_func=self.style.WARNING)
        if verbosity >= 1:
            said = (
                "Dry run, nothing written: " + summary.describe_parse()
                if dry_run
                else "Loaded " + summary.describe()
            )
            self.stdout.write(self.style.SUCCESS(said))

    def progress(self, verbosity: int) -> Progress:
        """Bars on a terminal; otherwise a line per file (and per block at -v 2)."""
        if verbosity >= 2 or (verbosity == 1 and not sys.stderr.isatty()):
            return LineProgress(self.stdout, verbosity)
        if verbosity == 1:
            return TerminalProgress(self.stderr)
        return Progress()


def check_schema() -> None:
    """CommandError when the database has not applied every migration of this code: a load
    against an older schema would fail halfway with an SQL error."""
    executor = MigrationExecutor(connection)
    pending = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    if pending:
        raise CommandError(
            f"the database is {pending} migration{'s' if pending > 1 else ''} behind this "
            "code: run `manage.py migrate` first (nothing was loaded)"
        )
