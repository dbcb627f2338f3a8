from django.urls import path, register_converter
from django.urls.converters import SlugConverter

from . import api, views


class UnicodeSlugConverter(SlugConverter):
    """Slugs in any script ("王小明", "иван-петров"): Django's <slug:> takes ASCII only."""

    regex = r"[-\w]+"


register_converter(UnicodeSlugConverter, "uslug")

urlpatterns = [
    path("", views.paper_list, name="paper-list"),
    path("healthz", views.healthz),
    path("favicon.ico", views.favicon),
    path("papers/<int:pk>/", views.paper_detail, name="paper-detail"),
    path("papers/<int:pk>-<slug:slug>/", views.paper_detail),
    path("papers/<int:pk>/similar/", views.paper_similar, name="paper-similar"),
    path("papers/<int:pk>/<slug:slug>/", views.paper_detail),
    path("venues/", views.venue_index, name="venue-list"),
    path("venues/<uslug:slug>/", views.venue_detail, name="venue-detail"),
    path("topics/", views.topic_index, name="topic-list"),
    path("topics/<uslug:slug>/", views.topic_detail, name="topic-detail"),
    path("authors/<uslug:slug>/", views.author_detail, name="author-detail"),
    path("api/papers/", api.paper_list, name="api-paper-list"),
    path("api/papers/<str:pk>/", api.paper_detail),
    path("api/papers/<str:pk>/similar/", api.paper_similar),
]
