"""Browsing as a reader does, in Chromium at 1366 px and on a 390 px phone, light and dark: no
page wider than the screen, the first result on the phone's first screen, facet counts equal to
what a click gives, every venue reachable from its facet, the form showing the URL after Back,
result rows with their links, and axe finding nothing serious anywhere.

Needs Debian's Chromium at /usr/bin/chromium, as tests/test_browser.py does.
"""

import re

import pytest

from papers.models import Author, Authorship, Paper, Venue
from tests.conftest import CHROMIUM
from tests.factories import finish, make_paper, make_topic, make_venue
from tests.support import assert_accessible

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
expect = pytest.importorskip("playwright.sync_api").expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SCREENS = [
    pytest.param(DESKTOP, "light", id="1366-light"),
    pytest.param(DESKTOP, "dark", id="1366-dark"),
    pytest.param(PHONE, "light", id="390-light"),
    pytest.param(PHONE, "dark", id="390-dark"),
]
VOLUMES = ("Short Papers", "System Demonstrations", "Student Research Workshop")
AUTHORS = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Katherine Johnson", "Edsger Dijkstra"]


@pytest.fixture
def collection(corpus):
    """The corpus, plus conferences of six years with their Findings and other volumes, papers
    with Anthology IDs and up to five authors, long topic and venue names: enough venues (20,
    in 11 conferences) and topics (10) that the facets fold and take more than a phone's
    screen."""
    acl = Venue.objects.get(slug="acl-2025")
    make_venue("Findings of ACL 2025", 2025, parent=acl, month="July")
    for year in range(2020, 2025):
        naacl = make_venue(f"NAACL {year}", year, acronym="NAACL", month="June")
        make_venue(f"Findings of NAACL {year}", year, acronym="NAACL", parent=naacl, month="June")
        if year > 2020:
            make_venue(f"EACL {year}", year, acronym="EACL", month="March")
    for name in VOLUMES:
        make_venue(f"ACL 2025 ({name})", 2025, parent=acl, month="July")
    for number, venue in enumerate(Venue.objects.exclude(slug__in=["acl-2025", "emnlp-2024"])):
        volume = f"{venue.year}.{venue.slug.replace(f'-{venue.year}', '')}.{number + 1}"
        make_paper(
            f"We study cross-lingual transfer of parsers, paper {number}, on treebanks.",
            title=f"Cross-lingual Parsing Study {number}",
            venue=venue,
            topics=[f"Multilinguality and Low-Resource Language Processing {number % 6}"],
            authors=AUTHORS[: 1 + number % 5],
            external_id=volume,
        )
    # What widened phone pages on the real collection: long words in a topic's name and
    # description (the topics table), an unbroken token in a matching snippet (the results).
    make_topic(
        "Retrieval-Augmented Psycholinguistics",
        description="Psycholinguistics-inspired, parameter-efficient retrieval-augmented models.",
    )
    make_paper(
        "Telescoping retrievers, code at https://github.com/organisation/"
        "telescoping-retrieval-augmented-generation-with-very-long-repository-names.",
        title="Telescoping Retrieval",
        venue=acl,
        topics=["Retrieval-Augmented Psycholinguistics"],
    )
    finish()
    return corpus


def screen(browsing, viewport, scheme="light", **options):
    return browsing.page(browsing.context(viewport=viewport, color_scheme=scheme, **options))


def every_page(corpus) -> list[str]:
    kv = corpus["kv"].pk
    return [
        "/",
        "/?q=cache",
        "/?q=telescoping",
        "/?sort=newest&venue=acl-2025",
        "/?q=nothingmatcheszz",
        f"/papers/{kv}/",
        f"/papers/{kv}/similar/",
        "/similar/",
        "/authors/ada-lovelace/",
        "/venues/",
        "/venues/acl-2025/",
        "/topics/",
        "/topics/attention/",
        "/trends/?topic=attention&topic=efficiency",
        f"/list/?ids={kv}",
        "/api/",
        "/admin/login/",
    ]


def results_count(page) -> str:
    return page.locator("#results-heading").inner_text().strip()


@pytest.mark.parametrize(("viewport", "scheme"), SCREENS)
def test_every_page_fits_the_screen_and_passes_axe(
    transactional_db, collection, browsing, viewport, scheme
):
    page = screen(browsing, viewport, scheme)
    for url in every_page(collection):
        page.goto(url)
        widths = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths == [viewport["width"], viewport["width"]], url
        assert_accessible(page)


def test_a_trend_table_of_a_topic_and_a_long_word_fits_a_phone(
    transactional_db, collection, browsing
):
    # "Summarization" beside "“hallucination”" was 396 px in a box of 358 (an outside tester).
    page = screen(browsing, PHONE)
    page.goto("/trends/?topic=retrieval-augmented-psycholinguistics&q=telescoping")
    widths = page.locator(".table-scroll").evaluate("box => [box.scrollWidth, box.clientWidth]")
    assert widths[0] == widths[1]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_first_result_is_on_a_phones_first_screen(transactional_db, collection, browsing, scheme):
    page = screen(browsing, PHONE, scheme)
    for url in ["/?q=parsing", "/?sort=newest", "/?venue=naacl-2024&venue=naacl-2023"]:
        page.goto(url)
        title = page.locator(".result-list > li .card-title").first.bounding_box()
        assert title["y"] + title["height"] <= PHONE["height"], url
        # The facets wait behind "Filters" and open on a tap.
        expect(page.locator("#facet-venue")).to_be_hidden()
        page.locator(".filters > summary").click()
        expect(page.locator("#facet-venue")).to_be_visible()
    # On a wide screen the facets are open beside the results, with no "Filters" to tap.
    wide = screen(browsing, DESKTOP, scheme)
    wide.goto("/?q=parsing")
    expect(wide.locator("#facet-venue")).to_be_visible()
    expect(wide.locator(".filters > summary")).to_be_hidden()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_venues_and_a_topics_charts_fold_on_a_phone(
    transactional_db, collection, browsing, scheme
):
    letter = "\n\n".join(["It is a pleasure to welcome you to Vienna for ACL 2025."] * 12)
    Venue.objects.filter(slug="acl-2025").update(welcome_text=letter)
    page = screen(browsing, PHONE, scheme)
    for url in ["/venues/acl-2025/", "/topics/attention/"]:
        page.goto(url)
        # The papers first: the charts and the chairs' letter are a line each, behind a tap.
        title = page.locator(".result-list > li .card-title").first.bounding_box()
        assert title["y"] + title["height"] <= PHONE["height"], url
        chart = page.locator(".phone-fold").last
        expect(chart.locator(".bar-chart").first).to_be_hidden()
        chart.locator("summary").click()
        expect(chart.locator(".bar-chart").first).to_be_visible()
    # On a wide screen they are open, as headed charts with nothing to tap.
    wide = screen(browsing, DESKTOP, scheme)
    for url in ["/venues/acl-2025/", "/topics/attention/"]:
        wide.goto(url)
        folds = wide.locator(".phone-fold")
        assert folds.evaluate_all("folds => folds.map(fold => fold.open)") == [True] * folds.count()
        expect(folds.last.locator(".bar-chart").first).to_be_visible()
        if url.startswith("/topics/"):
            expect(folds.first.locator(".fold-note")).to_be_hidden()  # the phone's summary
        # No control either: not a tab stop, and Enter on it leaves the chart open.
        summary = folds.last.locator("summary")
        expect(summary).to_have_attribute("tabindex", "-1")
        summary.focus()
        wide.keyboard.press("Enter")
        assert folds.last.evaluate("fold => fold.open") is True


def test_an_authors_name_written_otherwise_folds_on_a_phone(transactional_db, corpus, browsing):
    initialled = Author.objects.create(name="Ada K. Lovelace", slug="ada-k-lovelace")
    Authorship.objects.create(paper=corpus["retrieval"], author=initialled, position=3)
    page = screen(browsing, PHONE, "light")
    page.goto("/authors/ada-lovelace/")
    # The papers first: the other pages of the name are a line, behind a tap.
    title = page.locator(".result-list > li .card-title").first.bounding_box()
    assert title["y"] + title["height"] <= PHONE["height"]
    fold = page.locator("section.namesakes details")
    expect(fold.locator("li")).to_be_hidden()
    fold.locator("summary").click()
    expect(fold.locator("li")).to_have_text("Ada K. Lovelace, 1 paper · 2024 · with Ada Lovelace")
    assert_accessible(page)


def venue_links(page) -> dict[str, tuple[str, int]]:
    """{slug: (href, count)} of the venue facet's links, hidden ones included."""
    rows = page.locator(".venue-tree a[data-venue]").evaluate_all(
        "links => links.map(a => [a.dataset.venue, a.getAttribute('href'),"
        " a.querySelector('.count').firstChild.textContent])"
    )
    return {slug: (href, int(count.replace(",", ""))) for slug, href, count in rows}


@pytest.mark.parametrize("start", ["/?sort=newest", "/?q=parsing"])
def test_each_venue_count_is_what_clicking_it_gives(transactional_db, collection, browsing, start):
    page = screen(browsing, DESKTOP)
    page.goto(start)
    links = venue_links(page)
    if start == "/?sort=newest":
        # Every venue is in the facet, each once.
        assert sorted(links) == sorted(Venue.objects.values_list("slug", flat=True))
    else:
        assert len(links) == 18  # the venues with a parsing paper
    for slug, (href, count) in links.items():
        page.goto(href)
        expected = f"{count} paper" + ("s" if count != 1 else "")
        assert results_count(page) == expected, slug
        assert page.locator(".card").count() == count


def test_more_venues_open_in_their_series_place(transactional_db, collection, browsing):
    page = screen(browsing, DESKTOP)
    page.goto("/?sort=newest")
    facet = page.locator(".venue-facet")
    waiting = facet.locator(".event.is-more")
    assert waiting.count() > 0
    expect(waiting.first).to_be_hidden()
    summary = facet.locator(".venues-more > summary")
    expect(summary).to_have_text(re.compile(r"^Show \d+ more venues?$"), use_inner_text=True)
    summary.focus()
    page.keyboard.press("Enter")
    expect(waiting.first).to_be_visible()
    expect(summary).to_have_text("Show fewer venues", use_inner_text=True)
    # The keyboard goes on from the first venue shown, and a screen reader hears how many.
    expect(waiting.first.locator(".facet-link").first).to_be_focused()
    expect(page.locator("#announcer")).to_have_text(re.compile(r"^\d+ more venues? shown"))
    # Each series is listed once: its conferences in sight and those that waited together.
    names = facet.locator(".series-name").all_inner_texts()
    assert len(names) == len(set(names))
    summary.click()
    expect(waiting.first).to_be_hidden()


def test_reaching_a_folded_volume_on_a_phone(transactional_db, collection, browsing):
    page = screen(browsing, PHONE)
    page.goto("/?sort=newest")
    page.locator(".filters > summary").click()
    facet = page.locator(".venue-facet")
    volume = facet.locator(".venue-tree a[data-venue='findings-of-naacl-2021']")
    expect(volume).to_be_hidden()
    # The filter box narrows the tree and unfolds what matches.
    facet.get_by_label("Filter venue names").fill("findings of naacl 2021")
    expect(volume).to_be_visible()
    expect(facet.locator(".event:visible")).to_have_count(1)
    facet.get_by_label("Filter venue names").fill("")
    facet.locator(".facet-more > summary").click()
    event = facet.locator(".event", has=page.locator("a[data-venue='naacl-2021']"))
    event.locator(".volumes > summary").click()
    volume.click()
    page.wait_for_url(re.compile(r"venue=findings-of-naacl-2021"))
    assert results_count(page) == "1 paper"
    chip = page.locator(".active-filters a")
    expect(chip).to_have_text("Venue: Findings of NAACL 2021 ×")
    expect(chip).to_have_attribute("aria-label", "Remove filter Venue Findings of NAACL 2021")
    # The filters open again after a filter chosen in them; the selected venue is pinned at
    # the top of its facet, by its full name, and unfolded.
    expect(facet).to_be_visible()
    expect(facet.locator(".pinned a")).to_have_text(re.compile(r"^✓\s*Findings of NAACL 2021 1"))
    expect(volume).to_be_visible()
    # A selected venue of a series behind "Show N more venues" is in sight too, pinned: the other
    # venues stay folded (unfolded, they pushed the next facets a screen down).
    # (The eight conferences with the most papers are in sight: EACL 2021, of one paper, is
    # not one of them.)
    page.goto("/?sort=newest&venue=eacl-2021")
    page.locator(".filters > summary").click()
    expect(facet.locator(".pinned a[data-venue='eacl-2021']")).to_be_visible()
    expect(facet.locator(".venue-tree a[data-venue='eacl-2021']")).to_be_hidden()


def test_the_form_shows_the_urls_state_after_back(transactional_db, collection, browsing):
    page = screen(browsing, DESKTOP)
    page.goto("/?q=cache")
    box = page.get_by_label("Search papers")
    box.fill("attention")
    box.press("Enter")
    page.wait_for_url(re.compile(r"q=attention"))
    page.go_back()
    page.wait_for_url(re.compile(r"q=cache$"))
    expect(box).to_have_value("cache")
    assert results_count(page) == "2 papers"

    page.get_by_label("Sort by").select_option("title")
    page.wait_for_url(re.compile(r"sort=title"))
    expect(page.get_by_label("Sort by")).to_have_value("title")
    page.go_back()
    page.wait_for_url(re.compile(r"q=cache$"))
    expect(page.get_by_label("Sort by")).to_have_value("")
    expect(page.get_by_label("Search papers")).to_have_value("cache")

    # Text typed but not searched is not what the page shows after Back either.
    page.get_by_label("Search papers").fill("typed, never sent")
    page.locator(".card-title a").first.click()
    page.wait_for_url(re.compile(r"/papers/\d+/"))
    page.go_back()
    expect(page.get_by_label("Search papers")).to_have_value("cache")


def test_result_rows_link_authors_pdf_and_anthology(transactional_db, collection, browsing):
    page = screen(browsing, DESKTOP)
    page.goto("/?q=%22Cross-lingual+Parsing+Study+4%22")
    paper = Paper.objects.get(title="Cross-lingual Parsing Study 4")
    row = page.locator(f".card[data-paper-id='{paper.pk}']")
    authors = row.locator(".authors")
    expect(authors).to_have_text("Ada Lovelace, Alan Turing, Grace Hopper et al.")
    assert authors.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))") == [
        "/authors/ada-lovelace/",
        "/authors/alan-turing/",
        "/authors/grace-hopper/",
    ]
    venue = paper.venue
    expect(row.locator(".meta")).to_have_text(f"{venue.name} · {venue.month} {venue.year}")
    pdf = row.get_by_role("link", name=re.compile("^PDF"))
    assert pdf.get_attribute("href") == f"https://aclanthology.org/{paper.external_id}.pdf"
    anthology = row.get_by_role("link", name=re.compile("^Anthology"))
    assert anthology.get_attribute("href") == f"https://aclanthology.org/{paper.external_id}/"
    assert "score" not in row.inner_text()
    # A paper from a dump, without an Anthology ID, has neither link.
    page.goto("/?q=yoruba")
    expect(page.locator(".card").first.get_by_role("link", name=re.compile("^PDF"))).to_have_count(
        0
    )


def test_the_front_page_opens_on_search_venues_and_complete_records(
    transactional_db, collection, browsing
):
    page = screen(browsing, PHONE)
    page.goto("/")
    grid = page.locator("table.venue-grid")
    assert grid.locator("thead th").all_inner_texts() == [
        "Series",
        "2025",
        "2024",
        "2023",
        "2022",
        "2021",
        "2020",
    ]
    assert grid.locator("tbody th").all_inner_texts() == ["NAACL", "ACL", "EACL", "EMNLP"]
    titles = page.locator(".result-list .card-title").all_inner_texts()
    assert "Speech recognition systems struggle with accented speech derived title" not in titles
    assert len(titles) == 10
    page.get_by_label("Search papers").fill("parsing")
    page.get_by_role("button", name="Search", exact=True).click()
    page.wait_for_url(re.compile(r"q=parsing"))
    assert results_count(page) == "18 papers"


def test_on_a_phone_every_link_the_keyboard_reaches_is_in_sight(transactional_db, corpus, browsing):
    # "Find papers like a text" was hidden by clipping on phones, and took the keyboard's
    # focus out of sight.
    page = screen(browsing, PHONE)
    page.goto("/?q=cache")
    unseen = []
    for _ in range(25):
        page.keyboard.press("Tab")
        # What a tap at the centre of the focused element's first line would reach: itself,
        # unless clipped away.
        text, seen = page.evaluate(
            "() => { const e = document.activeElement, r = e.getClientRects()[0];"
            " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
            " return [e.textContent.trim(), hit !== null && (e === hit || e.contains(hit))]; }"
        )
        if not seen:
            unseen.append(text)
    assert unseen == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_highlight_in_a_title_keeps_the_links_colour(transactional_db, corpus, browsing, scheme):
    page = screen(browsing, DESKTOP, scheme)
    page.goto("/?q=evicting")
    mark = page.locator(".card-title a mark").first
    link_colour = {"light": "rgb(11, 87, 164)", "dark": "rgb(207, 230, 255)"}[scheme]
    expect(mark).to_have_css("color", link_colour)


def test_a_facets_filter_box_tells_how_many_rows_it_leaves(transactional_db, collection, browsing):
    page = screen(browsing, DESKTOP)
    page.goto("/?q=parsing")
    box = page.locator(".venue-facet input.facet-filter")
    rows = page.locator(".venue-facet [data-filter-text]")
    total = rows.count()
    box.fill("naacl")
    shown = page.locator(".venue-facet [data-filter-text]:not([hidden])").count()
    assert 0 < shown < total
    expect(page.locator("#announcer")).to_have_text(f"{shown} of {total} shown.")


def test_a_venue_filter_box_shows_the_volumes_it_names_and_says_when_none(
    transactional_db, collection, browsing
):
    page = screen(browsing, DESKTOP)
    page.goto("/?sort=newest")
    facet = page.locator(".venue-facet")
    box = facet.locator("input.facet-filter")
    box.fill("findings")
    # Of each conference with a Findings volume, that volume; its main one dimmed, for its
    # place (every volume of those conferences was shown).
    volumes = facet.locator(".volumes a.facet-link:visible")
    assert volumes.count() > 0
    assert all("Findings" in name for name in volumes.all_inner_texts())
    heads = facet.locator(".event:visible > a.facet-link")
    assert heads.count() == facet.locator(".event:visible").count() > 0
    assert heads.evaluate_all("links => links.every(l => l.matches('.filter-context'))")
    expect(facet.locator(".venues-more > summary")).to_be_hidden()
    expect(facet.locator("[data-filter-none]")).to_be_hidden()
    box.fill("zzzz")
    expect(facet.locator(".event:visible")).to_have_count(0)
    expect(facet.locator("[data-filter-none]")).to_have_text("No name here has “zzzz”.")
    box.fill("")
    expect(facet.locator("[data-filter-none]")).to_be_hidden()
    expect(facet.locator(".venues-more > summary")).to_be_visible()
    # A topic facet's fold holds rows: one of them is found, its fold open, its summary hidden.
    topics = page.locator("section.facet[aria-labelledby='facet-topic']")
    folded = topics.locator(".facet-more li[data-filter-text]").first
    name = folded.get_attribute("data-filter-text")
    topics.locator("input.facet-filter").fill(name)
    expect(folded).to_be_visible()
    expect(topics.locator(".facet-more > summary")).to_be_hidden()
    expect(topics.locator("[data-filter-none]")).to_be_hidden()


def test_show_results_on_a_phone_takes_the_focus_to_the_results(
    transactional_db, collection, browsing
):
    page = screen(browsing, PHONE)
    page.goto("/?q=parsing")
    page.locator("details[data-filters] > summary").click()
    page.locator("[data-filters-done]").click()
    # It was left on the page's body, behind the closed filters.
    expect(page.locator("#results-heading")).to_be_focused()
