"""One paper as a plain record: the export's lines and the API's detail answers."""

from django.db.models import Prefetch

from .latex import plain_text
from .models import Paper, PaperTopic

# The venue's fields an export line carries beside its name and year, for a load to rebuild it.
VENUE_DETAILS = (
    "acronym",
    "full_name",
    "location",
    "start_date",
    "end_date",
    "month",
    "booktitle",
    "external_id",
)


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
    for name in ("start_date", "end_date"):
        details[name] = details[name].isoformat() if details[name] else None
    people = [authorship.author for authorship in paper.authorships.all()]
    return paper_record(paper) | {
        "presentation_format": paper.presentation_format,
        "pages": paper.pages,
        "doi": paper.doi,
        "url": paper.url,
        "bibkey": paper.bibkey,
        "author_details": [
            {"person_id": a.person_id, "family_name": a.family_name, "orcid": a.orcid}
            for a in people
        ],
        "topic_sources": {link.topic.name: link.source for link in paper.topic_links.all()},
        "venue_details": details | {"parent": venue.parent.name if venue.parent else ""},
    }
