"""The site in Chromium through Playwright: search, facet, paper, similar, copy BibTeX, axe.

Needs Debian's Chromium at /usr/bin/chromium (apt package chromium); without it the tests
skip and say so. CI (.ci/run) installs it, and there they run.
"""

import re

import pytest

from tests.conftest import CHROMIUM
from tests.factories import finish, make_paper
from tests.support import assert_accessible

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]


@pytest.fixture
def page(browser, live_server):
    # The session-wide live server built its middleware with the production settings
    # (HTTPS redirect on); this header is what the TLS-terminating proxy sends in production.
    context = browser.new_context(
        base_url=live_server.url, extra_http_headers={"X-Forwarded-Proto": "https"}
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (errors.append("dialog: " + dialog.message), dialog.dismiss()))
    yield page
    context.close()
    assert errors == []


def test_search_facet_paper_similar_copy(transactional_db, corpus, page):
    page.goto("/")
    assert_accessible(page)
    page.get_by_label("Search papers").fill("kv cache")
    page.get_by_role("button", name="Search", exact=True).click()
    page.wait_for_url(re.compile(r"q=kv\+cache"))
    assert page.locator("#results-heading").inner_text().strip() == "2 papers"
    assert page.locator(".card-title mark").first.inner_text() == "KV"
    assert_accessible(page)

    page.locator(".facet-link", has_text="ACL 2025").click()
    page.wait_for_url(re.compile(r"venue=acl-2025"))
    assert page.locator("#results-heading").inner_text().strip() == "2 papers"
    page.locator(".facet-link", has_text="China").click()
    page.wait_for_url(re.compile(r"country=China"))
    assert page.locator("#results-heading").inner_text().strip() == "1 paper"
    assert_accessible(page)

    page.get_by_role("link", name="Quantised KV Cache Compression").click()
    page.wait_for_url(f"**/papers/{corpus['cache2'].pk}/")
    assert page.locator("h1").inner_text() == "Quantised KV Cache Compression"
    assert_accessible(page)

    copy = page.get_by_role("button", name="Copy BibTeX")
    copy.click()
    page.get_by_text("Copied to the clipboard.").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("@inproceedings{lovelace2025quantised-")
    assert "title = {Quantised {KV} Cache Compression}" in copied

    page.get_by_role("link", name="More similar papers, with scores").click()
    page.wait_for_url(f"**/papers/{corpus['cache2'].pk}/similar/")
    first = page.locator(".card-title a").first
    assert first.inner_text() == "Evicting the KV Cache for Long-Context Inference"
    assert "cache" in page.locator(".shared").first.inner_text()
    assert_accessible(page)


def test_sort_select_submits_on_change(transactional_db, corpus, page):
    page.goto("/?q=attention")
    page.get_by_label("Sort by").select_option("title")
    page.wait_for_url(re.compile(r"sort=title"))
    titles = page.locator(".card-title a").all_inner_texts()
    assert titles == sorted(titles, key=str.lower)


def test_other_pages_are_accessible(transactional_db, corpus, page):
    for url in [
        "/venues/",
        "/venues/acl-2025/",
        "/topics/",
        "/topics/attention/",
        "/authors/ada-lovelace/",
        "/?q=nothingmatcheszz",
        "/?page=abc",
    ]:
        page.goto(url)
        assert_accessible(page)
    page.emulate_media(color_scheme="dark")
    for url in ["/?q=cache", "/venues/acl-2025/", f"/papers/{corpus['kv'].pk}/"]:
        page.goto(url)
        assert_accessible(page)


def test_hostile_data_runs_no_script(transactional_db, page):
    paper = make_paper(
        '<script>alert("abstract")</script> <img src=x onerror=alert("img")> cache',
        title='<img src=x onerror=alert("title")> cache',
        topics=['<script>alert("topic")</script>'],
    )
    finish()
    for url in [
        "/",
        "/?q=cache",
        f"/papers/{paper.pk}/",
        f"/papers/{paper.pk}/similar/",
        "/topics/",
    ]:
        page.goto(url)
        assert page.locator("img[src=x]").count() == 0
    # The page fixture fails the test if any dialog opened or script error happened.
