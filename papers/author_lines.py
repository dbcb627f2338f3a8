"""Author lines of a page (pure): whether a line lists people's names, and which.

A page writes its authors given name first ("Ada Lovelace, Alan Turing and Grace Hopper"), or
family name first as a bibliography does ("Müller, J.; Schmidt, A. B.", "Manning, Christopher
D.", "Müller, Lukas and Dubois, Émilie"); with marks or emails after names ("Ada Lovelace1,2*",
"Ada Lovelace <ada@example.org>"), a label ("Authors:", "Author(s):", "Presented by:"), bold or
a bullet around the line; a line of affiliations after their marks under them. A line is an
author line when each of its parts is a person's name (papers/name_words.py: the words a name
never has); else it is a title's, a topic's or prose.
"""

import re
import unicodedata

from .name_words import CJK_NAME, LINE_PARTICLES, NOT_NAME_WORDS
from .text import fold_whitespace

_NAME_WORDS = 5
# A word of a name: capitalised ("Ana", "O'Connor", "J.", "Hakkani-Tür"), a particle ("de",
# "van", "d'Almeida"), in a script without capitals ("محمد"), or a name in Han, kana or Hangul.
_CAPITALISED = re.compile(r"^[^\W\d_][\w'’.-]*$")
_ELIDED_PARTICLE = re.compile(r"^(?:d|l|dell|dall)['’][^\W\d_][\w'’.-]*$")
# Kana, Han and Hangul: a name in them has no spaces, a line of them no words to count.
# The line is folded first: no run of spaces for these to scan again and again. The full-width
# and ideographic commas of Chinese and Japanese lists ("王小明，李娜") separate names too, and
# a bar ("J. R. R. Tolkien | C.S. Lewis").
_SEPARATORS = re.compile(r",|;|·|，|；|、|،| and |&|\|")
# What follows a name on some sites: affiliation marks ("Ada Lovelace1,2*", "¹", "♠") and the
# affiliation in brackets ("Ada Lovelace (Vienna)", "Ada Lovelace [Vienna]": square ones made
# the line no names, and the page's titles abstracts, a curator's trial page).
_MARK = r"[\d¹²³\u2070-\u2079*†‡§¶♠♣♥♦♡♢♤♧]+"
# A mark starts after a name's letters only: tried from inside a run, it cost the run's
# length at each character.
_MARKS = re.compile(
    rf" ?\([^()]{{0,80}}\)| ?\[[^\[\]]{{0,80}}\]"
    rf"|(?<![,{_MARK[1:-2]}]){_MARK}(?:,{_MARK})*(?=[ ,;]|$)"
)
# The label before a line of names, as sites write it ("Authors:", "Author(s):", "Authors —",
# "Presented by:", a talk's "Speaker:" or "Presenters:"): any other made the names the title,
# and dropped the title (an outside curator). A dash follows a space, so that "By-product …"
# keeps its word; a talk's labels have their colon ("Speaker Diarization" is a title's).
_AUTHORS_LABEL = re.compile(
    r"^(?:(?:author\(s\)|(?:authors?|by|presented by)\b)(?: *[:：]| +[-–—])?"
    r"|(?:speakers?|presenters?) *[:：]) *",
    re.IGNORECASE,
)
# An email address in angle brackets after a name ("Chloe Walker <c.walker@example.org>").
_EMAIL = re.compile(r" ?<[^<>@\s]{1,64}@[^<>@\s]{1,255}>")
# A line of affiliations, each after its mark ("¹University of Amsterdam ²Universidad de
# Chile"): under the names, it was read as the title (an outside curator).
_AFFILIATION_LINE = re.compile(r"^[¹²³\u2070-\u2079†‡§¶♠♣♥♦]+ ?[^\W\d_]")

# A title's wrapping: bold ("**Title**"), a number ("12. Title") or a bullet ("- Title"); a
# short label in brackets after the bold ("**Title** (Oral)", "**Title** [PDF]") too: it was
# kept in the title with the closing bold (an outside curator).
_TITLE_WRAPPING = re.compile(
    r"^(?:\d{1,4}[.)] |[-•*] )?(?:\*\*|__)?(.*?)"
    r"(?:(?:\*\*|__)(?: ?[(\[][^()\[\]]{1,20}[)\]])*)?$"
)
# People apart on a bibliography's line: semicolons, or "and" / "&" between names written
# family name first ("Müller, Lukas and Dubois, Émilie").
_PEOPLE = re.compile(r"\s*;\s*|\s+(?:and|&)\s+")
# An initial of a given name ("J.", "J.-P.", "A.B."): a word of capitals, each with its stop.
_INITIALS = re.compile(r"^(?:[^\W\d_]\.-?)+$")


def family_first_names(line: str, labelled: bool = False) -> list[str]:
    """The names of a line written family name first, as given name first: "Müller, J.;
    Schmidt, A. B." (it ends with a full stop: read as no names, it cost a page its titles),
    "Manning, Christopher D.; Ana Núñez", "Müller, Lukas and Dubois, Émilie"; [] for any
    other line. Apart by "and", each name is written so ("Attention, Please and Thank You" is
    a title, a reviewer), but on a line labelled as the authors' ("Authors: O'Brien, Seán and
    Dmitry Ivanov"), and has a family name of one word or a given name of initials ("Ada
    Lovelace, Alan Turing and Grace Hopper" is three names given name first); one name alone
    has a given name of a word and initials ("Manning, Christopher D.")."""
    if len(line) > 1000 or "," not in line:
        return []
    names, inverted = [], []
    for part in (part.strip() for part in _PEOPLE.split(line.strip(" ;"))):
        family, comma, given = (piece.strip() for piece in part.partition(","))
        if not comma:
            if len(part.split()) < 2 or not (labelled or ";" in line):
                return []
            names.append(part)
            continue
        if not (family and given) or "," in given:
            return []
        names.append(f"{given} {family}")
        inverted.append((family, given.split()))
    if not inverted or (len(names) == 1 and not _one_named(inverted[0][1])):
        return []
    if ";" not in line and not all(
        one_word(family) or all(map(_INITIALS.match, given)) for family, given in inverted
    ):
        return []
    return names


def _one_named(given: list[str]) -> bool:
    """Whether a line of one name family first names a person: its given name a word and
    initials ("Manning, Christopher D."), not initials alone ("Müller, J.", a subtitle's)."""
    return bool(_INITIALS.match(given[-1])) and not all(map(_INITIALS.match, given))


def one_word(family: str) -> bool:
    """A family name of one word but its particles ("van den Bosch", "Hakkani-Tür")."""
    return sum(word.lower() not in LINE_PARTICLES for word in family.split()) == 1


# "et al." ending a line of names; a full stop ending a name (an initial's, a generation's);
# a generation alone between commas ("Martin Luther King, Jr.").
_ET_AL = re.compile(r",?\s+et\s+al\.?$")
_NAME_END = re.compile(r"(?:\b[^\W\d_]|\b[JS]r)\.$")
_GENERATION = re.compile(r"(?:Jr|Sr)\.?|I{2,3}|IV")


def _is_name_word(word: str) -> bool:
    return (
        (word[0].isupper() and bool(_CAPITALISED.match(word)))
        or word.lower() in LINE_PARTICLES
        or bool(_ELIDED_PARTICLE.match(word))
        or _uncased_word(word)
    )


def _uncased_word(word: str) -> bool:
    """A word of a script without capitals: letters and the marks they carry ("राहुल", whose
    vowel signs are marks, not letters: such an author line was dropped), a letter first."""
    return (
        unicodedata.category(word[0]).startswith("L")
        and all(unicodedata.category(char)[0] in "LM" for char in word)
        and word.lower() == word.upper()
    )


def _is_name(text: str, alone: bool) -> bool:
    """A person's name: two to five name words, or one in Han, kana or Hangul; in a list of
    names, one word too ("Mausam"), but not an acronym ("BERT")."""
    if CJK_NAME.match(text):
        return True
    words = text.split()
    if len(words) == 1 and (alone or len(text) < 2 or text.isupper()):
        return False
    return (
        len(words) <= _NAME_WORDS
        and all(_is_name_word(word) for word in words)
        and not any(word.casefold() in NOT_NAME_WORDS for word in words)
    )


def author_names(line: str) -> list[str]:
    """The names an author line lists ("Ada Lovelace, Alan Turing and Grace Hopper"), or []
    when the line is not one: each part must be a person's name."""
    # Composed first: a decomposed "Nguyễn" is letters and marks, which no name word matched.
    cleaned = clean_title(unicodedata.normalize("NFC", line[:1001]))
    line = _AUTHORS_LABEL.sub("", cleaned)
    labelled = line != cleaned
    line = _EMAIL.sub("", line)
    listed = family_first_names(line, labelled=labelled)
    listed = listed if all(_is_name(name, False) for name in listed) else []
    # Apart by semicolons ("Müller, J.; Schmidt, A."), or one name ("Manning, Christopher D.",
    # not the names "Manning" and "Christopher D."), the family-first reading comes first.
    if listed and (";" in line or len(listed) == 1):
        return listed
    return _given_name_first(line) or listed  # "Müller, Lukas and Dubois, Émilie" last


def is_affiliation_line(line: str) -> bool:
    """Whether a line lists affiliations after their marks ("¹University of Amsterdam
    ²Universidad de Chile"), which a page writes under its authors' names."""
    return bool(_AFFILIATION_LINE.match(line))


def _given_name_first(line: str) -> list[str]:
    """The names of a line of names written given name first, or []: a line ending as a
    sentence does is none, but for an initial, a generation ("Martin Luther King Jr.", or
    "King, Jr.": one name) or "et al." (left out) ending it; each made its whole page's titles
    abstracts (an outside curator)."""
    line = _ET_AL.sub("", line)
    sentence_end = line.endswith(".") and not _NAME_END.search(line)
    if sentence_end or line.endswith((":", "?", "!")) or len(line) > 1000:
        return []
    parts = (part.strip() for part in _SEPARATORS.split(_MARKS.sub("", line)))
    names: list[str] = []
    for name in (part.removeprefix("and ") for part in parts):
        if names and _GENERATION.fullmatch(name):
            names[-1] = f"{names[-1]} {name}"
        elif name:
            names.append(name)
    alone = len(names) == 1
    if not names or not all(_is_name(name, alone) for name in names):
        return []
    # Mostly names of two words or more: "Discourse and Pragmatics" is a topic, not people.
    multiword = sum(len(name.split()) > 1 or bool(CJK_NAME.match(name)) for name in names)
    return names if multiword * 2 >= len(names) else []


def clean_title(line: str) -> str:
    """The title without its wrapping: bold, a number, a bullet, a pictograph at either end
    ("📄 ")."""
    line = fold_whitespace(line)
    start, end = 0, len(line)
    while start < end and unicodedata.category(line[start]) == "So":
        start += 1
    while end > start and unicodedata.category(line[end - 1]) == "So":
        end -= 1
    for _ in range(2):  # "**1. Title**": the bold, then the number
        line = _TITLE_WRAPPING.match(line[start:end].strip())[1].strip()
        start, end = 0, len(line)
    return line
