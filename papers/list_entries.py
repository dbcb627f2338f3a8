"""The papers of a list page: abstracts alone, or each with its title and authors (pure).

A list page gives one paper per paragraph. Some sites head each abstract with its title,
often with the authors (one line, or one per line) and their affiliations under it ("Parsing
Works\nAda Lovelace, Alan Turing"), and some put the title below the abstract.

A page is read as headed when it has at least two headings, half as many as its prose
paragraphs or more; where most headings carry authors, a line without any opening or closing
the page ("Back to top") is no title. Each heading is then paired with the abstract on one
side, the side chosen for the page, in this order:
1. the side that leaves no paragraph as long as its abstracts without a title (an introduction
   above the list stays alone, being short, and is a note of the page, not a paper);
2. the side pairing fewer paragraphs or titles half as long as the page's usual ones (an
   introduction as an abstract, "Back to top" as a title);
3. the side leaving fewer title-length headings without an abstract (a session's heading may
   be left so, a title not).
Failing those, no heading is paired: an abstract without a title is better than one with
another paper's, and a warning says so.

A paragraph holding a title, its authors' line and then its abstract, with no blank line
between them, is read as the heading and the abstract it is. Under the titles above, a paragraph
of prose with no title right after an abstract is that abstract going on.

Labels ("Abstract", "Keywords: …", "Poster", "Paper Slides Video") and menus are furniture. A
page with too few headings is read as abstracts alone, as before, so that an abstract of one
short line makes no layout.
"""

import re
from dataclasses import dataclass, field

from .author_lines import author_names, clean_title
from .dump_blocks import PRESENTATION_FORMATS, Block
from .list_headings import heading_apart, read_heading, title_stops_off
from .name_words import CJK_LETTERS, SESSION_WORDS, looks_like_person

# A label, not a paper's text: "Abstract", "Keywords: …", a row of link labels.
_LABEL = re.compile(r"^(?:abstract|summary|tl;?dr)\s*[:：]?$|^key ?words?\s*[:：]", re.IGNORECASE)
# An abstract's placeholder (it took a title, and the abstract above it the title below it: an
# outside tester): a label, not a paper's text.
_NO_ABSTRACT = re.compile(r"^(?:abstract (?:is )?(?:not available|n/a|tba)|no abstract)\.?$", re.I)
# An award's label over its paper ("🏆 Outstanding Paper", "Best Paper Award", "Best Short
# Paper:"): in the title's paragraph it took the title's place, or made the page's titles
# abstracts (a curator's trial page). Only award words: "Best Practices for …" is a title.
_AWARD = re.compile(
    r"^(?:(?:best|outstanding)(?: (?:long|short|theme|resource|student|demo|system|social impact))?"
    r" (?:paper|demo)s?(?: awards?)?(?: (?:runner[- ]ups?|nominees?|honou?rable mentions?))?"
    r"|honou?rable mentions?|(?:senior )?(?:area chair|sac) (?:awards?|highlights?))\s*[:：]?$",
    re.IGNORECASE,
)
# A paper's number on a conference site ("Paper #1234", "Paper ID: 42", "#517"): above the
# title in its paragraph, it took the title's place (a curator's trial page). The spaces before
# a colon go with it: two runs of spaces side by side backtracked (16 s on 40,000 spaces).
_PAPER_NUMBER = re.compile(
    r"^(?:(?:paper|submission)(?: ?(?:#|id|no\.?|number))?(?: *[:：])? *#?\d{1,6}|#\d{1,6})$",
    re.IGNORECASE,
)
_LINK_LABELS = {"paper", "pdf", "slides", "video", "code", "poster", "bib", "bibtex", "doi"}
_LINK_LABELS |= {"arxiv", "openreview", "github", "data", "demo", "abstract", "presentation"}
_LINK_LABELS |= {"project", "page", "website", "dataset", "blog", "model", "anthology", "talk"}
_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_WORD = re.compile(r"\w+")


def is_links_line(line: str) -> bool:
    """A line of links to a paper's files and pages ("[PDF](…) · [Code](…)"): each link's text
    a link's label, and at most two words besides. A linked title ("[Yoruba Translation](…)")
    or linked names are none (dropped as links, the paper lost its title: a reviewer)."""
    texts = _LINK.findall(line)
    labels = all(set(_WORD.findall(text.casefold())) <= _LINK_LABELS for text in texts)
    return bool(texts) and labels and len(_WORD.findall(_LINK.sub(" ", line))) <= 2


def unlinked(line: str) -> str:
    """The line with each markdown link written as its text."""
    return _LINK.sub(r"\1", line)


_MENU_LINES = 3
_MENU_WORDS = 2
_MENU_CHARACTERS = 24
_CJK = re.compile(rf"[{CJK_LETTERS}]")


@dataclass
class ListEntry:
    """One paper of a list page: its abstract's block, and the heading's where it has one.
    A heading without an abstract (``abstract`` None) is no paper."""

    abstract: Block | None
    heading: Block | None = None
    title: str = ""
    authors: list[str] = field(default_factory=list)
    author_block: Block | None = None
    note: Block | None = None  # a short paragraph among titled abstracts: the page's own
    more: list[Block] = field(default_factory=list)  # the abstract's next paragraphs


def is_label(block: Block) -> bool:
    """A label among a list's paragraphs ("Abstract", "Keywords: …", "Poster", "Paper Slides
    Video", an award: "Best Paper Award", a paper's number: "Paper #1234"), or a site's menu
    (lines of a word or two: "Home\nCalls\nProgram")."""
    if not block.is_single_line:
        return len(block.lines) >= _MENU_LINES and all(
            len(line.split()) <= _MENU_WORDS
            and len(line) <= _MENU_CHARACTERS
            and not _CJK.search(line)
            and not line.endswith(".")
            for line in block.lines
        )
    line = block.lines[0]
    words = line.casefold().split()
    return (
        bool(_LABEL.match(line) or _NO_ABSTRACT.match(line) or _PAPER_NUMBER.match(line))
        or bool(_AWARD.match(clean_title(line)))
        or line.casefold() in PRESENTATION_FORMATS
        or (bool(words) and set(words) <= _LINK_LABELS)
    )


def list_entries(blocks: list[Block]) -> tuple[list[ListEntry], bool]:
    """The papers of a list page's paragraphs (its header, furniture and labels taken out),
    and whether the page's headings could not be paired with its abstracts."""
    blocks = [part for block in title_stops_off(blocks) for part in heading_apart(block)]
    headings = [read_heading(block) for block in blocks]
    count = sum(heading is not None for heading in headings)
    if _one_paper(blocks, headings):
        # One paper alone, its title above its abstract as a page writes it: read as two
        # papers' paragraphs, the title became a paper, or was dropped (an outside tester).
        return _paired(blocks, headings, above=True), False
    if count < 2 or count * 2 < len(blocks) - count:
        return [ListEntry(block) for block in blocks], False
    if sum(bool(heading and heading[1]) for heading in headings) * 2 > count:
        # Where most titles carry their authors, a line without any opening or closing the
        # page ("Back to top") is no title.
        ends = {0, len(blocks) - 1}
        kept = [
            i
            for i, heading in enumerate(headings)
            if heading is None or heading[1] or i not in ends
        ]
        entries, unpaired = _pair_page([blocks[i] for i in kept], [headings[i] for i in kept])
        return _with_strays(entries, blocks, kept), unpaired
    return _pair_page(blocks, headings)


def _one_paper(blocks: list[Block], headings: list) -> bool:
    """Whether the paragraphs are one paper's: a heading of a title alone, or over one line of
    its authors' names, then prose (not two paragraphs of lines, a CJK abstract's first)."""
    if len(blocks) != 2 or headings[0] is None or headings[1] is not None:
        return False
    lines = len(blocks[0].lines)
    return lines == 1 or (lines == 2 and bool(headings[0][1]))


def _with_strays(entries: list[ListEntry], blocks: list[Block], kept: list[int]):
    """The entries, with each block left out of ``kept`` as a heading of no paper, in order."""
    kept_set = set(kept)
    strays = [ListEntry(None, blocks[i]) for i in range(len(blocks)) if i not in kept_set]
    return sorted(
        entries + strays, key=lambda entry: (entry.heading or entry.abstract or entry.note).line
    )


def _pair_page(blocks: list[Block], headings: list) -> tuple[list[ListEntry], bool]:
    """list_entries of ``blocks`` read as ``headings`` (a heading's (title, authors), or None
    for prose)."""
    above = _continued(_paired(blocks, headings, above=True))
    below = _paired(blocks, headings, above=False)
    above_loses, below_loses = _loses_abstracts(above), _loses_abstracts(below)
    if above_loses != below_loses:
        return _notes_apart(below if above_loses else above), False
    above_odd, below_odd = _odd_pairs(above), _odd_pairs(below)
    if not above_loses and above_odd != below_odd:
        return _notes_apart(above if above_odd < below_odd else below), False
    above_strays, below_strays = _stray_titles(above), _stray_titles(below)
    if not above_loses and above_strays != below_strays:
        return _notes_apart(above if above_strays < below_strays else below), False
    unpaired = [
        ListEntry(block) if heading is None else ListEntry(None, block)
        for block, heading in zip(blocks, headings, strict=True)
    ]
    return unpaired, True


# A paragraph of prose that may go on an abstract: a sentence or more, not a page's note
# ("Last updated: August 2, 2024").
_PARAGRAPH_WORDS = 10


def _continued(entries: list[ListEntry]) -> list[ListEntry]:
    """The entries, a paragraph of prose with no title, right after a titled abstract, read as
    that abstract's next paragraph: a two-paragraph abstract left the page's titles unpaired,
    and every paper of the page lost its title and authors (an outside curator)."""
    kept: list[ListEntry] = []
    for entry in entries:
        previous = kept[-1] if kept else None
        if (
            entry.heading is None
            and entry.abstract is not None
            and previous is not None
            and previous.heading is not None
            and previous.abstract is not None
            and _words(entry.abstract) >= _PARAGRAPH_WORDS
            and entry.abstract.lines[-1].endswith((".", "!", "?", ")"))
        ):
            previous.more.append(entry.abstract)
        else:
            kept.append(entry)
    return kept


def _odd_pairs(entries: list[ListEntry]) -> int:
    """The pairs whose abstract or title is half as long as the page's usual one or less: a
    page's introduction read as an abstract, a line like "Back to top" as a title (a real
    title may be short too: "CPopQA: Ranking Cultural Concept Popularity by LLMs" is 7 words
    among titles of 12)."""
    usual_abstract, usual_title = _usual(entries, _abstract_words), _usual(entries, _title_words)
    return sum(
        _words(entry.abstract) * 2 <= usual_abstract or _title_words(entry) * 2 <= usual_title
        for entry in entries
        if entry.abstract and entry.heading
    )


def _stray_titles(entries: list[ListEntry]) -> int:
    """The headings left without an abstract that are as long as the page's titles (two thirds
    of the usual length or more): titles lost, not a session's heading or "Back to top"."""
    usual = _usual(entries, _title_words)
    return sum(
        _title_words(entry) * 3 >= usual * 2
        for entry in entries
        if entry.heading and entry.abstract is None
    )


def _notes_apart(entries: list[ListEntry]) -> list[ListEntry]:
    """The entries, a paragraph without a title half as long as the page's abstracts or less
    (an introduction, "Last updated: August 2, 2024") made a note of the page, not a paper."""
    usual = _usual(entries, _abstract_words)
    return [
        ListEntry(None, note=entry.abstract)
        if entry.heading is None and entry.abstract and _words(entry.abstract) * 2 <= usual
        else entry
        for entry in entries
    ]


def _usual(entries: list[ListEntry], length) -> int:
    """The median of ``length`` over the paired entries: of their abstracts' words
    (_abstract_words) or their titles' (_title_words); 0 for none."""
    lengths = sorted(length(entry) for entry in entries if entry.abstract and entry.heading)
    return lengths[len(lengths) // 2] if lengths else 0


def _words(block: Block) -> int:
    return len(" ".join(block.lines).split())


def _abstract_words(entry: ListEntry) -> int:
    return _words(entry.abstract)


def _title_words(entry: ListEntry) -> int:
    return len(entry.title.split())


def _loses_abstracts(entries: list[ListEntry]) -> bool:
    """Whether a pairing leaves a paragraph as long as its abstracts without a title (half
    their median length or more): a lost title, not an introduction."""
    typical = _usual(entries, _abstract_words)
    if not typical:
        return True
    return any(
        _words(e.abstract) * 2 >= typical for e in entries if e.abstract and e.heading is None
    )


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
    that block is one (a heading of one line that lists two people or more, or one person
    between a title and prose); and where the next starts."""
    if entry.authors or position >= len(blocks) or headings[position] is None:
        return entry, position
    block = blocks[position]
    names = author_names(block.lines[0]) if block.is_single_line else []
    if len(names) < 2 and not _one_author(entry, names, headings[position + 1 :]):
        return entry, position  # one name alone could be the next paper's title
    entry.authors, entry.author_block = names, block
    return entry, position + 1


def _one_author(entry: ListEntry, names: list[str], after: list) -> bool:
    """Whether one name alone, on its line under the entry's title and over prose, is its
    author: a person's name under a title, not a programme's heading ("Oral Session 1" over
    "Robust Parsing"). Read as the title, it took the paper's, which was dropped, without a
    word (an outside curator)."""
    if len(names) != 1 or not after or after[0] is not None or not looks_like_person(names[0]):
        return False
    return not SESSION_WORDS.intersection(entry.title.casefold().split())
