import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from papers.models import Paper
from papers.serializers import paper_record

CHUNK_SIZE = 2000


class Command(BaseCommand):
    help = "Export every paper as JSON Lines, one paper a line, ordered by id (load_papers reads it back)."

    def add_arguments(self, parser):
        parser.add_argument(
            "-o", "--output", type=Path, help="File to write (default: standard output)."
        )

    def handle(self, *args, output, verbosity, **options):
        papers = Paper.objects.with_related().order_by("id")
        try:
            stream = output.open("w", encoding="utf-8", newline="\n") if output else self.stdout
        except OSError as error:
            raise CommandError(f"cannot write {output}: {error.strerror}") from None
        count = 0
        try:
            for paper in papers.iterator(chunk_size=CHUNK_SIZE):
                stream.write(
                    json.dumps(paper_record(paper), ensure_ascii=False, sort_keys=False) + "\n"
                )
                count += 1
        finally:
            if output:
                stream.close()
        if output and verbosity >= 1:
            self.stderr.write(f"exported {count} papers to {output}")
