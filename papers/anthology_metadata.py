"""An Anthology file's metadata: element text, Anthology IDs, and the venue each volume names.

Pure: no Django, no database. Each volume becomes a :class:`VenueRecord` named from its
metadata: the main volume of a conference "EMNLP 2024" (a joint event named so in its
booktitle, "LREC-COLING 2024"); the other volumes "ACL 2024 (Demos)", "NAACL 2024 (Short
Papers)", "ACL 2024 (SRW)", "EMNLP 2024 (Industry Track)", "ACL 2024 (Tutorials)",
"Findings of ACL 2024", each with ``parent`` = the main conference's name; journal volumes
"TACL 2023" (no parent). Each keeps what citations read of the volume: booktitle, address,
month, publisher and editors.
"""

from __future__ import annotations

import re

from .records import VenueRecord

ANTHOLOGY_URL = "https://aclanthology.org/"
# The shapes of the Anthology's own paper IDs (as ``anthology_id`` writes them, lowercased).
ANTHOLOGY_ID = r"(?:\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[a-z]\d{2}-\d{4,5})"
_PAPER_ID = re.compile(ANTHOLOGY_ID, re.IGNORECASE)
# A new-style collection ID ("2024.emnlp"); old ones look like "P19" or "W18".
_NEW_STYLE_ID = re.compile(r"^\d{4}\.[a-z0-9]+$", re.IGNORECASE)
_OLD_STYLE_ID = re.compile(r"^[A-Z]\d{2}$")
_WHITESPACE = re.compile(r"\s+")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_ENDS_IN_COMMAND = re.compile(r"\\[A-Za-z]+$")
_COMMAND_END = object()  # where "{}" goes if a letter follows

# Volume kinds, from the volume ID's suffix ("2024.acl-demos" -> "demos").
_MAIN_SUFFIXES = {"main", "long", "1", "papers"}
_KIND_BY_SUFFIX = {
    "short": "Short Papers",
    "demo": "Demos",
    "demos": "Demos",
    "srw": "SRW",
    "tutorial": "Tutorials",
    "tutorials": "Tutorials",
    "industry": "Industry Track",
}
# The same kinds as booktitles spell them, for volumes whose ID says nothing.
_KIND_BY_BOOKTITLE = [
    (re.compile(r"student research workshop", re.I), "SRW"),
    (re.compile(r"demonstration", re.I), "Demos"),
    (re.compile(r"short papers", re.I), "Short Papers"),
    (re.compile(r"tutorial", re.I), "Tutorials"),
    (re.compile(r"industry", re.I), "Industry Track"),
    (re.compile(r"long papers|main volume", re.I), ""),
]
# The labels a volume's venue name ends with: "ACL 2024 (Short Papers)".
VOLUME_LABELS = frozenset(_KIND_BY_SUFFIX.values())
# "(Volume 2: Short Papers)" or a trailing ": System Demonstrations" in a booktitle.
_BOOKTITLE_PART = re.compile(r"\((?:Volume \d+: )?([^()]+)\)\s*$|:\s*([^:]+)$")
# A joint event named in the booktitle: "(LREC-COLING 2024)".
_JOINT_EVENT = re.compile(r"\(([A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+) (\d{4})\)")
_ISSUE = re.compile(r"\bIssue (\d+)\b")
_PROCEEDINGS_PREFIX = re.compile(r"^(?:Proceedings of (?:the )?)", re.I)
_MAIN_VOLUME_PART = re.compile(
    r"\s*(?:\((?:Volume \d+: )?(?:Long Papers|Main Volume)\)|:\s*Main Volume)$", re.I
)
_UNINFORMATIVE_VENUES = {"ws", "findings"}


def fold(text: str) -> str:
    """Whitespace runs folded to one space, ends stripped."""
    return _WHITESPACE.sub(" ", text).strip()


def _raw_text(element) -> str:
    """The element's text, markup dropped. A <tex-math> that ends in a command and runs into
    the next word ("text<tex-math>\\rightarrow</tex-math>image", or "<tex-math>\\infty
    </tex-math><fixed-case>B</fixed-case>ench") gets an empty group after it, which ends the
    command as in LaTeX: flattened without one, the text read as the unknown command
    "\\rightarrowimage"."""
    pieces: list = []
    _gather(element, pieces)
    if pieces and pieces[-1] is _COMMAND_END:
        pieces.pop()
    return "".join("{}" if piece is _COMMAND_END else piece for piece in pieces)


def _gather(element, pieces: list) -> None:
    """The text of ``element`` and its children (not its tail) appended to ``pieces``; after
    maths ending in a command, an empty group when a letter comes next. A stack, not
    recursion: markup nested thousands deep is the file's problem, not a crash."""
    stack = [(element, False)]
    while stack:
        node, closing = stack.pop()
        if not closing:
            # In maths a tie is a space: "<tex-math>Great~Truths~are ~Always ~Simple:" showed
            # "are ~Always ~Simple" (an outside researcher); outside, "~100" is "about 100".
            maths = node.tag == "tex-math"
            _append(pieces, (node.text or "").replace("~", " ") if maths else node.text)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node))
            continue
        if node is element:
            continue
        if node.tag == "tex-math" and _ENDS_IN_COMMAND.search("".join(node.itertext())):
            pieces.append(_COMMAND_END)
        _append(pieces, node.tail)


def _append(pieces: list, text: str | None) -> None:
    """Append ``text``; a pending command end stays only if a letter follows it."""
    if not text:
        return
    if pieces and pieces[-1] is _COMMAND_END and not text[0].isalpha():
        pieces.pop()
    pieces.append(text)


def element_text(element) -> str:
    """All the text of an element and its children (markup dropped, text kept), folded."""
    if element is None:
        return ""
    return fold(_raw_text(element))


def paragraph_text(element) -> str:
    """Like element_text, but blank lines in the source stay paragraph breaks."""
    if element is None:
        return ""
    raw = _raw_text(element)
    paragraphs = (fold(part) for part in _PARAGRAPH_BREAK.split(raw))
    return "\n\n".join(part for part in paragraphs if part)


def is_anthology_id(text: str | None) -> bool:
    """Whether an external ID is an Anthology paper's ("2024.emnlp-main.3", "P19-1001")."""
    return bool(text and _PAPER_ID.fullmatch(text))


def canonical_anthology_id(raw: str) -> str:
    """The ID as papers store it: new style lowercase, old style with its capital letter."""
    lowered = raw.lower()
    return lowered if "." in lowered else lowered.upper()


_VERSION = re.compile(r"v[0-9]+$", re.IGNORECASE)


def unversioned_anthology_id(raw: str) -> str:
    """The paper's ID of an address naming one version of its PDF ("2023.acl-long.1v2"), as
    papers store it."""
    return canonical_anthology_id(_VERSION.sub("", raw))


def canonical_external_id(raw: str) -> str:
    """An external ID as given by hand (a JSON line's), as the collection writes it: without
    the spaces around it, an Anthology ID in its own case ("2024.TACL-1.3 " is 2024.tacl-1.3:
    either made a second paper)."""
    stripped = raw.strip()
    canonical = canonical_anthology_id(stripped)
    return canonical if is_anthology_id(canonical) else stripped


def anthology_id(collection_id: str, volume_id: str, paper_id: str | None = None) -> str:
    """The Anthology ID of a volume or paper: "2024.emnlp-main.3", or old-style "P19-1001"."""
    if _OLD_STYLE_ID.match(collection_id) and volume_id.isdigit():
        # Pre-2020 IDs (the Anthology's own rule): W-collections use two digits per part.
        wide = (
            collection_id[0] == "W"
            or collection_id == "C69"
            or (collection_id == "D19" and int(volume_id) >= 5)
        )
        if wide:
            base = f"{collection_id}-{int(volume_id):02d}"
            return base + (f"{int(paper_id):02d}" if paper_id and paper_id.isdigit() else "")
        base = f"{collection_id}-{int(volume_id):01d}"
        return base + (f"{int(paper_id):03d}" if paper_id and paper_id.isdigit() else "")
    base = f"{collection_id}-{volume_id}"
    return f"{base}.{paper_id}" if paper_id is not None else base


def _meta_text(meta, tag: str) -> str:
    return element_text(meta.find(tag))


def _year(meta, collection_id: str) -> int | None:
    text = _meta_text(meta, "year")
    if text.isdigit():
        return int(text)
    prefix = collection_id.split(".", 1)[0]
    return int(prefix) if len(prefix) == 4 and prefix.isdigit() else None


def _booktitle_part(booktitle: str) -> str:
    """The part of a booktitle naming the volume: "Short Papers", "System Demonstrations"."""
    match = _BOOKTITLE_PART.search(booktitle)
    if not match:
        return ""
    return fold(match.group(1) or match.group(2) or "")


def _volume_kind(suffix: str, booktitle: str) -> str:
    """The label of a non-main volume ("Demos", "SRW" …); "" for the main volume."""
    if suffix in _MAIN_SUFFIXES:
        return ""
    if suffix in _KIND_BY_SUFFIX:
        return _KIND_BY_SUFFIX[suffix]
    part = _booktitle_part(booktitle)
    label = _kind_in_words(part) if part else None
    return (part or suffix.upper()) if label is None else label


def _kind_in_words(words: str) -> str | None:
    for pattern, label in _KIND_BY_BOOKTITLE:
        if pattern.search(words):
            return label
    return None


def volume_label(words: str) -> str | None:
    """The label of the volume ``words`` name as a volume ID's suffix ("demo", "srw") or a
    booktitle ("System Demonstrations") names it; "" for the main volume; None for none: a
    list page's header reads its volume so (papers/list_headers.py)."""
    return _KIND_BY_SUFFIX.get(words.casefold(), _kind_in_words(words))


def _full_name(booktitle: str, main: bool) -> str:
    """The booktitle without "Proceedings of the" (and, for a main volume, its volume part)."""
    name = _PROCEEDINGS_PREFIX.sub("", booktitle).strip()
    if main:
        name = _MAIN_VOLUME_PART.sub("", name).strip()
    return name


def _volume_names(collection_id: str, volume_id: str) -> tuple[str, str]:
    """(prefix, suffix) of a volume ID, lowercased: "findings-emnlp" → ("findings", "emnlp").

    The volume ID says most: "acl-long", "findings-emnlp", "tacl-1"; old-style IDs ("P19",
    volume "1") say nothing, and the <venue> tags name the conference instead.
    """
    if not _NEW_STYLE_ID.match(collection_id):
        return "", volume_id.lower()
    prefix, _, suffix = volume_id.partition("-")
    if not suffix:  # "2024.acl" volume "long" (the usual shape)
        prefix, suffix = collection_id.split(".", 1)[1], volume_id
    return prefix.lower(), suffix.lower()


def _findings_event(prefix: str, suffix: str, booktitle: str, informative, year):
    """(acronym, name) of the conference a Findings volume belongs to: "findings-acl" names
    it, else the booktitle's tail does."""
    event = suffix if prefix == "findings" else ""
    if not event:
        tail = booktitle.rsplit(":", 1)[-1]
        event = fold(re.sub(r"\d{4}", "", tail)).split("-")[0].lower()
    acronym = (event or (informative[0] if informative else "findings")).upper()
    return acronym, f"{acronym} {year}" if year else acronym


def _editors(meta) -> str:
    """The volume's editors, one per line, "Family, Given" as citations write them."""
    names = []
    for editor in meta.findall("editor"):
        family, given = element_text(editor.find("last")), element_text(editor.find("first"))
        if family or given:
            names.append(f"{family}, {given}" if family and given else family or given)
    return "\n".join(names)


def make_venue(collection_id: str, volume_id: str, volume_type: str, meta) -> VenueRecord:
    """The venue of one volume, named from its metadata (see the module docstring)."""
    booktitle = _meta_text(meta, "booktitle")
    year = _year(meta, collection_id)
    venue_tags = [element_text(tag).lower() for tag in meta.findall("venue")]
    prefix, suffix = _volume_names(collection_id, volume_id)
    informative = [tag for tag in venue_tags if tag not in _UNINFORMATIVE_VENUES]
    venue = VenueRecord(
        name="",
        year=year,
        location=_meta_text(meta, "address"),
        month=_meta_text(meta, "month"),
        booktitle=booktitle,
        publisher=_meta_text(meta, "publisher"),
        editors=_editors(meta),
        external_id=anthology_id(collection_id, volume_id),
    )
    if prefix == "findings" or (not prefix and "findings" in venue_tags):
        venue.acronym, venue.parent = _findings_event(prefix, suffix, booktitle, informative, year)
        venue.name = f"Findings of {venue.parent}"
        venue.full_name = _full_name(booktitle, main=False)
        return venue
    acronym = (prefix or (informative[0] if informative else collection_id)).upper()
    joint = _JOINT_EVENT.search(booktitle)
    if joint and acronym in joint.group(1).upper().split("-"):
        acronym = joint.group(1)
    event = f"{acronym} {year}" if year else acronym
    if volume_type == "journal":
        issue = _ISSUE.search(booktitle)
        venue.name = f"{event} (Issue {issue.group(1)})" if issue else event
    else:
        kind = _volume_kind(suffix, booktitle)
        venue.name = f"{event} ({kind})" if kind else event
        venue.parent = event if kind else ""
    venue.acronym = acronym
    venue.full_name = _full_name(booktitle, main=not venue.parent)
    return venue
