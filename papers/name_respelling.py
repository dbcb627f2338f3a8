"""A misspelt author's name respelled as the collection writes it ("Christopher Maning":
Christopher D. Manning), for a query shaped as a name, not of stop words alone, that names
nobody and matches no paper (papers/respelled.py: a query with matches is about its words).

The words' respelling (papers/spelling.py) reads the vocabulary of titles and abstracts, where a
family name is rare or stemmed into another word ("Manning" is the lexeme of "man"): a name
misspelt was respelled as words ("Yann LeCunn": "Yang LeCunn") or not at all ("Christopher
Maning", "Percy Lang", "Kyunghyun Choo": nothing, an outside researcher). Here the authors' keys
(papers/name_keys.py) are searched by trigram similarity through their index
(author_key_trigrams), the NEAREST_NAMES most similar are read, and the nearest by edit distance
wins (ties: the one with most papers), its middle initials aside ("christopher d manning" is
compared as "christopher manning"): each word of the name as typed at most NAME_EDITS edits
from the author's, with its first letter, and at least one word respelled.
"""

from .author_queries import looks_like_name
from .compounds import is_stop_word
from .name_keys import name_key
from .spelling import Respelling, edit_distance
from .tables import reading_cursor, sql

NEAREST_NAMES = 10
# A word of up to 7 letters takes one edit, a longer one two ("Jurafksy" is one: a transposition).
NAME_EDITS = (7, 1, 2)

# The authors whose key is near %s by trigram similarity (pg_trgm's threshold), the nearest
# first, with their paper counts (an index probe each).
_NEAR_SQL = """SELECT a.name, a.key,
    (SELECT count(*) FROM {authorship} s WHERE s.author_id = a.id) AS papers
FROM {author} a WHERE a.key %% %s
ORDER BY similarity(a.key, %s) DESC, a.id LIMIT %s"""


def name_respelling(text: str) -> Respelling | None:
    """The query respelled as the name of the author nearest it, or None (one statement, only
    for a text shaped as a name)."""
    if not looks_like_name(text):
        return None
    typed = _without_initials(name_key(text))
    # Stop words alone make a phrase, not a name: "did we" was shown as Di Wu's papers (a
    # reviewer); a name may have one ("Xiaodong He", "Ma").
    if all(map(is_stop_word, typed)):
        return None
    with reading_cursor() as cursor:
        cursor.execute(sql(_NEAR_SQL), [" ".join(typed), " ".join(typed), NEAREST_NAMES])
        near = cursor.fetchall()
    found = []
    for name, key, papers in near:
        words = _without_initials(key)
        edits = _word_edits(typed, words)
        if edits is not None:
            found.append((edits, -papers, name, words))
    if not found:
        return None
    edits, _, name, words = min(found)
    return Respelling(name, edits, tuple(word for word in typed if word not in words))


def _without_initials(key: str) -> list[str]:
    return [word for word in key.split() if len(word) > 1]


def _word_edits(typed: list[str], author: list[str]) -> int | None:
    """The most edits a word of ``typed`` takes to be the author's word in its place, or None
    where the two are not one name misspelt (other words, too many edits, another first
    letter, or no edit at all: that name is the author's, AuthorQuerySet.named)."""
    if len(typed) != len(author):
        return None
    short, few, more = NAME_EDITS
    most = 0
    for word, written in zip(typed, author, strict=True):
        edits = edit_distance(word, written)
        if edits and (word[0] != written[0] or edits > (few if len(written) <= short else more)):
            return None
        most = max(most, edits)
    return most or None
