import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from papers.loading import load_files
from papers.records import DumpError, ParsedFile


class Command(BaseCommand):
    help = (
        "Load conference papers from text dumps, JSON Lines exports and ACL Anthology XML. "
        "All or nothing: one transaction, and a bad file stops the run with nothing written."
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
            help="Parse and report without writing to the database.",
        )

    def handle(self, *args, paths, dry_run, verbosity, **options):
        paths = paths or [settings.FIXTURES_DIR]
        show_progress = verbosity >= 1 and sys.stderr.isatty()
        try:
            summary = load_files(
                paths,
                dry_run=dry_run,
                on_file=lambda parsed: self.report_file(parsed, verbosity),
                on_progress=self.show_progress if show_progress else None,
                on_wait=lambda: self.stderr.write("another load is running; waiting…"),
            )
        except DumpError as error:
            raise CommandError(f"nothing was loaded: {error}") from None
        except DatabaseError as error:
            # Outside the write itself (reaching the database, refitting similar papers).
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "no detail"
            raise CommandError(f"the database failed during the load: {reason}") from None
        if show_progress:
            self.stderr.write("")
        for warning in summary.warnings:
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        if verbosity >= 1:
            prefix = "Dry run, nothing written: " if dry_run else "Loaded "
            self.stdout.write(self.style.SUCCESS(prefix + summary.describe()))

    def report_file(self, parsed: ParsedFile, verbosity: int) -> None:
        if verbosity >= 2:
            self.stdout.write(f"{parsed.source}: {len(parsed.papers)} papers")
            for decision in parsed.decisions:
                self.stdout.write(f"  line {decision.line:>5}  {decision.kind:<13} {decision.text}")

    def show_progress(self, done: int, total: int) -> None:
        width = 30
        filled = width * min(done, total) // max(total, 1)
        self.stderr.write(
            f"\rwriting papers [{'#' * filled}{'.' * (width - filled)}] {min(done, total)}/{total}",
            ending="",
        )
