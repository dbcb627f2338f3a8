from django.urls import path

from . import api, views

urlpatterns = [
    path("", views.paper_list, name="paper-list"),
    path("healthz", views.healthz),
    path("papers/<int:pk>/", views.paper_detail, name="paper-detail"),
    path("papers/<int:pk>-<slug:slug>/", views.paper_detail),
    path("papers/<int:pk>/similar/", views.paper_similar, name="paper-similar"),
    path("papers/<int:pk>/<slug:slug>/", views.paper_detail),
    path("similar/", views.similar_text, name="similar-text"),
    path("venues/", views.venue_index, name="venue-list"),
    path("venues/<slug:slug>/", views.venue_detail, name="venue-detail"),
    path("topics/", views.topic_index, name="topic-list"),
    path("topics/<slug:slug>/", views.topic_detail, name="topic-detail"),
    path("authors/<slug:slug>/", views.author_detail, name="author-detail"),
    path("api/similar/", api.similar_text, name="api-similar-text"),
    path("api/papers/", api.paper_list, name="api-paper-list"),
    path("api/papers/<str:pk>/", api.paper_detail),
    path("api/papers/<str:pk>/similar/", api.paper_similar),
]
