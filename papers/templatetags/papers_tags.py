"""Template helpers: query strings that toggle a filter, highlighting, rendered titles."""

from urllib.parse import urlencode

from django import template
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from papers import rendering
from papers.latex import plain_text
from papers.querysets import CARD_AUTHORS
from papers.text import has_bidi_controls, isolate_bidi

register = template.Library()


def _query(context):
    request = context.get("request")
    return request.GET.copy() if request is not None else None


def _encode(query) -> str:
    encoded = query.urlencode()
    return "?" + encoded if encoded else "?"


def _parameters(context) -> dict[str, list[str]]:
    """The request's parameters as {name: values}, read once per request: a facet list builds
    a couple of hundred links from them, and copying the QueryDict for each cost more than the
    page's SQL."""
    request = context.get("request")
    if request is None:
        return {}
    if not hasattr(request, "papers_parameters"):
        request.papers_parameters = dict(request.GET.lists())
    return request.papers_parameters


@register.simple_tag(takes_context=True)
def toggle_query(context, name, value):
    """The current query string with ``name=value`` added, or removed if present; page reset."""
    parameters = _parameters(context)
    value = str(value)
    values = list(parameters.get(name, ()))
    if value in values:
        values.remove(value)
    elif name in {"venue", "topic"}:
        values.append(value)
    else:
        values = [value]
    # Keys keep their places, as QueryDict.setlist keeps them; a new one goes last.
    pairs = [
        (key, item)
        for key, items in {**parameters, name: values}.items()
        if key != "page"
        for item in items
    ]
    encoded = urlencode(pairs)
    return "?" + encoded if encoded else "?"


@register.simple_tag(takes_context=True)
def facet_link(context, name, value, label, count, selected, prefix=""):
    """One facet value's link, toggling it; ``prefix`` is read before ``label`` by screen
    readers only (the series before a year in the venue tree). Built here, not by an included
    template: a facet tree has a couple of hundred of them."""
    # Plain concatenation of escaped parts: format_html per link was most of a page's time.
    href = escape(toggle_query(context, name, value))
    venue = f' data-venue="{escape(value)}"' if name == "venue" else ""
    hidden = f'<span class="visually-hidden">{escape(prefix)} </span>' if prefix else ""
    active, current, tick, state = (
        (" is-active", ' aria-current="true"', "✓", ", selected: click to remove")
        if selected
        else ("", "", "", "")
    )
    return mark_safe(  # every value in it is escaped above
        f'<a class="facet-link{active}" href="{href}"{venue}{current}>'
        f'<span class="facet-box" aria-hidden="true">{tick}</span>'
        f'<span class="facet-name">{hidden}{escape(label)}</span> '
        f'<span class="count">{int(count):,}<span class="visually-hidden"> papers{state}</span>'
        "</span></a>"
    )


@register.simple_tag(takes_context=True)
def literal_query(context):
    """The current query string asking for the query as typed (not respelled), page 1."""
    query = _query(context)
    query["literal"] = "1"
    query.pop("page", None)
    return _encode(query)


@register.simple_tag(takes_context=True)
def page_query(context, number):
    query = _query(context)
    if int(number) == 1:
        query.pop("page", None)
    else:
        query["page"] = str(number)
    return _encode(query)


@register.filter
def highlighted(headline) -> SafeString:
    """A snippet or its ts_headline as HTML: LaTeX rendered, the matched words in <mark>."""
    return rendering.render_inline(headline)


@register.filter
def title_html(title) -> SafeString:
    """A title, or a title's ts_headline with its marks, as HTML: LaTeX rendered
    (\\texttt{ModSCAN} as code, L\\_2, \\inftyBench as ∞Bench) and bidi controls isolated."""
    return bidi_isolated(rendering.render_inline(str(title)))


@register.filter
def title_text(title) -> str:
    """A title as plain text, LaTeX read (for <title>, meta tags and attributes)."""
    return plain_text(str(title))


@register.filter
def bidi_isolated(value):
    """HTML text with bidi controls (a title's RLO …) in a <bdi> of its own, so they cannot
    reorder the page around it; other text as it was."""
    if not has_bidi_controls(str(value)):
        return value
    return mark_safe(f"<bdi>{conditional_escape(value)}</bdi>")  # escaped unless already safe


@register.filter
def bidi_isolated_text(value):
    """The same for plain text (<title>), with the isolating characters instead of <bdi>."""
    text = str(value)
    return isolate_bidi(text) if has_bidi_controls(text) else value


@register.filter
def snippet(text) -> str:
    return rendering.plain_snippet(text)


@register.filter
def thousands(count) -> str:
    """A count with thousands separators: 26,093."""
    return f"{int(count):,}"


@register.filter
def slice_from(values, start) -> list:
    """The values from index ``start`` on (the rest after a facet's first rows)."""
    return list(values)[int(start) :]


@register.filter
def first_few(authors) -> dict:
    """A card's authors: the first CARD_AUTHORS to name, and whether "et al." follows."""
    authors = authors or []
    return {"shown": authors[:CARD_AUTHORS], "more": len(authors) > CARD_AUTHORS}


@register.filter
def facet_label(name) -> str:
    return {
        "venue": "Venue",
        "topic": "Topic",
        "year": "Year",
        "country": "Country",
        "author": "Author",
    }.get(name, name)


@register.filter
def is_in(value, values) -> bool:
    """Whether a facet value is among the selected ones (None: nothing selected)."""
    return str(value) in (values or ())


@register.simple_tag(takes_context=True)
def format_query(context, name):
    """The current query string asking for the whole list as a ``name`` citation file."""
    query = _query(context)
    query.pop("page", None)
    query["format"] = name
    return _encode(query)
