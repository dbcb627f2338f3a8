"""Which HTTP methods the site's views answer, and the address a redirect keeps the query on."""

from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe


def read_only(view):
    """GET and HEAD only: any other method is answered 405 with an Allow header. A POST was
    refused by the CSRF check first, with a 403 about cookies; the view changes nothing, so
    there is no forged request to refuse."""
    return csrf_exempt(require_safe(view))


def with_query(request, address: str) -> str:
    """The address with the request's query string (a redirect keeps the order chosen, the
    limit asked)."""
    query = request.META.get("QUERY_STRING", "")
    return f"{address}?{query}" if query else address
