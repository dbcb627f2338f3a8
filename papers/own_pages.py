"""An address of this site pasted into the search box, as a reader copies it from the address
bar ("https://papers.example.org/papers/2021.naacl-main.463/", "http://localhost:8000/authors/
dan-jurafsky/"): the paper, author, venue or topic its page shows. Searched as words, such an
address found papers matching "papers" or "localhost", or was told to be another site's (an
outside tester). The host must be one ALLOWED_HOSTS names outright (a wildcard, "*" or
".example.org", would make any site's "/authors/…" ours); an address of another page of ours
(a list, the API) opens nothing, as another site's address does not.
"""

import re
from urllib.parse import unquote

from django.conf import settings
from django.http.request import split_domain_port
from django.urls import Resolver404, resolve

from .author_models import Author
from .author_redirects import moved_author
from .merged_keys import PAPER, survivor_of
from .models import Paper, Topic, TopicRedirect, Venue
from .understanding import identified_paper

_OWN_ADDRESS = re.compile(
    r"https?://(?P<host>[^/\s?#@]{1,255})(?P<path>/[^\s?#]{0,500})(?:[?#]\S*)?", re.IGNORECASE
)


def own_page(text: str) -> Paper | Author | Venue | Topic | None:
    """The paper, author, venue or topic whose page of this site the whole text addresses, or
    None (no query unless the text is such an address)."""
    match = _OWN_ADDRESS.fullmatch(text.strip())
    if match is None:
        return None
    domain, _port = split_domain_port(match["host"].lower())
    if not domain or domain not in _named_hosts():
        return None
    try:
        # As the address bar copies it: a slug in another script percent-encoded.
        found = resolve(unquote(match["path"]))
    except Resolver404:
        return None
    return _shown(found.url_name, found.route, found.kwargs)


def _named_hosts() -> set[str]:
    """The hosts ALLOWED_HOSTS names outright, lowercased (no wildcard)."""
    return {host.lower() for host in settings.ALLOWED_HOSTS if host != "*" and host[:1] != "."}


def _shown(name: str | None, route: str, kwargs: dict) -> Paper | Author | Venue | Topic | None:
    """What the page of a resolved address shows: a paper's page (its id, with or without a
    slug, or its Anthology ID; a merged-away paper's, the paper it went to) or an author's, a
    venue's or a topic's (an old slug, where it moved)."""
    if "anthology_id" in kwargs and not route.endswith("similar/"):
        return identified_paper(kwargs["anthology_id"])
    if "pk" in kwargs and route.startswith("papers/") and not route.endswith("similar/"):
        pk = survivor_of(PAPER, str(kwargs["pk"])) or kwargs["pk"]
        return Paper.objects.filter(pk=pk).first()
    slug = kwargs.get("slug", "").lower()
    if name == "author-detail":
        return Author.objects.filter(slug=slug).first() or moved_author(slug)
    if name == "venue-detail":
        return Venue.objects.filter(slug=slug).first()
    if name == "topic-detail":
        moved = TopicRedirect.objects.select_related("topic").filter(old_slug=slug).first()
        return Topic.objects.filter(slug=slug).first() or (moved.topic if moved else None)
    return None
