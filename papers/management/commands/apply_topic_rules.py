from django.core.management.base import BaseCommand, CommandError

from papers.models import Topic
from papers.topic_rules import run_topic_rules


class Command(BaseCommand):
    help = (
        "Tag papers with the topics whose rule (a websearch query) matches their title or "
        "abstract. Only rule links are replaced: links from the dumps and from curators stay, "
        "and a topic a curator removed from a paper is never put back."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "topics",
            nargs="*",
            metavar="TOPIC",
            help="Names or slugs of the topics whose rules to apply (default: every topic).",
        )

    def handle(self, *args, topics, verbosity, **options):
        selected = self.find_topics(topics) if topics else None
        run = run_topic_rules(selected)
        if verbosity >= 2:
            for result in run.results:
                self.stdout.write(
                    f"  {result.topic}: {result.matched} papers match "
                    f"(+{result.added} / -{result.removed} rule links)"
                )
        if verbosity >= 1:
            self.stdout.write(self.style.SUCCESS(str(run)))

    def find_topics(self, names: list[str]) -> list[Topic]:
        found, missing = [], []
        for name in names:
            topic = (
                Topic.objects.filter(name__iexact=name).first()
                or Topic.objects.filter(slug=name).first()
            )
            if topic is None:
                missing.append(name)
            elif topic not in found:
                found.append(topic)
        if missing:
            raise CommandError(
                f"no topic named {', '.join(repr(name) for name in missing)} "
                "(give a topic's name or slug; see the admin's topic list)"
            )
        return found
