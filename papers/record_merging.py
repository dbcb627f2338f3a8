"""Copies of one paper inside a run merged into one record, before anything is written.

What identifies a paper: its external ID, its normalised abstract, its title at its venue; two
records with different external IDs are two papers, whatever else they share, so are two
whose titles disagree, whatever abstract they share, and two of one title whose authors
disagree.
"""

import re
from dataclasses import fields
from typing import NamedTuple

from .curation import FILLABLE_FIELDS, fill_empty
from .dump_blocks import month_number
from .name_keys import name_key
from .records import PaperRecord, ParsedFile, VenueRecord
from .text import abstract_key, fold_whitespace

VENUE_FIELDS = tuple(f.name for f in fields(VenueRecord) if f.name not in {"name", "parent"})


class MergedRecords(NamedTuple):
    """A run's venues by name, its papers, and each paper's abstract key (at its position):
    computed once per record read, the writer matches and writes papers by it."""

    venues: dict[str, VenueRecord]
    papers: list[PaperRecord]
    abstract_keys: list[str]
    warnings: list[str]


def merge_records(parsed_files: list[ParsedFile]) -> MergedRecords:
    """Venues by name with their fields combined; copies of a paper inside this run merged."""
    venues: dict[str, VenueRecord] = {}
    by_key: dict[tuple, int] = {}
    papers: list[PaperRecord] = []
    abstract_keys: list[str] = []
    warnings: list[str] = []
    for parsed in parsed_files:
        for venue in parsed.venues:
            known = venues.setdefault(venue.name, VenueRecord(name=venue.name))
            fill_empty(known, venue, (*VENUE_FIELDS, "parent"))
        for paper in parsed.papers:
            paper.source_file = paper.source_file or parsed.source
            paper.read_from = parsed.source
            key_of_abstract = abstract_key(paper.abstract)
            keys = record_keys(paper, key_of_abstract)
            kept = next(
                (
                    by_key[key]
                    for key in keys
                    if key in by_key and same_by_key(key, papers[by_key[key]], paper)
                ),
                None,
            )
            if kept is None:
                if ("abstract", key_of_abstract) in by_key and not paper.external_id:
                    # Another paper's abstract (their titles disagree): its title identifies it.
                    key_of_abstract = ""
                    keys = record_keys(paper, key_of_abstract)
                kept = len(papers)
                papers.append(paper)
                abstract_keys.append(key_of_abstract)
            else:
                warnings += _conflicts(papers[kept], paper)
                if "abstract" in _merge_record(papers[kept], paper):
                    abstract_keys[kept] = key_of_abstract
            for key in keys:
                by_key.setdefault(key, kept)
            venues.setdefault(paper.venue, VenueRecord(name=paper.venue))
    for venue in list(venues.values()):
        if venue.parent:
            venues.setdefault(venue.parent, VenueRecord(name=venue.parent))
    _date_undated_conferences(venues)
    return MergedRecords(venues, papers, abstract_keys, warnings)


def _conflicts(kept: PaperRecord, other: PaperRecord) -> list[str]:
    """The warning of a second record of one identified paper (its external ID) saying another
    title, abstract, venue or author list than the first, which is kept: the second's were
    dropped without a word (an outside tester). Copies without the ID (a page's copy of an
    Anthology paper) differ in their wording as a rule, and are told only of another venue."""
    if not (other.external_id or kept.external_id) and other.venue != kept.venue:
        return [_venue_conflict(kept, other)]
    if not other.external_id or other.external_id != kept.external_id:
        return []
    fields = [
        name
        for name in ("title", "abstract", "venue")
        if getattr(other, name)
        and getattr(kept, name)
        and getattr(other, name) != getattr(kept, name)
    ]
    names = [author.name for author in other.authors]
    if names and kept.authors and names != [author.name for author in kept.authors]:
        fields.append("author list")
    if not fields:
        return []
    where = _where(kept, other)
    what = " and ".join(fields) + (" differs and is" if len(fields) == 1 else " differ and are")
    return [
        f"{other.read_from}, line {other.line}: the record of {other.external_id} at {where} "
        f"is kept; this one's {what} not loaded"
    ]


def _venue_conflict(kept: PaperRecord, other: PaperRecord) -> str:
    """The warning of a copy of a paper (its abstract or its title) under another venue: it
    is one paper, kept where it was first read (two venues' pages merged silently, and the
    second venue was left empty: an outside curator)."""
    return (
        f"{other.read_from}, line {other.line}: the paper of {_where(kept, other)}, under "
        f"{other.venue} here; kept under {kept.venue}"
    )


def _where(kept: PaperRecord, other: PaperRecord) -> str:
    """Where the kept record was read, told from the other's place: its line, and its file
    when that is another."""
    same_file = kept.read_from == other.read_from
    return f"line {kept.line}" if same_file else f"{kept.read_from}, line {kept.line}"


def _date_undated_conferences(venues: dict[str, VenueRecord]) -> None:
    """A conference its sources give no date takes the earliest month of its volumes: the
    folder has "Findings of ACL 2025" (July) but not ACL 2025's own volumes, and the undated
    ACL 2025 sorted as January, its Findings after NAACL 2025 (April) in "newest first"."""
    undated = {name for name, venue in venues.items() if not venue.month and not venue.start_date}
    for volume in list(venues.values()):
        month = month_number(volume.month)
        if volume.parent not in undated or month is None:
            continue
        parent = venues[volume.parent]
        if not parent.month or month < month_number(parent.month):
            parent.month = volume.month


def record_keys(paper: PaperRecord, key_of_abstract: str) -> list[tuple]:
    """What identifies a paper: its external ID, its abstract (by its key, given), its title
    at its venue."""
    keys = []
    if paper.external_id:
        keys.append(("id", paper.external_id))
    if key_of_abstract:
        keys.append(("abstract", key_of_abstract))
    if paper.title:
        keys.append(("title", paper.venue, fold_whitespace(paper.title).lower()))
    return keys


def same_paper_possible(external_id: str | None, other_external_id: str | None) -> bool:
    """Two records with different external IDs are two papers, whatever else they share."""
    return not external_id or not other_external_id or external_id == other_external_id


_TITLE_WORD = re.compile(r"\w+")
_NAME_WORD = re.compile(r"[^\W\d_]{2,}")


def titles_agree(title: str, other: str) -> bool:
    """Whether two titles may name one paper: either is missing, or more than half the words
    of the shorter are in the other ("\\texttt{ModSCAN}: Measuring …" and "ModSCAN: Measuring
    …" agree). Two titled records sharing only an abstract are two papers when their titles
    disagree: a placeholder ("No abstract available.") merged three different papers."""
    if not title or not other:
        return True
    words, other_words = (set(_TITLE_WORD.findall(t.casefold())) for t in (title, other))
    shorter = min(len(words), len(other_words))
    return shorter == 0 or 2 * len(words & other_words) > shorter


def authors_disagree(names: list[str], other_names: list[str]) -> bool:
    """Whether two author lists name other people: both given, and no word of a name shared
    ("System Description" by Kenji Tanaka and by Ana Núñez, at WMT 2024, are two papers: the
    second was dropped as a copy of the first, an outside curator). A page's copy that shortens
    the names ("C. Manning", "Hal Daumé" for Hal Daumé III) or leaves out authors agrees."""
    words, other_words = (name_words(group) for group in (names, other_names))
    return bool(words and other_words) and not words & other_words


def name_words(names: list[str]) -> set[str]:
    """The words of the names, as their keys write them, but initials and punctuation."""
    return {word for name in names for word in _NAME_WORD.findall(name_key(name))}


def name_words_in_order(name: str) -> list[str]:
    """The words of the name, as its key writes them, in order, but initials and punctuation."""
    return _NAME_WORD.findall(name_key(name))


def same_by_key(key: tuple, kept: PaperRecord, record: PaperRecord) -> bool:
    """Whether ``record`` is the ``kept`` record's paper, by the ``key`` they share."""
    if not same_paper_possible(kept.external_id, record.external_id):
        return False
    if key[0] == "title":
        kept_names, names = ([a.name for a in r.authors] for r in (kept, record))
        return not authors_disagree(kept_names, names)
    return key[0] != "abstract" or titles_agree(kept.title, record.title)


def _merge_record(kept: PaperRecord, other: PaperRecord) -> list[str]:
    """Fill the kept record from another copy; answers the fields filled. The copy with the
    Anthology ID names the paper's volume: a conference's own pages list its Findings papers
    with the main ones (25 of the ACL 2025 pages' papers are 2025.findings-acl.*), and the
    paper was cited as a main-conference one."""
    if other.external_id and not kept.external_id and other.venue != kept.venue:
        kept.venue = other.venue
    filled = fill_empty(kept, other, FILLABLE_FIELDS)
    if "external_id" in filled:
        # The ID is another copy's, the text the page's: it fills, it does not correct (the
        # Anthology's text and a page's replaced each other load after load: a reviewer).
        kept.corrects = False
    kept.topics.extend(topic for topic in other.topics if topic not in kept.topics)
    kept.related_titles.extend(t for t in other.related_titles if t not in kept.related_titles)
    if not kept.authors:
        kept.authors = other.authors
    return filled
