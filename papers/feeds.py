"""Atom feeds of a venue, a topic, an author or any search: the newest papers first.

Newest is the list's "Newest venue first": complete records first, venues by the date they
were held (a conference's volumes after its main one), each in proceedings order. A search feed
takes the list's own parameters (``/feeds/search/?q=kv+cache&venue=acl-2024``), validated by
the same PaperFilterSet, and answers 400 to what the list would refuse.
"""

from collections import defaultdict
from datetime import UTC, datetime, time
from urllib.parse import urlsplit

from django.contrib.syndication.views import Feed
from django.db.models import Prefetch, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape

from .author_redirects import moved_author
from .errors import bad_request_page
from .facet_display import all_venues, chip_labels
from .facets import Facets
from .filtering import PaperFilterSet
from .latex import plain_text
from .linked_addresses import LINKING_LIMIT
from .models import Author, Authorship, Paper, PaperTopic, Topic, Venue
from .moved_filters import filter_redirect
from .narrowed import listed_instead
from .rendering import plain_snippet, quoted
from .understanding import join_compounds

FEED_SIZE = 50
SITE_NAME = "Paper browser"


class PapersAtom(Atom1Feed):
    """Atom with an author element for each author of an entry, in order, as RFC 4287 has
    them (Django's feeds write one: a reader showed "Jianhui Pang, Fanghua Ye, …" as one
    person)."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        for name in item["authors"]:
            handler.startElement("author", {})
            handler.addQuickElement("name", name)
            handler.endElement("author")


class PaperFeed(Feed):
    """The shared part: entries are papers; subclasses say which papers and what to call them."""

    feed_type = PapersAtom
    author_name = SITE_NAME

    def papers(self, obj):
        raise NotImplementedError

    def items(self, obj):
        newest = self.papers(obj).select_related("venue")
        # Each entry's authors in order: one more query for the feed's fifty entries.
        ordered = Authorship.objects.select_related("author").order_by("position")
        newest = newest.prefetch_related(Prefetch("authorships", ordered))
        return newest.in_order("newest")[:FEED_SIZE]

    def item_extra_kwargs(self, paper):
        return {"authors": [authorship.author.name for authorship in paper.authorships.all()]}

    def item_title(self, paper):
        if paper.has_title:
            return plain_text(paper.title)
        return f"[untitled] {plain_text(paper.display_title)}"

    def item_description(self, paper):
        """HTML, as Atom's summary is declared (type="html"): the text escaped, so a reader
        shows an abstract's "<post, reply>" as written, not as a tag."""
        return escape(f"{paper.venue.name}. {plain_snippet(paper.abstract, 80)}")

    def item_link(self, paper):
        """The paper's stable address, its entry's id too: a serial id depends on the order of
        loads, so a database loaded again showed a reader every paper as new."""
        return paper.get_canonical_url()

    def item_pubdate(self, paper):
        """When the paper was published, as far as its venue says (the day it was held, else
        the first of its month or year); else when this site first had it. A feed reader
        showed a 2020 paper as published the day it was loaded."""
        if paper.venue.held_on is not None:
            held = datetime.combine(paper.venue.held_on, time.min, tzinfo=UTC)
            # Never after the entry's last change: proceedings loaded before the conference.
            return min(held, paper.updated)
        return paper.first_loaded or paper.created

    def item_updateddate(self, paper):
        return paper.updated


class VenueFeed(PaperFeed):
    def get_object(self, request, slug):
        return get_object_or_404(Venue, slug=slug)

    def papers(self, venue):
        return Paper.objects.filter(venue=venue)

    def title(self, venue):
        return f"New papers at {venue.name} · {SITE_NAME}"

    def link(self, venue):
        return venue.get_absolute_url()


class TopicFeed(PaperFeed):
    def get_object(self, request, slug):
        topic = Topic.objects.filter(Q(slug=slug) | Q(redirects__old_slug=slug)).first()
        if topic is None:
            raise Topic.DoesNotExist
        return topic

    def papers(self, topic):
        return Paper.objects.filter(
            pk__in=PaperTopic.objects.filter(topic=topic).values("paper_id")
        )

    def title(self, topic):
        return f"New papers on {topic.name} · {SITE_NAME}"

    def link(self, topic):
        return topic.get_absolute_url()


class AuthorFeed(PaperFeed):
    def __call__(self, request, *args, **kwargs):
        # The feed of an author joined to another is that author's (its page redirects too);
        # looked up only where no author holds the address.
        try:
            return super().__call__(request, *args, **kwargs)
        except Http404:
            joined = moved_author(kwargs["slug"])
            if joined is None:
                raise
            return redirect("feed-author", joined.slug, permanent=True)

    def get_object(self, request, slug):
        return get_object_or_404(Author, slug=slug)

    def papers(self, author):
        return Paper.objects.filter(
            pk__in=Authorship.objects.filter(author=author).values("paper_id")
        )

    def title(self, author):
        return f"New papers by {author.name} · {SITE_NAME}"

    def link(self, author):
        return author.get_absolute_url()


# The feed of the page a query addresses (PaperFilterSet.addressed_page).
_PAGE_FEEDS = {Author: "feed-author", Venue: "feed-venue", Topic: "feed-topic"}


class SearchFeed(PaperFeed):
    """The list's search, filters and all, newest first whatever its sort."""

    def __call__(self, request, *args, **kwargs):
        # An author filter naming an author joined to another: that author's feed; a query
        # addressing an author's, venue's or topic's page (the Anthology's or ours): its feed;
        # one opening an author's papers of a year or venue: theirs; a misspelt one shown
        # respelled: the respelling's; one opening its words in a venue it names: theirs.
        filterset = PaperFilterSet(request.GET)
        if not filterset.is_valid():
            # Answered here: raised, BadRequest wrote a traceback to the log for a mistyped
            # address (an outside tester).
            return bad_request_page(request, *filterset.error_summary())
        moved = filter_redirect(request, filterset)
        if moved is None and (page := filterset.addressed_page) is not None:
            moved = redirect(reverse(_PAGE_FEEDS[type(page)], args=[page.slug]))
        if moved is None and (authored := filterset.authored_in) is not None:
            moved = redirect(reverse("feed-search") + "?" + urlsplit(authored).query)
        if moved is None and (instead := listed_instead(filterset, request.path, request.GET)):
            moved = redirect(instead)
        return moved if moved is not None else super().__call__(request, *args, **kwargs)

    def get_object(self, request):
        filterset = PaperFilterSet(request.GET)
        filterset.is_valid()  # it is: ``__call__`` answered any other with a 400
        filterset.query_string = _feed_query(request.GET)
        return filterset

    def papers(self, filterset):
        if (paper := filterset.identified) is not None:
            return Paper.objects.filter(pk=paper.pk)  # the paper the query names, as the page
        if filterset.linking:
            return Paper.objects.filter(pk__in=filterset.linking[:LINKING_LIMIT])  # as the page
        if filterset.address_notice is not None:
            return Paper.objects.none()  # an address naming nothing here: the page lists none
        papers = Paper.objects.filter(*filterset.conditions().values())
        return papers.matching(join_compounds(filterset.searched)[0]) if filterset.text else papers

    def title(self, filterset):
        words = [quoted(filterset.searched)] if filterset.text else []
        # The filters named as the list's chips name them ("Ivan Vulić", not ivan-vulic).
        named = defaultdict(list)
        for name, _value, label in chip_labels(filterset.active(), Facets(), all_venues()):
            named[name].append(label)
        for name, labels in named.items():
            words.append(f"{name} {' or '.join(labels)}")
        described = ", ".join(words) or "all papers"
        return f"New papers: {described} · {SITE_NAME}"

    def link(self, filterset):
        return reverse("paper-list") + filterset.query_string

    def feed_url(self, filterset):
        return reverse("feed-search") + filterset.query_string


def _feed_query(query) -> str:
    """The list's parameters that choose papers (not the page, sort or export format)."""
    query = query.copy()
    for name in ("page", "sort", "format"):
        query.pop(name, None)
    encoded = query.urlencode()
    return "?" + encoded if encoded else ""


def search_feed_url(query) -> str:
    """The search feed of the list with these parameters."""
    return reverse("feed-search") + _feed_query(query)
