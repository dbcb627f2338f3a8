from django.urls import path

from . import views

urlpatterns = [
    path("", views.paper_list, name="paper-list"),
    path("healthz", views.healthz, name="healthz"),
    path("papers/<int:pk>/", views.paper_detail, name="paper-detail"),
    path("venues/<slug:slug>/", views.paper_list, name="venue-detail"),
    path("topics/<slug:slug>/", views.paper_list, name="topic-detail"),
    path("authors/<slug:slug>/", views.paper_list, name="author-detail"),
]
