"""Citations of papers as reference managers read them: BibTeX, RIS and CSL-JSON, the ACL
style's plain reference and the citation meta tags (pure).

Each format turns one paper (with its venue loaded) and its authors' names, in order, into one
entry; ``FORMATS`` says how a file of entries opens, joins and closes, and its content type.
What every format reads of a paper is papers/citation_fields.py's; BibTeX's entries are
papers/bibtex.py's. Titles are cited as plain text (their LaTeX read, papers/latex.py), but for
BibTeX's maths. An untitled paper has no citation: the callers leave it out.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass

from .bibtex import bibtex, bibtex_key
from .citation_fields import (
    cited_title,
    container_title,
    editor_names,
    family_first,
    is_journal,
    journal_volume,
    named,
    page_range,
    split_name,
)
from .dump_blocks import month_number
from .latex import plain_text

# --- RIS -----------------------------------------------------------------------------------


def _ris_value(text) -> str:
    return " ".join(str(text).split())


def ris(paper, authors: list[str]) -> str:
    """A RIS record: CPAPER (JOUR for TACL), names as "Family, Given", ending with ER."""
    venue = paper.venue
    journal = is_journal(venue)
    lines = [("TY", "JOUR" if journal else "CPAPER"), ("TI", cited_title(paper))]
    for name in named(authors):
        family, given = split_name(name)
        lines.append(("AU", family_first(family, given)))
    if journal:
        name, volume = journal_volume(venue)
        lines.append(("JO", name))
        if volume:
            lines.append(("VL", volume))
    else:
        lines.append(("T2", container_title(venue)))
        for family, given in editor_names(venue):
            lines.append(("ED", family_first(family, given)))
    if venue.year:
        lines.append(("PY", venue.year))
    if venue.location and not journal:
        lines.append(("CY", venue.location))
    if venue.publisher:
        lines.append(("PB", venue.publisher))
    first, last = page_range(paper.pages)
    if first:
        lines.append(("SP", first))
    if last:
        lines.append(("EP", last))
    if paper.doi:
        lines.append(("DO", paper.doi))
    if paper.url:
        lines.append(("UR", paper.url.replace(" ", "%20")))
    # The entry's key as BibTeX gives it: one key whichever file a writer cites from.
    lines.append(("ID", bibtex_key(paper, authors)))
    text = "".join(f"{tag}  - {_ris_value(value)}\n" for tag, value in lines)
    return text + "ER  - \n"


# --- CSL-JSON ------------------------------------------------------------------------------


def csl(paper, authors: list[str]) -> dict:
    """A CSL-JSON item: paper-conference (article-journal for TACL)."""
    venue = paper.venue
    journal = is_journal(venue)
    item = {
        "id": bibtex_key(paper, authors),
        "type": "article-journal" if journal else "paper-conference",
        "title": cited_title(paper),
    }
    for role, names in (
        ("author", [split_name(name) for name in named(authors)]),
        ("editor", editor_names(venue)),
    ):
        if names:
            item[role] = [
                {"family": family, "given": given} if given else {"literal": family}
                for family, given in names
            ]
    if journal:
        item["container-title"], volume = journal_volume(venue)
        if volume:
            item["volume"] = volume
    else:
        item["container-title"] = container_title(venue)
        item["event-title"] = venue.full_name or venue.name
        if venue.location:
            item["event-place"] = venue.location
    if venue.publisher:
        item["publisher"] = venue.publisher
    if venue.year:
        month = month_number(venue.month) if venue.month else None
        item["issued"] = {"date-parts": [[venue.year, month] if month else [venue.year]]}
    first, last = page_range(paper.pages)
    if first:
        item["page"] = f"{first}-{last}" if last else first
        item["page-first"] = first
    if paper.doi:
        item["DOI"] = paper.doi
    if paper.url:
        item["URL"] = paper.url.replace(" ", "%20")
    return item


def csl_json(paper, authors: list[str]) -> str:
    return json.dumps(csl(paper, authors), ensure_ascii=False, indent=2)


# --- the ACL style's reference and the meta tags --------------------------------------------


def _name_list(names: list[str]) -> str:
    """ "A", "A and B", "A, B, and C": the ACL style's author list."""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def acl_citation(paper, authors: list[str]) -> str:
    """The reference as the ACL style (acl_natbib.bst) prints it: "Ada Lovelace and Alan
    Turing. 2025. Title. In Proceedings …, pages 1–10, Vienna. Association for Computational
    Linguistics." (a journal: "Journal, 12:1–10.")"""
    venue = paper.venue
    first, last = page_range(paper.pages)
    pages = f"{first}–{last}" if last else first
    parts = [_name_list(named(authors))] if named(authors) else []
    if venue.year:
        parts.append(str(venue.year))
    parts.append(cited_title(paper))
    if is_journal(venue):
        journal, volume = journal_volume(venue)
        where = journal + (f", {volume}" if volume else "") + (f":{pages}" if pages else "")
    else:
        details = [f"In {container_title(venue)}"]
        if pages:
            details.append(f"pages {pages}" if last else f"page {pages}")
        if venue.location:
            details.append(venue.location)
        where = ", ".join(details)
    parts.append(where)
    if venue.publisher and not is_journal(venue):
        parts.append(venue.publisher)
    return " ".join(part if part.endswith((".", "?", "!")) else part + "." for part in parts)


def _family_first(name: str) -> str:
    """ "Family, Given" where the source told the family name, else the name as written."""
    family, given = split_name(name)
    return f"{family}, {given}" if getattr(name, "family", "") and given else str(name)


def citation_meta(paper, authors: list[str], pdf_url: str = "") -> list[tuple[str, str]]:
    """The Highwire-style citation_* meta tags (Google Scholar, Zotero) as (name, content)."""
    venue = paper.venue
    tags = [("citation_title", cited_title(paper))]
    tags += [("citation_author", _family_first(name)) for name in named(authors)]
    if venue.year:
        tags.append(("citation_publication_date", str(venue.year)))
    if is_journal(venue):
        journal, volume = journal_volume(venue)
        tags.append(("citation_journal_title", journal))
        if volume:
            tags.append(("citation_volume", volume))
    else:
        tags.append(("citation_conference_title", container_title(venue)))
    first, last = page_range(paper.pages)
    if first:
        tags.append(("citation_firstpage", first))
    if last:
        tags.append(("citation_lastpage", last))
    if venue.publisher:
        tags.append(("citation_publisher", venue.publisher))
    if paper.doi:
        tags.append(("citation_doi", paper.doi))
    if pdf_url:
        tags.append(("citation_pdf_url", pdf_url))
    return tags


def page_citations(paper, authors: list[str]) -> dict:
    """What a paper's page offers to cite it: the ACL reference, BibTeX, RIS, CSL-JSON and the
    meta tags; {} for an untitled paper, whose record is incomplete."""
    if not plain_text(paper.title).strip():
        return {}
    return {
        "acl_citation": acl_citation(paper, authors),
        "bibtex": bibtex(paper, authors),
        "ris": ris(paper, authors),
        "csl_json": csl_json(paper, authors),
        "citation_meta": citation_meta(paper, authors, paper.pdf_url),
    }


# --- files of entries ----------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """How a file of entries is written: one entry, what opens, joins and closes the file, and
    how a note (papers left out) is written, "" where the format has no comments."""

    entry: Callable[[object, list[str]], str]
    content_type: str
    extension: str
    opening: str
    separator: str
    closing: str
    comment: str


FORMATS = {
    "bibtex": Format(bibtex, "application/x-bibtex", "bib", "", "\n\n", "\n", "% {}\n"),
    # RIS has no comments: a "%" line before the first entry is not RIS (the headers say it).
    "ris": Format(ris, "application/x-research-info-systems", "ris", "", "\n", "", ""),
    "csljson": Format(
        csl_json, "application/vnd.citationstyles.csl+json", "json", "[\n", ",\n", "\n]\n", ""
    ),
}
UNKNOWN_FORMAT = "format must be one of: " + ", ".join(FORMATS) + "."
