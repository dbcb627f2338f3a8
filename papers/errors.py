"""Error answers: server error pages (503 while the database is unreachable, 500 otherwise), in
the site's style, a page's refusal of its parameters (400, ``bad_request_page``), and under
/api/ every error as JSON, as the API's own are: an unknown address (404), a method it does
not answer (405) and a request Django refuses (400)."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults

RETRY_AFTER_SECONDS = 5
API_PREFIX = "/api/"


def server_error(request):
    """Django's handler500, called inside the failed request's exception handling."""
    outage = isinstance(sys.exc_info()[1], OperationalError | InterfaceError)
    if request.path.startswith(API_PREFIX):
        if outage:
            response = JsonResponse(
                {"error": "The database is unavailable; try again."}, status=503
            )
        else:
            response = JsonResponse({"error": "Server error."}, status=500)
    elif outage:
        # Rendered without the request: context processors could reach for the database.
        response = HttpResponse(render_to_string("503.html"), status=503)
    else:
        response = HttpResponse(render_to_string("500.html"), status=500)
    if outage:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def not_found(request, exception):
    """Django's handler404."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"error": "No such address in the API."}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request_page(request, message: str, errors=None):
    """A page's 400: what it refuses and why, in the site's style."""
    html = render_to_string(
        "papers/bad_request.html", {"message": message, "errors": errors or {}}, request
    )
    return HttpResponseBadRequest(html)


def bad_request(request, exception):
    """Django's handler400 (a request it refuses: a body over its size limit, a bad host)."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"error": "The request was refused (its size or its host)."}, status=400
        )
    return defaults.bad_request(request, exception)


class ApiMethodErrors:
    """Middleware: a 405 under /api/ says in JSON which methods the address answers (Django's
    own 405 has an empty body)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or not request.path.startswith(API_PREFIX):
            return response
        allowed = response.get("Allow", "")
        answer = JsonResponse(
            {"error": f"{request.method} is not answered here; use {allowed}."}, status=405
        )
        answer["Allow"] = allowed
        return answer
