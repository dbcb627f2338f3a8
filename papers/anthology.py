"""ACL Anthology XML: recognise a file by its content and parse it into plain records.

Pure: no Django, no database. One Anthology file is a ``<collection id="2024.emnlp">`` of
``<volume>`` elements; each volume has a ``<meta>`` (booktitle, address, month, year, venue
tags), an optional ``<frontmatter>`` (not a paper) and its ``<paper>`` elements.

- Each volume becomes a :class:`VenueRecord` named from its metadata
  (papers/anthology_metadata.py).
- Each ``<paper>`` becomes a :class:`PaperRecord` whose ``external_id`` is the Anthology ID
  ("2024.emnlp-main.3"): title and abstract flattened to their text (``<fixed-case>``,
  ``<tex-math>``, ``<i>``, ``<url>`` … kept as text), authors in order (with the person id
  the Anthology gives people who share a name), pages, DOI, URL, bibkey and the line where the
  paper starts.

The XML is untrusted: it is streamed with defusedxml's iterparse (entity declarations and
external entities are refused, so no "billion laughs" and no file or network access), each
paper is cleared once read (memory stays bounded by one volume of empty elements), and every
XML error becomes a :class:`DumpError` naming the file and the line.
"""

from __future__ import annotations

import os
import re
from collections import Counter, deque
from typing import IO
from xml.etree.ElementTree import TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError
from defusedxml.ElementTree import iterparse as defused_iterparse

from .anthology_metadata import (
    ANTHOLOGY_URL,
    anthology_id,
    element_text,
    make_venue,
    paragraph_text,
)
from .records import AuthorRecord, Decision, DumpError, PaperRecord, ParsedFile, VenueRecord

# What comes before the root element: a BOM, the XML declaration, comments, a DOCTYPE.
_PROLOG = re.compile(
    rb"^(?:\xef\xbb\xbf)?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*",
    re.DOTALL,
)
_ROOT = re.compile(rb"^<collection\b[^>]*?\bid\s*=\s*[\"']")
_DOCTYPE_COLLECTION = re.compile(rb"^<!DOCTYPE\s+collection\b")


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


# A name glued from two (a lower-case letter, then a capital: "ZhiqiBai").
_GLUED = re.compile(r"[a-z][A-Z]")


def _author(element) -> AuthorRecord | None:
    first = element_text(element.find("first"))
    last = element_text(element.find("last"))
    if first == last and _GLUED.search(first):
        # Some records give the whole name glued, as both ("<first>ZhiqiBai</first><last>
        # ZhiqiBai</last>"); "He He" and "Chen Chen" are names.
        first = ""
    name = " ".join(part for part in (first, last) if part) or element_text(element)
    if not name:
        return None
    return AuthorRecord(
        name=name,
        orcid=(element.get("orcid") or "").strip(),
        person_id=(element.get("id") or "").strip(),
        family=last if name.endswith(last) else "",
    )


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


class _CollectionReader:
    """Turns one file's iterparse events into records, checking the file's shape as it goes."""

    def __init__(self, parser: _LineTrackingParser, source: str):
        self.parser = parser
        self.source = source
        self.result = ParsedFile(source=source)
        self.collection_id = ""
        self.volume: _Volume | None = None
        self.used_names: set[str] = set()
        self.depth = 0

    def start(self, element) -> None:
        self.depth += 1
        if self.depth == 1:
            if element.tag != "collection" or not element.get("id"):
                # No line: the parser has read on past the root by now.
                raise DumpError(
                    self.source,
                    f"not an Anthology file: the root is <{element.tag}>, "
                    '<collection id="..."> expected',
                )
            self.collection_id = element.get("id").strip()
        elif element.tag == "volume" and self.depth == 2:
            volume_id = (element.get("id") or "").strip()
            self.volume = _Volume(volume_id, (element.get("type") or "proceedings").strip(), None)

    def end(self, element) -> None:
        self.depth -= 1
        if element.tag == "paper":
            self.end_paper(element)
        elif element.tag == "meta" and self.volume is not None and self.depth == 2:
            self.end_meta(element)
        elif element.tag == "volume":
            self.end_volume()
        elif element.tag != "frontmatter":
            return
        element.clear()

    def end_paper(self, element) -> None:
        line = self.parser.start_lines["paper"].popleft()
        volume = self.volume
        if volume is None or self.depth != 2:
            raise DumpError(self.source, "a <paper> outside a <volume>", line)
        if volume.venue is None:
            raise DumpError(self.source, "a <paper> before its volume's <meta>", line)
        paper = make_paper(self.collection_id, volume, element, line, self.source)
        self.result.papers.append(paper)
        volume.papers += 1

    def end_meta(self, element) -> None:
        volume = self.volume
        if not volume.volume_id:
            raise DumpError(self.source, "a <volume> has no id attribute", self.parser.line)
        venue = make_venue(self.collection_id, volume.volume_id, volume.type, element)
        _unique_name(venue, venue.external_id, self.used_names)
        volume.venue = venue
        self.result.venues.append(venue)

    def end_volume(self) -> None:
        volume_line = self.parser.start_lines["volume"].popleft()
        volume, self.volume = self.volume, None
        if volume is None:
            return
        if volume.venue is None:
            raise DumpError(self.source, "a <volume> without <meta>", volume_line)
        venue = volume.venue
        parent = f", part of {venue.parent}" if venue.parent else ""
        summary = f"volume {venue.external_id} → {venue.name}{parent}: {volume.papers} papers"
        self.result.decisions.append(Decision(volume_line, "venue", summary))

    def finish(self) -> ParsedFile:
        if not self.collection_id:
            raise DumpError(self.source, "no <collection> found")
        if not self.result.papers:
            raise DumpError(self.source, "no <paper> found in this Anthology collection")
        untitled = sum(1 for paper in self.result.papers if not paper.title)
        if untitled:
            self.result.warnings.append(f"{untitled} papers without a title")
        ids = Counter(paper.external_id for paper in self.result.papers if paper.external_id)
        repeated = sorted(external_id for external_id, n in ids.items() if n > 1)
        if repeated:
            self.result.warnings.append(
                f"{len(repeated)} paper IDs given to several <paper> elements "
                f"({', '.join(repeated[:3])}{', …' if len(repeated) > 3 else ''}): each "
                "is loaded as one paper, the first element's fields kept"
            )
        return self.result


def _read_error(error: Exception, source: str, line: int | None) -> DumpError:
    """What the XML layer raised, as a DumpError naming the file and line."""
    if isinstance(error, ParseError):
        line = error.position[0] if getattr(error, "position", None) else None
        message = re.sub(r":\s*line \d+, column \d+$", "", str(error))
        return DumpError(source, f"not well-formed XML: {message}", line)
    if isinstance(error, DefusedXmlException):
        return DumpError(
            source,
            f"refused unsafe XML ({type(error).__name__}: entity declarations and external "
            "entities are not allowed)",
            line,
        )
    if isinstance(error, OSError):
        return DumpError(source, f"cannot read: {error.strerror or error}")
    return DumpError(source, f"cannot read as XML: {error}", line)


def parse_anthology(path_or_file: str | os.PathLike | IO[bytes], source: str) -> ParsedFile:
    """Parse one Anthology XML file (a path or a binary file object) into records.

    Raises DumpError (with the line where known) for anything that is not a well-formed,
    entity-free Anthology collection.
    """
    parser = _LineTrackingParser()
    reader = _CollectionReader(parser, source)
    try:
        events = defused_iterparse(path_or_file, events=("start", "end"), parser=parser)
        for event, element in events:
            if event == "start":
                reader.start(element)
            else:
                reader.end(element)
    except (
        ParseError,
        DefusedXmlException,
        UnicodeError,
        ValueError,
        LookupError,
        OSError,
    ) as error:
        raise _read_error(error, source, parser.line) from None
    return reader.finish()
