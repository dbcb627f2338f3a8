"""Text from the data made into HTML safely: escape first, then format.

Every function escapes the whole input before it adds any markup, so no markup from the data
ever reaches a page; the formatting rules only match the escaped text and only emit fixed tags.
"""

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .headlines import FRAGMENT_DELIMITER, MARK_START, MARK_STOP
from .latex import HTML, SYMBOL_NAMES, convert, plain_text, untied
from .text import QUOTED, spaced_sentences


def quoted(text: str) -> str:
    """A query in the site's quotation marks: “kv cache”. A query that is one phrase takes
    them in place of its own straight ones (“chain of thought”, not “"chain of thought"”),
    and the phrases of a longer one are nested in single marks (“‘kv cache’ eviction”). A
    phrase's closing quote is optional in a query, so an unclosed one is closed here. A query
    typed in curly marks already (a phone's keyboard writes them) is shown as it is."""
    if len(text) > 1 and text[0] == "“" and text[-1] == "”" and "“" not in text[1:-1]:
        return text
    phrases = list(QUOTED.finditer(text))
    if len(phrases) == 1 and phrases[0].span() == (0, len(text)):
        return "“" + text.strip('"') + "”"
    return "“" + QUOTED.sub(lambda phrase: "‘" + phrase.group(0).strip('"') + "’", text) + "”"


_BRACED = r"\{([^{}]*)\}"
# Markdown's **bold** and *italics*: never a maths star ("$x^*$ and $y^*$" was set in italics
# between its two stars, "A^*"), nor a pair reaching across a dollar.
_BOLD = re.compile(r"(?<![\^_\\])\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![\w*^_\\])\*(?=\S)([^*\n$]+?)(?<=\S)\*(?![\w*])")
_RULES = [
    (re.compile(r"\\textbf" + _BRACED), r"<strong>\1</strong>"),
    (re.compile(r"\\(?:textit|emph)" + _BRACED), r"<em>\1</em>"),
    (re.compile(r"\\texttt" + _BRACED), r"<code>\1</code>"),
    (_BOLD, r"<strong>\1</strong>"),
    (_ITALIC, r"<em>\1</em>"),
    # _emphasis_ as markdown writes it, never inside a word ("snake_case", "x_1") nor escaped,
    # nor a LaTeX subscript: "\mathcal{F}_\beta … \mathcal{F}_\beta" and "[C]_{x} … [C]_{x}"
    # made the text between two of them italics.
    (
        re.compile(r"(?<![\w\\})\]])_(?=[^\s_])([^_\n]+?)(?<=[^\s_\\])_(?![\w\\{])"),
        r"<em>\1</em>",
    ),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\&amp;"), "&amp;"),
    (re.compile(r"\\_"), "_"),
    (re.compile(r"\$?\\times\$?"), "×"),
    # "1.44times", "2x" style multipliers as the dumps write them: 1.44times -> 1.44×
    (re.compile(r"(\d)times\b"), r"\1×"),
    (re.compile(r"\$\\sim\$|\\sim\b"), "~"),
]
# HTML a few abstracts carry as text ("LEN<sup>p</sup>", "<i>Yes</i>", "<b>reason</b>": 5 of
# the Anthology folder's), shown as tags: its simple pairs, escaped by then, set as markup.
_HTML_PAIR = re.compile(r"&lt;(sup|sub|i|b|em|strong)&gt;((?:(?!&lt;).){1,300}?)&lt;/\1&gt;")
_HTML_TAGS = {"i": "em", "b": "strong"}


def _html_pairs(escaped: str) -> str:
    def tag(pair: re.Match) -> str:
        name = _HTML_TAGS.get(pair[1], pair[1])
        return f"<{name}>{pair[2]}</{name}>"

    return _HTML_PAIR.sub(tag, escaped)


# After escaping, a URL ends at whitespace or at an escaped quote or angle bracket, and
# punctuation just before that end is the sentence's (cut in _link: a pattern doing it
# would backtrack quadratically over a run of dots).
_URL = re.compile(r"\b(?P<scheme>https?://|www\.)[^\s<>\"'\x00]+")
_URL_END = re.compile(r"&(?:lt|gt|quot|#x27);")
_URL_TRAILING = ".,;:!?)]}"
# \url{…} and \href{…}{text}, also as the Anthology sometimes keeps them, their backslash or
# command lost ("{url{https://…}}", "href{https://…}{…}", "{https://…}"): a link. Braces around
# it are taken only where no command owns them ("\footnote{Code: \url{…}}" keeps its own), and
# nothing already kept aside (NUL) is taken in.
_UNOWNED = r"(?<![A-Za-z\\])"  # a brace no command owns


def _address_in_braces(n: int) -> str:
    return rf"\{{(?P<url{n}>https?://[^{{}}\s\x00]+)\}}(?:\{{(?P<text{n}>[^{{}}\x00]*)\}})?"


def _command_url(n: int) -> str:
    return r"(?:\\|(?<![A-Za-z]))(?:url|href)" + _address_in_braces(n)


_LATEX_URL = re.compile(
    rf"{_UNOWNED}\{{{_command_url(1)}\}}|{_command_url(2)}|{_UNOWNED}{_address_in_braces(3)}"
)
# The link text stops at an opening bracket too, so that scans never overlap (linear time).
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\((https?://[^\s()]+)\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$")


def _link(match: re.Match) -> tuple[str, str]:
    """(the link, the text after it: the sentence's punctuation, a closing brace)."""
    text = match.group(0)
    end = _URL_END.search(text)
    url = text[: end.start() if end else len(text)]
    head = len(match["scheme"]) + 1  # a URL is at least one character after its scheme
    url = url[:head] + url[head:].rstrip(_URL_TRAILING)
    rest = text[len(url) :]
    href = url if url.startswith("http") else "https://" + url
    return f'<a href="{href}" rel="nofollow noopener">{url}</a>', rest


def _latex_link(match: re.Match) -> str:
    """A \\url or \\href as a link: its text, unless that is itself an address (a link must
    not show one address and lead to another)."""
    found = {name[:-1]: value for name, value in match.groupdict().items() if value}
    url, text = found["url"], found.get("text", "")
    shown = url if not text or re.match(r"(?:https?://|www\.)", text) else text
    return f'<a href="{url}" rel="nofollow noopener">{shown}</a>'


def _inline(escaped: str) -> str:
    """Formatting rules over already-escaped text of one paragraph."""
    links = []

    def kept(link: str) -> str:
        # Links wait outside the text while it is formatted: "file_2.pdf" is no subscript.
        links.append(link)
        return f"\x00{len(links) - 1}\x00"

    escaped = _MARKDOWN_LINK.sub(
        lambda m: kept(f'<a href="{m.group(2)}" rel="nofollow noopener">{m.group(1)}</a>'),
        escaped,
    )
    escaped = _LATEX_URL.sub(lambda m: kept(_latex_link(m)), escaped)
    # The text after a link stays in the text: "\texttt{https://…}" keeps its closing brace.
    escaped = _URL.sub(lambda m: (lambda link, rest: kept(link) + rest)(*_link(m)), escaped)
    # Ties first: the rules write "~" (\sim) and take the backslash a tie is read before.
    escaped = untied(_html_pairs(escaped), HTML)
    for pattern, replacement in _RULES:
        escaped = pattern.sub(replacement, escaped)
    # The LaTeX of an abstract (\underline{G}raph, O(k^{\frac{m}{2}}), \kappa) as a title's is.
    escaped = convert(escaped, HTML, dollars=False)
    return re.sub(r"\x00(\d+)\x00", lambda m: links[int(m.group(1))], escaped)


# A line break inside a sentence: after a word or a comma, before a word in lower case. A
# page's text wrapped by hand ("from that first\nworkshop") showed a break mid-sentence.
_WRAPPED = re.compile(r"(?<=[a-z,])[ \t]*\n[ \t]*(?=[a-z])")


def render_abstract(text: str) -> SafeString:
    """Paragraphs, links, and the LaTeX and markdown bits of abstracts, from escaped text; a
    line break is kept, but not inside a sentence."""
    text = (text or "").replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    text = _WRAPPED.sub(" ", spaced_sentences(text))
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


def render_inline(text: str) -> SafeString:
    """A title, a snippet of an abstract, or either's ts_headline, as HTML: escaped, then its
    LaTeX bits (\\texttt{ModSCAN}, L\\_2, \\inftyBench) rendered as papers/latex.py reads them
    and the highlight marks placed.

    The data had the sentinels stripped before ts_headline ran, so each one here is a mark
    ts_headline placed; an unpaired mark is closed at the end.
    """
    # escaped before any markup
    text = _marks_around_scripts(_html_pairs(escape(spaced_sentences(text or ""))))
    return mark_safe(_marks(convert(text, HTML)))


_MARK = re.compile(f"([{MARK_START}{MARK_STOP}])")
_S, _E = MARK_START, MARK_STOP
# Marks at a superscript: either side of ^ they join, and one opening after ^ opens before it.
_JOINED_SUPERSCRIPT = re.compile(f"{_E}\\^{_S}")
_MARKED_SUPERSCRIPT = re.compile(f"(?<!\\\\)\\^{_S}")
# A letter's subscript of one letter or digit where papers/latex.py reads one (_LETTER_SCRIPT:
# "L_2", "h_t", the Anthology's "L\\_2"; never "snake_case", an address or a parameter), marks
# anywhere in it.
_MARKED_LETTER_SCRIPT = re.compile(
    rf"(?<![\w\\/.=?&#:@-]){_S}?[A-Za-z]{_E}?{_S}?\\?_{_S}?[a-z0-9]{_E}?(?![\w@])"
)
_BRACED_SCRIPT = re.compile(r"([\^_])\{([^{}]*)\}")
# A mark inside a command's backslash and name: "\\<mark>infty</mark>Bench" showed its LaTeX.
_MARKED_COMMAND = re.compile(f"\\\\{_S}([A-Za-z]+){_E}|\\\\{_S}")
_MARK_SEAM = re.compile(f"{_E}{_S}|{_S}{_E}")


def _marks_around_scripts(text: str) -> str:
    """The marks of a headline placed where LaTeX's superscripts and subscripts keep them:
    ts_headline marks "M^3CoT" word by word (M, 3, CoT), and a mark between ^ and its 3
    left "M^3CoT" unread. Marks either side of ^ join across it, and one opening after ^ opens
    before it; a letter's one-character subscript is marked whole or not at all; a mark
    opening in a braced script and closing outside it (or the other way) stops at its edge,
    as a mark cannot open in a <sup> and close outside it; marks that touch are one."""
    text = _MARKED_COMMAND.sub(_marked_command, text)
    text = _JOINED_SUPERSCRIPT.sub("^", text)
    text = _MARKED_SUPERSCRIPT.sub(_S + "^", text)
    text = _MARKED_LETTER_SCRIPT.sub(_marked_whole, text)
    text = _BRACED_SCRIPT.sub(_unmarked_script, text)
    return _MARK_SEAM.sub("", text)


def _marked_command(command: re.Match) -> str:
    """A mark opening inside a command opens before its backslash (ts_headline marks "infty"
    in "\\inftyBench"); a command marked exactly is marked whole where it is a symbol's
    ("\\infty": ∞), else not at all ("\\textrm{FM}": a mark between it and its argument
    left it unread)."""
    name = command[1]
    if name is None:
        return _S + "\\"
    return _S + "\\" + name + _E if name in SYMBOL_NAMES else "\\" + name


def _marked_whole(script: re.Match) -> str:
    text = script[0]
    bare = text.replace(_S, "").replace(_E, "")
    subscript = bare[-1].isdigit() or bare[1] == "_"  # "\\_" takes a digit only
    if bare == text or text.count(_S) != text.count(_E) or not subscript:
        return text
    return _S + bare + _E


def _unmarked_script(script: re.Match) -> str:
    inside = script[2]
    marks = "".join(character for character in inside if character in (_S, _E))
    if not marks or marks == (_S + _E) * (len(marks) // 2):
        return script[0]  # none, or pairs that open and close inside
    bare = inside.replace(_S, "").replace(_E, "")
    # A mark opened before the script and closed in it closes before it, and one opened in
    # it and left open opens after it.
    before = _E if marks[0] == _E else ""
    after = _S if marks[-1] == _S else ""
    return f"{before}{script[1]}{{{bare}}}{after}"


def _marks(escaped: str) -> str:
    """The text with its marks as <mark> elements, a stray start or stop dropped (split on the
    marks: a card's 25 snippets were read a character at a time)."""
    opened = False
    out = []
    for piece in _MARK.split(escaped):
        if piece == MARK_START:
            if not opened:
                out.append("<mark>")
            opened = True
        elif piece == MARK_STOP:
            if opened:
                out.append("</mark>")
            opened = False
        else:
            out.append(piece)
    if opened:
        out.append("</mark>")
    return "".join(out)


# Markdown's emphasis in an abstract ("we propose **DiFair**", "*gender invariance score*"): a
# snippet shows the words without the asterisks, and a "**" whose pair the snippet cut off
# ("**Multi", "DiFair**,") not at all; a significance mark ("(**p<0.01)", "(**)") stays. The
# paper's page renders the pairs (_RULES): one pattern each for both.
_EMPHASIS = [
    (_BOLD, r"\1"),
    (_ITALIC, r"\1"),
    (re.compile(r"(?<![\w^_*])\*\*(?=[A-Z])|(?<=[a-z])\*\*(?![\w*])"), ""),
]


def unemphasised(text: str) -> str:
    """The text without markdown's emphasis marks, its words kept."""
    for pattern, replacement in _EMPHASIS:
        text = pattern.sub(replacement, text)
    return text


def render_snippet(headline: str) -> SafeString:
    """An abstract's ts_headline as HTML (``render_inline``), without markdown's asterisks, a
    command's group that a cut between fragments opened read as its text."""
    return render_inline(unemphasised(FRAGMENT_DELIMITER.join(_uncut(headline))))


# A command's group a fragment opens and never closes, a group's end a fragment starts with,
# and a bare brace a fragment leaves open: a snippet showed '"\\textbf{root-to-leaves …
# inference' and 'exists?} To answer', cut inside groups. A group's end stays where the
# fragment before left a bare brace open ("the sets {a, b … c}": the text's own braces).
_OPENED = re.compile(r"\\[A-Za-z]+\s*\{(?=[^{}]*$)")
_CLOSED = re.compile(r"^([^{}]*)\}")
_LEFT_OPEN = re.compile(r"\{[^{}]*$")


def _uncut(headline: str) -> list[str]:
    """The headline's fragments, the groups the cuts opened or closed read as their text."""
    fragments, left_open = [], False
    for fragment in headline.split(FRAGMENT_DELIMITER):
        if not left_open:
            fragment = _CLOSED.sub(r"\1", fragment)
        fragment = _OPENED.sub("", fragment)
        left_open = bool(_LEFT_OPEN.search(fragment))
        fragments.append(fragment)
    return fragments


def plain_snippet(text: str, words: int = 45) -> str:
    """The first ``words`` words of an abstract as plain text, its LaTeX read and its markdown
    emphasis dropped (no markup)."""
    parts = unemphasised(spaced_sentences(text or "")).split()
    return plain_text(" ".join(parts[:words])) + (" …" if len(parts) > words else "")


# --- charts ---------------------------------------------------------------------------------

# Bars a chart shows before the rest (a topic's venues can be a hundred).
CHART_TOP = 15


def bar_chart(items, title: str, top: int = CHART_TOP) -> SafeString:
    """A horizontal bar chart as an HTML list (label, bar, count): items are (label, count,
    href). Labels are text, so they wrap and keep their size on a phone; the first ``top``
    rows are shown and the rest follow behind "more"."""
    items = [item for item in items if item[1] > 0]
    if not items:
        return mark_safe("")
    peak = max(count for _, count, _ in items)
    html = f'<ol class="bar-chart" aria-label="{escape(title)}">{_bars(items[:top], peak)}</ol>'
    rest = items[top:]
    if rest:
        papers = sum(count for _, count, _ in rest)
        html += (
            f'<details class="chart-rest"><summary>{len(rest)} more ({papers:,} papers)</summary>'
            f'<ol class="bar-chart" start="{top + 1}" aria-label="{escape(title)}, continued">'
            f"{_bars(rest, peak)}</ol></details>"
        )
    return mark_safe(html)  # every text escaped in _bars and above


def _bars(items, peak: int) -> str:
    rows = []
    for label, count, href in items:
        length = max(4, round(1000 * count / peak))
        rows.append(
            f'<li><a class="bar-label" href="{escape(href)}">{escape(label)}</a>'
            '<svg class="bar" viewBox="0 0 1000 10" preserveAspectRatio="none" '
            f'aria-hidden="true" focusable="false"><rect width="{length}" height="10"/></svg>'
            f'<span class="bar-count">{count:,}<span class="visually-hidden">'
            f" paper{'' if count == 1 else 's'}</span>"
            "</span></li>"
        )
    return "".join(rows)
