"""A list page's sections of talks (pure): keynotes, invited talks, tutorials and panels, which
a conference's programme lists among its papers but which are not papers.

A section of talks starts at its heading on a line of its own ("Invited Talk", "Keynote
Speakers", "## Tutorials", "Panel Discussion") and runs to the next heading of papers or
sessions ("Oral Session 2", "Accepted Papers") or the page's next list header. Its paragraphs
are left out, and a warning says so: read as a list's, a keynote became a paper, its
"Speaker: …" line a title (an outside curator). A talk may instead be named in its own title
("Keynote: The Future of NLP", "## Invited Talk — …"): that paragraph, and the abstract in the
next one where it has none, are left out with a warning. On a tutorials volume's page ("ACL
2024 Tutorial Papers"), its tutorials are its papers.
"""

import re

from .dump_blocks import SENTENCE_ENDS, TITLE_MAX_LENGTH, Block, is_title_like
from .page_reader import PageReader

# Singular "Keynote", "Tutorial" and "Panel" are also a paper's format ("Poster", "Oral"):
# alone they head a section only as a markdown heading or in bold.
_TALKS = (
    r"keynotes|keynote (?:talks?|speakers?|speeches|address(?:es)?|lectures?)|invited talks?"
    r"|invited speakers?|tutorials|tutorial sessions?|panels|panel discussions?|plenary talks?"
)
_TALKS_HEADING = re.compile(rf"(?:{_TALKS})\s*:?", re.IGNORECASE)
_MARKED_TALKS_HEADING = re.compile(
    rf"(?:#{{1,6}} +(?:\*\*)?|\*\*)(?:{_TALKS}|keynote|tutorial|panel)\s*:?(?:\*\*)?",
    re.IGNORECASE,
)
_PAPERS_HEADING = re.compile(
    r"\b(?:papers?|sessions?|posters?|orals?|tracks?|findings|main conference|demos?)\b", re.I
)
# A talk's title naming what it is before a colon or a dash ("Keynote: …", "Invited Talk —
# …"): each became a paper, its speaker the author (a curator's trial page). "Panel" alone
# is a paper's name as often ("PANEL: A Dataset of Panel Discussions").
_TALK_TITLE = re.compile(
    r"(?:#{1,6} +)?(?:\*\*)?(?:keynote(?: (?:talk|address|lecture|speech))?|invited talk"
    r"|plenary talk|panel discussion|tutorial)(?: \d{1,2})? *(?:[:：]| [-–—]) *\S",
    re.IGNORECASE,
)
_HEADING_WORDS = 6
_MARKDOWN_HEADING = re.compile(r"^(#{1,6}) +")


def without_talks(reader: PageReader, blocks: list[Block], venue_name: str) -> list[Block]:
    """The blocks but those of the sections of talks, which are decided and warned of."""
    kept, talks, level, talk_abstract = [], None, 0, False
    for block in blocks:
        if _talks_heading(block, venue_name):
            talks, level = block.lines[0].strip("#* :"), _markdown_level(block)
            reader.decide(block, "talks", talks, evidence="a heading of talks, not papers")
            reader.warn(block, f"“{talks}” heads talks, not papers: its paragraphs are left out")
        elif talks is not None and not _ends_talks(block, level):
            reader.decide(block, "talk", evidence=f"under “{talks}”: not a paper")
        elif _talk_title(block, venue_name):
            talks, title = None, block.lines[0].strip("#* ")
            reader.decide(block, "talk", evidence="a talk's title, not a paper's")
            reader.warn(block, f"“{title}” is a talk, not a paper: left out")
            # Its abstract in the next paragraph where its own has none, and the talk is a
            # heading or names its speaker below its title: a line alone may be a page's
            # with each abstract above its title, whose next paragraph is the next paper's.
            talk_abstract = not any(map(_is_prose, block.lines)) and (
                not block.is_single_line or bool(_MARKDOWN_HEADING.match(block.lines[0]))
            )
            continue
        elif talk_abstract and _is_prose(block.lines[0]):
            reader.decide(block, "talk", evidence="the abstract of the talk above it")
        else:
            talks = None
            kept.append(block)
        talk_abstract = False
    return kept


def _is_prose(line: str) -> bool:
    """A line of an abstract: a sentence's end, or longer than a title (a paper's paragraph
    after a talk starts with its title: not taken as the talk's)."""
    return len(line) > TITLE_MAX_LENGTH or line.endswith(SENTENCE_ENDS)


def _talk_title(block: Block, venue_name: str) -> bool:
    """Whether the block's first line is a talk's title naming it ("Keynote: …")."""
    line = block.lines[0].strip()
    if "tutorial" in line.casefold() and "tutorial" in venue_name.casefold():
        return False  # a tutorials volume's page: its tutorials are its papers
    return bool(_TALK_TITLE.match(line))


def _markdown_level(block: Block) -> int:
    """The level of a markdown heading ("## …": 2), 0 for any other block."""
    marks = _MARKDOWN_HEADING.match(block.lines[0])
    return len(marks[1]) if marks else 0


def _ends_talks(block: Block, level: int) -> bool:
    """Whether the block ends a section of talks whose heading is a markdown heading of
    ``level`` (0: none): a heading of papers or sessions, or a markdown heading of the same
    level or a higher one ("## Session 3: Parsing" after "## Invited Talk": every paper after
    it was left out, an outside tester)."""
    own = _markdown_level(block)
    return _papers_heading(block) or 0 < own <= level


def _talks_heading(block: Block, venue_name: str) -> bool:
    if not block.is_single_line:
        return False
    line = block.lines[0].strip()
    if "tutorial" in line.casefold() and "tutorial" in venue_name.casefold():
        return False  # a tutorials volume's page: its tutorials are its papers
    return bool(_TALKS_HEADING.fullmatch(line) or _MARKED_TALKS_HEADING.fullmatch(line))


def _papers_heading(block: Block) -> bool:
    """A short heading of papers or sessions ("Oral Session 2", "## Accepted Papers"), ending
    a section of talks."""
    line = _MARKDOWN_HEADING.sub("", block.lines[0]).strip("* ")
    return (
        block.is_single_line
        and is_title_like(Block(block.line, (line,)))
        and len(line.split()) <= _HEADING_WORDS
        and bool(_PAPERS_HEADING.search(line))
    )
