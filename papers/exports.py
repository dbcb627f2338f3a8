"""Read the JSON Lines that export_papers writes back into records (pure: no database)."""

import json
from collections.abc import Iterable

from .records import AuthorRecord, DumpError, PaperRecord, ParsedFile, VenueRecord
from .text import fold_whitespace


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
    for number, line in enumerate(lines, start=1):
        raw = line.lstrip("\ufeff") if number == 1 else line
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
        except json.JSONDecodeError as error:
            raise DumpError(source, f"not valid JSON ({error.msg})", number) from None
        paper, venue = paper_from_entry(entry, source, number)
        venues.setdefault(venue.name, venue)
        parsed.papers.append(paper)
    if not parsed.papers:
        raise DumpError(source, "no paper found")
    parsed.venues = list(venues.values())
    return parsed


def paper_from_entry(entry, source: str, number: int) -> tuple[PaperRecord, VenueRecord]:
    """One export line's object as records: the paper and its venue."""
    if not isinstance(entry, dict):
        raise DumpError(source, "each line must be a JSON object", number)
    venue = fold_whitespace(_text(entry, "venue", source, number))
    year = entry.get("year")
    paper = PaperRecord(
        abstract=_text(entry, "abstract", source, number),
        venue=venue,
        title=_text(entry, "title", source, number),
        topics=_texts(entry, "topics", source, number),
        country=_text(entry, "country", source, number),
        related_titles=_texts(entry, "related_titles", source, number),
        authors=[AuthorRecord(name) for name in _texts(entry, "authors", source, number)],
        external_id=_text(entry, "external_id", source, number),
        source_file=_text(entry, "source", source, number),
        line=number,
    )
    valid_year = isinstance(year, int) and not isinstance(year, bool)
    return paper, VenueRecord(name=venue, year=year if valid_year else None)
