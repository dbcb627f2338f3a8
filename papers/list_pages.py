"""A list page's papers, each section under its own header (pure): the header names the venue
(papers/list_headers.py), its paragraphs are papers, their headings and the page's furniture
(papers/list_entries.py)."""

import re

from .author_lines import author_names, is_affiliation_line
from .dump_blocks import (
    MARKDOWN_HEADING,
    Block,
    footer_label,
    is_markup,
    labelled_fields,
    mostly_links,
)
from .dump_evidence import evidence
from .dump_venues import venue_record
from .list_entries import ListEntry, is_label, is_links_line, list_entries, unlinked
from .list_headers import list_sections
from .list_headings import markdown_heading, unemphasised
from .list_talks import without_talks
from .page_reader import PageReader
from .records import AuthorRecord, ParsedFile


def parse_list_page(reader: PageReader, venue_name: str) -> ParsedFile:
    """The papers of a list page whose header names ``venue_name``: each section's under its
    own header's venue (a page of two venues' lists put the second's papers under the first,
    its header a stray line: an outside curator)."""
    for venue, blocks in list_sections(reader.blocks, venue_name):
        _parse_section(reader, blocks, venue)
    return reader.parsed


def _parse_section(reader: PageReader, blocks: list[Block], venue_name: str) -> None:
    header, *paragraphs = labelled_fields(blocks)
    reader.decide(header, "header", f"list of {venue_name}", "a '<venue> Papers' header")
    reader.parsed.venues.append(venue_record(venue_name))
    paragraphs = without_talks(reader, paragraphs, venue_name)
    paper_blocks, in_markdown = _list_paragraphs(reader, paragraphs, venue_name)
    entries, unpaired = list_entries(paper_blocks)
    if in_markdown and not any(e.abstract and e.heading in in_markdown for e in entries):
        # Markdown headings head no abstract here: they are the page's own ("### All papers").
        for block in in_markdown:
            reader.decide(block, "markup", evidence="a markdown heading over no abstract")
        entries, unpaired = list_entries([b for b in paper_blocks if b not in in_markdown])
    formats = _format_headings(paragraphs)
    for entry in entries:
        _add_list_paper(reader, entry, venue_name, _format_of(entry, formats))
    if unpaired:
        reader.warn(
            header,
            "its titles could not be told apart from their neighbours' (neither the paragraph "
            "before nor the one after each is clearly its abstract): the abstracts are loaded "
            "without titles",
        )


def _list_paragraphs(reader: PageReader, paragraphs: list[Block], venue_name: str):
    """The paragraphs that may be papers or their headings, and which of those are markdown
    headings ("### [Title](…)" over "*Authors*"), read without their markup; the others
    decided as furniture."""
    acronym = venue_record(venue_name).acronym
    paper_blocks, in_markdown = [], []
    for block in paragraphs:
        if (block := _without_affiliations(reader, block)) is None:
            continue
        block = _names_unemphasised(_without_links(reader, block))
        if len(block.lines) > 1 and is_label(Block(block.line, block.lines[:1])):
            # "Abstract" on the line above the abstract, in its paragraph.
            reader.decide(Block(block.line, block.lines[:1]), "markup", evidence="a label")
            block = Block(block.line + 1, block.lines[1:])
        if (heading := markdown_heading(block)) is not None:
            paper_blocks.append(heading)
            in_markdown.append(heading)
        elif is_markup(block) or footer_label(block):
            reader.decide(block, "markup", evidence="markdown or a footer label")
        elif block.is_single_line and _FORMAT_HEADING.match(block.lines[0].strip()):
            reader.decide(block, "markup", evidence="a heading of the papers' format")
        elif is_label(block):
            reader.decide(block, "markup", evidence="a label, not a paper's text")
        elif (about := evidence(block.folded, acronym)).is_event:
            kind = "site prompt" if about.site_prompt else "event prose"
            reader.decide(block, kind, evidence=about.describe())
        else:
            paper_blocks.append(block)
    return paper_blocks, in_markdown


def _without_affiliations(reader: PageReader, block: Block) -> Block | None:
    """The block without its lines of affiliations after their marks ("¹University of
    Amsterdam ²Universidad de Chile"), which no record keeps; None, decided as furniture,
    for a block of them alone (it took the title's place, an outside curator)."""
    kept = [n for n, line in enumerate(block.lines) if not is_affiliation_line(line)]
    if not kept:
        reader.decide(block, "markup", evidence="the authors' affiliations")
        return None
    return Block(block.line + kept[0], tuple(block.lines[n] for n in kept))


def _without_links(reader: PageReader, block: Block) -> Block:
    """The block without its lines of links ("[PDF](…) [Code](…)"), decided as furniture, and
    its other short lines of links (a linked title, linked names) written as their text, where
    other lines remain (a paragraph of one line is left as it is): a paper's paragraph with
    such a line was markup as a whole, and the paper was left out without a word (a curator's
    trial page). A markdown heading's linked title ("### [Title](…)") is left as it is."""
    links = [
        n
        for n, line in enumerate(block.lines)
        if is_links_line(line) and not MARKDOWN_HEADING.match(line)
    ]
    if len(links) == len(block.lines) or block.is_single_line:
        return block
    for n in links:
        reader.decide(Block(block.line + n, block.lines[n : n + 1]), "markup", evidence="links")
    kept = [n for n in range(len(block.lines)) if n not in links]
    lines = [block.lines[n] for n in kept]
    lines = [
        unlinked(line) if mostly_links(line) and not MARKDOWN_HEADING.match(line) else line
        for line in lines
    ]
    return Block(block.line + kept[0], tuple(lines))


def _names_unemphasised(block: Block) -> Block:
    """The block with its authors' names in italics under a title ("*Ada Lovelace, Alan
    Turing*") as plain lines: a whole italic line made the paragraph markup, and the paper was
    left out or lost its title and authors (a curator's trial page). Other italic lines stay."""
    if block.is_single_line:
        return block
    lines = []
    for line in block.lines:
        plain = unemphasised(line)
        lines.append(plain if plain != line and author_names(plain) else line)
    return Block(block.line, tuple(lines))


# A heading naming how the papers under it are presented ("Oral Presentations", "## Posters",
# "Poster Session 2", "System Demonstrations"): they were loaded with no format, which a
# lecture page's papers have (an outside curator).
_FORMAT_HEADING = re.compile(
    r"^(?:#{1,6} *)?\**(?:system )?(oral|poster|spotlight|demo(?:nstration)?)s?"
    r"(?: (?:presentations?|papers?|sessions?|track))?(?: \d{1,3})?\**:?$",
    re.IGNORECASE,
)


def _format_headings(paragraphs: list[Block]) -> list[tuple[int, str]]:
    """[(line, presentation format)] of the section's headings naming one, in page order."""
    return [
        (block.line, {"demonstration": "demo"}.get(match[1].lower(), match[1].lower()))
        for block in paragraphs
        if block.is_single_line and (match := _FORMAT_HEADING.match(block.lines[0].strip()))
    ]


def _format_of(entry: ListEntry, formats: list[tuple[int, str]]) -> str:
    """The presentation format of the last heading naming one above the entry, or ""."""
    blocks = [block for block in (entry.heading, entry.abstract) if block is not None]
    first = min((block.line for block in blocks), default=0)
    return next((name for line, name in reversed(formats) if line < first), "")


def _add_list_paper(
    reader: PageReader, entry: ListEntry, venue_name: str, presentation_format: str = ""
) -> None:
    if entry.note is not None:
        reader.decide(entry.note, "event prose", evidence="a short paragraph among titled ones")
        return
    if entry.heading is None:
        reader.add_paper(
            [entry.abstract],
            venue_name,
            evidence="one paragraph of the list",
            presentation_format=presentation_format,
        )
        return
    if entry.abstract is None:
        no_paper = "a heading with no abstract beside it: no paper"
        reader.decide(entry.heading, "stray line", evidence=no_paper)
        if entry.authors:  # a paper's title and authors, not a session's heading: told
            reader.warn(entry.heading, f"“{entry.title}” has no abstract beside it: not loaded")
        return
    where = "above" if entry.heading.line < entry.abstract.line else "below"
    authors = [AuthorRecord(name=name) for name in entry.authors]
    for more in entry.more:
        reader.warn(more, f"a paragraph with no title, read as “{entry.title}”'s abstract going on")
    reader.add_paper(
        [entry.abstract, *entry.more],
        venue_name,
        evidence=f"one paragraph of the list, its title {where} it",
        title=entry.title,
        authors=authors,
        presentation_format=presentation_format,
    )
    with_names = " with its authors' names" if authors and entry.author_block is None else ""
    reader.decide(
        entry.heading, "title", entry.title, evidence=f"the heading {where} an abstract{with_names}"
    )
    if entry.author_block is not None:
        reader.decide(entry.author_block, "authors", evidence="a line of names under the title")
