"""A query naming a venue or year ("EMNLP 2023 hallucination") whose words no paper has all
of: the list of its other words in that venue or year, where the list redirects
(papers/views.py, papers/api.py), as it does for an author's papers of a year
(papers/named_filters.py ``authored_in``). Searched as typed, it showed "No paper has all your
words" above hallucination papers of other years (an outside researcher)."""

from urllib.parse import urlsplit

from django.http import QueryDict

from .filtering import PaperFilterSet
from .named_filters import filters_named
from .page_matches import page_matches
from .understanding import join_compounds


def narrowed_list(filters: list, request) -> str | None:
    """The address of the list of the one venue or year the query names (``filters``,
    papers/named_filters.py), with the query's other words, where some paper there has them
    all (their count is the list's own, cached for it); None otherwise."""
    if len(filters) != 1 or not filters[0].rest:
        return None
    url = filters[0].url
    narrowed = PaperFilterSet(QueryDict(urlsplit(url).query))
    if not narrowed.is_valid():
        return None
    facets, _ = page_matches(narrowed, join_compounds(narrowed.searched)[0], request)
    return url if facets.total else None


def narrowed_query(filterset: PaperFilterSet) -> str | None:
    """The list a ranked query's exports and feed search in its place, as its first page
    redirects there (papers/search.py): its other words in the one venue or year it names,
    where no paper has all its words; None otherwise (and on a venue's, topic's or author's
    page, with a venue or year chosen, or for ``literal=1``)."""
    active = filterset.active()
    asked = filterset.text and filterset.ordering == "relevance" and not filterset.fixed
    if not asked or filterset.value("literal") or {"venue", "year"} & active.keys():
        return None
    typed = filterset.searched
    facets, _ = page_matches(filterset, join_compounds(typed)[0], None)
    return None if facets.total else narrowed_list(filters_named(typed, active), None)
