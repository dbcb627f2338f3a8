"""What the collection says of a query's words that changes how it is searched, read in one
statement: which of its numbered names are rare (papers/numbered_names.py), and which of its
words it also writes with or without accents (papers/accents.py); and, in a statement of its
own where the query has any, which names typed apart from a whole number it writes as one
word (papers/compounds.py)."""

from .accents import OTHER_SQL, spelled_words, with_accents
from .compounds import whole_numbers_typed_apart
from .numbered_names import RARE_SQL, numbered_names, rare_params, with_superscripts
from .tables import reading_cursor, sql

_LOOKUPS_SQL = f"""SELECT 'name', r.i, NULL FROM ({RARE_SQL}) AS r(i)
UNION ALL
SELECT 'spelling', o.i, o.other FROM ({OTHER_SQL}) AS o(i, other) WHERE o.other IS NOT NULL"""


def other_forms(text: str, query: str) -> str:
    """The query (``text`` as understood, papers/understanding.py) with the other forms of
    its rare numbered names and of its words written otherwise; no statement for a text
    without words."""
    names, words = numbered_names(text), spelled_words(text)
    if not names and not words:
        return query
    with reading_cursor() as cursor:
        cursor.execute(sql(_LOOKUPS_SQL), [*rare_params(names), words])
        rows = cursor.fetchall()
    rare = {names[i - 1] for kind, i, _ in rows if kind == "name"}
    others = {words[i - 1]: other for kind, i, other in rows if kind == "spelling"}
    return with_accents(with_superscripts(query, rare), others)


# A name and a number the collection writes as one word ("llama3": Llama-3, Llama3), in a few
# papers at least.
WRITTEN_JOINED = 3


def written_joined(text: str) -> set[str]:
    """The names typed apart from a whole number in ``text`` ("Llama 3") that the collection
    writes as one word ("llama3"); no statement for a text without any."""
    joined = whole_numbers_typed_apart(text)
    if not joined:
        return set()
    with reading_cursor() as cursor:
        cursor.execute(
            sql("SELECT word FROM {lexeme} WHERE word = ANY(%s) AND documents >= %s"),
            [joined, WRITTEN_JOINED],
        )
        return {word for (word,) in cursor.fetchall()}
