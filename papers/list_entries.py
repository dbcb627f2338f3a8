"""The papers of a list page: abstracts alone, or each with its title and authors (pure).

A list page gives one paper per paragraph. Some sites head each abstract with its title,
often with the authors (and their affiliations) on the lines under it ("Parsing Works\\nAda
Lovelace, Alan Turing"), and some put the title below the abstract. A page is read as headed
when it has at least two headings, half as many as its prose paragraphs or more. Each heading
is then paired with the abstract on one side, the side chosen for the page as the one that
leaves no paragraph as long as its abstracts without a title (an introduction above the list
stays alone, short), else the one leaving clearly fewer words of prose without a title; when
neither side is better, the page's ends decide (headings first: the last paragraph is an
abstract; headings last: the first is one), and when they disagree no heading is paired: an
abstract without a title is better than one with another paper's. Labels ("Abstract",
"Keywords: …", "Poster", "Paper Slides Video") are furniture. A page with too few headings is
read as abstracts alone, as before, so that an abstract of one short line makes no layout.
"""

import re
import unicodedata
from dataclasses import dataclass, field

from .dump_blocks import PRESENTATION_FORMATS, TITLE_MAX_LENGTH, Block, is_title_like
from .text import fold_whitespace

_NAME_WORDS = 5
# A word of a name: capitalised ("Ana", "O'Connor", "J.", "Hakkani-Tür"), a particle ("de",
# "van", "d'Almeida"), in a script without capitals ("محمد"), or a name in Han, kana or Hangul.
_CAPITALISED = re.compile(r"^[^\W\d_][\w'’.-]*$")
_PARTICLES = {"de", "del", "della", "der", "di", "da", "dos", "du", "la", "le", "van", "von"}
_PARTICLES |= {"den", "ter", "bin", "al", "el", "y", "e"}
_ELIDED_PARTICLE = re.compile(r"^(?:d|l|dell|dall)['’][^\W\d_][\w'’.-]*$")
# Words of titles and programme headings, never of a person's name ("Large Language Models").
_NOT_NAME_WORDS = {"models", "model", "language", "languages", "learning", "neural", "network"}
_NOT_NAME_WORDS |= {"networks", "translation", "machine", "data", "evaluation", "analysis"}
_NOT_NAME_WORDS |= {"generation", "detection", "retrieval", "reasoning", "benchmark", "dataset"}
_NOT_NAME_WORDS |= {"revisited", "towards", "survey", "system", "systems", "abstract", "session"}
_NOT_NAME_WORDS |= {"available", "track", "oral", "poster", "workshop", "tutorial", "keynote"}
_NOT_NAME_WORDS |= {"paper", "papers", "et", "al", "al."}
_CJK_NAME = re.compile(r"^[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af·]{2,8}$")
# The line is folded first: no run of spaces for these to scan again and again.
_SEPARATORS = re.compile(r",|;|·| and |&")
# What follows a name on some sites: affiliation marks ("Ada Lovelace1,2*", "¹", "♠") and the
# affiliation in brackets ("Ada Lovelace (Vienna)").
_MARK = r"[\d¹²³\u2070-\u2079*†‡§¶♠♣♥♦♡♢♤♧]+"
_MARKS = re.compile(rf" ?\([^()]{{0,80}}\)|{_MARK}(?:,{_MARK})*(?=[ ,;]|$)")
# A title's wrapping: bold ("**Title**"), a number ("12. Title") or a bullet ("- Title").
_TITLE_WRAPPING = re.compile(r"^(?:\d{1,4}[.)] |[-•] )?(?:\*\*|__)?(.*?)(?:\*\*|__)?$")
# A label, not a paper's text: "Abstract", "Keywords: …", a row of link labels.
_LABEL = re.compile(r"^(?:abstract|summary|tl;?dr)\s*[:：]?$|^key ?words?\s*[:：]", re.IGNORECASE)
_LINK_LABELS = {"paper", "pdf", "slides", "video", "code", "poster", "bib", "bibtex", "doi"}
_LINK_LABELS |= {"arxiv", "openreview", "github", "data", "demo", "abstract", "presentation"}
_HEADING_LINES = 4
_MARKDOWN_HEADING = re.compile(r"^#{1,6} +")
_MARKDOWN_LINK = re.compile(r"\[([^\[\]]*)\]\([^()\s]*\)")

_MENU_LINES = 3
_MENU_WORDS = 2
# A side leaving at most this share of the other side's untitled words is clearly better.
_CLEARLY_FEWER = 0.5


@dataclass
class ListEntry:
    """One paper of a list page: its abstract's block, and the heading's where it has one.
    A heading without an abstract (``abstract`` None) is no paper."""

    abstract: Block | None
    heading: Block | None = None
    title: str = ""
    authors: list[str] = field(default_factory=list)
    author_block: Block | None = None


def _is_name_word(word: str) -> bool:
    return (
        (word[0].isupper() and bool(_CAPITALISED.match(word)))
        or word.lower() in _PARTICLES
        or bool(_ELIDED_PARTICLE.match(word))
        or (word.isalpha() and word.lower() == word.upper())
    )


def _is_name(text: str, alone: bool) -> bool:
    """A person's name: two to five name words, or one in Han, kana or Hangul; in a list of
    names, one word too ("Mausam"), but not an acronym ("BERT")."""
    if _CJK_NAME.match(text):
        return True
    words = text.split()
    if len(words) == 1 and (alone or len(text) < 2 or text.isupper()):
        return False
    return (
        len(words) <= _NAME_WORDS
        and all(_is_name_word(word) for word in words)
        and not any(word.casefold() in _NOT_NAME_WORDS for word in words)
    )


def author_names(line: str) -> list[str]:
    """The names an author line lists ("Ada Lovelace, Alan Turing and Grace Hopper"), or []
    when the line is not one: each part must be a person's name."""
    line = fold_whitespace(line[:1001])
    if line.endswith((".", ":", "?", "!")) or len(line) > 1000:
        return []
    parts = (part.strip() for part in _SEPARATORS.split(_MARKS.sub("", line)))
    names = [part.removeprefix("and ") for part in parts]
    names = [name for name in names if name]
    alone = len(names) == 1
    return names if names and all(_is_name(name, alone) for name in names) else []


def is_label(block: Block) -> bool:
    """A label among a list's paragraphs ("Abstract", "Keywords: …", "Poster", "Paper Slides
    Video"), or a site's menu (lines of a word or two: "Home\nCalls\nProgram")."""
    if not block.is_single_line:
        return len(block.lines) >= _MENU_LINES and all(
            len(line.split()) <= _MENU_WORDS and not line.endswith(".") for line in block.lines
        )
    line = block.lines[0]
    words = line.casefold().split()
    return (
        bool(_LABEL.match(line))
        or line.casefold() in PRESENTATION_FORMATS
        or (bool(words) and set(words) <= _LINK_LABELS)
    )


def markdown_heading(block: Block) -> Block | None:
    """A markdown heading block ("### [Title](https://…)" over "*Ada Lovelace, Alan Turing*")
    as plain lines, which may head an abstract; None for any other block."""
    if not _MARKDOWN_HEADING.match(block.lines[0]) or len(block.lines) > _HEADING_LINES:
        return None
    first = _MARKDOWN_LINK.sub(r"\1", _MARKDOWN_HEADING.sub("", block.lines[0]))
    rest = [_unemphasised(line) for line in block.lines[1:]]
    return Block(block.line, (first.strip(), *rest))


def _unemphasised(line: str) -> str:
    """A line without the emphasis around it ("*Ada Lovelace*")."""
    return line.strip("*_ ") if line[:1] in "*_" and line[-1:] in "*_" else line


def _heading(block: Block) -> tuple[str, list[str]] | None:
    """(title, authors) of a heading: a title's lines, perhaps over a line of authors and
    lines of their affiliations (short lines that are not sentences); None for prose."""
    if not is_title_like(Block(block.line, block.lines[:1])) or len(block.lines) > _HEADING_LINES:
        return None
    if any(len(line) > TITLE_MAX_LENGTH or line.endswith((".", ";")) for line in block.lines):
        return None
    for index, line in enumerate(block.lines[1:], start=1):
        names = author_names(line)
        if names:
            return _clean_title(" ".join(block.lines[:index])), names
    title = fold_whitespace(" ".join(block.lines))
    return (_clean_title(title), []) if len(title) <= TITLE_MAX_LENGTH else None


def _clean_title(line: str) -> str:
    """The title without its wrapping: bold, a number, a bullet, a pictograph ("📄 ")."""
    line = "".join(char for char in line if unicodedata.category(char) != "So")
    return _TITLE_WRAPPING.match(fold_whitespace(line))[1].strip()


def list_entries(blocks: list[Block]) -> tuple[list[ListEntry], bool]:
    """The papers of a list page's paragraphs (its header, furniture and labels taken out),
    and whether the page's headings could not be paired with its abstracts."""
    headings = [_heading(block) for block in blocks]
    count = sum(heading is not None for heading in headings)
    if count < 2 or count * 2 < len(blocks) - count:
        return [ListEntry(block) for block in blocks], False
    above = _paired(blocks, headings, above=True)
    below = _paired(blocks, headings, above=False)
    above_loses, below_loses = _loses_abstracts(above), _loses_abstracts(below)
    if above_loses != below_loses:
        return (below if above_loses else above), False
    above_words, below_words = _untitled_words(above), _untitled_words(below)
    if above_words < below_words and above_words <= _CLEARLY_FEWER * below_words:
        return above, False
    if below_words < above_words and below_words <= _CLEARLY_FEWER * above_words:
        return below, False
    first_is_heading, last_is_heading = headings[0] is not None, headings[-1] is not None
    if first_is_heading and not last_is_heading:
        return above, False
    if last_is_heading and not first_is_heading:
        return below, False
    unpaired = [
        ListEntry(block) if heading is None else ListEntry(None, block)
        for block, heading in zip(blocks, headings, strict=True)
    ]
    return unpaired, True


def _words(block: Block) -> int:
    return len(" ".join(block.lines).split())


def _loses_abstracts(entries: list[ListEntry]) -> bool:
    """Whether a pairing leaves a paragraph as long as its abstracts without a title (half
    their median length or more): a lost title, not an introduction."""
    titled = sorted(_words(e.abstract) for e in entries if e.abstract and e.heading)
    if not titled:
        return True
    typical = titled[len(titled) // 2]
    return any(
        _words(e.abstract) * 2 >= typical for e in entries if e.abstract and e.heading is None
    )


def _untitled_words(entries: list[ListEntry]) -> int:
    return sum(_words(e.abstract) for e in entries if e.abstract and e.heading is None)


def _paired(blocks: list[Block], headings: list, above: bool) -> list[ListEntry]:
    """Each heading paired with the prose paragraph after it (``above``) or before it, a line
    of names between heading and abstract (above) or after the heading (below) its authors."""
    entries, position = [], 0
    while position < len(blocks):
        entry, position = _entry_at(blocks, headings, position, above)
        entries.append(entry)
    return entries


def _entry_at(blocks, headings, position: int, above: bool) -> tuple[ListEntry, int]:
    """The entry starting at ``position``, and where the next one starts."""
    heading, block = headings[position], blocks[position]
    if heading is None:
        if above or position + 1 >= len(blocks) or headings[position + 1] is None:
            return ListEntry(block), position + 1
        entry = _headed(block, blocks[position + 1], headings[position + 1])
        return _with_author_line(entry, blocks, headings, position + 2)
    if not above:
        return ListEntry(None, block, *heading), position + 1
    entry, after = _with_author_line(_headed(None, block, heading), blocks, headings, position + 1)
    if after < len(blocks) and headings[after] is None:
        entry.abstract = blocks[after]
        return entry, after + 1
    return ListEntry(None, block, *heading), position + 1


def _headed(abstract: Block | None, heading_block: Block, heading) -> ListEntry:
    title, authors = heading
    return ListEntry(abstract, heading_block, title, authors)


def _with_author_line(entry: ListEntry, blocks, headings, position: int):
    """The entry with the line of names at ``position`` as its authors, when it has none and
    that block is one (a heading of one line that lists people); and where the next starts."""
    if entry.authors or position >= len(blocks) or headings[position] is None:
        return entry, position
    block = blocks[position]
    names = author_names(block.lines[0]) if block.is_single_line else []
    if not names:
        return entry, position
    entry.authors, entry.author_block = names, block
    return entry, position + 1
