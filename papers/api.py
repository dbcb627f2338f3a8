"""The JSON API: the list's search, one paper's record, its similar papers, papers like a text.
A paper is named by its id or by its Anthology ID, in any case (/api/papers/P19-1001/).

Only GET and HEAD are answered (405 otherwise), but for ``POST /api/similar/`` (papers like a
text; POST only, CSRF-exempt: it changes nothing and takes a JSON body). Errors are JSON too:
400 {"error", "details"} for bad parameters (validated by the list's own PaperFilterSet, or the
text form), 404 {"error"} for an unknown paper. ``snippet`` is HTML-safe: the abstract escaped,
its LaTeX rendered, the matched words in <mark>. ``title`` is the record's (LaTeX as written);
``display_title`` is what a reader sees, its LaTeX read as plain text ("\\inftyBench" →
"∞Bench"). Similar papers carry the list's fields plus ``authors``, ``score`` and
``explanation`` (the signals of the score with their weights).

The list answers as the list page ranks (papers/search.py): an identifier in q (Anthology ID,
DOI, Anthology URL) gives that paper as the only result; ``authors`` lists the authors a name
query names (their papers ranked first), or the few authors a one-word query's family name is
(offered only); an ``author=`` address joined to another author redirects (301) to the same
request for that author, and a q of an author's name and a venue or year (302) to q the name
under that filter, as the list page does; each of ``filters`` gives its ``url`` on the site and
its ``api_url`` here; ``corrected_query`` is the query whose results are given instead of q's: its
respelling when q itself matched nothing, or a few papers none of which names the word
respelled, or the subject of a question (``literal=1`` asks for
q as typed); ``suggestion`` is the respelling offered beside the results of a query that matched
few papers (the page's "Did you mean"), else null; ``notices`` say, as the list page does,
why a query found what it found (an exclusion that removed every match); results with
``"partial": true`` match some of the words only and follow the full matches when those are
fewer than a page.
"""

import json
from difflib import get_close_matches

from django.db.models import Prefetch, Q, prefetch_related_objects
from django.http import HttpResponsePermanentRedirect, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .anthology_metadata import canonical_anthology_id, is_anthology_id, unversioned_anthology_id
from .author_queries import describe_people
from .caching import cache_page_by_version
from .filtering import PaperFilterSet
from .latex import plain_text
from .merged_keys import EXTERNAL_ID, PAPER, survivor_of
from .methods import read_only, with_query
from .models import Authorship, Paper
from .moved_filters import filter_redirect
from .rendering import plain_snippet, render_snippet
from .search import search_page
from .serializers import paper_record
from .similar_text import SORTS as SIMILAR_SORTS
from .similar_text import SimilarTextForm, newest_first, papers_like_text

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
        # What tells namesakes apart, as the page's cards show it (describe_people).
        "years": author.active_years,
        "coauthor": author.partner,
    }


def _result(request, paper) -> dict:
    headline = paper.headline if hasattr(paper, "headline") else plain_snippet(paper.abstract)
    topics = sorted(paper.card_topics, key=lambda topic: topic.name)
    return {
        "id": paper.pk,
        "external_id": paper.external_id,
        "title": paper.title or None,
        "display_title": plain_text(paper.display_title),
        "venue": paper.venue.name,
        "venue_slug": paper.venue.slug,
        "year": paper.venue.year,
        "topics": [topic.name for topic in topics],
        "topic_slugs": [topic.slug for topic in topics],
        "country": paper.country,
        "url": request.build_absolute_uri(paper.get_absolute_url()),
        "snippet": str(render_snippet(headline)),
        "score": round(paper.score, 6) if paper.score is not None else None,
    }


EXPORTS_ON_PAGES = (
    "“format” is not a parameter of the API, which answers JSON: the same list's page gives "
    "its BibTeX, RIS and CSL-JSON (its address without /api/papers/, with format=bibtex)."
)


def unknown_parameters(names, known) -> list[str]:
    """A notice for each parameter name of ``names`` not among ``known``, naming the likeliest
    one meant: a script's typo ("venues=") got every paper without a word."""
    notices = []
    for name in dict.fromkeys(names):
        if name == "format" and name not in known:
            # "did you mean “sort”?" misled: the exports are the pages' (an outside researcher).
            notices.append(EXPORTS_ON_PAGES)
        elif name not in known:
            near = get_close_matches(name.lower(), sorted(known), n=1, cutoff=0.6)
            meant = f": did you mean “{near[0]}”?" if near else "."
            notices.append(f"“{name[:40]}” is not a parameter of this list, and is not used{meant}")
    return notices


@read_only
@cache_page_by_version
def paper_list(request):
    filterset = PaperFilterSet(request.GET, refuse_long_query=True)
    if not filterset.is_valid():
        message, details = filterset.error_summary()
        return error(message, 400, details)
    if (moved := filter_redirect(request, filterset)) is not None:
        return moved
    if (narrowed := filterset.authored_in) is not None:
        # As the list page: the author's papers in the venue or year q names.
        return HttpResponseRedirect(_api_address(narrowed))
    results = search_page(filterset, request)
    if results.narrowed is not None:
        # As the list page: the query's other words in the venue or year it names.
        return HttpResponseRedirect(_api_address(results.narrowed))
    results.notices += unknown_parameters(request.GET, filterset.form.fields)
    _with_authors(results.papers + results.partial)
    describe_people(results.authors)
    return JsonResponse(
        {
            "count": int(results.count),
            "page": results.page,
            "pages": results.pages,
            "next": _page_url(request, results.page + 1 if results.has_next else None),
            "previous": _page_url(request, results.page - 1 if results.has_previous else None),
            # The query whose results these are when the one sent was respelled.
            "corrected_query": results.corrected_query,
            # A respelling offered beside the results of a query matching few papers, as the
            # list page's "Did you mean".
            "suggestion": results.suggestion,
            "authors": [_author(request, author) for author in results.authors],
            # The venues or year the query's words name, with the rest of the query.
            "filters": [
                {
                    "label": named.label,
                    "query": named.rest,
                    "url": request.build_absolute_uri(named.url),
                    "api_url": request.build_absolute_uri(_api_address(named.url)),
                }
                for named in results.filters
            ],
            # Why a query found what it found (or nothing), as the list page says it.
            "notices": results.notices,
            # Full matches, then (first page, fewer than a page of them) partial ones.
            "results": [_listed(request, paper, partial=False) for paper in results.papers]
            + [_listed(request, paper, partial=True) for paper in results.partial],
        }
    )


def _api_address(page_address: str) -> str:
    """The API's address of a list page's ("/?q=…&year=2023", "/venues/acl-2023/")."""
    if "?" in page_address:
        return reverse("api-paper-list") + page_address[page_address.index("?") :]
    venue = page_address.rstrip("/").rsplit("/", 1)[-1]
    return f"{reverse('api-paper-list')}?venue={venue}"


def _naming(raw: str) -> Q | None:
    """The condition on papers of the paper a path names: its id, or its Anthology ID in any
    case, or a version's ("…463v2", as the page's address takes it); None when it is neither."""
    if is_anthology_id(unversioned := unversioned_anthology_id(raw)):
        return Q(external_id=unversioned)
    # Length first: int() refuses strings of over 4,300 digits (ValueError, a 500).
    digits = raw.lstrip("0") if raw.isascii() and raw.isdigit() else ""
    if not digits or len(digits) > len(str(MAX_ID)) or int(digits) > MAX_ID:
        return None
    return Q(pk=int(digits))


def _merged_or_404(request, pk: str, tail: str = ""):
    """A permanent redirect to the same address of the paper that ``pk`` (a merged-away
    paper's id or Anthology ID) went to; else the 404 of an unknown paper."""
    if is_anthology_id(pk):
        survivor = survivor_of(EXTERNAL_ID, canonical_anthology_id(pk))
    else:
        survivor = survivor_of(PAPER, pk.lstrip("0")) if pk.isascii() and pk.isdigit() else None
    if survivor is None:
        return error(f"No paper with id {pk[:40]!r}.", 404)
    address = f"{reverse('api-paper-list')}{survivor}/{tail}"
    return HttpResponsePermanentRedirect(with_query(request, address))


@read_only
def paper_detail(request, pk: str):
    naming = _naming(pk)
    paper = Paper.objects.with_related().filter(naming).first() if naming else None
    if paper is None:
        return _merged_or_404(request, pk)
    # The record (as export_papers writes it) and what a script citing the paper needs.
    cited = {
        "anthology_id": paper.anthology_id or None,
        "doi": paper.doi or None,
        "pages": paper.pages or None,
        "bibkey": paper.bibkey or None,
        "anthology_url": paper.anthology_url or None,
        "pdf_url": paper.pdf_url or None,
    }
    # The slugs the list's filters take, as the list's results give them (in the topics' order).
    topics = sorted(paper.topics.all(), key=lambda topic: topic.name)
    slugs = {"venue_slug": paper.venue.slug, "topic_slugs": [topic.slug for topic in topics]}
    return JsonResponse(paper_record(paper) | slugs | cited)


@read_only
def paper_similar(request, pk: str):
    naming = _naming(pk)
    paper_id = Paper.objects.filter(naming).values_list("pk", flat=True).first() if naming else None
    if paper_id is None:
        return _merged_or_404(request, pk, "similar/")
    raw = request.GET.get("limit", "20").strip()
    digits = raw.lstrip("0") if raw.isascii() and raw.isdigit() else ""
    if not digits or len(digits) > 3 or not 1 <= int(digits) <= MAX_SIMILAR:
        return error(f"limit must be a whole number from 1 to {MAX_SIMILAR}.", 400)
    sort = request.GET.get("sort", "similar")
    if sort not in SIMILAR_SORTS:
        return error("sort must be similar or newest.", 400)
    similar = Paper.objects.similar_to(paper_id, int(digits))
    if sort == "newest":  # as the page: the same papers, the newest first
        newest_first(similar)
    return JsonResponse({"results": _similar_results(request, similar)})


def _with_authors(papers: list) -> None:
    """Every author of each paper, in order, for ``_names`` (one statement): a card names the
    first few only."""
    prefetch_related_objects(
        papers, Prefetch("authorships", queryset=Authorship.objects.select_related("author"))
    )


def _names(paper) -> list[str]:
    return [authorship.author.name for authorship in paper.authorships.all()]


def _listed(request, paper, partial: bool) -> dict:
    return {**_result(request, paper), "authors": _names(paper), "partial": partial}


def _similar_results(request, papers) -> list[dict]:
    # Their topics came with their cards (similar_to, papers_like_text).
    _with_authors(papers)
    return [
        {
            **_result(request, paper),
            "authors": _names(paper),
            "explanation": paper.explanation,
            "shared_terms": [term["term"] for term in paper.explanation[0]["terms"]],
        }
        for paper in papers
    ]


@csrf_exempt
@require_POST
def similar_text(request):
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: arrays or objects nested a thousand deep (2 KB of brackets).
        body = None
    if not isinstance(body, dict):
        return error('The body must be a JSON object: {"text": "…", "limit": 20}.', 400)
    limit = body.get("limit", 20)
    if isinstance(limit, bool) or not isinstance(limit, int):
        return error(f"limit must be a whole number from 1 to {MAX_SIMILAR}.", 400)
    text = body.get("text", "")
    if not isinstance(text, str):
        return error('text must be a string: {"text": "…", "limit": 20}.', 400)
    # The page's choices (/similar/), as its form reads them: a venue's slug, a year, an order.
    choices = {name: body.get(name) for name in ("venue", "year", "sort")}
    if any(not isinstance(value, str | int | None) for value in choices.values()):
        return error("venue, year and sort are each a string (year a number).", 400)
    form = SimilarTextForm(
        {"text": text, "limit": limit}
        | {name: "" if value is None else str(value) for name, value in choices.items()}
    )
    if not form.is_valid():
        details = {
            name: [str(message) for message in errors] for name, errors in form.errors.items()
        }
        return error(
            "text must be 1 to 10,000 characters; limit 1 to 100; venue a venue's slug, year "
            "a year of the collection, sort similar or newest.",
            400,
            details,
        )
    data = form.cleaned_data
    found = papers_like_text(
        data["text"], data["limit"], data["venue"], data["year"], data["sort"] or "similar"
    )
    if found is None:
        return error("No similarity model has been fitted yet: load papers first.", 503)
    return JsonResponse({"results": _similar_results(request, found)})
