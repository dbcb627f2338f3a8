"""Server error pages: 503 while the database is unreachable, 500 otherwise, in the site's style
(JSON under /api/, as the API's other errors are)."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

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
