"""Read the JSON Lines that export_papers writes back into records (pure: no database)."""

import json
import re
from collections.abc import Iterable
from datetime import date
from difflib import get_close_matches

from .anthology_metadata import canonical_external_id
from .author_lines import one_word
from .dump_blocks import venue_in_line
from .name_keys import GENERATIONS
from .records import AuthorRecord, DumpError, PaperRecord, ParsedFile, VenueRecord
from .text import fold_whitespace

# An export line's fields beyond the documented ones, as serializers.export_record writes them
# and paper_from_entry reads them back (in this order: the lines' keys keep it).
CITATION_FIELDS = ("presentation_format", "pages", "doi", "url", "bibkey")
AUTHOR_DETAILS = ("person_id", "family_name", "orcid")
VENUE_DATES = ("start_date", "end_date")
VENUE_DETAILS = (
    "acronym",
    "full_name",
    "location",
    *VENUE_DATES,
    "month",
    "booktitle",
    "publisher",
    "editors",
    "external_id",
)
VENUE_TEXTS = (*(name for name in VENUE_DETAILS if name not in VENUE_DATES), "parent")
# Links a load makes itself: a line's topics from these sources are not loaded as its own.
DERIVED = {"rule", "model"}
# Every field an export line has (serializers.export_record); another is told, not read in
# silence: "abstarct" left a paper without its abstract and no warning (an outside tester).
PAPER_FIELDS = ("id", "external_id", "title", "display_title", "abstract", "venue", "year")
PAPER_FIELDS += ("topics", "country", "authors", "source", "related_titles")
KNOWN_FIELDS = {*PAPER_FIELDS, *CITATION_FIELDS, "author_details", "topic_sources"}
KNOWN_FIELDS.add("venue_details")


def _text(entry: dict, key: str, source: str, line: int) -> str:
    value = entry.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DumpError(source, f"field {key!r} must be text or null", line)
    return value


def _texts(entry: dict, key: str, source: str, line: int) -> list[str]:
    value = entry.get(key) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise DumpError(source, f"field {key!r} must be a list of text", line)
    return value


def parse_export(lines: Iterable[str], source: str) -> ParsedFile:
    """Records from export lines (an open text file or a list of strings)."""
    parsed = ParsedFile(source=source)
    venues: dict[str, VenueRecord] = {}
    unknown: dict[str, int] = {}  # field: the first line having it
    other_years: list[str] = []  # lines whose year is not their venue's
    for number, line in enumerate(lines, start=1):
        raw = line.lstrip("\ufeff") if number == 1 else line
        if not raw.strip():
            continue
        entry = _json_line(raw, source, number)
        paper, venue = paper_from_entry(entry, source, number)
        for key in entry.keys() - KNOWN_FIELDS:
            unknown.setdefault(key, number)
        if (named := venue_in_line(venue.name)) and venue.year not in (None, int(named["year"])):
            other_years.append(f"line {number} ({venue.year} for {venue.name})")
        venues.setdefault(venue.name, venue)
        parsed.papers.append(paper)
    if not parsed.papers:
        raise DumpError(source, "no paper found")
    parsed.venues = list(venues.values())
    if unknown:
        parsed.warnings.append(_unknown_fields(source, unknown))
    if other_years:
        # Silently the venue's year won (an outside curator).
        told = ", ".join(other_years)
        parsed.warnings.append(f"{source}: a year other than its venue's, ignored: {told}")
    return parsed


def _unknown_fields(source: str, unknown: dict[str, int]) -> str:
    """The warning naming the fields no export has, each at its first line, with the known
    field it may be a misspelling of."""
    told = []
    for key, line in sorted(unknown.items(), key=lambda item: (item[1], item[0])):
        close = get_close_matches(key, sorted(KNOWN_FIELDS), n=1)
        told.append(f"{key!r} (line {line}" + (f"; did you mean {close[0]!r}?)" if close else ")"))
    return f"{source}: fields a load does not read, ignored: {', '.join(told)}"


def _object(entry: dict, key: str, source: str, line: int) -> dict:
    value = entry.get(key) or {}
    if not isinstance(value, dict):
        raise DumpError(source, f"field {key!r} must be an object", line)
    return value


def _json_line(raw: str, source: str, number: int):
    """The line's JSON value, or a DumpError saying why it has none (never a traceback)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise DumpError(
            source, f"not valid JSON ({error.msg}, character {error.pos + 1})", number
        ) from None
    except RecursionError:
        raise DumpError(source, "not valid JSON here (nested too deeply)", number) from None
    except ValueError:  # a number of over 4,300 digits, which Python refuses to read
        raise DumpError(source, "not valid JSON here (a number too long to read)", number) from None


def paper_from_entry(entry, source: str, number: int) -> tuple[PaperRecord, VenueRecord]:
    """One export line's object as records: the paper and its venue. The fields beyond the
    documented ones (citation fields, author_details, topic_sources, venue_details) are
    optional: a line written by hand may leave them out."""
    if not isinstance(entry, dict):
        raise DumpError(source, "each line must be a JSON object", number)
    venue = _venue_name(fold_whitespace(_text(entry, "venue", source, number)))
    citation = {name: _text(entry, name, source, number) for name in CITATION_FIELDS}
    paper = PaperRecord(
        abstract=_text(entry, "abstract", source, number),
        venue=venue,
        title=_text(entry, "title", source, number),
        topics=_loaded_topics(entry, source, number),
        country=_text(entry, "country", source, number),
        related_titles=_texts(entry, "related_titles", source, number),
        authors=_author_records(entry, source, number),
        external_id=canonical_external_id(_text(entry, "external_id", source, number)),
        source_file=_text(entry, "source", source, number),
        line=number,
        # A line export_papers wrote (its "id" and "source") is a copy of a collection: it
        # fills, never corrects (an old export undid the Anthology's corrections: a reviewer).
        corrects=not ("id" in entry and "source" in entry),
        **citation,
    )
    return paper, _venue_record(entry, venue, source, number)


def _loaded_topics(entry: dict, source: str, line: int) -> list[str]:
    """The line's topics but those a topic rule or the topic model gave (``topic_sources``):
    the load derives those again, as rule and model links, rather than fixing them as a
    source's."""
    sources = _object(entry, "topic_sources", source, line)
    return [t for t in _texts(entry, "topics", source, line) if sources.get(t) not in DERIVED]


def _author_records(entry: dict, source: str, line: int) -> list[AuthorRecord]:
    """The authors, with the person id, family name and ORCID ``author_details`` gives each
    (by position) where the line has them."""
    names = _texts(entry, "authors", source, line)
    details = entry.get("author_details") or [{} for _ in names]
    if not isinstance(details, list) or len(details) != len(names):
        raise DumpError(source, "field 'author_details' must list one object per author", line)
    records = []
    for name, detail in zip(names, details, strict=True):
        if not isinstance(detail, dict):
            raise DumpError(source, "field 'author_details' must list one object per author", line)
        person = {key: _text(detail, key, source, line) for key in AUTHOR_DETAILS}
        if not person["family_name"] and (written := _family_first(name)):
            name, person["family_name"] = written
        records.append(
            AuthorRecord(
                name,
                orcid=person["orcid"],
                person_id=person["person_id"],
                family=person["family_name"],
            )
        )
    return records


# A venue written as a slug or in small letters ("acl-2023", "acl 2023"): the venue a page or
# the Anthology names "ACL 2023". Each made a venue of its own, the slug's taking the address
# the Anthology's ACL 2023 would have had (an outside curator).
_WRITTEN_AS_SLUG = re.compile(r"([a-z][a-z0-9]*)[- ]((?:19|20)[0-9]{2})")


def _venue_name(written: str) -> str:
    if match := _WRITTEN_AS_SLUG.fullmatch(written):
        return f"{match[1].upper()} {match[2]}"
    return written


def _family_first(name: str) -> tuple[str, str] | None:
    """(the name given name first, its family name) of a name written "Family, Given" ("van
    der Berg, Jan" was an author of that name beside Jan van der Berg: an outside curator),
    its family name one word but its particles; None for a name written otherwise ("Laks
    Lakshmanan, V.S.", as the Anthology writes some)."""
    family, comma, given = (part.strip() for part in name.partition(","))
    if not comma or not family or not given or "," in given or not one_word(family):
        return None
    if given.lower().rstrip(".") in GENERATIONS:  # "Prospero C. Naval, Jr.": no given name
        return None
    return f"{given} {family}", family


def _venue_record(entry: dict, venue: str, source: str, line: int) -> VenueRecord:
    """The venue: its name and year (a number, or its digits as text), and the
    ``venue_details`` the line gives."""
    year = entry.get("year")
    if isinstance(year, str):  # "2023" was dropped without a word
        year = int(year) if year.strip().isdigit() else (None if not year.strip() else year)
    if year is not None and (not isinstance(year, int) or isinstance(year, bool)):
        raise DumpError(source, "field 'year' must be a year (a number, e.g. 2023)", line)
    details = _object(entry, "venue_details", source, line)
    fields = {key: _text(details, key, source, line) for key in VENUE_TEXTS}
    dates = {key: _date(details, key, source, line) for key in VENUE_DATES}
    return VenueRecord(name=venue, year=year, **fields, **dates)


def _date(details: dict, key: str, source: str, line: int) -> date | None:
    text = _text(details, key, source, line)
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        raise DumpError(
            source, f"venue_details {key!r} must be a date (YYYY-MM-DD)", line
        ) from None
