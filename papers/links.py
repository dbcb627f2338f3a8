"""The URL of a page named by one value (a paper's id, a venue's, topic's or author's slug).

A list page links each of its 25 cards to the paper, its venue, its authors and its topics:
about 170 calls of ``reverse`` a page, each of which tries the route's patterns and regular
expressions again (30 µs apiece, a tenth of a search page's Python time). A route whose one
argument is its last segment is reversed once per script prefix here, and each value is checked
against the route's converter and quoted as ``reverse`` quotes it; any other value goes through
``reverse`` (which refuses it as it always has).
"""

import re
from urllib.parse import quote

from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils.http import RFC3986_SUBDELIMS

# A value every converter of these routes takes (int and slug alike); the URL is cut at its
# last occurrence, which is the argument's since the routes' text after it is only "/".
_PLACEHOLDER = "0"
_SAFE = RFC3986_SUBDELIMS + "/~:@"

_routes: dict[tuple, tuple[str, str, re.Pattern]] = {}


def _route(name: str) -> tuple[str, str, re.Pattern]:
    """(the URL before the value, after it, what a value must match) for route ``name``."""
    urlconf = get_urlconf()
    key = (name, get_script_prefix(), urlconf)
    if key not in _routes:
        before, after = reverse(name, args=[_PLACEHOLDER]).rsplit(_PLACEHOLDER, 1)
        [(_, _, _, converters)] = get_resolver(urlconf).reverse_dict.getlist(name)
        [converter] = converters.values()
        _routes[key] = (before, after, re.compile(converter.regex))
    return _routes[key]


def page_url(name: str, value) -> str:
    """``reverse(name, args=[value])`` for a route of one argument, its last segment."""
    before, after, pattern = _route(name)
    text = str(value)
    if not pattern.fullmatch(text):
        return reverse(name, args=[value])
    return before + quote(text, safe=_SAFE) + after
