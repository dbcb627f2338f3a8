"""A query made of the collection's commonest words, matched in this process's memory.

"models", "language models" or "language -neural" match tens of thousands of papers. Counting
them read every match's id from a GIN index's bitmap (papers/matching.py every_match_ids: 35 of
the 45 ms of SQL of "models" at 100,000 papers), and their ranked candidates were the first
matches the title index gave, in the order the papers were loaded: the oldest. Instead, a word
that at least COMMON_SHARE of the papers have (and COMMON_MIN) is held, from the first query
that needs it, as bits over the facet memory's papers (papers/facet_memory.py): the papers that
have it anywhere, and those whose title has it. A query of such words alone, each required or
excluded (no phrase, no "or"), is then matched by a few bitwise operations; its facets are
counted in memory, and its ranked candidates are its newest matches (``CommonQuery.candidates``,
ranked by papers/querysets.py as any others).

Bounded work: one statement (the query as PostgreSQL parses it, which of its words are common,
the data's state and the filters' keys), one more for words not held yet (what the query's own
bitmap cost before), then arrays of the collection's size. The bits belong to the facet memory
of one state of the data: a change drops them with it. Any other query, or one that meets a
change of the data, is matched in SQL (papers/facets.py, papers/querysets.py).
"""

import re
from dataclasses import dataclass

import numpy as np

from .counts import COLLECTION_SIZE_SQL
from .expressions import SEARCH_CONFIG
from .facet_memory import STATE_SQL, FacetMemory, count_in_memory, memory_for, passing
from .facet_rows import KEYS, filter_params
from .tables import reading_cursor, sql
from .text import websearch_text

# Held when at least this share of the papers have it, and at least COMMON_MIN papers: a rarer
# word's bitmap costs a query a few milliseconds, and each word held costs a process memory
# (two bits a paper).
COMMON_SHARE = 0.05
COMMON_MIN = 1000

# The query as PostgreSQL parses it, and which of its words are common; then each filter's keys.
_TERMS_SQL = """SELECT {state}, websearch_to_tsquery(%s::regconfig, %s)::text,
    ARRAY(SELECT l.word FROM {{lexeme}} l
          WHERE l.word = ANY(tsvector_to_array(to_tsvector(%s::regconfig, %s)))
          AND l.documents >= GREATEST(%s, %s * ({size})))"""
# Each word's matches and title matches (tsquery operands), in the same snapshot as the state.
_BITS_SQL = """SELECT {state}, w, papers_lexeme_match_ids(w::tsquery),
    papers_title_lexeme_match_ids(w::tsquery) FROM {words}"""
_LISTED = "unnest(%s::text[]) AS w"
# Every common word as a tsquery operand (but words tsquery would read as operators), the
# commonest first, but those ``%s`` holds already.
_COMMON = """(SELECT quote_literal(l.word)::tsquery::text AS w FROM {{lexeme}} l
    WHERE l.documents >= GREATEST(%s, %s * ({size})) AND l.word !~ '[''\\\\:&|!()<>*[:space:]]'
    ORDER BY l.documents DESC) AS c WHERE w <> ALL(%s)"""
# An operand of tsquery's text: a quoted word (a quote in it doubled), "!" before it to exclude
# it. A plain query is operands joined by " & " (a word never holds a space).
_OPERAND = re.compile(r"(!?)('(?:[^'\\]|'')+')")


def plain_terms(query: str) -> tuple[list[str], list[str]] | None:
    """(required, excluded) operands of a tsquery's text that only requires or excludes words,
    at least one required; None for any other (a phrase, an "or", no word at all)."""
    required, excluded = [], []
    for part in query.split(" & ") if query else []:
        match = _OPERAND.fullmatch(part)
        if match is None:
            return None
        (excluded if match[1] else required).append(match[2])
    return (required, excluded) if required else None


# A phrase (quoted, or a hyphenated word) or an "or": never a plain query.
_NOT_PLAIN = re.compile(r'"|\w-\w|(?:^|\s)or(?:\s|$)', re.IGNORECASE)


def may_be_common(text: str) -> bool:
    """Whether ``text`` (websearch syntax) may be a plain query of common words: false for a
    phrase or an "or", which need not be asked about."""
    return _NOT_PLAIN.search(text) is None


def _word(operand: str) -> str:
    return operand[1:-1].replace("''", "'")


@dataclass
class CommonQuery:
    """The matches of a query of common words under a page's fixed conditions."""

    memory: FacetMemory
    matches: np.ndarray  # by position: whether the paper matches
    titles: np.ndarray  # by position: whether its title has the required words
    keys: dict[str, list]  # the chosen filters' keys (papers/facet_rows.py KEYS)

    def count(self, limits: dict[str, int | None]) -> list[tuple]:
        """The facet statement's rows (papers/facets.py) for the facets of ``limits``."""
        positions = np.flatnonzero(self.matches)
        flags = {
            name: passing(self.memory, name, keys, positions) for name, keys in self.keys.items()
        }
        return count_in_memory(self.memory, positions, flags, limits)

    def candidates(self, cap: int) -> tuple[list[int], list[int]]:
        """The ids of the ``cap`` newest title matches and the ``cap`` newest matches that pass
        every filter: the ranking's candidates."""
        chosen = _passing_all(self.memory, self.keys, self.matches)
        return _newest(self.memory, chosen & self.titles, cap), _newest(self.memory, chosen, cap)


def _passing_all(memory: FacetMemory, keys: dict[str, list], mask: np.ndarray) -> np.ndarray:
    """``mask`` narrowed to the papers that pass every filter of ``keys``."""
    positions = np.flatnonzero(mask)
    for name, values in keys.items():
        positions = positions[passing(memory, name, values, positions)]
    narrowed = np.zeros(len(mask), dtype=bool)
    narrowed[positions] = True
    return narrowed


def _newest(memory: FacetMemory, mask: np.ndarray, cap: int) -> list[int]:
    """The ids of up to ``cap`` papers of ``mask``: those of the newest venues (the list's
    order), the latest written first within a venue."""
    positions = np.flatnonzero(mask)
    if len(positions) > cap:
        key = memory.newness[memory.venue[positions]] * 2**40 - memory.ids[positions]
        positions = positions[np.argpartition(key, cap - 1)[:cap]]
    return memory.ids[positions].tolist()


def _statement(text: str, filters: list[tuple[str, list[str]]]) -> tuple[str, list]:
    query = [SEARCH_CONFIG, websearch_text(text)]
    columns = [_TERMS_SQL.format(state=STATE_SQL, size=COLLECTION_SIZE_SQL)]
    params = [*query, *query, COMMON_MIN, COMMON_SHARE]
    for name, values in filters:
        columns.append(KEYS[name])
        params += filter_params(name, values)
    return sql(", ".join(columns)), params


def common_query(text: str, selected: dict, fixed: dict) -> CommonQuery | None:
    """The matches of ``text`` under the ``fixed`` conditions ({facet: values}) with the keys of
    the ``selected`` filters, when it requires or excludes common words only; else None."""
    filters = [*fixed.items(), *selected.items()]
    statement, params = _statement(text, filters)
    with reading_cursor() as cursor:
        cursor.execute(statement, params)
        state, query, common, *keys = cursor.fetchone()
        terms = plain_terms(query)
        if terms is None or any(_word(operand) not in common for operand in terms[0]):
            return None
        found = memory_for(cursor.db.alias, state, cursor, np.zeros(0, dtype=np.int64))
        if found is None:
            return None
        bits = _bits(cursor, found[0], [*terms[0], *terms[1]], set(common))
    if bits is None:
        return None
    memory, (required, excluded) = found[0], terms
    size = len(memory.ids)
    left_out = np.zeros_like(bits[required[0]][0])
    for operand in excluded:
        left_out |= bits[operand][0]
    matches = np.bitwise_and.reduce([bits[operand][0] for operand in required]) & ~left_out
    titles = np.bitwise_and.reduce([bits[operand][1] for operand in required]) & ~left_out
    fixed_keys = dict(zip(fixed, keys[: len(fixed)], strict=True))
    return CommonQuery(
        memory=memory,
        matches=_passing_all(memory, fixed_keys, np.unpackbits(matches, count=size).astype(bool)),
        titles=np.unpackbits(titles, count=size).astype(bool),
        keys=dict(zip(selected, keys[len(fixed) :], strict=True)),
    )


def _bits(cursor, memory: FacetMemory, operands: list[str], common: set[str]):
    """{operand: (packed bits of its matches, of its title matches)}, read where this memory
    does not hold them (and held when common); None if the data changed meanwhile."""
    found = {operand: memory.words[operand] for operand in operands if operand in memory.words}
    missing = [operand for operand in operands if operand not in found]
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
    words = _COMMON.format(size=COLLECTION_SIZE_SQL)
    statement = sql(_BITS_SQL.format(state=STATE_SQL, words=words))
    with reading_cursor() as cursor:
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
