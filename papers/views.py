from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from .models import Paper


def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return JsonResponse({"status": "database unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


def paper_list(request, slug=None):
    papers = Paper.objects.with_related()[:100]
    return render(request, "papers/paper_list.html", {"papers": papers})


def paper_detail(request, pk):
    paper = get_object_or_404(Paper.objects.with_related(), pk=pk)
    return HttpResponse(paper.display_title)
