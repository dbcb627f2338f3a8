"""The results of a query that is not searched as words: an identifier or an address naming a
paper, an author's, venue's or topic's page, the papers giving an address, or nothing here
(told, not searched). What q names is PaperFilterSet's (papers/addressed_queries.py)."""

from .facets import Facets
from .filtering import PaperFilterSet
from .linked_addresses import LINKING_LIMIT
from .models import Paper
from .results import Results
from .search_notices import (
    IDENTIFIERS_LISTED,
    MORE_PAPERS_GIVING_THE_ADDRESS,
    PAPERS_GIVING_THE_ADDRESS,
)


def unsearched(filterset: PaperFilterSet) -> Results | None:
    """The results of a query naming a paper or an author's, venue's or topic's page (the pages
    redirect there), or an identifier or address naming nothing here (told, not searched)."""
    if (paper := filterset.identified) is not None:
        return _identified(paper)
    if (page := filterset.addressed_page) is not None:
        return _addressed_page(page, anthology=filterset.anthology_page is not None)
    if filterset.identifiers:
        return _listed(filterset.linking, len(filterset.identifiers))
    if filterset.linking:
        return _linking(filterset.linking)
    if (notice := filterset.address_notice) is not None:
        return Results(facets=Facets(total=0), notices=[notice])
    return None


def _identified(paper) -> Results:
    """The results of a query naming one paper (its Anthology ID, DOI or URL, its address
    here, or an address only it gives): that paper."""
    papers = _unranked_cards([paper.pk])
    return Results(facets=Facets(total=1), count=1, papers=papers, identified=paper)


def _linking(ids: list[int]) -> Results:
    """The results of an address several papers give: those papers, the last loaded first, on
    one page (ids holds one more than LINKING_LIMIT when more give it)."""
    shown = ids[:LINKING_LIMIT]
    papers = _unranked_cards(shown)
    if len(ids) > LINKING_LIMIT:
        notice = MORE_PAPERS_GIVING_THE_ADDRESS.format(count=LINKING_LIMIT)
    else:
        notice = PAPERS_GIVING_THE_ADDRESS.format(count=len(ids))
    count = len(shown)
    # No filters to offer: the papers are the ones giving the address, whatever the filters.
    return Results(facets=Facets(total=0), count=count, papers=papers, notices=[notice])


def _listed(ids: list[int], asked: int) -> Results:
    """The results of a query listing identifiers: their papers, in the order given."""
    notice = IDENTIFIERS_LISTED.format(found=len(ids), asked=asked)
    papers = _unranked_cards(ids)
    return Results(facets=Facets(total=0), count=len(ids), papers=papers, notices=[notice])


def _unranked_cards(ids: list[int]) -> list:
    """The cards of the papers ``ids``, in that order, with no score (none was ranked)."""
    papers = Paper.objects.cards(ids)
    for card in papers:
        card.score = None
    return papers


def _addressed_page(page, anthology: bool) -> Results:
    """The results of a query addressing an author's, venue's or topic's page (an Anthology
    person's, volume's or event's, or ours): none, and where it is here (the page opens it)."""
    whose = "the ACL Anthology's page" if anthology else "the page"
    notice = f"That is {whose} of {page}; here: {page.get_absolute_url()}"
    return Results(facets=Facets(total=0), notices=[notice], identified=page)
