"""What the parsers produce and the loader writes: plain records, no database."""

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date


class DumpError(Exception):
    """A source file that cannot be loaded; the message names the file and, where it helps,
    the line."""

    def __init__(self, source: str, message: str, line: int | None = None):
        self.source = source
        self.line = line
        self.reason = message
        where = f"{source}, line {line}" if line else source
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        # Raised in a parsing process (papers/loading.py), it is pickled back to the loader.
        return DumpError, (self.source, self.reason, self.line)


@dataclass(frozen=True)
class AuthorRecord:
    name: str
    orcid: str = ""
    # The Anthology's id of the person ("yang-liu-edinburgh"), where the source gives one.
    person_id: str = ""
    # The family name, where the source says which words of the name it is (the Anthology's
    # <last>: "Espinosa Anke" of "Luis Espinosa Anke").
    family: str = ""


@dataclass
class VenueRecord:
    """A venue as a source describes it; empty fields are unknown, not cleared."""

    name: str
    acronym: str = ""
    year: int | None = None
    full_name: str = ""
    location: str = ""
    start_date: date | None = None
    end_date: date | None = None
    month: str = ""
    welcome_text: str = ""
    booktitle: str = ""
    publisher: str = ""
    editors: str = ""  # one per line, "Family, Given"
    external_id: str = ""
    parent: str = ""


@dataclass
class PaperRecord:
    abstract: str
    venue: str
    title: str = ""
    topics: list[str] = field(default_factory=list)
    country: str = ""
    presentation_format: str = ""
    related_titles: list[str] = field(default_factory=list)
    authors: list[AuthorRecord] = field(default_factory=list)
    external_id: str = ""
    pages: str = ""
    doi: str = ""
    url: str = ""
    bibkey: str = ""
    source_file: str = ""
    # The file this load read it from, which its ``line`` is of (an export's line names the
    # file the paper first came from as its ``source_file``).
    read_from: str = ""
    line: int | None = None
    # Whether its text is its source's own, to correct the paper carrying its external ID
    # with: not a copy of a collection (an export), nor a page's text merged with an ID another
    # record brought (papers/record_merging.py).
    corrects: bool = True


@dataclass(frozen=True)
class Decision:
    """What the parser made of one block of a file (its role, and the evidence a person would
    use for it), for `load_papers -v 2`."""

    line: int
    kind: str
    text: str
    evidence: str = ""


@dataclass
class ParsedFile:
    source: str
    papers: list[PaperRecord] = field(default_factory=list)
    venues: list[VenueRecord] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class LoadSummary:
    files: int = 0
    papers_read: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    venues_new: int = 0
    topics_new: int = 0
    authors_new: int = 0
    rule_links: int = 0
    left_out: int = 0  # records of papers a curator deleted (papers/deleted_keys.py)
    copies: int = 0  # records of a paper another record of the load gave first, merged into it
    warnings: list[str] = field(default_factory=list)
    # Seconds spent in each phase of the load, in the order they ran (bench/run.py reports them).
    phases: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def timed(self, phase: str):
        started = time.perf_counter()
        try:
            yield
        finally:
            self.phases[phase] = self.phases.get(phase, 0.0) + time.perf_counter() - started

    def describe_parse(self) -> str:
        """What a dry run can say: the files and papers read, matched against nothing."""
        return (
            f"{self.files} files, {self.papers_read} papers read and checked "
            f"(not matched against the database: only a load tells new from known); "
            f"{len(self.warnings)} warnings"
        )

    def describe(self) -> str:
        return (
            f"{self.files} files, {self.papers_read} papers read: {self.new} new, "
            f"{self.updated} updated, {self.unchanged} unchanged"
            + (f", {self.copies} copies merged" if self.copies else "")
            + f"; {self.venues_new} new venues, "
            f"{self.topics_new} new topics, {self.authors_new} new authors; "
            f"{self.rule_links} topic links from rules; {len(self.warnings)} warnings"
            + (f"; {self.left_out} left out (deleted by a curator)" if self.left_out else "")
        )
