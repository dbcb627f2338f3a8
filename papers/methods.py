"""Which HTTP methods the site's views answer."""

from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe


def read_only(view):
    """GET and HEAD only: any other method is answered 405 with an Allow header. A POST was
    refused by the CSRF check first, with a 403 about cookies; the view changes nothing, so
    there is no forged request to refuse."""
    return csrf_exempt(require_safe(view))
