"""What every citation of a paper reads of it (pure): its title as cited, whether its venue is a
journal's, the container and volume, the proceedings' editors, the page range, and its authors'
names split into family and given names (the family name the source told,
papers/name_forms.py, else the last word).

A TACL paper (its venue's name starts with "TACL") is a journal article, every other paper a
conference paper in the venue's proceedings. An untitled paper has no citation: a citation
asked of one raises ``IncompleteRecord`` rather than carry a title the source did not give.
"""

import re

from .latex import plain_text
from .name_words import PARTICLES
from .text import clean_name

_VOLUME = re.compile(r"(.+?),?\s+Volume\s+([0-9]+)")
_PAGE_SPLIT = re.compile(r"\s*(?:-+|–|—)\s*")


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


def editor_names(venue) -> list[tuple[str, str]]:
    """(family, given) of each of the proceedings' editors (Venue.editors: one per line,
    "Family, Given"); none for a journal, whose volumes' editors are not cited."""
    if is_journal(venue):
        return []
    names = []
    for line in (venue.editors or "").splitlines():
        family, _, given = (part.strip() for part in line.partition(","))
        if family or given:
            names.append((family or given, given if family else ""))
    return names


def family_first(family: str, given: str) -> str:
    """A name as RIS and BibTeX's editors take it: "Family, Given" (the family alone without
    a given name)."""
    return f"{family}, {given}" if given else family


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
    (where it still ends the name as written), else the last word with the particles in
    small letters before it ("van der Berg": RIS gave "Berg, Jan van der"); a suffix stays
    with the word before it ("Meira Jr.", "Wagner")."""
    family = getattr(name, "family", "")
    given = name[: -len(family)] if family and name.endswith(family) else ""
    if not (given.endswith(" ") and given.strip()):
        words = name.split()
        if len(words) < 2:
            return name.strip(), ""
        cut = len(words) - 1
        while cut > 1 and words[cut - 1].islower() and words[cut - 1] in PARTICLES:
            cut -= 1
        family, given = " ".join(words[cut:]), " ".join(words[:cut])
    given_words = given.split()
    if family.lower() in _SUFFIXES and len(given_words) > 1:
        return f"{given_words[-1]} {family}", " ".join(given_words[:-1])
    return family, given.strip()


def named(authors: list[str]) -> list[str]:
    """The authors that have a name (a blank one is never assumed to have one), without the
    direction marks a name loaded before they were dropped may hold (its family name kept)."""
    cleaned = (AuthorName(clean_name(name), getattr(name, "family", "")) for name in authors)
    return [name for name in cleaned if name]
