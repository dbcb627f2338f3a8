"""A compound the query joins, found where a title or abstract writes it apart.

A query's compound is scored joined ("question answering" → questionanswering, as the index
holds "Question-Answering"; papers/understanding.py join_compounds), and the texts it is
counted in had only their hyphens removed: a title writing it apart ("Visual Question
Answering", most of them) lacked the word, so the fourteen titles writing "Question-Answering"
ranked above every one writing it apart (an outside tester; scores 8.7 against 2.3). Where
the query also searches the compound as a phrase of its parts, the texts it is scored on
(title_match.OWN, word_counts.ABSTRACT_OWN) write those parts joined too, however spaced.

The other way round, a compound with a stop word part is scored on its words, a phrase ("chain
of thought", papers/understanding.py join_compounds), and the texts write it joined where they
hyphenate it ("Chain-of-Thought" → chainofthought): they write those words apart again, or
every title hyphenating it ranked below every one writing it apart (an outside tester:
"chain-of-thought" put the first "Chain-of-Thought" title 17th, scored 3.7 against 7.4-10.5).

A word with another regional spelling ("tokenisation", "tokenization") is scored as typed
wherever the text writes either (``regional_forms``), the query matching both already.
"""

import re

from .regional_spelling import other_spelling
from .title_match import joined_hyphens
from .typed_words import typed_words

_PHRASE = re.compile(r'"([^"]+)"')


def apart_compounds(text: str, words: str) -> list[tuple[str, str]]:
    """(pattern, compound) of each compound of ``words`` (as typed, joined) that ``text`` (the
    websearch query) also searches as a phrase of its parts: the pattern finds the parts in a
    row, whatever spaces them."""
    own = set(typed_words(joined_hyphens(words)))
    found: dict[str, str] = {}
    for phrase in _PHRASE.findall(text):
        parts = phrase.lower().split()
        joined = "".join(parts)
        if len(parts) > 1 and joined in own and joined not in found:
            found[joined] = r"\m" + r"\s+".join(map(re.escape, parts)) + r"\M"
    return [(pattern, joined) for joined, pattern in found.items()]


def spaced_compounds(words: str) -> list[tuple[str, str]]:
    """(pattern, words apart) of each phrase of ``words`` (the words a title is scored on):
    the pattern finds the phrase's words joined, as a text hyphenating them is written."""
    found: dict[str, str] = {}
    for phrase in _PHRASE.findall(words):
        parts = phrase.lower().split()
        if len(parts) > 1:
            found.setdefault(r"\m" + re.escape("".join(parts)) + r"\M", " ".join(parts))
    return list(found.items())


def regional_forms(words: str) -> list[tuple[str, str]]:
    """(pattern, word) of each of ``words`` (as typed) with another regional spelling: the
    pattern finds that spelling, which the texts scored write as typed. The query matched both
    (papers/regional_spelling.py), but counted only the one typed: "tokenisation" put token
    reduction papers above the forty titles saying "Tokenization" (an outside researcher)."""
    found = []
    for word in typed_words(words):
        if other := other_spelling(word):
            found.append((r"\m" + re.escape(other.lower()) + r"\M", word))
    return found


def _rewritten(words: str) -> list[tuple[str, str]]:
    return spaced_compounds(words) + regional_forms(words)


def compound_forms(text: str, words: str) -> tuple[int, int]:
    """How many compounds of the query ``text`` are joined where written apart, and how many
    of its ``words`` are spaced where written joined or written in their other regional
    spelling (the ``forms`` of ``joined_apart``)."""
    return len(apart_compounds(text, words)), len(_rewritten(words))


def compound_values(text: str, words: str) -> dict[str, str]:
    """The statement's values of those forms: apart<i>, joined<i>, spaced<i>, words<i>."""
    values = {}
    for i, (pattern, joined) in enumerate(apart_compounds(text, words), 1):
        values[f"apart{i}"], values[f"joined{i}"] = pattern, joined
    for i, (pattern, written) in enumerate(_rewritten(words), 1):
        values[f"spaced{i}"], values[f"words{i}"] = pattern, written
    return values


def joined_apart(own: str, forms: tuple[int, int], flags: str) -> str:
    """SQL of the text ``own`` with the query's compounds written apart joined
    (%(apart<i>)s → %(joined<i>)s), and those scored as words spaced and the words' other
    regional spellings written as typed (%(spaced<i>)s → %(words<i>)s), regexp_replace with
    ``flags``; ``forms``: compound_forms's counts."""
    joins, spaces = forms
    for i in range(1, joins + 1):
        own = f"regexp_replace({own}, %(apart{i})s, %(joined{i})s, '{flags}')"
    for i in range(1, spaces + 1):
        own = f"regexp_replace({own}, %(spaced{i})s, %(words{i})s, '{flags}')"
    return own
