"""The site's pages. Thin: papers/search.py and the QuerySet methods do the work.

Only GET and HEAD are answered (405 otherwise). Queries per page (whatever it shows):
list/search 4 (facets and total in one statement, page ids, cards, topics), or at most 4 when
a search finds nothing (facets, closest titles, did-you-mean ≤ 2); paper page 5 (paper,
topics, authors, similar ids, similar papers; +1 with related titles); similar page 4; venue
and topic pages 6 (page object, chart, and the list's 4); author page 6; index pages 1.
"""

from django.db import DatabaseError, connection
from django.db.models import Count, Q
from django.http import Http404, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from .errors import RETRY_AFTER_SECONDS
from .models import Author, Authorship, Paper, PaperTopic, Topic, TopicRedirect, Venue
from .rendering import bar_chart, bibtex, render_abstract
from .search import PaperFilterSet, search_page

SIMILAR_ON_PAPER = 5
SIMILAR_PAGE = 20


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)


@require_safe
def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        response = JsonResponse({"status": "database unavailable"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return JsonResponse({"status": "ok"})


def _render_list(request, template: str, context: dict, fixed=None):
    """The page with the list's search under ``fixed`` conditions, or a 400 saying why not."""
    filterset = PaperFilterSet(request.GET, fixed=fixed)
    if not filterset.is_valid():
        message, errors = filterset.error_summary()
        html = render_to_string(
            "papers/bad_request.html", {"message": message, "errors": errors}, request
        )
        return HttpResponseBadRequest(html)
    context = {**context, "filter": filterset, "results": search_page(filterset)}
    return render(request, template, context)


@require_safe
def paper_list(request):
    return _render_list(request, "papers/paper_list.html", {})


@require_safe
def paper_detail(request, pk, slug=None):
    paper = get_object_or_404(Paper.objects.with_related(), pk=pk)
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
        "bibtex": bibtex(paper, [author.name for author in authors]),
        "canonical": request.build_absolute_uri(paper.get_absolute_url()),
    }
    return render(request, "papers/paper_detail.html", context)


@require_safe
def paper_similar(request, pk):
    paper = get_object_or_404(Paper.objects.select_related("venue"), pk=pk)
    similar = Paper.objects.similar_to(paper, SIMILAR_PAGE)
    topics = Paper.objects.topics_by_paper([item.pk for item in similar])
    for item in similar:
        item.topic_list = topics[item.pk]
    return render(request, "papers/paper_similar.html", {"paper": paper, "similar": similar})


@require_safe
def venue_index(request):
    venues = Venue.objects.annotate(paper_count=Count("papers")).order_by("-year", "name")
    return render(request, "papers/venue_index.html", {"venues": venues})


@require_safe
def venue_detail(request, slug):
    venue = get_object_or_404(Venue, slug=slug)
    chart = bar_chart(
        [
            (row["topic__name"], row["n"], reverse("topic-detail", args=[row["topic__slug"]]))
            for row in Paper.objects.filter(venue=venue).topic_counts()
        ],
        f"Papers per topic at {venue.name}",
    )
    context = {"venue": venue, "welcome_html": render_abstract(venue.welcome_text), "chart": chart}
    return _render_list(
        request, "papers/venue_detail.html", context, fixed={"venue": Q(venue=venue)}
    )


@require_safe
def topic_index(request):
    topics = Topic.objects.annotate(paper_count=Count("paper_links")).order_by("name")
    return render(request, "papers/topic_index.html", {"topics": topics})


@require_safe
def topic_detail(request, slug):
    topic = Topic.objects.filter(slug=slug).first()
    if topic is None:
        moved = TopicRedirect.objects.select_related("topic").filter(old_slug=slug).first()
        if moved is None:
            raise Http404("No such topic.")
        return redirect(moved.topic, permanent=True)
    linked = PaperTopic.objects.filter(topic=topic).values("paper_id")
    chart = bar_chart(
        [
            (row["venue__name"], row["n"], reverse("venue-detail", args=[row["venue__slug"]]))
            for row in Paper.objects.filter(pk__in=linked).venue_counts()
        ],
        f"Papers per venue on {topic.name}",
    )
    return _render_list(
        request,
        "papers/topic_detail.html",
        {"topic": topic, "chart": chart},
        fixed={"topic": Q(pk__in=linked)},
    )


@require_safe
def author_detail(request, slug):
    author = get_object_or_404(Author, slug=slug)
    authored = Authorship.objects.filter(author=author).values("paper_id")
    context = {"author": author, "coauthors": Author.objects.coauthors_of(author)}
    return _render_list(
        request, "papers/author_detail.html", context, fixed={"author": Q(pk__in=authored)}
    )
