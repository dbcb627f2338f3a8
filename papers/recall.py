"""Papers matching some of a query's words, for when all of them match fewer than a page.

A question typed in plain English ("what is the best method for detecting hallucinations in
llms?") or one word too many ("kv cache eviction") finds few papers or none; these come after
the full matches, marked as partial. The words are the query's lexemes (stop words already
dropped by the text search configuration), each weighed by its rarity,
ln(1 + papers / (1 + papers having it)); the papers with most of the words come first
("dependency parsing indian languages" put a paper on Indian culture, two rare words, above
those on dependency parsing of languages, three), and among them a paper scores the rarity of
each word it has, doubled in its title, as a share of the most it could score (every word in
its title: 1), so that a partial match's score is never read as a full match's; it needs two
of the words when there are three or more (words no paper has do not count).

Where the query was matched in memory (papers/word_memory.py), every paper is scored there, over
the bits of the query's words (``partial_in_memory``; a quoted phrase or a word's alternatives
count as one word, as the query requires them; of a query repeated in other forms, its first,
the words as papers/understanding.py join_compounds gives them): no statement at all.
Otherwise in SQL (``partial_ids``), with bounded work: only the PARTIAL_WORDS rarest words are used; the
candidates come from one GIN scan (paper_search_vector) of an OR query — any two of the words
when there are three or more — with a LIMIT of PARTIAL_CAP, and only those are scored (each
candidate's vector read once, as the array of its lexemes), their rarity from the Lexeme table
and the paper table's row estimate (counted only while it has none).
"""

import numpy as np

from .compounds import websearch_text
from .counts import COLLECTION_SIZE_SQL
from .expressions import SEARCH_CONFIG, title_vector_sql
from .facet_memory import passing
from .tables import reading_cursor, sql
from .tsquery_tree import conjuncts, evaluate
from .word_memory import MatchedQuery, passing_all

PARTIAL_WORDS = 6
PARTIAL_CAP = 1000

# {base}: the filtered papers' ids. Parameters: query text, words kept, full-match query text,
# cap, limit.
_PARTIAL_SQL = (
    """
WITH collection AS ("""
    + COLLECTION_SIZE_SQL
    + """),
words AS MATERIALIZED (
    SELECT w.word, w.word::tsquery AS single,
           ln(1 + c.papers / (1 + COALESCE(l.documents, 0))) AS idf
    FROM unnest(tsvector_to_array(to_tsvector(%s::regconfig, %s))) AS w(word)
    CROSS JOIN collection c
    LEFT JOIN {lexeme} l ON l.word = w.word
    WHERE COALESCE(l.documents, 0) > 0
    ORDER BY idf DESC, w.word
    LIMIT %s
),
wanted AS (
    SELECT CASE WHEN (SELECT count(*) FROM words) >= 3 THEN (
        SELECT string_agg('(' || quote_literal(a.word) || ' & ' || quote_literal(b.word) || ')',
                          ' | ')
        FROM words a JOIN words b ON a.word < b.word
    ) ELSE (SELECT string_agg(quote_literal(word), ' | ') FROM words) END::tsquery AS query
),
candidates AS MATERIALIZED (
    SELECT p.id, p.complete, tsvector_to_array(p.search_vector) AS lexemes,
           {title_vector} AS title
    FROM {paper} p
    WHERE p.search_vector @@ (SELECT query FROM wanted)
      AND NOT p.search_vector @@ websearch_to_tsquery(%s::regconfig, %s)
      AND p.id IN ({base})
    LIMIT %s
)
SELECT c.id, sum(w.idf * CASE WHEN c.title @@ w.single THEN 2 ELSE 1 END)
    / (SELECT 2 * sum(idf) FROM words) AS score
FROM candidates c JOIN words w ON w.word = ANY(c.lexemes)
GROUP BY c.id, c.complete
ORDER BY count(*) DESC, score DESC, c.complete DESC, c.id
LIMIT %s
"""
)


def partial_ids(queryset, text: str, limit: int, full: str) -> list[tuple[int, float]]:
    """[(id, score)] of up to ``limit`` papers of ``queryset`` matching some of the words of
    ``text`` but not the query ``full`` (the query the full matches were found with, e.g. with
    its compounds both joined and split), best first (one statement)."""
    if limit <= 0:
        return []
    base_sql, base_params = queryset.order_by().values("id").query.sql_with_params()
    statement = sql(_PARTIAL_SQL, base=base_sql, title_vector=title_vector_sql("p"))
    text = websearch_text(text)
    params = [
        SEARCH_CONFIG,
        text,
        PARTIAL_WORDS,
        SEARCH_CONFIG,
        websearch_text(full),
        *base_params,
        PARTIAL_CAP,
        limit,
    ]
    with reading_cursor() as cursor:
        cursor.execute(statement, params)
        return [(row[0], float(row[1])) for row in cursor.fetchall()]


def _named(part, naming: frozenset[str]) -> bool:
    """Whether the query's part is a word of ``naming`` as the index holds it: the lexeme is
    the word's stem ("findings": 'find'), so a word it begins counts."""
    if part[0] != "word":
        return False
    lexeme = part[1].strip("'")
    return any(word == lexeme or (len(lexeme) >= 3 and word.startswith(lexeme)) for word in naming)


def partial_in_memory(
    matched: MatchedQuery, limit: int, naming: frozenset[str] = frozenset(), author=None
) -> list[tuple[int, float]]:
    """[(id, score)] of up to ``limit`` papers matching some of the words of the query
    ``matched`` in memory but not all, under its conditions, best first, then the complete
    records (title and authors; the seeds' untitled and authorless ones crowded the first
    places, an outside researcher), then the newest (``partial_ids`` scores alike, but takes
    the oldest first among equal complete records).
    ``naming``: the words of a venue, year or author the query names, offered as a filter: the
    papers must then have every other word, those words left out ("emnlp 2023 sarcasm" listed
    papers saying "EMNLP 2023", none about sarcasm); ``author``: that author's id, whose papers
    with one of the other words come first ("Iryna Gurevych argument mining" listed her papers
    on anything before her papers on argument generation). The SQL way (``partial_ids``)
    counts every word."""
    first = matched.tree
    while first[0] == "or":
        first = first[1]
    memory, size = matched.memory, len(matched.memory.ids)
    words = [part for part in conjuncts(first) if part[0] != "not"]
    subject = [part for part in words if not _named(part, naming)]
    named = len(subject) < len(words)
    words = subject if named else words
    found = _found(matched, words)
    if limit <= 0 or len(words) < (1 if named else 2) or not found:
        return []
    score, count = _scored(found, size)
    wanted = count >= (len(found) if named else 2 if len(found) >= 3 else 1)
    theirs = np.zeros(size, dtype=bool)
    if author is not None:
        theirs = passing(memory, "author", [author], np.arange(size)) & (count >= 1)
    positions = np.flatnonzero(
        passing_all(memory, matched.keys, matched.page & ~matched.matches & (wanted | theirs))
    )
    newness = memory.newness[memory.venue[positions]]
    incomplete = ~memory.complete[positions]
    keys = (-memory.ids[positions], newness, incomplete, -score[positions], -count[positions])
    order = np.lexsort((*keys, ~theirs[positions]))[:limit]
    return [(int(memory.ids[p]), float(score[p])) for p in positions[order]]


def _found(matched: MatchedQuery, words: list) -> list:
    """(whether each paper has the word, has it in its title) for each of ``words`` some paper
    has, from the bits of the query's words in memory."""
    size = len(matched.memory.ids)
    anywhere = {operand: vector for operand, (vector, _) in matched.bits.items()}
    in_title = {operand: title for operand, (_, title) in matched.bits.items()}
    found = []
    for word in words:
        has = np.unpackbits(evaluate(word, anywhere)[0], count=size).astype(bool)
        if has.any():
            titled = np.unpackbits(evaluate(word, in_title)[0], count=size).astype(bool)
            found.append((has, titled & has))
    return found


def _scored(found: list, size: int):
    """(each paper's score, a share of the most it could score; how many of the words it has)."""
    score, count = np.zeros(size), np.zeros(size, dtype=np.int64)
    most = 0.0
    for has, titled in found:
        rarity = np.log(1 + size / (1 + int(has.sum())))
        score += rarity * (has.astype(float) + titled)
        count += has
        most += 2 * rarity
    return score / most, count
