"""What the topic model (papers/tagging.py) reads of the collection: each paper's lexemes as a
binary matrix, its title's marked apart, and the area topics' rules approximated on that matrix
over titles alone, its weak labels (a phrase matches when all its words occur, a ``-term``
excludes)."""

from __future__ import annotations

import re
from itertools import compress, count
from operator import itemgetter, methodcaller

from django.db import connection

from .expressions import SEARCH_CONFIG
from .models import Topic
from .staging import papers_source
from .tables import sql

MIN_DOCUMENTS = 3
TITLE_MARK = "^"

# Each paper's title lexemes, marked, then its title and abstract lexemes, as one string of words
# separated by single spaces (the parser's lexemes hold no spaces), so that the client splits the
# whole collection at once. A title without lexemes leaves the bare mark, a feature of its own.
# Unordered: sorting rows this wide spills to disk at 100,000 papers, the client sorts them by id.
_FEATURES_SQL = """
SELECT p.id, p.external_id,
       concat_ws(' ', '{mark}' || array_to_string(tsvector_to_array(ts_filter(v.words, '{{a}}')),
                                                  ' {mark}'),
                 NULLIF(array_to_string(tsvector_to_array(v.words), ' '), ''))
FROM {papers} p
CROSS JOIN LATERAL (SELECT ts_filter(p.search_vector, '{{a,c}}') AS words OFFSET 0) v
"""

_TERM_LEXEMES_SQL = (
    "SELECT term, tsvector_to_array(to_tsvector('{config}', papers_compounds(term))) "
    "FROM unnest(%s::text[]) term"
)

_RULE_TERM = re.compile(r'(-?)"([^"]*)"|(-?)(\S+)')


def _rule_terms(rule: str) -> list[tuple[bool, str]]:
    """(excluded, text) for each term of a websearch rule; "or" joins them."""
    terms = []
    for match in _RULE_TERM.finditer(rule):
        excluded, text = (match[1], match[2]) if match[2] is not None else (match[3], match[4])
        if text.lower() != "or" and text:
            terms.append((bool(excluded), text))
    return terms


def _term_lexemes(texts: set[str]) -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        cursor.execute(sql(_TERM_LEXEMES_SQL, config=SEARCH_CONFIG), [sorted(texts)])
        return dict(cursor.fetchall())


def rule_matches(matrix, vocabulary: dict[str, int], rules: list[str]):
    """A papers × rules boolean array: each rule approximated on the lexeme matrix."""
    import numpy as np

    parsed = [_rule_terms(rule) for rule in rules]
    lexemes = _term_lexemes({text for terms in parsed for _, text in terms})
    matrix = matrix.tocsc()
    matches = np.zeros((matrix.shape[0], len(rules)), dtype=bool)
    for column, terms in enumerate(parsed):
        wanted = np.zeros(matrix.shape[0], dtype=bool)
        excluded = np.zeros(matrix.shape[0], dtype=bool)
        for is_excluded, text in terms:
            columns = [vocabulary.get(lexeme) for lexeme in lexemes.get(text) or []]
            if not columns or None in columns:
                continue  # a word too rare or too common to be a feature
            present = np.asarray((matrix[:, columns] > 0).sum(axis=1)).ravel() == len(columns)
            if is_excluded:
                excluded |= present
            else:
                wanted |= present
        matches[:, column] = wanted & ~excluded
    return matches


def collection_features():
    """Paper ids, external ids, the binary papers × lexemes matrix and its vocabulary."""
    with connection.cursor() as cursor:
        cursor.execute(sql(_FEATURES_SQL, mark=TITLE_MARK, papers=papers_source()))
        rows = sorted(cursor.fetchall(), key=itemgetter(0))
    matrix, vocabulary = lexeme_matrix([row[2] for row in rows])
    return [row[0] for row in rows], [row[1] for row in rows], matrix, vocabulary


def lexeme_matrix(documents: list[str]):
    """The binary documents × words matrix of documents of distinct words separated by single
    spaces, and its vocabulary (columns in order of first appearance): words in at least
    MIN_DOCUMENTS documents and at most half of them (when there are enough)."""
    import numpy as np
    from scipy import sparse

    # Millions of words at 100,000 papers: one split of the whole collection, each word numbered
    # by one C-level lookup, the matrix built from its row pointers (no Python loop over words).
    tokens = " ".join(documents).split(" ")
    words = dict(zip(dict.fromkeys(tokens), count()))
    columns = np.fromiter(map(words.__getitem__, tokens), dtype=np.int64, count=len(tokens))
    spaces = np.fromiter(map(methodcaller("count", " "), documents), np.int64, len(documents))
    frequency = np.bincount(columns, minlength=len(words))
    keep = frequency >= min(MIN_DOCUMENTS, len(documents))
    if len(documents) >= 2 * MIN_DOCUMENTS:
        keep &= frequency <= len(documents) / 2
    kept = keep[columns]
    rows = np.repeat(np.arange(len(documents)), spaces + 1)[kept]
    pointers = np.zeros(len(documents) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(documents)), out=pointers[1:])
    renumber = np.cumsum(keep) - 1
    matrix = sparse.csr_matrix(
        (np.ones(len(rows), dtype=np.float32), renumber[columns[kept]], pointers),
        shape=(len(documents), int(keep.sum())),
    )
    matrix.sort_indices()
    vocabulary = dict(zip(compress(words, keep.tolist()), count()))
    return matrix, vocabulary


def title_vocabulary(vocabulary: dict[str, int]) -> dict[str, int]:
    """The title's lexemes (the marked features), unmarked: rules looked up on titles alone."""
    return {
        word[len(TITLE_MARK) :]: column
        for word, column in vocabulary.items()
        if word.startswith(TITLE_MARK)
    }


def title_matches(areas: list[Topic], matrix, vocabulary, rules: list[str] | None = None):
    """A papers × areas boolean array: which areas' rules (with their title rules; else
    ``rules``, one for each area) match each paper's title."""
    if rules is None:
        rules = [" or ".join(filter(None, (topic.rule, topic.title_rule))) for topic in areas]
    return rule_matches(matrix, title_vocabulary(vocabulary), rules)
