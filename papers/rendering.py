"""Text from the data made into HTML safely: escape first, then format.

Every function escapes the whole input before it adds any markup, so no markup from the data
ever reaches a page; the formatting rules only match the escaped text and only emit fixed tags.
"""

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .latex import HTML, convert
from .querysets import MARK_START, MARK_STOP

_BRACED = r"\{([^{}]*)\}"
_RULES = [
    (re.compile(r"\\textbf" + _BRACED), r"<strong>\1</strong>"),
    (re.compile(r"\\(?:textit|emph)" + _BRACED), r"<em>\1</em>"),
    (re.compile(r"\\texttt" + _BRACED), r"<code>\1</code>"),
    (re.compile(r"\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\&amp;"), "&amp;"),
    (re.compile(r"\\_"), "_"),
    (re.compile(r"\$?\\times\$?"), "×"),
    # "1.44times", "2x" style multipliers as the dumps write them: 1.44times -> 1.44×
    (re.compile(r"(\d)times\b"), r"\1×"),
    (re.compile(r"\$\\sim\$|\\sim\b"), "~"),
]
# After escaping, a URL ends at whitespace or at an escaped quote or angle bracket, and
# punctuation just before that end is the sentence's (cut in _link: a pattern doing it
# would backtrack quadratically over a run of dots).
_URL = re.compile(r"\b(?P<scheme>https?://|www\.)[^\s<>\"']+")
_URL_END = re.compile(r"&(?:lt|gt|quot|#x27);")
_URL_TRAILING = ".,;:!?)]"
# The link text stops at an opening bracket too, so that scans never overlap (linear time).
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\((https?://[^\s()]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$")


def _link(match: re.Match) -> str:
    text = match.group(0)
    end = _URL_END.search(text)
    url = text[: end.start() if end else len(text)]
    head = len(match["scheme"]) + 1  # a URL is at least one character after its scheme
    url = url[:head] + url[head:].rstrip(_URL_TRAILING)
    rest = text[len(url) :]
    href = url if url.startswith("http") else "https://" + url
    return f'<a href="{href}" rel="nofollow noopener">{url}</a>{rest}'


def _inline(escaped: str) -> str:
    """Formatting rules over already-escaped text of one paragraph."""
    links = []

    def keep_link(match: re.Match) -> str:
        text, url = match.group(1), match.group(2)
        links.append(f'<a href="{url}" rel="nofollow noopener">{text}</a>')
        return f"\x00{len(links) - 1}\x00"

    escaped = _MARKDOWN_LINK.sub(keep_link, escaped)
    escaped = _URL.sub(_link, escaped)
    for pattern, replacement in _RULES:
        escaped = pattern.sub(replacement, escaped)
    return re.sub(r"\x00(\d+)\x00", lambda m: links[int(m.group(1))], escaped)


def render_abstract(text: str) -> SafeString:
    """Paragraphs, links, and the LaTeX and markdown bits of abstracts, from escaped text."""
    text = (text or "").replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    paragraphs = [part.strip() for part in re.split(r"\n\s*\n", text) if part.strip()]
    html = []
    for paragraph in paragraphs:
        escaped = escape(paragraph)
        heading = _HEADING.match(escaped)
        if heading and "\n" not in escaped:
            html.append(f'<p class="lead-in"><strong>{_inline(heading.group(1))}</strong></p>')
            continue
        body = _inline(escaped).replace("\n", "<br>\n")
        html.append(f"<p>{body}</p>")
    return mark_safe("\n".join(html))  # built from escaped text only


def highlight(headline: str) -> SafeString:
    """A ts_headline result made safe: escape it all, then turn only the sentinels into <mark>.

    The data had the sentinels stripped before ts_headline ran, so each one here is a mark
    ts_headline placed; an unpaired mark is closed at the end.
    """
    return mark_safe(_marks(escape(headline or "")))  # escaped here


def render_title(title: str) -> SafeString:
    """A title (or its ts_headline) as HTML: escaped, then its LaTeX bits (\\texttt{ModSCAN},
    L\\_2, \\inftyBench) rendered as the abstracts' are and the highlight marks placed."""
    return mark_safe(_marks(convert(escape(title or ""), HTML)))  # escaped before any markup


def _marks(escaped: str) -> str:
    opened = 0
    out = []
    for char in escaped:
        if char == MARK_START and not opened:
            out.append("<mark>")
            opened = 1
        elif char == MARK_STOP and opened:
            out.append("</mark>")
            opened = 0
        elif char not in (MARK_START, MARK_STOP):
            out.append(char)
    if opened:
        out.append("</mark>")
    return "".join(out)


def plain_snippet(text: str, words: int = 45) -> str:
    parts = (text or "").split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# --- charts ---------------------------------------------------------------------------------


def bar_chart(items, title: str) -> SafeString:
    """A horizontal bar chart as inline SVG drawn here: items are (label, count, href)."""
    items = [item for item in items if item[1] > 0]
    if not items:
        return mark_safe("")
    label_width, bar_width, row, pad = 230, 300, 26, 4
    width = label_width + bar_width + 60
    height = row * len(items) + pad * 2
    top = max(count for _, count, _ in items)
    rows = []
    for index, (label, count, href) in enumerate(items):
        y = pad + index * row
        length = max(2, round(bar_width * count / top))
        short = label if len(label) <= 32 else label[:31] + "…"
        rows.append(
            f'<a href="{escape(href)}"><g class="chart-row">'
            f"<title>{escape(label)}: {count} papers</title>"
            f'<text x="{label_width - 8}" y="{y + 17}" class="chart-label" text-anchor="end">'
            f"{escape(short)}</text>"
            f'<rect x="{label_width}" y="{y + 4}" width="{length}" height="{row - 8}" class="chart-bar"/>'
            f'<text x="{label_width + length + 6}" y="{y + 17}" class="chart-count">{count}</text>'
            "</g></a>"
        )
    svg = (
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="group" '
        f'aria-label="{escape(title)}" preserveAspectRatio="xMinYMin meet">'
        f"<title>{escape(title)}</title>{''.join(rows)}</svg>"
    )
    return mark_safe(svg)  # every text escaped above
