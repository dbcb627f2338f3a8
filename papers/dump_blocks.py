"""The blocks of a page dump and their shapes: the evidence the dump reader assembles papers from.

A page is read as blocks (runs of non-blank lines). Each block is classified by its shape —
prose, a title-like line, a venue line, markdown furniture, a footer label (what prose is
about is papers/dump_evidence.py's). Pure: no database.

Every pattern here runs on untrusted text, so each must take time linear in it: "-" joins the
parts of a word ("LREC-COLING") and only a space separates words, so a line splits into words
one way; words and word counts are bounded, so each start position costs a bounded amount; and
a scan for a closing bracket stops at the next opening one.
"""

import re
from dataclasses import dataclass

from .text import fold_whitespace

YEAR = r"(?:19|20)\d{2}"
_ACRONYM_WORD = r"[A-Z][A-Za-z0-9&.\-]{0,40}"
_VENUE_WORDS = rf"{_ACRONYM_WORD}(?: (?:{_ACRONYM_WORD}|of|the|on|and|for)){{0,12}}?"
VENUE_NAME = rf"{_VENUE_WORDS} {YEAR}"
# A venue line may say it is the main conference's ("EMNLP 2024 Main Conference", "ACL 2025
# (Main Conference)"): the venue is the same. Not read as one, the page's venue became the next
# event card's and its paper a junk one.
_MAIN_CONFERENCE = (
    r"(?: (?:Main Conference|Main Track|\(Main Conference\)|\(Main Track\)|\(Main\)))?"
)
# "NAACL 2024 Findings" (an underline.io card) is the Anthology's "Findings of NAACL 2024".
_VENUE_LINE = re.compile(
    rf"^(?P<acronym>{_VENUE_WORDS}) (?P<year>{YEAR})(?:{_MAIN_CONFERENCE}|(?P<findings> Findings))$"
)
VENUE_IN_TEXT = re.compile(rf"\b{VENUE_NAME}\b")

MONTHS = {
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


def month_number(name: str) -> int | None:
    """1 to 12 for a month as sources write it ("July", "Jul.", "sept"), else None."""
    return MONTHS.get(name.lower().rstrip("."))


MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
DAY = r"\d{1,2}(?:st|nd|rd|th)?"
DATE_IN_TEXT = re.compile(rf"\b{MONTH} {DAY}\b", re.IGNORECASE)
_MARKDOWN_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
# Words outside its links that make a line with a link prose, not a line of links.
PROSE_WORDS = 12
MARKDOWN_HEADING = re.compile(r"^#{1,6}\s")
_ITALIC_LINE = re.compile(r"^\*[^*].*[^*]\*$|^_[^_].*[^_]_$")
SITE_CHROME = re.compile(
    r"\b(?:log ?in|sign ?in|sign up|event page|registered with|register for|registration"
    r"|access credentials|please register)\b",
    re.IGNORECASE,
)

_FOOTER_DOWNLOADS = re.compile(r"^downloads?$", re.IGNORECASE)
FOOTER_NEXT = re.compile(r"^next from\s+(?P<venue>.+)$", re.IGNORECASE)
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


# A heading's underline ("ACL 2023 Papers" over "=========="), markdown's other way to write
# one: it ends the heading's block, which is then a line of its own (the header was refused
# as none, the page "not a list page": an outside tester).
_UNDERLINE = re.compile(r"={3,}|-{3,}")


def split_blocks(text: str) -> list[Block]:
    """The text's runs of non-blank lines, an underline ending one and left out."""
    blocks, current, start = [], [], 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if line and not _UNDERLINE.fullmatch(line):
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


def venue_line_name(line: str) -> str:
    """The venue a venue line names: "EMNLP 2024 Main Conference" is EMNLP 2024, "NAACL 2024
    Findings" is Findings of NAACL 2024."""
    match = venue_in_line(line)
    if match is None:
        return fold_whitespace(line)
    findings = "Findings of " if match["findings"] else ""
    return f"{findings}{match['acronym']} {match['year']}"


def is_venue_line(block: Block) -> bool:
    return block.is_single_line and venue_in_line(block.lines[0]) is not None


# A markdown table's rows and the line under its head ("| Time | Title | Authors |", "|---|").
_TABLE_ROW = re.compile(r"\s*\|.*\|\s*")
_TABLE_RULE_CHARACTERS = frozenset(" \t|:-")


def is_markup(block: Block) -> bool:
    """Markdown furniture: headings, whole italic lines, lines of links ("[Read more](…)"),
    not prose with a link in it (71 Anthology abstracts link their code as
    "[source code](https://github.com/…)", and were dropped as markup), and tables (a
    programme's schedule, loaded whole as one paper's abstract: an outside curator)."""
    table = len(block.lines) > 1 and all(_TABLE_ROW.fullmatch(line) for line in block.lines)
    rule = any("---" in line and set(line) <= _TABLE_RULE_CHARACTERS for line in block.lines)
    return (table and rule) or any(
        MARKDOWN_HEADING.match(line) or _ITALIC_LINE.match(line) or mostly_links(line)
        for line in block.lines
    )


def mostly_links(line: str) -> bool:
    """A line with a markdown link and fewer than PROSE_WORDS words outside its links."""
    if not _MARKDOWN_LINK.search(line):
        return False
    return len(_MARKDOWN_LINK.sub(" ", line).split()) < PROSE_WORDS


def footer_label(block: Block) -> str | None:
    first = block.lines[0]
    if _FOOTER_DOWNLOADS.match(first):
        return "downloads"
    if FOOTER_NEXT.match(first):
        return "next"
    if _FOOTER_SIMILAR.match(first):
        return "similar"
    return None


# A line of a page's links and buttons: short items apart by bars or dots, one a site's action
# or link ("Share  |  Cite  |  Download PDF  |  Slides", "Add to calendar · Watch recording"),
# or one such button alone ("Download PDF"; not any line led by the verb: "Watch Your Step" may
# be a title). Under a lecture page's title they were read as its topics, public ones (an
# outside curator).
_BUTTONS_APART = re.compile(r" [|·•] ")
_BUTTON_WORDS = 4
_SITE_ACTION = re.compile(
    r"^(?:share|cite|download|add to|watch|bookmark|save|print|export|subscribe|follow|like"
    r"|pdf|slides|video|code|poster|bibtex)\b",
    re.IGNORECASE,
)
_BUTTON = re.compile(
    r"(?:share|cite|bookmark|download(?: pdf| paper| slides| video)?|add to calendar"
    r"|watch(?: the)? (?:recording|video|talk))",
    re.IGNORECASE,
)


def is_buttons(block: Block) -> bool:
    """Whether the block is a line of the page's links and buttons, not a paper's text."""
    if not block.is_single_line:
        return False
    items = _BUTTONS_APART.split(fold_whitespace(block.lines[0]))
    if len(items) == 1:
        return bool(_BUTTON.fullmatch(items[0]))
    short = all(0 < len(item.split()) <= _BUTTON_WORDS for item in items)
    return short and any(_SITE_ACTION.match(item) for item in items)


_MENU_ITEMS = 3


def is_menu(block: Block) -> bool:
    """Whether the block is a site's menu: three items or more of a few words each, on a line
    apart by bars or dots ("Home | Program | Accepted Papers") or one per line."""
    lines = block.lines
    items = _BUTTONS_APART.split(_MARKDOWN_LINK.sub(r"\1", fold_whitespace(lines[0])).strip())
    items = items if block.is_single_line else [line.strip() for line in lines]
    return len(items) >= _MENU_ITEMS and all(
        0 < len(item.split()) <= _BUTTON_WORDS and not item.endswith(SENTENCE_ENDS)
        for item in items
    )


# What ends a sentence or a clause, not a title: Chinese and Japanese write "。" and "，" (their
# abstracts were read as titles, and a page of them as headings with no abstract: an outside
# curator).
SENTENCE_ENDS = (".", ":", ";", ",", "。", "：", "；", "，", "．")


def is_title_like(block: Block) -> bool:
    """One line, not too long, not ending like a sentence (titles may end with ? or !)."""
    if not block.is_single_line or is_markup(block) or footer_label(block):
        return False
    line = block.lines[0]
    return len(line) <= TITLE_MAX_LENGTH and not line.endswith(SENTENCE_ENDS)


def is_topic_like(block: Block) -> bool:
    if not is_title_like(block) or is_venue_line(block):
        return False
    line = block.lines[0]
    return len(line) <= TOPIC_MAX_LENGTH and len(line.split()) <= TOPIC_MAX_WORDS


# A lecture page's line labelled as a form's field ("Venue: EMNLP 2024", "Title: …"): read as
# the field's line. Unread, "Venue: EMNLP 2024" was no venue line, and the page's furniture up
# to the next one ("ACL 2025") became its abstract and venue (an outside tester).
_FIELD_LABEL = re.compile(
    r"^(?:country|venue|conference|title|topics?|keywords?|authors?)\s*[:：]\s*(?=\S)",
    re.IGNORECASE,
)


def _country_line(line: Block, following: Block) -> bool:
    continued = following.lines[0][:1].islower()
    return is_title_like(line) and len(line.lines[0]) <= COUNTRY_MAX_LENGTH and not continued


_TITLE_FIELD = re.compile(r"^title\s*[:：]\s*(?=\S)", re.IGNORECASE)
_ABSTRACT_FIELD = re.compile(r"^abstract\s*[:：]\s*(?=\S)", re.IGNORECASE)


def labelled_fields(blocks: list[Block]) -> list[Block]:
    """A list page's blocks with each paper written as a form's fields in one block ("Title:
    …", "Authors: …", "Abstract: …") as the two its layout writes: its heading (title and
    authors, the title's label off) and its abstract (its label off). Read as one paragraph,
    a page of such papers was one untitled paper (an outside tester)."""
    read = []
    for block in blocks:
        lines = block.lines
        at = next((n for n, line in enumerate(lines) if n and _ABSTRACT_FIELD.match(line)), 0)
        if not at or not _TITLE_FIELD.match(lines[0]):
            read.append(block)
            continue
        heading = (_TITLE_FIELD.sub("", lines[0]), *lines[1:at])
        abstract = (_ABSTRACT_FIELD.sub("", lines[at]), *lines[at + 1 :])
        read += [Block(block.line, heading), Block(block.line + at, abstract)]
    return read


def lecture_blocks(blocks: list[Block]) -> list[Block]:
    """A lecture page's blocks as the parser reads them: its first block split into its lines
    when one of them is a venue line (a page saved without its blank lines, its own paper one
    block, was read all as the abstract: an outside tester), each labelled field's line
    without its label."""
    first = blocks[0]
    lines = [Block(first.line + n, (line,)) for n, line in enumerate(first.lines)]
    venue = next((n for n, line in enumerate(lines) if n and is_venue_line(line)), None)
    if venue is not None:
        # The country line alone (as parse_lecture_page reads one, and not a line the next
        # continues: an abstract wrapped early), the abstract's lines (however wrapped) one
        # block, the rest a block each.
        country = int(venue > 1 and _country_line(lines[0], lines[1]))
        abstract = Block(first.line + country, first.lines[country:venue])
        blocks = [*lines[:country], abstract, *lines[venue:], *blocks[1:]]
    return [
        Block(block.line, (_FIELD_LABEL.sub("", block.lines[0]),))
        if block.is_single_line and _FIELD_LABEL.match(block.lines[0])
        else block
        for block in blocks
    ]


# A lecture page's first line that is its session or format, not a country ("Poster Session
# 3", "Online": the public list offered ?country=Poster+Session+3, an outside curator).
_NO_COUNTRY = re.compile(
    r"\d|\b(?:session|online|virtual|hybrid|in-person|poster|oral|track|room|hall|day|keynote"
    r"|tutorial|workshop|demo|panel|plenary|spotlight|main|conference|findings|lightning|talk"
    r"|live|recorded|on-demand|abstract|award|paper)s?\b",
    re.IGNORECASE,
)


def page_country(first: Block) -> str | None:
    """The country a lecture page's first block names as its short first line, "" where it
    names the page's session or format instead; None for any other block."""
    if not is_title_like(first) or len(first.lines[0]) > COUNTRY_MAX_LENGTH:
        return None
    return "" if _NO_COUNTRY.search(first.lines[0]) else first.lines[0]
