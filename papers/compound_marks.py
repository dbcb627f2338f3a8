"""Marks on the compounds a query types ("few-shot", "few shot", "on-premises").

The index and the query hold a compound joined ("fewshot", papers/compounds.py), where
ts_headline reads the text as written: "Few-Shot" is "few-shot", "few" (a stop word) and "shot",
and the joined word is none of them. So "few-shot" marked no word of any card, and its snippets
were the abstracts' first lines, not the passages naming it (an outside researcher). The query
the headlines read (``headline_query``) also has each compound with a stop word part that the
query typed, hyphenated or apart (``typed_compounds``), as its parts hyphenated, which
ts_headline finds ('few-shot' <2> 'shot') and marks by its content parts;
``whole_compound_marks`` then marks each of the query's compounds whole where a part of it is
marked ("Zero-Shot" too, marked part by part before). Only the query's own compounds: every
long word split at its stop words, "inform" was searched as "in-form" too and "form" marked,
and "out-of-distribution" marked whole for "distribution shift" (a reviewer).
"""

import re

from .compounds import is_stop_word
from .headlines import MARK_START, MARK_STOP

# The most parts a compound typed apart is joined from (papers/understanding.py joins up to
# four: "state of the art").
MAX_PARTS = 4

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_S, _E = MARK_START, MARK_STOP
# A hyphenated word, marks anywhere in it.
_MARKED_COMPOUND = re.compile(
    rf"(?<![\w-])[{_S}{_E}]*[^\W\d_]+(?:[{_S}{_E}]*-[{_S}{_E}]*[^\W\d_]+)+[{_S}{_E}]*(?![\w-])"
)


def typed_compounds(typed: str, text: str) -> frozenset[tuple[str, ...]]:
    """The compounds ``typed`` (the query as typed) writes hyphenated ("few-shot"), and those
    it writes apart that ``text`` (the query searched) joins ("few shot" as fewshot), each as
    its parts, lowercased."""
    words = _WORD.findall(typed.lower())
    searched = set(_WORD.findall(text.lower()))
    found = {tuple(word.split("-")) for word in words if "-" in word}
    for start in range(len(words)):
        for size in range(2, MAX_PARTS + 1):
            parts = words[start : start + size]
            apart = len(parts) == size and not any("-" in part for part in parts)
            if apart and "".join(parts) in searched:
                found.add(tuple(parts))
    return frozenset(found)


def headline_query(text: str, compounds: frozenset[tuple[str, ...]]) -> str:
    """The query ``text`` (websearch syntax) for ts_headline: as it is, or'ed with a copy
    whose ``compounds`` with a stop word part are hyphenated ("fewshot learning or few-shot
    learning"); the others are searched as their words in a row already."""
    hyphenated = text
    for parts in compounds:
        if any(map(is_stop_word, parts)):
            joined = re.compile(rf"(?<![\w-]){re.escape(''.join(parts))}(?![\w-])", re.I)
            hyphenated = joined.sub("-".join(parts), hyphenated)
    return text if hyphenated == text else f"{text} or {hyphenated}"


def whole_compound_marks(headline: str, compounds: frozenset[tuple[str, ...]]) -> str:
    """``headline`` with each of the query's ``compounds`` marked whole where a part of it is
    marked ("Few-<mark>Shot</mark>", "<mark>Zero</mark>-<mark>Shot</mark>": one mark each)."""
    if not compounds or MARK_START not in headline:
        return headline

    def whole(word: re.Match) -> str:
        plain = word[0].replace(MARK_START, "").replace(MARK_STOP, "")
        if MARK_START in word[0] and tuple(plain.lower().split("-")) in compounds:
            return MARK_START + plain + MARK_STOP
        return word[0]

    return _MARKED_COMPOUND.sub(whole, headline)
