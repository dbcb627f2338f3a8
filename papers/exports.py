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
        if not isinstance(entry, dict):
            raise DumpError(source, "each line must be a JSON object", number)
        abstract = _text(entry, "abstract", source, number)
        title = _text(entry, "title", source, number)
        venue = fold_whitespace(_text(entry, "venue", source, number))
        if not venue:
            raise DumpError(source, "a paper without a venue", number)
        if not abstract and not title:
            raise DumpError(source, "a paper with neither title nor abstract", number)
        year = entry.get("year")
        venues.setdefault(
            venue, VenueRecord(name=venue, year=year if isinstance(year, int) else None)
        )
        parsed.papers.append(
            PaperRecord(
                abstract=abstract,
                venue=venue,
                title=title,
                topics=_texts(entry, "topics", source, number),
                country=_text(entry, "country", source, number),
                related_titles=_texts(entry, "related_titles", source, number),
                authors=[AuthorRecord(name) for name in _texts(entry, "authors", source, number)],
                external_id=_text(entry, "external_id", source, number),
                source_file=_text(entry, "source", source, number),
                line=number,
            )
        )
    if not parsed.papers:
        raise DumpError(source, "no paper found")
    parsed.venues = list(venues.values())
    return parsed
