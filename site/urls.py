from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("papers.urls")),
]

handler500 = "papers.errors.server_error"
