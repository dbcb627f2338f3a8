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


def apart_compounds(text: str, words: str) -> dict[str, str]:
    """The values of the query's compounds written apart, one per compound i of ``words`` (as
    typed, joined) that ``text`` (the websearch query) also searches as a phrase of its
    parts: apart<i>, a regular expression finding the parts in a row, whatever spaces them,
    and joined<i>, the compound."""
    own = set(typed_words(joined_hyphens(words)))
    values, seen = {}, set()
    for phrase in _PHRASE.findall(text):
        parts = phrase.lower().split()
        joined = "".join(parts)
        if len(parts) > 1 and joined in own and joined not in seen:
            seen.add(joined)
            i = len(seen)
            values[f"apart{i}"] = r"\m" + r"\s+".join(map(re.escape, parts)) + r"\M"
            values[f"joined{i}"] = joined
    return values


def joined_apart(own: str, count: int, flags: str) -> str:
    """SQL of the text ``own`` with the query's ``count`` compounds written apart joined
    (%(apart<i>)s → %(joined<i>)s, regexp_replace with ``flags``)."""
    for i in range(1, count + 1):
        own = f"regexp_replace({own}, %(apart{i})s, %(joined{i})s, '{flags}')"
    return own
