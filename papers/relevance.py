"""The relevance score: written once, here, for the pages' ranking and every other ranked list.

score = WORDS × Σ over the query's words w of idf(w) × tf(w) × (K1 + 1) / (tf(w) + K1 × norm)
      + the title's part (papers/title_match.py: a title matching the whole query, the
        likelier one meant the fewer other words it has, or when it names the query: "BART")

- The words are the query's words as typed (lowercased, not negated; a compound joined, as the
  index holds it, papers/understanding.py join_compounds), and tf(w) counts them as
  written, not by stem: TITLE_FIELD × (times w is in the title) + (times in the abstract); a
  word typed as an acronym ("GLUE") only where written so (papers/typed_words.py). A
  known item is searched for with its own words; "structures trees" should prefer the paper
  saying "structures" and "trees" over the many saying "structure" and "tree" (all of them
  match: the candidates come from the stemmed index). On the tuning set, words as written
  lift known-item MRR@10 for abstract words from 0.43 (stemmed ts_rank) to 0.63; BM25 over
  stems falls from 0.57 to 0.41 (bench/search_quality.py).
- idf(w) = ln(1 + (papers − n + 0.5) / (n + 0.5)), n the papers having w's stem (the Lexeme
  table, ts_stat of the collection): BM25's idf, a rare word counts more than a common one.
  A stop word (no stem) counts STOPWORD_IDF: "model that" is a little more likely a paper
  saying "that".
- norm = 1 − B + B × size / average size, BM25's length normalisation: size is the title's and
  the abstract's length in bytes (TITLE_FIELD × title + abstract, octet_length reads no
  TOASTed text), the average over the papers being ranked (the query's candidates; over the
  collection for ``relevance``, which scores every match). A paper without an abstract has no
  size (NULL, left out of the average) and norm 1: its length is unknown, not short. Counted
  short, such a record outranked the complete ones whose titles matched as well ("Chinese
  Spell": an abstract-less paper first of the fifty titles saying "Chinese Spell Checking").

Bounded work (``ranked_statement``): every candidate is scored from its title and its size
alone, the abstract's counts taken as 1 for each word its title lacks (the word matched
somewhere); only the RESCORED best are then counted in their abstracts, the others keep
that estimate. The candidates and the RESCORED are the same whatever the page, so every page is
cut from one order: paging neither repeats nor skips a paper (rescoring as many as a deep page
reached reordered papers the first page had placed). No stored vector is read (ts_rank had to
detoast each candidate's vector once per word).
"""

import re
from typing import NamedTuple

from .apart_compounds import compound_forms, compound_values, joined_apart
from .compounds import websearch_text
from .counts import COLLECTION_SIZE_SQL
from .expressions import SEARCH_CONFIG
from .tables import sql, table_names
from .title_match import (
    BASE,
    EXACT,
    HEAD,
    HEADED,
    LIKELIHOOD,
    NAME,
    NAMED,
    ORDER,
    OWN,
    OWN_WORDS,
    PARTS_WORDS,
    TERM,
    TITLE_STOPWORDS,
    WORD_COUNT,
    joined_hyphens,
    ln_choices,
    share,
)
from .typed_words import (
    case_misses,
    cased_count,
    cased_in_title,
    patterns,
    typed_words,
    written_so,
)
from .word_counts import ABSTRACT_OWN, ABSTRACT_PARTS, abstract_count, title_count

# Tuned on bench/search_quality.py's tuning set only; its test set is reported, never tuned on.
WORDS_WEIGHT = 0.2
TITLE_FIELD = 2
K1 = 1.2
B = 0.75
STOPWORD_IDF = 0.3
# Candidates whose abstracts are read (stage two); the rest are ranked on their titles. 70,
# not 100: stage one no longer favours the shortest abstracts (papers/title_match.py), so the
# hundred it chose read a third more text; the best 70 read what the hundred did, and 1,000
# tuning queries of each kind rank as before (abstract words MRR@10 0.686 against 0.686).
RESCORED = 70


# The idf of each of the query's words as typed, in their order (one row: a float8[]). The
# number of papers is the kept count (papers/counts.py): exact, and read from a few rows.
# Parameters: the stop words' idf, the words, the text search configuration.
IDFS_SQL = (
    """
    SELECT COALESCE(array_agg(
               CASE WHEN s.lexeme IS NULL THEN %s::float
                    ELSE ln(1 + (c.papers - COALESCE(l.documents, 0) + 0.5)
                                / (COALESCE(l.documents, 0) + 0.5)) END
               ORDER BY t.n), '{{}}') AS idfs
    FROM unnest(%s::text[]) WITH ORDINALITY AS t(word, n)
    CROSS JOIN LATERAL (SELECT (tsvector_to_array(to_tsvector(%s::regconfig, t.word)))[1]
                        AS lexeme) AS s
    CROSS JOIN ("""
    + COLLECTION_SIZE_SQL
    + """) AS c
    LEFT JOIN {lexeme} l ON l.word = s.lexeme
"""
)


# Stage one scores every candidate from its title, the abstract's count of a word taken as 1
# where the title lacks it (an estimate); stage two counts the words in the abstracts of the
# best %(first)s by the estimate. Every candidate is then ranked by one score (its counted
# score, else its estimate), the same for every page. %(titles)s, %(vectors)s: the title
# matches and the vector matches (id, title, size, venue_id); the vector matches are read only
# when the title matches are fewer than %(enough)s, the candidates' cap, whatever the page.
# %(authored)s: the papers of the authors a query names (id, title, size, venue_id), always
# candidates and ranked first, newest venue first: "Yang Liu" matches 549 papers, most by a
# Yang and a Liu. (The name is in none of their texts: scored, an author's papers past the
# rescored would have ranked above those rescored, by their estimates.)
# Papers scored alike (a name's papers, matched by their authors alone) come newest venue first.
_RANKED_SQL = """
WITH %(prefix)s idfs AS MATERIALIZED (%(idfs_sql)s),
titles AS MATERIALIZED (%(titles)s),
candidates AS MATERIALIZED (
    SELECT m.id, m.in_title, m.title, f.own, {own_words} AS own_words,
           {parts} AS parts, m.size,
           (SELECT v.held_on FROM {venue} AS v WHERE v.id = m.venue_id) AS held_on,
           m.id = ANY(%(authored_ids)s::bigint[]) AS authored
    FROM (
        -- Each paper once before its title is read (the vector matches hold the titles').
        SELECT DISTINCT ON (u.id) u.* FROM (
            SELECT t.id, 1 AS in_title, t.title, t.size, t.venue_id FROM titles AS t
            UNION ALL
            SELECT v.id, 0 AS in_title, v.title, v.size, v.venue_id FROM (%(vectors)s) AS v
            WHERE (SELECT count(*) FROM titles) < %(enough)s
            UNION ALL
            SELECT a.id, 0 AS in_title, a.title, a.size, a.venue_id FROM (%(authored)s) AS a
        ) AS u
        ORDER BY u.id, u.in_title DESC
    ) AS m
    -- The title's own text once: its words and the word-order test both read it.
    CROSS JOIN LATERAL (SELECT {own_title} AS own) AS f
),
scored AS MATERIALIZED (
    -- The times each word is in the title, counted once (both stages read them).
    SELECT c.id, c.size, c.held_on, c.authored,
           CASE WHEN c.authored THEN c.held_on END AS authored_on, avg(c.size) OVER () AS average,
           {title_counts} AS title_counts,
           {title_term} AS title_score
    FROM candidates AS c
),
estimated AS MATERIALIZED (
    SELECT c.*, c.title_score + {first_words} AS estimate FROM scored AS c
),
first AS MATERIALIZED (
    -- Not the named authors' papers, whose place their venue's date sets.
    SELECT c.* FROM estimated AS c WHERE NOT c.authored
    ORDER BY c.estimate DESC, c.held_on DESC NULLS LAST, c.id LIMIT %(first)s
)
SELECT c.id, c.title_score + {second_words} AS score, c.held_on, c.authored, c.authored_on
FROM (
    -- One probe per paper of the first stage (OFFSET 0: never a join reading every paper).
    SELECT c.*, {abstract_own} AS abstract_own, {abstract_parts} AS abstract_parts
    FROM first AS c
    CROSS JOIN LATERAL (SELECT p.abstract FROM {paper} AS p WHERE p.id = c.id OFFSET 0) AS p
) AS c
UNION ALL
SELECT c.id, c.estimate, c.held_on, c.authored, c.authored_on FROM estimated AS c
WHERE c.id NOT IN (SELECT f.id FROM first AS f)
ORDER BY authored DESC, authored_on DESC NULLS LAST, score DESC, held_on DESC NULLS LAST, id
LIMIT %(limit)s OFFSET %(offset)s
"""


def own_words(text: str) -> list[str]:
    """The query's words as typed, each hyphenated compound one word: those compared with a
    title's own words (papers/title_match.py)."""
    return typed_words(joined_hyphens(text))


def ordered_pattern(text: str) -> str:
    """A regex matching a title's own words (title_match.OWN) with the query's, in the
    query's order."""
    words = [re.escape(word) for word in own_words(text)]
    return r"\m" + r"\M.*\m".join(words) + r"\M" if words else "^$"


def idfs_sql(text: str) -> tuple[str, list]:
    """IDFS_SQL for the query ``text`` as (sql, params)."""
    return sql(IDFS_SQL), [STOPWORD_IDF, typed_words(text), SEARCH_CONFIG]


def _words_term(count: int, title, abstract, size: str, average: str, idfs: str) -> str:
    """One paper's words term, written out word by word (a subquery per paper cost more than
    the arithmetic): Σ idf × tf × (K1 + 1) / (tf + K1 × norm), each word %(word<i>)s.
    ``title(i)``: SQL counting word i in the title (title_count); ``abstract(i)``: in the
    abstract; ``size``, ``average``: the paper's size and the average; ``idfs``: the
    float8[] of IDFS_SQL."""
    if not count:
        return "0"
    norm = f"%(k1)s * (1 - %(b)s + %(b)s * COALESCE({size} / GREATEST({average}, 1), 1))"
    terms = []
    for i in range(1, count + 1):
        tf = f"(%(field)s * {title(i)} + {abstract(i)})"
        terms.append(f"{idfs}[{i}] * {tf} * %(k1_plus)s / ({tf} + {norm})")
    return "%(weight)s * (" + "\n    + ".join(terms) + ")"


def size_sql(table: str) -> str:
    """A paper's size for the length normalisation (bytes; TOASTed text is not read), NULL
    without an abstract (unknown: such a paper is normalised as one of average size)."""
    return (
        f"({TITLE_FIELD} * octet_length({table}.title) + NULLIF(octet_length({table}.abstract), 0))"
    )


class Piece(NamedTuple):
    """A part of a statement with its own parameters."""

    sql: str
    params: list


NO_PREFIX = Piece("", [])


def _fill(
    template: str, text: str, pieces: dict[str, Piece], words: str | None = None
) -> tuple[str, list]:
    """The template with each %(name)s replaced, in order: a piece by its SQL (its params
    appended), a weight or pattern by %s (its value appended). ``words``: the text whose
    words are counted as typed (default ``text``)."""
    words = text if words is None else words
    values = {
        "weight": WORDS_WEIGHT,
        "k1": K1,
        "k1_plus": K1 + 1,
        "b": B,
        "field": TITLE_FIELD,
        "title_base": BASE,
        "order": ORDER,
        "ordered": ordered_pattern(words),
        "exact": EXACT,
        "likelihood": LIKELIHOOD,
        "named": NAMED,
        "headed": HEADED,
        "name": " ".join(own_words(words)),
        "stopwords": TITLE_STOPWORDS,
        # For an ``in_title`` written with %(config)s and %(text)s (a websearch query).
        "config": SEARCH_CONFIG,
        "text": websearch_text(text),
        **{f"word{i}": word for i, word in enumerate(typed_words(words), 1)},
        **patterns(words),
        **{f"own{i}": word for i, word in enumerate(own_words(words), 1)},
        **compound_values(text, words),
    }
    params: list = []

    def take(match):
        name = match.group(1)
        if name in pieces:
            params.extend(pieces[name].params)
            return pieces[name].sql
        params.append(values[name])
        return "%s"

    return re.sub(r"%\((\w+)\)s", take, template), params


# The titles of the collection having word i (any case): where ``relevance`` asks whether an
# acronym is written so.
_TITLES_HAVING = (
    "(SELECT t.title FROM {paper} AS t"
    " WHERE t.title_vector @@ plainto_tsquery(%(config)s::regconfig, %(word{{i}})s))"
)


def relevance(table: str, text: str, in_title: str) -> tuple[str, list]:
    """The score of each row of paper alias ``table`` as (sql, params), for statements over
    every match (the admin's search, exports): the average size is the collection's (one
    pass over the paper table, no TOASTed text). ``in_title``: SQL that is 1 when the row's
    title matches the whole query."""
    count = len(typed_words(text))
    joins = compound_forms(text, text)
    abstract_own = joined_apart(ABSTRACT_OWN.format(text=f"{table}.abstract"), joins, "gi")
    abstract_parts = ABSTRACT_PARTS.format(text=f"{table}.abstract")
    own = joined_apart(OWN.format(text=f"{table}.title"), joins, "g")
    own_title = OWN_WORDS.format(own=own)
    parts = PARTS_WORDS.format(text=f"{table}.title")
    count_sql = WORD_COUNT.format(words=own_title)
    written = written_so(text, _TITLES_HAVING.format(paper=table_names()["paper"]))
    misses = case_misses(written, f"{table}.title")
    title_part = _title_term(cased_in_title(in_title, misses), own, own_title, count_sql, text)
    words_part = _words_term(
        count,
        lambda i: cased_count(i, title_count(i, own_title, parts), misses),
        lambda i: abstract_count(i, abstract_own, abstract_parts, written),
        size_sql(table),
        f"(SELECT avg{size_sql('a')} FROM {table_names()['paper']} AS a)",
        "%(idfs)s",
    )
    template = f"({title_part} + {words_part})"
    statement, params = idfs_sql(text)
    return _fill(template, text, {"idfs": Piece(f"({statement})", params)})


def _title_term(in_title: str, own: str, words: str, count: str, text: str) -> str:
    """title_match.TERM for the query ``text`` (its words as typed): ``own``, ``words``,
    ``count``: SQL of the title's OWN text, its own words, its WORD_COUNT."""
    k = len(own_words(text))
    return TERM.format(
        in_title=in_title,
        own=own,
        share=share(k, words),
        choices=ln_choices(count, k),
        name=NAME.format(own=own),
        head=HEAD.format(own=own, name=NAME.format(own=own)),
    )


def _ranked_template(count: int, words: str, joins: tuple[int, int]) -> str:
    """_RANKED_SQL for a query of ``count`` words (``words``, as typed), written out word by
    word, and ``joins`` its compound forms (papers/apart_compounds.py compound_forms)."""
    idfs = "(SELECT idfs FROM idfs)"
    written = written_so(words, "candidates")
    misses = case_misses(written, "c.title")
    return sql(
        _RANKED_SQL,
        own_title=joined_apart(OWN.format(text="m.title"), joins, "g"),
        own_words=OWN_WORDS.format(own="f.own"),
        parts=PARTS_WORDS.format(text="m.title"),
        title_counts="ARRAY["
        + ", ".join(
            cased_count(i, title_count(i, "c.own_words", "c.parts"), misses)
            for i in range(1, count + 1)
        )
        + "]::int[]",
        title_term=_title_term(
            cased_in_title("c.in_title", misses),
            "c.own",
            "c.own_words",
            WORD_COUNT.format(words="c.own_words"),
            words,
        ),
        first_words=_words_term(
            count,
            lambda i: f"c.title_counts[{i}]",
            lambda i: f"(c.title_counts[{i}] = 0)::int",
            "c.size",
            "c.average",
            idfs,
        ),
        abstract_own=joined_apart(ABSTRACT_OWN.format(text="p.abstract"), joins, "gi"),
        abstract_parts=ABSTRACT_PARTS.format(text="p.abstract"),
        second_words=_words_term(
            count,
            lambda i: f"c.title_counts[{i}]",
            lambda i: abstract_count(i, "c.abstract_own", "c.abstract_parts", written),
            "c.size",
            "c.average",
            idfs,
        ),
    )


def ranked_statement(
    text: str,
    titles: Piece,
    vectors: Piece,
    limit: int,
    offset: int,
    cap: int,
    prefix: Piece = NO_PREFIX,
    words: str | None = None,
    *,
    authored: tuple[Piece, list[int]],
) -> tuple[str, list]:
    """(sql, params) of [(id, score)]: one page of the candidates ranked (bounded work, see
    the module docstring), in the same order whatever the page. ``titles``, ``vectors``: the
    papers whose title, whose vector matches the query, rows (id, title, size, venue_id),
    each LIMITed to ``cap``; ``prefix``: CTEs they read (``name AS (…),``), e.g. the filtered
    papers; ``words``: the text whose words are counted as typed, when not ``text`` (the query
    as typed beside its compounds joined); ``authored``: the rows (id, title, size, venue_id) of
    the papers of the authors the query names, ranked first, and their ids (a statement
    reading no rows and [] for none)."""
    words = text if words is None else words
    count = len(typed_words(words))
    template = _ranked_template(count, words, compound_forms(text, words))
    authored_rows, authored_ids = authored
    pieces = {
        "prefix": prefix,
        "idfs_sql": Piece(*idfs_sql(words)),
        "titles": titles,
        "vectors": vectors,
        "authored": authored_rows,
        "authored_ids": Piece("%s", [authored_ids]),
        "enough": Piece("%s", [cap]),
        "first": Piece("%s", [RESCORED]),
        "limit": Piece("%s", [limit]),
        "offset": Piece("%s", [offset]),
    }
    return _fill(template, text, pieces, words)
