"""Names with a number after their letters ("M3CoT", "MC2"), which titles often write with the
number as a superscript: the Anthology's "M^3CoT" (shown M³CoT) is parsed as two words in a row,
'm' and '3cot', where the name typed is one word, 'm3cot', in no paper. Such a name is also
searched as its superscript form, a phrase: "M3CoT" → 'M3CoT or "M^3CoT"'.

Only where it can mean that name: the name must be rare as typed (fewer than RARE_NUMBERED
papers write it so: a common one, T5 or GPT4, means what it says, and its other form would be
a phrase tested over thousands of papers), its letters a word the index keeps ("T5" as "T^5" is
the stop word 't' and the number alone: every paper with a 5), and it is neither excluded nor
inside a quoted phrase. The other form is a quoted phrase added to the query as understood,
never understood again: its letters are not an acronym to expand ("LLM^2" is not "large
language model" and 2). The names are looked up with the query's other words, in one
statement (papers/word_lookups.py).
"""

import re

from .expressions import SEARCH_CONFIG
from .text import plain_matches, unquoted

RARE_NUMBERED = 5
_NUMBERED = re.compile(r'(?<![\w^"-])([A-Za-z]{1,6})([0-9]{1,2})([A-Za-z]*)(?![\w"^])')
# The ordinals of the names that are rare as typed and whose letters the index keeps.
RARE_SQL = f"""SELECT n.i FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS n(word, letters, i)
WHERE COALESCE((
    SELECT l.documents FROM {{lexeme}} AS l
    WHERE l.word = (tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', n.word)))[1]
), 0) < {RARE_NUMBERED}
AND cardinality(tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', n.letters))) > 0"""


def superscript_number(word: str) -> str | None:
    """The word with its number written as a superscript ("M3CoT": "M^3CoT"), or None for a
    word of another shape."""
    match = _NUMBERED.fullmatch(word)
    return f"{match[1]}^{match[2]}{match[3]}" if match else None


def _searched_names(text: str) -> list[re.Match]:
    """The numbered names of the text outside quoted phrases, not excluded."""
    return plain_matches(_NUMBERED, text)


def numbered_names(text: str) -> list[str]:
    """The numbered names of the text that may be searched in their other form."""
    return list(dict.fromkeys(name[0] for name in _searched_names(text)))


def rare_params(names: list[str]) -> list:
    """RARE_SQL's parameters for these names."""
    return [names, [_NUMBERED.fullmatch(name)[1] for name in names]]


def with_superscripts(query: str, rare: set[str]) -> str:
    """The query (the text as understood, papers/understanding.py) or the same with each of
    its ``rare`` numbered names (those RARE_SQL found) as its superscript phrase, each
    alternative once."""
    if not rare:
        return query
    pieces, done = [], 0
    for name in _searched_names(query):
        if name[0] in rare:
            pieces += [query[done : name.start()], f'"{superscript_number(name[0])}"']
            done = name.end()
    alternatives = _alternatives(query)
    others = [
        other
        for other in _alternatives("".join(pieces) + query[done:])
        if other not in alternatives
    ]
    return " or ".join([*alternatives, *others])


# "or" between two alternatives of a query, outside quoted phrases.
_OR = re.compile(r"\s+or\s+")


def _alternatives(query: str) -> list[str]:
    """The query's alternatives, in order: a name's superscript form is added to each, but not
    twice where the query already holds it ("LLM2" searched as 'LLM2 or "LLM 2"' too)."""
    pieces, done = [], 0
    for separator in unquoted(_OR.finditer(query), query):
        pieces.append(query[done : separator.start()])
        done = separator.end()
    return [*pieces, query[done:]]
