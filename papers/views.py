"""The site's pages. Thin: the FilterSet and the QuerySet methods do the work.

Queries per page (whatever it shows): list/search 4 (facets and total in one statement, page
ids, cards, topics), or at most 4 when a search finds nothing (facets, closest titles,
did-you-mean ≤ 2); paper page 5 (paper, topics, authors, similar ids, similar papers; +1 with
related titles); similar page 4; venue and topic pages 6 (page object, chart, and the list's 4);
author page 6; index pages 1.
"""

from django.db import DatabaseError, connection
from django.db.models import Count, Prefetch, Q
from django.db.models.functions import Lower
from django.http import Http404, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse

from .errors import RETRY_AFTER_SECONDS
from .filters import PaperFilter, parse_page
from .models import Author, Authorship, Paper, PaperTopic, Topic, TopicRedirect, Venue
from .rendering import bar_chart, bibtex, render_abstract

SIMILAR_ON_PAPER = 5
SIMILAR_PAGE = 20


def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        response = JsonResponse({"status": "database unavailable"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return JsonResponse({"status": "ok"})


def bad_request(request, message: str, errors=None):
    html = render_to_string(
        "papers/bad_request.html", {"message": message, "errors": errors or {}}, request
    )
    return HttpResponseBadRequest(html)


def _search(request, fixed=None):
    """(filterset, results) for the list's parameters, or (None, 400 response)."""
    filterset = PaperFilter(request.GET, fixed=fixed)
    try:
        page = parse_page(request.GET.get("page"))
    except ValueError as error:
        return None, bad_request(request, str(error))
    if not filterset.is_valid():
        return None, bad_request(
            request, "Some of the search parameters are not valid.", filterset.errors
        )
    return filterset, filterset.results(page)


def paper_list(request):
    filterset, results = _search(request)
    if filterset is None:
        return results
    return render(request, "papers/paper_list.html", {"filter": filterset, "results": results})


def _author_names(paper):
    return [authorship.author.name for authorship in paper.authorships.all()]


def paper_detail(request, pk, slug=None):
    paper = get_object_or_404(
        Paper.objects.select_related("venue").prefetch_related(
            "topics", Prefetch("authorships", Authorship.objects.select_related("author"))
        ),
        pk=pk,
    )
    authors = [authorship.author for authorship in paper.authorships.all()]
    related = []
    if paper.related_titles:
        lowered = [title.lower() for title in paper.related_titles]
        known = {
            row["lowered"]: row["pk"]
            for row in Paper.objects.annotate(lowered=Lower("title"))
            .filter(lowered__in=lowered)
            .values("pk", "lowered")
        }
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


def paper_similar(request, pk):
    paper = get_object_or_404(Paper.objects.select_related("venue"), pk=pk)
    similar = Paper.objects.similar_to(paper, SIMILAR_PAGE)
    topics = {paper_id: [] for paper_id in [item.pk for item in similar]}
    for link in (
        PaperTopic.objects.filter(paper__in=list(topics))
        .select_related("topic")
        .order_by("topic__name")
    ):
        topics[link.paper_id].append(link.topic)
    for item in similar:
        item.topic_list = topics[item.pk]
    return render(request, "papers/paper_similar.html", {"paper": paper, "similar": similar})


def venue_index(request):
    venues = Venue.objects.annotate(paper_count=Count("papers")).order_by("-year", "name")
    return render(request, "papers/venue_index.html", {"venues": venues})


def venue_detail(request, slug):
    venue = get_object_or_404(Venue, slug=slug)
    filterset, results = _search(request, fixed={"venue": Q(venue=venue)})
    if filterset is None:
        return results
    per_topic = (
        PaperTopic.objects.filter(paper__venue=venue)
        .values("topic__slug", "topic__name")
        .annotate(n=Count("pk"))
        .order_by("-n", "topic__name")[:30]
    )
    chart = bar_chart(
        [
            (row["topic__name"], row["n"], reverse("topic-detail", args=[row["topic__slug"]]))
            for row in per_topic
        ],
        f"Papers per topic at {venue.name}",
    )
    context = {
        "venue": venue,
        "welcome_html": render_abstract(venue.welcome_text),
        "chart": chart,
        "filter": filterset,
        "results": results,
    }
    return render(request, "papers/venue_detail.html", context)


def topic_index(request):
    topics = Topic.objects.annotate(paper_count=Count("paper_links")).order_by("name")
    return render(request, "papers/topic_index.html", {"topics": topics})


def topic_detail(request, slug):
    topic = Topic.objects.filter(slug=slug).first()
    if topic is None:
        moved = TopicRedirect.objects.select_related("topic").filter(old_slug=slug).first()
        if moved is None:
            raise Http404("No such topic.")
        return redirect(moved.topic, permanent=True)
    linked = PaperTopic.objects.filter(topic=topic).values("paper_id")
    filterset, results = _search(request, fixed={"topic": Q(pk__in=linked)})
    if filterset is None:
        return results
    per_venue = (
        Paper.objects.filter(pk__in=linked)
        .values("venue__slug", "venue__name", "venue__year")
        .annotate(n=Count("pk"))
        .order_by("-venue__year", "venue__name")
    )
    chart = bar_chart(
        [
            (row["venue__name"], row["n"], reverse("venue-detail", args=[row["venue__slug"]]))
            for row in per_venue
        ],
        f"Papers per venue on {topic.name}",
    )
    context = {"topic": topic, "chart": chart, "filter": filterset, "results": results}
    return render(request, "papers/topic_detail.html", context)


def author_detail(request, slug):
    author = get_object_or_404(Author, slug=slug)
    authored = Authorship.objects.filter(author=author).values("paper_id")
    filterset, results = _search(request, fixed={"author": Q(pk__in=authored)})
    if filterset is None:
        return results
    coauthors = (
        Author.objects.filter(authorships__paper__in=authored)
        .exclude(pk=author.pk)
        .annotate(shared=Count("authorships"))
        .order_by("-shared", "name")[:30]
    )
    context = {"author": author, "coauthors": coauthors, "filter": filterset, "results": results}
    return render(request, "papers/author_detail.html", context)
