"""A query word's other forms that a reader takes for the same word but the stemmer keeps
apart: an acronym's other number ("LLM", "LLMs"), a word's other regional spelling; and
an exclusion extended to them and to an acronym's words ("-LLM" also removes "LLMs" and
"large language model"). Pure."""

import re

from .acronyms import expansion
from .compounds import version_apart, versioned_compounds
from .regional_spelling import other_spelling
from .text import QUOTED

# An acronym, singular or plural: typed in capitals, or in small letters without a vowel
# ("llm", "gnns"). The stemmer folds a plural's "s" only after a vowel earlier in the word
# (BERTs: bert, GANs: gan), so "LLM" and "LLMs" are two lexemes and /?q=LLM missed the 2,300
# papers saying only "LLMs". Such an acronym is also searched in its other number, as a
# compound is as its words; one the stemmer folds is not (it would take a PHRASED place).
_ACRONYM = re.compile(r"([A-Z]{2,6}|[b-df-hj-np-tv-xz]{3,6}?)(s?)")
_VOWEL = re.compile(r"[aeiouy]", re.IGNORECASE)


# A word excluded by "-" opening it (not a hyphen inside a word, not a phrase, not the first
# part of an excluded compound: "-colour-blind" was "-colour -color-blind").
_EXCLUDED = re.compile(r"(?<![\w\"-])-(\w+)(?![\w-])")


def excluded_in_every_form(text: str) -> str:
    """The text with an excluded acronym excluded in its other number and as its words too
    (papers/acronyms.py), a word in its other spelling ("-LLM" did not remove the papers
    saying only "LLMs", where the page says an exclusion removes each form of its word), a
    compound with a version number as its parts in a row."""

    def every(match: re.Match) -> str:
        others = [other for other in (other_form(match[1]), expansion(match[1])) if other]
        return " ".join([match[0], *(f"-{other}" for other in others)])

    def forms(text: str) -> str:
        return _excluded_versions(_EXCLUDED.sub(every, text))

    # Not inside a quoted phrase: a word excluded there is part of the phrase as typed.
    pieces, done = [], 0
    for quoted in QUOTED.finditer(text):
        pieces += [forms(text[done : quoted.start()]), quoted[0]]
        done = quoted.end()
    return "".join(pieces) + forms(text[done:])


def _excluded_versions(text: str) -> str:
    """The text with each excluded compound with a version number excluded as its parts in a
    row too ("-GPT-3.5" kept the 84 papers writing "GPT-3.5-turbo", which "GPT-3.5" finds)."""
    pieces, done = [], 0
    for compound in versioned_compounds(text):
        if text[compound.start() - 1 : compound.start()] == "-":
            pieces += [text[done : compound.end()], f" -{version_apart(compound[0])}"]
            done = compound.end()
    return "".join(pieces) + text[done:]


def other_form(word: str) -> str | None:
    """The form of the word the stemmer keeps apart that a reader takes for the same word: an
    acronym's other number, a word's other regional spelling (papers/regional_spelling.py)."""
    return acronym_number(word) or other_spelling(word)


def acronym_number(word: str) -> str | None:
    """The other number of an acronym whose plural the stemmer keeps apart ("LLM": "LLMs",
    "llms": "llm"); None for any other word."""
    match = _ACRONYM.fullmatch(word)
    if match is None or _VOWEL.search(match[1][:-1]):
        return None
    return match[1] if match[2] else f"{match[1]}s"
