"""One paper as a plain record: the export's lines and the API's detail answers."""

from .latex import plain_text
from .models import Paper


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
