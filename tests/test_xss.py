"""Data is never markup: a hostile dump shows as text on every page, and no script runs.

The dump is a lecture page whose country, abstract, title, topics, welcome message and the
papers around it carry <script>, <img onerror>, javascript: links (raw and as markdown), HTML
entities and LaTeX wrapping a script. It is loaded with the real loader. The test client checks
that every page (list with a highlighted snippet, paper, similar, venue, topic, author, the
admin's changelist and change page) shows the hostile text escaped and never raw; Chromium then
opens the same pages and checks that no payload ran: no dialog, no error, and the window flag
every payload would set stays undefined. Every page carries a Content-Security-Policy.
"""

import pytest
from django.conf import settings
from django.test import Client

from papers.loading import load_files
from papers.models import Authorship, Paper, Topic, Venue
from tests import factories
from tests.conftest import CHROMIUM
from tests.support import parse

MARKER = "zyxhostile"  # a word only the hostile papers contain: the search finds them by it

# Each payload, if it ever ran, sets window.__xss (and would open a dialog).
SCRIPT = "<script>window.__xss='script';alert('script')</script>"
IMG = "<img src=x onerror=\"window.__xss='img';alert('img')\">"
SVG = "<svg onload=\"window.__xss='svg'\"></svg>"
LINK = "<a href=\"javascript:window.__xss='link'\">click me</a>"
MARKDOWN_LINK = "[click here](javascript:window.__xss='markdown')"
LATEX = "\\textbf{<script>window.__xss='latex'</script>}"
ATTRIBUTE_BREAKOUT = '" onmouseover="window.__xss=\'attribute\'" x="'
ENTITIES = "&lt;b&gt;not bold&lt;/b&gt; &amp; &quot;quoted&quot; &#60;i&#62;"

TITLE = f"<script>window.__xss='title'</script> {MARKER} <img src=x onerror=alert('title')> Title"
TOPICS = [
    "<script>window.__xss='topic'</script>",
    "<img src=x onerror=alert('topic')>",
    "&lt;b&gt;entity&amp;topic",
]
COUNTRY = "<img src=x onerror=alert('country')>"
ABSTRACT = (
    f"We study {MARKER} payloads in abstracts. {SCRIPT} Then an image {IMG} and a vector "
    f"{SVG} follow. A raw link {LINK} and a markdown one {MARKDOWN_LINK} come next. "
    f"LaTeX wraps one: {LATEX}. Entities stay text: {ENTITIES}. An attribute breakout "
    f"{ATTRIBUTE_BREAKOUT} ends it, and javascript:alert('bare') is no link."
)
WELCOME = (
    "### Welcome to The Hostile Workshop on Markup (HOSTILE 2025)\n"
    f"*<script>window.__xss='welcome'</script> welcome {IMG}*\n"
    "[Read more](javascript:window.__xss='welcome-link')"
)
OTHER_ABSTRACT = (
    f"A second {MARKER} study of payloads in abstracts and titles. <script>window.__xss="
    "'second'</script> It shares words with the first so that it is similar: payloads, "
    "abstracts, markup, escaping."
)
OTHER_TITLE = f"<b onclick=alert(1)>Second</b> {MARKER} Payloads &amp; Markup"
THIRD_ABSTRACT = (
    f"A third {MARKER} paper about payloads, markup and escaping in abstracts, with "
    "<iframe src=\"javascript:window.__xss='iframe'\"></iframe> an iframe."
)

HOSTILE_DUMP = "\n\n".join(
    [
        COUNTRY,
        ABSTRACT,
        "HOSTILE 2025",
        TITLE,
        *TOPICS,
        WELCOME,
        OTHER_ABSTRACT,
        OTHER_TITLE,
        THIRD_ABSTRACT,
        "<i>Third</i> Payloads of Markup",
        "Downloads",
        "Similar lecture",
        "<script>window.__xss='related'</script> Related",
    ]
)
AUTHOR = "<script>window.__xss='author'</script> Mallory"

# Fragments that must never reach a page raw (the payloads' working parts).
RAW = [
    "<script>window.__xss",
    "<img src=x",
    "<svg onload",
    '<a href="javascript:',
    'href="javascript:',
    "<iframe",
    "<b onclick",
    "<i>Third</i>",
    'onmouseover="window',
    "<b>entity",
    "<b>not bold",
]


def load_hostile(write_dump) -> dict:
    """The hostile dump loaded by the loader, plus an author (dumps carry none)."""
    summary = load_files([write_dump("hostile.txt", HOSTILE_DUMP)])
    assert summary.files == 1
    paper = Paper.objects.get(title=TITLE)
    others = list(Paper.objects.filter(abstract__contains=MARKER).exclude(pk=paper.pk))
    assert len(others) == 2
    author = factories.make_author(AUTHOR)
    for item in [paper, *others]:
        Authorship.objects.create(paper=item, author=author, position=1)
    factories.finish()
    assert paper.abstract == ABSTRACT
    assert sorted(paper.topics.values_list("name", flat=True)) == sorted(TOPICS)
    assert paper.country == COUNTRY
    venue = Venue.objects.get(name="HOSTILE 2025")
    assert "<script>" in venue.welcome_text
    return {"paper": paper, "others": others, "venue": venue, "author": author}


@pytest.fixture
def hostile(db, write_dump):
    return load_hostile(write_dump)


def public_urls(hostile) -> list[str]:
    paper = hostile["paper"]
    topics = Topic.objects.filter(paper_links__paper=paper).order_by("slug")
    return [
        "/",
        f"/?q={MARKER}",
        f"/?q={MARKER}+script",
        f"/?q=window+{MARKER}&sort=title",
        f"/api/papers/?q={MARKER}",
        f"/papers/{paper.pk}/",
        f"/papers/{paper.pk}/similar/",
        *(f"/papers/{other.pk}/" for other in hostile["others"]),
        "/venues/",
        f"/venues/{hostile['venue'].slug}/",
        f"/venues/{hostile['venue'].slug}/?q={MARKER}",
        "/topics/",
        *(f"/topics/{topic.slug}/" for topic in topics),
        f"/authors/{hostile['author'].slug}/",
        f"/?country={COUNTRY}",
    ]


def admin_urls(hostile) -> list[str]:
    paper = hostile["paper"]
    topic = Topic.objects.get(name=TOPICS[0])
    return [
        "/admin/papers/paper/",
        f"/admin/papers/paper/?q={MARKER}",
        f"/admin/papers/paper/{paper.pk}/change/",
        f"/admin/papers/paper/{hostile['others'][0].pk}/change/",
        "/admin/papers/topic/",
        f"/admin/papers/topic/{topic.pk}/change/",
        "/admin/papers/venue/",
        f"/admin/papers/venue/{hostile['venue'].pk}/change/",
        "/admin/papers/author/",
        f"/admin/papers/author/{hostile['author'].pk}/change/",
    ]


def assert_no_raw_payload(body: str, url: str) -> None:
    for fragment in RAW:
        assert fragment not in body, (url, fragment)
    # No link the data supplied points at javascript:, whatever its spelling.
    links = [node.attrs.get("href") or "" for node in parse(body).find_all(href=None)]
    assert [link for link in links if link.strip().lower().startswith("javascript:")] == [], url


# The fixed tags the LaTeX reading writes (papers/latex.py), besides the highlight's <mark>.
LATEX_TAGS = {"strong", "em", "code", "u", "sub", "sup"}


def only_marks(fragment, allowed=frozenset()) -> bool:
    """Whether <mark> (and the ``allowed`` tags) is the only markup in a parsed fragment."""
    return all(node.tag == "mark" or node.tag in allowed for node in fragment.iter())


# --- the test client ------------------------------------------------------------------------


def test_every_public_page_shows_the_payloads_as_text(client, hostile):
    paper = hostile["paper"]
    pages = {}
    for url in public_urls(hostile):
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        if not url.startswith("/api/"):  # JSON is data, checked below
            assert_no_raw_payload(body, url)
        pages[url] = body

    detail = pages[f"/papers/{paper.pk}/"]
    # The title, the abstract's every payload, topics and country: escaped, there as text.
    assert "&lt;script&gt;window.__xss=&#x27;title&#x27;&lt;/script&gt;" in detail
    assert "&lt;script&gt;window.__xss=&#x27;script&#x27;;alert(&#x27;script&#x27;)" in detail
    assert "&lt;img src=x onerror=&quot;window.__xss=&#x27;img&#x27;" in detail
    assert "&lt;svg onload=" in detail
    assert "&lt;a href=&quot;javascript:window.__xss=&#x27;link&#x27;&quot;&gt;click me" in detail
    # The markdown link to javascript: stays text (only http(s) links are made).
    assert "[click here](javascript:window.__xss=&#x27;markdown&#x27;)" in detail
    # LaTeX bold is formatted, and the script inside it stays text.
    assert "<strong>&lt;script&gt;window.__xss=&#x27;latex&#x27;&lt;/script&gt;</strong>" in detail
    # Entities in the data are shown as typed, not decoded into markup.
    assert "&amp;lt;b&amp;gt;not bold&amp;lt;/b&amp;gt; &amp;amp; &amp;quot;quoted" in detail
    assert "&amp;#60;i&amp;#62;" in detail
    # The attribute breakout cannot leave the meta description's attribute.
    assert "&quot; onmouseover=&quot;window.__xss=&#x27;attribute&#x27;&quot;" in detail
    assert "&lt;script&gt;window.__xss=&#x27;topic&#x27;&lt;/script&gt;" in detail
    assert "&lt;img src=x onerror=alert(&#x27;country&#x27;)&gt;" in detail
    assert "&amp;lt;b&amp;gt;entity&amp;amp;topic" in detail
    # The related title from the footer, and the author.
    assert "&lt;script&gt;window.__xss=&#x27;related&#x27;&lt;/script&gt; Related" in detail
    assert "&lt;script&gt;window.__xss=&#x27;author&#x27;&lt;/script&gt; Mallory" in detail
    # BibTeX is text inside <pre><code>: escaped too.
    assert "title = {&lt;script&gt;window.\\_\\_xss=&#x27;title&#x27;&lt;/script&gt;" in detail

    # The list with highlighted title and snippet: <mark> and the LaTeX reading's fixed tags are
    # the only markup added. (The snippet is cut by ts_headline, which leaves tags out; the
    # title keeps them, escaped.)
    listed = pages[f"/?q={MARKER}"]
    assert f"&lt;script&gt;window.__xss=&#x27;title&#x27;&lt;/script&gt; <mark>{MARKER}</mark>" in (
        listed
    )
    assert f"&lt;b onclick=alert(1)&gt;Second&lt;/b&gt; <mark>{MARKER}</mark>" in listed
    snippets = parse(listed).find_all("p", class_="snippet")
    assert len(snippets) == 3
    for snippet in snippets:
        assert MARKER in [mark.text for mark in snippet.find_all("mark")], snippet
        assert only_marks(snippet, LATEX_TAGS), snippet
    assert "&lt;script&gt;window.__xss=&#x27;topic&#x27;&lt;/script&gt;" in listed
    assert "&lt;script&gt;window.__xss=&#x27;author&#x27;&lt;/script&gt; Mallory" in listed
    # Without a query the snippet is the abstract's start, escaped whole.
    assert "&lt;script&gt;window.__xss=&#x27;second&#x27;&lt;/script&gt;" in pages["/"]

    similar = pages[f"/papers/{paper.pk}/similar/"]
    assert "&lt;script&gt;window.__xss=&#x27;title&#x27;&lt;/script&gt;" in similar
    assert "&lt;b onclick=alert(1)&gt;Second&lt;/b&gt;" in similar

    venue = pages[f"/venues/{hostile['venue'].slug}/"]
    assert "&lt;script&gt;window.__xss=&#x27;welcome&#x27;&lt;/script&gt;" in venue
    assert "[Read more](javascript:window.__xss=&#x27;welcome-link&#x27;)" in venue
    # Topic names in the venue's SVG chart are escaped as well.
    assert "&lt;img src=x onerror=alert(&#x27;topic&#x27;)&gt;" in venue

    topic_page = next(
        body for url, body in pages.items() if url.startswith("/topics/") and url != "/topics/"
    )
    assert "Topic: &lt;" in topic_page or "Topic: &amp;lt;" in topic_page
    assert (
        "&lt;script&gt;window.__xss=&#x27;author&#x27;&lt;/script&gt; Mallory"
        in pages[f"/authors/{hostile['author'].slug}/"]
    )
    # The JSON API gives the fields as data (served as JSON, never sniffed as HTML), and its
    # snippet, which is HTML, escaped: <mark> is its only markup.
    api = client.get(f"/api/papers/?q={MARKER}")
    assert api["Content-Type"] == "application/json"
    assert api["X-Content-Type-Options"] == "nosniff"
    results = {item["id"]: item for item in api.json()["results"]}
    assert results[paper.pk]["title"] == TITLE
    for item in results.values():
        assert only_marks(parse(item["snippet"]), LATEX_TAGS), item["snippet"]


def test_the_admin_shows_the_payloads_as_text(client, hostile, django_user_model):
    staff = django_user_model.objects.create_superuser("curator", "c@example.org", "pw-123456789")
    client.force_login(staff)
    for url in admin_urls(hostile):
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert_no_raw_payload(body, url)
        if url != "/admin/papers/venue/":  # the only list without a hostile column
            assert "&lt;script&gt;" in body or "&lt;img" in body or "&amp;lt;" in body, url
    change = client.get(f"/admin/papers/paper/{hostile['paper'].pk}/change/").content.decode()
    # Form fields hold the data as typed, escaped inside their textareas (text, no elements).
    form = parse(change)
    title = form.find("textarea", name="title")
    assert title.text.startswith("<script>window.__xss='title'") and not list(title.iter())
    abstract = form.find("textarea", name="abstract")
    assert abstract.text.startswith(f"We study {MARKER}") and not list(abstract.iter())
    assert "&lt;script&gt;window.__xss=&#x27;script&#x27;;alert(&#x27;script&#x27;)" in change
    assert "&amp;lt;b&amp;gt;not bold" in change


def test_pages_carry_a_content_security_policy_without_inline_script(client, hostile):
    for url in [*public_urls(hostile)[:8], "/admin/login/"]:
        policy = client.get(url, secure=True)["Content-Security-Policy"]
        assert "script-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url


# --- the browser ----------------------------------------------------------------------------


@pytest.fixture
def hostile_live(transactional_db, write_dump):
    """The hostile data committed (the live server reads it from another thread)."""
    return load_hostile(write_dump)


@pytest.fixture
def visit(browser, live_server):
    """Open pages and collect anything a payload would have done."""
    # The live server built its middleware with the production settings (HTTPS redirect on);
    # this header is what the TLS-terminating proxy sends in production.
    context = browser.new_context(
        base_url=live_server.url, extra_http_headers={"X-Forwarded-Proto": "https"}
    )
    page = context.new_page()
    events = {"dialogs": [], "errors": [], "policies": []}
    page.on("dialog", lambda dialog: (events["dialogs"].append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: events["errors"].append(str(error)))

    def open_page(url: str):
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        events["policies"].append(response.headers.get("content-security-policy", ""))
        # Give onerror/onload handlers (x is a broken image) the chance to fire.
        page.wait_for_load_state("load")
        page.wait_for_timeout(50)
        assert page.evaluate("typeof window.__xss") == "undefined", (
            url,
            page.evaluate("window.__xss"),
        )
        # No element the data supplied became markup.
        assert page.locator("img[src=x], svg[onload], iframe, b[onclick]").count() == 0, url
        assert page.locator("a[href^='javascript:' i]").count() == 0, url
        # Hover and click the text where the breakout and links would be.
        return page

    yield open_page, page, events
    context.close()
    assert events["dialogs"] == []
    assert events["errors"] == []


@pytest.mark.browser
@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)",
)
def test_no_payload_runs_in_the_browser(hostile_live, visit, live_server, django_user_model):
    open_page, page, events = visit
    # A control: on a blank page (no policy) such a payload runs and the check sees it.
    page.set_content("<img src=x onerror=\"window.__xss='control'\">")
    page.wait_for_function("window.__xss === 'control'", timeout=5000)
    page.evaluate("delete window.__xss")
    for url in public_urls(hostile_live):
        if url.startswith("/api/"):
            continue
        open_page(url)
    # The abstract is really shown as text: the reader sees the tags.
    open_page(f"/papers/{hostile_live['paper'].pk}/")
    abstract = page.locator(".abstract").inner_text()
    assert "<script>window.__xss='script';alert('script')</script>" in abstract
    assert "[click here](javascript:window.__xss='markdown')" in abstract
    assert "&lt;b&gt;not bold&lt;/b&gt;" in abstract
    page.locator(".abstract").hover()
    page.locator("h1").click()
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator("h1").inner_text().startswith("<script>window.__xss='title'</script>")

    # The admin, as a logged-in staff user: the session a log-in would make, as a cookie.
    staff = django_user_model.objects.create_superuser("curator", "c@example.org", "pw-123456789")
    session = Client()
    session.force_login(staff)
    cookie = session.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    for url in admin_urls(hostile_live):
        open_page(url)
        assert "/login/" not in page.url, url
    assert events["policies"] and all(
        "script-src 'self'" in policy and "unsafe-inline" not in policy
        for policy in events["policies"]
    ), events["policies"]
