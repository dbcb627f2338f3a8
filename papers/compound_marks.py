"""Marks on the compounds with a stop word part ("few-shot", "on-premises", "in-the-wild").

The index and the query hold such a compound joined ("fewshot", papers/compounds.py), where
ts_headline reads the text as written: "Few-Shot" is "few-shot", "few" (a stop word) and "shot",
and the joined word is none of them. So "few-shot" marked no word of any card, and its
snippets were the abstracts' first lines, not the passages naming it (an outside researcher;
"zero-shot", searched as its parts in a row too, was marked). The query the headlines read
(``headline_query``) also has each such joined word as its parts hyphenated, which ts_headline
finds ('few-shot' <2> 'shot') and marks by its content parts; ``whole_compound_marks`` widens
a mark over the stop word parts beside it, so that the whole compound is marked.
"""

import re

from .compounds import is_stop_word
from .headlines import MARK_START, MARK_STOP

# A joined word is read as a compound from this many letters, in this many parts at most, its
# content parts of three letters or more and its stop words of two ("fewshot", "onpremises",
# "inthewild"; not "t", "heory").
MIN_LETTERS = 6
MAX_PARTS = 4
MIN_CONTENT = 3
MIN_STOP = 2

_WORD = re.compile(rf"(?<![\w-])[^\W\d_]{{{MIN_LETTERS},}}(?![\w-])")
# The hyphenated parts before a mark and after one, whose stop words the mark takes in.
_BEFORE_MARK = re.compile(rf"(?<![\w-])((?:[^\W\d_]+-)+){MARK_START}")
_AFTER_MARK = re.compile(rf"{MARK_STOP}((?:-[^\W\d_]+)+)(?![\w-])")


def stop_word_parts(word: str) -> list[str] | None:
    """``word`` split into stop words and content parts, with at least one of each, the most
    stop words, then the fewest parts ("fewshot": few, shot; "inthewild": in, the, wild); None
    where it cannot be ("language")."""
    splits = [
        (-stops, len(parts), parts)
        for parts in _splits(word.lower(), MAX_PARTS)
        if 0 < (stops := sum(map(is_stop_word, parts))) < len(parts)
    ]
    return min(splits)[2] if splits else None


def _splits(word: str, most: int):
    """Each way of writing ``word`` as up to ``most`` parts, each a stop word or a content
    part (``_part``)."""
    if _part(word):
        yield [word]
    if most < 2:
        return
    for end in range(1, len(word)):
        head = word[:end]
        if _part(head):
            for rest in _splits(word[end:], most - 1):
                yield [head, *rest]


def _part(text: str) -> bool:
    return len(text) >= (MIN_STOP if is_stop_word(text) else MIN_CONTENT)


def headline_query(text: str) -> str:
    """The query ``text`` (websearch syntax) for ts_headline: as it is, or'ed with a copy whose
    joined compounds with a stop word part are hyphenated ("fewshot learning or few-shot
    learning")."""
    hyphenated = _WORD.sub(lambda word: "-".join(stop_word_parts(word[0]) or [word[0]]), text)
    return text if hyphenated.lower() == text.lower() else f"{text} or {hyphenated}"


def whole_compound_marks(headline: str) -> str:
    """``headline`` with each mark on a compound's content part widened over the stop word
    parts hyphenated to it ("Few-<mark>Shot</mark>": "<mark>Few-Shot</mark>"), and marks only
    a hyphen parts joined ("<mark>Zero</mark>-<mark>Shot</mark>": "<mark>Zero-Shot</mark>")."""
    if f"-{MARK_START}" not in headline and f"{MARK_STOP}-" not in headline:
        return headline  # most headlines: no mark beside a hyphen, one scan each
    widened = _BEFORE_MARK.sub(_widened_before, headline)
    widened = _AFTER_MARK.sub(_widened_after, widened)
    return widened.replace(f"{MARK_STOP}-{MARK_START}", "-")


def _widened_before(hyphenated: re.Match) -> str:
    """The parts before a mark, the mark opened before the stop words among the last of
    them ("state-of-the-" and a mark: "state-" and the mark before "of-the-")."""
    parts = hyphenated[1].split("-")[:-1]
    kept = len(parts)
    while kept and _is_stop_part(parts[kept - 1]):
        kept -= 1
    before = "".join(f"{part}-" for part in parts[:kept])
    return before + MARK_START + "".join(f"{part}-" for part in parts[kept:])


def _widened_after(hyphenated: re.Match) -> str:
    """The parts after a mark, the mark closed after the stop words among the first of them."""
    parts = hyphenated[1].split("-")[1:]
    taken = 0
    while taken < len(parts) and _is_stop_part(parts[taken]):
        taken += 1
    inside = "".join(f"-{part}" for part in parts[:taken])
    return inside + MARK_STOP + "".join(f"-{part}" for part in parts[taken:])


def _is_stop_part(part: str) -> bool:
    return len(part) >= MIN_STOP and is_stop_word(part)
