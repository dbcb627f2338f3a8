"""The keys by which two spellings of one person's or topic's name are one (pure): the
loader's key of authors and topics, and an author's second key with umlauts written out."""

import re
import unicodedata

from .text import fold_whitespace, latin_unaccented

# A generation's suffix ending a name ("Hal Daumé III", "Martin Luther King Jr."), as its key
# writes it.
GENERATIONS = frozenset({"jr", "sr", "ii", "iii", "iv"})
# An initial's stop and the space after it, or none ("V.S."): 29 Anthology people have both.
_INITIAL_STOP = re.compile(r"\b([^\W\d_])\.(?:\s+|(?=[^\W\d_])|$)")
_BETWEEN_LETTERS = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # 36 "Hakkani-Tür"/"Hakkani Tur"


def name_key(name: str) -> str:
    """What two spellings of one person's or topic's name share, the loader's key of authors and
    topics: NFKC, case-folded, Latin accents dropped ("André Martins" is "Andre Martins"), and
    initials' stops too ("Laks V.S. Lakshmanan" is "Laks V S Lakshmanan"), a hyphen between
    letters a space ("Hakkani-Tür" is "Hakkani Tur"; "GPT-3.5" keeps its), whitespace folded."""
    folded = latin_unaccented(unicodedata.normalize("NFKC", name).casefold())
    if "-" in folded:  # most names have none: the loader keys every name it reads
        folded = _BETWEEN_LETTERS.sub(" ", folded)
    return without_initial_stops(folded)


def without_initial_stops(name: str) -> str:
    """The name without its initials' stops, whitespace folded ("C.D. Manning": "C D Manning")."""
    return fold_whitespace(_INITIAL_STOP.sub(r"\1 ", name))


# Umlauts written out, as German writes them without the dots: the Anthology folder writes ten
# people both ways ("Schütze", "Schuetze"), 13 with the dots dropped (name_key's); ß is "ss".
_UMLAUTS_WRITTEN_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def umlaut_key(name: str) -> str:
    """The name's key with its umlauts written out ("hinrich schuetze" for "Hinrich Schütze"),
    or "" for a name without umlauts: a second key, by which a name matches its spelling
    without them. Only a name with umlauts has one: "Xue" and "Xu" stay two names."""
    text = unicodedata.normalize("NFKC", name).casefold()
    written_out = text.translate(_UMLAUTS_WRITTEN_OUT)
    return name_key(written_out) if written_out != text else ""
