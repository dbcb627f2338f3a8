"""What a query means beyond its words: a paper's identifier, an author's name, a compound.

An Anthology ID (``2021.naacl-main.463``, old style ``P19-1001``), a DOI
(``10.18653/v1/2021.naacl-main.463``, also as a doi.org link) or an Anthology URL (the paper's
page or its PDF) names one paper: ``identified_paper`` finds it (one indexed query, run only
when the text has an identifier's shape). A query that is a person's name, compared as slugs
compare (case and accents folded) or as normalised names, offers that author's page:
``authors_named`` lists each author of that name (the people the Anthology tells apart, and a
second author of one name with the slug "name-2") with a paper count. A word the collection
writes hyphenated, typed joined ("fewshot" for "few-shot"), is searched as its parts, as
"few-shot" and "few shot" are (``split_compounds``).
"""

import re

from django.db.models import Count, Q
from django.db.models.functions import Lower

from .anthology_metadata import ANTHOLOGY_ID
from .models import Author, Paper
from .tables import reading_cursor, sql
from .text import make_slug, name_key

_IDENTIFIER = re.compile(
    rf"(?:https?://(?:www\.)?aclanthology\.org/(?P<url>{ANTHOLOGY_ID})(?:/|\.pdf|\.bib)?"
    r"|(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(?P<doi>10\.\d{4,9}/\S+)"
    rf"|(?P<id>{ANTHOLOGY_ID}))",
    re.IGNORECASE,
)
_ANTHOLOGY_DOI = re.compile(rf"10\.18653/v1/(?P<id>{ANTHOLOGY_ID})", re.IGNORECASE)
# A name: two to five words of letters (with . ' - inside), nothing a search operator uses.
_NAME = re.compile(r"[^\W\d_][\w.'’-]*(?:\s+[^\W\d_][\w.'’-]*){1,4}")
_OPERATORS = {"or", "and", "not"}


def canonical_anthology_id(raw: str) -> str:
    """The ID as papers store it: new style lowercase, old style with its capital letter."""
    lowered = raw.lower()
    return lowered if "." in lowered else lowered.upper()


def parse_identifier(text: str) -> tuple[str | None, str | None]:
    """(Anthology ID, DOI) the whole text names, either possibly None."""
    match = _IDENTIFIER.fullmatch(text.strip().rstrip("/"))
    if match is None:
        return None, None
    if match["doi"]:
        doi = match["doi"].rstrip(".").lower()
        within = _ANTHOLOGY_DOI.fullmatch(doi)
        return (canonical_anthology_id(within["id"]) if within else None), doi
    return canonical_anthology_id(match["url"] or match["id"]), None


def identified_paper(text: str):
    """The paper the text identifies, or None (no query unless the text has the shape)."""
    anthology_id, doi = parse_identifier(text)
    if anthology_id is None and doi is None:
        return None
    condition = Q(pk__in=[])
    if anthology_id:
        condition |= Q(external_id=anthology_id)
    if doi:
        condition |= Q(doi_lower=doi)
    found = Paper.objects.annotate(doi_lower=Lower("doi")).filter(condition).order_by("pk")
    return found.first()


def looks_like_name(text: str) -> bool:
    words = text.split()
    return bool(_NAME.fullmatch(text)) and not any(word.lower() in _OPERATORS for word in words)


def authors_named(text: str, limit: int = 10) -> list:
    """The authors whose name is the text (slug equal, or slug-2, slug-3 … for namesakes),
    each with ``paper_count``, most papers first; [] without a query when not a name."""
    text = " ".join(text.split())
    if not looks_like_name(text):
        return []
    slug = make_slug(text, "")
    if not slug:
        return []
    namesakes = Q(slug__startswith=f"{slug}-") & Q(slug__regex=rf"^{re.escape(slug)}-[0-9]+$")
    return list(
        Author.objects.filter(Q(slug=slug) | namesakes | Q(key=name_key(text)))
        .annotate(paper_count=Count("authorships"))
        .order_by("-paper_count", "slug")[:limit]
    )


# A joined compound and the hyphenated form the collection writes ("fewshot", "few-shot"):
# each way of splitting each query word in two, stemmed as the index stems a hyphenated word
# (whole), looked up in the Lexeme table; a split wins when the collection writes it
# SPLIT_RATIO times as often as the joined word or more (then searching the parts loses few
# papers: "pretrained" stays, 1,786 papers beside 3,884 "pre-trained"). Parameters: the
# words, SPLIT_RATIO. (The LIMIT keeps each split a lookup in the primary key's index: pulled
# up into a join, the planner guesses a thousand splits and hashes the whole table.)
_JOINED_SQL = """
SELECT w.word, i.at
FROM unnest(%s::text[]) AS w(word)
CROSS JOIN LATERAL generate_series(2, length(w.word) - 2) AS i(at)
CROSS JOIN LATERAL (
    SELECT l.documents FROM {lexeme} AS l
    WHERE l.word = (ts_lexize('english_stem', left(w.word, i.at) || '-' || substr(w.word, i.at + 1)))[1]
    LIMIT 1
) AS split
LEFT JOIN {lexeme} AS joined ON joined.word = (ts_lexize('english_stem', w.word))[1]
WHERE split.documents >= %s * COALESCE(joined.documents, 0) AND split.documents > 0
ORDER BY w.word, split.documents DESC, i.at
"""
SPLIT_RATIO = 10
_JOINABLE = re.compile(r"(?<![\w-])[^\W\d_]{5,30}(?![\w-])")


def split_compounds(text: str) -> str:
    """The query with each joined compound the collection writes hyphenated split into its
    parts, as a hyphenated word is searched ("fewshot" → "few shot", like "few-shot"): one
    indexed statement, only when the text has a word of five letters or more."""
    words = list(dict.fromkeys(match.lower() for match in _JOINABLE.findall(text)))[:8]
    if not words:
        return text
    with reading_cursor() as cursor:
        cursor.execute(sql(_JOINED_SQL), [words, SPLIT_RATIO])
        splits: dict[str, int] = {}
        for word, at in cursor.fetchall():
            splits.setdefault(word, at)

    def split(match):
        typed = match.group(0)
        at = splits.get(typed.lower())
        return typed if at is None else f"{typed[:at]} {typed[at:]}"

    return _JOINABLE.sub(split, text)
