"""How often a query's words, as typed, are in a paper's title and abstract: the counts the
relevance score (papers/relevance.py) is made of, as SQL.
"""

# An abstract as a query's words are counted in it as typed: its compounds joined
# (ABSTRACT_OWN: "few-shot" as fewshot) and as written (ABSTRACT_PARTS: their parts words of
# their own), each word counted by a regular expression's scan (ABSTRACT_COUNT) rather than by
# splitting the whole abstract into words: a seventh of the time for the abstracts of a
# query's best candidates. The scan ignores case (flag i) rather than reading a lowercased
# copy: lower() of an abstract took as long as the scan itself.
ABSTRACT_OWN = "replace({text}, '-', '')"
ABSTRACT_PARTS = "{text}"
# The times word i is in an abstract whose two forms are {own} and {parts}: as a whole word
# (%(word_pattern<i>)s, \m word \M, in any case: {flags} i; or %(cased<i>)s, an acronym as
# written, case sensitive: c) in its own words or in its parts, whichever has it more often,
# as title_count counts a title's.
ABSTRACT_COUNT = (
    "GREATEST(regexp_count({own}, %({pattern}{i})s, 1, '{flags}'),"
    " regexp_count({parts}, %({pattern}{i})s, 1, '{flags}'))"
)


def abstract_count(i: int, own: str, parts: str, written: dict[int, str]) -> str:
    """SQL of ABSTRACT_COUNT of word i in an abstract whose two forms are ``own`` and
    ``parts``: as written or in capitals where it is an acronym the titles write so
    (``written``, papers/typed_words.py written_so), else in any case."""
    count = ABSTRACT_COUNT.format(own=own, parts=parts, i=i, pattern="word_pattern", flags="i")
    if i not in written:
        return count
    cased = ABSTRACT_COUNT.format(own=own, parts=parts, i=i, pattern="cased", flags="c")
    return f"(CASE WHEN {written[i]} THEN {cased} ELSE {count} END)"


def title_count(i: int, own: str, parts: str) -> str:
    """SQL of the times word i (%(word<i>)s) is in a title: in its own words (a compound
    joined) or in its parts (a compound split), whichever has it more often. The same count
    as in the title's words with its compounds both joined and split, at half the cost of
    papers_compounds' regular expression (a word is either a compound or a part)."""
    word = f"%(word{i})s::text"
    return (
        f"GREATEST(cardinality(array_positions({own}, {word})),"
        f" cardinality(array_positions({parts}, {word})))"
    )
