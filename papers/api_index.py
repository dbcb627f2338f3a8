"""The API's indexes of the venues and the topics: the slugs the list's filters take
(``venue=``, ``topic=``), with what a script needs to choose them, and the notice of a list
parameter the API does not know (a script's typo, "venues=", would otherwise get every paper
without a word).
"""

from difflib import get_close_matches

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


def unknown_parameters(names, known) -> list[str]:
    """A notice for each parameter name of ``names`` not among ``known``, naming the likeliest
    one meant."""
    notices = []
    for name in dict.fromkeys(names):
        if name not in known:
            near = get_close_matches(name.lower(), sorted(known), n=1, cutoff=0.6)
            meant = f": did you mean “{near[0]}”?" if near else "."
            notices.append(f"“{name[:40]}” is not a parameter of this list, and is not used{meant}")
    return notices
