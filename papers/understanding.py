"""What a query means beyond its words: a paper's identifier, an author's name.

An Anthology ID (``2021.naacl-main.463``, old style ``P19-1001``), a DOI
(``10.18653/v1/2021.naacl-main.463``, also as a doi.org link) or an Anthology URL (the paper's
page or its PDF) names one paper: ``identified_paper`` finds it (one indexed query, run only
when the text has an identifier's shape). A query that is a person's name, compared as slugs
compare (case and accents folded) or as normalised names, offers that author's page:
``authors_named`` lists each author of that name (the people the Anthology tells apart, and a
second author of one name with the slug "name-2") with a paper count.
"""

import re

from django.db.models import Count, Q
from django.db.models.functions import Lower

from .anthology_metadata import ANTHOLOGY_ID
from .models import Author, Paper
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
