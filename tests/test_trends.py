"""Topic trends: the share of each year's papers, on topic pages and /trends/."""

import pytest

from papers.trends import Series, line_chart, with_shares
from tests.factories import finish, make_paper, make_venue
from tests.support import parse


def table(page, class_="trend-table") -> list[list[str]]:
    rows = page.find("table", class_=class_).find_all("tr")
    return [[cell.text for cell in row.iter() if cell.tag in ("th", "td")] for row in rows]


def test_topic_page_draws_its_share_per_year(client, corpus):
    page = parse(client.get("/topics/attention/"))
    svg = page.find("svg", class_="trend-chart")
    assert svg.attrs["role"] == "img"
    assert svg.find("title").text == "Share of papers on attention per year"
    # EMNLP 2024: retrieval of 2 papers; ACL 2025: kv of 3.
    assert svg.find("desc").text == "attention: 2024 50.0%, 2025 33.3%"
    assert [c.find("title").text for c in svg.find_all("circle")] == [
        "attention, 2024: 50.0% (1 paper)",
        "attention, 2025: 33.3% (1 paper)",
    ]
    # Hidden by a wrapper: a table keeps its content's width whatever width it is given.
    hidden = page.find("div", class_="visually-hidden")
    assert hidden.find_all("table", class_="trend-table")
    assert table(page) == [
        ["Year", "attention"],
        ["2024", "50.0% (1)"],
        ["2025", "33.3% (1)"],
    ]


def test_trends_compares_topics_and_terms(client, corpus):
    response = client.get("/trends/?topic=attention&topic=efficiency&q=cache")
    page = parse(response)
    assert table(page) == [
        ["Year", "attention", "efficiency", "“cache”"],
        ["2024", "50.0% (1)", "0.0% (0)", "0.0% (0)"],
        ["2025", "33.3% (1)", "66.7% (2)", "66.7% (2)"],
    ]
    svg = page.find("svg", class_="trend-chart")
    assert [g.classes for g in svg.find_all("g")] == [
        {"trend-series", "series-0"},
        {"trend-series", "series-1"},
        {"trend-series", "series-2"},
    ]
    legend = page.find("ul", class_="trend-legend").find_all("a")
    assert [(a.text, a.attrs["href"]) for a in legend] == [
        ("attention", "/topics/attention/"),
        ("efficiency", "/topics/efficiency/"),
        ("“cache”", "/?q=cache"),
    ]
    # The form shows the choice, so the page can be changed and shared.
    selected = [
        option.attrs["value"]
        for option in page.find("form", class_="trend-form").find_all("option", selected=None)
    ]
    assert selected == ["attention", "efficiency"]
    assert page.find("input", id="trend-q-1").attrs["value"] == "cache"


@pytest.mark.parametrize(
    ("query", "values"),
    [
        ("", [None, None]),
        ("?q=cache&q=attention", ["cache", "attention", None]),
        ("?topic=attention&topic=efficiency&q=cache&q=speech", ["cache", "speech", None]),
        ("?topic=attention&topic=efficiency&topic=speech&topic=x&q=cache", ["cache"]),
        ("?topic=attention&topic=efficiency&topic=speech&topic=x", [None]),
        (
            "?topic=attention&topic=efficiency&q=cache&q=speech&q=yoruba",
            ["cache", "speech", "yoruba"],
        ),
    ],
)
def test_the_trends_form_offers_a_box_for_one_more_term_while_there_is_room(
    client, corpus, query, values
):
    # With two terms, the form had no box for a third (an outside tester).
    page = parse(client.get("/trends/" + query))
    boxes = page.find("form", class_="trend-form").find_all("input", name="q")
    assert [box.attrs.get("value") for box in boxes] == values


def test_the_trends_form_keeps_every_term_of_its_address(client, corpus):
    # A shared address may hold five terms; a form of two boxes dropped three at "Compare".
    page = parse(client.get("/trends/?q=cache&q=attention&q=yoruba&q=speech&q=retrieval"))
    boxes = page.find("form", class_="trend-form").find_all("input", name="q")
    assert [box.attrs.get("value") for box in boxes] == [
        "cache",
        "attention",
        "yoruba",
        "speech",
        "retrieval",
    ]
    page = parse(client.get("/trends/"))
    boxes = page.find("form", class_="trend-form").find_all("input", name="q")
    assert [box.attrs.get("value") for box in boxes] == [None, None]


def test_trends_notices(client, corpus):
    page = parse(client.get("/trends/?topic=nothing&q=cache"))
    assert [p.text for p in page.find_all("p", class_="notice")] == ["No topic named “nothing”."]
    assert table(page)[0] == ["Year", "“cache”"]
    many = "&".join(f"q=word{n}" for n in range(7))
    page = parse(client.get(f"/trends/?{many}"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [
        "At most 5 topics or terms are compared, topics first: “word5”, “word6” left out."
    ]
    assert table(page)[0] == ["Year", "“word0”", "“word1”", "“word2”", "“word3”", "“word4”"]
    # Topics first: the term left out is said, not "the first five" (an outside researcher).
    topics = "&".join(f"topic={slug}" for slug in ("attention", "speech", "retrieval", "kv"))
    page = parse(client.get(f"/trends/?q=cache&q=eviction&{topics}"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [
        "At most 5 topics or terms are compared, topics first: “eviction” left out.",
        "No topic named “retrieval”, “kv”.",
    ]
    # Stop words alone make an empty line, and the page says why.
    page = parse(client.get("/trends/?q=a&q=cache&q=%3F%3F%3F"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [
        "“a” is only words no search reads (“the”, “of”, “a” …): its line is empty.",
        "“???” has no word to search for: its line is empty.",
    ]
    # A term few papers say is offered its respelling, as search offers it ("nueral" charted
    # 0.0% each year without a word: an outside tester).
    page = parse(client.get("/trends/?q=cahce&q=attention"))
    assert [p.text for p in page.find_all("p", class_="notice")] == [
        "Few papers say “cahce”: did you mean “cache”?"
    ]
    page = parse(client.get("/trends/"))
    assert not page.find_all("svg")
    last = page.find("main").find_all("p")[-1]
    assert last.text == (
        "Choose topics or type search terms to compare them: for example "
        "“chain of thought” and “in-context learning”."
    )
    assert last.find("a").attrs["href"] == "?q=%22chain+of+thought%22&q=%22in-context+learning%22"
    example = parse(client.get(last.find("a").attrs["href"].replace("?", "/trends/?")))
    assert table(example)[0] == ["Year", "“chain of thought”", "“in-context learning”"]


def test_line_chart_scales_and_escapes():
    line = Series("<b>", "/x/", {2020: 1, 2022: 3})
    years = with_shares([line], {2020: 10, 2021: 10, 2022: 20})
    assert years == [2020, 2021, 2022]
    assert line.shares == {2020: 0.1, 2021: 0.0, 2022: 0.15}
    svg = line_chart([line], years, "Share <of> papers")
    assert 'aria-label="Share &lt;of&gt; papers"' in svg
    assert "<desc>&lt;b&gt;: 2020 10.0%, 2021 0.0%, 2022 15.0%</desc>" in svg
    # Top of the axis 20%: the 0.15 share sits three quarters up the 224-pixel plot.
    assert 'points="78.0,128.0 342.0,240.0 606.0,72.0"' in svg
    assert line_chart([], [], "nothing") == ""


@pytest.mark.parametrize("query", ["q=%00", "q=a%00b", "topic=%00", "q=bert&q=%00"])
def test_trends_take_a_null_byte_as_a_space(client, corpus, query):
    # PostgreSQL's text refuses NUL: it reached the statements and the page answered 500.
    response = client.get(f"/trends/?{query}")
    assert response.status_code == 200


@pytest.fixture
def asked(db):
    """Papers a term can be typed for in words a reader uses."""
    venues = {year: make_venue(f"ACL {year}", year) for year in (2024, 2025)}
    for title, abstract, year in [
        ("Language Models Don't Know Their Limits", "Models don't know when they err.", 2024),
        ("Hallucination in Vision Models", "Vision models hallucinate objects.", 2024),
        ("Hallucination in Summaries", "Summaries hallucinate facts.", 2025),
        ("Hallucination in Dialogue", "Dialogue agents hallucinate.", 2025),
        ("Detecting Machine-Generated Text", "A classifier for machine-generated text.", 2025),
    ]:
        make_paper(abstract, title=title, venue=venues[year])
    finish()


@pytest.mark.parametrize(
    ("typed", "shown", "papers"),
    [
        ("models dont know", "“models don't know”", 1),
        ("hallucination NOT vision", "“hallucination -vision”", 2),
        ("what is the best way to detect machine-generated text", None, 1),
    ],
)
def test_a_trends_term_counts_the_papers_its_search_lists(client, asked, typed, shown, papers):
    """A term means on /trends/ what it means in the search box: a contraction typed without
    its apostrophe, NOT in capitals, a question asked in words."""
    page = parse(client.get("/trends/", {"q": typed}))
    legend = page.find("ul", class_="trend-legend").find("a")
    assert legend.text == (shown or f"“{typed}”")
    assert client.get("/api/papers/", {"q": typed}).json()["count"] == papers
    counted = [cell for row in table(page)[1:] for cell in row[1:]]
    assert sum(int(cell.split("(")[1].rstrip(")")) for cell in counted) == papers


def test_the_table_writes_counts_as_the_chart_does():
    # The table said "2085" where the chart said "2,085" (an outside researcher).
    from django.template.loader import render_to_string

    html = render_to_string(
        "papers/includes/trend_table.html",
        {
            "caption": "Share of papers",
            "series": [Series("models", "/?q=models")],
            "rows": [(2024, [(2085, "71.8%")])],
        },
    )
    assert table(parse(html))[1] == ["2024", "71.8% (2,085)"]
