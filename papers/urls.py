from django.urls import path, register_converter
from django.urls.converters import SlugConverter

from . import api, api_index, feeds, paper_views, views
from .anthology_metadata import ANTHOLOGY_ID
from .methods import lowercase_slug, read_only
from .slugs import is_slug


class UnicodeSlugConverter(SlugConverter):
    """Slugs in any script, their marks too ("王小明", "иван-петров", "हिन्दी-शर्मा"): Django's
    <slug:> takes ASCII only, and no class of Python's regular expressions holds the marks. The
    route takes any letter beyond ASCII; papers/slugs.py says which make a slug."""

    regex = r"(?:[-\w]|[^\x00-\x7f\s])+"

    def to_python(self, value):
        if not is_slug(value):
            raise ValueError(value)  # the address is no page's
        return value

    def to_url(self, value):
        if not is_slug(str(value)):
            raise ValueError(value)  # no page has this address
        return str(value)


class AnthologyIdConverter:
    # Any case, a version too ("2023.acl-long.1v2"): the view redirects to the ID as stored.
    regex = f"(?i:{ANTHOLOGY_ID}(?:v[0-9]+)?)"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(UnicodeSlugConverter, "uslug")
register_converter(AnthologyIdConverter, "anthology")

urlpatterns = [
    path("", views.paper_list, name="paper-list"),
    path("healthz", views.healthz),
    path("favicon.ico", views.favicon),
    path("papers/<int:pk>/", paper_views.paper_detail, name="paper-detail"),
    path("papers/<int:pk>-<slug:slug>/", paper_views.paper_detail),
    path("papers/<int:pk>/similar/", paper_views.paper_similar, name="paper-similar"),
    path("papers/<int:pk>/<slug:slug>/", paper_views.paper_detail),
    path(
        "papers/<anthology:anthology_id>/",
        paper_views.paper_by_anthology_id,
        name="paper-by-anthology-id",
    ),
    path("papers/<anthology:anthology_id>/similar/", paper_views.similar_by_anthology_id),
    path("similar/", paper_views.similar_text, name="similar-text"),
    path("venues/", views.venue_index, name="venue-list"),
    path("venues/<uslug:slug>/", views.venue_detail, name="venue-detail"),
    path("topics/", views.topic_index, name="topic-list"),
    path("topics/<uslug:slug>/", views.topic_detail, name="topic-detail"),
    path("authors/<uslug:slug>/", views.author_detail, name="author-detail"),
    path("list/", views.reading_list, name="reading-list"),
    path("trends/", views.trends, name="trends"),
    path(
        "feeds/venues/<uslug:slug>/",
        read_only(lowercase_slug(feeds.VenueFeed())),
        name="feed-venue",
    ),
    path(
        "feeds/topics/<uslug:slug>/",
        read_only(lowercase_slug(feeds.TopicFeed())),
        name="feed-topic",
    ),
    path(
        "feeds/authors/<uslug:slug>/",
        read_only(lowercase_slug(feeds.AuthorFeed())),
        name="feed-author",
    ),
    path("feeds/search/", read_only(feeds.SearchFeed()), name="feed-search"),
    path("api/", views.api_docs, name="api-docs"),
    path("api/similar/", api.similar_text, name="api-similar-text"),
    path("api/venues/", api_index.venue_index, name="api-venue-index"),
    path("api/topics/", api_index.topic_index, name="api-topic-index"),
    path("api/papers/", api.paper_list, name="api-paper-list"),
    path("api/papers/<str:pk>/", api.paper_detail),
    path("api/papers/<str:pk>/similar/", api.paper_similar),
]
