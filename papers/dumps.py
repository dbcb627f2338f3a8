"""Parse text dumps saved from conference web pages into paper records (pure: no database).

Two shapes of page are understood, recognised by their structure:

* a list page: a header naming the venue ("ACL 2025 Papers", "ACL 2025 论文列表", "Papers of
  EMNLP 2024", "ACL 2024 Short Papers": papers/list_headers.py), then one abstract per
  paragraph, alone or with its title (and authors) above or below it (papers/list_entries.py);
* a lecture page: a country line; the page's own paper as abstract, venue line, title and one
  line per topic; page furniture (welcome messages, log-in prompts, cards of other events, a
  line of buttons: "Share | Cite | Download PDF"); more papers of the page's venue as
  abstract + title pairs; and a footer ("Downloads", "Next from <venue>" + a title, "Similar
  lecture" + a title).

A page is read as blocks (runs of non-blank lines). Each block gets a role — country, abstract,
venue, title, topic, markup, site prompt, event prose, another event's card, footer … — with the
evidence for it (`load_papers -v 2` prints both): its shape (papers/dump_blocks.py), its place
relative to the page's paper and the abstract + title pairs, and for prose what it is about
(papers/dump_evidence.py). Prose about the event is never joined to an abstract.
"""

from .author_lines import author_names
from .dump_blocks import (
    FOOTER_NEXT,
    PRESENTATION_FORMATS,
    Block,
    footer_label,
    is_buttons,
    is_markup,
    is_menu,
    is_title_like,
    is_topic_like,
    is_venue_line,
    lecture_blocks,
    page_country,
    split_blocks,
    venue_line_name,
)
from .dump_evidence import evidence
from .dump_venues import extract_venue_metadata, venue_record
from .list_headers import HeaderError, list_header_venue
from .list_pages import parse_list_page
from .name_words import one_person
from .page_reader import PageReader
from .records import AuthorRecord, DumpError, PaperRecord, ParsedFile
from .text import fold_whitespace


def _take_while(blocks: list[Block], start: int, predicate) -> int:
    end = start
    while end < len(blocks) and predicate(blocks[end]):
        end += 1
    return end


def _page_paper_lines(reader: PageReader, position: int):
    """The page's own paper, its abstract then its venue line: (abstract blocks, venue block,
    position after them)."""
    blocks = reader.blocks
    abstract_end = _take_while(blocks, position, lambda b: not is_venue_line(b))
    if abstract_end == len(blocks):
        raise DumpError(
            reader.source,
            "not a list page (no '<venue> Papers' header) and no venue line after the "
            "lecture's abstract, so no paper can be placed",
            blocks[0].line,
        )
    if abstract_end == position:
        raise DumpError(
            reader.source,
            "the lecture page has no abstract before its venue line",
            blocks[position].line,
        )
    return blocks[position:abstract_end], blocks[abstract_end], abstract_end + 1


def _is_topic(block: Block, venue_name: str) -> bool:
    """A short line under the title, unless it is a prompt or greeting ("Please log in"),
    exclaims ("Welcome!") or names the event ("Celebrate 30 Years of EMNLP!"); the page's
    buttons are passed over before (``_past_buttons``)."""
    if not is_topic_like(block) or block.lines[0].endswith("!"):
        return False
    about = evidence(block.folded, venue_record(venue_name).acronym)
    return not about.is_event and not any(cue.startswith("names the event") for cue in about.event)


def _title_and_topics(reader: PageReader, position: int, venue_name: str):
    """(title block or None, authors, topics, presentation format, position after them)."""
    blocks = reader.blocks
    title_block, authors = None, []
    position = _past_buttons(reader, position)
    first = blocks[position] if position < len(blocks) else None
    if first is not None and is_title_like(first) and not footer_label(first):
        title_block = first
        position = _past_buttons(reader, position + 1)
        authors = _author_line(reader, position)
        position += bool(authors)
    topics, presentation_format = [], ""
    while (position := _past_buttons(reader, position)) < len(blocks) and _is_topic(
        blocks[position], venue_name
    ):
        line = blocks[position].lines[0]
        if line.casefold() in PRESENTATION_FORMATS:
            presentation_format = line.casefold()
            reader.decide(
                blocks[position], "format", evidence="a presentation format after the title"
            )
        else:
            topics.append(line)
            reader.decide(blocks[position], "topic", evidence="a short line after the title")
        position += 1
    return title_block, authors, topics, presentation_format, position


def _past_buttons(reader: PageReader, position: int) -> int:
    """The position after the lines of the page's links and buttons at ``position`` (decided
    as markup): anywhere among the title, authors and topics (after the venue line, the
    buttons were read as the title, and the title and authors as topics: an outside tester)."""
    while position < len(reader.blocks) and is_buttons(reader.blocks[position]):
        evidence = "a line of the page's links and buttons"
        reader.decide(reader.blocks[position], "markup", evidence=evidence)
        position += 1
    return position


def _author_line(reader: PageReader, position: int) -> list[AuthorRecord]:
    """The authors a line of names under the page's title lists (one alone may be a topic)."""
    blocks = reader.blocks
    block = blocks[position] if position < len(blocks) else None
    names = author_names(block.lines[0]) if block and block.is_single_line else []
    following = blocks[position + 1].lines[0] if position + 1 < len(blocks) else ""
    if len(names) < 2 and not one_person(names, following):
        return []
    reader.decide(block, "authors", evidence="a line of names under the title")
    return [AuthorRecord(name=name) for name in names]


def parse_lecture_page(reader: PageReader) -> ParsedFile:
    reader.blocks = blocks = lecture_blocks(reader.blocks)
    position, country = 0, ""
    first = blocks[0]
    if is_venue_line(first):
        # A list page whose header lacks "Papers" read as a lecture page made its venue the
        # country and its abstracts one paper: refused, with the header it needs.
        raise DumpError(
            reader.source,
            f"the first line {first.lines[0]!r} names a venue, not a country: a list page's "
            f"header is '<venue> Papers' (e.g. '{fold_whitespace(first.lines[0])} Papers')",
            first.line,
        )
    if len(blocks) > 1 and (named := page_country(first)) is not None:
        country, evidence = named, "a short first line before the abstract"
        reader.decide(first, "country" if country else "markup", evidence=evidence)
        position = 1
    page_abstract, venue_block, position = _page_paper_lines(reader, position)
    venue_name = venue_line_name(venue_block.lines[0])
    title_block, authors, topics, presentation_format, position = _title_and_topics(
        reader, position, venue_name
    )
    body_end = _take_while(blocks, position, lambda b: footer_label(b) is None)
    page_paper = reader.add_paper(
        page_abstract,
        venue_name,
        title=title_block.lines[0] if title_block else "",
        authors=authors,
        topics=topics,
        country=country,
        presentation_format=presentation_format,
        evidence="the page's paper: before the first venue line",
    )
    reader.decide(venue_block, "venue", evidence="the first venue line: the page's venue")
    if title_block:
        reader.decide(title_block, "title", evidence="the line after the page's venue line")
    reader.parsed.venues.append(venue_record(venue_name))
    _read_body(reader, blocks[position:body_end], venue_name)
    _read_footer(reader, blocks[body_end:], page_paper, venue_name)
    extract_venue_metadata(blocks[position:body_end], reader.parsed.venues, venue_name)
    return reader.parsed


class _BodyReader:
    """The page's other papers among its furniture: each block's role, with its evidence.

    An abstract is prose followed by a title line (or by the footer: an untitled paper); a
    paragraph is joined to the next abstract only when nothing says it is the event's.
    """

    def __init__(self, reader: PageReader, venue_name: str):
        self.reader, self.venue_name = reader, venue_name
        self.acronym = venue_record(venue_name).acronym
        self.pending: list[Block] = []
        self.card_lines = 0  # lines of another event's card still to come

    def take_pending(self) -> list[Block]:
        """The abstract's paragraphs: leading ones that lean to the event are set aside."""
        blocks, self.pending = self.pending, []
        while len(blocks) > 1 and (about := evidence(blocks[0].folded, self.acronym)).leans_event:
            why = "more prose follows, not a title; " + about.describe()
            self.reader.decide(blocks.pop(0), "event prose", evidence=why)
        return blocks

    def flush_untitled(self) -> None:
        if self.pending:
            paper_blocks = self.take_pending()
            self.reader.add_paper(paper_blocks, self.venue_name, evidence="no title follows")

    def furniture(self, block: Block, kind: str, why: str) -> None:
        self.flush_untitled()
        self.reader.decide(block, kind, evidence=why)

    def read(self, block: Block) -> None:
        card, self.card_lines = self.card_lines, 0
        if is_venue_line(block):
            self.furniture(block, "event card", "another venue line: an event's card")
            self.card_lines = 2
        elif card and is_title_like(block):
            self.reader.decide(block, "event card", evidence="follows an event's venue line")
            self.card_lines = card - 1
        elif is_markup(block):
            self.furniture(block, "markup", "markdown heading, link or italic line")
        elif is_buttons(block):  # between an abstract and its title too: no paper's end
            self.reader.decide(block, "markup", evidence="a line of the page's links and buttons")
        elif (about := evidence(block.folded, self.acronym)).is_event:
            kind = "site prompt" if about.site_prompt else "event prose"
            self.furniture(block, kind, about.describe())
        elif is_title_like(block):
            self.title(block)
        else:
            self.pending.append(block)

    def title(self, block: Block) -> None:
        if not self.pending:
            self.reader.decide(block, "stray line", evidence="a title line with no abstract")
            return
        self.reader.add_paper(
            self.take_pending(),
            self.venue_name,
            title=block.lines[0],
            evidence="a title follows",
        )
        self.reader.decide(block, "title", evidence="follows an abstract")


def _read_body(reader: PageReader, blocks: list[Block], venue_name: str) -> None:
    """Furniture and the page's other papers: prose paragraphs followed by a title line."""
    body = _BodyReader(reader, venue_name)
    for block in blocks:
        body.read(block)
    body.flush_untitled()


def _read_footer(
    reader: PageReader, blocks: list[Block], page_paper: PaperRecord, venue_name: str
) -> None:
    expecting = None
    for block in blocks:
        label = footer_label(block)
        if label == "downloads":
            reader.decide(block, "footer", evidence="a footer label")
            expecting = None
        elif label in {"next", "similar"}:
            reader.decide(block, "footer", evidence="a footer label")
            expecting = label
            if label == "next":
                next_venue = fold_whitespace(FOOTER_NEXT.match(block.lines[0])["venue"])
                if venue_line_name(next_venue) != venue_name:
                    reader.warn(
                        block, f"footer names {next_venue}, the page's venue line {venue_name}"
                    )
        elif expecting == "similar" and is_title_like(block):
            page_paper.related_titles.append(block.lines[0])
            reader.decide(block, "related title", evidence="follows 'Similar lecture'")
            expecting = None
        elif expecting == "next" and is_title_like(block):
            reader.decide(block, "next paper", evidence="follows 'Next from'")
            expecting = None
        else:
            reader.decide(block, "markup", evidence="in the footer")


def _past_menus(reader: PageReader, blocks: list[Block]) -> list[Block]:
    """The blocks from a list page's header on, the site's menus above it decided as markup: a
    page saved with its menu ("Home | Program | Accepted Papers") was refused, the menu read
    as its header (a curator's trial page). Menus above anything else are the page's own."""
    start = _take_while(blocks, 0, is_menu)
    if not start or start == len(blocks) or not _is_header(blocks[start]):
        return blocks
    for block in blocks[:start]:
        reader.decide(block, "markup", evidence="the site's menu above the page's header")
    return blocks[start:]


def _is_header(block: Block) -> bool:
    """A list page's header, or a line refused as one (its error then names that line)."""
    try:
        return block.is_single_line and list_header_venue(block.lines[0]) is not None
    except HeaderError:
        return True


def parse_dump(text: str, source: str) -> ParsedFile:
    """Parse one dump's text. Raises DumpError when no paper can be read from it."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    blocks = split_blocks(text)
    if not blocks:
        raise DumpError(source, "the file is empty")
    reader = PageReader(source, blocks)
    reader.blocks = blocks = _past_menus(reader, blocks)
    first = blocks[0]
    try:
        header_venue = list_header_venue(first.lines[0]) if first.is_single_line else None
    except HeaderError as error:
        raise DumpError(source, str(error), first.line) from None
    parsed = parse_list_page(reader, header_venue) if header_venue else parse_lecture_page(reader)
    if not parsed.papers:
        raise DumpError(source, "no paper found")
    parsed.decisions.sort(key=lambda decision: decision.line)
    return parsed
