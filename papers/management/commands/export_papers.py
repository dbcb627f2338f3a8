import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from papers.exports import paper_from_entry
from papers.records import DumpError
from papers.serializers import export_queryset, export_record
from papers.validation import clean_paper, clean_venue

CHUNK_SIZE = 2000


class Command(BaseCommand):
    help = "Export every paper as JSON Lines, one paper a line, ordered by id (load_papers reads it back)."

    def add_arguments(self, parser):
        parser.add_argument(
            "-o", "--output", type=Path, help="File to write (default: standard output)."
        )

    def handle(self, *args, output, verbosity, **options):
        papers = export_queryset()
        try:
            stream = output.open("w", encoding="utf-8", newline="\n") if output else self.stdout
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from None
        count = 0
        try:
            for paper in papers.iterator(chunk_size=CHUNK_SIZE):
                line = export_record(paper)
                check_loads_back(line)
                stream.write(json.dumps(line, ensure_ascii=False, sort_keys=False) + "\n")
                count += 1
        finally:
            if output:
                stream.close()
        if output and verbosity >= 1:
            self.stderr.write(f"exported {count} papers to {output}")


def check_loads_back(line: dict) -> None:
    """An export line passes the checks of a load, so that the export loads back."""
    try:
        paper, venue = paper_from_entry(line, "export", line["id"])
        clean_venue(venue, "export")
        clean_paper(paper, "export")
    except DumpError as error:
        raise CommandError(
            f"paper {line['id']} would not load back ({error.reason}); "
            "correct it in the admin and export again"
        ) from None
