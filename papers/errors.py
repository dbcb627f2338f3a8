"""Server error pages: 503 while the database is unreachable, 500 otherwise, in the site's style."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string

RETRY_AFTER_SECONDS = 5


def server_error(request):
    """Django's handler500, called inside the failed request's exception handling."""
    # Rendered without the request: context processors could reach for the database.
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return HttpResponse(render_to_string("500.html"), status=500)
