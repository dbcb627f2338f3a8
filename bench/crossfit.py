"""Similar papers with cross-fitted areas, the honest counterpart of the app's figure.

The area topics add to the similar-papers score (papers/similarity.py, AREA_BOOST), and the
topic model trains on fixtures/topic_training.csv, part of the very labels the figure is
measured on: for those papers a shared area repeats the label. Here the labelled papers are
split into the halves bench/quality.py reports (tuning, held-out); the papers of each half take
the area links of a topic model trained without that half's labels (the rest of the training
file and the weak labels, as the app trains), every other paper keeps the app's links, the
similar-papers model is refitted on that, and the API is asked as before. A paper of another
conference, whose label no model here ever saw, is in the same position.

The database is put back as the loader left it at the end: the app's links, the model
refitted.
"""

from __future__ import annotations

import csv
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench.environment import log


def crossfitted_ranking(tuning: set[int], ask: Callable[[], dict]) -> dict[int, list[int]]:
    """``ask()``'s answer (each labelled paper's labelled similar papers) with every trained-on
    paper's areas from a model that never saw its track; {} when there is no training file."""
    from papers import tagging
    from papers.models import Paper
    from papers.similarity import refresh_embeddings

    if not tagging.TRAINING_FILE.exists():
        return {}
    training = tagging.read_tracks(tagging.TRAINING_FILE)
    trained = dict(
        Paper.objects.filter(external_id__in=list(training)).values_list("external_id", "pk")
    )
    app_links = _model_links()  # as the loader left them, trained on the whole file
    links = []
    try:
        for inside in (True, False):
            folded = {a: pk for a, pk in trained.items() if (pk in tuning) == inside}
            links += _links_without(training, folded, tagging.tag_papers)
        log(f"cross-fitted areas: {len(links):,} model links of {len(trained)} trained-on papers")
        replaced = set(trained.values())
        kept = [link for link in app_links if link[0] not in replaced]
        tagging.write_model_links(*(list(column) for column in zip(*(kept + links), strict=True)))
        refresh_embeddings()
        return ask()
    finally:
        tagging.tag_papers(tagging.TRAINING_FILE)
        refresh_embeddings()


def _model_links(paper_ids=None) -> list[tuple]:
    """(paper id, topic id, confidence) of the model's links (of ``paper_ids``, or all)."""
    from papers.models import PaperTopic

    links = PaperTopic.objects.filter(source=PaperTopic.Source.MODEL)
    if paper_ids is not None:
        links = links.filter(paper_id__in=list(paper_ids))
    return list(links.values_list("paper_id", "topic_id", "confidence"))


def _links_without(training: dict[str, str], folded: dict[str, int], tag) -> list[tuple]:
    """The model links of the ``folded`` papers when the model trains without their tracks."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "training.csv"
        with path.open("w", encoding="utf-8", newline="") as stream:
            writer = csv.writer(stream)
            writer.writerow(["anthology_id", "track"])
            writer.writerows(sorted((a, t) for a, t in training.items() if a not in folded))
        tag(path)
    return _model_links(folded.values())
