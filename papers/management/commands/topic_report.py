from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from papers import tagging
from papers.tagging import read_tracks
from papers.topic_quality import FOLDS, agreement, coverage, cross_validation, topic_sizes


class Command(BaseCommand):
    help = (
        "Report the quality of the topics on the loaded collection: the share of papers with a "
        "topic, the largest topic's share and, given a CSV of track labels, each area topic's "
        "recall and precision on the labels held out of training and on those trained on."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--tracks",
            type=Path,
            help="A CSV with anthology_id and track columns, e.g. ../shared/data/miniconf/tracks.csv.",
        )
        parser.add_argument(
            "--validate",
            action="store_true",
            help=(
                "With --tracks: also cross-validate the area model on the labels it trains on "
                f"({FOLDS} folds, each predicted by a model fitted without it; no link written), "
                "and report it with the held-out labels together."
            ),
        )

    def handle(self, *args, tracks, validate, verbosity, **options):
        if validate and not tracks:
            raise CommandError("--validate needs --tracks")
        labels = self.read(tracks) if tracks else {}
        papers, tagged = coverage()
        if not papers:
            raise CommandError("the collection has no papers: load some first")
        if validate and not tagging.areas_by_model():
            raise CommandError(
                f"--validate needs at least {tagging.MIN_PAPERS} papers: in a smaller collection the "
                "area topics come from their rules, not from the model"
            )
        sizes = topic_sizes()
        self.stdout.write(f"papers: {papers}, with a topic: {tagged} ({tagged / papers:.1%})")
        if sizes:
            name, count = sizes[0]
            self.stdout.write(f"largest topic: {name}, {count} papers ({count / papers:.1%})")
        if verbosity >= 2:
            for name, count in sizes:
                self.stdout.write(f"  {name}: {count} ({count / papers:.1%})")
        if labels:
            self.write_agreement(labels, validate)

    def read(self, path: Path) -> dict[str, str]:
        try:
            labels = read_tracks(path)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        except (KeyError, UnicodeDecodeError):
            raise CommandError(
                f"{path}: expected a CSV with anthology_id and track columns"
            ) from None
        if not labels:
            raise CommandError(f"{path}: no track label in it (a header alone)")
        return labels

    def write_agreement(self, labels: dict[str, str], validate: bool) -> None:
        held, tuning = agreement(labels, held=True), agreement(labels, held=False)
        validated = cross_validation(labels) if validate else [None] * len(held)
        self.stdout.write(
            f"against {len(labels)} track labels "
            f"({sum(a.papers for a in held)} held out, {sum(a.papers for a in tuning)} tuning, "
            "papers of tracks without a topic not counted): recall / precision"
        )
        header = f"  {'topic':<42} {'held out (papers)':>19} {'tuning':>14}"
        if validate:
            header += f" {'validation':>14} {'both unseen (papers)':>22}"
        self.stdout.write(header)
        for out, tuned, checked in zip(held, tuning, validated, strict=True):
            if not (out.papers or tuned.papers):
                continue  # no labelled paper of its tracks in the collection
            line = (
                f"  {out.topic:<42} {out.recall:5.2f} / {out.precision:4.2f} ({out.papers:3})"
                f" {tuned.recall:8.2f} / {tuned.precision:4.2f}"
            )
            if checked is not None:
                unseen = out + checked
                line += (
                    f" {checked.recall:8.2f} / {checked.precision:4.2f}"
                    f" {unseen.recall:10.2f} / {unseen.precision:4.2f} ({unseen.papers:3})"
                )
            self.stdout.write(line)
        if validate:
            self.stdout.write(
                "  both unseen: the held-out labels and the validation's together, each paper "
                "predicted by a model that never saw its label"
            )
