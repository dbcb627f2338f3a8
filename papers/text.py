"""Small pure text helpers shared by the parser, the loader and the models."""

import hashlib
import re
import unicodedata

from django.utils.text import slugify

DERIVED_TITLE_LIMIT = 90
# websearch_to_tsquery fails ("tsquery stack too small") on 33 or more "-" in a row, even
# with spaces or operators between them; a single "-" excludes just the same.
_STACKED_NEGATIONS = re.compile(r"-(?:[^\w\"']*-)+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.")


def websearch_text(text: str) -> str:
    """A query PostgreSQL's websearch parser accepts: stacked negations collapsed to one."""
    return _STACKED_NEGATIONS.sub("-", text)


_COMPOUND_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")


def fold_compounds(text: str) -> str:
    """A query's hyphenated compounds as separate words: "few-shot" searches as "few shot"
    (the index holds a hyphenated word's parts too), while "-word" still excludes."""
    return _COMPOUND_HYPHEN.sub(" ", text)


def fold_whitespace(text: str) -> str:
    return " ".join(text.split())


def normalise_abstract(abstract: str) -> str:
    """The form two copies of one abstract share: NFKC, case-folded, whitespace folded."""
    return fold_whitespace(unicodedata.normalize("NFKC", abstract).casefold())


def abstract_key(abstract: str) -> str:
    """A fixed-size key for an abstract (empty for none), so a unique index can hold it."""
    normalised = normalise_abstract(abstract)
    if not normalised:
        return ""
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest()


def normalise_title(title: str) -> str:
    return fold_whitespace(unicodedata.normalize("NFKC", title).casefold())


def first_sentence(text: str) -> str:
    paragraph = fold_whitespace(text.strip().split("\n\n", 1)[0])
    start = 0
    for match in _SENTENCE_END.finditer(paragraph):
        candidate = paragraph[: match.start()]
        if not candidate.endswith(_ABBREVIATIONS):
            return candidate[start:]
    return paragraph


def derive_title(abstract: str, limit: int = DERIVED_TITLE_LIMIT) -> str:
    """A stand-in title for an untitled paper: its abstract's first sentence, cut at a word."""
    sentence = first_sentence(abstract).rstrip(".")
    if len(sentence) <= limit:
        return sentence
    cut = sentence[: limit + 1].rsplit(" ", 1)[0].rstrip(",;:—-(")
    return cut + "…"


def make_slug(name: str, fallback: str = "item") -> str:
    return slugify(name) or slugify(unicodedata.normalize("NFKD", name)) or fallback
