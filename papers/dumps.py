"""Parse text dumps saved from conference web pages into paper records (pure: no database).

Two shapes of page are understood, recognised by their structure:

* a list page: a header naming the venue ("ACL 2025 Papers", "ACL 2025 论文列表"), then one
  abstract per paragraph, without titles;
* a lecture page: a country line; the page's own paper as abstract, venue line, title and one
  line per topic; page furniture (welcome messages, log-in prompts, cards of other events); more
  papers of the page's venue as abstract + title pairs; and a footer ("Downloads",
  "Next from <venue>" + a title, "Similar lecture" + a title).

A page is read as blocks (runs of non-blank lines). Each block is classified by its shape —
prose, a title-like line, a venue line, markdown furniture, a footer label — and the papers
are assembled from what follows what.
"""

import re
from dataclasses import dataclass
from datetime import date

from .records import Decision, DumpError, PaperRecord, ParsedFile, VenueRecord
from .text import fold_whitespace

# Every pattern here runs on untrusted text, so each must take time linear in it: "-" joins
# the parts of a word ("LREC-COLING") and only a space separates words, so a line splits into
# words one way; words and word counts are bounded, so each start position costs a bounded
# amount; and a scan for a closing bracket stops at the next opening one.
_YEAR = r"(?:19|20)\d{2}"
_ACRONYM_WORD = r"[A-Z][A-Za-z0-9&.\-]{0,40}"
_VENUE_WORDS = rf"{_ACRONYM_WORD}(?: (?:{_ACRONYM_WORD}|of|the|on|and|for)){{0,12}}?"
VENUE_NAME = rf"{_VENUE_WORDS} {_YEAR}"
_VENUE_LINE = re.compile(rf"^(?P<acronym>{_VENUE_WORDS}) (?P<year>{_YEAR})$")
_VENUE_IN_TEXT = re.compile(rf"\b{VENUE_NAME}\b")
_LIST_HEADER = re.compile(
    r"^(?P<name>.*?)\s*(?:Accepted Papers|Papers|Paper List|List of Papers|论文列表|论文)\s*$",
    re.IGNORECASE,
)

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE_IN_TEXT = re.compile(rf"\b{_MONTH} {_DAY}\b", re.IGNORECASE)
_EVENT_PLACE_AND_DATES = re.compile(
    rf"(?P<venue>{VENUE_NAME})\)?,?\s+(?:(?:will|is|was|to)\s+be\s+|will\s+)?"
    rf"(?:held|take place|takes place|took place)\s+in\s+(?:[a-z]+\s+){{0,6}}"
    rf"(?P<place>[A-Z][^()]{{0,100}}?),?\s+(?:from|on)\s+"
    rf"(?P<start_month>{_MONTH})\s+(?P<start_day>{_DAY})(?:,\s*{_YEAR})?\s*(?:to|until|through|–|-)\s*"
    rf"(?:(?P<end_month>{_MONTH})\s+)?(?P<end_day>{_DAY}),?\s+(?P<year>{_YEAR})",
    re.IGNORECASE,
)
_FULL_NAME = re.compile(rf"(?P<full>\b[Tt]he\s+[^()]{{10,200}}?)\s+\((?P<venue>{VENUE_NAME})\)")

_MARKDOWN_LINK = re.compile(r"\[[^\[\]]*\]\([^()]*\)")
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s")
_ITALIC_LINE = re.compile(r"^\*[^*].*[^*]\*$|^_[^_].*[^_]_$")
_SITE_CHROME = re.compile(
    r"\b(?:log ?in|sign ?in|sign up|event page|registered with|register for|registration"
    r"|access credentials|please register)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*$")

_FOOTER_DOWNLOADS = re.compile(r"^downloads?$", re.IGNORECASE)
_FOOTER_NEXT = re.compile(r"^next from\s+(?P<venue>.+)$", re.IGNORECASE)
_FOOTER_SIMILAR = re.compile(r"^similar lectures?$", re.IGNORECASE)

PRESENTATION_FORMATS = {
    "poster",
    "oral",
    "talk",
    "spotlight",
    "demo",
    "keynote",
    "tutorial",
    "panel",
    "lightning talk",
    "virtual poster",
    "in-person poster",
    "oral presentation",
    "poster presentation",
}
TITLE_MAX_LENGTH = 300
TOPIC_MAX_LENGTH = 80
TOPIC_MAX_WORDS = 8
COUNTRY_MAX_LENGTH = 60


@dataclass(frozen=True)
class Block:
    """A run of non-blank lines, with the number of its first line (1-based)."""

    line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def folded(self) -> str:
        return fold_whitespace(self.text)

    @property
    def is_single_line(self) -> bool:
        return len(self.lines) == 1


def split_blocks(text: str) -> list[Block]:
    blocks, current, start = [], [], 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line:
            if not current:
                start = number
            current.append(line)
        elif current:
            blocks.append(Block(start, tuple(current)))
            current = []
    if current:
        blocks.append(Block(start, tuple(current)))
    return blocks


def venue_in_line(line: str) -> re.Match | None:
    return _VENUE_LINE.match(fold_whitespace(line))


def is_venue_line(block: Block) -> bool:
    return block.is_single_line and venue_in_line(block.lines[0]) is not None


def is_markup(block: Block) -> bool:
    """Markdown furniture: headings, links, whole italic lines."""
    return any(
        _MARKDOWN_HEADING.match(line) or _MARKDOWN_LINK.search(line) or _ITALIC_LINE.match(line)
        for line in block.lines
    )


def footer_label(block: Block) -> str | None:
    first = block.lines[0]
    if _FOOTER_DOWNLOADS.match(first):
        return "downloads"
    if _FOOTER_NEXT.match(first):
        return "next"
    if _FOOTER_SIMILAR.match(first):
        return "similar"
    return None


def is_title_like(block: Block) -> bool:
    """One line, not too long, not ending like a sentence (titles may end with ? or !)."""
    if not block.is_single_line or is_markup(block) or footer_label(block):
        return False
    line = block.lines[0]
    return len(line) <= TITLE_MAX_LENGTH and not line.endswith((".", ":", ";", ","))


def is_topic_like(block: Block) -> bool:
    if not is_title_like(block) or is_venue_line(block):
        return False
    line = block.lines[0]
    return len(line) <= TOPIC_MAX_LENGTH and len(line.split()) <= TOPIC_MAX_WORDS


def is_event_prose(block: Block) -> bool:
    """Prose about the event rather than a paper: site prompts, or a venue named with a date."""
    text = block.folded
    if _SITE_CHROME.search(text) or ("**" in text and _VENUE_IN_TEXT.search(text)):
        return True
    return bool(_VENUE_IN_TEXT.search(text) and _DATE_IN_TEXT.search(text))


def is_furniture(block: Block) -> bool:
    return is_markup(block) or is_venue_line(block) or is_event_prose(block)


def paragraphs_to_abstract(blocks: list[Block]) -> str:
    """Paragraphs kept, whitespace inside each folded."""
    return "\n\n".join(block.folded for block in blocks)


def _short(text: str, limit: int = 70) -> str:
    text = fold_whitespace(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _PageReader:
    """Reads one page's blocks, recording a decision for each."""

    def __init__(self, source: str, blocks: list[Block]):
        self.source = source
        self.blocks = blocks
        self.parsed = ParsedFile(source=source)

    def decide(self, block: Block, kind: str, text: str | None = None) -> None:
        self.parsed.decisions.append(Decision(block.line, kind, _short(text or block.text)))

    def warn(self, block: Block, message: str) -> None:
        self.parsed.warnings.append(f"{self.source}, line {block.line}: {message}")

    def add_paper(self, abstract_blocks: list[Block], venue: str, **fields) -> PaperRecord:
        paper = PaperRecord(
            abstract=paragraphs_to_abstract(abstract_blocks),
            venue=venue,
            line=abstract_blocks[0].line,
            **fields,
        )
        self.parsed.papers.append(paper)
        for block in abstract_blocks:
            self.decide(block, "abstract")
        return paper


def _venue_record(name: str) -> VenueRecord:
    match = venue_in_line(name)
    if match is None:
        return VenueRecord(name=name)
    return VenueRecord(name=name, acronym=match["acronym"], year=int(match["year"]))


def parse_list_page(reader: _PageReader, venue_name: str) -> ParsedFile:
    header, *paragraphs = reader.blocks
    reader.decide(header, "header", f"list of {venue_name}")
    reader.parsed.venues.append(_venue_record(venue_name))
    for block in paragraphs:
        if is_markup(block) or footer_label(block):
            reader.decide(block, "furniture")
            continue
        reader.add_paper([block], venue_name)
    return reader.parsed


def _take_while(blocks: list[Block], start: int, predicate) -> int:
    end = start
    while end < len(blocks) and predicate(blocks[end]):
        end += 1
    return end


def parse_lecture_page(reader: _PageReader) -> ParsedFile:
    blocks = reader.blocks
    position = 0
    country = ""
    first = blocks[0]
    if is_title_like(first) and len(first.lines[0]) <= COUNTRY_MAX_LENGTH and len(blocks) > 1:
        country = first.lines[0]
        reader.decide(first, "country")
        position = 1

    abstract_end = _take_while(blocks, position, lambda b: not is_venue_line(b))
    if abstract_end == len(blocks):
        raise DumpError(
            reader.source,
            "not a list page (no '<venue> Papers' header) and no venue line after the "
            "lecture's abstract, so no paper can be placed",
            first.line,
        )
    if abstract_end == position:
        raise DumpError(
            reader.source,
            "the lecture page has no abstract before its venue line",
            blocks[position].line,
        )
    page_abstract = blocks[position:abstract_end]
    venue_block = blocks[abstract_end]
    venue_name = fold_whitespace(venue_block.lines[0])
    position = abstract_end + 1

    title = ""
    if (
        position < len(blocks)
        and is_title_like(blocks[position])
        and not footer_label(blocks[position])
    ):
        title = blocks[position].lines[0]
        title_block = blocks[position]
        position += 1
    else:
        title_block = None

    topics, presentation_format = [], ""
    while position < len(blocks) and is_topic_like(blocks[position]):
        line = blocks[position].lines[0]
        if line.casefold() in PRESENTATION_FORMATS:
            presentation_format = line.casefold()
            reader.decide(blocks[position], "format")
        else:
            topics.append(line)
            reader.decide(blocks[position], "topic")
        position += 1

    body_end = _take_while(blocks, position, lambda b: footer_label(b) is None)
    page_paper = reader.add_paper(
        page_abstract,
        venue_name,
        title=title,
        topics=topics,
        country=country,
        presentation_format=presentation_format,
    )
    reader.decide(venue_block, "venue")
    if title_block:
        reader.decide(title_block, "title")
    reader.parsed.venues.append(_venue_record(venue_name))

    _read_body(reader, blocks[position:body_end], venue_name)
    _read_footer(reader, blocks[body_end:], page_paper, venue_name)
    _extract_venue_metadata(reader, blocks[position:body_end], venue_name)
    return reader.parsed


def _read_body(reader: _PageReader, blocks: list[Block], venue_name: str) -> None:
    """Furniture and the page's other papers: prose paragraphs followed by a title line."""
    pending: list[Block] = []

    def flush_untitled() -> None:
        if pending:
            reader.add_paper(list(pending), venue_name)
            reader.decide(pending[-1], "untitled", "no title follows this abstract")
            pending.clear()

    for block in blocks:
        if is_furniture(block):
            flush_untitled()
            reader.decide(block, "furniture")
        elif is_title_like(block):
            if pending:
                reader.add_paper(list(pending), venue_name, title=block.lines[0])
                reader.decide(block, "title")
                pending.clear()
            else:
                reader.decide(block, "furniture", f"stray line: {block.lines[0]}")
        else:
            pending.append(block)
    flush_untitled()


def _read_footer(
    reader: _PageReader, blocks: list[Block], page_paper: PaperRecord, venue_name: str
) -> None:
    expecting = None
    for block in blocks:
        label = footer_label(block)
        if label == "downloads":
            reader.decide(block, "footer")
            expecting = None
        elif label in {"next", "similar"}:
            reader.decide(block, "footer")
            expecting = label
            if label == "next":
                next_venue = fold_whitespace(_FOOTER_NEXT.match(block.lines[0])["venue"])
                if next_venue != venue_name:
                    reader.warn(
                        block, f"footer names {next_venue}, the page's venue line {venue_name}"
                    )
        elif expecting == "similar" and is_title_like(block):
            page_paper.related_titles.append(block.lines[0])
            reader.decide(block, "related title")
            expecting = None
        elif expecting == "next" and is_title_like(block):
            reader.decide(block, "next paper")
            expecting = None
        else:
            reader.decide(block, "furniture")


def _parse_date(month: str, day: str, year: int) -> date | None:
    number = _MONTHS.get(month.lower().rstrip("."))
    try:
        return date(year, number, int(re.sub(r"\D", "", day))) if number else None
    except ValueError:
        return None


def _venue_for(reader: _PageReader, name: str) -> VenueRecord:
    for venue in reader.parsed.venues:
        if venue.name == name:
            return venue
    venue = _venue_record(name)
    reader.parsed.venues.append(venue)
    return venue


def _extract_venue_metadata(reader: _PageReader, blocks: list[Block], page_venue: str) -> None:
    """Full names, places, dates and welcome messages that the furniture gives."""
    furniture = [block for block in blocks if is_furniture(block) or is_title_like(block)]
    for block in furniture:
        text = block.folded
        for match in _FULL_NAME.finditer(text):
            venue = _venue_for(reader, match["venue"])
            full_name = re.sub(r"^(?:Welcome to\s+)?", "", match["full"]).strip()
            full_name = full_name[0].upper() + full_name[1:]
            venue.full_name = venue.full_name or full_name
        for match in _EVENT_PLACE_AND_DATES.finditer(text):
            venue = _venue_for(reader, match["venue"])
            year = int(match["year"])
            venue.location = venue.location or match["place"].strip().rstrip(",")
            venue.start_date = venue.start_date or _parse_date(
                match["start_month"], match["start_day"], year
            )
            end_month = match["end_month"] or match["start_month"]
            venue.end_date = venue.end_date or _parse_date(end_month, match["end_day"], year)
    _extract_welcome_texts(reader, blocks, page_venue)


def _continues_a_message(block: Block) -> bool:
    """Markup under a welcome heading (a chair's message, a link), not a new section or a prompt."""
    return (
        is_markup(block)
        and not _MARKDOWN_HEADING.match(block.lines[0])
        and not _SITE_CHROME.search(block.folded)
    )


def _extract_welcome_texts(reader: _PageReader, blocks: list[Block], page_venue: str) -> None:
    """A heading that welcomes, and the markup messages under it, are that venue's welcome."""
    index = 0
    while index < len(blocks):
        block = blocks[index]
        heading = block.lines[0]
        if not (_MARKDOWN_HEADING.match(heading) and "welcome" in heading.lower()):
            index += 1
            continue
        named = _VENUE_IN_TEXT.search(heading)
        venue = _venue_for(reader, named.group(0) if named else page_venue)
        message = [line for line in block.lines[1:] if not _MARKDOWN_HEADING.match(line)]
        index += 1
        while index < len(blocks) and _continues_a_message(blocks[index]):
            message.extend(blocks[index].lines)
            index += 1
        text = "\n".join(message).strip()
        if text and not venue.welcome_text:
            venue.welcome_text = text


def list_header_venue(first_line: str) -> str | None:
    """The venue a list page's header names; '' for a list header naming none; None if no header."""
    match = _LIST_HEADER.match(fold_whitespace(first_line))
    if not match:
        return None
    name = match["name"].strip(" :-–—")
    return name if venue_in_line(name) else ""


def parse_dump(text: str, source: str) -> ParsedFile:
    """Parse one dump's text. Raises DumpError when no paper can be read from it."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    blocks = split_blocks(text)
    if not blocks:
        raise DumpError(source, "the file is empty")
    reader = _PageReader(source, blocks)
    first = blocks[0]
    header_venue = list_header_venue(first.lines[0]) if first.is_single_line else None
    if header_venue == "":
        raise DumpError(
            source,
            f"the list header {first.lines[0]!r} names no venue (expected e.g. 'ACL 2025 Papers')",
            first.line,
        )
    parsed = parse_list_page(reader, header_venue) if header_venue else parse_lecture_page(reader)
    if not parsed.papers:
        raise DumpError(source, "no paper found")
    parsed.decisions.sort(key=lambda decision: decision.line)
    return parsed
