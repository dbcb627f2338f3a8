import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from papers.models import Topic
from papers.topic_resolver import TopicResolver

TOPIC_FIELDS = ("name", "slug", "description", "rule", "title_rule")


class Command(BaseCommand):
    help = (
        "Create the topics of a vocabulary fixture that the collection lacks. Topics that exist "
        "(by name, slug or a merge's redirect) are left as curators made them, and those a "
        "curator deleted stay deleted; `loaddata` would overwrite them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "path",
            nargs="?",
            type=Path,
            default=settings.FIXTURES_DIR / "topics.json",
            help="A Django fixture of papers.topic objects (default: fixtures/topics.json).",
        )

    def handle(self, *args, path, verbosity, **options):
        entries = self.read(path)
        resolver = TopicResolver()
        new, deleted = [], []
        for entry in entries:
            if resolver.deleted(entry["name"]):
                deleted.append(entry["name"])
            elif resolver.find(entry["name"]) is None:
                new.append(resolver.add(Topic(**entry)))
        with transaction.atomic():
            Topic.objects.bulk_create(new)
        if verbosity >= 1:
            present = len(entries) - len(new) - len(deleted)
            told = f"{len(new)} new topics, {present} already present"
            if deleted:
                told += f", {len(deleted)} deleted by a curator and not restored"
            self.stdout.write(told)

    def read(self, path: Path) -> list[dict]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise CommandError(f"{path} is not a JSON fixture: {error}") from None
        if not isinstance(data, list):
            raise CommandError(f"{path}: expected a list of topic objects")
        entries = []
        for number, item in enumerate(data, start=1):
            fields = item.get("fields") if isinstance(item, dict) else None
            if (
                not isinstance(fields, dict)
                or item.get("model") != "papers.topic"
                or not fields.get("name")
            ):
                raise CommandError(f"{path}: object {number} is not a papers.topic with a name")
            entries.append({key: str(fields.get(key) or "") for key in TOPIC_FIELDS})
        return entries
