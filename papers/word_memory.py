"""A query matched in this process's memory, over bits of its words' matches.

"models", "language models" or "language -neural" match tens of thousands of papers. Counting
them read every match's id from a GIN index's bitmap (papers/matching.py every_match_ids: 35 of
the 45 ms of SQL of "models" at 100,000 papers), and their ranked candidates were the first
matches the indexes gave, in the order the papers were loaded: the oldest. Instead each word of
a query is read as bits over the facet memory's papers (papers/facet_memory.py): the papers that
have it anywhere, and those whose title has it. A word that at least COMMON_SHARE of the papers
have (and COMMON_MIN) is held from then on, and the gunicorn master reads every such word before
it forks its workers (``warm_words``); a rarer word's bits are read for the query alone (its
bitmap is small). The query, as PostgreSQL parses it (papers/tsquery_tree.py), is evaluated by
bitwise operations:

- Without a phrase ("a b", "a -b", "a or b") the result is its matches exactly: its facets are
  counted in memory (papers/facets.py). Its ranked candidates are its title matches with the
  fewest other words (those the ranking would put first), the newest first among equals.
- A phrase needs the words' positions, which bits do not hold: bits give a superset (the
  papers having the phrase's words). The papers it leaves in doubt are tested in SQL, one
  probe each when they are few (UNCERTAIN_MAX), else every match is read from the index's
  bitmap (the work the count of those matches in SQL did; held for the same query's next
  pages, PHRASES_HELD), and the matches are then exact and counted in memory too. Its title matches are still a superset: its ranked candidates
  are taken in the same order, tested in SQL (papers/querysets.py ranked_ids).

Bounded work: one statement (the query as PostgreSQL parses it, its words' document counts, the
data's state and the filters' keys), one more for the words not held, one more for a phrase's
papers in doubt, then arrays of the collection's size. The bits belong to the facet memory of
one state of the data: a change drops them with it. A query that meets a change of the data,
or that PostgreSQL parses to nothing (stop words), is left to SQL alone.
"""

from dataclasses import dataclass

import numpy as np
from django.db import transaction

from .compounds import websearch_text
from .counts import COLLECTION_SIZE_SQL
from .expressions import SEARCH_CONFIG
from .facet_memory import (
    STATE_SQL,
    FacetMemory,
    count_in_memory,
    held_memories,
    memory_for,
    passing,
)
from .facet_rows import KEYS, filter_params
from .tables import reading_cursor, sql
from .tsquery_tree import evaluate, exact, operands, parse_query, wanted_operands

# Held when at least this share of the papers have it, and at least COMMON_MIN papers: a rarer
# word's bitmap costs a query little, and each word held costs a process memory (two bits a
# paper).
COMMON_SHARE = 0.05
COMMON_MIN = 1000
# A superset (a phrase's) is tested in SQL on at most this many times the candidates wanted,
# in the candidates' order.
SUPERSET_READ = 4
# The papers a phrase's words leave in doubt ("dataset or \"data set\"": those with "data" and
# "set" but not "dataset") are tested in SQL one by one when at most this many (a probe each,
# ~3 µs); more are tested by the index's bitmap scan (about 1.4 µs a paper, but it reads every
# paper with the phrase's words, those not in doubt and outside the page's conditions too).
UNCERTAIN_MAX = 5000
# Queries whose every match was read from the index's bitmap ("language models" quoted: 100 ms
# of SQL at 100,000 papers) are held, this many, for the same query's next page, filter or
# order: 12.5 KB each at 100,000 papers.
PHRASES_HELD = 64

# A common word's Lexeme row ``l``; parameters COMMON_MIN, COMMON_SHARE.
_COMMON_ROW = f"l.documents >= GREATEST(%s, %s * ({COLLECTION_SIZE_SQL}))"
# The query as PostgreSQL parses it, and which of its words are common.
_TERMS_SQL = f"""websearch_to_tsquery(%s::regconfig, %s)::text,
    ARRAY(SELECT l.word FROM {{lexeme}} l
          WHERE l.word = ANY(tsvector_to_array(to_tsvector(%s::regconfig, %s)))
          AND {_COMMON_ROW})"""
# Each word's matches and title matches (tsquery operands), in the same snapshot as the state.
_BITS_SQL = """SELECT {state}, w, papers_lexeme_match_ids(w::tsquery),
    papers_title_lexeme_match_ids(w::tsquery) FROM {words}"""
_LISTED = "unnest(%s::text[]) AS w"
# Which of the papers %s match the query, in the same snapshot as the state.
_TESTED_SQL = """SELECT {state}, string_agg(int8send(c.id), ''::bytea)
FROM unnest(%s::bigint[]) AS c(id)
CROSS JOIN LATERAL (SELECT p.search_vector FROM {{paper}} p WHERE p.id = c.id OFFSET 0) AS p
WHERE p.search_vector @@ websearch_to_tsquery(%s::regconfig, %s)"""
# Every paper matching the query, from its bitmap (papers/schema_sql.py), in the same snapshot.
_EVERY_MATCH_SQL = """SELECT {state},
    papers_text_match_ids(websearch_to_tsquery(%s::regconfig, %s))"""
# Every common word as a tsquery operand (but words tsquery would read as operators), the
# commonest first, but those ``%s`` holds already.
_COMMON = f"""(SELECT quote_literal(l.word)::tsquery::text AS w FROM {{lexeme}} l
    WHERE {_COMMON_ROW} AND l.word !~ '[''\\\\:&|!()<>*[:space:]]'
    ORDER BY l.documents DESC) AS c WHERE w <> ALL(%s)"""


def _word(operand: str) -> str:
    return operand[1:-1].replace("''", "'")


@dataclass
class MatchedQuery:
    """A query's matches under a page's fixed conditions, by the facet memory's positions; its
    title matches, or a superset (``titles_exact``)."""

    memory: FacetMemory
    titles_exact: bool
    matches: np.ndarray  # by position: whether the paper matches
    titles: np.ndarray  # by position: whether its title matches (may match)
    keys: dict[str, list]  # the chosen filters' keys (papers/facet_rows.py KEYS)
    title_hits: np.ndarray | None = None  # by position: how many query words its title has
    tree: tuple | None = None  # the query as papers/tsquery_tree.py parses it
    bits: dict | None = None  # {operand: packed bits of its matches, of its title matches}
    page: np.ndarray | None = None  # by position: whether the paper passes the fixed conditions

    def count(self, limits: dict[str, int | None]) -> list[tuple]:
        """The facet statement's rows (papers/facets.py) for the facets of ``limits``."""
        positions = np.flatnonzero(self.matches)
        flags = {
            name: passing(self.memory, name, keys, positions) for name, keys in self.keys.items()
        }
        return count_in_memory(self.memory, positions, flags, limits)

    def chosen(self) -> np.ndarray:
        """By position: whether the paper matches and passes every filter."""
        return passing_all(self.memory, self.keys, self.matches)

    def title_page(self, limit: int, offset: int) -> list[int]:
        """The ids of one page of the matches passing every filter, in title A–Z order (the
        memory's ``title_order``): where SQL walked the title index testing each paper, a deep
        page of a common word read every row before it (page 400 of "language": 87-92 ms at
        100,000 papers, in process; 32 ms cut here)."""
        order = self.memory.title_order
        ranks = np.flatnonzero(self.chosen()[order])[offset : offset + limit]
        return self.memory.ids[order[ranks]].tolist()

    def candidates(self, cap: int) -> tuple[list[int], list[int], bool]:
        """(the ids of the title matches with the fewest other words, of the matches (the
        same, then the others, those whose titles have more of the query's words first, newest
        first among equals), whether the title matches are exact): ``cap`` of each, passing
        every filter. A phrase's title matches are a superset (the titles with
        its words): SUPERSET_READ times as many in that order, which SQL tests; should few
        pass, the matches fill the ranking's candidates. The ranking scores a title higher the
        fewer words it has besides the query's (papers/title_match.py, BM25's length
        normalisation): among a broad query's title matches these are the ones it would rank
        first."""
        chosen = self.chosen()
        read = cap if self.titles_exact else SUPERSET_READ * cap
        # The matches: the title matches first, in the same order, then the others by the
        # query's words their titles have (which the ranking's title score counts): of 785
        # matches of "low-resource machine translation", the 500 newest had left out 23 of the
        # 100 best ranked over all of them.
        hits = 0 if self.title_hits is None else np.minimum(self.title_hits, _LAST - _TITLED)
        first = np.where(self.titles, np.minimum(self.memory.title_words, _TITLED), _LAST - hits)
        title_ids = _first(self.memory, chosen & self.titles, read, first)
        return title_ids, _first(self.memory, chosen, cap, first), self.titles_exact


def passing_all(memory: FacetMemory, keys: dict[str, list], mask: np.ndarray) -> np.ndarray:
    """``mask`` narrowed to the papers that pass every filter of ``keys``."""
    positions = np.flatnonzero(mask)
    for name, values in keys.items():
        positions = positions[passing(memory, name, values, positions)]
    narrowed = np.zeros(len(mask), dtype=bool)
    narrowed[positions] = True
    return narrowed


_LAST = 2**10 - 1  # the largest ``first`` _first tells apart
_TITLED = _LAST - 64  # the largest ``first`` of a title match


def _first(memory: FacetMemory, mask: np.ndarray, cap: int, first: np.ndarray) -> list[int]:
    """The ids of up to ``cap`` papers of ``mask`` in order: the least ``first`` (by position),
    then the newest, those of the newest venues (the list's order), the latest written first
    within a venue."""
    positions = np.flatnonzero(mask)
    # One sortable integer: ``first`` (10 bits), the venue's rank (16), the id reversed (36).
    key = np.minimum(first[positions], _LAST) << 52
    key |= np.minimum(memory.newness[memory.venue[positions]], 2**16 - 1) << 36
    key |= 2**36 - 1 - np.minimum(memory.ids[positions], 2**36 - 1)
    if len(positions) > cap:
        chosen = np.argpartition(key, cap - 1)[:cap]
        positions, key = positions[chosen], key[chosen]
    return memory.ids[positions[np.argsort(key, kind="stable")]].tolist()


def _statement(text: str, filters: list[tuple[str, list[str]]]) -> tuple[str, list]:
    """The data's state, the query's terms (with a query) and each filter's keys."""
    columns, params = [STATE_SQL], []
    if text:
        query = [SEARCH_CONFIG, websearch_text(text)]
        columns.append(_TERMS_SQL)
        params += [*query, *query, COMMON_MIN, COMMON_SHARE]
    for name, values in filters:
        columns.append(KEYS[name])
        params += filter_params(name, values)
    return sql("SELECT " + ", ".join(columns)), params


def matched_query(text: str, selected: dict, fixed: dict) -> MatchedQuery | None:
    """The matches of ``text`` (or a superset) under the ``fixed`` conditions ({facet:
    values}), with the keys of the ``selected`` filters; None for SQL alone (see above)."""
    with reading_cursor() as cursor:
        read = _read_page(cursor, text, selected, fixed)
        tree = parse_query(read[3][0]) if read is not None else None
        if tree is None:
            return None
        memory, page, keys, (_, common) = read
        bits = _bits(cursor, memory, operands(tree), set(common))
        if bits is None:
            return None
        matches = _matches(cursor, memory, tree, text, bits, np.packbits(page))
    if matches is None:
        return None
    size = len(memory.ids)
    titles, _ = evaluate(tree, {word: title for word, (_, title) in bits.items()})
    title_hits = np.zeros(size, dtype=np.int16)
    for word in wanted_operands(tree):
        title_hits += np.unpackbits(bits[word][1], count=size)
    return MatchedQuery(
        memory=memory,
        titles_exact=exact(tree),
        matches=np.unpackbits(matches, count=size).astype(bool),
        titles=np.unpackbits(titles & matches, count=size).astype(bool),
        keys=keys,
        title_hits=title_hits,
        tree=tree,
        bits=bits,
        page=page,
    )


def every_paper(selected: dict, fixed: dict) -> MatchedQuery | None:
    """Every paper under the ``fixed`` conditions, with the keys of the ``selected`` filters: a
    page without a query counted in memory (one statement, where SQL read the kept counts or
    the narrow rows: 9-24 ms at 100,000 papers); None if the data changed meanwhile."""
    with reading_cursor() as cursor:
        read = _read_page(cursor, "", selected, fixed)
    if read is None:
        return None
    memory, page, keys, _ = read
    return MatchedQuery(memory, titles_exact=True, matches=page, titles=page, keys=keys)


def _read_page(cursor, text: str, selected: dict, fixed: dict):
    """(this process's facet memory at the data's present state, the papers under the
    ``fixed`` conditions (by position), the ``selected`` filters' keys, the query's terms as
    _TERMS_SQL gives them (none without ``text``)); None if the data changed meanwhile."""
    statement, params = _statement(text, [*fixed.items(), *selected.items()])
    cursor.execute(statement, params)
    state, *row = cursor.fetchone()
    terms, keys = (row[:2], row[2:]) if text else ((), row)
    found = memory_for(cursor.db.alias, state, cursor, np.zeros(0, dtype=np.int64))
    if found is None:
        return None
    memory = found[0]
    fixed_keys = dict(zip(fixed, keys[: len(fixed)], strict=True))
    page = passing_all(memory, fixed_keys, np.ones(len(memory.ids), dtype=bool))
    return memory, page, dict(zip(selected, keys[len(fixed) :], strict=True)), terms


def _matches(cursor, memory: FacetMemory, tree, text: str, bits: dict, page: np.ndarray):
    """Packed bits of the query's matches among the ``page``'s papers (packed bits: its fixed
    conditions): a phrase's papers in doubt tested in SQL, one by one when they are few
    (UNCERTAIN_MAX), else with every match read from the index; None if the data changed
    meanwhile."""
    superset, subset = evaluate(tree, {word: vector for word, (vector, _) in bits.items()})
    superset, subset = superset & page, subset & page
    if exact(tree):
        return superset
    uncertain = superset & ~subset
    query = [SEARCH_CONFIG, websearch_text(text)]
    if int(np.bitwise_count(uncertain).sum()) > UNCERTAIN_MAX:
        every = _every_match(cursor, memory, query, repr(tree))
        return every & page if every is not None else None
    ids = memory.ids[np.flatnonzero(np.unpackbits(uncertain, count=len(memory.ids)))]
    cursor.execute(sql(_TESTED_SQL.format(state=STATE_SQL)), [ids.tolist(), *query])
    state, tested = cursor.fetchone()
    return subset | _packed(memory, tested) if state == memory.state else None


def _every_match(cursor, memory: FacetMemory, query: list[str], key: str) -> np.ndarray | None:
    """Packed bits of every paper matching ``query`` ([configuration, text]), read from the
    index's bitmap once per state of the data and held under ``key`` (the query as PostgreSQL
    parses it: "language model" and "language models" are one) for the next pages of the same
    query, the latest PHRASES_HELD queries; None if the data changed meanwhile."""
    every = memory.phrases.pop(key, None)
    if every is None:
        cursor.execute(sql(_EVERY_MATCH_SQL.format(state=STATE_SQL)), query)
        state, ids = cursor.fetchone()
        if state != memory.state:
            return None
        every = _packed(memory, ids)
    memory.phrases[key] = every  # the latest last
    for stale in list(memory.phrases)[:-PHRASES_HELD]:
        memory.phrases.pop(stale, None)
    return every


def drop_held_phrases() -> None:
    """Forget the phrases this process holds: the benchmark times the statements of a
    phrase's first page, as a newly started worker runs them (bench/timing.py)."""
    for memory in held_memories():
        memory.phrases.clear()


def _bits(cursor, memory: FacetMemory, words: list[str], common: set[str]):
    """{operand: (packed bits of its matches, of its title matches)}, read where this memory
    does not hold them (and held when common); None if the data changed meanwhile."""
    found = {operand: memory.words[operand] for operand in words if operand in memory.words}
    missing = [operand for operand in words if operand not in found]
    if missing:
        cursor.execute(sql(_BITS_SQL.format(state=STATE_SQL, words=_LISTED)), [missing])
        for state, operand, ids, title_ids in cursor.fetchall():
            if state != memory.state:
                return None
            found[operand] = (_packed(memory, ids), _packed(memory, title_ids))
            if _word(operand) in common:
                memory.words[operand] = found[operand]
    return found


def warm_words(memory: FacetMemory) -> int:
    """Read every common word's bits this ``memory`` does not hold (one statement: about 5 s at
    100,000 papers, 400 words), before any query needs them; returns the number read. The
    gunicorn master calls this once and its workers share the words (gunicorn.conf.py)."""
    statement = sql(_BITS_SQL.format(state=STATE_SQL, words=_COMMON))
    with reading_cursor() as cursor, transaction.atomic(using=cursor.db.alias):
        # Not a web request: the site's statement timeout (10 s) would cut it at twice the
        # size of the benchmark's collection.
        cursor.execute("SET LOCAL statement_timeout = 0")
        cursor.execute(statement, [COMMON_MIN, COMMON_SHARE, list(memory.words)])
        rows = cursor.fetchall()
    for state, operand, ids, title_ids in rows:
        if state != memory.state:
            return 0
        memory.words[operand] = (_packed(memory, ids), _packed(memory, title_ids))
    return len(rows)


def _packed(memory: FacetMemory, ids: bytes | None) -> np.ndarray:
    """Packed bits over the memory's positions of the papers ``ids`` (8-byte big-endian)."""
    mask = np.zeros(len(memory.ids), dtype=bool)
    positions, _ = memory.positions(np.frombuffer(ids or b"", dtype=">i8").astype(np.int64))
    mask[positions] = True
    return np.packbits(mask)
