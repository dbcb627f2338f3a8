from django.urls import path

from . import api, feeds, views

urlpatterns = [
    path("", views.paper_list, name="paper-list"),
    path("healthz", views.healthz),
    path("papers/<int:pk>/", views.paper_detail, name="paper-detail"),
    path("papers/<int:pk>-<slug:slug>/", views.paper_detail),
    path("papers/<int:pk>/similar/", views.paper_similar, name="paper-similar"),
    path("papers/<int:pk>/<slug:slug>/", views.paper_detail),
    path("venues/", views.venue_index, name="venue-list"),
    path("venues/<slug:slug>/", views.venue_detail, name="venue-detail"),
    path("topics/", views.topic_index, name="topic-list"),
    path("topics/<slug:slug>/", views.topic_detail, name="topic-detail"),
    path("authors/<slug:slug>/", views.author_detail, name="author-detail"),
    path("list/", views.reading_list, name="reading-list"),
    path("trends/", views.trends, name="trends"),
    path("feeds/venues/<slug:slug>/", feeds.VenueFeed(), name="feed-venue"),
    path("feeds/topics/<slug:slug>/", feeds.TopicFeed(), name="feed-topic"),
    path("feeds/authors/<slug:slug>/", feeds.AuthorFeed(), name="feed-author"),
    path("feeds/search/", feeds.SearchFeed(), name="feed-search"),
    path("api/papers/", api.paper_list, name="api-paper-list"),
    path("api/papers/<str:pk>/", api.paper_detail),
    path("api/papers/<str:pk>/similar/", api.paper_similar),
]
