"""The site's lists and indexes. Thin: papers/search.py and the QuerySet methods do the work;
a paper's own pages are papers/paper_views.py's.

Only GET and HEAD are answered (405 otherwise). Queries
per page (whatever it shows): the front page 3 (venues, newest ids, cards with their topics);
list/search 4 (facets and total in one statement, the venues for the facet's tree and the
filters' names, page ids, cards; +1 per topic or author filter the facets do not name); a query
of two to five words that could be a name +1 (the authors of that name) and, when some are
found, +1 for their papers (ranked first) and +1 for their place in each card's author list
(+1 on the first page where several share the name: what tells them apart); a ranked
query of one word, or particles and a word, +1 on its first page (the authors of that family
name), +1 when a few are found (their papers counted; +1 where several: what tells them
apart); an author filter
+2 (the author, their places; +1 where no author holds its address: whether it was joined
to another author); a topic filter +1 (whether a value is a topic's old slug,
papers/moved_filters.py); a
question +1 (whether it is a paper's title); a ranked query whose words all match fewer than a
page +1 where it was not matched in memory (papers matching some of them); a query matching
at most three papers +2 for did-you-mean and +1 for the respelling's facets (+1 where it
matched some: whether one names a word respelled), +1 under filters when nothing
at all is shown (whether papers outside them match), +1 for filter values the collection may
not know; a query that is an identifier 1 (then a redirect to the paper), one listing several
2 (their papers, and their cards); one with a year +1 (the
venues or year it names), +1 for the authors of the rest when it names one, +1 when some are
found (whether they have papers there: then a redirect to those); venue page 7 (page
object, chart, its other
volumes, and the list's 4; 3 for a conference whose papers are all in its other volumes),
topic page 6 (page object, chart — the same query gives the trend — and the list's 4); author
page 10 (author, namesakes, the name's other forms and its spacings, co-authors, the list's 4
and the author's place in each paper; +1 with namesakes: what tells them apart; +1 where the
name is spaced otherwise: their papers counted);
index pages 1; a reading list 1; /trends/ 2 + 1 per series (+2 at most for a term ten papers
or fewer say: its respelling).
With ``format=`` the list pages and the reading list answer a citation file instead
(papers/downloads.py), or, for a ranked query whose page shows another list, a redirect to
it (papers/narrowed.py ``listed_instead``: the query counted once; +3 at most for a
respelling, papers/respelled.py; +2 for its other words in a venue or year it names). With
the response cache on (papers/caching.py), the list, venue, topic and author pages read the
data version first (+1), and a repeated one is that query alone.
"""

from django.db import DatabaseError, connection
from django.db.models.functions import Lower
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import urlencode

from .author_queries import describe_people, namesakes_among, places_of
from .author_redirects import author_known_as, moved_author
from .caching import cache_page_by_version
from .citations import FORMATS, UNKNOWN_FORMAT
from .downloads import export_ids, export_paper, export_queryset, export_ranked
from .errors import RETRY_AFTER_SECONDS, bad_request_page
from .facet_display import facet_context
from .feeds import search_feed_url
from .filtering import PaperFilterSet
from .front_page import front_page
from .linked_addresses import LINKING_LIMIT
from .methods import lowercase_slug, read_only, with_query
from .models import Author, Paper, PaperTopic, Topic, TopicRedirect, Venue
from .moved_filters import filter_redirect
from .narrowed import listed_instead
from .reading_lists import BadList, list_papers, parse_ids
from .rendering import bar_chart, render_abstract
from .search import filtered_authors, search_page
from .text import CONTROL_CHARACTERS
from .trends import MAX_SERIES, comparison, term_boxes, topic_trend, venue_rows_with_totals
from .venue_series import incomplete_records, venue_and_volumes, venue_series


@read_only
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)


@read_only
def api_docs(request):
    """What the JSON API answers and takes (the footer's "JSON API")."""
    return render(request, "papers/api_docs.html")


@read_only
def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        response = JsonResponse({"status": "database unavailable"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return JsonResponse({"status": "ok"})


def _render_list(
    request,
    template: str,
    context: dict,
    fixed=None,
    name: str = "papers",
    search_feed=False,
    author=None,
):
    """The page with the list's search under ``fixed`` conditions, or a 400 saying why not;
    with ``format=``, the whole list as a citation file ``name``.ext instead. ``search_feed``:
    the page's feed is the search feed of what it lists; ``author``: the author whose page it
    is, named on each card where the card's first authors leave them out."""
    filterset = PaperFilterSet(request.GET, fixed=fixed)
    if not filterset.is_valid():
        return bad_request_page(request, *filterset.error_summary())
    # The author filter's author, read once: for the redirect of an address no author holds,
    # and for the cards' places.
    chosen = filtered_authors(filterset)
    moved = filter_redirect(request, filterset, author_held=bool(chosen))
    if moved is not None:
        return moved
    format_name = request.GET.get("format")
    if format_name is not None:
        if format_name not in FORMATS:
            return bad_request_page(request, UNKNOWN_FORMAT)
        if (instead := listed_instead(filterset, request.path, request.GET)) is not None:
            # The page lists the respelling's papers, or opens the query's other words in the
            # venue or year it names: its export is theirs.
            return redirect(instead)
        return _export(format_name, filterset, name)
    if filterset.authored_in is not None:
        return redirect(filterset.authored_in)
    results = search_page(filterset, request)
    if (identified := results.identified) is not None:
        # A paper by its stable address, the one its page names canonical (a reader copies
        # it from the address bar; the serial id depends on the order of loads).
        paper = isinstance(identified, Paper)
        return redirect(identified.get_canonical_url() if paper else identified)
    if results.narrowed is not None:
        return redirect(results.narrowed)
    named = [author] if author is not None else results.named_authors or chosen
    if named:
        _place_authors(named, results.papers + results.partial)
    if len(results.authors) > 1:
        describe_people(results.authors)
    listed = _listed_params(request, results)
    context = {
        **context,
        **facet_context(filterset, results.facets),
        "filter": filterset,
        "results": results,
        "list_params": listed,
    }
    if search_feed:
        context["feed_url"] = search_feed_url(listed)
    return render(request, template, context)


def _place_authors(authors: list[Author], cards: list) -> None:
    """Give each card one of the authors wrote ``page_author``: (that author, their position,
    the number of authors)."""
    places = places_of([a.pk for a in authors], [card.pk for card in cards]) if cards else {}
    by_id = {a.pk: a for a in authors}
    for card in cards:
        if card.pk in places:
            author_id, position, total = places[card.pk]
            card.page_author = (by_id[author_id], position, total)


def _listed_params(request, results):
    """The list's parameters, the query respelled when the page shows the respelling's papers:
    its exports and its search feed ask for what it lists."""
    params = request.GET.copy()
    if results.corrected_query:
        params["q"] = results.corrected_query
    return params


def _export(format_name: str, filterset: PaperFilterSet, name: str):
    """The list's citation file: the papers the page lists, or the page it opens."""
    if (paper := filterset.identified) is not None:
        # The page opens the paper the query names: its export is that paper.
        return export_paper(format_name, paper, name)
    if (page := filterset.addressed_page) is not None:
        # The page opens the author's, venue's or topic's: its export is theirs.
        return redirect(f"{page.get_absolute_url()}?{urlencode({'format': format_name})}")
    if (authored := filterset.authored_in) is not None:
        # The page opens the author's papers of the year or venue: its export is theirs.
        return redirect(f"{authored}&{urlencode({'format': format_name})}")
    if filterset.linking:
        # The page lists the papers giving the address the query is: its export is theirs.
        return export_ids(format_name, *_linked(filterset), name)
    if filterset.address_notice is not None:
        return export_ids(format_name, [], set(), name)  # the page lists none
    if filterset.text and filterset.ordering == "relevance":
        return export_ranked(format_name, filterset, name)
    return export_queryset(format_name, filterset.qs, name)


def _linked(filterset) -> tuple[list[int], set[int]]:
    """The papers the list shows for an address papers give (papers/unsearched.py), and the
    untitled among them."""
    ids = filterset.linking[:LINKING_LIMIT]
    titles = dict(Paper.objects.filter(pk__in=ids).values_list("pk", "title"))
    return ids, {pk for pk in ids if not titles.get(pk)}


@read_only
@cache_page_by_version
def paper_list(request):
    """The list, or without any parameter the front page (a search box, the venues, the
    newest complete records)."""
    if not request.GET:
        context = {**front_page(), "feed_url": search_feed_url(request.GET)}
        return render(request, "papers/front_page.html", context)
    return _render_list(request, "papers/paper_list.html", {}, search_feed=True)


@read_only
def venue_index(request):
    return render(request, "papers/venue_index.html", {"series": venue_series()})


@read_only
@lowercase_slug
@cache_page_by_version
def venue_detail(request, slug):
    venue = get_object_or_404(Venue, slug=slug)
    # Each bar opens the papers it counts: this venue's on that topic.
    here = reverse("venue-detail", args=[venue.slug])
    chart = bar_chart(
        [
            (row["topic__name"], row["n"], f"{here}?{urlencode({'topic': row['topic__slug']})}")
            for row in Paper.objects.filter(venue=venue).topic_counts()
        ],
        f"Papers per topic at {venue.name}",
    )
    own_papers, volumes = venue_and_volumes(venue)
    context = {
        "venue": venue,
        "records": own_papers,
        "incomplete": incomplete_records(venue) if own_papers else 0,
        "welcome_html": render_abstract(venue.welcome_text),
        "chart": chart,
        "volumes": volumes,
        # A conference known only as its volumes' parent: its page points to them.
        "elsewhere": [] if own_papers else [v for v in volumes if v.paper_count],
        "feed_url": reverse("feed-venue", args=[venue.slug]),
    }
    if context["elsewhere"] and "format" not in request.GET:
        # No list to show: the papers are in its volumes, which the page links.
        return render(request, "papers/venue_detail.html", context)
    return _render_list(
        request,
        "papers/venue_detail.html",
        context,
        fixed={"venue": [venue.slug]},
        name=venue.slug,
    )


@read_only
def topic_index(request):
    return render(request, "papers/topic_index.html", {"topics": Topic.objects.index()})


@read_only
@lowercase_slug
@cache_page_by_version
def topic_detail(request, slug):
    topic = Topic.objects.filter(slug=slug).first()
    if topic is None:
        moved = TopicRedirect.objects.select_related("topic").filter(old_slug=slug).first()
        if moved is None:
            raise Http404("No such topic.")
        return redirect(with_query(request, moved.topic.get_absolute_url()), permanent=True)
    linked = PaperTopic.objects.filter(topic=topic).values("paper_id")
    rows = list(venue_rows_with_totals(linked))
    # The venues with the most papers first: the chart shows the top ones, the rest behind.
    # Each bar opens the papers it counts: this topic's at that venue.
    here = reverse("topic-detail", args=[topic.slug])
    chart = bar_chart(
        [
            (row["venue__name"], row["n"], f"{here}?{urlencode({'venue': row['venue__slug']})}")
            for row in sorted(rows, key=lambda row: -row["n"])
        ],
        f"Papers per venue on {topic.name}",
    )
    context = {
        "topic": topic,
        "chart": chart,
        **topic_trend(topic, rows),
        "feed_url": reverse("feed-topic", args=[topic.slug]),
    }
    return _render_list(
        request,
        "papers/topic_detail.html",
        context,
        fixed={"topic": [topic.slug]},
        name=f"topic-{topic.slug}",
    )


@read_only
@lowercase_slug
@cache_page_by_version
def author_detail(request, slug):
    author = Author.objects.filter(slug=slug).first()
    if author is None:
        # An author joined to another (a merge, a name written without its umlauts): its
        # address leads there.
        joined = moved_author(slug)
        # A name the author also goes by leads to them, for now (it may become an address).
        known_as = author_known_as(slug) if joined is None else None
        if joined is None and known_as is None:
            raise Http404("No author at this address.")
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        return redirect((joined or known_as).get_absolute_url() + query, permanent=bool(joined))
    namesakes = list(Author.objects.namesakes_of(author))
    other_forms = Author.objects.other_forms_of(author)
    describe_people(namesakes + other_forms)
    coauthors = Author.objects.coauthors_of(author)
    describe_people(namesakes_among(coauthors))
    context = {
        "author": author,
        "namesakes": namesakes,
        "other_forms": other_forms,
        "coauthors": coauthors,
        "feed_url": reverse("feed-author", args=[author.slug]),
    }
    return _render_list(
        request,
        "papers/author_detail.html",
        context,
        fixed={"author": [author.slug]},
        name=author.slug,
        author=author,
    )


@read_only
def reading_list(request):
    """A list from its URL (``?ids=3,1,2``; ``ids`` repeated: one list), in its order;
    ``format=`` exports it."""
    try:
        ids, unreadable = parse_ids(",".join(request.GET.getlist("ids")))
    except BadList as error:
        return bad_request_page(request, str(error))
    papers, unknown = list_papers(ids)
    unknown += unreadable
    untitled = {paper.pk for paper in papers if not paper.has_title}
    format_name = request.GET.get("format")
    if format_name is not None:
        if format_name not in FORMATS:
            return bad_request_page(request, UNKNOWN_FORMAT)
        return export_ids(format_name, [paper.pk for paper in papers], untitled, "reading-list")
    found = ",".join(str(paper.pk) for paper in papers)
    context = {
        "papers": papers,
        # The export's own count: it leaves out the papers without a title.
        "exported": len(papers) - len(untitled),
        "untitled": len(untitled),
        "missing": unknown,
        "ids": found,
        "share_url": request.build_absolute_uri(f"{reverse('reading-list')}?ids={found}"),
    }
    return render(request, "papers/reading_list.html", context)


@read_only
def trends(request):
    """Up to five topics or search terms compared: their share of each year's papers."""
    topic_slugs, terms = (
        [CONTROL_CHARACTERS.sub(" ", value) for value in request.GET.getlist(name)]
        for name in ("topic", "q")
    )
    context = {
        **comparison(topic_slugs, terms),
        "topics": Topic.objects.order_by(Lower("name")),
        "chosen_topics": topic_slugs[:MAX_SERIES],
        "term_boxes": term_boxes(topic_slugs, terms),
    }
    return render(request, "papers/trends.html", context)
