"""The JSON API: the list's search, one paper's record, and its similar papers.

Only GET and HEAD are answered (405 otherwise). Errors are JSON too: 400 {"error", "details"}
for bad parameters (validated by the list's own PaperFilterSet), 404 {"error"} for an unknown
paper. ``snippet`` is HTML-safe: the abstract escaped, the matched words in <mark>.

The list answers as the list page ranks (papers/search.py): an identifier in q (Anthology ID,
DOI, Anthology URL) gives that paper as the only result; ``authors`` lists the authors a name
query names; ``corrected_query`` is the respelled query whose results are given when q itself
matched nothing (``literal=1`` asks for q as typed); results with ``"partial": true`` match
some of the words only and follow the full matches when those are fewer than a page.
"""

from django.http import JsonResponse
from django.views.decorators.http import require_safe

from .models import Paper
from .rendering import highlight, plain_snippet
from .search import PaperFilterSet, search_page
from .serializers import paper_record

MAX_SIMILAR = 100
MAX_ID = 2**63 - 1


def error(message: str, status: int, details=None):
    body = {"error": message}
    if details:
        body["details"] = details
    return JsonResponse(body, status=status)


def _page_url(request, page: int | None):
    if page is None:
        return None
    query = request.GET.copy()
    query["page"] = str(page)
    return request.build_absolute_uri(request.path + "?" + query.urlencode())


def _author(request, author) -> dict:
    return {
        "name": author.name,
        "url": request.build_absolute_uri(author.get_absolute_url()),
        "papers": author.paper_count,
    }


def _result(request, paper, partial: bool = False) -> dict:
    headline = paper.headline if hasattr(paper, "headline") else plain_snippet(paper.abstract)
    return {
        "id": paper.pk,
        "external_id": paper.external_id,
        "title": paper.title or None,
        "display_title": paper.display_title,
        "venue": paper.venue.name,
        "year": paper.venue.year,
        "topics": sorted(topic.name for topic in paper.topics.all()),
        "country": paper.country,
        "url": request.build_absolute_uri(paper.get_absolute_url()),
        "snippet": str(highlight(headline)),
        "score": round(paper.score, 6) if paper.score is not None else None,
        "partial": partial,
    }


@require_safe
def paper_list(request):
    filterset = PaperFilterSet(request.GET, refuse_long_query=True)
    if not filterset.is_valid():
        message, details = filterset.error_summary()
        return error(message, 400, details)
    results = search_page(filterset)
    return JsonResponse(
        {
            "count": int(results.count),
            # Beyond the facets' exact bound the count is estimated (papers/facets.py).
            "count_is_estimate": results.facets.total_estimated,
            "page": results.page,
            "pages": results.pages,
            "next": _page_url(request, results.page + 1 if results.has_next else None),
            "previous": _page_url(request, results.page - 1 if results.has_previous else None),
            # The query whose results these are when the one sent was respelled.
            "corrected_query": results.corrected_query,
            "authors": [_author(request, author) for author in results.authors],
            # Full matches, then (first page, fewer than a page of them) partial ones.
            "results": [_result(request, paper) for paper in results.papers]
            + [_result(request, paper, partial=True) for paper in results.partial],
        }
    )


def _paper_id(raw: str):
    # Length first: int() refuses strings of over 4,300 digits (ValueError, a 500).
    digits = raw.lstrip("0") if raw.isascii() and raw.isdigit() else ""
    if not digits or len(digits) > len(str(MAX_ID)) or int(digits) > MAX_ID:
        return None
    return int(digits)


@require_safe
def paper_detail(request, pk: str):
    paper_id = _paper_id(pk)
    paper = None
    if paper_id is not None:
        paper = Paper.objects.with_related().filter(pk=paper_id).first()
    if paper is None:
        return error(f"No paper with id {pk[:40]!r}.", 404)
    return JsonResponse(paper_record(paper))


@require_safe
def paper_similar(request, pk: str):
    paper_id = _paper_id(pk)
    if paper_id is None or not Paper.objects.filter(pk=paper_id).exists():
        return error(f"No paper with id {pk[:40]!r}.", 404)
    raw = request.GET.get("limit", "20").strip()
    digits = raw.lstrip("0") if raw.isascii() and raw.isdigit() else ""
    if not digits or len(digits) > 3 or not 1 <= int(digits) <= MAX_SIMILAR:
        return error(f"limit must be a whole number from 1 to {MAX_SIMILAR}.", 400)
    similar = Paper.objects.similar_to(paper_id, int(digits))
    return JsonResponse(
        {
            "results": [
                {
                    "id": item.pk,
                    "external_id": item.external_id,
                    "title": item.title or None,
                    "display_title": item.display_title,
                    "score": item.score,
                    "shared_terms": item.shared_terms,
                }
                for item in similar
            ]
        }
    )
