"""Template helpers: query strings that toggle a filter, highlighting, rendered titles, and
the pieces every list repeats (result cards, their authors, the Save button)."""

import html
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import urlencode

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from papers import rendering
from papers.latex import plain_text
from papers.links import page_url
from papers.querysets import CARD_AUTHORS
from papers.text import has_bidi_controls, isolate_bidi

register = template.Library()


def escape(value) -> str:
    """``value`` as text with HTML's special characters escaped, as Django's ``escape`` gives
    it, without its wrapper for lazy strings: a list page escapes a couple of thousand values,
    each into an f-string marked safe whole."""
    return html.escape(str(value))


@register.filter
def decimals(value, places: int) -> str:
    """The number ``value`` with ``places`` decimals, rounded half up from its shortest decimal
    form: what Django's ``floatformat:places`` writes for a score or a weight, without its
    locale's formatting (a similar page writes about ninety: 8.4 µs each with floatformat,
    0.7 µs here)."""
    rounded = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
    return str(rounded if rounded else abs(rounded))


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
        f'<span class="count">{int(count):,}<span class="visually-hidden">'
        f" paper{'' if int(count) == 1 else 's'}{state}</span>"
        "</span></a>"
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
    return _encode(query)


register.filter("quoted", rendering.quoted)


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
def thousands(count) -> str:
    """A count with thousands separators: 26,093."""
    return f"{int(count):,}"


@register.filter
def slice_from(values, start) -> list:
    """The values from index ``start`` on (the rest after a facet's first rows)."""
    return list(values)[int(start) :]


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


@register.simple_tag(takes_context=True)
def format_query(context, name):
    """The list's query string (``list_params``: with the respelled query when the page shows
    its papers; else the request's) asking for the whole list as a ``name`` citation file."""
    listed = context.get("list_params")
    query = listed.copy() if listed is not None else _query(context)
    query.pop("page", None)
    query["format"] = name
    return _encode(query)


# A list page shows 25 result cards: built here by concatenating escaped parts, as facet_link
# is, the cards cost a quarter of what the included templates did (most of a page's time).
_DERIVED_BADGE = (
    ' <span class="badge" title="The source gives no title; this one is the abstract\'s first'
    ' sentence.">derived title</span>'
)


# What each signal of a similar paper's score says (papers/similar.py ``explanation``), its
# values escaped; "text" is written by _shared_words.
_SIGNAL_TEXT = {
    "authors": lambda signal: "same authors: " + _escaped_list(signal["authors"]),
    "year": lambda signal: f"same year ({escape(signal['year'])})",
    "venue": lambda signal: f"same venue ({escape(signal['venue'])})",
    "areas": lambda signal: "same area: " + _escaped_list(signal["areas"]),
    "topics": lambda signal: "shared topics: " + _escaped_list(signal["topics"]),
}


def _escaped_list(values) -> str:
    return ", ".join(escape(value) for value in values)


def _shared_words(signal) -> str:
    terms = signal["terms"]
    if not terms:
        return "similar wording"
    return "both use " + ", ".join(f"“{escape(term['term'])}”" for term in terms)


@register.simple_tag
def similar_why(item) -> SafeString:
    """The line saying why ``item`` is similar: each signal of its ``explanation`` in words,
    their weights in the line's title (shown on hovering). A tag, not an included template:
    a similar page has twenty of them, and the include's loops were most of its rendering."""
    signals = item.explanation
    weights = ", ".join(
        f"{escape(signal['signal'])} {'+' if n else ''}{decimals(signal['weight'], 2)}"
        for n, signal in enumerate(signals)
    )
    reasons = " · ".join(
        _shared_words(signal)
        if signal["signal"] == "text"
        else _SIGNAL_TEXT.get(signal["signal"], lambda _: "")(signal)
        for signal in signals
    )
    # every value in it is escaped; the newline is the included template's last
    return mark_safe(f'<p class="shared" title="{weights}">Why: {reasons}</p>\n')


@register.simple_tag
def save_toggle(pk, title) -> SafeString:
    """The Save button of paper ``pk`` titled ``title`` (plain text), hidden until the
    script runs; ends in a newline, which separates it from the buttons that follow."""
    return mark_safe(  # every value in it is escaped
        f'<button type="button" class="save-toggle" data-save="{escape(pk)}" '
        'aria-pressed="false" hidden><span class="save-mark" aria-hidden="true"></span>Save'
        f'<span class="visually-hidden"> “{escape(title)}” to my list</span></button>\n'
    )


@register.simple_tag
def card_authors(paper) -> SafeString:
    """A card's authors (``first_authors``): the first CARD_AUTHORS linked, "et al." when
    more follow, nothing without authors."""
    authors = first_few(getattr(paper, "first_authors", None))
    if not authors["shown"]:
        return mark_safe("")
    links = ", ".join(
        f'<a href="{escape(page_url("author-detail", author["slug"]))}">'
        f"{escape(author['name'])}</a>"
        for author in authors["shown"]
    )
    # A no-break space: on a phone "et" ended one line and "al." began the next.
    more = " et\u00a0al." if authors["more"] else ""
    return mark_safe(f'<p class="authors">{links}{more}</p>')


def _card_title(paper) -> str:
    if not paper.has_title:
        return f"{title_html(paper.display_title)}</a>{_DERIVED_BADGE}"
    return f"{title_html(getattr(paper, 'title_headline', None) or paper.title)}</a>"


def _card_meta(paper) -> str:
    venue, when = paper.venue, paper.venue.date_note
    parts = [f'<a href="{escape(venue.get_absolute_url())}">{escape(venue.name)}</a>']
    parts += [f" · {escape(value)}" for value in (when, paper.country) if value]
    return f'<p class="meta">{"".join(parts)}</p>'


def _card_actions(paper) -> str:
    plain = title_text(paper.display_title)
    title, links = escape(plain), ""
    if paper.pdf_url:
        links = (
            f'<a class="action" href="{escape(paper.pdf_url)}">PDF<span class="visually-hidden">'
            f' of “{title}”</span></a> <a class="action" href="{escape(paper.anthology_url)}">'
            f'Anthology<span class="visually-hidden"> page of “{title}”</span></a> '
        )
    return f'<div class="row-actions">{links}{save_toggle(paper.pk, plain)}</div>'


@register.simple_tag
def topic_tags(topics) -> SafeString:
    """The topics' links as a list of tags, or "" without topics."""
    items = "".join(
        f'<li><a href="{escape(topic.get_absolute_url())}">{escape(topic.name)}</a></li>'
        for topic in topics
    )
    # every value in it is escaped
    return mark_safe(f'<ul class="tags" aria-label="Topics">{items}</ul>' if items else "")


@register.simple_tag
def result_card(paper) -> SafeString:
    """One result row (papers/querysets.py ``cards``): the title (its headline when a query
    matched it), authors, venue, snippet (the abstract's headline, else its first words),
    links, the Save button and the topics."""
    headline = getattr(paper, "headline", None)
    snippet_html = (
        rendering.render_inline(headline)
        if headline
        else escape(rendering.plain_snippet(paper.abstract))
    )
    return mark_safe(  # every part is escaped or built from escaped text
        f'<li class="card" data-paper-id="{escape(paper.pk)}">\n'
        f'  <h3 class="card-title"><a href="{escape(paper.get_absolute_url())}">'
        f"{_card_title(paper)}</h3>\n"
        f"  {card_authors(paper)}\n\n"
        f"  {_card_meta(paper)}\n"
        f'  <p class="snippet">{snippet_html}</p>\n'
        f"  {_card_actions(paper)}\n"
        f"  {topic_tags(paper.card_topics)}\n"
        "</li>\n"
    )


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
            "<li>"
            + facet_link(context, "venue", r.slug, r.label, r.count, r.selected, event.name)
            + "</li>"
            for r in event.volumes
        )
        main = event.main
        head = facet_link(
            context, "venue", main.slug, main.label, main.count, main.selected, series
        )
        volumes = _folded_volumes(event, rows) if event.volumes else ""
    return (
        f'<li class="event" data-filter-text="{escape(event.filter_text)}">\n'
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
        f'<li class="series"><span class="series-name">{escape(group.name)}</span>\n  <ul>\n    '
        + "".join(_venue_event(context, event, group.name) for event in group.events)
        + "\n  </ul>\n</li>"
        for group in groups
    )
    return mark_safe(items + "\n")  # every value in it is escaped
