"""An Anthology address of a person, a volume or an event, pasted into the search box: the
page of ours showing the same (an author's page, a venue's page).

Searched as words, "https://aclanthology.org/people/i/ivan-vulic/" found papers about
something else and a "Did you mean anthology.org" besides. Paper addresses are identifiers
(papers/understanding.py ``identified_paper``).
"""

import re

from .author_models import Author
from .author_redirects import moved_author
from .models import Venue

_ANTHOLOGY_PAGE = re.compile(
    r"(?:https?://)?(?:www\.)?aclanthology\.org/"
    r"(?:people/(?:[a-z]/)?(?P<person>[a-z0-9-]{1,100})"
    r"|volumes/(?P<volume>[A-Za-z0-9.-]{1,100})"
    r"|events/(?P<event>[a-z0-9-]{1,100}))/?(?:[?#]\S*)?",
    re.IGNORECASE,
)


def anthology_page(text: str) -> Author | Venue | None:
    """The author or venue whose Anthology page the whole text addresses, or None (no query
    unless the text has the shape)."""
    match = _ANTHOLOGY_PAGE.fullmatch(text.strip())
    if match is None:
        return None
    if person := match["person"]:
        slug = person.lower()
        return Author.objects.filter(slug=slug).first() or moved_author(slug)
    if volume := match["volume"]:
        return Venue.objects.filter(external_id=volume.lower()).order_by("pk").first()
    return Venue.objects.filter(slug=match["event"].lower()).first()
