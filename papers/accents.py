"""Words written with and without their accents ("Québec" and "Quebec", "Bokmål" and "Bokmal",
"naïve" and "naive"): one word to a reader, two to the index, so each spelling found only the
papers written the same way ("Québec" found none of the two papers on Quebec; an outside
tester). A query word one spelling of which the collection has is also searched in the other:
"naive bayes" → 'naive bayes or naïv bayes' (the other spelling as the index holds it, which
it parses to itself).

Only plain words, not inside a quoted phrase (a phrase asks for what it says); an excluded word
is excluded in its other spelling too ("resume -résumé" removes the papers writing "resume").
A word typed without accents takes its commonest accented spelling in the collection; one
typed with them, its spelling without (papers_unaccented, the translation names use). The
words are looked up with the query's other words, in one statement (papers/word_lookups.py),
through the index on the lexemes' unaccented spellings.
"""

import re

from .expressions import SEARCH_CONFIG
from .text import OPERATORS, plain_matches, unquoted

_WORD = re.compile(r"(?<![\w^\"'-])[^\W\d_]{3,}(?![\w\"'^])")
# Each word's other spelling in the collection, one that the index parses to itself: for a
# word without accents, its commonest accented spelling; for one with, the spelling without,
# or its stem: the stemmer leaves an accented word whole, and "résumé" found none of the 13
# papers writing "resume" (their lexeme "resum"; an outside tester).
OTHER_SQL = f"""SELECT n.i, COALESCE(
    (SELECT v.word FROM {{lexeme}} AS v
     WHERE papers_unaccented(v.word) = s.lexeme AND octet_length(v.word) > length(v.word)
     AND papers_unaccented(s.lexeme) = ''
     AND (tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', v.word)))[1] = v.word
     ORDER BY v.documents DESC, v.word LIMIT 1),
    (SELECT u.word FROM {{lexeme}} AS u
     WHERE u.word IN (papers_unaccented(s.lexeme), (tsvector_to_array(
         to_tsvector('{SEARCH_CONFIG}', NULLIF(papers_unaccented(n.word), ''))))[1])
     AND (tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', u.word)))[1] = u.word
     ORDER BY u.documents DESC, u.word LIMIT 1))
FROM unnest(%s::text[]) WITH ORDINALITY AS n(word, i)
CROSS JOIN LATERAL (
    SELECT (tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', n.word)))[1] AS lexeme
) AS s"""


def _searched_words(text: str) -> list[re.Match]:
    """The words of the text outside quoted phrases, not excluded, not operators."""
    return [word for word in plain_matches(_WORD, text) if word[0].lower() not in OPERATORS]


# A word excluded ("-résumé"), outside quoted phrases.
_EXCLUDED_WORD = re.compile(r"(?<![\w^\"'-])-([^\W\d_]{3,})(?![\w\"'^])")


def _excluded_words(text: str) -> list[re.Match]:
    return unquoted(_EXCLUDED_WORD.finditer(text), text)


def spelled_words(text: str) -> list[str]:
    """The plain and excluded words of the text, lowercased, that may have another spelling
    (OTHER_SQL's parameter)."""
    words = [word[0] for word in _searched_words(text)]
    words += [word[1] for word in _excluded_words(text)]
    return list(dict.fromkeys(word.lower() for word in words))


def with_accents(query: str, others: dict[str, str]) -> str:
    """The query (the text as understood, papers/understanding.py), each excluded word that
    has another spelling (``others``, from OTHER_SQL) excluded in it too ("resume -résumé"
    kept the 13 papers writing "resume", an outside tester), and "or" the same with each plain
    word that has one written so."""
    if not others:
        return query
    pieces, done = [], 0
    for word in _excluded_words(query):
        if word[1].lower() in others:
            pieces += [query[done : word.end()], f" -{others[word[1].lower()]}"]
            done = word.end()
    query = "".join(pieces) + query[done:]
    pieces, done = [], 0
    for word in _searched_words(query):
        if word[0].lower() in others:
            pieces += [query[done : word.start()], others[word[0].lower()]]
            done = word.end()
    return f"{query} or {''.join(pieces)}{query[done:]}" if pieces else query
