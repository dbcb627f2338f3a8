"""The papers of a list page: abstracts alone, or each with its title and authors (pure).

A list page gives one paper per paragraph. Some sites put each paper's title above its
abstract, often with the authors on the line under the title ("Parsing Works\\nAda Lovelace,
Alan Turing"), and some put the title below. Which layout a page has is read from the page as a
whole: when it has about as many headings (a title line, perhaps with its author line) as
abstracts, the first paragraph says whether headings come first; otherwise every paragraph is an
abstract, as before, so that an abstract of one short line does not make a layout.
"""

import re
from dataclasses import dataclass, field

from .dump_blocks import Block, is_title_like

# As many headings as this share of the abstracts make a layout of titles.
_HEADINGS_PER_ABSTRACT = 0.8
_NAME_WORDS = 5
# A word of a name: capitalised ("Ana", "O'Connor", "J.", "Hakkani-Tür"), a particle ("de",
# "van", "al-"), or a name in Han, kana or Hangul ("王小明").
_CAPITALISED = re.compile(r"^[^\W\d_][\w'’.-]*$")
_PARTICLES = {"de", "del", "della", "der", "di", "da", "dos", "du", "la", "le", "van", "von"}
_PARTICLES |= {"den", "ter", "bin", "al", "el", "y", "e"}
_CJK_NAME = re.compile(r"^[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af·]{2,8}$")
_SEPARATORS = re.compile(r"\s*(?:,|;|·|\band\b|&)\s*")
# What follows a name on some sites: affiliation marks ("Ada Lovelace1,2*", "†") and the
# affiliation in brackets ("Ada Lovelace (Vienna)").
_MARK = r"[\d*†‡§¶]+"
_MARKS = re.compile(rf"\s*\([^()]{{0,80}}\)|{_MARK}(?:,{_MARK})*(?=[\s,;]|$)")


@dataclass
class ListEntry:
    """One paper of a list page: its abstract's block, and the heading's where it has one."""

    abstract: Block
    heading: Block | None = None
    title: str = ""
    authors: list[str] = field(default_factory=list)
    author_block: Block | None = None


def _is_name(text: str) -> bool:
    if _CJK_NAME.match(text):
        return True
    words = text.split()
    capitalised = [word for word in words if word[0].isupper() and _CAPITALISED.match(word)]
    particles = [word for word in words if word.lower() in _PARTICLES]
    return (
        2 <= len(words) <= _NAME_WORDS
        and len(capitalised) >= 2
        and len(capitalised) + len(particles) == len(words)
    )


def author_names(line: str) -> list[str]:
    """The names an author line lists ("Ada Lovelace, Alan Turing and Grace Hopper"), or []
    when the line is not one: each part must be a person's name."""
    if line.endswith((".", ":", "?", "!")) or len(line) > 1000:
        return []
    names = [part.strip() for part in _SEPARATORS.split(_MARKS.sub("", line))]
    names = [name for name in names if name]
    return names if names and all(_is_name(name) for name in names) else []


def _heading(block: Block) -> tuple[str, list[str]] | None:
    """(title, authors) of a heading: a title line, or a title line over an author line."""
    if is_title_like(block):
        return block.lines[0], []
    if len(block.lines) == 2 and is_title_like(Block(block.line, block.lines[:1])):
        names = author_names(block.lines[1])
        if names:
            return block.lines[0], names
    return None


def _layout(blocks: list[Block]) -> str:
    """ "above" (headings before their abstracts), "below", or "" (abstracts alone)."""
    headings = [_heading(block) is not None for block in blocks]
    abstracts = len(blocks) - sum(headings)
    if not abstracts or sum(headings) < _HEADINGS_PER_ABSTRACT * abstracts:
        return ""
    return "above" if headings[0] else "below"


def list_entries(blocks: list[Block]) -> list[ListEntry]:
    """The papers of a list page's paragraphs (its header and furniture taken out)."""
    layout = _layout(blocks)
    if not layout:
        return [ListEntry(block) for block in blocks]
    entries, position = [], 0
    while position < len(blocks):
        entry, position = _entry_at(blocks, position, layout)
        entries.append(entry)
    return entries


def _entry_at(blocks: list[Block], position: int, layout: str) -> tuple[ListEntry, int]:
    """The paper starting at ``position``, and where the next one starts."""
    block = blocks[position]
    if layout == "above":
        parts = _heading_then_abstract(blocks, position)
        if parts:
            return parts
        return ListEntry(block), position + 1
    entry = ListEntry(block)
    following = blocks[position + 1] if position + 1 < len(blocks) else None
    heading = _heading(following) if following and _heading(block) is None else None
    if heading is None:
        return entry, position + 1
    entry.heading, (entry.title, entry.authors) = following, heading
    after = blocks[position + 2] if position + 2 < len(blocks) else None
    names = author_names(after.lines[0]) if after and after.is_single_line else []
    if names and not entry.authors:
        entry.authors, entry.author_block = names, after
        return entry, position + 3
    return entry, position + 2


def _heading_then_abstract(blocks: list[Block], position: int):
    """A heading, an author line perhaps, then the abstract; None when the blocks at
    ``position`` are not that."""
    heading = _heading(blocks[position])
    if heading is None:
        return None
    title, authors = heading
    author_block, next_position = None, position + 1
    if not authors and next_position < len(blocks) and blocks[next_position].is_single_line:
        names = author_names(blocks[next_position].lines[0])
        if names and next_position + 1 < len(blocks):
            authors, author_block, next_position = names, blocks[next_position], next_position + 1
    if next_position >= len(blocks) or _heading(blocks[next_position]) is not None:
        return None
    entry = ListEntry(blocks[next_position], blocks[position], title, authors, author_block)
    return entry, next_position + 1
