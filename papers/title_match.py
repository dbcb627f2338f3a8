"""How likely a title matching the whole query is the paper meant: the title's part of the
relevance score (papers/relevance.py).

A reader after a known paper types a few of its title's words in the title's order. Of the
titles having them all, a title of n words offers C(n, k) choices of k words, so the one with
fewer other words is the likelier one meant: the part counts −LIKELIHOOD × ln C(n, k), n the
title's words as a reader counts them (a hyphenated compound one word; the stop words of
TITLE_STOPWORDS not counted), k the query's. It also counts whether the title has the query's
words as written (EXACT × their share), in the query's order (ORDER) and whether the query is
the name the title gives its subject (NAMED: "BART" and "BART: Denoising …"; HEADED, less:
"dense passage retrieval" and "Dense Passage Retrieval for Open-Domain …"), each word compared
with the title's own words: a word standing alone or a compound whole ("task-agnostic" as
taskagnostic), never a part of one ("supervised" does not ask for "Semi-Supervised", nor
"learning" for "Sequence-to-Sequence Learning" twice). All of it is bounded work on each
candidate's title (a few regular expressions over a line of text).

Tuning set, 1,000 title-word queries drawn apart from the test set's papers: MRR@10 0.888
with a length bonus LENGTH / (1 + distinct stems) and words compared with a compound's parts
too, 0.897 with this part (the app, each query through search_page).
"""

import math
import re

BASE = 3.0
ORDER = 3.0
EXACT = 3.0
LIKELIHOOD = 1.0
NAMED = 3.0

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

_HYPHEN = re.compile(r"(\w)-(?=\w)")

# A title lowercased, each hyphenated compound joined ("Task-Agnostic" → taskagnostic; a
# hyphen elsewhere separates nothing the split at non-word characters would not), its parts
# not kept: its own words. The word-order test reads it; OWN_WORDS splits it; PARTS_WORDS are
# its words split at the hyphens too, the parts a compound's joined form leaves out.
OWN = "lower(replace({text}, '-', ''))"
OWN_WORDS = "regexp_split_to_array({own}, '\\W+')"
PARTS_WORDS = "regexp_split_to_array(lower({text}), '\\W+')"
# The number of a title's own words (the SQL array {words}, OWN_WORDS) less the stop words
# (%(stopwords)s, TITLE_STOPWORDS): its words as a reader counts them (bench/search_quality.py
# draws its queries so).
WORD_COUNT = (
    "(SELECT count(*) FROM unnest({words}) AS w WHERE w <> '' AND w <> ALL(%(stopwords)s::text[]))"
)
# The name a title gives its subject, before its colon ("BART: Denoising Sequence-to-Sequence
# …" names BART; a title without one is its own name), in its OWN words: a query that is that
# name asks for that paper ("BART" for BART's, not "Hie-BART: …", which the length term
# favoured).
NAME = "btrim(regexp_replace(split_part({own}, ':', 1), '\\W+', ' ', 'g'))"
# The subject a title without a colon names before the words giving its setting ("Dense
# Passage Retrieval for Open-Domain Question Answering" names dense passage retrieval, which
# "Query-as-context Pre-training for Dense Passage Retrieval", shorter, does not): the title's
# words before the first of SETTING_WORDS, NULL for a title with a colon (the name before it
# says its subject). Counted HEADED, less than a name before a colon: "Transformers: …" is
# still the paper "transformers" names, before "Transformers with Learnable Activation …".
SETTING_WORDS = ["for", "with", "via", "using", "in", "on", "through", "by", "from", "over"]
HEAD = (
    "CASE WHEN strpos({{own}}, ':') = 0 THEN btrim(regexp_replace({{name}}, '(^| )({})( .*)?$', ''))"
    " END"
).format("|".join(SETTING_WORDS))
HEADED = 1.5
# {in_title}: 1 when the title matches the whole query; {own}: its OWN text; {share}: the
# share of the query's words among its own words; {choices}: ln C(n, k).
TERM = """CASE WHEN {in_title} = 1 THEN GREATEST(0, %(title_base)s
    + %(order)s * ({own} ~ %(ordered)s)::int
    + %(exact)s * {share}
    + %(named)s * (%(name)s = {name})::int
    + %(headed)s * COALESCE(%(name)s = {head} AND %(name)s <> {name}, false)::int
    - %(likelihood)s * {choices})
  ELSE 0 END"""


def joined_hyphens(text: str) -> str:
    """The text with each hyphenated compound written as one word, as OWN writes a title."""
    return _HYPHEN.sub(r"\1", text)


def ln_choices(words: str, k: int) -> str:
    """SQL of ln C(n, k), n the value of the SQL ``words`` (read once, at least k)."""
    if not k:
        return "0"
    terms = " + ".join(f"ln(t.n - {i})" for i in range(k))
    constant = math.log(math.factorial(k))
    return f"(SELECT {terms} - {constant!r} FROM (SELECT GREATEST({words}, {k}) AS n) AS t)"


def share(count: int, words: str) -> str:
    """SQL of the share of the query's own words (%(own<i>)s) among the SQL array ``words``."""
    if not count:
        return "0"
    found = " + ".join(f"(%(own{i})s::text = ANY({words}))::int" for i in range(1, count + 1))
    return f"({found})::float / {count}"
