"""A list page's headings (pure): a paper's title, perhaps over its authors' names and their
affiliations, in a paragraph of its own or heading its abstract's (papers/list_entries.py
pairs them with the abstracts).

A title may be written as a sentence, with a full stop after it ("… in Low-Resource
Languages."): over its authors' names, on its next line or in the next paragraph, it is read
as the title without the stop.
"""

import re

from .author_lines import author_names, clean_title
from .dump_blocks import TITLE_MAX_LENGTH, Block, is_title_like
from .name_words import looks_like_person

# A field of a paper's form under its title and authors.
_FIELD = re.compile(r"^(?:key ?words?|tl;?dr|track|session|topics?|area)\s*[:：]", re.IGNORECASE)
_HEADING_LINES = 4
# A title line ending in a word that cannot end a title goes on on the next line.
_RUNS_ON = re.compile(
    r"\b(?:a|an|and|as|at|by|for|from|in|into|of|on|or|the|to|via|with|without)$", re.IGNORECASE
)
_MARKDOWN_HEADING = re.compile(r"^#{1,6} +")
_MARKDOWN_LINK = re.compile(r"\[([^\[\]]*)\]\([^()\s]*\)")


def markdown_heading(block: Block) -> Block | None:
    """A markdown heading block ("### [Title](https://…)" over "*Ada Lovelace, Alan Turing*")
    as plain lines, which may head an abstract; None for any other block."""
    if not _MARKDOWN_HEADING.match(block.lines[0]):
        return None
    first = _MARKDOWN_LINK.sub(r"\1", _MARKDOWN_HEADING.sub("", block.lines[0]))
    rest = [unemphasised(line) for line in block.lines[1:]]
    return Block(block.line, (first.strip(), *rest))


def unemphasised(line: str) -> str:
    """A line without the emphasis around it ("*Ada Lovelace*")."""
    return line.strip("*_ ") if line[:1] in "*_" and line[-1:] in "*_" else line


def read_heading(block: Block) -> tuple[str, list[str]] | None:
    """(title, authors) of a heading: a title (its next lines too where a line runs on:
    "… for\nLow Resource Settings"), perhaps over its authors' names (on one line, or one
    per line, "Authors:" or a pictograph before them) and their affiliations (short lines
    that are not sentences), and a form's fields under them ("Keywords: …", "TL;DR: …": a
    summary's full stop made the heading prose, an outside curator); None for prose."""
    lines = tuple(line for n, line in enumerate(block.lines) if not n or not _FIELD.match(line))
    if not is_title_like(Block(block.line, lines[:1])):
        # A line of many names, longer than a title: the authors under a title (32 names made
        # a paper of their own, and the title another: an outside curator).
        names = author_names(lines[0]) if len(lines) == 1 else []
        return ("", names) if len(names) > 1 else None
    ends = [
        line for line in lines if line.endswith((".", ";", "。", "；")) and not author_names(line)
    ]
    if ends or any(len(line) > TITLE_MAX_LENGTH and not author_names(line) for line in lines):
        return None
    start = next((i for i in range(1, len(lines)) if _names_start(lines, i)), len(lines))
    authors, end = [], start
    while end < len(lines) and (names := author_names(lines[end])):
        authors, end = authors + names, end + 1
    title_end = 1  # a title goes on over lines only where a line runs on into the next
    while title_end < start and (
        _RUNS_ON.search(lines[title_end - 1]) or lines[title_end][:1].islower()
    ):
        title_end += 1
    title = clean_title(" ".join(lines[:title_end]))
    if start + len(lines) - end > _HEADING_LINES or len(title) > TITLE_MAX_LENGTH:
        return None
    return title, authors


# An abstract's first line under its heading in the same paragraph: longer than a title, a
# sentence, or labelled ("Abstract: We study …").
_ABSTRACT_LABEL = re.compile(r"^(?:abstract|summary)\s*[:：]\s*", re.IGNORECASE)


def heading_apart(block: Block) -> list[Block]:
    """A paragraph of a title, its authors' line and its abstract with no blank line between
    them, as two blocks: the heading's and the abstract's (the whole paragraph was loaded as
    an abstract, without title or authors: an outside curator); any other block alone."""
    lines = block.lines
    for start in range(2, min(len(lines), _HEADING_LINES + 2)):
        first = lines[start]
        prose = len(first) > TITLE_MAX_LENGTH or first.endswith(".")
        if _FIELD.match(first) or not (prose or _ABSTRACT_LABEL.match(first)):
            continue  # "TL;DR: It helps." is a field of the heading's form
        heading = read_heading(Block(block.line, lines[:start]))
        abstract = (_ABSTRACT_LABEL.sub("", first), *lines[start + 1 :])
        abstract = abstract if abstract[0] else abstract[1:]  # "Abstract:" on its own line
        if heading is None or not heading[1] or not abstract:
            return [block]
        return [Block(block.line, lines[:start]), Block(block.line + start, abstract)]
    return [block]


def _names_start(lines: tuple[str, ...], index: int) -> bool:
    """Whether the authors' names start at line ``index``: two names or more, or one name
    that the title's line before it does not run on into ("… for\nLow Resource Settings")."""
    names = author_names(lines[index])
    if len(names) > 1:
        return True
    return bool(names) and not _RUNS_ON.search(lines[index - 1])


def title_stops_off(blocks: list[Block]) -> list[Block]:
    """The blocks, each title ending with a full stop over its authors' names (its block's
    next line, or the next block's one line) without the stop: read as a sentence, the title
    became an untitled paper, or the names under it the title (an outside curator)."""
    read = []
    for number, block in enumerate(blocks):
        after = blocks[number + 1] if number + 1 < len(blocks) else None
        names = block.lines[1:2] or (after.lines if after and after.is_single_line else ())
        if names and _stopped_title(block.lines[0]) and _people(names[0]):
            block = Block(block.line, (block.lines[0][:-1], *block.lines[1:]))
        read.append(block)
    return read


def _stopped_title(line: str) -> bool:
    """A title's line with a full stop after it: one sentence of a title's length, not an
    ellipsis nor a line of names ("Martin Luther King Jr.")."""
    title = line[:-1]
    return (
        line.endswith(".")
        and ". " not in title
        and is_title_like(Block(0, (title,)))
        and not author_names(line)
    )


def _people(line: str) -> bool:
    """A line of authors' names: two or more, or one that reads as a person's ("Ada
    Lovelace", not "Robust Parsing")."""
    names = author_names(line)
    return len(names) > 1 or (len(names) == 1 and looks_like_person(names[0]))
