"""The API's indexes of the venues and the topics: the slugs the list's filters take
(``venue=``, ``topic=``), with what a script needs to choose them.
"""

from django.db.models import F
from django.http import JsonResponse

from .caching import cache_page_by_version
from .expressions import venue_order
from .methods import read_only
from .models import Topic, Venue
from .venue_series import with_counts


@read_only
@cache_page_by_version
def venue_index(request):
    """Every venue, in the venue index's order: its slug, name, year, the slug of the
    conference it is a volume of (or null), its own papers (those ``venue=<slug>`` lists) and
    its page (one query)."""
    venues = with_counts(Venue.objects.defer("welcome_text")).annotate(
        parent_slug=F("parent__slug")
    )
    return JsonResponse(
        {
            "results": [
                {
                    "slug": venue.slug,
                    "name": venue.name,
                    "year": venue.year,
                    "parent": venue.parent_slug,
                    "papers": venue.paper_count,
                    "url": request.build_absolute_uri(venue.get_absolute_url()),
                }
                for venue in venues.order_by(*venue_order())
            ]
        }
    )


@read_only
@cache_page_by_version
def topic_index(request):
    """Every topic by name: its slug, name, description, papers and page (one query)."""
    topics = Topic.objects.index()
    return JsonResponse(
        {
            "results": [
                {
                    "slug": topic.slug,
                    "name": topic.name,
                    "description": topic.description,
                    "papers": topic.paper_count,
                    "url": request.build_absolute_uri(topic.get_absolute_url()),
                }
                for topic in topics
            ]
        }
    )
