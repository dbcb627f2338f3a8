"""One page of the list's results, as search_page (papers/search.py) builds it."""

from dataclasses import dataclass, field

from .facets import Facets
from .models import Author, Paper, Venue

PAGE_SIZE = 25


@dataclass
class Results:
    facets: Facets
    count: int = 0
    page: int = 1
    pages: int = 1
    papers: list = field(default_factory=list)
    suggestion: str | None = None
    notices: list[str] = field(default_factory=list)
    # The paper an identifier in the query names, or the author or venue of an Anthology page.
    identified: Paper | Author | Venue | None = None
    authors: list = field(default_factory=list)  # authors the query names (first page)
    authors_in_words: bool = False  # named by words at one end of the query, not all of it
    # The authors the query names, on every page: each card names them in bold, with their
    # place where its first authors leave them out (papers/views.py).
    named_authors: list = field(default_factory=list)
    # The query searched instead: respelled, or a question's subject.
    corrected_query: str | None = None
    partial: list = field(default_factory=list)  # papers matching some of the words
    # The venues or year the query's words name (papers/named_filters.py), on the first page.
    filters: list = field(default_factory=list)
    # The list the query means where no paper has all its words: its other words in the one
    # venue or year it names (papers/narrowed.py), where the pages redirect.
    narrowed: str | None = None

    @property
    def untitled(self) -> int:
        """How many of the papers counted have no title, where known (else 0)."""
        return (self.facets.untitled or 0) if self.facets.total == self.count else 0

    @property
    def exported(self) -> int:
        """How many of the papers counted an export holds (not those without a title)."""
        return self.count - self.untitled

    @property
    def has_previous(self):
        return self.page > 1

    @property
    def has_next(self):
        return self.page < self.pages

    @property
    def start_index(self):
        return (self.page - 1) * PAGE_SIZE + 1 if self.papers else 0

    @property
    def end_index(self):
        return self.start_index + len(self.papers) - 1 if self.papers else 0

    def page_window(self, size: int = 2):
        """Page numbers to link, with None for a gap: 1 … 4 5 [6] 7 8 … 20."""
        numbers = sorted(
            {1, self.pages, *range(max(1, self.page - size), min(self.pages, self.page + size) + 1)}
        )
        window, last = [], 0
        for number in numbers:
            if number - last > 1:
                window.append(None)
            window.append(number)
            last = number
        return window
