"""Spelling suggestions for queries that find nothing or few papers, from the collection's own
words.

Bounded work: a word's candidates are the Lexeme words with its first letter (a range of the
primary key's index, about a twentieth of the vocabulary), filtered by trigram similarity or
equal to the word with two neighbouring letters swapped; a word misspelt in its first letter
is not corrected. (A trigram index of the words read long
posting lists for common trigrams, and the planner chose it for plain lookups by word too: the
table has none, see Lexeme.)
"""

import re
from typing import NamedTuple

from .tables import reading_cursor

# What a candidate ``l`` of a word of stem ``s.stem``, in ``s.documents`` papers, must be: a
# word in more than the rare papers is read no further (a pasted title's common words scanned
# a twentieth of the vocabulary each); a candidate is another word of letters a to z, far
# commoner than the word.
_CANDIDATE = """s.stem IS NOT NULL AND s.documents <= %s
      AND l.word ~ '^[a-z]+$' AND l.word <> s.stem AND s.documents * %s <= l.documents"""
_SPELLING_CANDIDATES_SQL = f"""
SELECT t.word, s.stem, l.word, l.documents, s.documents
FROM unnest(%s::text[]) AS t(word)
CROSS JOIN LATERAL (SELECT (ts_lexize('english_stem', t.word))[1] AS stem) AS w
-- The papers having the stem (0 for a stem the collection lacks), read once per word.
CROSS JOIN LATERAL (
    SELECT w.stem,
           COALESCE((SELECT k.documents FROM papers_lexeme k WHERE k.word = w.stem), 0)
               AS documents
) AS s
CROSS JOIN LATERAL (
    -- The trigram test before the others: it leaves few of the range's thousands of words.
    (SELECT l.word, l.documents FROM papers_lexeme l
     WHERE l.word >= left(s.stem, 1) AND l.word < chr(ascii(s.stem) + 1) AND l.word %% s.stem
       AND {_CANDIDATE}
     ORDER BY similarity(l.word, s.stem) DESC, l.documents DESC, l.word
     LIMIT 20)
    UNION
    -- The stem with two neighbouring letters swapped (not the first): the commonest slip,
    -- and one trigrams miss in a short word ("nueral" shares three of eleven with "neural").
    (SELECT l.word, l.documents FROM papers_lexeme l
     WHERE {_CANDIDATE} AND l.word = ANY(ARRAY(
         SELECT overlay(s.stem PLACING substr(s.stem, i + 1, 1) || substr(s.stem, i, 1)
                        FROM i FOR 2)
         FROM generate_series(2, length(s.stem) - 1) AS i)))
) AS l
"""

_SURFACE_FORMS_SQL = """
SELECT DISTINCT c.lexeme, m[1]
FROM unnest(%s::text[]) AS c(lexeme)
CROSS JOIN LATERAL (
    (SELECT lower(p.title || ' ' || p.abstract) AS text FROM papers_paper p
     WHERE p.search_vector @@ plainto_tsquery('simple', c.lexeme)
       AND ts_filter(p.search_vector, '{a,c}') @@ plainto_tsquery('simple', c.lexeme)
     LIMIT 3)
    UNION ALL
    -- Titles, short, show more of its forms for the work: three abstracts saying "tag",
    -- "tags" and "tagged" hid "tagging", the form "taging" meant.
    (SELECT lower(p.title) FROM papers_paper p
     WHERE p.title_vector @@ plainto_tsquery('simple', c.lexeme) LIMIT 20)
) AS found
CROSS JOIN LATERAL regexp_matches(
    found.text, '\\m(' || left(c.lexeme, GREATEST(3, length(c.lexeme) - 1)) || '[a-z]*)', 'g'
) AS m
"""


# A ranked query matching this few papers at most is respelled, and the respelling's results
# shown when it is sure (papers/search.py). A word the collection has is respelled only when
# it is rare (in ``rare`` papers at most; the pages ask for FEW_MATCHES) and a near word is
# COMMONER_BY times commoner.
RARE_WORD = 3
COMMONER_BY = 50
# A respelling is shown at once (the results of the words respelled, a link back to those
# typed) when no word took more edits than this, and the query matched at most RARE_WORD
# papers; otherwise it is offered ("Did you mean"): "unterminated", in no paper, is three edits
# from "undermined", whose papers are about something else.
SHOWN_AT_ONCE_EDITS = 2
# A query matching this few papers is offered its respelling beside its results when a word
# of it is in this few papers, beside a COMMONER_BY times commoner near word: "transfomer"
# found the four papers misspelling it, and no word of "transformer"'s 2,942.
FEW_MATCHES = 10
# The lexemes near a word's stem whose written forms are compared with the word, and how many
# edits more than the word's own bound a stem may be away (a stem drops a suffix's letters).
NEAREST = 6
STEM_SLACK = 2


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, transpositions."""
    previous2, previous = None, list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


# A word of a query: letters of any script. Only words of the letters a to z are respelled
# (the vocabulary's candidates are): "café" was read as "caf" and respelled "caoé".
_WORD = re.compile(r"[^\W\d_]{3,}")
_PLAIN_WORD = re.compile(r"[a-z]+")


def _query_words(text: str) -> list[str]:
    """The query's words of three letters a to z or more, lowercased, once each."""
    words = []
    for word in _WORD.findall(text):
        lowered = word.lower()
        plain = _PLAIN_WORD.fullmatch(lowered) and lowered not in {"and", "or", "not"}
        if plain and lowered not in words:
            words.append(lowered)
    return words[:8]


def _closest_lexemes(cursor, words: list[str], rare: int) -> dict[str, tuple[int, list]]:
    """For each word whose stem the collection lacks, or has in at most ``rare`` papers while
    a near lexeme is COMMONER_BY times commoner ("taging": tagE, one paper's name, beside
    tagging): the papers having its stem, and (distance, -documents, lexeme) of the NEAREST
    lexemes by edit distance from its stem, the commoner first on ties. Stems are cut short
    ("mechanism": mechan), so a rare misspelling's stem can be nearer the typed stem than the
    word meant: the choice among them is made on the words as written (``did_you_mean``)."""
    near: dict[str, list[tuple]] = {}
    known: dict[str, int] = {}
    cursor.execute(_SPELLING_CANDIDATES_SQL, [words, *[rare, COMMONER_BY] * 2])
    for typed, stem, lexeme, documents, typed_documents in cursor.fetchall():
        key = (edit_distance(stem, lexeme), -documents, lexeme)
        # One edit in a word of up to five letters ("cafe" is not "ca"), a third of a longer
        # one, and a stem cut short a few more.
        if key[0] <= max(1, len(stem) // 3) + STEM_SLACK:
            near.setdefault(typed, []).append(key)
            known[typed] = typed_documents
    return {typed: (known[typed], sorted(keys)[:NEAREST]) for typed, keys in near.items()}


def _surface_forms(cursor, lexemes: list[str]) -> dict[str, list[str]]:
    """How the collection writes each lexeme (stems are not words), read from titles and
    abstracts: a paper may have the lexeme from an author's name only."""
    forms: dict[str, list[str]] = {}
    cursor.execute(_SURFACE_FORMS_SQL, [lexemes])
    for lexeme, form in cursor.fetchall():
        forms.setdefault(lexeme, []).append(form)
    return forms


def _respell(text: str, replacements: dict[str, str]) -> str:
    """The text with each replaced word swapped, keeping the typed word's capitals."""

    def swap(match):
        typed = match.group(0)
        better = replacements.get(typed.lower())
        if better is None:
            return typed
        if typed.isupper() and len(typed) > 1:
            return better.upper()
        return better.capitalize() if typed[0].isupper() else better

    return _WORD.sub(swap, text)


class Respelling(NamedTuple):
    """A query respelled, the most edits one of its words took, the words it replaced
    (lowercased, as typed), and the most papers one of those is in (0: none is known)."""

    text: str
    edits: int
    replaced: tuple[str, ...]
    known: int = 0


def did_you_mean(text: str, rare: int = RARE_WORD) -> str | None:
    """The query respelled (``respelling``), or None."""
    respelled = respelling(text, rare)
    return respelled.text if respelled else None


def respelling(text: str, rare: int = RARE_WORD) -> Respelling | None:
    """The query respelled from the collection's own vocabulary, or None (at most two queries).

    Each alphabetic word whose stem the collection lacks (or has in ``rare`` papers at most,
    beside a COMMONER_BY times commoner near word) gets the Lexeme words with its first letter near its stem by
    trigram similarity; the closest by edit distance (ties: the commoner) wins and is written
    as the collection writes it.
    """
    words = _query_words(text)
    if not words:
        return None
    with reading_cursor() as cursor:
        near = _closest_lexemes(cursor, words, rare)
        if not near:
            return None
        lexemes = {key[2] for _, keys in near.values() for key in keys}
        forms = _surface_forms(cursor, sorted(lexemes))
    replacements, edits, known = {}, 0, 0
    for typed, (documents_typed, keys) in near.items():
        # The nearest as written, the commoner on ties ("mechansim": mechanism, not the one
        # paper's "mechanims", whose stem is nearer).
        spelled = sorted(
            (edit_distance(typed, form), documents, form)
            for _, documents, lexeme in keys
            for form in forms.get(lexeme, [])
        )
        if spelled and spelled[0][0] <= max(1, len(typed) // 3) and spelled[0][2] != typed:
            replacements[typed] = spelled[0][2]
            edits = max(edits, spelled[0][0])
            known = max(known, documents_typed)
    if not replacements:
        return None
    return Respelling(_respell(text, replacements), edits, tuple(replacements), known)
