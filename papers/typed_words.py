"""A query's words as typed: those the relevance score (papers/relevance.py) counts as written,
and those that mean an acronym.

A word typed as an acronym (two capitals or more: "GLUE", "SQuAD") means the acronym where the
titles write it so: it is then counted only where a text writes it so, or all in capitals.
"Glue pizza and eat rocks" is not about the GLUE benchmark, yet the whole-title bonus ranked it
first for "GLUE"; a title having the word only in another case has neither the word nor the
bonus. A word the titles never write in capitals ("GLYPH") was typed so for emphasis, and
counts in any case.
"""

import re

from .compounds import websearch_text
from .title_match import TITLE_STOPWORDS

_TYPED_WORD = re.compile(r"\w+")
# A word of two capitals or more.
_ACRONYM = re.compile(r"\w*[A-Z]\w*[A-Z]\w*")
# SQL true when a title of {titles} (a FROM item with a title column) writes acronym word i so.
WRITTEN_SO = "(SELECT COALESCE(bool_or(x.title ~ %(cased{i})s), false) FROM {titles} AS x)"
# SQL true when acronym word i is written so ({written}) and the title {title} has it only in
# another case.
CASE_MISS = "({written} AND {title} ~* %(word_pattern{i})s AND {title} !~ %(cased{i})s)"


# An excluded word or phrase: "-" opening a word of the query ("-neural", '-"gender bias"').
_EXCLUDED = re.compile(r'(?<!\S)-(?:"[^"]*"?|\S*)')


def _typed(text: str) -> list[str]:
    """The query's words counted as written (not those it excludes, nor the stop words of
    titles), each once (as first typed), in their case. A word typed and also excluded inside
    a phrase is typed: 'bias -"gender bias"' ranks by "bias" (it was ranked by nothing, newest
    first)."""
    first: dict[str, str] = {}
    for word in _TYPED_WORD.findall(_EXCLUDED.sub(" ", websearch_text(text))):
        lowered = word.lower()
        if lowered not in TITLE_STOPWORDS and lowered != "or":
            first.setdefault(lowered, word)
    return list(first.values())[:16]


def typed_words(text: str) -> list[str]:
    """The query's words as typed, lowercased: those counted as written."""
    return [word.lower() for word in _typed(text)]


def acronyms(text: str) -> dict[int, str]:
    """{i: the word as typed} of the query's words (typed_words, from 1) typed as acronyms.
    None in a query of several words typed all in capitals ("MACHINE TRANSLATION"): caps
    lock, not acronyms."""
    typed = _TYPED_WORD.findall(websearch_text(text))
    if len(typed) > 1 and "".join(typed).upper() == "".join(typed):
        return {}
    return {i: word for i, word in enumerate(_typed(text), 1) if _ACRONYM.fullmatch(word)}


def written_so(text: str, titles: str) -> dict[int, str]:
    """{i: SQL true when a title of ``titles`` (a FROM item with a title column, maybe
    naming word i as {i}) writes acronym word i so}."""
    return {i: WRITTEN_SO.format(titles=titles.format(i=i), i=i) for i in acronyms(text)}


def case_misses(written: dict[int, str], title: str) -> dict[int, str]:
    """{i: SQL true when the title ``title`` has acronym word i only in another case, where
    it is written so (``written``, written_so's)}."""
    return {i: CASE_MISS.format(written=sql, title=title, i=i) for i, sql in written.items()}


def cased_in_title(in_title: str, misses: dict[int, str]) -> str:
    """``in_title`` (1 when the title matches the whole query), 0 where the title has an
    acronym of the query only in another case."""
    if not misses:
        return in_title
    return f"({in_title} * (NOT ({' OR '.join(misses.values())}))::int)"


def cased_count(i: int, count: str, misses: dict[int, str]) -> str:
    """``count`` of word i in a title, 0 where the title has it only in another case."""
    return f"(CASE WHEN {misses[i]} THEN 0 ELSE {count} END)" if i in misses else count


def patterns(words: str) -> dict[str, str]:
    """The regular expressions of each word i counted as typed: word_pattern<i> finds it as a
    whole word (in any case, with the flag i or ~*), cased<i>, for an acronym, as written or
    all in capitals (case sensitive)."""
    values = {}
    cased = acronyms(words)
    for i, word in enumerate(typed_words(words), 1):
        values[f"word_pattern{i}"] = rf"\m{word}\M"
        if i in cased:
            forms = "|".join(dict.fromkeys([cased[i], cased[i].upper()]))
            values[f"cased{i}"] = rf"\m(?:{forms})\M"
    return values
