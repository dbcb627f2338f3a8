"""The dump parser on the seeds and on variants written here (pure: no database)."""

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papers.author_lines import author_names
from papers.dumps import parse_dump
from papers.records import DumpError, ParsedFile
from papers.text import fold_whitespace
from tests.conftest import SEED_FILES
from tests.factories import ABSTRACT_A, ABSTRACT_B, ABSTRACT_C, ABSTRACT_D, lecture_page, list_page

# The seeds ----------------------------------------------------------------


def parse_seed(number: int) -> ParsedFile:
    path = SEED_FILES[number]
    return parse_dump(path.read_text(encoding="utf-8"), path.name)


def test_seed_list_pages_are_57_untitled_acl_2025_papers():
    papers = [paper for number in range(3) for paper in parse_seed(number).papers]
    assert len(papers) == 57
    assert {paper.venue for paper in papers} == {"ACL 2025"}
    assert [paper.title for paper in papers] == [""] * 57
    assert papers[0].abstract.startswith("It is crucial for large language models (LLMs)")


def test_seed_lecture_page_003():
    parsed = parse_seed(3)
    assert len(parsed.papers) == 11
    assert {paper.venue for paper in parsed.papers} == {"EMNLP 2025"}
    assert sum(1 for paper in parsed.papers if paper.title) == 10
    page = parsed.papers[0]
    assert page.title == (
        "Layer-Aware Representation Filtering: Purifying Finetuning Data to Preserve LLM Safety Alignment"
    )
    assert page.topics == ["llm fine-tuning", "llm safety"]
    assert page.country == "China"
    assert page.related_titles == ["Fine-Tuning Lowers Safety and Disrupts Evaluation Consistency"]
    assert parsed.papers[1].title.startswith("MLWQ: Efficient Small Language Model Deployment")
    assert parsed.papers[-1].title == ""
    assert parsed.papers[-1].abstract.startswith("Direct Preference Optimization (DPO)")
    assert not any(
        "log in" in paper.abstract or "Welcome" in paper.abstract for paper in parsed.papers
    )


def test_seed_lecture_page_004_keeps_a_two_paragraph_abstract():
    parsed = parse_seed(4)
    assert len(parsed.papers) == 11
    assert sum(1 for paper in parsed.papers if paper.title) == 10
    page = parsed.papers[0]
    assert page.title == "Rethinking Token Reduction for State Space Models"
    assert page.topics == [
        "information retrieval and text mining",
        "language modeling",
        "question answering",
    ]
    assert page.country == "United States"
    assert page.related_titles == [
        "LaTIM: Measuring Latent Token-to-Token Interactions in Mamba Models"
    ]
    self_refine = next(p for p in parsed.papers if p.title.startswith("Self-Refine"))
    first, second = self_refine.abstract.split("\n\n")
    assert first.startswith("The alignment of reasoning abilities")
    assert second.startswith("In this paper, we propose the Self-refine Instruction-tuning method")
    assert "\n" not in second  # lines inside a paragraph are folded
    assert "\\%" in next(p for p in parsed.papers if p.title.startswith("How do Large")).abstract


@pytest.mark.parametrize("line", ["EMNLP 2024 Main Conference", "EMNLP 2024 (Main Conference)"])
def test_a_venue_line_saying_main_conference_names_the_venue(line):
    # Not read as the venue line, it made the next event card ("ACL 2025") the page's venue,
    # and a junk paper of the page's title, topics and the chair's letter.
    seed = SEED_FILES[4]
    text = seed.read_text(encoding="utf-8").replace("\nEMNLP 2024\n", f"\n{line}\n", 1)
    parsed = parse_dump(text, seed.name)
    assert parsed.warnings == []
    assert [(p.venue, p.title) for p in parsed.papers] == [
        (p.venue, p.title) for p in parse_seed(4).papers
    ]
    assert parsed.papers[0].venue == "EMNLP 2024"


def test_seed_furniture_becomes_venue_metadata_not_papers():
    venues = {
        venue.name: venue for venue in parse_seed(3).venues + parse_seed(4).venues if venue.location
    }
    acl = venues["ACL 2025"]
    assert (
        acl.full_name == "The 63rd Annual Meeting of the Association for Computational Linguistics"
    )
    assert (acl.location, acl.start_date, acl.end_date) == (
        "Vienna, Austria",
        date(2025, 7, 27),
        date(2025, 8, 1),
    )
    emnlp25 = venues["EMNLP 2025"]
    assert (emnlp25.location, emnlp25.start_date, emnlp25.end_date) == (
        "Suzhou, China",
        date(2025, 11, 5),
        date(2025, 11, 9),
    )
    assert emnlp25.welcome_text.startswith('"I am excited to welcome you')
    emnlp24 = venues["EMNLP 2024"]
    assert (emnlp24.location, emnlp24.start_date, emnlp24.end_date) == (
        "Miami, Florida",
        date(2024, 11, 12),
        date(2024, 11, 16),
    )
    assert emnlp24.welcome_text.startswith("We are excited to welcome you")


def test_decisions_explain_every_block():
    decisions = parse_seed(3).decisions
    kinds = [decision.kind for decision in decisions]
    assert kinds[:6] == ["country", "abstract", "venue", "title", "topic", "topic"]
    furniture = ["markup", "site prompt", "event card", "event prose"]
    assert [kinds.count(kind) for kind in furniture] == [4, 3, 3, 1]
    assert kinds[-5:] == ["footer", "footer", "next paper", "footer", "related title"]
    assert all(decision.evidence for decision in decisions)
    event = next(decision for decision in decisions if decision.kind == "event prose")
    assert event.evidence == (
        "names the event (EMNLP 2025); dates (November 5th); place or format (will be held)"
    )


# Variants ------------------------------------------------------------------


def test_lecture_page_of_another_venue_with_furniture_for_other_events():
    parsed = parse_dump(lecture_page(), "naacl.txt")
    assert [(p.title, p.venue) for p in parsed.papers] == [
        ("Parallel Data for Yoruba Translation", "NAACL 2025"),
        ("Accent Adapters for Speech Recognition", "NAACL 2025"),
        ("", "NAACL 2025"),
    ]
    page = parsed.papers[0]
    assert (page.country, page.topics) == ("Germany", ["machine translation", "multilinguality"])
    assert page.related_titles == ["A Title That Is Not In The Collection"]
    # Two prose paragraphs before the footer: one untitled paper with both.
    assert parsed.papers[2].abstract == f"{ABSTRACT_C} We release code and data.\n\n{ABSTRACT_D}"
    venues = {venue.name: venue for venue in parsed.venues}
    assert (
        venues["COLING 2025"].full_name
        == "The 31st International Conference on Computational Linguistics"
    )
    assert venues["NAACL 2025"].location == "Albuquerque, New Mexico"
    assert venues["NAACL 2025"].start_date == date(2025, 4, 29)
    assert venues["NAACL 2025"].end_date == date(2025, 5, 4)


@pytest.mark.parametrize(
    "edit",
    [
        # Lines labelled as a form's fields (an outside tester's page: "Venue: EMNLP 2024" was
        # no venue line, and the furniture up to "COLING 2025" became the paper).
        lambda page: (
            page.replace("Germany\n", "Country: Germany\n", 1)
            .replace("\n\nNAACL 2025\n", "\n\nVenue: NAACL 2025\n", 1)
            .replace("Parallel Data for", "Title: Parallel Data for", 1)
            .replace("\n\nmachine translation\n", "\n\nTopics: machine translation\n", 1)
        ),
        # The page's own paper saved without its blank lines.
        lambda page: page.replace("\n\n", "\n", 5),
        # … its abstract wrapped over lines besides (a reviewer).
        lambda page: page.replace("\n\n", "\n", 5).replace(". ", ".\n", 2),
    ],
    ids=["labelled", "compact", "compact and wrapped"],
)
def test_a_lecture_page_labelled_or_compact_reads_as_the_plain_one(edit):
    plain = parse_dump(lecture_page(), "naacl.txt")
    page = edit(lecture_page())
    assert page != lecture_page()
    parsed = parse_dump(page, "naacl.txt")
    fields = ("title", "venue", "country", "topics", "abstract", "related_titles")

    def described(records):
        return [tuple(getattr(paper, name) for name in fields) for paper in records.papers]

    assert described(parsed) == described(plain)
    assert parsed.warnings == plain.warnings == []


@pytest.mark.parametrize(
    "edit",
    [
        lambda page: page.replace("\n\n", "\n", 4),
        # Wrapped where a line is as short as a country's (the reviewer: "Machine translation
        # for low-resource languages" became the country), or at its sentences.
        lambda page: page.replace("\n\n", "\n", 4).replace("for ", "for\n", 1),
        lambda page: page.replace("\n\n", "\n", 4).replace(". ", ".\n", 2),
    ],
    ids=["compact", "wrapped short", "wrapped at sentences"],
)
def test_a_compact_lecture_page_without_a_country_reads_as_the_plain_one(edit):
    plain = parse_dump(lecture_page(country=""), "naacl.txt")
    parsed = parse_dump(edit(lecture_page(country="")), "naacl.txt")
    first = parsed.papers[0]
    assert (first.title, first.country, first.abstract) == (
        "Parallel Data for Yoruba Translation",
        "",
        plain.papers[0].abstract,
    )
    assert parsed.warnings == []


@pytest.mark.parametrize(
    ("line", "authors", "topics"),
    [
        # One name under the title, over the page's topics in lower case: its author (it was
        # a topic, listed on /topics/: an outside tester).
        ("Jürgen Müller-Lüdenscheidt", ["Jürgen Müller-Lüdenscheidt"], []),
        # Particles in lower case, and a Chinese name (an outside curator).
        ("Hans-Jürgen van den Bosch", ["Hans-Jürgen van den Bosch"], []),
        ("王小明", ["王小明"], []),
        # A topic written with capitals stays one.
        ("Question Answering", [], ["Question Answering"]),
        ("Language and Vision", [], ["Language and Vision"]),
    ],
)
def test_one_name_under_a_lecture_title_is_its_author_where_it_reads_as_one(line, authors, topics):
    page = lecture_page(furniture=False).replace(
        "Parallel Data for Yoruba Translation\n\n",
        f"Parallel Data for Yoruba Translation\n\n{line}\n\n",
        1,
    )
    paper = parse_dump(page, "naacl.txt").papers[0]
    assert [author.name for author in paper.authors] == authors
    assert paper.topics == [*topics, "machine translation", "multilinguality"]


def test_lecture_page_without_furniture_or_footer():
    parsed = parse_dump(
        lecture_page(furniture=False, footer=False, untitled_last=False), "bare.txt"
    )
    assert [p.title for p in parsed.papers] == [
        "Parallel Data for Yoruba Translation",
        "Accent Adapters for Speech Recognition",
        "Memory for Dialogue Agents",
    ]
    assert parsed.papers[2].abstract.count("\n\n") == 1
    assert parsed.papers[0].related_titles == []


LINKED_ABSTRACT = (
    "We release a benchmark of code-switched questions and evaluate six models on it; the "
    "[source code](https://github.com/example/cs-bench) and data are public."
)


def test_an_abstract_linking_its_code_is_a_paper_and_a_line_of_links_is_markup():
    page = list_page(abstracts=(ABSTRACT_A, LINKED_ABSTRACT, "[Read more](https://e.org/w)"))
    parsed = parse_dump(page, "links.txt")
    assert [paper.abstract for paper in parsed.papers] == [ABSTRACT_A, LINKED_ABSTRACT]
    assert [d.kind for d in parsed.decisions] == ["header", "abstract", "abstract", "markup"]


def test_presentation_format_in_the_page_header():
    parsed = parse_dump(lecture_page(topics=("speech", "poster"), furniture=False), "f.txt")
    assert parsed.papers[0].topics == ["speech"]
    assert parsed.papers[0].presentation_format == "poster"


def test_a_list_pages_format_headings_give_their_papers_format():
    # "Oral Presentations" and "Poster Presentations" sections left their papers with no
    # format, which a lecture page's papers have (an outside curator).
    page = (
        f"EMNLP 2024 Papers\n\nOral Presentations\n\nLyrebird Listening\nChloe Walker\n\n"
        f"{ABSTRACT_A}\n\n## Posters\n\nCockatoo Crests\nEwa Nowak\n\n{ABSTRACT_B}\n\n"
        f"System Demonstrations\n\nWombat Tools\nNoor Hassan\n\n{ABSTRACT_C}\n"
    )
    parsed = parse_dump(page, "formats.txt")
    assert [(p.title, p.presentation_format) for p in parsed.papers] == [
        ("Lyrebird Listening", "oral"),
        ("Cockatoo Crests", "poster"),
        ("Wombat Tools", "demo"),
    ]
    # A page without such headings gives none.
    assert {p.presentation_format for p in parse_dump(list_page(), "plain.txt").papers} == {""}


@pytest.mark.parametrize(
    "transform",
    [
        pytest.param(lambda text: text.replace("\n", "\r\n"), id="crlf"),
        pytest.param(lambda text: "\ufeff" + text, id="bom"),
        pytest.param(lambda text: text.rstrip("\n"), id="no-final-newline"),
        pytest.param(lambda text: text.replace("\n\n", "\n  \n\n"), id="blank-lines-with-spaces"),
    ],
)
def test_line_endings_and_byte_order_marks_change_nothing(transform):
    def without_lines(text):
        return [replace(paper, line=None) for paper in parse_dump(text, "x.txt").papers]

    for text in (lecture_page(), list_page()):
        assert without_lines(transform(text)) == without_lines(text)


@pytest.mark.parametrize(
    "header, venue",
    [
        ("EACL 2024 Papers", "EACL 2024"),
        ("NAACL 2025 论文列表", "NAACL 2025"),
        ("COLING 2025 论文列表", "COLING 2025"),
        ("LREC-COLING 2024 Papers", "LREC-COLING 2024"),
        ("ACL 2025 Main Conference Papers", "ACL 2025"),
        ("ACL 2025 Long Papers", "ACL 2025"),
        ("Papers of EMNLP 2024", "EMNLP 2024"),
        ("List of Accepted Papers at NAACL 2025", "NAACL 2025"),
        ("List of ACL 2025 Papers", "ACL 2025"),
        ("ACL 2025: Accepted Papers", "ACL 2025"),
        ("ACL 2024 Short Papers", "ACL 2024 (Short Papers)"),
        ("ACL 2024 System Demonstration Papers", "ACL 2024 (Demos)"),
        ("NAACL 2025 Industry Track Papers", "NAACL 2025 (Industry Track)"),
        ("ACL 2025 Student Research Workshop Papers", "ACL 2025 (SRW)"),
        ("EMNLP 2024 Findings Papers", "Findings of EMNLP 2024"),
        # Separators, markdown, symbols, a year run into its acronym, small letters.
        ("ACL 2024: Long Papers", "ACL 2024"),
        ("NAACL 2024: Short Papers", "NAACL 2024 (Short Papers)"),
        ("Accepted Papers - ACL 2024", "ACL 2024"),
        ("Main Conference Papers (ACL 2024)", "ACL 2024"),
        ("EMNLP 2024 Accepted Papers (Main Conference)", "EMNLP 2024"),
        ("EMNLP 2024 | Papers", "EMNLP 2024"),
        ("## **ACL 2024 Papers** 🎉", "ACL 2024"),
        ("ACL2024 accepted papers", "ACL 2024"),
        ("Findings Papers of the ACL 2024", "Findings of ACL 2024"),
        ("Papers of ACL 2024 (Short Papers)", "ACL 2024 (Short Papers)"),
        ("ACL 2024 Student Research Workshop (SRW) Papers", "ACL 2024 (SRW)"),
        ("ACL 2024 录用论文列表", "ACL 2024"),
        # A volume without "Papers".
        ("ACL 2024 Findings", "Findings of ACL 2024"),
        ("NAACL 2025 Industry Track", "NAACL 2025 (Industry Track)"),
        ("ACL 2024 System Demonstrations", "ACL 2024 (Demos)"),
        # A series in small letters; the Anthology's long names.
        ("emnlp 2024 papers", "EMNLP 2024"),
        (
            "Findings of the Association for Computational Linguistics: ACL 2024 Papers",
            "Findings of ACL 2024",
        ),
        ("Proceedings of ACL 2024: Long Papers", "ACL 2024"),
        ("ACL 2023 Main Conference: Long Papers", "ACL 2023"),
        ("ACL 2024 Main Conference Short Papers", "ACL 2024 (Short Papers)"),
        # A venue's proceedings, and an event's long name with its venue in brackets (refused
        # before: an outside curator).
        ("Proceedings of ACL 2024", "ACL 2024"),
        ("Proceedings of the 62nd Annual Meeting of the ACL (ACL 2024)", "ACL 2024"),
        ("The 62nd Annual Meeting of the ACL (ACL 2024) – Papers", "ACL 2024"),
        ("The 62nd Annual Meeting (ACL 2024) - Short Papers", "ACL 2024 (Short Papers)"),
    ],
)
def test_list_page_headers(header, venue):
    parsed = parse_dump(list_page(header), "list.txt")
    assert [(p.venue, p.title) for p in parsed.papers] == [(venue, "")] * 3
    assert [p.abstract for p in parsed.papers] == [ABSTRACT_A, ABSTRACT_B, ABSTRACT_C]
    assert [p.line for p in parsed.papers] == [3, 5, 7]


@pytest.mark.parametrize(
    "header, venue",
    [
        ("ACL 2025 Papers", ("ACL 2025", "ACL", 2025, "")),
        ("ACL 2024 Short Papers", ("ACL 2024 (Short Papers)", "ACL", 2024, "ACL 2024")),
        ("Findings of ACL 2024 Papers", ("Findings of ACL 2024", "ACL", 2024, "ACL 2024")),
    ],
)
def test_a_volume_named_in_a_header_belongs_to_its_conference_as_in_the_anthology(header, venue):
    parsed = parse_dump(list_page(header), "list.txt")
    assert [(v.name, v.acronym, v.year, v.parent) for v in parsed.venues] == [venue]


TITLES = ["Yoruba Translation", "Accent Adapters for Speech", "Noisy Retrieval Hurts Faithfulness"]
ABSTRACTS = [ABSTRACT_A, ABSTRACT_B, ABSTRACT_C]


def titled_papers(parsed: ParsedFile) -> list[tuple]:
    return [(p.title, [a.name for a in p.authors], p.abstract, p.line) for p in parsed.papers]


def test_a_list_page_with_titles_above_the_abstracts_keeps_them_as_titles():
    blocks = [part for pair in zip(TITLES, ABSTRACTS, strict=True) for part in pair]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (title, [], abstract, line)
        for title, abstract, line in zip(TITLES, ABSTRACTS, [5, 9, 13], strict=True)
    ]
    assert [(d.line, d.kind) for d in parsed.decisions][1:3] == [(3, "title"), (5, "abstract")]


def test_a_list_page_with_titles_below_the_abstracts_keeps_them_as_titles():
    blocks = [part for pair in zip(ABSTRACTS, TITLES, strict=True) for part in pair]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (title, [], abstract, line)
        for title, abstract, line in zip(TITLES, ABSTRACTS, [3, 7, 11], strict=True)
    ]


def test_authors_under_a_title_in_its_paragraph_or_their_own_are_the_papers_authors():
    blocks = [
        f"{TITLES[0]}\nAda Lovelace1,2, Alan Turing* and Grace Hopper (Yale)",
        ABSTRACT_A,
        TITLES[1],
        "王小明, Luis Espinosa Anke, Marie de la Cruz",
        ABSTRACT_B,
    ]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing", "Grace Hopper"], ABSTRACT_A, 6),
        (TITLES[1], ["王小明", "Luis Espinosa Anke", "Marie de la Cruz"], ABSTRACT_B, 12),
    ]
    assert ("authors", 10) in [(d.kind, d.line) for d in parsed.decisions]


def test_an_introduction_above_titled_entries_stays_apart_from_them():
    intro = "Papers are listed in no particular order."
    blocks = [intro, *(part for pair in zip(TITLES, ABSTRACTS, strict=True) for part in pair)]
    parsed = parse_dump(list_page("EMNLP 2024 Accepted Papers", blocks), "list.txt")
    # The introduction is the page's note, not a paper.
    assert [(p.title, p.abstract) for p in parsed.papers] == list(
        zip(TITLES, ABSTRACTS, strict=True)
    )
    assert (parsed.decisions[1].kind, parsed.warnings) == ("event prose", [])


@pytest.mark.parametrize(
    "blocks",
    [
        # Titles above, the first one missing: each title fits the abstract on either side.
        [ABSTRACTS[0], TITLES[1], ABSTRACTS[1], TITLES[2], ABSTRACTS[2]],
        # Titles below, a dated line above them all: the same.
        ["Last updated 3 June 2025", ABSTRACTS[0], TITLES[0], ABSTRACTS[1], TITLES[1]],
    ],
)
def test_titles_that_fit_either_neighbour_are_left_out_with_a_warning(blocks):
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    abstracts = [block for block in blocks if block in ABSTRACTS]
    assert [(p.title, p.abstract) for p in parsed.papers] == [("", a) for a in abstracts]
    assert parsed.warnings == [
        "list.txt, line 1: its titles could not be told apart from their neighbours' (neither "
        "the paragraph before nor the one after each is clearly its abstract): the abstracts "
        "are loaded without titles"
    ]


LONG_TITLES = [
    "Mitigating the Alignment Tax of Reinforcement Learning from Human Feedback",
    "Evaluating Readability and Faithfulness of Concept-based Explanations",
    "Personality-aware Student Simulation for Conversational Intelligent Tutoring Systems",
]
LONG_ABSTRACTS = [
    f"{ABSTRACT_A} {ABSTRACT_B}",
    f"{ABSTRACT_B} {ABSTRACT_C}",
    f"{ABSTRACT_C} {ABSTRACT_A}",
]
INTRO = "This page lists the accepted papers of the main conference in no particular order."


@pytest.mark.parametrize("authors", [True, False])
def test_an_introduction_and_a_closing_line_do_not_shift_the_titles(authors):
    # Titles above: the introduction is no paper's abstract and "Back to top" no paper's
    # title, with the authors under each title (a line without them is no title) or without
    # (the pairing of short paragraphs and short titles is the odd one).
    names = "\nAda Lovelace, Alan Turing" if authors else ""
    pairs = [(f"{t}{names}", a) for t, a in zip(LONG_TITLES, LONG_ABSTRACTS, strict=True)]
    blocks = [INTRO, *(part for pair in pairs for part in pair), "Back to top"]
    parsed = parse_dump(list_page("EMNLP 2024 Accepted Papers", blocks), "list.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == list(
        zip(LONG_TITLES, LONG_ABSTRACTS, strict=True)
    )
    assert parsed.warnings == []


def test_session_headings_between_titles_below_their_abstracts_are_left_alone():
    # Either side pairs every abstract; the titles above them would leave two titles without
    # an abstract, the titles below only the sessions' headings and the closing line.
    pairs = list(zip(LONG_ABSTRACTS, LONG_TITLES, strict=True))
    blocks = ["Demo Session A (Dec 8)", *pairs[0], *pairs[1], "Demo Session B (Dec 9)"]
    blocks += [*pairs[2], "Follow us on Twitter: @emnlpmeeting"]
    parsed = parse_dump(list_page("EMNLP 2023 Demo Papers", blocks), "list.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [(t, a) for a, t in pairs]
    assert parsed.warnings == []


@pytest.mark.parametrize(
    "heading, title, authors",
    [
        # Authors one per line, their affiliation after them.
        (
            "Parsing Works\nQi Cheng\nMichael Boratko\nPranay Kumar Yelugam\nUMass Amherst",
            "Parsing Works",
            ["Qi Cheng", "Michael Boratko", "Pranay Kumar Yelugam"],
        ),
        # A title wrapped over two lines; then one author.
        (
            "Towards Robust Parsing for\nLow Resource Settings\nHinrich Schütze",
            "Towards Robust Parsing for Low Resource Settings",
            ["Hinrich Schütze"],
        ),
    ],
)
def test_a_headings_lines_are_its_title_then_its_authors(heading, title, authors):
    blocks = [heading, ABSTRACT_A, f"{TITLES[1]}\nAda Lovelace", ABSTRACT_B]
    paper = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt").papers[0]
    assert (paper.title, [a.name for a in paper.authors]) == (title, authors)


def test_a_session_heading_over_a_short_title_takes_neither_its_place_nor_its_authors():
    blocks = ["Oral Session 1", "Deep Contextualized Word Representations", ABSTRACT_A]
    blocks += [TITLES[1], ABSTRACT_B, TITLES[2], ABSTRACT_C]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert [(p.title, [a.name for a in p.authors]) for p in parsed.papers] == [
        ("Deep Contextualized Word Representations", []),
        (TITLES[1], []),
        (TITLES[2], []),
    ]


def test_a_titles_wrapping_and_an_abstracts_label_are_read_past():
    blocks = [
        f"**1. {TITLES[0]}** (Oral)\nAda Lovelace, Alan Turing",
        f"Abstract\n{ABSTRACT_A}",
        f"* **{TITLES[1]}** [PDF]",
        ABSTRACT_B,
        f"### {TITLES[2]}\nAnn Lee\nBo Chen\nCai Wu\nDan Roth",
        ABSTRACT_C,
    ]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A, 7),
        (TITLES[1], [], ABSTRACT_B, 11),
        (TITLES[2], ["Ann Lee", "Bo Chen", "Cai Wu", "Dan Roth"], ABSTRACT_C, 19),
    ]


def test_a_paper_listed_without_its_abstract_is_told_not_dropped_unsaid():
    # Its title and authors were left out with no warning (an outside tester).
    blocks = [f"{TITLES[0]}\nAda Lovelace", ABSTRACT_A, f"{TITLES[1]}\nBo Chen, Cai Wu"]
    blocks += [f"{TITLES[2]}\nDan Roth", ABSTRACT_C, "Oral Session 2"]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert [p.title for p in parsed.papers] == [TITLES[0], TITLES[2]]
    # A heading without authors (a session's) is no paper to tell of.
    assert parsed.warnings == [
        f"list.txt, line 8: “{TITLES[1]}” has no abstract beside it: not loaded"
    ]


@pytest.mark.parametrize(
    "page",
    [
        # The header underlined as markdown may (it was no header: "not a list page").
        f"ACL 2025 Papers\n===============\n{TITLES[0]}\nAda Lovelace\n\n{ABSTRACT_A}\n\n"
        f"{TITLES[1]}\nBo Chen, Cai Wu\n\n{ABSTRACT_B}\n",
        # Each paper a form's labelled fields in one paragraph, apart by rules (it was one
        # untitled paper of all the text).
        f"ACL 2025 Papers\n\nTitle: {TITLES[0]}\nAuthors: Ada Lovelace\nAbstract: {ABSTRACT_A}\n"
        f"---\nTitle: {TITLES[1]}\nAuthors: Bo Chen and Cai Wu\nAbstract: {ABSTRACT_B}\n---\n",
    ],
    ids=["underlined header", "labelled fields"],
)
def test_a_list_page_written_as_markdown_or_a_form_reads_as_the_plain_one(page):
    parsed = parse_dump(page, "list.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]
    assert parsed.warnings == []


def test_a_paper_whose_authors_a_bibliography_lists_keeps_the_pages_titles():
    blocks = [f"{TITLES[0]}\nAda Lovelace", ABSTRACT_A, f"{TITLES[1]}\nMüller, J.; Schmidt, A."]
    blocks += [ABSTRACT_B]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert [(p.title, [a.name for a in p.authors]) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace"]),
        (TITLES[1], ["J. Müller", "A. Schmidt"]),
    ]


def test_an_abstracts_placeholder_takes_no_title_nor_gives_its_own_to_another():
    # "Abstract not available." paired with the title above it, and the abstract above with
    # the title below: stored under another paper's title and authors (an outside tester).
    blocks = [f"{TITLES[0]}\nAda Lovelace", f"{TITLES[1]}\nBo Chen", ABSTRACT_B]
    blocks += [f"{TITLES[2]}\nDan Roth", "Abstract not available."]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    # Either neighbour may be its title: loaded without one, and said so.
    assert [(p.title, p.authors, p.abstract) for p in parsed.papers] == [("", [], ABSTRACT_B)]
    assert parsed.warnings == [
        "list.txt, line 1: its titles could not be told apart from their neighbours' (neither "
        "the paragraph before nor the one after each is clearly its abstract): the abstracts "
        "are loaded without titles"
    ]


def test_a_title_wrapped_before_a_portuguese_particle_stays_whole():
    # "do" and "das" are particles of names, but titles write them too: the title's second
    # line was read as an author ("da Variação do Português").
    title = "Um Corpus Anotado para o Estudo\nda Variação do Português"
    blocks = [f"{title}\nAna Silva, João Souza", ABSTRACT_A, TITLES[1], ABSTRACT_B]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert [(p.title, [a.name for a in p.authors]) for p in parsed.papers] == [
        (title.replace("\n", " "), ["Ana Silva", "João Souza"]),
        (TITLES[1], []),
    ]


def test_pictographs_are_taken_off_a_titles_ends_only():
    blocks = ["📄 Holmes ⌕ A Benchmark", ABSTRACT_A, "♫ MuSiQue 🎉", ABSTRACT_B]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert [p.title for p in parsed.papers] == ["Holmes ⌕ A Benchmark", "MuSiQue"]


def test_lines_of_chinese_are_not_a_menu():
    abstract = "我们研究低资源语言的机器翻译\n并提出一种新的多语言模型\n实验表明效果显著提升"
    parsed = parse_dump(list_page("ACL 2025 论文列表", [abstract, ABSTRACT_A]), "list.txt")
    assert [p.abstract for p in parsed.papers] == [abstract.replace("\n", " "), ABSTRACT_A]


def test_labels_menus_session_headings_and_affiliations_are_not_papers():
    blocks = [
        "Home\nCalls\nProgram\nSponsors",
        "Oral Session 1: Machine Translation",
        f"**{TITLES[0]}**\nAda Lovelace¹, Alan Turing² ♠\n¹ Vienna, ² Cambridge",
        "Abstract",
        ABSTRACT_A,
        "Poster",
        f"12. {TITLES[1]}",
        "Nan Du, Quoc V. Le and Ana d'Almeida",
        ABSTRACT_B,
        "Keywords: speech, accents",
    ]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A, 16),
        (TITLES[1], ["Nan Du", "Quoc V. Le", "Ana d'Almeida"], ABSTRACT_B, 24),
    ]
    assert [(d.line, d.kind) for d in parsed.decisions][1:] == [
        (3, "markup"),
        (8, "stray line"),
        (10, "title"),
        (14, "markup"),
        (16, "abstract"),
        (18, "markup"),
        (20, "title"),
        (22, "authors"),
        (24, "abstract"),
        (26, "markup"),
    ]


TALK = "Language models are trained on form alone, and their makers claim meaning will emerge."
KEYNOTE = "This keynote looks back at a decade of benchmarks and asks which still measure much."
TUTORIAL = "This tutorial introduces retrieval-augmented generation with hands-on exercises."


def test_keynotes_invited_talks_and_tutorials_are_not_papers():
    # Each talk became a paper, "Speaker: …" and "Presenters: …" its title, without a word
    # (an outside curator).
    blocks = [f"{TITLES[0]}\nAda Lovelace, Alan Turing", ABSTRACT_A, "Invited Talk"]
    blocks += ["Why Language Models Need Linguistics\nEmily Bender (University of Washington)"]
    blocks += [TALK, "Keynote Speakers", "Speaker: Prof. Jane Doe (Stanford University)"]
    blocks += [KEYNOTE, "## Tutorials", "Presenters: Alice Smith, Bob Jones", TUTORIAL]
    blocks += ["Oral Session 2", f"{TITLES[1]}\nBo Chen, Cai Wu", ABSTRACT_B]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "talks.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]
    assert parsed.warnings == [
        f"talks.txt, line {line}: “{heading}” heads talks, not papers: its paragraphs are left out"
        for line, heading in [(8, "Invited Talk"), (15, "Keynote Speakers"), (21, "Tutorials")]
    ]
    assert [d.kind for d in parsed.decisions].count("talk") == 6


@pytest.mark.parametrize("heading", ["## Session 3: Parsing", "## Papers", "## Main Track Papers"])
def test_a_markdown_heading_of_its_level_or_of_papers_ends_a_talks_section(heading):
    # After "## Invited Talk", "## Session 3: Parsing" did not end the talks: every paper
    # after it was left out ("no paper found", an outside tester).
    blocks = ["## Invited Talk", "### Why Language Models Need Linguistics", TALK, heading]
    blocks += [f"### {TITLES[0]}\nAda Lovelace, Alan Turing", ABSTRACT_A]
    parsed = parse_dump(list_page("EMNLP 2023 Papers", blocks), "talks.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [(TITLES[0], ABSTRACT_A)]
    assert [d.kind for d in parsed.decisions].count("talk") == 2
    # Under a plain heading of talks, a markdown heading of papers ends it too.
    blocks = ["Tutorials", TUTORIAL, "### Accepted Papers", f"{TITLES[0]}", ABSTRACT_A]
    parsed = parse_dump(list_page("EMNLP 2023 Papers", blocks), "talks.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [(TITLES[0], ABSTRACT_A)]


def test_a_tutorials_volumes_page_keeps_its_tutorials_and_their_presenters():
    blocks = ["Tutorials", f"{TITLES[0]}\nPresenters: Alice Smith, Bob Jones", TUTORIAL]
    blocks += [f"{TITLES[1]}\nSpeaker: Jane Doe", ABSTRACT_B]
    parsed = parse_dump(list_page("ACL 2024 Tutorial Papers", blocks), "tutorials.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Alice Smith", "Bob Jones"], TUTORIAL),
        (TITLES[1], ["Jane Doe"], ABSTRACT_B),
    ]
    assert parsed.warnings == []


def test_markdown_headings_over_abstracts_are_their_titles_and_others_are_furniture():
    blocks = [
        f"### [{TITLES[0]}](https://aclanthology.org/2025.acl-long.1/)\n*Ada Lovelace, Alan Turing*",
        ABSTRACT_A,
        f"### {TITLES[1]}",
        ABSTRACT_B,
    ]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A, 6),
        (TITLES[1], [], ABSTRACT_B, 10),
    ]
    # A page of abstracts alone: its markdown heading is the page's own.
    blocks = [ABSTRACT_A, ABSTRACT_B, "### [All ACL 2025 papers](https://example.org/acl)"]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [("", [], ABSTRACT_A, 3), ("", [], ABSTRACT_B, 5)]
    assert parsed.decisions[-1].kind == "markup"


def test_authors_after_a_title_below_its_abstract():
    blocks = [ABSTRACT_A, TITLES[0], "Ada Lovelace, Alan Turing", ABSTRACT_B, TITLES[1]]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert titled_papers(parsed) == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A, 3),
        (TITLES[1], [], ABSTRACT_B, 9),
    ]


@pytest.mark.parametrize(
    "lines, authors, topics",
    [
        (
            ("Ada Lovelace, Alan Turing", "machine translation", "multilinguality"),
            ["Ada Lovelace", "Alan Turing"],
            ["machine translation", "multilinguality"],
        ),
        # One name alone could be a topic, and so could names of one word: they stay topics.
        (("Question Answering", "multilinguality"), [], ["Question Answering", "multilinguality"]),
        (("Discourse and Pragmatics",), [], ["Discourse and Pragmatics"]),
    ],
)
def test_a_line_of_names_under_a_lecture_pages_title_is_its_authors(lines, authors, topics):
    page = parse_dump(lecture_page(topics=lines), "lecture.txt").papers[0]
    assert ([a.name for a in page.authors], page.topics) == (authors, topics)


@pytest.mark.parametrize(
    "buttons",
    ["Share  |  Cite  |  Download PDF  |  Slides", "Add to calendar · Watch recording"],
)
def test_a_lecture_pages_buttons_are_neither_topics_nor_titles(buttons):
    # Under the page's title they became a public topic; after an abstract in the body, its
    # title (an outside curator).
    topics = ("Lena Hoffmann, Yusuf Demir, 김민준", "machine translation", "oral", buttons)
    page = lecture_page(topics=topics).replace(
        "\n\nAccent Adapters for Speech Recognition\n",
        f"\n\n{buttons}\n\nAccent Adapters for Speech Recognition\n",
        1,
    )
    parsed = parse_dump(page, "lecture.txt")
    first, second = parsed.papers[:2]
    assert (first.topics, first.presentation_format) == (["machine translation"], "oral")
    assert [a.name for a in first.authors] == ["Lena Hoffmann", "Yusuf Demir", "김민준"]
    assert (second.title, second.abstract) == ("Accent Adapters for Speech Recognition", ABSTRACT_B)
    assert [d.kind for d in parsed.decisions if d.text == fold_whitespace(buttons)] == [
        "markup"
    ] * 2


@pytest.mark.parametrize("where", ["after the venue", "after the title", "among the topics"])
def test_a_lecture_pages_buttons_anywhere_above_its_topics_are_passed_over(where):
    # After the venue line they were read as the title, and the title and authors as topics;
    # between the authors and the topics, the topics were stray lines (an outside tester).
    buttons = "Share | Cite | Download PDF"
    title, names = "Parallel Data for Yoruba Translation", "Hans Becker, Julia Schneider"
    lines = {
        "after the venue": (buttons, title, names, "machine translation", "oral"),
        "after the title": (title, buttons, names, "machine translation", "oral"),
        "among the topics": (title, names, buttons, "machine translation", buttons, "oral"),
    }[where]
    page = lecture_page(topics=lines[1:], furniture=False).replace(f"{title}\n\n", "", 1)
    page = page.replace("NAACL 2025\n\n", f"NAACL 2025\n\n{lines[0]}\n\n", 1)
    first = parse_dump(page, "lecture.txt").papers[0]
    assert (first.title, [a.name for a in first.authors]) == (title, names.split(", "))
    assert (first.topics, first.presentation_format) == (["machine translation"], "oral")


def test_a_lecture_pages_findings_venue_line_names_the_findings_volume():
    parsed = parse_dump(lecture_page(venue="NAACL 2024 Findings"), "lecture.txt")
    assert {p.venue for p in parsed.papers} == {"Findings of NAACL 2024"}
    assert next((v.name, v.parent) for v in parsed.venues) == (
        "Findings of NAACL 2024",
        "NAACL 2024",
    )


@pytest.mark.parametrize(
    "heading",
    [
        "## Detecting Hallucinations via Entailment Alignment\nAnna Smith, Bob Jones",
        "Detecting Hallucinations via Entailment Alignment\n\nAnna Smith, Bob Jones",
    ],
)
def test_a_list_of_one_paper_keeps_its_title_and_authors(heading):
    # Read as two papers' paragraphs, the title became a paper of its own, or was dropped with
    # its authors (an outside tester).
    parsed = parse_dump(f"EMNLP 2024 Papers\n\n{heading}\n\n{ABSTRACT_A}\n", "one.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (
            "Detecting Hallucinations via Entailment Alignment",
            ["Anna Smith", "Bob Jones"],
            ABSTRACT_A,
        )
    ]


STOPPED_TITLE = "Lyrebird Listening: Detecting Mimicked Speech in Low-Resource Languages"


@pytest.mark.parametrize("apart", ["\n", "\n\n"], ids=["same paragraph", "own paragraph"])
def test_a_title_ending_with_a_full_stop_heads_its_authors_and_abstract(apart):
    # The stop made the title prose: the page's papers lost their titles and authors, or the
    # names became the title, without a word (an outside curator).
    blocks = [f"{STOPPED_TITLE}.{apart}Chloe Walker, Arjun Mehta", ABSTRACT_A]
    blocks += [f"{TITLES[1]}\nEwa Nowak, Daniel Okafor", ABSTRACT_B]
    parsed = parse_dump(list_page("EMNLP 2025 Papers", blocks), "list.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (STOPPED_TITLE, ["Chloe Walker", "Arjun Mehta"], ABSTRACT_A),
        (TITLES[1], ["Ewa Nowak", "Daniel Okafor"], ABSTRACT_B),
    ]
    assert parsed.warnings == []


def test_a_lone_paper_whose_title_ends_with_a_full_stop_keeps_title_and_authors():
    title = "Smoke signals: generating plain-language bushfire smoke advisories"
    page = f"EMNLP 2025 Papers\n\n{title}.\nKiri Walsh, Ben Tran\n\n{ABSTRACT_A}\n"
    parsed = parse_dump(page, "one.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (title, ["Kiri Walsh", "Ben Tran"], ABSTRACT_A)
    ]
    assert parsed.warnings == []


LABELLED_TITLE = "Lyrebird Listening: Detecting Mimicked Speech in Low-Resource Languages"
AFFILIATIONS = "¹University of Amsterdam ²Universidad de Chile ³Qatar Computing Research Institute"


@pytest.mark.parametrize(
    "heading",
    [
        "{title}\n\nAuthor(s): Chloe Walker, Arjun Mehta",
        "{title}\n\nAuthors — Chloe Walker, Arjun Mehta",
        "{title}\n\nPresented by: Chloe Walker, Arjun Mehta",
        "{title}\n\nAuthors: Chloe Walker <c.walker@example.org>, Arjun Mehta <arjun@example.in>",
        f"{{title}}\n\nChloe Walker¹, Arjun Mehta²³\n\n{AFFILIATIONS}",
        f"{{title}}\n\nChloe Walker¹, Arjun Mehta²³\n{AFFILIATIONS}",
        f"{{title}}\nChloe Walker¹, Arjun Mehta²³\n{AFFILIATIONS}",
    ],
    ids=["Author(s)", "dash", "Presented by", "emails", "affiliations apart", "under", "one"],
)
def test_a_labelled_author_line_and_its_affiliations_take_no_titles_place(heading):
    # Each made the names (or the affiliations) the paper's title, and dropped the title,
    # without a word (an outside curator).
    page = f"EMNLP 2024 Papers\n\n{heading.format(title=LABELLED_TITLE)}\n\n{ABSTRACT_A}\n"
    parsed = parse_dump(page, "one.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (LABELLED_TITLE, ["Chloe Walker", "Arjun Mehta"], ABSTRACT_A)
    ]
    assert parsed.warnings == []


def test_a_short_abstract_among_abstracts_alone_is_not_read_as_a_title():
    blocks = [ABSTRACT_A, "A short abstract that ends without a period", ABSTRACT_B, ABSTRACT_C]
    parsed = parse_dump(list_page("ACL 2025 Papers", blocks), "list.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [("", block) for block in blocks]


@pytest.mark.parametrize(
    "line, names",
    [
        ("Ada Lovelace and Alan Turing", ["Ada Lovelace", "Alan Turing"]),
        ("Hinrich Schütze; Ivan Vulić", ["Hinrich Schütze", "Ivan Vulić"]),
        ("Dilek Hakkani-Tür, J. R. R. Tolkien", ["Dilek Hakkani-Tür", "J. R. R. Tolkien"]),
        ("Detecting Hallucinations with Synthetic Errors", []),
        ("We study parsing and translation.", []),
        ("Ada", []),
        ("BERT, GPT and T5", []),
        ("Large Language Models", []),
        ("Neural Machine Translation Revisited", []),
        ("Nan Du, Quoc V. Le, Mausam", ["Nan Du", "Quoc V. Le", "Mausam"]),
        ("Ada Lovelace¹², Alan Turing³♠", ["Ada Lovelace", "Alan Turing"]),
        ("Ada Lovelace, and Ana d'Almeida", ["Ada Lovelace", "Ana d'Almeida"]),
        ("محمد علي, فاطمة حسن", ["محمد علي", "فاطمة حسن"]),
        ("Authors: Ada Lovelace, Alan Turing", ["Ada Lovelace", "Alan Turing"]),
        ("👥 Taiqi He, Vito D’Orazio", ["Taiqi He", "Vito D’Orazio"]),
        ("Discourse and Pragmatics", []),
        ("Ada Lovelace, UMass Amherst", []),
        # Dropped before (an outside tester): vowel signs are marks, not letters; a source may
        # write Vietnamese decomposed; Chinese lists separate names with a full-width comma.
        ("राहुल शर्मा, प्रिया पटेल", ["राहुल शर्मा", "प्रिया पटेल"]),
        ("Nguye\u0302\u0303n Va\u0306n Anh, Ada Lovelace", ["Nguyễn Văn Anh", "Ada Lovelace"]),
        ("王小明，李娜、张伟", ["王小明", "李娜", "张伟"]),
        # A bibliography's names, family first, and an Arabic list (an outside tester's: the
        # first cost its page every title).
        ("Müller, J.; Schmidt, A. B.; Li, X.-Y.", ["J. Müller", "A. B. Schmidt", "X.-Y. Li"]),
        ("محمد علي، فاطمة حسن", ["محمد علي", "فاطمة حسن"]),
        ("Müller, J.", []),
        # Family name first with given names written out, or mixed, or apart by bars (an
        # outside curator: each made a page's titles and authors an abstract).
        ("Manning, Christopher D.", ["Christopher D. Manning"]),
        ("Manning, Christopher D.; Ana Núñez", ["Christopher D. Manning", "Ana Núñez"]),
        ("Müller, Lukas and Dubois, Émilie", ["Lukas Müller", "Émilie Dubois"]),
        ("Authors: O'Brien, Seán and Dmitry Ivanov", ["Seán O'Brien", "Dmitry Ivanov"]),
        ("van den Bosch, Antal & Daelemans, W.", ["Antal van den Bosch", "W. Daelemans"]),
        ("J. R. R. Tolkien | C.S. Lewis", ["J. R. R. Tolkien", "C.S. Lewis"]),
        ("Manning, Christopher", []),
        ("Parsing, Tagging and Chunking", []),
        ("Attention, Please", []),
        ("Attention, Please and Thank You", []),
        # A line ending with a generation, an initial or "et al.", and a generation between
        # commas: each made its page's titles abstracts (an outside curator).
        ("Dan Jurafsky, Martin Luther King Jr.", ["Dan Jurafsky", "Martin Luther King Jr."]),
        ("Martin Luther King, Jr., Dan Jurafsky", ["Martin Luther King Jr.", "Dan Jurafsky"]),
        ("Noah Smith, Dan Jurafsky, et al.", ["Noah Smith", "Dan Jurafsky"]),
        ("Smith N., Jurafsky D.", ["Smith N.", "Jurafsky D."]),
        ("This is a sentence with A.", []),
        ("O'Brien, Seán and Dmitry Ivanov", []),
        # Other labels, and emails after the names: each made the names the title, and the
        # title was dropped (an outside curator).
        ("Author(s): Chloe Walker, Arjun Mehta", ["Chloe Walker", "Arjun Mehta"]),
        ("Authors — Chloe Walker, Arjun Mehta", ["Chloe Walker", "Arjun Mehta"]),
        ("Presented by: Chloe Walker, Arjun Mehta", ["Chloe Walker", "Arjun Mehta"]),
        (
            "Authors: Chloe Walker <c.walker@example.org>, Arjun Mehta <arjun@example.in>",
            ["Chloe Walker", "Arjun Mehta"],
        ),
        (
            "Author(s): 山田太郎 <yamada@example.jp>, Иван Петров <ipetrov@example.ru>, محمد الأحمد",
            ["山田太郎", "Иван Петров", "محمد الأحمد"],
        ),
        # A talk's labels (they became papers' titles: an outside curator).
        ("Speaker: Prof. Jane Doe (Stanford University)", ["Prof. Jane Doe"]),
        ("Presenters: Alice Smith, Bob Jones", ["Alice Smith", "Bob Jones"]),
        # Affiliations in square brackets (the line was no names: a curator's trial page).
        ("Ana Lopes [Unbabel], Pedro Costa [IST Lisbon]", ["Ana Lopes", "Pedro Costa"]),
        ("Ana Lopes [Unbabel] and 王小明 [Tsinghua University]", ["Ana Lopes", "王小明"]),
    ],
)
def test_author_lines(line, names):
    assert author_names(line) == names


def test_titles_over_names_family_first_head_their_abstracts():
    # "Manning, Christopher D." under a title made each title and author line an abstract of
    # its own: four papers without titles or authors, and no warning (an outside curator).
    page = "\n\n".join(
        [
            "ACL 2023 Papers",
            "Stance Detection in Parliamentary Debates\nSara Rossi, Marco Bianchi",
            ABSTRACT_A,
            "Grammar Induction from Child-Directed Speech\nManning, Christopher D.; Ana Núñez",
            ABSTRACT_B,
        ]
    )
    parsed = parse_dump(page, "list.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        ("Stance Detection in Parliamentary Debates", ["Sara Rossi", "Marco Bianchi"], ABSTRACT_A),
        (
            "Grammar Induction from Child-Directed Speech",
            ["Christopher D. Manning", "Ana Núñez"],
            ABSTRACT_B,
        ),
    ]


@pytest.mark.parametrize(
    ("first", "country"),
    [
        ("Germany", "Germany"),
        ("South Korea", "South Korea"),
        ("Poster Session 3", ""),
        ("Online", ""),
        ("Spotlight", ""),
        ("Main Conference", ""),
        ("On-demand", ""),
    ],
)
def test_a_lecture_pages_session_line_is_no_country(first, country):
    # "Poster Session 3" was the paper's country, offered on the public list (an outside curator).
    page = lecture_page(furniture=False).replace("Germany", first, 1)
    paper = parse_dump(page, "lecture.txt").papers[0]
    assert (paper.country, paper.title) == (country, "Parallel Data for Yoruba Translation")


def test_a_forms_fields_under_a_title_are_read_past():
    # "Keywords: …" and "TL;DR: …" under the authors made each heading prose: four papers
    # without titles or authors, no warning (an outside curator).
    heading = "{title}\nKenji Tanaka, Ana Núñez\nKeywords: speech, curricula\nTL;DR: It helps."
    blocks = [heading.format(title=TITLES[0]), f"Abstract\n{ABSTRACT_A}"]
    blocks += [heading.format(title=TITLES[1]), f"Abstract\n{ABSTRACT_B}"]
    parsed = parse_dump(list_page("EMNLP 2024 Papers", blocks), "list.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Kenji Tanaka", "Ana Núñez"], ABSTRACT_A),
        (TITLES[1], ["Kenji Tanaka", "Ana Núñez"], ABSTRACT_B),
    ]


@pytest.mark.parametrize(
    "heading",
    [
        "{title}\nKenji Tanaka and Ana Núñez\n{abstract}",
        "1. {title}\nKenji Tanaka and Ana Núñez\nAbstract: {abstract}",
        "{title}\nKenji Tanaka and Ana Núñez\nAbstract:\n{abstract}",
    ],
)
def test_a_title_its_authors_and_abstract_in_one_paragraph_are_read_apart(heading):
    # With no blank line between them, the whole paragraph was the abstract: papers without
    # titles or authors, no warning (an outside curator).
    blocks = [heading.format(title=TITLES[0], abstract=ABSTRACT_A)]
    blocks += [heading.format(title=TITLES[1], abstract=ABSTRACT_B).replace("1. ", "2. ")]
    parsed = parse_dump(list_page("EMNLP 2024 Papers", blocks), "list.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Kenji Tanaka", "Ana Núñez"], ABSTRACT_A),
        (TITLES[1], ["Kenji Tanaka", "Ana Núñez"], ABSTRACT_B),
    ]
    assert parsed.warnings == []


def test_an_abstracts_second_paragraph_is_its_own_and_the_page_keeps_its_titles():
    # One abstract going on over two paragraphs left every heading of the page unpaired: all
    # its papers lost their titles and authors, and the paragraph became a paper (an outside
    # curator).
    blocks = [f"{TITLES[0]}\nKenji Tanaka and Ana Núñez", ABSTRACT_A, ABSTRACT_D]
    blocks += [f"{TITLES[1]}\nSara Rossi and Marco Bianchi", ABSTRACT_B]
    blocks += [f"{TITLES[2]}\nLi Wei and Omar Haddad", ABSTRACT_C]
    parsed = parse_dump(list_page("NAACL 2022 Papers", blocks), "list.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [
        (TITLES[0], f"{ABSTRACT_A}\n\n{ABSTRACT_D}"),
        (TITLES[1], ABSTRACT_B),
        (TITLES[2], ABSTRACT_C),
    ]
    assert parsed.warnings == [
        f"list.txt, line 8: a paragraph with no title, read as “{TITLES[0]}”'s abstract going on"
    ]


def test_one_author_or_many_on_a_line_of_their_own_are_the_papers_authors():
    # "Alan Turing" alone under the title became the title, the title dropped; 32 names on
    # their own line became a paper, and in the title's paragraph made it prose (an outside
    # curator). "Robots Talk" under a session's heading stays a title.
    many = ", ".join(
        f"Author{chr(65 + n // 26)}{chr(97 + n % 26)} Familyname{n}" for n in range(32)
    )
    blocks = [f"{TITLES[0]}", "Alan Turing", ABSTRACT_A, f"{TITLES[1]}\n{many}", ABSTRACT_B]
    blocks += [f"{TITLES[2]}", many, ABSTRACT_C]
    parsed = parse_dump(list_page("EMNLP 2023 Papers", blocks), "list.txt")
    assert [(p.title, len(p.authors), p.abstract) for p in parsed.papers] == [
        (TITLES[0], 1, ABSTRACT_A),
        (TITLES[1], 32, ABSTRACT_B),
        (TITLES[2], 32, ABSTRACT_C),
    ]
    session = ["Oral Session 1", "Robots Talk", ABSTRACT_A, TITLES[1], ABSTRACT_B]
    parsed = parse_dump(list_page("EMNLP 2023 Papers", session), "session.txt")
    assert [(p.title, p.authors) for p in parsed.papers] == [
        ("Robots Talk", []),
        (TITLES[1], []),
    ]


def test_a_second_header_on_a_list_page_names_its_sections_venue():
    # A page of two venues' lists put the second's papers under the first, its header a stray
    # line, with no warning (an outside curator).
    blocks = [f"{TITLES[0]}\nAda Lovelace and Alan Turing", ABSTRACT_A, "ACL 2023 Short Papers"]
    blocks += [f"{TITLES[1]}\nGrace Hopper and Ada Lovelace", ABSTRACT_B]
    parsed = parse_dump(list_page("EMNLP 2023 Papers", blocks), "two.txt")
    assert [(p.title, p.venue) for p in parsed.papers] == [
        (TITLES[0], "EMNLP 2023"),
        (TITLES[1], "ACL 2023 (Short Papers)"),
    ]
    assert [venue.name for venue in parsed.venues] == ["EMNLP 2023", "ACL 2023 (Short Papers)"]


def test_a_chinese_list_page_reads_its_titles_authors_and_abstracts():
    # Its abstracts, ending in "。", were read as titles, and the page refused: "no paper found"
    # (an outside curator).
    abstracts = [
        "本文提出了一种基于大语言模型的中文文本摘要方法。我们在三个公开数据集上进行了实验。",
        "低资源语言的机器翻译仍然是一个难题。本文收集了一个新的平行语料库。",
    ]
    blocks = [
        "中文文本摘要方法研究\n王小明，李娜",
        abstracts[0],
        "面向低资源语言的机器翻译\n张伟，刘洋",
    ]
    parsed = parse_dump(list_page("EMNLP 2023 论文列表", [*blocks, abstracts[1]]), "zh.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        ("中文文本摘要方法研究", ["王小明", "李娜"], abstracts[0]),
        ("面向低资源语言的机器翻译", ["张伟", "刘洋"], abstracts[1]),
    ]


def test_a_markdown_table_is_no_paper():
    # A programme's schedule as a markdown table was loaded whole as an untitled paper's
    # abstract, tagged with a topic, without a word (an outside curator).
    table = "| Time | Title | Authors |\n|------|-------|---------|\n| 9:00 | Parsing | Ada |"
    with pytest.raises(DumpError, match="no paper found"):
        parse_dump(list_page("ACL 2024 Papers", [table]), "table.txt")
    parsed = parse_dump(list_page("ACL 2024 Papers", [ABSTRACT_A, table, ABSTRACT_B]), "t.txt")
    assert [paper.abstract for paper in parsed.papers] == [ABSTRACT_A, ABSTRACT_B]


def test_a_lecture_pages_names_family_first_are_its_authors_not_a_topic():
    # "Müller, Lukas and Dubois, Émilie" under the title became a public topic (an outside
    # curator).
    title = "Parallel Data for Yoruba Translation"
    page = lecture_page(furniture=False).replace(
        f"{title}\n", f"{title}\n\nMüller, Lukas and Dubois, Émilie\n", 1
    )
    paper = parse_dump(page, "lecture.txt").papers[0]
    assert (paper.title, [a.name for a in paper.authors], paper.topics) == (
        title,
        ["Lukas Müller", "Émilie Dubois"],
        ["machine translation", "multilinguality"],
    )


def test_list_page_paragraph_whitespace_is_folded():
    parsed = parse_dump("ACL 2024 Papers\n\nOne   line\nand  another.\n", "list.txt")
    assert parsed.papers[0].abstract == "One line and another."


@pytest.mark.parametrize(
    "text, message, line",
    [
        ("", "the file is empty", None),
        ("\n\n   \n", "the file is empty", None),
        ("Papers\n\n" + ABSTRACT_A, "names no venue", 1),
        ("论文列表\n\n" + ABSTRACT_A, "names no venue", 1),
        ("ACL 2025 Workshop Papers\n\n" + ABSTRACT_A, "not a volume of it the loader knows", 1),
        ("Findings of ACL 2024 Short Papers\n\n" + ABSTRACT_A, "not a volume of it", 1),
        # A year, but no venue: not "IN 2024", "July 2024" or "Session A 2024".
        ("Papers accepted in 2024\n\n" + ABSTRACT_A, "names no venue", 1),
        ("Papers, July 2024\n\n" + ABSTRACT_A, "names no venue", 1),
        ("Papers: Session A 2024\n\n" + ABSTRACT_A, "names no venue", 1),
        ("ACL 2025 Papers\n", "no paper found", None),
        ("Just some words\n\nand more words without any venue line.\n", "no venue line", 1),
    ],
)
def test_unparseable_dumps_raise_a_clear_error(text, message, line):
    with pytest.raises(DumpError) as raised:
        parse_dump(text, "bad.txt")
    assert message in str(raised.value)
    assert str(raised.value).startswith("bad.txt")
    assert raised.value.line == line


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=200),
            st.sampled_from(
                [
                    "ACL 2025",
                    "ACL 2025 Papers",
                    "China",
                    "Downloads",
                    "Similar lecture",
                    "### Welcome",
                    "poster",
                ]
            ),
        ),
        max_size=12,
    ).map("\n\n".join)
)
def test_any_text_gives_records_or_the_loaders_own_error(text):
    try:
        parsed = parse_dump(text, "fuzz.txt")
    except DumpError:
        return
    assert parsed.papers
    assert all(paper.abstract.strip() and paper.venue for paper in parsed.papers)


LINKS = "[PDF](https://aclanthology.org/2024.acl-long.1.pdf) [Code](https://github.com/x/y)"


@pytest.mark.parametrize("where", ["after", "before"])
def test_a_line_of_links_in_a_papers_paragraph_leaves_the_paper(where):
    # A line of links ending (or starting) a paper's paragraph made the whole paragraph
    # markup: the paper was left out, without a word (a curator's trial page).
    lines = [TITLES[0], "Ada Lovelace, Alan Turing", ABSTRACT_A]
    lines = [*lines, LINKS] if where == "after" else [LINKS, *lines]
    blocks = ["\n".join(lines), f"{TITLES[1]}\nBo Chen, Cai Wu\n{ABSTRACT_B}"]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "links.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]
    assert ("markup", 6 if where == "after" else 3) in [(d.kind, d.line) for d in parsed.decisions]


def test_a_linked_title_and_linked_names_are_read_as_their_text():
    # Dropped as a line of links, the title was lost and the names made the abstract's
    # opening (a reviewer); they are the paper's title and authors.
    linked = [
        f"[{TITLES[0]}](https://aclanthology.org/2024.acl-long.1/)",
        "[Ada Lovelace](https://a.org/ada), [Alan Turing](https://a.org/alan)",
        ABSTRACT_A,
    ]
    blocks = ["\n".join(linked), f"{TITLES[1]}\nBo Chen, Cai Wu\n{ABSTRACT_B}"]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "links.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]


@pytest.mark.parametrize(
    "blocks",
    [
        # In the abstract's paragraph: the whole paragraph was markup, and the page "no paper
        # found" (a curator's trial page).
        [
            f"1. **{TITLES[0]}**\n*Ada Lovelace, Alan Turing*\n{ABSTRACT_A}",
            f"2. **{TITLES[1]}**\n_Bo Chen, Cai Wu_\n{ABSTRACT_B}",
        ],
        # In the title's paragraph: the abstracts were loaded without titles or authors.
        [
            f"**{TITLES[0]}**\n*Ada Lovelace, Alan Turing*",
            ABSTRACT_A,
            f"**{TITLES[1]}**\n_Bo Chen, Cai Wu_",
            ABSTRACT_B,
        ],
    ],
)
def test_authors_names_in_italics_under_a_title_are_its_authors(blocks):
    parsed = parse_dump(list_page("EMNLP 2023 Papers", blocks), "italics.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]
    assert parsed.warnings == []


def test_an_italic_line_of_prose_in_a_paragraph_is_still_markup():
    blocks = [
        f"{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}",
        "*Slides will follow.*\nSoon",
    ]
    parsed = parse_dump(list_page("EMNLP 2023 Papers", blocks), "italics.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [(TITLES[0], ABSTRACT_A)]


def test_affiliations_in_square_brackets_leave_the_titles_and_authors():
    # The line of names was no author line: the page's titles could not be paired, and a
    # title with its authors became a paper of its own, the abstract another (a curator's
    # trial page).
    blocks = [
        f"{TITLES[0]}\nAna Lopes [Unbabel], Pedro Costa [Instituto Superior Técnico]\n{ABSTRACT_A}",
        f"{TITLES[1]}\nAhmet Yılmaz (Koç University), Ayşe Kaya\n{ABSTRACT_B}",
    ]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "brackets.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ana Lopes", "Pedro Costa"], ABSTRACT_A),
        (TITLES[1], ["Ahmet Yılmaz", "Ayşe Kaya"], ABSTRACT_B),
    ]
    assert parsed.warnings == []


@pytest.mark.parametrize(
    "award",
    ["Best Paper Award", "🏆 Outstanding Paper", "Outstanding Paper:", "**Best Short Paper**"],
)
def test_an_award_above_a_title_is_no_part_of_the_paper(award):
    # Above a title in its paragraph, "🏆 Outstanding Paper" took the title's place, and
    # "Best Paper Award" made the page's titles abstracts of their own (a curator's trial page).
    blocks = [
        f"{award}\n{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}",
        f"{TITLES[1]}\nBo Chen, Cai Wu\n{ABSTRACT_B}",
        award,
        f"{TITLES[2]}\nDee Diaz, Eve Ng\n{ABSTRACT_C}",
    ]
    parsed = parse_dump(list_page("LREC-COLING 2024 Papers", blocks), "awards.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
        (TITLES[2], ["Dee Diaz", "Eve Ng"], ABSTRACT_C),
    ]
    assert [(d.line, d.kind) for d in parsed.decisions if d.line in (3, 12)] == [
        (3, "markup"),
        (12, "markup"),
    ]
    assert parsed.warnings == []


@pytest.mark.parametrize("title", ["Best Practices for Paper Reviewing", "Outstanding Issues"])
def test_a_title_that_starts_as_an_award_does_stays_the_title(title):
    blocks = [
        f"{title}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}",
        f"{TITLES[1]}\nBo Chen\n{ABSTRACT_B}",
    ]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "awards.txt")
    assert [p.title for p in parsed.papers] == [title, TITLES[1]]


@pytest.mark.parametrize(
    "talk",
    [
        # Title, speaker and abstract in one paragraph, or the abstract in the next one: each
        # became a paper, its speaker its author (a curator's trial page).
        [f"Keynote: The Future of NLP\nSpeaker: Yoshua Bengio\n{TALK}"],
        ["Invited Talk: Why Language Models Need Linguistics\nEmily Bender (UW)", KEYNOTE],
        ["## Keynote — The Future of NLP", TALK],
        # No abstract: the next paper's paragraph is its own.
        ["Keynote: The Future of NLP\nSpeaker: Yoshua Bengio"],
    ],
)
def test_a_talk_named_so_in_its_title_is_not_a_paper(talk):
    blocks = [f"{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}", *talk]
    blocks += [f"{TITLES[1]}\nBo Chen, Cai Wu\n{ABSTRACT_B}"]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "talks.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]
    heading = talk[0].splitlines()[0].lstrip("# ")
    assert parsed.warnings == [f"talks.txt, line 7: “{heading}” is a talk, not a paper: left out"]
    assert [d.kind for d in parsed.decisions].count("talk") == len(talk)


def test_a_talks_title_alone_leaves_the_next_paragraph_to_the_next_paper():
    # On a page with each abstract above its title, a keynote's title alone took the next
    # paper's abstract, and that paper was given the keynote's (a reviewer).
    blocks = [ABSTRACT_A, TITLES[0], TALK, "Keynote: The Future of NLP", ABSTRACT_B, TITLES[1]]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "talks.txt")
    assert [(p.title, p.abstract) for p in parsed.papers] == [
        (TITLES[0], ABSTRACT_A),
        (TITLES[1], ABSTRACT_B),
    ]
    # "Panel" alone names papers too.
    blocks = [
        f"{TITLES[0]}\nAda Lovelace\n{ABSTRACT_A}",
        f"PANEL: Panel Talk Data\nBo Chen\n{ABSTRACT_B}",
    ]
    titles = [p.title for p in parse_dump(list_page("ACL 2024 Papers", blocks), "t.txt").papers]
    assert titles == [TITLES[0], "PANEL: Panel Talk Data"]


def test_a_paper_whose_title_names_a_keynote_further_in_stays():
    title = "Summarising Keynote Talks: A Dataset"
    blocks = [
        f"{title}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}",
        f"{TITLES[1]}\nBo Chen\n{ABSTRACT_B}",
    ]
    parsed = parse_dump(list_page("ACL 2024 Papers", blocks), "talks.txt")
    assert [p.title for p in parsed.papers] == [title, TITLES[1]]


def test_a_heading_naming_a_volume_alone_names_its_sections_venue():
    # "Short Papers" and "Findings" under "ACL 2024 Accepted Papers" put those papers under
    # ACL 2024, the main volume (a curator's trial page: accepted papers pages list them so).
    blocks = ["Long Papers", f"{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}"]
    blocks += ["## Short Papers", f"{TITLES[1]}\nBo Chen, Cai Wu\n{ABSTRACT_B}"]
    blocks += ["**Findings of ACL**", f"{TITLES[2]}\nDee Diaz, Eve Ng\n{ABSTRACT_C}"]
    blocks += ["Main Conference Papers", f"Robots Talk\nFay Li, Gus Ro\n{ABSTRACT_D}"]
    parsed = parse_dump(list_page("ACL 2024 Accepted Papers", blocks), "volumes.txt")
    assert [(p.title, [a.name for a in p.authors], p.venue) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], "ACL 2024"),
        (TITLES[1], ["Bo Chen", "Cai Wu"], "ACL 2024 (Short Papers)"),
        (TITLES[2], ["Dee Diaz", "Eve Ng"], "Findings of ACL 2024"),
        ("Robots Talk", ["Fay Li", "Gus Ro"], "ACL 2024"),
    ]
    assert [venue.name for venue in parsed.venues] == [
        "ACL 2024",
        "ACL 2024 (Short Papers)",
        "Findings of ACL 2024",
        "ACL 2024",
    ]
    assert parsed.warnings == []


@pytest.mark.parametrize("heading", ["Short Papers", "Findings"])
def test_a_volume_heading_under_a_volumes_header_is_that_volumes(heading):
    blocks = [heading, f"{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}"]
    parsed = parse_dump(list_page(f"EMNLP 2024 {heading}", blocks), "volumes.txt")
    venue = "EMNLP 2024 (Short Papers)" if heading == "Short Papers" else "Findings of EMNLP 2024"
    assert [p.venue for p in parsed.papers] == [venue]
    assert [v.name for v in parsed.venues] == [venue]  # one section, not two of one venue


@pytest.mark.parametrize(
    "header, heading",
    [
        # A Findings page's long papers are its own; a workshop has no Findings nor volumes of
        # short papers ("Findings of WMT 2023" was made up: a reviewer).
        ("Findings of EMNLP 2023 Papers", "Long Papers"),
        ("WMT 2023 Papers", "Findings"),
        ("BlackboxNLP 2024 Papers", "Short Papers"),
    ],
)
def test_a_volume_heading_names_a_volume_of_a_main_conferences_page_only(header, heading):
    blocks = [heading, f"{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}"]
    parsed = parse_dump(list_page(header, blocks), "volumes.txt")
    assert [v.name for v in parsed.venues] == [header.removesuffix(" Papers")]


@pytest.mark.parametrize(
    "menu",
    [
        "Home | Program | Accepted Papers | Registration | Venue | Sponsors",
        "Home\nCall for Papers\nAccepted Papers\nRegistration",
        "[Home](/) · [Program](/program) · [Papers](/papers)",
    ],
)
def test_a_sites_menu_above_a_list_pages_header_is_passed_over(menu):
    # The page was refused: "the list header 'Home | Program | Accepted Papers | …' names no
    # venue", or "not a list page" (a curator's trial page saved with its menu).
    blocks = [f"{TITLES[0]}\nAda Lovelace, Alan Turing\n{ABSTRACT_A}"]
    blocks += [f"{TITLES[1]}\nBo Chen, Cai Wu\n{ABSTRACT_B}"]
    parsed = parse_dump(menu + "\n\n" + list_page("ACL 2024 Papers", blocks), "menu.txt")
    assert [(p.title, p.venue) for p in parsed.papers] == [
        (TITLES[0], "ACL 2024"),
        (TITLES[1], "ACL 2024"),
    ]
    assert [(d.line, d.kind) for d in parsed.decisions][:2] == [
        (1, "markup"),
        (len(menu.splitlines()) + 2, "header"),
    ]


@pytest.mark.parametrize("number", ["Paper #1234", "Paper ID: 42", "#517", "Submission 88"])
def test_a_papers_number_above_its_title_is_a_label(number):
    # "Paper #1234" above the title in its paragraph took the title's place, and the title was
    # dropped (a curator's trial page of a Mini-Conf site).
    blocks = [f"{number}\n{TITLES[0]}\nAda Lovelace · Alan Turing\n{ABSTRACT_A}"]
    blocks += [f"{number}9\n{TITLES[1]}\nBo Chen · Cai Wu\n{ABSTRACT_B}"]
    parsed = parse_dump(list_page("EACL 2024 Papers", blocks), "numbers.txt")
    assert [(p.title, [a.name for a in p.authors], p.abstract) for p in parsed.papers] == [
        (TITLES[0], ["Ada Lovelace", "Alan Turing"], ABSTRACT_A),
        (TITLES[1], ["Bo Chen", "Cai Wu"], ABSTRACT_B),
    ]
    assert [(d.line, d.kind) for d in parsed.decisions if d.line in (3, 8)] == [
        (3, "markup"),
        (8, "markup"),
    ]
