"""ACL Anthology XML: recognise a file by its content and parse it into plain records.

Pure: no Django, no database. One Anthology file is a ``<collection id="2024.emnlp">`` of
``<volume>`` elements; each volume has a ``<meta>`` (booktitle, address, month, year, venue
tags), an optional ``<frontmatter>`` (not a paper) and its ``<paper>`` elements.

- Each volume becomes a :class:`VenueRecord` named from its metadata: the main volume of a
  conference "EMNLP 2024" (a joint event named so in its booktitle, "LREC-COLING 2024"); the
  other volumes "ACL 2024 (Demos)", "NAACL 2024 (Short Papers)", "ACL 2024 (SRW)",
  "EMNLP 2024 (Industry Track)", "ACL 2024 (Tutorials)", "Findings of ACL 2024", each with
  ``parent`` = the main conference's name; journal volumes "TACL 2023" (no parent).
- Each ``<paper>`` becomes a :class:`PaperRecord` whose ``external_id`` is the Anthology ID
  ("2024.emnlp-main.3"): title and abstract flattened to their text (``<fixed-case>``,
  ``<tex-math>``, ``<i>``, ``<url>`` … kept as text), authors in order, pages, DOI, URL,
  bibkey and the line where the paper starts.

The XML is untrusted: it is streamed with defusedxml's iterparse (entity declarations and
external entities are refused, so no "billion laughs" and no file or network access), each
paper is cleared once read (memory stays bounded by one volume of empty elements), and every
XML error becomes a :class:`DumpError` naming the file and the line.
"""

from __future__ import annotations

import os
import re
from collections import deque
from typing import IO
from xml.etree.ElementTree import TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError
from defusedxml.ElementTree import iterparse as defused_iterparse

from .records import AuthorRecord, Decision, DumpError, PaperRecord, ParsedFile, VenueRecord

ANTHOLOGY_URL = "https://aclanthology.org/"

# A new-style collection ID ("2024.emnlp"); old ones look like "P19" or "W18".
_NEW_STYLE_ID = re.compile(r"^\d{4}\.[a-z0-9]+$", re.IGNORECASE)
_OLD_STYLE_ID = re.compile(r"^[A-Z]\d{2}$")

# What comes before the root element: a BOM, the XML declaration, comments, a DOCTYPE.
_PROLOG = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*",
    re.DOTALL,
)
_ROOT = re.compile(rb"^<collection\b[^>]*?\bid\s*=\s*[\"']")
_DOCTYPE_COLLECTION = re.compile(rb"^<!DOCTYPE\s+collection\b")

_WHITESPACE = re.compile(r"\s+")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")

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


def looks_like_anthology(head: bytes) -> bool:
    """True when these first bytes of a file open an Anthology ``<collection id=...>``.

    Recognised by content, not by file name: after an optional byte-order mark, XML
    declaration and comments, the root element must be ``<collection`` with an ``id``
    attribute (or a DOCTYPE naming ``collection``, so that a hostile DTD reaches the
    Anthology parser and is refused there rather than misread by another parser).
    """
    match = _PROLOG.match(head)
    rest = head[match.end() :] if match else head
    return bool(_ROOT.match(rest) or _DOCTYPE_COLLECTION.match(rest))


def fold(text: str) -> str:
    """Whitespace runs folded to one space, ends stripped."""
    return _WHITESPACE.sub(" ", text).strip()


def element_text(element) -> str:
    """All the text of an element and its children (markup dropped, text kept), folded."""
    if element is None:
        return ""
    return fold("".join(element.itertext()))


def paragraph_text(element) -> str:
    """Like element_text, but blank lines in the source stay paragraph breaks."""
    if element is None:
        return ""
    raw = "".join(element.itertext())
    paragraphs = (fold(part) for part in _PARAGRAPH_BREAK.split(raw))
    return "\n\n".join(part for part in paragraphs if part)


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


class _LineTrackingParser(DefusedXMLParser):
    """defusedxml's parser, remembering the line where each <paper> and <volume> starts.

    Papers and volumes do not nest in themselves, so their end events come in the order of
    their starts: a queue of start lines per tag pairs each end event with its line.
    """

    tracked = ("paper", "volume")

    def __init__(self):
        # The C TreeBuilder (as defusedxml's own iterparse uses): much faster than the default.
        super().__init__(
            target=TreeBuilder(), forbid_dtd=False, forbid_entities=True, forbid_external=True
        )
        self.start_lines: dict[str, deque[int]] = {tag: deque() for tag in self.tracked}

    def _start(self, tag, attr_list):
        lines = self.start_lines.get(tag)
        if lines is not None:
            lines.append(self.parser.CurrentLineNumber)
        return super()._start(tag, attr_list)

    @property
    def line(self) -> int:
        return self.parser.CurrentLineNumber


class _Volume:
    """What the parser knows of the volume being read."""

    def __init__(self, volume_id: str, kind: str, line: int | None):
        self.volume_id = volume_id
        self.type = kind
        self.line = line
        self.venue: VenueRecord | None = None
        self.papers = 0


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
    for pattern, label in _KIND_BY_BOOKTITLE:
        if part and pattern.search(part):
            return label
    return part or suffix.upper()


def _full_name(booktitle: str, main: bool) -> str:
    """The booktitle without "Proceedings of the" (and, for a main volume, its volume part)."""
    name = _PROCEEDINGS_PREFIX.sub("", booktitle).strip()
    if main:
        name = _MAIN_VOLUME_PART.sub("", name).strip()
    return name


def make_venue(collection_id: str, volume: _Volume, meta) -> VenueRecord:
    """The venue of one volume, named from its metadata (see the module docstring)."""
    booktitle = _meta_text(meta, "booktitle")
    year = _year(meta, collection_id)
    venue_tags = [element_text(tag).lower() for tag in meta.findall("venue")]
    external_id = anthology_id(collection_id, volume.volume_id)

    # The volume ID says most: "acl-long", "findings-emnlp", "tacl-1"; old-style IDs
    # ("P19", volume "1") say nothing, and the <venue> tags name the conference instead.
    if _NEW_STYLE_ID.match(collection_id):
        prefix, _, suffix = volume.volume_id.partition("-")
        series = collection_id.split(".", 1)[1].lower()
        if not suffix:  # "2024.acl" volume "long" (the usual shape)
            prefix, suffix = series, volume.volume_id
    else:
        prefix, suffix = "", volume.volume_id
    prefix, suffix = prefix.lower(), suffix.lower()
    informative = [tag for tag in venue_tags if tag not in _UNINFORMATIVE_VENUES]

    findings = prefix == "findings" or (not prefix and "findings" in venue_tags)
    if findings:
        # "findings-acl": the event is the suffix ("acl"), else the booktitle's tail.
        event = suffix if prefix == "findings" else ""
        if not event:
            tail = booktitle.rsplit(":", 1)[-1]
            event = fold(re.sub(r"\d{4}", "", tail)).split("-")[0].lower()
        acronym = (event or (informative[0] if informative else "findings")).upper()
        parent = f"{acronym} {year}" if year else acronym
        name = f"Findings of {parent}"
        return VenueRecord(
            name=name,
            acronym=acronym,
            year=year,
            full_name=_full_name(booktitle, main=False),
            location=_meta_text(meta, "address"),
            month=_meta_text(meta, "month"),
            booktitle=booktitle,
            external_id=external_id,
            parent=parent,
        )

    acronym = (prefix or (informative[0] if informative else collection_id)).upper()
    joint = _JOINT_EVENT.search(booktitle)
    if joint and acronym in joint.group(1).upper().split("-"):
        acronym = joint.group(1)
    event = f"{acronym} {year}" if year else acronym

    if volume.type == "journal":
        issue = _ISSUE.search(booktitle)
        name = f"{event} (Issue {issue.group(1)})" if issue else event
        parent = ""
    else:
        kind = _volume_kind(suffix, booktitle)
        name = f"{event} ({kind})" if kind else event
        parent = event if kind else ""
    return VenueRecord(
        name=name,
        acronym=acronym,
        year=year,
        full_name=_full_name(booktitle, main=not parent),
        location=_meta_text(meta, "address"),
        month=_meta_text(meta, "month"),
        booktitle=booktitle,
        external_id=external_id,
        parent=parent,
    )


def _author(element) -> AuthorRecord | None:
    first = element_text(element.find("first"))
    last = element_text(element.find("last"))
    name = " ".join(part for part in (first, last) if part) or element_text(element)
    if not name:
        return None
    return AuthorRecord(name=name, orcid=(element.get("orcid") or "").strip())


def _paper_url(url_text: str, external_id: str) -> str:
    """https://aclanthology.org/<id>; a <url> naming another Anthology page wins (it is where
    the paper really lives, e.g. 2023.acl-long.report), an external URL is kept as is."""
    if url_text.startswith(("http://", "https://")):
        return url_text
    if url_text and "/" not in url_text:
        return ANTHOLOGY_URL + url_text
    return ANTHOLOGY_URL + external_id


def make_paper(
    collection_id: str, volume: _Volume, element, line: int | None, source: str
) -> PaperRecord:
    paper_id = (element.get("id") or "").strip()
    if not paper_id:
        raise DumpError(source, "a <paper> has no id attribute", line)
    external_id = anthology_id(collection_id, volume.volume_id, paper_id)
    first: dict[str, object] = {}
    authors = []
    for child in element:  # one pass over the children instead of a find() per field
        if child.tag == "author":
            author = _author(child)
            if author is not None:
                authors.append(author)
        elif child.tag not in first:
            first[child.tag] = child
    return PaperRecord(
        abstract=paragraph_text(first.get("abstract")),
        venue=volume.venue.name,
        title=element_text(first.get("title")),
        authors=authors,
        external_id=external_id,
        pages=element_text(first.get("pages")),
        doi=element_text(first.get("doi")),
        url=_paper_url(element_text(first.get("url")), external_id),
        bibkey=element_text(first.get("bibkey")),
        line=line,
    )


def _unique_name(venue: VenueRecord, volume_id: str, used: set[str]) -> None:
    """Two volumes of one file never share a venue name: the second gains its volume ID."""
    if venue.name in used:
        venue.name = f"{venue.name} [{volume_id}]"
    used.add(venue.name)


def parse_anthology(path_or_file: str | os.PathLike | IO[bytes], source: str) -> ParsedFile:
    """Parse one Anthology XML file (a path or a binary file object) into records.

    Raises DumpError (with the line where known) for anything that is not a well-formed,
    entity-free Anthology collection.
    """
    parser = _LineTrackingParser()
    result = ParsedFile(source=source)
    collection_id = ""
    volume: _Volume | None = None
    used_names: set[str] = set()
    depth = 0
    try:
        events = defused_iterparse(path_or_file, events=("start", "end"), parser=parser)
        for event, element in events:
            tag = element.tag
            if event == "start":
                depth += 1
                if depth == 1:
                    if tag != "collection" or not element.get("id"):
                        raise DumpError(
                            source,
                            f"not an Anthology file: the root is <{tag}>, "
                            '<collection id="..."> expected',
                            parser.line,
                        )
                    collection_id = element.get("id").strip()
                elif tag == "volume" and depth == 2:
                    volume = _Volume(
                        (element.get("id") or "").strip(),
                        (element.get("type") or "proceedings").strip(),
                        None,
                    )
                continue

            depth -= 1
            if tag == "paper":
                line = parser.start_lines["paper"].popleft()
                if volume is None or depth != 2:
                    raise DumpError(source, "a <paper> outside a <volume>", line)
                if volume.venue is None:
                    raise DumpError(source, "a <paper> before its volume's <meta>", line)
                result.papers.append(make_paper(collection_id, volume, element, line, source))
                volume.papers += 1
                element.clear()
            elif tag == "meta" and volume is not None and depth == 2:
                if not volume.volume_id:
                    raise DumpError(source, "a <volume> has no id attribute", parser.line)
                venue = make_venue(collection_id, volume, element)
                _unique_name(venue, venue.external_id, used_names)
                volume.venue = venue
                result.venues.append(venue)
                element.clear()
            elif tag == "frontmatter":
                element.clear()
            elif tag == "volume":
                volume_line = parser.start_lines["volume"].popleft()
                if volume is not None:
                    if volume.venue is None:
                        raise DumpError(source, "a <volume> without <meta>", volume_line)
                    venue = volume.venue
                    parent = f", part of {venue.parent}" if venue.parent else ""
                    result.decisions.append(
                        Decision(
                            volume_line,
                            "venue",
                            f"volume {venue.external_id} → {venue.name}{parent}: "
                            f"{volume.papers} papers",
                        )
                    )
                volume = None
                element.clear()
    except DumpError:
        raise
    except ParseError as error:
        line = error.position[0] if getattr(error, "position", None) else None
        message = re.sub(r":\s*line \d+, column \d+$", "", str(error))
        raise DumpError(source, f"not well-formed XML: {message}", line) from None
    except DefusedXmlException as error:
        raise DumpError(
            source,
            f"refused unsafe XML ({type(error).__name__}: entity declarations and external "
            "entities are not allowed)",
            parser.line,
        ) from None
    except (UnicodeError, ValueError, LookupError) as error:
        raise DumpError(source, f"cannot read as XML: {error}", parser.line) from None
    except OSError as error:
        raise DumpError(source, f"cannot read: {error.strerror or error}") from None

    if not collection_id:
        raise DumpError(source, "no <collection> found")
    if not result.papers:
        raise DumpError(source, "no <paper> found in this Anthology collection")
    untitled = sum(1 for paper in result.papers if not paper.title)
    if untitled:
        result.warnings.append(f"{untitled} papers without a title")
    return result
