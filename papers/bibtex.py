"""BibTeX entries (pure): a title braced only where a style must not lowercase it, its maths kept
as LaTeX, authors as BibTeX reads names, and the entry's key and fields (papers/citations.py
gathers the formats)."""

import re

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
from .latex import MATH_COMMANDS, plain_text, symbols_as_commands
from .proper_nouns import always_capitalised
from .text import latin_unaccented

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

    title = symbols_as_commands(paper.title)  # "πBench": "\\pi{}Bench"
    title = bib_title(plain_text(_MATH.sub(marked, title)).strip())
    title = _MATH_WORD.sub(lambda m: "{" + m.group(0) + "}", title)
    return _MARK.sub(lambda m: "$" + spans[int(m.group(1))] + "$", title)


def bib_title(title: str) -> str:
    """The escaped title with only what a style must not lowercase in braces: acronyms and
    mixed-case words ({BERT}, {ModSCAN}, {LLaMA}), words English always capitalises ({Chinese},
    {I}, {U}.{S}.: papers/proper_nouns.py), and, in a sentence-case title, capitalised names
    ({Yoruba}); not the whole title, which would keep every style's casing out."""
    escaped = bib_escape(title)
    sentence = _sentence_case(_WORD.findall(escaped))
    first = True

    def protect(match: re.Match) -> str:
        nonlocal first
        word, opening = match.group(0), first
        first = False
        if any(char.isupper() for char in word[1:]) or always_capitalised(word, _alone(match)):
            return "{" + word + "}"
        if sentence and not opening and word[0].isupper() and not _after_colon(match):
            return "{" + word + "}"
        return word

    return _WORD.sub(protect, escaped)


def _alone(match: re.Match) -> bool:
    """Whether the word stands between spaces, stops or the title's ends ("U.S.", "Do I"),
    not against maths ("R$^3$Mem") or other signs."""
    before = match.string[match.start() - 1 : match.start()]
    after = match.string[match.end() : match.end() + 1]
    return before in ("", " ", ".", "(") and after in ("", " ", ".", ",", ":", "?", "!", ";", ")")


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


def bibtex_key(paper, authors) -> str:
    """The entry's key: the Anthology's, else family name, year, a title word and the id."""
    if paper.bibkey:
        return re.sub(r"[^\w:.-]", "", paper.bibkey) or f"paper{paper.pk}"
    authors = named(authors)
    # Accents dropped before the ASCII letters are kept: "Vulić" is "vulic", not "vuli".
    family = latin_unaccented(split_name(authors[0])[0]) if authors else ""
    surname = re.sub(r"[^a-z]", "", family.lower())
    title_words = re.findall(r"[a-z]+", latin_unaccented(cited_title(paper)).lower())
    first_word = next((w for w in title_words if len(w) > 3), "paper")
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
        editors = [family_first(family, given) for family, given in editor_names(venue)]
        if editors:
            fields.append(("editor", " and ".join(bib_escape(name) for name in editors)))
        fields.append(("booktitle", bib_escape(container_title(venue))))
    if venue.year:
        fields.append(("year", str(venue.year)))
    if venue.month:
        fields.append(("month", bib_escape(venue.month)))
    if venue.location and not journal:
        fields.append(("address", bib_escape(venue.location)))
    if venue.publisher:
        fields.append(("publisher", bib_escape(venue.publisher)))
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
