"""What q names when it is an identifier or an address rather than words: a paper (its
Anthology ID, DOI or address, an address of this site, an address only it gives), an author's,
venue's or topic's page (the Anthology's or ours), the papers giving an address, or nothing here
(told, not searched). A mixin of PaperFilterSet (papers/filtering.py), which gives ``text``."""

import re
from functools import cached_property

from .anthology_pages import ANTHOLOGY_HOSTS, address_host, anthology_page
from .linked_addresses import linking_papers
from .models import Paper
from .own_pages import own_page
from .search_notices import (
    ADDRESS_ELSEWHERE,
    NOTHING_AT_ANTHOLOGY_ADDRESS,
    UNKNOWN_ANTHOLOGY_ID,
    UNKNOWN_ARXIV_ID,
    UNKNOWN_DOI,
)
from .understanding import arxiv_id, identified_paper, identified_papers, parse_identifier

# What parts a list of identifiers.
_LISTED = re.compile(r"[\s,;]+")


class AddressedQuery:
    text: str

    @cached_property
    def identified(self):
        """The paper q names by its Anthology ID, DOI, Anthology URL or address here, or the one
        paper giving the address q is, or None: the page opens it, and its exports and feed are
        that paper (indexed queries, only for a q with an identifier's or an address's
        shape)."""
        if not self.text:
            return None
        own = self.own_page
        found = (own if isinstance(own, Paper) else None) or identified_paper(self.text)
        if found is None and len(self.linking) == 1 and not self.identifiers:
            found = Paper.objects.filter(pk=self.linking[0]).first()
        return found

    @cached_property
    def linking(self) -> list[int]:
        """The ids of the papers giving the address q is, a repository's or any other site's
        (papers/linked_addresses.py), or the arXiv address of the arXiv identifier q is, or
        the papers of the identifiers q lists (``identifiers``); [] for any other q, an
        address of the Anthology's or of this site's, an identifier."""
        if not self.text or self.own_page is not None or any(parse_identifier(self.text)):
            return []
        if self.identifiers:
            return identified_papers(self.identifiers)
        if arxiv := arxiv_id(self.text):  # as the abstracts give it: its arxiv.org address
            return linking_papers(f"https://arxiv.org/abs/{arxiv}")
        return linking_papers(self.text)

    @cached_property
    def identifiers(self) -> list[str]:
        """The identifiers q lists, two or more Anthology IDs or DOIs apart by spaces, commas
        or semicolons (searched as words, they found nothing: an outside tester); [] for any
        other q."""
        parts = _LISTED.split(self.text.strip()) if self.text else []
        if len(parts) < 2 or not all(any(parse_identifier(part)) for part in parts):
            return []
        return parts

    @cached_property
    def anthology_page(self):
        """The author or venue whose Anthology page q addresses (a person's, a volume's or an
        event's), or None: the page opens ours."""
        return anthology_page(self.text) if self.text else None

    @cached_property
    def own_page(self):
        """The paper, author, venue or topic whose page of this site q addresses, or None
        (papers/own_pages.py)."""
        return own_page(self.text) if self.text else None

    @property
    def addressed_page(self):
        """The author, venue or topic page q addresses, the Anthology's or ours, or None: the
        page opens ours (a paper's address is ``identified``)."""
        own = None if isinstance(self.own_page, Paper) else self.own_page
        return self.anthology_page or own

    @cached_property
    def address_notice(self) -> str | None:
        """What the page says instead of searching when q is an identifier or an address that
        names nothing here: an Anthology ID or DOI the collection lacks, an arXiv identifier
        (it knows none), an Anthology address of nothing here, another site's address no paper
        gives ("https://arxiv.org/abs/…":
        papers/anthology_pages.py). Searched as words, they found unrelated papers and a
        respelling of the address."""
        if self.identified is not None or self.addressed_page is not None or self.linking:
            return None
        anthology_id, doi = parse_identifier(self.text)
        if anthology_id is not None:
            return UNKNOWN_ANTHOLOGY_ID.format(id=anthology_id)
        if doi is not None:
            return UNKNOWN_DOI.format(doi=doi)
        if arxiv := arxiv_id(self.text):
            return UNKNOWN_ARXIV_ID.format(id=arxiv)
        host = address_host(self.text)
        if host in ANTHOLOGY_HOSTS:
            return NOTHING_AT_ANTHOLOGY_ADDRESS
        return None if host is None else ADDRESS_ELSEWHERE.format(host=host)
