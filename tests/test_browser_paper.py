"""The paper page and people's pages in Chromium: the PDF, separate people, honest citations.

Needs Debian's Chromium at /usr/bin/chromium, as tests/test_browser.py does. Each page is seen
at 1366 px in light and at 390 px in dark, and never scrolls sideways on the phone.
"""

import pytest

from papers.loading import load_files
from tests.conftest import CHROMIUM
from tests.support import assert_accessible
from tests.test_people import anthology_xml, author

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
SCREENS = [({"width": 1366, "height": 900}, "light"), ({"width": 390, "height": 844}, "dark")]
UNTITLED_ABSTRACT = (
    "Large language models are increasingly deployed in settings where their outputs must be "
    "verified by people who cannot read the inputs, which we study in this paper. More follows."
)


@pytest.fixture
def collection(transactional_db, tmp_path):
    """2024.acl-long.1–4: a LaTeX title with two people named Yang Liu apart, an untitled paper."""
    xml = anthology_xml(
        (
            r"<tex-math>\texttt{ModSCAN}</tex-math>: Measuring Stereotypical Bias",
            [author("Yang Liu", "yang-liu-edinburgh"), author("Ann Lee")],
        ),
        ("ICT Translation", [author("Yang Liu", "yang-liu-ict")]),
        ("Unattributed Work", [author("Yang Liu")]),
        ("", [author("Ann Lee")]),
    ).replace(
        "<abstract>Abstract of , paper 4.</abstract>", f"<abstract>{UNTITLED_ABSTRACT}</abstract>"
    )
    path = tmp_path / "2024.acl.xml"
    path.write_text(xml, encoding="utf-8")
    load_files([path])


def screens(browsing):
    for viewport, scheme in SCREENS:
        page = browsing.page(browsing.context(viewport=viewport, color_scheme=scheme))
        yield page, viewport["width"]


def assert_fits(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def test_the_pdf_is_the_first_action_and_in_the_meta_tags(collection, browsing):
    for page, width in screens(browsing):
        page.goto("/papers/2024.acl-long.1/")
        first = page.locator(".paper-actions a").first
        assert first.inner_text() == "PDF"
        assert first.get_attribute("href") == "https://aclanthology.org/2024.acl-long.1.pdf"
        pdf_meta = page.locator('meta[name="citation_pdf_url"]')
        assert pdf_meta.get_attribute("content") == "https://aclanthology.org/2024.acl-long.1.pdf"
        assert page.locator("h1 code").inner_text() == "ModSCAN"
        assert page.title().startswith("ModSCAN: Measuring Stereotypical Bias")
        canonical = page.locator('link[rel="canonical"]').get_attribute("href")
        assert canonical.endswith("/papers/2024.acl-long.1/")
        assert_fits(page, width)
        assert_accessible(page)


def test_people_the_anthology_separates_have_their_own_pages(collection, browsing):
    for page, width in screens(browsing):
        page.goto("/papers/2024.acl-long.1/")
        page.locator(".authors").get_by_role("link", name="Yang Liu").click()
        page.wait_for_url("**/authors/yang-liu-edinburgh/")
        # (The list rows' titles are the list template's: only which paper is checked here.)
        cards = page.locator(".card-title").all_inner_texts()
        assert len(cards) == 1 and cards[0].endswith(": Measuring Stereotypical Bias")
        assert_fits(page, width)
        assert_accessible(page)
        namesakes = page.locator(".namesakes li")
        assert namesakes.all_inner_texts() == [
            "Yang Liu (papers not attributed to one person), 1 paper · 2024",
            "Yang Liu (yang-liu-ict), 1 paper · 2024",
        ]
        namesakes.nth(1).get_by_role("link").click()
        page.wait_for_url("**/authors/yang-liu-ict/")
        assert page.locator(".card-title").all_inner_texts() == ["ICT Translation"]
        page.goto("/authors/yang-liu/")
        assert page.locator("#namesakes-heading").inner_text() == "People named Yang Liu"
        assert page.locator(".card-title").all_inner_texts() == ["Unattributed Work"]
        assert_fits(page, width)
        assert_accessible(page)


def test_no_citation_export_carries_a_derived_title(collection, browsing):
    for page, width in screens(browsing):
        page.goto("/papers/2024.acl-long.4/")
        title = page.locator("h1").inner_text()
        assert title.endswith("…")  # shown, marked as derived, and never cited
        assert page.locator('meta[name^="citation_"]').count() == 0
        cite = page.locator("section[aria-labelledby=cite-heading]")
        assert "This record is incomplete" in cite.inner_text()
        assert "…" not in cite.inner_text()
        assert_fits(page, width)
        assert_accessible(page)
        for url in ("/list/?ids={}&format={}", "/?format={1}", "/authors/ann-lee/?format={1}"):
            for name in ("bibtex", "ris", "csljson"):
                response = page.request.get(url.format(_paper_id(page), name))
                assert response.ok
                assert "…" not in response.text()
                assert "Large language models" not in response.text()


def _paper_id(page) -> str:
    return page.locator(".paper-actions .save-toggle").get_attribute("data-save")
