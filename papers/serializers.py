"""One paper as a plain record: the export's lines and the API's detail answers."""

from django.db.models import Prefetch

from .exports import AUTHOR_DETAILS, CITATION_FIELDS, VENUE_DATES, VENUE_DETAILS
from .latex import plain_text
from .models import Paper, PaperTopic


def paper_record(paper: Paper) -> dict:
    """Expects the paper's venue selected and its topics and authorships prefetched."""
    return {
        "id": paper.pk,
        "external_id": paper.external_id,
        "title": paper.title or None,
        "display_title": plain_text(paper.display_title),
        "abstract": paper.abstract,
        "venue": paper.venue.name,
        "year": paper.venue.year,
        "topics": sorted(topic.name for topic in paper.topics.all()),
        "country": paper.country,
        "authors": [authorship.author.name for authorship in paper.authorships.all()],
        "source": paper.source_file,
        "related_titles": list(paper.related_titles),
    }


def export_queryset():
    """Every paper, by id, with what ``export_record`` reads (venue and its parent, topic
    links with their sources, ordered authors)."""
    links = PaperTopic.objects.select_related("topic")
    papers = Paper.objects.with_related().select_related("venue__parent")
    return papers.prefetch_related(Prefetch("topic_links", links)).order_by("id")


def export_record(paper: Paper) -> dict:
    """An export line: ``paper_record`` and what a load needs to rebuild the paper as it was:
    its citation fields, its people (Anthology person id, family name, ORCID, by position),
    where each topic came from (a rule's or the model's link is derived again, not loaded),
    and its venue's details."""
    venue = paper.venue
    details = {name: getattr(venue, name) for name in VENUE_DETAILS}
    for name in VENUE_DATES:
        details[name] = details[name].isoformat() if details[name] else None
    people = [authorship.author for authorship in paper.authorships.all()]
    return paper_record(paper) | {
        **{name: getattr(paper, name) for name in CITATION_FIELDS},
        "author_details": [{key: getattr(a, key) for key in AUTHOR_DETAILS} for a in people],
        "topic_sources": {link.topic.name: link.source for link in paper.topic_links.all()},
        "venue_details": details | {"parent": venue.parent.name if venue.parent else ""},
    }
