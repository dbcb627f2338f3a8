"""A compound the query joins, found where a title or abstract writes it apart.

A query's compound is scored joined ("question answering" → questionanswering, as the index
holds "Question-Answering"; papers/understanding.py join_compounds), and the texts it is
counted in had only their hyphens removed: a title writing it apart ("Visual Question
Answering", most of them) lacked the word, so the fourteen titles writing "Question-Answering"
ranked above every one writing it apart (an outside tester; scores 8.7 against 2.3). Where
the query also searches the compound as a phrase of its parts, the texts it is scored on
(title_match.OWN, word_counts.ABSTRACT_OWN) write those parts joined too, however spaced.
"""

import re

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


def apart_values(compounds: list[tuple[str, str]]) -> dict[str, str]:
    """The statement's values of ``compounds`` (apart_compounds): apart<i>, joined<i>."""
    values = {}
    for i, (pattern, joined) in enumerate(compounds, 1):
        values[f"apart{i}"], values[f"joined{i}"] = pattern, joined
    return values


def joined_apart(own: str, count: int, flags: str) -> str:
    """SQL of the text ``own`` with the query's ``count`` compounds written apart joined
    (%(apart<i>)s → %(joined<i>)s, regexp_replace with ``flags``)."""
    for i in range(1, count + 1):
        own = f"regexp_replace({own}, %(apart{i})s, %(joined{i})s, '{flags}')"
    return own
