"""Template helpers: rendered titles and numbers, and the pieces every list repeats (result
cards, their authors, the Save button, a similar paper's "Why:" line). The links that change
a list's query are query_tags'."""

import html
import re
from decimal import ROUND_HALF_UP, Decimal

from django import template
from django.contrib.humanize.templatetags.humanize import ordinal
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


_PAGE_DASHES = re.compile(r"\s*(?:-+|–|—)\s*")


@register.filter
def page_span(pages) -> str:
    """A paper's pages as a reader writes a range, whatever dash the source used: "3521–3532"
    for "3521-3532", "3521--3532" or "3521–3532"."""
    parts = [part for part in _PAGE_DASHES.split((pages or "").strip()) if part]
    if len(parts) != 2:
        return (pages or "").strip()  # one page, or a range written otherwise: as the source
    return f"{parts[0]}–{parts[1]}"


@register.filter
def slice_from(values, start) -> list:
    """The values from index ``start`` on (the rest after a facet's first rows)."""
    return list(values)[int(start) :]


def first_few(authors) -> dict:
    """A card's authors: the first CARD_AUTHORS to name, and whether "et al." follows."""
    authors = authors or []
    return {"shown": authors[:CARD_AUTHORS], "more": len(authors) > CARD_AUTHORS}


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
    # The conference, whatever its volume: a paper of Findings of NAACL 2025 beside one of
    # NAACL 2025's main volume was said to be of the same venue.
    "venue": lambda signal: f"same conference ({escape(signal['venue'])})",
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
    then their weights (in the text, not a title shown on hovering, which keys and fingers
    cannot reach). A tag, not an included template: a similar page has twenty of them, and
    the include's loops were most of its rendering."""
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
    return mark_safe(
        f'<p class="shared">Why: {reasons} <span class="score-parts">(score: {weights})</span></p>\n'
    )


@register.simple_tag
def save_toggle(pk, title) -> SafeString:
    """The Save button of paper ``pk`` titled ``title`` (plain text), hidden until the
    script runs; ends in a newline, which separates it from the buttons that follow."""
    return mark_safe(  # every value in it is escaped
        f'<button type="button" class="save-toggle" data-save="{escape(pk)}" '
        'aria-pressed="false" hidden><span class="save-mark" aria-hidden="true"></span>'
        '<span class="save-word">Save</span>'
        f'<span class="visually-hidden"> “{escape(title)}” to my list</span></button>\n'
    )


@register.simple_tag
def card_authors(paper) -> SafeString:
    """A card's authors (``first_authors``): the first CARD_AUTHORS linked, "et al." when
    more follow, nothing without authors. On an author's page (``page_author``: the author,
    their position, the number of authors) the author is in bold, and named with their place
    where the first authors leave them out ("…, Hinrich Schütze (7th of 9)")."""
    authors = first_few(getattr(paper, "first_authors", None))
    if not authors["shown"]:
        return mark_safe("")
    page_author, position, total = getattr(paper, "page_author", None) or (None, 0, 0)
    own = page_author.slug if page_author is not None else None
    links = ", ".join(
        f'<a href="{escape(page_url("author-detail", author["slug"]))}">'
        + (
            f"<strong>{escape(author['name'])}</strong>"
            if author["slug"] == own
            else escape(author["name"])
        )
        + "</a>"
        for author in authors["shown"]
    )
    if page_author is not None and position > len(authors["shown"]):
        skipped = ", …" if position > len(authors["shown"]) + 1 else ""
        # Their place, where the card leaves some authors out.
        place = f" ({ordinal(position)} of {total})" if skipped or position < total else ""
        links += (
            f'{skipped}, <a href="{escape(page_author.get_absolute_url())}">'
            f"<strong>{escape(page_author.name)}</strong></a>{place}"
        )
        return mark_safe(f'<p class="authors">{links}</p>')
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
        rendering.render_snippet(headline)
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
