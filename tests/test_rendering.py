"""Abstract rendering, highlighting, BibTeX and charts: escape first, then format."""

from types import SimpleNamespace

import pytest

from papers.bibtex import bibtex
from papers.headlines import FRAGMENT_DELIMITER, MARK_START, MARK_STOP, elided
from papers.latex import plain_text
from papers.rendering import (
    bar_chart,
    plain_snippet,
    quoted,
    render_abstract,
    render_inline,
    render_snippet,
)
from tests.support import parse


def test_latex_and_markdown_bits():
    html = render_abstract(
        r"a \textbf{L}ayer-\textit{A}ware \emph{R}epr, 50\% less, **bold** and 1.44times faster"
    )
    assert html == (
        "<p>a <strong>L</strong>ayer-<em>A</em>ware <em>R</em>epr, 50% less, "
        "<strong>bold</strong> and 1.44× faster</p>"
    )


@pytest.mark.parametrize(
    ("abstract", "html"),
    [
        (
            r"the \underline{G}\textit{raph-based }\underline{Fo}\textit{rmal} (GFoLDS)",
            "<p>the <u>G</u><em>raph-based </em><u>Fo</u><em>rmal</em> (GFoLDS)</p>",
        ),
        (
            r"use O(k^{\frac{m}{2}}) memory; O(m \log k) units suffice",
            "<p>use O(k<sup>m/2</sup>) memory; O(m log k) units suffice</p>",
        ),
        (r"Fleiss' kappa (\kappa) and \sqrt{n}", "<p>Fleiss&#x27; kappa (κ) and √n</p>"),
        (
            r"we build \bf{RE^2}: f \propto r",
            "<p>we build <strong>RE<sup>2</sup></strong>: f ∝ r</p>",
        ),
        (
            r"a set \mathcal P, \mathbf A and \{x\} \leftrightarrow y; \lVert x \rVert, \varepsilon",
            "<p>a set P, <strong>A</strong> and {x} ↔ y; ‖ x ‖, ε</p>",
        ),
        # Maths the Anthology writes without dollars.
        (
            r"a subset \mathcal{S}_t, the L_2 norm, F_1 of 0.8; code: \mathtt{github.com/a\_b}",
            "<p>a subset S<sub>t</sub>, the L<sub>2</sub> norm, F<sub>1</sub> of 0.8; code: "
            "<code>github.com/a_b</code></p>",
        ),
        # Without other LaTeX, braces are the text's own; an address's or a parameter's
        # letter is no subscript.
        (
            "labels y_i in {0, 1}; mail a_b@example.org",
            "<p>labels y<sub>i</sub> in {0, 1}; mail a_b@example.org</p>",
        ),
        # Dollars in an abstract may be prices; a link's underscore is no subscript.
        ("costs $5 and $10", "<p>costs $5 and $10</p>"),
        (
            "see https://x.org/file_2.pdf",
            '<p>see <a href="https://x.org/file_2.pdf" rel="nofollow noopener">'
            "https://x.org/file_2.pdf</a></p>",
        ),
    ],
)
def test_an_abstracts_latex_is_rendered_as_a_titles(abstract, html):
    assert render_abstract(abstract) == html


@pytest.mark.parametrize(
    ("abstract", "html"),
    [
        (
            r"code at \url{https://github.com/a/DCLOOS}.",
            '<p>code at <a href="https://github.com/a/DCLOOS" rel="nofollow noopener">'
            "https://github.com/a/DCLOOS</a>.</p>",
        ),
        # As the Anthology keeps some: the backslash or the command lost, braces left.
        (
            "code: href{https://x.org/r/a-9E}{x.org/r} and {url{https://y.de}}, at {https://z.io/b}.",
            '<p>code: <a href="https://x.org/r/a-9E" rel="nofollow noopener">x.org/r</a> and '
            '<a href="https://y.de" rel="nofollow noopener">https://y.de</a>, at '
            '<a href="https://z.io/b" rel="nofollow noopener">https://z.io/b</a>.</p>',
        ),
        (
            r"beats baselines.\footnote{Code will be released.} We also",
            "<p>beats baselines. (Code will be released.) We also</p>",
        ),
        (
            "autoregressive translation~(NAT) on~9 tasks in 1~2 hours, ~10% less",
            "<p>autoregressive translation\u00a0(NAT) on\u00a09 tasks in 1~2 hours, ~10% less</p>",
        ),
        # A line broken inside a sentence (a page's text wrapped by hand) is one line; a break
        # after a sentence, or before a list's item, stays.
        (
            "from that first\nworkshop, with\n14 papers, and\nAI.\nWe thank\n- the chairs",
            "<p>from that first workshop, with<br>\n14 papers, and<br>\nAI.<br>\nWe thank<br>\n- the chairs</p>",
        ),
        # A tie before a command the rules write otherwise (\sim, \%, \&) is a space still.
        (
            r"of~\sim 100, by~\%5, Smith~\&~Jones",
            "<p>of\u00a0~ 100, by\u00a0%5, Smith\u00a0&amp;~Jones</p>",
        ),
        (
            "(“_He pursues his dream_”), snake_case, x_1, file\\_a\\_b, _ alone _",
            "<p>(“<em>He pursues his dream</em>”), snake_case, x<sub>1</sub>, file_a_b, _ alone _</p>",
        ),
        # Two subscripts in an abstract made the text between them italics (an outside tester:
        # 2021.eacl-main.129, 2023.acl-long.49, 2024.findings-eacl.143).
        (
            r"proposing \mathcal{M}\mathcal{F}_\beta, a metric. Since \mathcal{M}\mathcal{F}_\beta is",
            "<p>proposing MF<sub>β</sub>, a metric. Since MF<sub>β</sub> is</p>",
        ),
        (
            r"a token [\mathcal{C}]_{x} for x. [\mathcal{C}]_{x} is one \mathrm{Gist}_{\mathrm{arg}}",
            "<p>a token [C]<sub>x</sub> for x. [C]<sub>x</sub> is one Gist<sub>arg</sub></p>",
        ),
    ],
)
def test_an_abstracts_links_footnotes_ties_and_underscores(abstract, html):
    # Seen on the Anthology's abstracts: the braces, the command or the underscores were shown.
    assert render_abstract(abstract) == html


@pytest.mark.parametrize(
    ("abstract", "html"),
    [
        # Braces a command owns stay its own (a reviewer).
        (
            r"(code\footnote{Code: \url{https://x.org/a}}) rest",
            '<p>(code (Code: <a href="https://x.org/a" rel="nofollow noopener">'
            "https://x.org/a</a>)) rest</p>",
        ),
        (
            r"\texttt{https://github.com/a/b} and \textbf{Code: {https://x.org/a}}",
            '<p><code><a href="https://github.com/a/b" rel="nofollow noopener">'
            "https://github.com/a/b</a></code> and <strong>Code: "
            '<a href="https://x.org/a" rel="nofollow noopener">https://x.org/a</a></strong></p>',
        ),
        # A link never shows another address than it leads to, nor a kept-aside stand-in.
        (
            r"\href{https://a.org}{https://b.org}",
            '<p><a href="https://a.org" rel="nofollow noopener">https://a.org</a></p>',
        ),
        (
            r"\url{https://a.com/[x](https://b.com/)}",
            '<p><a href="https://a.com/" rel="nofollow noopener">https://a.com/</a>'
            '<a href="https://b.com/" rel="nofollow noopener">x</a></p>',
        ),
    ],
)
def test_links_inside_latex_commands(abstract, html):
    assert render_abstract(abstract) == html
    assert "\x00" not in html


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        # An operator's name is set apart from its operands ("Llog L" was shown).
        (r"$\mathcal{O}(L\log L)$", "O(L log L)"),
        (r"O(d\log N), (x)\exp y", "O(d log N), (x) exp y"),
        (r"\log_2 n", "log₂ n"),
        # An empty argument is nothing (it wrote "None").
        (r"CoT\textbf{}", "CoT"),
    ],
)
def test_operators_and_empty_arguments_read_as_latex_sets_them(latex, text):
    assert plain_text(latex) == text


def test_a_snippet_reads_links_footnotes_and_ties_as_text():
    assert plain_text(r"Code: \href{https://x.org/a}{x.org/a}.") == "Code: x.org/a."
    assert plain_text(r"methods.\footnote{Code.} Next") == "methods. (Code.) Next"
    assert plain_text("translation~(NAT) on~9, 1~2") == "translation (NAT) on 9, 1~2"


def test_paragraphs_and_links():
    html = render_abstract("First https://github.com/a/b?x=1&y=2.\n\nSecond www.example.org, end")
    assert html == (
        '<p>First <a href="https://github.com/a/b?x=1&amp;y=2" rel="nofollow noopener">'
        "https://github.com/a/b?x=1&amp;y=2</a>.</p>\n"
        '<p>Second <a href="https://www.example.org" rel="nofollow noopener">www.example.org</a>, end</p>'
    )


def test_sentences_the_source_glued_together_are_spaced():
    html = render_abstract(
        "Relational tasks.However, see https://github.com/org/Some.Repo now.Next, e.g.The "
        "U.S.A. and J.R.R. Tolkien by ChatGPT.The end"
    )
    assert html == (
        "<p>Relational tasks. However, see "
        '<a href="https://github.com/org/Some.Repo" rel="nofollow noopener">'
        "https://github.com/org/Some.Repo</a> now. Next, e.g.The U.S.A. and J.R.R. Tolkien by "
        "ChatGPT.The end</p>"
    )
    # A snippet's highlight may start at the second sentence.
    marked = render_inline(f"graphs.{MARK_START}When{MARK_STOP} the")
    assert marked == "graphs. <mark>When</mark> the"


def test_markup_from_the_data_is_escaped():
    html = render_abstract(
        '<script>alert(1)</script> <img src=x onerror="alert(1)"> javascript:alert(1) '
        r'\textbf{<b onclick="alert(1)">x</b>} [click](javascript:alert(1)) "quoted" &amp;'
    )
    assert html == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&quot;alert(1)&quot;&gt; "
        "javascript:alert(1) <strong>&lt;b onclick=&quot;alert(1)&quot;&gt;x&lt;/b&gt;</strong> "
        "[click](javascript:alert(1)) &quot;quoted&quot; &amp;amp;</p>"
    )


def test_an_abstracts_simple_html_pairs_are_set_as_markup():
    # "LEN<sup>p</sup>" and "<i>Yes</i>" showed their tags (an outside researcher); only a
    # pair of these tags without attributes, its text escaped.
    assert render_abstract(
        "we propose LEN<sup>p</sup>, answer <i>Yes</i>, <b>1)</b> <sub>2</sub> <b>open <u>u</u>"
    ) == (
        "<p>we propose LEN<sup>p</sup>, answer <em>Yes</em>, <strong>1)</strong> <sub>2</sub> "
        "&lt;b&gt;open &lt;u&gt;u&lt;/u&gt;</p>"
    )
    assert render_inline("LEN<sup>p</sup> <i><script>x</script></i>") == (
        "LEN<sup>p</sup> &lt;i&gt;&lt;script&gt;x&lt;/script&gt;&lt;/i&gt;"
    )


def test_an_abstracts_dollars_hold_maths_where_they_hold_commands():
    # "$\rho-$zCDP … $\rho \in (0.3, 2)$" showed its dollars (an outside researcher).
    assert render_abstract(r"$\rho-$zCDP with $\rho \in (0.3, 2)$ at $x_1$") == (
        "<p>ρ-zCDP with ρ ∈ (0.3, 2) at x<sub>1</sub></p>"
    )
    # Prices stay: a pair opening on a figure or a space, or holding no maths.
    assert render_abstract(r"$5 for \alpha, $10 and $ x$ and $y$") == (
        "<p>$5 for α, $10 and $ x$ and $y$</p>"
    )


def test_url_cannot_break_out_of_the_attribute():
    html = render_abstract('see http://x.org/"onmouseover="alert(1) now')
    assert html == (
        '<p>see <a href="http://x.org/" rel="nofollow noopener">http://x.org/</a>'
        "&quot;onmouseover=&quot;alert(1) now</p>"
    )


def test_markdown_links_and_headings_in_welcome_text():
    html = render_abstract("### Welcome to ACL\n\n*Great pleasure.* [Read more](https://e.org/w)")
    assert html == (
        '<p class="lead-in"><strong>Welcome to ACL</strong></p>\n'
        '<p><em>Great pleasure.</em> <a href="https://e.org/w" rel="nofollow noopener">Read more</a></p>'
    )


def test_a_snippet_drops_markdown_emphasis_and_keeps_its_words():
    # Results showed "we propose **DiFair**, … *gender invariance score*" (an outside
    # researcher); a "**" whose pair the fragment cut off goes too.
    headline = f"we propose **{MARK_START}DiFair{MARK_STOP}**, a *gender invariance score* **Multi"
    assert render_snippet(headline) == (
        "we propose <mark>DiFair</mark>, a gender invariance score Multi"
    )
    # Not a name's asterisk nor a product's: "*SEM", "a * b"; nor a maths star or a
    # significance mark (a reviewer).
    assert render_snippet("at *SEM, a * b") == "at *SEM, a * b"
    assert plain_snippet("$x^*$ and $y^*$ hold") == "x^* and y^* hold"  # the maths read
    assert "<em>" not in render_abstract("$x^*$ and $y^*$ hold")  # nor on the paper's page
    for text in ["A^* wins (**p<0.01)", "marked (**)"]:
        assert plain_snippet(text) == text
    assert (
        plain_snippet("We use **M**ultiprompt *fine*tuning.") == "We use Multiprompt *fine*tuning."
    )


def test_a_snippet_reads_a_latex_group_its_fragments_cut_as_text():
    # '"\textbf{root-to-leaves … inference' showed the command (an outside researcher).
    headline = (
        f"we propose {MARK_START}TreeRAG{MARK_STOP}, with \\textbf{{root-to-leaves"
        f"{FRAGMENT_DELIMITER}inference}} on \\textbf{{Finance}} data"
    )
    assert render_snippet(headline) == (
        "we propose <mark>TreeRAG</mark>, with root-to-leaves … inference on "
        "<strong>Finance</strong> data"
    )
    assert render_snippet("labels in {0, 1} … of {x} and y") == "labels in {0, 1} … of {x} and y"
    # A bare brace a cut opened is the text's own: its end stays too (a reviewer).
    assert render_snippet("the sets {a, b … c} and d") == "the sets {a, b … c} and d"
    # A group's end the first fragment starts with goes (a reviewer: "exists?} To answer").
    assert render_snippet("… visual information exists?} To answer") == (
        "… visual information exists? To answer"
    )
    # A command inside another's group: "\text{\emph{in-}}" showed "\text<em>in-</em>".
    assert render_snippet(r"for \text{\emph{in-}} and \text{\emph{out-of-}} domains") == (
        "for <em>in-</em> and <em>out-of-</em> domains"
    )


def test_highlight_escapes_everything_but_the_marks():
    text = f"<b id=a>a</b> {MARK_START}cache{MARK_STOP} & {MARK_STOP}x {MARK_START}open"
    assert render_inline(text) == (
        "&lt;b id=a&gt;a&lt;/b&gt; <mark>cache</mark> &amp; x <mark>open</mark>"
    )


@pytest.mark.parametrize(
    "headline, html",
    [
        # ts_headline marks a name's pieces one by one ([ ] stand for its marks here): the
        # superscript is read all the same.
        ("[M]^[3][CoT]: A [Bench]", "<mark>M<sup>3</sup>CoT</mark>: A <mark>Bench</mark>"),
        ("M^[3][CoT]", "M<mark><sup>3</sup>CoT</mark>"),
        # A letter's subscript is marked whole, where it is one.
        ("[L]\\_[2] and L_[2]", "<mark>L<sub>2</sub></mark> and <mark>L<sub>2</sub></mark>"),
        ("Learning [h]_t states", "Learning <mark>h<sub>t</sub></mark> states"),
        ("[x]_[t]", "<mark>x<sub>t</sub></mark>"),
        ("snake_[case] and file_[2]", "snake_<mark>case</mark> and file_<mark>2</mark>"),
        (
            "www.a.org/[x]_[2] id=[a]_[1]",
            "www.a.org/<mark>x</mark>_<mark>2</mark> id=<mark>a</mark>_<mark>1</mark>",
        ),
        # Marks inside a braced script stay where they close inside it; none opens in a
        # <sup> and closes outside it.
        (
            "RED^{[FM]} KV_{[cache]}",
            "RED<sup><mark>FM</mark></sup> KV<sub><mark>cache</mark></sub>",
        ),
        ("[O](k^{[2]})", "<mark>O</mark>(k<sup><mark>2</mark></sup>)"),
        ("[x^{2]} y", "<mark>x</mark><sup>2</sup> y"),
        ("x^{[2} y]", "x<sup>2</sup><mark> y</mark>"),
    ],
)
def test_highlight_marks_keep_superscripts_and_subscripts_readable(headline, html):
    marked = headline.replace("[", MARK_START).replace("]", MARK_STOP)
    assert render_inline(marked) == html


@pytest.mark.parametrize(
    ("headline", "html"),
    [
        # A mark inside a command's name showed its LaTeX: "\\infty-former" on the card of
        # "∞-former", "\\ell₁" (an outside researcher).
        ("\\[infty]Bench: Long", "<mark>∞</mark>Bench: Long"),
        ("\\[infty]-former", "<mark>∞</mark>-former"),
        ("by \\[ell]_1 [Norm]", "by <mark>ℓ</mark><sub>1</sub> <mark>Norm</mark>"),
        # A command marked with more letters than its own is read unmarked.
        ("\\[inftyBench] x", "∞Bench x"),
        ("RED^{\\[textrm]{FM}}: a", "RED<sup>FM</sup>: a"),
        ("\\[textrm]{DuReader}_{\\textrm{vis}}", "DuReader<sub>vis</sub>"),
    ],
)
def test_highlight_marks_keep_latex_commands_readable(headline, html):
    marked = headline.replace("[", MARK_START).replace("]", MARK_STOP)
    assert render_inline(marked) == html


def test_bibtex():
    venue = SimpleNamespace(
        year=2025,
        booktitle="",
        full_name="Annual Meeting of the ACL",
        name="ACL 2025",
        month="July",
        location="Vienna, Austria",
        publisher="ACL & Co",
        # An editor the source names with one word has no given name to write.
        editors="Hopper, Grace\nTuring\n\n",
    )
    paper = SimpleNamespace(
        pk=7,
        bibkey="",
        title="Caching {KV} & 50% Less_Memory",
        venue=venue,
        pages="1-10",
        doi="10.1/x",
        url="https://aclanthology.org/x",
    )
    assert bibtex(paper, ["Ada Lovelace", "Alan Turing"]) == (
        "@inproceedings{lovelace2025caching-7,\n"
        "    title = {Caching \\{{KV}\\} \\& 50\\% Less\\_Memory},\n"
        "    author = {Ada Lovelace and Alan Turing},\n"
        "    editor = {Hopper, Grace and Turing},\n"
        "    booktitle = {Annual Meeting of the ACL},\n"
        "    year = {2025},\n"
        "    month = {July},\n"
        "    address = {Vienna, Austria},\n"
        "    publisher = {ACL \\& Co},\n"
        "    pages = {1--10},\n"
        "    doi = {10.1/x},\n"
        "    url = {https://aclanthology.org/x}\n"
        "}"
    )


def test_titles_render_their_latex_like_abstracts():
    assert render_inline(r"\texttt{ModSCAN}: Measuring <Bias> & More") == (
        "<code>ModSCAN</code>: Measuring &lt;Bias&gt; &amp; More"
    )
    assert render_inline(r"A Simple and Effective L\_2 Norm-Based Strategy") == (
        "A Simple and Effective L<sub>2</sub> Norm-Based Strategy"
    )
    assert render_inline(r"\inftyBench: Extending Long Context") == "∞Bench: Extending Long Context"
    assert render_inline(r"Refer360^{\circ}: RED^{\textrm{FM}} by \ell_{1}") == (
        "Refer360<sup>°</sup>: RED<sup>FM</sup> by ℓ<sub>1</sub>"
    )
    assert render_inline(r"Once Upon a {\it Time} in \textit{Graph}") == (
        "Once Upon a <em>Time</em> in <em>Graph</em>"
    )
    # A highlighted title keeps its marks around the rendered text.
    assert render_inline(f"\\texttt{{{MARK_START}ModSCAN{MARK_STOP}}}: x") == (
        "<code><mark>ModSCAN</mark></code>: x"
    )
    # Markup in the data never survives: it is escaped before any rule runs.
    assert render_inline(r"\textbf{<script>x</script>}") == (
        "<strong>&lt;script&gt;x&lt;/script&gt;</strong>"
    )


def test_bar_chart_escapes_labels():
    html = bar_chart([("<x>", 4, "/t/x/"), ("b", 2, "/t/b/"), ("none", 0, "/t/n/")], "Per <topic>")
    assert html.startswith('<ol class="bar-chart" aria-label="Per &lt;topic&gt;"><li>')
    assert '<a class="bar-label" href="/t/x/">&lt;x&gt;</a>' in html
    assert '<rect width="1000" height="10"/>' in html
    assert '<rect width="500" height="10"/>' in html
    assert '<span class="bar-count">4<span class="visually-hidden"> papers</span>' in html
    assert "/t/n/" not in html
    assert "<details" not in html
    assert bar_chart([], "empty") == ""


def test_bar_chart_shows_the_top_bars_and_the_rest_behind_more():
    items = [(f"Venue {n}", 20 - n, f"/v/{n}/") for n in range(18)]
    page = parse(bar_chart(items, "Per venue", top=15))
    shown, rest = page.find_all("ol", class_="bar-chart")
    assert [bar.find("a").text for bar in shown.find_all("li")] == [f"Venue {n}" for n in range(15)]
    assert page.find("summary").text == "3 more (12 papers)"
    assert (rest.attrs["start"], rest.attrs["aria_label"]) == ("16", "Per venue, continued")
    assert [bar.find("a").text for bar in rest.find_all("li")] == [
        "Venue 15",
        "Venue 16",
        "Venue 17",
    ]


def test_a_snippet_says_where_it_leaves_out_the_abstracts_beginning_or_end():
    abstract = (
        "Large models are costly. We study pruning for speed. It keeps accuracy. "
        "Code is public at our site."
    )
    start, stop = MARK_START, MARK_STOP
    middle = f"We study {start}pruning{stop} for speed"
    assert elided(middle, abstract) == f"… {middle} …"
    # Fragments of the start and the end: the cut between them is ts_headline's own.
    both = f"Large models are costly{FRAGMENT_DELIMITER}Code is public at our {start}site{stop}."
    assert elided(both, abstract) == both
    # A stop word and a full stop left out at the edges are put back.
    assert elided("models are costly", "The models are costly.") == "The models are costly."
    assert elided(f"study {start}pruning{stop}", "We study pruning") == (
        f"We study {start}pruning{stop}"
    )
    assert elided("", "") == ""


def test_fragments_a_word_or_two_apart_are_joined_by_those_words():
    abstract = (
        "Long contexts hide facts. This is the lost in the middle issue, which we study "
        "with retrieval over many documents."
    )
    start, stop = MARK_START, MARK_STOP
    # ts_headline cut "in" out of "lost in the middle" and put "…" in its place.
    headline = f"the {start}lost{stop}{FRAGMENT_DELIMITER}the {start}middle{stop} issue"
    assert (
        elided(headline, abstract) == f"… the {start}lost{stop} in the {start}middle{stop} issue …"
    )
    # Adjacent fragments: nothing was left out between them.
    assert elided(f"Long contexts{FRAGMENT_DELIMITER}hide facts.", abstract) == (
        "Long contexts hide facts. …"
    )
    # Three words or more left out: the cut stays.
    cut = f"Long contexts{FRAGMENT_DELIMITER}the lost in the middle issue"
    assert elided(cut, abstract) == f"{cut} …"


def test_a_query_is_quoted_once_in_the_sites_marks():
    assert quoted("kv cache") == "“kv cache”"
    # A phrase typed in straight quotes takes the site's marks in their place.
    assert quoted('"chain of thought"') == "“chain of thought”"
    assert quoted('"chain of thought') == "“chain of thought”"  # the closing quote is optional
    # Within a longer query each phrase is nested in single marks, an unclosed one closed.
    assert quoted('"kv" cache "eviction"') == "“‘kv’ cache ‘eviction’”"
    assert quoted('retrieval "augmented gen') == "“retrieval ‘augmented gen’”"
    assert quoted('"kv cache" "eviction"') == "“‘kv cache’ ‘eviction’”"
    # Curly marks typed already are not doubled.
    assert quoted("“chain of thought”") == "“chain of thought”"
