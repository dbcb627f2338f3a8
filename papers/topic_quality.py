"""How good the topics are: coverage, the largest topic's share, and agreement with track labels.

Agreement is measured per area topic (its tracks: both semantics tracks are Semantics) (papers/tagging.py: AREA_TRACKS),
on the labelled papers present in the collection, separately for the part of the labels kept out
of training (held out) and the part the model trains on (tuning): recall is the share of a
track's papers that carry its topic, precision the share of the labelled papers carrying the
topic that are of its track.
"""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from .models import Paper, PaperTopic, Topic
from .tagging import AREA_TRACKS, held_out


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
    names = dict(Topic.objects.values_list("slug", "name"))
    results = []
    for slug in sorted(set(AREA_TRACKS.values()) & set(names)):
        of_track = {aid for aid in papers.values() if AREA_TRACKS.get(labelled[aid]) == slug}
        tagged = {aid for aid in papers.values() if slug in topics_of[aid]}
        results.append(Agreement(names[slug], len(of_track), len(tagged), len(of_track & tagged)))
    return results
