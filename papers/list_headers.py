"""A list page's header, and the venue it names (pure: no database).

Conference sites word the header many ways: "ACL 2025 Papers", "ACL 2025 论文列表", "Papers of
EMNLP 2024", "Accepted Papers - ACL 2024", "ACL 2024: Long Papers", "## **ACL 2024 Papers** 🎉",
"ACL2024 accepted papers". The header is read without its markdown, symbols and separators; the
venue is the one named before or after the word "Papers"; and a volume named beside it is the
venue the Anthology gives that volume, so that a page's papers join the Anthology's: "ACL 2024
Short Papers" is "ACL 2024 (Short Papers)", "EMNLP 2024 Findings Papers" and "ACL 2024 Findings"
are "Findings of EMNLP 2024" and "Findings of ACL 2024", and "Long", "Main Conference",
"Accepted" or "Oral" papers are the main volume's ("ACL 2024").
"""

import re
import unicodedata

from .anthology_metadata import volume_label
from .dump_blocks import VENUE_NAME
from .text import fold_whitespace

_PAPERS = re.compile(r"\b(?:Paper List|Papers|Paper)\b|论文列表|论文", re.IGNORECASE)
_PREPOSITION = re.compile(r"^(?:(?:of|at|from|in|for) )?(?:the )?", re.IGNORECASE)
_LIST_OF = re.compile(
    r"^(?:The )?(?:List of |Accepted |Papers? (?:of|at|from|in|for) (?:the )?)*", re.IGNORECASE
)
_VENUE_IN = re.compile(rf"\b{VENUE_NAME}\b")
_HEADER_LENGTH = 150
_VENUE_AND_VOLUME = re.compile(rf"^(?P<venue>{VENUE_NAME})(?P<volume>(?: [^ ]+){{0,5}})$")

# What a header is read without: markdown around it, separators between its parts (a hyphen
# inside a word stays: "LREC-COLING"), an acronym run into its year ("ACL2024") or in small
# letters ("acl 2024"), and the Anthology's long name of a Findings volume.
_MARKDOWN = re.compile(r"^#{1,6} |\*\*|__")
_SEPARATORS = re.compile(r" [-–—] |[:|()\[\]/,]| [-–—]$|^[-–—] ")
_GLUED_YEAR = re.compile(r"\b([A-Za-z]{2,12})((?:19|20)\d{2})\b")
# The series written in small letters ("acl 2024"): only these, not any word before a year.
_SERIES = "acl|emnlp|naacl|eacl|aacl|coling|lrec|tacl|conll|semeval|ijcnlp|lrec-coling"
_SMALL_ACRONYM = re.compile(rf"\b({_SERIES})(?= (?:19|20)\d{{2}}\b)")
_FINDINGS_LONG = re.compile(
    r"^Findings of (?:the )?(?:Association for Computational Linguistics )?", re.IGNORECASE
)
_PROCEEDINGS = re.compile(r"^Proceedings of (?:the )?", re.IGNORECASE)
_BRACKETED_VENUE = re.compile(rf"\(\s*({VENUE_NAME})\s*\)")
# Words that start no venue's name: "Papers, July 2024", "Papers: Session A 2024".
_NOT_A_VENUE = re.compile(
    r"^(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Session|Track|Volume|Day|Week|Updated|Last|Poster|Oral)\b",
    re.IGNORECASE,
)

# The words of a volume, lowercased, without plural s and fillers ("accepted", "list of"); the
# Anthology's label of that volume is papers/anthology_metadata.py's (volume_label).
_FILLERS = {"accepted", "list", "of", "the", "all", "paper", "录用"}
# Words of the main volume, in any combination ("Main Conference: Long Papers"), and beside
# another volume's ("Main Conference Short Papers" are the short ones).
_MAIN = {"main", "conference", "track", "long", "oral", "poster", "主会", "长文"}
_MAIN_WORDS = {"", "long and short"}
# A volume's words in Chinese, as the Anthology's suffixes say them.
_IN_ENGLISH = {"短文": "short"}
_KNOWN = "Short, Findings, Demo, Industry Track, Student Research Workshop, Tutorial Papers"


class HeaderError(ValueError):
    """A list header that names no venue, or a volume the loader does not know."""


def _plain(line: str) -> str:
    """The header without markdown, symbols (emoji) and separators."""
    line = _MARKDOWN.sub(" ", fold_whitespace(line))
    line = "".join(" " if unicodedata.category(char)[0] == "S" else char for char in line)
    line = fold_whitespace(_SEPARATORS.sub(" ", fold_whitespace(line)))
    line = _GLUED_YEAR.sub(r"\1 \2", line)
    line = _SMALL_ACRONYM.sub(lambda match: match[1].upper(), line)
    return _FINDINGS_LONG.sub("Findings of ", _PROCEEDINGS.sub("", line))


def _volume_words(text: str) -> str:
    words = [re.sub(r"(?<=[a-z]{3})s$", "", word) for word in text.casefold().split()]
    words = [word for word in words if word not in _FILLERS]
    if " ".join(words) in _MAIN_WORDS:
        return ""
    return " ".join(word for word in words if word not in _MAIN)


def _venue_of(name: str, more_volume: str, header: str) -> str:
    match = _VENUE_AND_VOLUME.match(name)
    if match is None or _NOT_A_VENUE.match(name):
        raise HeaderError(
            f"the list header {header!r} names no venue (expected e.g. 'ACL 2025 Papers')"
        )
    venue = match["venue"]
    volume = _volume_words(f"{more_volume} {match['volume']}")
    if volume in _MAIN_WORDS:
        return venue
    label = volume_label(_IN_ENGLISH.get(volume, volume))
    if not venue.startswith("Findings of "):
        if volume == "finding":
            return f"Findings of {venue}"
        if label is not None:
            return f"{venue} ({label})" if label else venue
    raise HeaderError(
        f"the list header {header!r} names {venue}, but not a volume of it the loader knows "
        f"({volume!r}); name the main volume ('{venue} Papers') or one of: {_KNOWN}"
    )


def list_header_venue(first_line: str) -> str | None:
    """The venue a list page's header names, or None when the line is no list header.

    Raises HeaderError for a header naming no venue, or a volume not known.
    """
    line = _plain(first_line)
    papers = list(_PAPERS.finditer(line))
    header = first_line.strip()
    if not papers:
        return _volume_alone(line, header)
    if len(line) > _HEADER_LENGTH or line.endswith("."):
        return None  # a sentence saying "paper": a lecture page's abstract
    before, after = line[: papers[-1].start()].strip(), line[papers[-1].end() :].strip()
    after = _PREPOSITION.sub("", after)
    try:
        if _VENUE_IN.search(after):  # "Accepted Papers at ACL 2024", "Findings Papers of ACL …"
            return _venue_of(_LIST_OF.sub("", after), before, header)
        return _venue_of(_LIST_OF.sub("", before), after, header)
    except HeaderError:
        # The event's long name with its venue in brackets: "The 62nd Annual Meeting of the
        # ACL (ACL 2024) – Papers" was refused as naming no venue (an outside curator).
        if bracketed := _BRACKETED_VENUE.search(header):
            return _venue_of(bracketed[1], before.partition(bracketed[1])[2], header)
        raise


def _volume_alone(line: str, header: str) -> str | None:
    """The venue of a header naming a volume without "Papers" ("ACL 2024 Findings", "NAACL
    2025 Industry Track") or a venue's proceedings ("Proceedings of ACL 2024"); None for any
    other line (a lecture page's first line)."""
    proceedings = _PROCEEDINGS.match(header)
    match = _VENUE_AND_VOLUME.match(line)
    if match is None:
        # "Proceedings of the 62nd Annual Meeting of the ACL (ACL 2024)"
        bracketed = _BRACKETED_VENUE.search(header) if proceedings else None
        return _venue_of(bracketed[1], "", header) if bracketed else None
    volume = _volume_words(match["volume"])
    if not volume and proceedings:  # "Proceedings of ACL 2024"
        return _venue_of(line, "", header)
    if volume != "finding" and not volume_label(_IN_ENGLISH.get(volume, volume)):
        return None
    return _venue_of(line, "", header)


def list_sections(blocks: list, venue: str) -> list[tuple[str, list]]:
    """A list page's sections, each from its header: the first's venue ``venue``, each later
    line that is a list's header ("ACL 2023 Papers", "ACL 2023 Short Papers") another's, and
    so is a heading naming another volume of the page's conference alone ("Short Papers")."""
    sections: list[tuple[str, list]] = [(venue, [blocks[0]])]
    for block in blocks[1:]:
        line = block.lines[0] if len(block.lines) == 1 else None
        named = line and (_header_venue(line) or _volume_heading(line, venue))
        if named and named != sections[-1][0]:
            sections.append((named, [block]))
        else:
            sections[-1][1].append(block)
    return sections


# A heading of one volume of the page's conference, without its name ("Short Papers",
# "## Findings", "Findings of ACL", "Main Conference Papers"): under "ACL 2024 Accepted
# Papers", the short and Findings papers were loaded as the main volume's (a curator's trial
# page).
_VOLUME_HEADING = re.compile(
    r"(?:(?P<length>long|short) papers?|(?P<volume>findings|main conference|main track"
    r"|industry track|student research workshop)(?: papers?)?)"
    r"(?: of (?:the )?(?P<acronym>[A-Za-z-]+))?",
    re.IGNORECASE,
)
# The page's own conference: one of the main series, its main volume or one of its volumes
# (not a workshop's page, "WMT 2023", where "Findings" named a volume no one publishes, nor a
# Findings page, whose "Long Papers" are its own: a reviewer).
_CONFERENCE = re.compile(rf"^(?P<conference>(?:{_SERIES}) \d{{4}})(?: \([^()]+\))?$", re.I)


def _volume_heading(line: str, venue: str) -> str | None:
    """The venue a heading of a volume alone names: the volume of ``venue``'s conference."""
    match = _VOLUME_HEADING.fullmatch(_plain(line))
    page = _CONFERENCE.match(venue)
    if match is None or page is None:
        return None
    conference = page["conference"]
    if match["acronym"] and match["acronym"].casefold() != conference.split()[0].casefold():
        return None  # another conference's volume: not this page's
    return _header_venue(f"{conference} {match['length'] or match['volume']} Papers")


def _header_venue(line: str) -> str | None:
    try:
        return list_header_venue(line)
    except HeaderError:
        return None
