"""An address pasted into the search box: an Anthology person's, volume's or event's page is
the page of ours showing the same (an author's page, a venue's page); another site's address
is no search at all, nor an Anthology address of nothing here.

Searched as words, "https://aclanthology.org/people/i/ivan-vulic/" found papers about
something else and a "Did you mean anthology.org" besides; an arXiv or Semantic Scholar
address found unrelated papers matching "abs" and "org" and was respelled (an outside
tester). Paper addresses are identifiers (papers/understanding.py ``identified_paper``).
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


# The Anthology's hosts, the old one too.
ANTHOLOGY_HOSTS = {"aclanthology.org", "aclweb.org"}
# A whole query that is a web address: a scheme or "www.", a host, then anything but spaces.
_ADDRESS = re.compile(r"(?:https?://|www\.)(?P<host>[\w.-]+\.[a-z]{2,})(?:[/?#:]\S*)?", re.I)


def address_host(text: str) -> str | None:
    """The host of the web address the whole text is ("arxiv.org"), or None (an Anthology
    page or paper's address is found before this is asked)."""
    match = _ADDRESS.fullmatch(text.strip())
    return match["host"].lower().removeprefix("www.") if match else None
