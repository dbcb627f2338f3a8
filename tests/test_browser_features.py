"""Reading lists, exports, feeds, trends and keyboard browsing in Chromium through Playwright.

Needs Debian's Chromium at /usr/bin/chromium, as tests/test_browser.py does.
"""

import json
import re
import xml.etree.ElementTree as ET

import bibtexparser
import jsonschema
import pytest
import rispy

from tests.conftest import CHROMIUM
from tests.support import assert_accessible
from tests.test_exports import CSL_SCHEMA
from tests.test_feeds import assert_valid_atom

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
expect = pytest.importorskip("playwright.sync_api").expect


def saved(page) -> list[str]:
    return page.evaluate("JSON.parse(localStorage.getItem('papers:list') || '[]')")


def card_ids(page) -> list[str]:
    return page.locator(".reading-list > li").evaluate_all(
        "rows => rows.map(row => row.dataset.paperId)"
    )


def test_saving_from_three_kinds_of_page_then_the_list_page(transactional_db, corpus, browsing):
    page = browsing.page()
    kv, cache2 = corpus["kv"], corpus["cache2"]
    page.goto("/?q=cache")
    row = page.locator(f"li[data-paper-id='{cache2.pk}']")
    row.get_by_role("button", name="Save “Quantised KV Cache Compression” to my list").click()
    expect(row.locator(".save-toggle")).to_have_attribute("aria-pressed", "true")
    # Saved, it says so: "✓ Saved", seen and heard (the name holds the word seen).
    seen = row.locator(".save-toggle").evaluate(
        "b => [['.save-mark', '::before'], ['.save-word', null], ['.save-word', '::after']]"
        ".map(([part, pseudo]) => pseudo ? getComputedStyle(b.querySelector(part), pseudo)"
        ".content.replaceAll('\"', '') : b.querySelector(part).textContent).join('')"
    )
    assert seen == "✓ Saved"
    button = row.get_by_role("button", name="Saved “Quantised KV Cache Compression” to my list")
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".my-list-count")).to_have_text(" (1)")
    expect(page.locator("#announcer")).to_have_text(
        "Saved to your list: Quantised KV Cache Compression."
    )

    page.goto(f"/papers/{kv.pk}/")
    page.locator("article .row-actions .save-toggle").click()
    expect(page.locator("article .row-actions .save-toggle")).to_have_attribute(
        "aria-pressed", "true"
    )

    page.goto(f"/papers/{kv.pk}/similar/")
    # The similar papers of the KV cache paper: the other cache paper (saved already) first.
    cards = page.locator(".result-list > li")
    assert cards.first.get_attribute("data-paper-id") == str(cache2.pk)
    expect(cards.first.locator(".save-toggle")).to_have_attribute("aria-pressed", "true")
    similar_id = cards.nth(1).get_attribute("data-paper-id")
    cards.nth(1).locator(".save-toggle").click()
    assert saved(page) == [str(cache2.pk), str(kv.pk), similar_id]

    page.get_by_role("link", name=re.compile("^My list")).click()
    expected = f"{cache2.pk},{kv.pk},{similar_id}"
    page.wait_for_url(f"**/list/?ids={expected}")
    assert card_ids(page) == [str(cache2.pk), str(kv.pk), similar_id]
    assert page.locator("#share-url").input_value().endswith(f"/list/?ids={expected}")
    expect(page.locator(".adopt")).to_be_hidden()
    assert_accessible(page)

    # The first row cannot move up, the last down: their buttons look unavailable.
    ends = page.locator(".reading-list .move-up[aria-disabled='true']")
    expect(ends).to_have_count(1)
    assert ends.locator("xpath=ancestor::li").get_attribute("data-paper-id") == str(cache2.pk)
    page.locator(f"li[data-paper-id='{cache2.pk}'] .move-down").click()
    assert card_ids(page) == [str(kv.pk), str(cache2.pk), similar_id]
    expect(page.locator(f"li[data-paper-id='{kv.pk}'] .move-up")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.locator(f"li[data-paper-id='{similar_id}'] .move-down")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.locator(f"li[data-paper-id='{cache2.pk}'] .move-up")).to_have_attribute(
        "aria-disabled", "false"
    )
    assert saved(page) == [str(kv.pk), str(cache2.pk), similar_id]
    assert page.url.endswith(f"/list/?ids={kv.pk},{cache2.pk},{similar_id}")
    expect(page.locator("#announcer")).to_have_text(
        "Moved Quantised KV Cache Compression to position 2 of 3."
    )
    page.locator(f"li[data-paper-id='{similar_id}'] .move-up").click()
    page.locator(f"li[data-paper-id='{kv.pk}'] .remove").click()
    assert card_ids(page) == [similar_id, str(cache2.pk)]
    assert saved(page) == [similar_id, str(cache2.pk)]
    assert page.locator("#share-url").input_value().endswith(f"/list/?ids={similar_id},{cache2.pk}")
    expect(page.locator("#list-status")).to_have_text("2 papers.")
    # The export links hold the two papers, and their label says so (it said "these 3").
    expect(page.locator(".exports-label")).to_have_text("Export these 2 papers:")
    expect(page).to_have_title(re.compile(r"^Reading list \(2\) "))
    page.reload()
    assert card_ids(page) == [similar_id, str(cache2.pk)]
    # On one's own list a row offers Remove, not a second button doing the same ("✓ Saved").
    expect(page.locator(f"li[data-paper-id='{cache2.pk}'] .save-toggle")).to_be_hidden()
    expect(page.locator(f"li[data-paper-id='{cache2.pk}'] .remove")).to_be_visible()
    expect(page.locator(".adopt")).to_be_hidden()


def test_shared_list_opens_in_a_fresh_browser(transactional_db, corpus, browsing):
    ids = f"{corpus['translation'].pk},{corpus['kv'].pk}"
    page = browsing.page()
    page.goto("/list/")
    expect(page.locator(".list-empty")).to_be_visible()
    assert_accessible(page)
    page.goto(f"/list/?ids={ids}")
    assert card_ids(page) == ids.split(",")
    assert saved(page) == []
    expect(page.locator(".adopt")).to_be_visible()
    assert_accessible(page)
    # With nothing saved, adding is making it one's list: one button only.
    expect(page.get_by_role("button", name="Add them to my list")).to_be_hidden()
    page.get_by_role("button", name="Make this my list").click()
    assert saved(page) == ids.split(",")
    expect(page.locator(".adopt")).to_be_hidden()
    expect(page.locator(".save-toggle[aria-pressed='true']")).to_have_count(2)
    # Another shared list joins one's own after the papers saved, each once.
    page.goto(f"/list/?ids={corpus['cache2'].pk},{corpus['kv'].pk}")
    page.get_by_role("button", name="Add them to my list").click()
    assert saved(page) == [*ids.split(","), str(corpus["cache2"].pk)]
    expect(page.locator("#announcer")).to_have_text(
        "Added 1 paper to your list, after the 2 saved."
    )
    expect(page.locator(".adopt")).to_be_visible()
    # Nothing is left to add, and the page says so (the button stayed: an outside tester).
    expect(page.get_by_role("button", name="Add them to my list")).to_be_hidden()
    expect(page.locator(".list-held")).to_have_text("Your list holds all these papers.")
    # Making another list one's own replaces the three saved: once, they can be brought back.
    former = saved(page)
    page.goto(f"/list/?ids={corpus['translation'].pk}")
    page.get_by_role("button", name="Make this my list").click()
    assert saved(page) == [str(corpus["translation"].pk)]
    expect(page.locator("#announcer")).to_have_text(
        "This list is now your list. It replaced your former list of 3 papers: "
        "“Bring back my former list” undoes it."
    )
    # The way back outlives the page (it was lost as soon as the reader left it).
    page.goto("/")
    page.goto("/list/")
    page.get_by_role("button", name="Bring back my former list (3 papers)").click()
    assert saved(page) == former
    expect(page.locator(".undo-adopt")).to_be_hidden()
    assert page.evaluate("document.activeElement.tagName") == "H1"
    expect(page.locator(".adopt")).to_be_visible()
    expect(page.locator("#announcer")).to_have_text("Your former list of 3 papers is back.")
    # Kept instead, the former list is let go: not offered again.
    page.get_by_role("button", name="Make this my list").click()
    page.get_by_role("button", name="Keep this one").click()
    expect(page.locator("#announcer")).to_have_text("Your former list of 3 papers is let go.")
    page.goto("/list/")
    expect(page.locator(".list-page[data-own='true']")).to_have_count(1)
    expect(page.locator(".undo-adopt")).to_be_hidden()

    # With no script at all the list is the same; the buttons that need a script stay hidden.
    plain = browsing.page(browsing.context(java_script_enabled=False))
    plain.goto(f"/list/?ids={ids}")
    assert card_ids(plain) == ids.split(",")
    assert plain.locator(".reading-list h2").all_inner_texts() == [
        "Parallel Data for Yoruba Translation",
        "Evicting the KV Cache for Long-Context Inference",
    ]
    expect(plain.locator(".save-toggle").first).to_be_hidden()


def test_tabs_stay_in_step(transactional_db, corpus, browsing):
    context = browsing.context()
    first, second = browsing.page(context), browsing.page(context)
    first.goto("/")
    second.goto(f"/papers/{corpus['kv'].pk}/")
    first.locator(f"li[data-paper-id='{corpus['kv'].pk}'] .save-toggle").click()
    toggle = second.locator("article .row-actions .save-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(second.locator(".my-list-count")).to_have_text(" (1)")
    toggle.click()
    expect(first.locator(f"li[data-paper-id='{corpus['kv'].pk}'] .save-toggle")).to_have_attribute(
        "aria-pressed", "false"
    )


def download_text(page, name) -> tuple[str, str]:
    with page.expect_download() as info:
        page.locator(".exports").get_by_role("link", name=name, exact=True).click()
    download = info.value
    with open(download.path(), encoding="utf-8") as file:
        return download.suggested_filename, file.read()


def test_each_export_format_downloads_and_parses(transactional_db, corpus, browsing):
    page = browsing.page()
    ids = [corpus[name].pk for name in ("retrieval", "speech", "kv")]
    page.goto("/list/?ids=" + ",".join(map(str, ids)))
    titles = [
        "Noisy Retrieval Hurts Faithfulness",
        "Evicting the KV Cache for Long-Context Inference",
    ]

    name, text = download_text(page, "BibTeX")
    assert name == "reading-list.bib"
    entries = bibtexparser.loads(text).entries
    # Only the acronym is braced, not the whole title.
    assert [entry["title"] for entry in entries] == [
        "Noisy Retrieval Hurts Faithfulness",
        "Evicting the {KV} Cache for Long-Context Inference",
    ]
    assert entries[1]["author"] == "Ada Lovelace and Alan Turing"

    name, text = download_text(page, "RIS")
    assert name == "reading-list.ris"
    records = rispy.loads(text)
    assert [record["title"] for record in records] == titles
    assert records[0]["authors"] == ["Hopper, Grace", "Lovelace, Ada"]

    name, text = download_text(page, "CSL-JSON")
    assert name == "reading-list.json"
    items = json.loads(text)
    jsonschema.validate(items, CSL_SCHEMA)
    assert [item["title"] for item in items] == titles
    assert items[0]["issued"] == {"date-parts": [[2024]]}


def test_feed_linked_from_a_venue_page_is_valid_atom(transactional_db, corpus, browsing):
    page = browsing.page()
    page.goto("/venues/acl-2025/")
    href = page.locator("link[rel=alternate][type='application/atom+xml']").get_attribute("href")
    assert href == "/feeds/venues/acl-2025/"
    response = page.request.get(href)
    assert response.headers["content-type"] == "application/atom+xml; charset=utf-8"
    root = ET.fromstring(response.body())  # our own output
    assert_valid_atom(root)
    entries = root.findall("{http://www.w3.org/2005/Atom}entry")
    assert len(entries) == 3


def test_trends_chart_for_two_topics(transactional_db, corpus, browsing):
    page = browsing.page()
    page.goto("/trends/")
    page.get_by_label("Topic 1").select_option("attention")
    page.get_by_label("Topic 2").select_option("efficiency")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(re.compile(r"topic=attention&topic=efficiency"))
    chart = page.locator("svg.trend-chart")
    expect(chart.locator("polyline")).to_have_count(2)
    assert chart.locator("desc").text_content() == (
        "attention: 2024 50.0%, 2025 33.3%; efficiency: 2024 0.0%, 2025 66.7%"
    )
    assert page.locator(".trend-table tbody tr").all_inner_texts() == [
        "2024\t50.0% (1)\t0.0% (0)",
        "2025\t33.3% (1)\t66.7% (2)",
    ]
    assert_accessible(page)
    page.goto("/topics/attention/")
    expect(page.locator("svg.trend-chart polyline")).to_have_count(1)
    assert_accessible(page)
    page.emulate_media(color_scheme="dark")
    assert_accessible(page)


def test_every_shortcut(transactional_db, corpus, browsing):
    page = browsing.page()
    page.goto("/")
    announcer = page.locator("#announcer")
    page.keyboard.press("/")
    expect(page.locator("#id_q")).to_be_focused()
    # Typing in the field types: "j" is a letter there, not a move.
    page.keyboard.type("jk")
    expect(page.locator("#id_q")).to_have_value("jk")
    expect(page.locator(".is-selected")).to_have_count(0)
    page.locator("#id_q").fill("")
    page.locator("h1").click()

    cards = page.locator(".result-list > li")
    page.keyboard.press("j")
    page.keyboard.press("j")
    expect(cards.nth(1)).to_have_class(re.compile("is-selected"))
    page.keyboard.press("k")
    expect(cards.nth(0)).to_have_class(re.compile("is-selected"))
    expect(cards.nth(0).locator(".card-title a")).to_be_focused()
    title = cards.nth(0).locator(".card-title a").inner_text()
    paper_id = cards.nth(0).get_attribute("data-paper-id")
    # The front page lists the four complete records (the untitled one is left out).
    expect(announcer).to_have_text(f"Paper 1 of 4: {title}.")

    page.keyboard.press("s")
    expect(cards.nth(0).locator(".save-toggle")).to_have_attribute("aria-pressed", "true")
    assert saved(page) == [paper_id]
    expect(announcer).to_have_text(f"Saved to your list: {title}.")

    page.keyboard.press("c")
    expect(announcer).to_have_text(f"Copied the BibTeX of {title}.")
    copied = page.evaluate("navigator.clipboard.readText()")
    entry = bibtexparser.loads(copied).entries
    assert [(e["ID"].rsplit("-", 1)[1], e["title"]) for e in entry] == [
        (paper_id, title.replace("KV", "{KV}"))
    ]

    page.keyboard.press("?")
    expect(page.locator("#shortcuts")).to_be_visible()
    assert_accessible(page)
    page.keyboard.press("Escape")
    expect(page.locator("#shortcuts")).to_be_hidden()

    # Enter on a focused button presses the button; on the selected paper it opens it.
    cards.nth(0).locator(".save-toggle").focus()
    page.keyboard.press("Enter")
    expect(cards.nth(0).locator(".save-toggle")).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("s")
    expect(cards.nth(0).locator(".save-toggle")).to_have_attribute("aria-pressed", "true")
    page.locator("h1").click()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/papers/{paper_id}/")
    # On a paper page, s and c act on the paper itself.
    page.keyboard.press("s")
    expect(page.locator("article .row-actions .save-toggle")).to_have_attribute(
        "aria-pressed", "false"
    )
    assert saved(page) == []


def test_single_key_shortcuts_can_be_turned_off_and_stay_off(transactional_db, corpus, browsing):
    page = browsing.page()
    page.goto("/")
    page.locator("[data-open-shortcuts]").click()
    switch = page.get_by_label("Single-key shortcuts on (this browser)")
    expect(switch).to_be_checked()
    switch.uncheck()
    expect(page.locator("#announcer")).to_have_text("Single-key shortcuts off.")
    page.locator("[data-close-shortcuts]").click()
    page.reload()
    page.locator("h1").click()
    page.keyboard.press("j")
    page.keyboard.press("s")
    expect(page.locator(".is-selected")).to_have_count(0)
    assert saved(page) == []
    page.locator("[data-open-shortcuts]").click()
    expect(switch).not_to_be_checked()
    switch.check()
    page.locator("[data-close-shortcuts]").click()
    page.locator("h1").click()
    page.keyboard.press("j")
    expect(page.locator(".is-selected")).to_have_count(1)


def test_a_sort_chosen_with_the_arrow_keys_applies_on_enter_not_on_each_key(
    transactional_db, corpus, browsing
):
    page = browsing.page()
    page.goto("/?q=cache")
    sort = page.locator("#id_sort")
    sort.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    # Still this page, the menu still in the keyboard's hands.
    assert "sort=" not in page.url
    expect(sort).to_be_focused()
    assert sort.input_value() == "title"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "sort=title" in page.url
    # With the pointer (select_option), the choice applies at once.
    with page.expect_navigation():
        page.locator("#id_sort").select_option("newest")
    assert "sort=newest" in page.url


@pytest.mark.parametrize("own", [True, False])
def test_a_list_emptied_on_its_page_shows_the_empty_list(transactional_db, corpus, browsing, own):
    page = browsing.page()
    ids = [str(corpus["translation"].pk), str(corpus["kv"].pk)]
    mine = ids if own else [str(corpus["cache2"].pk)]
    page.goto("/list/")
    page.evaluate(f"localStorage.setItem('papers:list', JSON.stringify({mine}))")
    page.goto("/list/?ids=" + ",".join(ids))
    page.locator(".reading-list .remove").first.click()
    page.locator(".reading-list .remove").first.click()
    # As the server writes an empty list: no count, no link, no exports of nothing.
    expect(page.locator(".list-empty")).to_be_visible()
    for part in ["#list-status", ".share", ".exports", ".reading-list"]:
        expect(page.locator(part)).to_be_hidden()
    # "My list" only for the reader's own: a shared list emptied leaves theirs as it was.
    expect(page.locator("h1")).to_have_text("My list" if own else "Reading list")
    assert saved(page) == ([] if own else mine)
    assert_accessible(page)


def test_a_lists_export_label_counts_its_titled_papers(transactional_db, corpus, browsing):
    page = browsing.page()
    untitled, titled = corpus["speech"].pk, corpus["kv"].pk
    page.goto(f"/list/?ids={untitled},{titled}")
    label = page.locator(".exports-label")
    expect(label).to_have_text("Export this paper (1 without a title left out):")
    page.locator(f"li[data-paper-id='{titled}'] .remove").click()
    # An export of the untitled paper alone would hold nothing: none is offered.
    expect(label).to_have_text("No paper here has a title to export.")
    # As the server writes it for such a list: no links, nor the dots between them.
    expect(page.locator(".exports")).to_have_text(
        "No paper here has a title to export.", use_inner_text=True
    )


def test_saving_to_a_full_list_says_so_beside_the_button(transactional_db, corpus, browsing):
    page = browsing.page()
    page.goto("/list/")
    page.evaluate(
        "localStorage.setItem('papers:list', JSON.stringify("
        "Array.from({length: 500}, (_, i) => String(100000 + i))))"
    )
    page.goto("/?q=cache")
    row = page.locator(f"li[data-paper-id='{corpus['kv'].pk}']")
    row.locator(".save-toggle").click()
    # Seen, not only heard: the button alone, unchanged, looked dead.
    expect(row.locator(".save-note")).to_have_text(
        "Your list is full: it holds at most 500 papers. Remove some on My list first."
    )
    expect(row.locator(".save-toggle")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#announcer")).to_have_text(
        "Your list is full: it holds at most 500 papers."
    )
    assert len(saved(page)) == 500
