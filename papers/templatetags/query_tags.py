"""Template helpers for the links that change a list's query: a facet value's toggle, the
venue tree, the pages, the query as typed and the citation files of the whole list."""

from urllib.parse import urlencode

from django import template
from django.utils.safestring import SafeString, mark_safe

from papers.search_fields import MAX_VALUES
from papers.templatetags.papers_tags import escape

register = template.Library()


def _query(context):
    request = context.get("request")
    return request.GET.copy() if request is not None else None


def _encode(query) -> str:
    encoded = query.urlencode()
    return "?" + encoded if encoded else "?"


def _parameters(context) -> dict[str, str]:
    """The request's parameters but the page, each name's values already encoded ("q=a+b",
    "venue=x&venue=y"), read once per request: a facet list builds a couple of hundred links
    from them, and each link encodes only the values it changes (copying the QueryDict for
    each cost more than the page's SQL; encoding every parameter again for each, more than
    half of their query strings' time)."""
    request = context.get("request")
    if request is None:
        return {}
    if not hasattr(request, "papers_parameters"):
        request.papers_parameters = {
            name: urlencode([(name, value) for value in values])
            for name, values in request.GET.lists()
            if name != "page"
        }
    return request.papers_parameters


@register.simple_tag(takes_context=True)
def toggle_query(context, name, value):
    """The current query string with ``name=value`` added, or removed if present; page reset."""
    request = context.get("request")
    value = str(value)
    values = request.GET.getlist(name) if request is not None else []
    if value in values:
        values.remove(value)
    elif name in {"venue", "topic"}:
        values.append(value)
    else:
        values = [value]
    # Keys keep their places, as QueryDict.setlist keeps them; a new one goes last.
    toggled = urlencode([(name, item) for item in values]) if name != "page" else ""
    pieces = {**_parameters(context), name: toggled}.values()
    encoded = "&".join(piece for piece in pieces if piece)
    return "?" + encoded if encoded else "?"


@register.simple_tag(takes_context=True)
def facet_link(context, name, value, label, count, selected, prefix=""):
    """One facet value's link, toggling it; ``prefix`` is read before ``label`` by screen
    readers only (the series before a year in the venue tree). Built here, not by an included
    template: a facet tree has a couple of hundred of them."""
    # Plain concatenation of escaped parts: format_html per link was most of a page's time.
    venue = f' data-venue="{escape(value)}"' if name == "venue" else ""
    hidden = f'<span class="visually-hidden">{escape(prefix)} </span>' if prefix else ""
    active, current, tick, state = (
        (" is-active", ' aria-current="true"', "✓", ", selected: click to remove")
        if selected
        else ("", "", "", "")
    )
    inside = (
        f'<span class="facet-box" aria-hidden="true">{tick}</span>'
        f'<span class="facet-name">{hidden}{escape(label)}</span> '
        f'<span class="count">{int(count):,}<span class="visually-hidden">'
        f" paper{'' if int(count) == 1 else 's'}{state}</span></span>"
    )
    if not selected and _full(context, name):
        # Another value would be one too many (a 400): shown, not offered.
        return mark_safe(  # every value in it is escaped above
            f'<span class="facet-link is-full"{venue} title="{FULL}">{inside}</span>'
        )
    href = escape(toggle_query(context, name, value))
    return mark_safe(f'<a class="facet-link{active}" href="{href}"{venue}{current}>{inside}</a>')


FULL = f"At most {MAX_VALUES} can be chosen: remove one to choose another."


def _full(context, name: str) -> bool:
    """Whether the list already has as many values of the facet ``name`` as it takes."""
    request = context.get("request")
    return (
        name in {"venue", "topic"}
        and request is not None
        and len(set(request.GET.getlist(name))) >= MAX_VALUES
    )


@register.simple_tag(takes_context=True)
def facet_items(context, name, options, selected) -> SafeString:
    """A facet's values (FacetOption) as list items, each with its text for the facet's filter
    box and its link; ``selected``: the values chosen. One tag for the list, as the venue tree
    is: each value's tag call and filters in a template loop cost more than its link."""
    chosen = selected or ()
    return mark_safe(  # facet_link escapes its parts, and the filter text is escaped here
        "".join(
            f'<li data-filter-text="{escape(str(option.label).lower())}">'
            + facet_link(
                context, name, option.value, option.label, option.count, str(option.value) in chosen
            )
            + "</li>"
            for option in options
        )
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
    if not query and _is_front_page_address(context):
        # Without any parameter the list's address is the front page, not the list's first.
        query["page"] = "1"
    return _encode(query)


def _is_front_page_address(context) -> bool:
    match = getattr(context.get("request"), "resolver_match", None)
    return match is not None and match.url_name == "paper-list"


@register.filter
def facet_label(name) -> str:
    return {
        "venue": "Venue",
        "topic": "Topic",
        "year": "Year",
        "country": "Country",
        "author": "Author",
    }.get(name, name)


@register.simple_tag(takes_context=True)
def format_query(context, name):
    """The list's query string (``list_params``: with the respelled query when the page shows
    its papers; else the request's) asking for the whole list as a ``name`` citation file."""
    listed = context.get("list_params")
    query = listed.copy() if listed is not None else _query(context)
    query.pop("page", None)
    query["format"] = name
    return _encode(query)


def _venue_event(context, event, series: str) -> str:
    """A conference in the venue tree: its main volume's link and its other volumes folded
    under it; a conference whose main volume has no paper here, its volumes in its place
    (papers/facet_display.py names them)."""
    if not event.main:
        head = "".join(
            facet_link(context, "venue", r.slug, r.label, r.count, r.selected, series)
            for r in event.volumes
        )
        volumes = ""
    else:
        rows = "".join(
            f'<li data-volume-text="{escape(r.name.lower())}">'
            + facet_link(context, "venue", r.slug, r.label, r.count, r.selected, event.name)
            + "</li>"
            for r in event.volumes
        )
        main = event.main
        head = facet_link(
            context, "venue", main.slug, main.label, main.count, main.selected, series
        )
        volumes = _folded_volumes(event, rows) if event.volumes else ""
    more = " is-more" if event.more else ""
    main_text = f' data-main-text="{escape(event.main.name.lower())}"' if event.main else ""
    return (
        f'<li class="event{more}" data-filter-text="{escape(event.filter_text)}"{main_text}>\n'
        f"      {head}\n      {volumes}\n    </li>"
    )


def _folded_volumes(event, rows: str) -> str:
    # Their papers are counted on the fold: "ACL 2025 4" over a closed fold read as four
    # papers of ACL 2025 when its Findings had ninety.
    count, papers = len(event.volumes), sum(row.count for row in event.volumes)
    return (
        f'<details class="volumes"{" open data-selected" if event.open else ""}>\n'
        f"        <summary>{count} more volume{'' if count == 1 else 's'}"
        f'<span class="visually-hidden"> of {escape(event.name)}</span>, '
        f"{papers:,} paper{'' if papers == 1 else 's'}</summary>\n"
        f"        <ul>{rows}</ul>\n      </details>"
    )


@register.simple_tag(takes_context=True)
def venue_tree(context, groups) -> SafeString:
    """The venue facet's series (papers/facet_display.py), each with its conferences, as the
    items of a list: a couple of hundred links, built here as facet_link builds each one."""
    items = "".join(
        f'<li class="series{" is-more" if group.more else ""}">'
        f'<span class="series-name">{escape(group.name)}'
        + "</span>\n  <ul>\n    "
        + "".join(_venue_event(context, event, group.name) for event in group.events)
        + "\n  </ul>\n</li>"
        for group in groups
    )
    return mark_safe(items + "\n")  # every value in it is escaped
