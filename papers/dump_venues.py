"""What a lecture page's furniture says about venues: full names, places, dates, welcomes.

Pure: no database. The records gathered here are merged by the loader into the venues'
empty fields.
"""

import re
from datetime import date

from .anthology_metadata import VOLUME_LABELS
from .dump_blocks import (
    DAY,
    MARKDOWN_HEADING,
    MONTH,
    SITE_CHROME,
    VENUE_IN_TEXT,
    VENUE_NAME,
    YEAR,
    Block,
    is_markup,
    is_title_like,
    is_venue_line,
    month_number,
    venue_in_line,
)
from .dump_evidence import evidence
from .records import VenueRecord

_EVENT_PLACE_AND_DATES = re.compile(
    rf"(?P<venue>{VENUE_NAME})\)?,?\s+(?:(?:will|is|was|to)\s+be\s+|will\s+)?"
    rf"(?:held|take place|takes place|took place)\s+in\s+(?:[a-z]+\s+){{0,6}}"
    rf"(?P<place>[A-Z][^()]{{0,100}}?),?\s+(?:from|on)\s+"
    rf"(?P<start_month>{MONTH})\s+(?P<start_day>{DAY})(?:,\s*{YEAR})?\s*(?:to|until|through|–|-)\s*"
    rf"(?:(?P<end_month>{MONTH})\s+)?(?P<end_day>{DAY}),?\s+(?P<year>{YEAR})",
    re.IGNORECASE,
)
# An announcement without dates still gives the place: "EACL 2024 will take place in
# St. Julian's, Malta, at the conference centre" (up to four capitalised words, a comma, four more).
_PLACE_WORD = r"[A-Z][\w'’-]{0,40}\.?"
_PLACE = rf"{_PLACE_WORD}(?: {_PLACE_WORD}){{0,3}}"
_EVENT_PLACE = re.compile(
    rf"(?P<venue>{VENUE_NAME})\)?,?\s+(?:will take place|takes place|will be held|is held"
    rf"|is being held)\s+in\s+(?P<place>{_PLACE}(?:, {_PLACE})?)"
)
_VOLUME_NAME = re.compile(r"^(?P<conference>.+) \((?P<label>[^()]+)\)$")
_FULL_NAME = re.compile(rf"(?P<full>\b[Tt]he\s+[^()]{{10,200}}?)\s+\((?P<venue>{VENUE_NAME})\)")


def venue_record(name: str) -> VenueRecord:
    """A venue as its name alone tells it: "ACL 2025" is acronym ACL, year 2025. A volume's
    name ("ACL 2024 (Short Papers)", "Findings of ACL 2024") tells its conference too, the
    parent the Anthology gives it."""
    volume = _VOLUME_NAME.match(name)
    if volume and volume["label"] in VOLUME_LABELS:
        conference = volume["conference"]
    else:
        conference = name.removeprefix("Findings of ")
    match = venue_in_line(conference)
    if match is None:
        return VenueRecord(name=name)
    parent = conference if conference != name else ""
    return VenueRecord(name=name, acronym=match["acronym"], year=int(match["year"]), parent=parent)


def venue_named(venues: list[VenueRecord], name: str) -> VenueRecord:
    """The record of the venue of that name among ``venues``, added when missing."""
    for venue in venues:
        if venue.name == name:
            return venue
    venue = venue_record(name)
    venues.append(venue)
    return venue


def _parse_date(month: str, day: str, year: int) -> date | None:
    number = month_number(month)
    try:
        return date(year, number, int(re.sub(r"\D", "", day))) if number else None
    except ValueError:
        return None


def extract_venue_metadata(blocks: list[Block], venues: list[VenueRecord], page_venue: str) -> None:
    """Full names, places, dates and welcome messages that the furniture gives."""
    furniture = [block for block in blocks if _not_a_paper(block)]
    for block in furniture:
        text = block.folded
        for match in _FULL_NAME.finditer(text):
            venue = venue_named(venues, match["venue"])
            full_name = re.sub(r"^(?:Welcome to\s+)?", "", match["full"]).strip()
            full_name = full_name[0].upper() + full_name[1:]
            venue.full_name = venue.full_name or full_name
        for match in _EVENT_PLACE_AND_DATES.finditer(text):
            venue = venue_named(venues, match["venue"])
            year = int(match["year"])
            venue.location = venue.location or match["place"].strip().rstrip(",")
            venue.start_date = venue.start_date or _parse_date(
                match["start_month"], match["start_day"], year
            )
            end_month = match["end_month"] or match["start_month"]
            venue.end_date = venue.end_date or _parse_date(end_month, match["end_day"], year)
    for block in furniture:  # after every dated announcement, which says more
        for match in _EVENT_PLACE.finditer(block.folded):
            venue = venue_named(venues, match["venue"])
            venue.location = venue.location or match["place"]
    _extract_welcome_texts(blocks, venues, page_venue)


def _not_a_paper(block: Block) -> bool:
    """Furniture and short lines: what venue facts may be read from (never an abstract)."""
    return (
        is_markup(block)
        or is_venue_line(block)
        or is_title_like(block)
        or evidence(block.folded).is_event
    )


def _continues_a_message(block: Block) -> bool:
    """Markup under a welcome heading (a chair's message, a link), not a new section or a prompt."""
    return (
        is_markup(block)
        and not MARKDOWN_HEADING.match(block.lines[0])
        and not SITE_CHROME.search(block.folded)
    )


def _extract_welcome_texts(blocks: list[Block], venues: list[VenueRecord], page_venue: str) -> None:
    """A heading that welcomes, and the markup messages under it, are that venue's welcome."""
    index = 0
    while index < len(blocks):
        block = blocks[index]
        heading = block.lines[0]
        if not (MARKDOWN_HEADING.match(heading) and "welcome" in heading.lower()):
            index += 1
            continue
        named = VENUE_IN_TEXT.search(heading)
        venue = venue_named(venues, named.group(0) if named else page_venue)
        message = [line for line in block.lines[1:] if not MARKDOWN_HEADING.match(line)]
        index += 1
        while index < len(blocks) and _continues_a_message(blocks[index]):
            message.extend(blocks[index].lines)
            index += 1
        text = "\n".join(message).strip()
        if text and not venue.welcome_text:
            venue.welcome_text = text
