"""Hyphenated compounds in queries and in the indexed text: the one word the index holds for
every spelling of a compound ("few-shot", "fewshot"), and how a quoted phrase writes one so
that its positions line up with the index's (pure: text in, text out)."""

import re

from .text import QUOTED, collapse_negations


def websearch_text(text: str) -> str:
    """The query as it is parsed against the index: negations collapsed and hyphenated
    compounds written as the index writes them (``fold_compounds``)."""
    return fold_compounds(collapse_negations(text))


# The stop words of PostgreSQL's english configuration (tsearch_data/english.stop, the
# Snowball list, the same in every release): no search vector holds them, and a phrase's
# positions only count them.
STOP_WORDS = frozenset(
    [
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "ourselves",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "it",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "this",
        "that",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "a",
        "an",
        "the",
        "and",
        "but",
        "if",
        "or",
        "because",
        "as",
        "until",
        "while",
        "of",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "then",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "s",
        "t",
        "can",
        "will",
        "just",
        "don",
        "should",
        "now",
    ]
)


# A hyphenated compound of two to four parts ("few-shot", "end-to-end"). The search vectors
# hold it joined and as its parts, at the parts' positions ("fewshot few shot"): the SQL
# function papers_compounds (papers/schema_sql.py) applies COMPOUND_SQL with
# COMPOUND_SQL_REPLACEMENT, the same rewrite as ``index_compounds``; a joined word
# ("fewshot") and the hyphenated one are then one lexeme, and a stop word part ("few",
# "in") no longer loses the compound. The fourth part is optional inside the third's group:
# the same matches and parts as two optional groups side by side, but PostgreSQL's regular
# expressions find them in less than half the time (a load's abstracts: 4.8 -> 1.9 s). A
# part may be a version number ("GPT-3.5": "GPT3.5 GPT 3.5", "Qwen2.5-7B"): read as "3" with
# ".5" left over, "GPT-3.5" searched for "GPT3.5" found 23 of the 277 papers writing it.
_PART = r"(\w+(?:\.\d+)*)"
COMPOUND_SQL = f"{_PART}-{_PART}(?:-{_PART}(?:-{_PART})?)?"
COMPOUND_SQL_REPLACEMENT = r"\1\2\3\4 \1 \2 \3 \4"
_COMPOUND = re.compile(COMPOUND_SQL)


def _joined(match: re.Match) -> str:
    return "".join(part for part in match.groups() if part)


def index_compounds(text: str) -> str:
    """The text as the search vectors parse it: markdown's bold marks dropped (a word written
    "**M**ultiprompt" is one word), each compound joined, then its parts."""
    return _COMPOUND.sub(
        lambda m: f"{_joined(m)} {' '.join(p for p in m.groups() if p)}", text.replace("**", "")
    )


def version_apart(word: str) -> str | None:
    """A model name with its version as its parts in a row, a quoted phrase ("GPT-3.5",
    "GPT3.5": '"GPT 3.5"'; "Llama-3", "Llama3": '"Llama 3"'), which finds the papers writing
    it apart and those writing it inside a longer compound ("GPT-3.5-turbo": "GPT3.5turbo GPT
    3.5 turbo" in the index), 80 of the 304 papers writing GPT-3.5 that its joined word
    misses; None for any other word."""
    solid = _SOLID_VERSION.fullmatch(word)
    if solid:
        return f'"{solid[1]} {solid[2]}"'
    compound = _COMPOUND.fullmatch(word)
    if compound is None or not _numbered(compound):
        return None
    return '"' + " ".join(part for part in compound.groups() if part) + '"'


# A version number: "3.5" of "GPT-3.5".
_VERSION = re.compile(r"\d\.\d")
_NUMBER = re.compile(r"\d+")
# A name written solid with its version ("GPT3.5", "Llama3", "mT5"): two letters or more, then
# the number ("word2vec", "T5" and "P19" are none). Its parts apart only add papers ("ACL2023":
# also "ACL 2023").
_SOLID_VERSION = re.compile(r"([^\W\d_]{2,})(\d+(?:\.\d+)*)")
_WHOLE = r"(?<![\w.])(?<!\w-){}(?![\w-])"
# Not part of a longer word, but perhaps excluded ("-GPT-3.5").
_WHOLE_COMPOUND = re.compile(_WHOLE.format(COMPOUND_SQL))
_WHOLE_SOLID_VERSION = re.compile(_WHOLE.format(_SOLID_VERSION.pattern))
# A name and its version number typed apart ("Qwen 2.5", "Llama 3"): a word opening with a
# letter, not excluded, not a stop word ("by 2.5 points"), then a number with a decimal point
# or of one or two digits (a year, "ACL 2023", is no version).
_TYPED_APART = re.compile(r"(?<![\w.-])([^\W\d_]\w*) +(\d+\.\d+|\d{1,2})(?![\w.-])")


def _numbered(compound: re.Match) -> bool:
    """Whether the compound has a version: a number with a decimal point anywhere, or a
    number after a first part opening with a letter ("Llama-3-8B", not "3-shot")."""
    first, *others = [part for part in compound.groups() if part]
    return bool(
        _VERSION.search(compound[0])
        or (first[0].isalpha() and any(_NUMBER.fullmatch(part) for part in others))
    )


def versioned_compounds(text: str) -> list[re.Match]:
    """The model names with a version the text writes as one word ("GPT-3.5", "-GPT-3.5",
    "Llama3"), in order."""
    compounds = [match for match in _WHOLE_COMPOUND.finditer(text) if _numbered(match)]
    solid = list(_WHOLE_SOLID_VERSION.finditer(text))
    return sorted(compounds + solid, key=lambda match: match.start())


def whole_numbers_typed_apart(text: str) -> list[str]:
    """The words a name typed apart from a whole number would be joined ("Llama 3": "llama3"),
    for the collection to tell which it writes (papers/word_lookups.py)."""
    return [f"{m[1]}{m[2]}".lower() for m in _TYPED_APART.finditer(text) if "." not in m[2]]


def join_versions_typed_apart(text: str, written: set[str]) -> str:
    """The text with each name typed apart from its version number hyphenated to it, outside
    quoted phrases: "Qwen 2.5" is then searched as "Qwen-2.5" is, in every spelling ("Qwen 2.5"
    found 7 papers, "Qwen-2.5" 22: the 15 writing "Qwen2.5" hold it as one word; "Llama 3"
    found 124, 39 of them with "llama" and a 3 anywhere, and missed those writing "Llama3"). A
    whole number only where the collection writes the two as one word (``written``, from
    ``whole_numbers_typed_apart``): "translation 50 languages" is no model's name."""

    def joined(match: re.Match) -> str:
        name, number = match[1], match[2]
        whole = "." not in number and f"{name}{number}".lower() not in written
        return match[0] if name.lower() in STOP_WORDS or whole else f"{name}-{number}"

    pieces, done = [], 0
    for quoted in QUOTED.finditer(text):
        pieces += [_TYPED_APART.sub(joined, text[done : quoted.start()]), quoted[0]]
        done = quoted.end()
    return "".join(pieces) + _TYPED_APART.sub(joined, text[done:])


def fold_compounds(text: str) -> str:
    """A query's hyphenated compounds as the one word the index holds for every spelling:
    "few-shot" searches as "fewshot" (which a paper writing "few-shot" or "fewshot" has), and
    "-few-shot" excludes it. Inside a quoted phrase, see ``phrase_compounds``."""
    parts, start = [], 0
    for quoted in QUOTED.finditer(text):
        parts.append(_COMPOUND.sub(_joined, text[start : quoted.start()]))
        parts.append(phrase_compounds(quoted.group(0)))
        start = quoted.end()
    parts.append(_COMPOUND.sub(_joined, text[start:]))
    return "".join(parts)


def phrase_compounds(phrase: str) -> str:
    """A quoted phrase with each hyphenated compound written as the index writes it (joined,
    then its parts), so that the positions line up; but one that opens the phrase written
    apart: the index holds its parts at their places right after the joined word, so the
    phrase then also finds the papers writing it apart ("retrieval-augmented generation"
    missed 63 of the 305 writing "retrieval augmented generation"). Not where a stop word part
    would then open or close the phrase: a stop word at a phrase's edge is dropped ("few shot"
    matched every paper with "shot")."""
    pieces, start = [], 0
    for compound in _COMPOUND.finditer(phrase):
        parts = [part for part in compound.groups() if part]
        opens = not content_words(phrase[: compound.start()])
        closes = not content_words(phrase[compound.end() :])
        apart = (
            opens
            and parts[0].lower() not in STOP_WORDS
            and not (closes and parts[-1].lower() in STOP_WORDS)
        )
        written = parts if apart else [_joined(compound), *parts]
        pieces += [phrase[start : compound.start()], " ".join(written)]
        start = compound.end()
    return "".join(pieces) + phrase[start:]


def is_stop_word(word: str) -> bool:
    """Whether the search vectors leave ``word`` out (in any case)."""
    return word.lower() in STOP_WORDS


def content_words(text: str) -> int:
    """How many of the text's words are not stop words: those a phrase is searched by."""
    return sum(not is_stop_word(word) for word in re.findall(r"\w+", text))
