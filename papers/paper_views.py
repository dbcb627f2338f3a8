"""A paper's own pages: its page (under its id or its Anthology ID), its similar papers, and
the papers like a text a reader gives. Thin, as papers/views.py: the QuerySet methods and
papers/similar_text.py do the work. A merged-away paper's addresses redirect to the paper it
went into (papers/merged_keys.py). Only GET and HEAD are answered, but for the "papers like
this text" page, which takes its text by POST (a text of up to 10,000 characters does not fit
a URL). Queries: paper page 5 (paper, topics, authors, similar ids, similar papers; +1 with
related titles); similar page 4.
"""

from functools import partial

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods

from .anthology_metadata import ANTHOLOGY_URL, unversioned_anthology_id
from .citation_fields import author_name
from .citations import FORMATS, UNKNOWN_FORMAT, page_citations
from .downloads import export_paper
from .errors import bad_request_page
from .merged_keys import EXTERNAL_ID, PAPER, survivor_of
from .methods import read_only, with_query
from .models import Paper
from .querysets import CARD_FIELDS
from .rendering import render_abstract
from .similar import method
from .similar_text import SORTS, SimilarTextForm, newest_first, papers_like_text

SIMILAR_ON_PAPER = 5
SIMILAR_PAGE = 20


def _paper_page(request, paper):
    if (format_name := request.GET.get("format")) is not None:
        return _paper_export(request, paper, format_name)
    authors = [authorship.author for authorship in paper.authorships.all()]
    related = []
    if paper.related_titles:
        known = Paper.objects.ids_by_title(paper.related_titles)
        related = [(title, known.get(title.lower())) for title in paper.related_titles]
    context = {
        "paper": paper,
        "authors": authors,
        "abstract_html": render_abstract(paper.abstract),
        "related": related,
        "similar": Paper.objects.similar_to(paper, SIMILAR_ON_PAPER),
        "canonical": request.build_absolute_uri(paper.get_canonical_url()),
        **page_citations(paper, [author_name(author) for author in authors]),
    }
    return render(request, "papers/paper_detail.html", context)


def _paper_export(request, paper, format_name: str):
    """The paper's citation file, as its page's Download links give it, for ``?format=`` on
    its address as on a list's (the page answered "/papers/15833/?format=bibtex" with itself,
    an outside researcher); any other format is a 400, as there."""
    if format_name not in FORMATS:
        return bad_request_page(request, UNKNOWN_FORMAT)
    return export_paper(format_name, paper, paper.external_id or f"paper-{paper.pk}")


@read_only
def paper_detail(request, pk, slug=None):
    paper = Paper.objects.with_related().filter(pk=pk).first()
    if paper is None:
        return _to_survivor(request, PAPER, str(pk), "paper-detail")
    return _paper_page(request, paper)


def _to_survivor(request, kind: str, key: str, view: str, missing=None):
    """A merged-away paper's address (its id or Anthology ID, ``kind``) redirects to the same
    page of the paper it was merged into, with the same query; any other unknown paper is a
    404 (``missing()``'s, when given)."""
    survivor = survivor_of(kind, key)
    if survivor is None and missing is not None:
        return missing()
    if survivor is None:
        raise Http404("No such paper.")
    return redirect(with_query(request, reverse(view, args=[survivor])), permanent=True)


@read_only
def paper_by_anthology_id(request, anthology_id):
    """/papers/<Anthology ID>/: the paper's page under its stable name (the same page, the same
    canonical link, as /papers/<id>/); another spelling of the ID, or a version's ("…1v2"),
    redirects to it."""
    canonical = unversioned_anthology_id(anthology_id)
    if canonical != anthology_id:
        return redirect("paper-by-anthology-id", canonical, permanent=True)
    paper = Paper.objects.with_related().filter(external_id=anthology_id).first()
    if paper is not None:
        return _paper_page(request, paper)
    # The paper may be on the Anthology: a bare "not found" left the reader nowhere, where the
    # same ID searched links it (an outside researcher).
    context = {"anthology_id": anthology_id, "anthology_url": ANTHOLOGY_URL + anthology_id}
    missing = partial(render, request, "404.html", context, status=404)
    return _to_survivor(request, EXTERNAL_ID, anthology_id, "paper-detail", missing)


@read_only
def similar_by_anthology_id(request, anthology_id):
    """/papers/<Anthology ID>/similar/: the similar papers' page of that paper, by its id (with
    the query string: the order chosen)."""
    canonical = unversioned_anthology_id(anthology_id)
    pk = Paper.objects.filter(external_id=canonical).values_list("pk", flat=True).first()
    if pk is None:
        return _to_survivor(request, EXTERNAL_ID, canonical, "paper-similar")
    return redirect(with_query(request, reverse("paper-similar", args=[pk])))


@read_only
def paper_similar(request, pk):
    paper = Paper.objects.select_related("venue").only(*CARD_FIELDS).filter(pk=pk).first()
    if paper is None:
        return _to_survivor(request, PAPER, str(pk), "paper-similar")
    sort = request.GET.get("sort", "similar")
    if sort not in SORTS:
        return bad_request_page(request, "sort must be similar or newest.")
    similar = Paper.objects.similar_to(paper, SIMILAR_PAGE)
    if sort == "newest":
        newest_first(similar)
    context = {"paper": paper, "similar": similar, "sort": sort, "sorts": SORTS, "method": method()}
    return render(request, "papers/paper_similar.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def similar_text(request):
    """The form (GET), or the papers most like the text posted, filtered and sorted; the same
    asked by GET with ``text`` (its results' own address, given beside them where it is short
    enough to share: a POST's results could be neither kept nor sent, an outside tester)."""
    asked = (
        request.POST if request.method == "POST" else request.GET if "text" in request.GET else None
    )
    form = SimilarTextForm(asked)
    context = {"form": form, "results": None, "no_model": False}
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        results = papers_like_text(
            data["text"], data["limit"], data["venue"], data["year"], data["sort"] or "similar"
        )
        context.update(results=results or [], no_model=results is None)
        address = f"{request.path}?{urlencode(_shared_fields(asked))}"
        context["results_url"] = address if len(address) <= SHARED_ADDRESS else None
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(request, "papers/similar_text.html", context, status=status)


# The longest results address offered to share: within what servers take in a request line
# (gunicorn: 4,094 bytes).
SHARED_ADDRESS = 2000


def _shared_fields(asked) -> list[tuple[str, str]]:
    """The form's fields as the results' address carries them (no CSRF token)."""
    return [
        (name, value) for name, value in asked.items() if name != "csrfmiddlewaretoken" and value
    ]
