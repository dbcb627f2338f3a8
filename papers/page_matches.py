"""A list's query matched and counted: the facets and total the page shows, and the matches it
ranks from (papers/search.py and papers/respelled.py both start there)."""

from .caching import cached
from .facets import count_facets
from .filtering import PaperFilterSet
from .word_memory import every_paper, matched_query


def page_matches(filterset: PaperFilterSet, text: str, request):
    """(the facets and total of ``text`` under the filterset's filters, cached by data version
    and counted in memory where they can be, papers/word_memory.py; the query's matches in
    memory, or, for a filtered list sorted A–Z without a query, its papers, else None)."""
    selected, fixed = filterset.active(), filterset.fixed
    matched = None
    if text:
        matched = matched_query(text, selected, fixed)
    elif filterset.ordering == "title" and (selected or fixed):
        # Its page is cut from the memory's title order: in SQL, every paper of the filters
        # was sorted to skip into them (page 400 of a topic: 79 ms at 100,000 papers).
        matched = every_paper(selected, fixed)

    def counted():
        # Without a query every paper is counted, read only when the facets are not cached.
        if not text:
            papers = matched if matched is not None else every_paper(selected, fixed)
            return count_facets(selected, fixed, "", papers)
        return count_facets(selected, fixed, text, matched)

    return cached("facets", (selected, fixed, text), counted, request), matched
