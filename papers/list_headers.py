"""A list page's header, and the venue it names (pure: no database).

Conference sites word the header many ways: "ACL 2025 Papers", "ACL 2025 论文列表", "Papers of
EMNLP 2024", "List of ACL 2025 Long Papers", "Accepted Papers at NAACL 2025". A volume named
beside the venue is the venue the Anthology gives that volume, so that a page's papers join the
Anthology's: "ACL 2024 Short Papers" is "ACL 2024 (Short Papers)", "EMNLP 2024 Findings Papers"
is "Findings of EMNLP 2024", and "Long", "Main Conference", "Accepted" or "Oral" papers are the
main volume's ("ACL 2024").
"""

import re

from .dump_blocks import VENUE_NAME
from .text import fold_whitespace

_PAPERS = r"(?:Accepted Papers|Papers|Paper List|List of Papers|论文列表|论文)"
# "<venue> Papers" and "Papers of <venue>" (each with words about the list around it).
_VENUE_FIRST = re.compile(rf"^(?P<name>.*?)\s*{_PAPERS}\s*$", re.IGNORECASE)
_PAPERS_FIRST = re.compile(
    rf"^(?:(?:The )?List of |Accepted )?{_PAPERS} (?:of|at|from|in|for) (?:the )?(?P<name>.+)$",
    re.IGNORECASE,
)
_LIST_OF = re.compile(r"^(?:The )?(?:List of |Accepted )", re.IGNORECASE)
_VENUE_AND_VOLUME = re.compile(rf"^(?P<venue>{VENUE_NAME})(?P<volume>(?: [^ ]+){{0,4}})$")

# The words of a volume ("long", "system demonstration", "industry track"), each lowercased and
# without its plural's s, and the Anthology's label of that volume ("" for the main one).
_MAIN_WORDS = {"", "main", "main conference", "main track", "long", "accepted", "accepted long"}
_MAIN_WORDS |= {"oral", "poster", "long and short", "conference"}
_VOLUME_LABELS = {
    "short": "Short Papers",
    "accepted short": "Short Papers",
    "demo": "Demos",
    "system demonstration": "Demos",
    "demonstration": "Demos",
    "industry": "Industry Track",
    "industry track": "Industry Track",
    "student research workshop": "SRW",
    "srw": "SRW",
    "tutorial": "Tutorials",
}
# The labels a venue's name may end with: "ACL 2024 (Short Papers)".
VOLUME_LABELS = frozenset(_VOLUME_LABELS.values())


class HeaderError(ValueError):
    """A list header that names no venue, or a volume the loader does not know."""


def _volume_words(text: str) -> str:
    words = text.strip(" ()[]:-–—").casefold().split()
    return " ".join(re.sub(r"(?<=[a-z]{3})s$", "", word) for word in words)


def _venue_of(name: str, header: str) -> str:
    match = _VENUE_AND_VOLUME.match(name)
    if match is None:
        raise HeaderError(
            f"the list header {header!r} names no venue (expected e.g. 'ACL 2025 Papers')"
        )
    venue, volume = match["venue"], _volume_words(match["volume"])
    if volume in _MAIN_WORDS:
        return venue
    if volume == "finding":
        return f"Findings of {venue}"
    if volume in _VOLUME_LABELS:
        return f"{venue} ({_VOLUME_LABELS[volume]})"
    raise HeaderError(
        f"the list header {header!r} names {venue}, but not a volume of it the loader knows "
        f"({match['volume'].strip()!r}); name the main volume ('{venue} Papers') or one of: "
        "Short, Findings, Demo, Industry Track, Student Research Workshop, Tutorial Papers"
    )


def list_header_venue(first_line: str) -> str | None:
    """The venue a list page's header names, or None when the line is no list header.

    Raises HeaderError for a header naming no venue, or a volume not known.
    """
    line = fold_whitespace(first_line)
    match = _PAPERS_FIRST.match(line) or _VENUE_FIRST.match(line)
    if not match:
        return None
    name = _LIST_OF.sub("", match["name"].strip(" :-–—"))
    return _venue_of(name, first_line.strip())
