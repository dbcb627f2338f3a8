"""Citations of papers as reference managers read them: BibTeX, RIS and CSL-JSON, the ACL
style's plain reference and the citation meta tags (pure).

Each format turns one paper (with its venue loaded) and its authors' names, in order, into one
entry; ``FORMATS`` says how a file of entries opens, joins and closes, and its content type.
A TACL paper (its venue's name starts with "TACL") is a journal article, every other paper a
conference paper in the venue's proceedings. Titles are cited as plain text (their LaTeX read,
papers/latex.py). An untitled paper has no citation: the callers leave it out, and an entry
asked of one raises ``IncompleteRecord`` rather than carry a title the source did not give.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from .latex import MATH_COMMANDS, plain_text
from .text import clean_name

_BIB_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
_VOLUME = re.compile(r"(.+?),?\s+Volume\s+([0-9]+)")
_PAGE_SPLIT = re.compile(r"\s*(?:-+|–|—)\s*")
_WORD = re.compile(r"[^\W_]+")
_SMALL_WORD = 4  # words shorter than this ("of", "for") say nothing about a title's casing


class IncompleteRecord(ValueError):
    """A paper the source gives no title: no citation can be written for it."""


def cited_title(paper) -> str:
    """The title a citation carries: the source's, as plain text; never the derived stand-in."""
    title = plain_text(paper.title).strip()
    if not title:
        raise IncompleteRecord(f"paper {paper.pk} has no title in its source")
    return title


def is_journal(venue) -> bool:
    """TACL volumes are a journal's; everything else here is proceedings."""
    return venue.name.startswith("TACL")


def container_title(venue) -> str:
    return venue.booktitle or venue.full_name or venue.name


def journal_volume(venue) -> tuple[str, str]:
    """(journal, volume) of a journal venue: the Anthology's booktitle "Transactions of the
    Association for Computational Linguistics, Volume 12" names both."""
    title = container_title(venue)
    match = _VOLUME.fullmatch(title)
    return (match.group(1), match.group(2)) if match else (title, "")


def page_range(pages: str) -> tuple[str, str]:
    """(first, last) of "1-10", "1--10", "1–10" or "7" (last empty for a single page)."""
    parts = [part for part in _PAGE_SPLIT.split((pages or "").strip()) if part]
    if not parts:
        return "", ""
    return parts[0], parts[-1] if len(parts) > 1 else ""


class AuthorName(str):
    """An author's name as written ("Luis Espinosa Anke") that knows its ``family`` name
    ("Espinosa Anke") where the source told it (Author.family_name); "" otherwise."""

    family: str

    def __new__(cls, name: str, family: str = ""):
        written = super().__new__(cls, name)
        written.family = family
        return written


def author_name(author) -> AuthorName:
    """The citation's name of an Author."""
    return AuthorName(author.name, author.family_name)


# A generational suffix, which is no family name on its own ("Wagner Meira Jr.").
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


def split_name(name: str) -> tuple[str, str]:
    """(family, given) of a name written "Given Family": the family name the source told
    (where it still ends the name as written), else the last word; a suffix stays with the
    word before it ("Meira Jr.", "Wagner")."""
    family = getattr(name, "family", "")
    given = name[: -len(family)] if family and name.endswith(family) else ""
    if not (given.endswith(" ") and given.strip()):
        words = name.split()
        if len(words) < 2:
            return name.strip(), ""
        family, given = words[-1], " ".join(words[:-1])
    given_words = given.split()
    if family.lower() in _SUFFIXES and len(given_words) > 1:
        return f"{given_words[-1]} {family}", " ".join(given_words[:-1])
    return family, given.strip()


# --- BibTeX --------------------------------------------------------------------------------


def _sentence_case(words: list[str]) -> bool:
    """Whether a title is written in sentence case ("Parsing texts in Yoruba"): then a capital
    inside it marks a proper name; in title case every word has one and says nothing."""
    telling = [word for word in words[1:] if len(word) >= _SMALL_WORD and word.isalpha()]
    capitalised = sum(1 for word in telling if word[0].isupper())
    return bool(telling) and capitalised * 2 < len(telling)


# The LaTeX maths a stored title keeps as written (the Anthology's <tex-math>, without its
# dollars): a maths command (latex.MATH_COMMANDS, whole: "\\inftyBench" is \\infty before
# "Bench") with its braced arguments ("\\mathcal{V}"), then any superscripts and subscripts
# ("^{\\circ}", "^\\circ", "_{1}", "^3", "^+"), or those alone after a word ("R^3",
# "RED^{\\textrm{FM}}"); an underscore before a letter is text ("more_data"). Plain text would
# give "ℓ₁", "R³", which pdflatex refuses.
_BRACED = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_NAMES = "|".join(sorted(MATH_COMMANDS, key=len, reverse=True))
_COMMAND = rf"\\(?:{_NAMES})(?![a-z])(?:{_BRACED})*"
_SCRIPT = rf"\^(?:{_BRACED}|{_COMMAND}|[A-Za-z0-9+*-])|_(?:{_BRACED}|[0-9])"
_MATH = re.compile(rf"{_COMMAND}(?:{_SCRIPT})*|(?:{_SCRIPT})+")
_ANY_COMMAND = re.compile(r"\\([A-Za-z]+)")
# Stand-ins for the maths while the rest is escaped (NUL: no loaded text has one), and a word
# holding one, braced whole so that no style lowercases it ("{R$^3$Mem}").
_MARK = re.compile("\x00([0-9]+)\x00")
_MATH_WORD = re.compile(r"(?:[\w{}]|\x00[0-9]+\x00)*\x00[0-9]+\x00(?:[\w{}]|\x00[0-9]+\x00)*")


def bibtex_title(paper) -> str:
    """The title field's value: the source's title (never the derived stand-in), its text
    escaped and braced as ``bib_title`` does, its maths kept as LaTeX between dollars (only
    maths: a span with any other command is read as text)."""
    cited_title(paper)  # an untitled paper has no citation
    spans: list[str] = []

    def marked(match: re.Match) -> str:
        span = match.group(0)
        if any(name not in MATH_COMMANDS for name in _ANY_COMMAND.findall(span)):
            return span
        spans.append(span)
        return f"\x00{len(spans) - 1}\x00"

    title = bib_title(plain_text(_MATH.sub(marked, paper.title)).strip())
    title = _MATH_WORD.sub(lambda m: "{" + m.group(0) + "}", title)
    return _MARK.sub(lambda m: "$" + spans[int(m.group(1))] + "$", title)


def bib_title(title: str) -> str:
    """The escaped title with only what a style must not lowercase in braces: acronyms and
    mixed-case words ({BERT}, {ModSCAN}, {LLaMA}), and, in a sentence-case title, capitalised
    names ({Yoruba}); not the whole title, which would keep every style's casing out."""
    escaped = bib_escape(title)
    sentence = _sentence_case(_WORD.findall(escaped))
    first = True

    def protect(match: re.Match) -> str:
        nonlocal first
        word, opening = match.group(0), first
        first = False
        if any(char.isupper() for char in word[1:]):
            return "{" + word + "}"
        if sentence and not opening and word[0].isupper() and not _after_colon(match):
            return "{" + word + "}"
        return word

    return _WORD.sub(protect, escaped)


def _after_colon(match: re.Match) -> bool:
    return match.string[: match.start()].rstrip().endswith(":")


def bib_name(name: str) -> str:
    """An author as BibTeX reads names: "Family, Given" where the family name is known and
    longer than a word ("Espinosa Anke, Luis", which "Luis Espinosa Anke" would make
    "Anke"), else as written."""
    family, given = split_name(name)
    if getattr(name, "family", "") and " " in family and given:
        return f"{bib_escape(family)}, {bib_escape(given)}"
    return bib_escape(name)


def bib_escape(text: str) -> str:
    text = " ".join((text or "").split())
    text = text.replace("\\", "")
    return "".join(_BIB_SPECIAL.get(char, char) for char in text)


def _verbatim(text: str) -> str:
    return "".join(char for char in " ".join(text.split()) if char not in "{}\\")


def named(authors: list[str]) -> list[str]:
    """The authors that have a name (a blank one is never assumed to have one), without the
    direction marks a name loaded before they were dropped may hold (its family name kept)."""
    cleaned = (AuthorName(clean_name(name), getattr(name, "family", "")) for name in authors)
    return [name for name in cleaned if name]


def bibtex_key(paper, authors) -> str:
    if paper.bibkey:
        return re.sub(r"[^\w:.-]", "", paper.bibkey) or f"paper{paper.pk}"
    authors = named(authors)
    surname = re.sub(r"[^a-z]", "", split_name(authors[0])[0].lower()) if authors else ""
    first_word = next(
        (w for w in re.findall(r"[a-z]+", cited_title(paper).lower()) if len(w) > 3), "paper"
    )
    year = paper.venue.year or ""
    return f"{surname or 'paper'}{year}{first_word}-{paper.pk}"


def bibtex(paper, authors: list[str]) -> str:
    """An @inproceedings entry (@article for TACL); ``authors`` are names in order (blank
    ones are left out)."""
    authors = named(authors)
    venue = paper.venue
    journal = is_journal(venue)
    fields = [("title", bibtex_title(paper))]
    if authors:
        fields.append(("author", " and ".join(bib_name(name) for name in authors)))
    if journal:
        name, volume = journal_volume(venue)
        fields.append(("journal", bib_escape(name)))
        if volume:
            fields.append(("volume", volume))
    else:
        fields.append(("booktitle", bib_escape(container_title(venue))))
    if venue.year:
        fields.append(("year", str(venue.year)))
    if venue.month:
        fields.append(("month", bib_escape(venue.month)))
    if venue.location and not journal:
        fields.append(("address", bib_escape(venue.location)))
    first, last = page_range(paper.pages)
    if first:
        fields.append(("pages", bib_escape(f"{first}--{last}" if last else first)))
    # doi and url are verbatim fields: escaping would put the backslashes into the DOI.
    if paper.doi:
        fields.append(("doi", _verbatim(paper.doi)))
    if paper.url:
        fields.append(("url", _verbatim(paper.url).replace(" ", "%20")))
    body = ",\n".join(f"    {name} = {{{value}}}" for name, value in fields)
    kind = "article" if journal else "inproceedings"
    return f"@{kind}{{{bibtex_key(paper, authors)},\n{body}\n}}"


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
        lines.append(("AU", f"{family}, {given}" if given else family))
    if journal:
        name, volume = journal_volume(venue)
        lines.append(("JO", name))
        if volume:
            lines.append(("VL", volume))
    else:
        lines.append(("T2", container_title(venue)))
    if venue.year:
        lines.append(("PY", venue.year))
    if venue.location and not journal:
        lines.append(("CY", venue.location))
    first, last = page_range(paper.pages)
    if first:
        lines.append(("SP", first))
    if last:
        lines.append(("EP", last))
    if paper.doi:
        lines.append(("DO", paper.doi))
    if paper.url:
        lines.append(("UR", paper.url.replace(" ", "%20")))
    lines.append(("ID", paper.pk))
    text = "".join(f"{tag}  - {_ris_value(value)}\n" for tag, value in lines)
    return text + "ER  - \n"


# --- CSL-JSON ------------------------------------------------------------------------------


def csl(paper, authors: list[str]) -> dict:
    """A CSL-JSON item: paper-conference (article-journal for TACL)."""
    venue = paper.venue
    journal = is_journal(venue)
    item = {
        "id": str(paper.pk),
        "type": "article-journal" if journal else "paper-conference",
        "title": cited_title(paper),
    }
    names = [split_name(name) for name in named(authors)]
    if names:
        item["author"] = [
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
    if venue.year:
        item["issued"] = {"date-parts": [[venue.year]]}
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
    Turing. 2025. Title. In Proceedings …, pages 1–10, Vienna." (a journal: "Journal, 12:1–10.")"""
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
