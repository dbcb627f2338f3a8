"""Which HTTP methods the site's views answer, the address a redirect keeps the query on, and
the address of a slug typed with capitals."""

from functools import wraps

from django.http import Http404, HttpResponsePermanentRedirect
from django.urls import NoReverseMatch, reverse
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


def lowercase_slug(view):
    """A slug typed with capitals ("/venues/ACL-2024/") redirects, permanently, to the page's
    address (slugs are lowercase), its query string kept; the list's filters read slugs in any
    case already."""

    @wraps(view)
    def wrapped(request, *args, slug, **kwargs):
        if slug != slug.lower():
            match = request.resolver_match
            try:
                address = reverse(match.view_name, kwargs={**match.kwargs, "slug": slug.lower()})
            except NoReverseMatch:
                # A slug lowercased into one no route takes: no page has that address.
                raise Http404("No page at this address.") from None
            return HttpResponsePermanentRedirect(with_query(request, address))
        return view(request, *args, slug=slug, **kwargs)

    return wrapped
