"""A query naming a venue ("EMNLP 2023 hallucination") whose words fewer papers have all of
than its other words have in that venue, or naming a year whose words no paper has all of:
the list of those words there, where the list redirects (papers/views.py, papers/api.py), as it does for an author's papers of a year
(papers/named_filters.py ``authored_in``). Searched as typed, it showed "No paper has all your
words" above hallucination papers of other years, and "summarization EMNLP 2023" the one paper
whose abstract says "EMNLP 2023" where EMNLP 2023 has 63 on summarization (outside
researchers). And the list a ranked query's exports and feed redirect to, as its first page
shows it (``listed_instead``)."""

from urllib.parse import urlsplit

from django.http import QueryDict

from .filtering import PaperFilterSet
from .named_filters import filters_named
from .page_matches import page_matches
from .respelled import sure_respelling
from .understanding import join_compounds


def narrowed_list(filters: list, request, typed_matches: int) -> str | None:
    """The address of the list of the one venue or year the query names (``filters``,
    papers/named_filters.py), with the query's other words, where more papers there have them
    all than have every word typed (``typed_matches``; their count is the list's own, cached
    for it); None otherwise, and for a year alone where some paper has every word typed: a
    year is often a task's or dataset's ("SemEval 2022 task", "TREC 2020"), and the papers
    naming it were lost (a reviewer)."""
    if len(filters) != 1 or not filters[0].rest:
        return None
    if typed_matches and dict(filters[0].added).keys() == {"year"}:
        return None
    url = filters[0].url
    narrowed = PaperFilterSet(QueryDict(urlsplit(url).query))
    if not narrowed.is_valid():
        return None
    facets, _ = page_matches(narrowed, join_compounds(narrowed.searched)[0], request)
    return url if facets.total > typed_matches else None


def listed_instead(filterset: PaperFilterSet, path: str, query) -> str | None:
    """The address a ranked list's export or feed (``path`` with ``query``, a QueryDict)
    redirects to where its first page shows another list: the respelling's
    (papers/respelled.py), or the query's other words in the one venue or year it names; None
    where the page shows the query as typed. The query is matched and counted once, for both."""
    if not filterset.text or filterset.ordering != "relevance" or filterset.value("literal"):
        return None
    facets, _ = page_matches(filterset, join_compounds(filterset.searched)[0], None)
    asked = query.copy()
    if (respelled := sure_respelling(filterset, facets)) is not None:
        asked["q"] = respelled
    elif (narrowed := _narrowed_query(filterset, facets)) is not None:
        asked = QueryDict(urlsplit(narrowed).query, mutable=True)
        if "format" in query:
            asked["format"] = query["format"]
    else:
        return None
    return f"{path}?{asked.urlencode()}"


def _narrowed_query(filterset: PaperFilterSet, facets) -> str | None:
    """The list of the query's other words in the one venue or year it names, as
    ``narrowed_list`` chooses it (``facets``: the query's); None otherwise, and on a venue's,
    topic's or author's page or with a venue or year chosen."""
    active = filterset.active()
    if filterset.fixed or {"venue", "year"} & active.keys():
        return None
    return narrowed_list(filters_named(filterset.searched, active), None, facets.total)
