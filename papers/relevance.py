"""The relevance score: written once, here, for the pages' ranking and every other ranked list.

score = BODY × Σ over the query's words of idf(word) × ts_rank(RANK_WEIGHTS, vector, word, 1)
      + in_title × (1 + ORDER × ordered + EXACT × exact + LENGTH / (1 + title words))

- idf(word) = ln(1 + papers / (1 + papers having it)), from the Lexeme table (ts_stat of the
  collection): a rare word counts more than a common one.
- ts_rank of one word over the weighted vector gives its field weights (title A, names B,
  abstract C), a saturating count of its occurrences, and (normalisation 1) divides by the
  log of the paper's length.
- in_title is 1 when the title alone matches the whole query: such a paper is the likelier
  one meant, the more so the fewer content words its title has (title words: the title's
  words less stop words); exact is the share of the query's words the title has as typed (not
  only the same stem: "chain of thought" before "Chaining … Thoughts"); ordered is 1 when
  the title has them in the query's order.
"""

import re

from .expressions import SEARCH_CONFIG
from .tables import sql
from .text import websearch_text

# Tuned on bench/search_quality.py's tuning set only (known-item MRR@10, title words: 0.825
# before this score, 0.895 with it); its test set is reported, never tuned on.
# ts_rank weights for D, C, B, A: abstract (C) half the title (A), names (B) 0.4.
RANK_WEIGHTS = "{0.05, 0.5, 0.4, 1.0}"
BODY_WEIGHT = 0.2
# ts_rank's normalisation: 1 divides by 1 + the log of the paper's length in words.
RANK_NORMALISATION = 1
EXACT_WEIGHT = 1.0
ORDER_WEIGHT = 0.5
LENGTH_WEIGHT = 2.0
# Words not counted in a title's length (the words a reader leaves out of a query).
TITLE_STOPWORDS = [
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "do",
    "does",
    "for",
    "from",
    "how",
    "in",
    "into",
    "is",
    "it",
    "its",
    "of",
    "on",
    "or",
    "our",
    "the",
    "their",
    "this",
    "to",
    "via",
    "vs",
    "we",
    "what",
    "when",
    "where",
    "which",
    "who",
    "why",
    "with",
    "without",
]

# The query's lexemes (stop words dropped) with their idf. Parameters: config, query text.
WORDS_SQL = """
    SELECT w.word::tsquery AS single,
           ln(1 + c.papers / (1 + COALESCE(l.documents, 0))) AS idf
    FROM unnest(tsvector_to_array(to_tsvector(%s::regconfig, %s))) AS w(word)
    CROSS JOIN (SELECT GREATEST(
        (SELECT reltuples FROM pg_class WHERE oid = '{paper}'::regclass),
        (SELECT max(documents) FROM {lexeme}), 1)::float AS papers) AS c
    LEFT JOIN {lexeme} l ON l.word = w.word
"""

# {p}: the paper's alias; {words}: WORDS_SQL's rows (a CTE's name or the subquery itself);
# {in_title}: 1 when the title matches the whole query, else 0.
RELEVANCE_SQL = """(
    %(body)s * COALESCE((SELECT sum(w.idf * ts_rank(%(weights)s::float4[], {p}.search_vector,
                                                      w.single, %(normalisation)s))
                         FROM {words} AS w), 0)
    + CASE WHEN {in_title} = 1 THEN
        1 + %(order)s * (lower({p}.title) ~ %(ordered)s)::int
        + %(exact)s * (SELECT COALESCE(avg((lower({p}.title) ~ ('\\m' || x || '\\M'))::int), 0)
                       FROM unnest(%(typed)s::text[]) AS x)
        + %(length)s / (1 + (SELECT count(*) FROM regexp_split_to_table(lower({p}.title), '\\s+')
                                 AS t(word)
                             WHERE t.word <> '' AND t.word <> ALL(%(stopwords)s::text[])))
      ELSE 0 END
)"""

_TYPED_WORD = re.compile(r"\w+")


def typed_words(text: str) -> list[str]:
    """The query's words as typed, lowercased and regex-escaped, for the exact-title share."""
    negated = {match.lower() for match in re.findall(r"(?:^|\s)-(\w+)", text)}
    words = [word.lower() for word in _TYPED_WORD.findall(websearch_text(text))]
    kept = [word for word in words if word not in TITLE_STOPWORDS and word not in negated]
    kept = [word for word in kept if word != "or"]
    return [re.escape(word) for word in dict.fromkeys(kept)][:16]


def ordered_pattern(text: str) -> str:
    """A regex matching a title with the query's words as typed, in the query's order."""
    words = typed_words(text)
    return r"\m" + r"\M.*\m".join(words) + r"\M" if words else "^$"


def words_sql(text: str) -> tuple[str, list]:
    """WORDS_SQL for the query ``text`` as (sql, params)."""
    return sql(WORDS_SQL), [SEARCH_CONFIG, websearch_text(text)]


def relevance(table: str, text: str, in_title: str, words: str | None = None):
    """RELEVANCE_SQL for paper alias ``table`` and query ``text`` as (sql, positional params).

    ``words``: the name of a CTE holding WORDS_SQL's rows; by default the subquery itself.
    """
    words_statement, words_params = words_sql(text) if words is None else (words, [])
    values = {
        "weights": RANK_WEIGHTS,
        "body": BODY_WEIGHT,
        "normalisation": RANK_NORMALISATION,
        "exact": EXACT_WEIGHT,
        "order": ORDER_WEIGHT,
        "ordered": ordered_pattern(text),
        "length": LENGTH_WEIGHT,
        "typed": typed_words(text),
        "stopwords": TITLE_STOPWORDS,
        # For an ``in_title`` written with %(config)s and %(text)s (a websearch query).
        "config": SEARCH_CONFIG,
        "text": websearch_text(text),
    }
    template = RELEVANCE_SQL.format(p=table, words="%(words)s", in_title=in_title)
    params: list = []

    def take(match):
        if match.group(1) == "words":
            params.extend(words_params)
            return words_statement if words is not None else f"({words_statement})"
        params.append(values[match.group(1)])
        return "%s"

    return re.sub(r"%\((\w+)\)s", take, template), params
