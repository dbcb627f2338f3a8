"""What every parser's records must be before anything is written: bounded, storable, complete.

Pure (no database). One step for the text dumps, the JSON Lines exports and the Anthology XML,
so a hostile file of any kind gets the same clear DumpError naming the file and the paper's
line — a field longer than its column, a NUL character or a lone surrogate (PostgreSQL can store
neither), an abstract long enough to make every page that shows it slow, an empty author name.
The limits are generous (the Anthology's longest abstract is about 2,400 characters) and fit
the database columns; exports are checked against the same rules, so they load back.
"""

import re

from .name_keys import name_key
from .records import AuthorRecord, DumpError, PaperRecord, ParsedFile, VenueRecord
from .text import clean_name, fold_whitespace, without_label

# Characters per field; the ones with a column size are that size.
PAPER_LIMITS = {
    "title": 1_000,
    "abstract": 20_000,
    "venue": 200,
    "country": 100,
    "presentation_format": 50,
    "external_id": 100,
    "pages": 50,
    "doi": 200,
    "url": 500,
    "bibkey": 200,
    "source_file": 300,
}
VENUE_LIMITS = {
    "name": 200,
    "acronym": 100,
    "full_name": 300,
    "location": 200,
    "month": 40,
    "welcome_text": 20_000,
    "booktitle": 500,
    "external_id": 100,
    "parent": 200,
}
AUTHOR_NAME_LIMIT = 300
ORCID_LIMIT = 40
# A person id becomes the person's slug and URL: the Anthology's are lowercase ASCII slugs.
PERSON_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
PERSON_ID_LIMIT = 100
TOPIC_NAME_LIMIT = 200
RELATED_TITLE_LIMIT = 1_000
MAX_AUTHORS = 500
# All of a paper's author names together: they feed its search vector, which PostgreSQL caps
# at 1 MB, with the title, the abstract and the topic names.
AUTHOR_NAMES_LIMIT = 30_000
MAX_TOPICS = 50
MAX_RELATED_TITLES = 50
MIN_YEAR, MAX_YEAR = 1000, 9999

# NUL (PostgreSQL text cannot hold it) and lone surrogates (not encodable as UTF-8).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def clean_file(parsed: ParsedFile) -> None:
    """Check every record of a parsed file (and drop repeated names inside one paper).

    Raises DumpError naming the file and, for a paper, the line where it starts.
    """
    for paper in parsed.papers:
        clean_paper(paper, parsed.source)
    for venue in parsed.venues:
        clean_venue(venue, parsed.source)


def clean_venue(venue: VenueRecord, source: str) -> None:
    for name, limit in VENUE_LIMITS.items():
        _check_text(getattr(venue, name), f"the venue's {name.replace('_', ' ')}", limit, source)
    if venue.year is not None and not MIN_YEAR <= venue.year <= MAX_YEAR:
        raise DumpError(source, f"{venue.name}: the year {venue.year} is not a year")


def clean_paper(paper: PaperRecord, source: str) -> None:
    """Check one paper's fields; a name given twice (in any spelling) is kept once."""
    line = paper.line
    if not paper.title.strip() and not paper.abstract.strip():
        raise DumpError(source, "a paper with neither title nor abstract", line)
    if not paper.venue.strip():
        raise DumpError(source, "a paper without a venue", line)
    for name, limit in PAPER_LIMITS.items():
        _check_text(getattr(paper, name), f"the {name.replace('_', ' ')}", limit, source, line)
    paper.abstract = without_label(paper.abstract)
    paper.authors = _clean_authors(paper.authors, source, line)
    paper.topics = _unique_names(
        _clean_list(paper.topics, "topic", TOPIC_NAME_LIMIT, MAX_TOPICS, source, line)
    )
    paper.related_titles = list(
        dict.fromkeys(
            _clean_list(
                paper.related_titles,
                "related title",
                RELATED_TITLE_LIMIT,
                MAX_RELATED_TITLES,
                source,
                line,
            )
        )
    )


def _clean_authors(
    authors: list[AuthorRecord], source: str, line: int | None
) -> list[AuthorRecord]:
    if len(authors) > MAX_AUTHORS:
        raise DumpError(source, f"{len(authors):,} authors (at most {MAX_AUTHORS:,})", line)
    cleaned = []
    for author in authors:
        name = clean_name(author.name)
        if not name:
            raise DumpError(source, "an author with an empty name", line)
        _check_text(name, "an author's name", AUTHOR_NAME_LIMIT, source, line)
        _check_text(author.orcid, "an author's ORCID", ORCID_LIMIT, source, line)
        family = clean_name(author.family)
        family = family if name.endswith(family) else ""
        cleaned.append(AuthorRecord(name, author.orcid, _person_id(author.person_id), family))
    total = sum(len(author.name) for author in cleaned)
    if total > AUTHOR_NAMES_LIMIT:
        raise DumpError(
            source,
            f"the author names are {total:,} characters together (at most {AUTHOR_NAMES_LIMIT:,})",
            line,
        )
    by_key = {}
    for author in cleaned:
        by_key.setdefault(author.person_id or name_key(author.name), author)
    return list(by_key.values())


def _person_id(person_id: str) -> str:
    """The id if it can be a slug, else none: the author is then known by name alone."""
    if len(person_id) <= PERSON_ID_LIMIT and PERSON_ID.fullmatch(person_id):
        return person_id
    return ""


def _clean_list(
    items: list[str], what: str, limit: int, most: int, source: str, line: int | None
) -> list[str]:
    if len(items) > most:
        raise DumpError(source, f"{len(items):,} {what}s (at most {most:,})", line)
    cleaned = []
    for item in items:
        text = fold_whitespace(item)
        if not text:
            raise DumpError(source, f"a {what} that is empty", line)
        _check_text(text, f"a {what}", limit, source, line)
        cleaned.append(text)
    return cleaned


def _unique_names(names: list[str]) -> list[str]:
    by_key = {}
    for name in names:
        by_key.setdefault(name_key(name), name)
    return list(by_key.values())


def _check_text(value, what: str, limit: int, source: str, line: int | None = None) -> None:
    if not isinstance(value, str):
        return
    if len(value) > limit:
        raise DumpError(
            source, f"{what} is {len(value):,} characters long (at most {limit:,})", line
        )
    if found := _UNSTORABLE.search(value):
        kind = "a NUL character" if found[0] == "\x00" else "a lone surrogate (not Unicode text)"
        raise DumpError(source, f"{what} contains {kind}", line)
