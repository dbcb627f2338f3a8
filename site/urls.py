from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("papers.urls")),
]

handler400 = "papers.errors.bad_request"
handler404 = "papers.errors.not_found"
handler500 = "papers.errors.server_error"
