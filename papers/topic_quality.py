"""How good the topics are: coverage, the largest topic's share, and agreement with track labels.

Agreement is measured per area topic (its tracks, papers/tagging.py: AREA_TRACKS: both semantics
tracks are Semantics), on the labelled papers present in the collection, separately for the part
of the labels kept out of training (held out) and the part the model trains on (tuning): recall
is the share of a track's papers that carry its topic, precision the share of the labelled papers
carrying the topic that are of its track (a paper of a track without a topic, e.g. Machine
Learning for NLP, counts against the precision of any area topic it carries).

The tuning part is fitted with its own labels, so its figures say little about new papers;
``cross_validation`` estimates them without the held-out part: the tuning labels are cut in
``FOLDS`` by a hash of the Anthology ID, and each fold's papers are predicted by a model fitted on
the collection with the other folds' labels only (no link is written).
"""

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from .models import Paper, PaperTopic, Topic
from .tagging import (
    AREA_SLUGS,
    AREA_TRACKS,
    choose_areas,
    fit_areas,
    held_out,
    named_in_titles,
    training_labels,
)
from .topic_features import collection_features, title_matches

FOLDS = 5


@dataclass
class Agreement:
    topic: str
    papers: int
    tagged: int
    both: int

    @property
    def recall(self) -> float:
        return self.both / self.papers if self.papers else 0.0

    @property
    def precision(self) -> float:
        return self.both / self.tagged if self.tagged else 0.0

    def __add__(self, other: "Agreement") -> "Agreement":
        """The two parts' papers counted together (the same topic)."""
        return Agreement(
            self.topic,
            self.papers + other.papers,
            self.tagged + other.tagged,
            self.both + other.both,
        )


def coverage() -> tuple[int, int]:
    """(papers, papers with at least one topic)."""
    return Paper.objects.count(), Paper.objects.filter(topic_links__isnull=False).distinct().count()


def topic_sizes() -> list[tuple[str, int]]:
    """Each topic's name and number of papers, largest first."""
    rows = Topic.objects.annotate(size=Count("paper_links")).order_by("-size", "name")
    return list(rows.values_list("name", "size"))


def agreement(tracks: dict[str, str], held: bool) -> list[Agreement]:
    """Recall and precision of each area topic against the labels of one part (held out or not)."""
    labelled = {aid: track for aid, track in tracks.items() if held_out(aid) == held}
    papers = dict(
        Paper.objects.filter(external_id__in=list(labelled)).values_list("id", "external_id")
    )
    topics_of = defaultdict(set)
    links = PaperTopic.objects.filter(paper_id__in=list(papers)).values_list(
        "paper_id", "topic__slug"
    )
    for paper_id, slug in links:
        topics_of[papers[paper_id]].add(slug)
    return _score({aid: labelled[aid] for aid in papers.values()}, topics_of)


def fold_of(anthology_id: str) -> int:
    """The cross-validation fold of a tuning label (a hash independent of held_out's)."""
    return int(hashlib.md5(anthology_id.encode("utf-8")).hexdigest(), 16) % FOLDS


def cross_validation(tracks: dict[str, str]) -> list[Agreement]:
    """Recall and precision of the area model's choices on the tuning labels, each fold's papers
    predicted by a model fitted without that fold's labels (see the module docstring)."""
    tuning = {aid: track for aid, track in tracks.items() if not held_out(aid)}
    areas = list(Topic.objects.filter(slug__in=AREA_SLUGS).order_by("slug"))
    ids, external_ids, matrix, vocabulary = collection_features()
    row_of = {external: row for row, external in enumerate(external_ids) if external in tuning}
    weak = title_matches(areas, matrix, vocabulary)
    named = named_in_titles(areas, matrix, vocabulary)
    topics_of = defaultdict(set)
    for fold in range(FOLDS):
        kept = {aid: track for aid, track in tuning.items() if fold_of(aid) != fold}
        labels, weights = training_labels(areas, ids, external_ids, weak, kept)
        log_probability = fit_areas(matrix, labels, weights, len(areas) + 1)
        rows, columns, _ = choose_areas(log_probability, areas, weak, named)
        chosen = defaultdict(set)
        for row, column in zip(rows.tolist(), columns.tolist(), strict=True):
            chosen[row].add(areas[column].slug)
        for aid, row in row_of.items():
            if fold_of(aid) == fold:
                topics_of[aid] = chosen[row]
    return _score({aid: tuning[aid] for aid in row_of}, topics_of)


def _score(labelled: dict[str, str], topics_of: dict[str, set[str]]) -> list[Agreement]:
    """Per area topic: its track's papers, the labelled papers carrying it, and both."""
    names = dict(Topic.objects.values_list("slug", "name"))
    results = []
    for slug in sorted(set(AREA_TRACKS.values()) & set(names)):
        of_track = {aid for aid, track in labelled.items() if AREA_TRACKS.get(track) == slug}
        tagged = {aid for aid in labelled if slug in topics_of.get(aid, ())}
        results.append(Agreement(names[slug], len(of_track), len(tagged), len(of_track & tagged)))
    return results
