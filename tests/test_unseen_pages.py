"""The dump reader on pages it never saw: generated from real Anthology records and a pool of
furniture (tests/pagegen.py), and written by hand for each case the generator stands for.

PAGEGEN_PAGES sets how many generated pages each property test reads (fixed seeds, so a run
is reproducible; a failing page is named by its seed).
"""

import os

import pytest

from papers.dumps import parse_dump
from tests.conftest import SEED_FILES
from tests.factories import ABSTRACT_A, ABSTRACT_B, ABSTRACT_C
from tests.pagegen import generate, pages, score

PAGES = int(os.environ.get("PAGEGEN_PAGES", "300"))
TARGET = 0.99


def check(records, first_seed: int) -> None:
    result = score(pages(records, PAGES, first_seed), parse_dump)
    print(result.describe())
    assert result.noise == []
    assert result.right / result.total >= TARGET, (result.describe(), result.wrong[:20])


def test_generated_pages_from_the_committed_sample(sample_records):
    check(sample_records, first_seed=0)


def test_generated_pages_from_the_anthology(anthology_records):
    check(anthology_records, first_seed=100_000)


def test_the_generator_makes_every_kind_of_page(sample_records):
    texts = [page.text for page in pages(sample_records, 200)]
    assert sum(text.startswith("\ufeff") for text in texts) > 10
    assert sum("\r\n" in text for text in texts) > 20
    assert sum("论文" in text.split("\n", 1)[0] for text in texts) > 5
    assert sum("Downloads" not in text for text in texts) > 20
    assert sum("will take place in" in text for text in texts) > 10
    expected = [paper for page in pages(sample_records, 200) for paper in page.expected]
    assert sum("\n\n" in paper.abstract for paper in expected) > 50
    assert sum(paper.title == "" for paper in expected) > 50


def test_a_generated_page_is_reproduced_by_its_seed(sample_records):
    assert generate(sample_records, 7) == generate(sample_records, 7)
    assert generate(sample_records, 7) != generate(sample_records, 8)


# Hand-written pages, one per case ------------------------------------------------------


def lecture(*body: str, venue: str = "EACL 2024") -> str:
    head = ["Malta", ABSTRACT_A, venue, "Parallel Data for Yoruba Translation", "multilinguality"]
    return "\n\n".join([*head, *body]) + "\n"


def papers_of(text: str) -> list[tuple[str, str]]:
    return [(paper.title, paper.abstract) for paper in parse_dump(text, "page.txt").papers]


EVENT_PROSE = [
    "EACL 2024 will take place in St. Julian's, Malta, at the conference centre and online "
    "for remote participants.",
    "The conference will be hybrid, with both in-person and virtual attendance options.",
    "Lunch is provided for all registered attendees on the first two days.",
    "Don't forget to pick up your badge at the registration desk.",
    "We look forward to seeing you in Valletta at EACL!",
    "Coffee breaks are served in the foyer.",
]


@pytest.mark.parametrize("prose", EVENT_PROSE)
def test_event_prose_without_dates_is_never_joined_to_the_next_abstract(prose):
    page = lecture(prose, ABSTRACT_B, "Accent Adapters for Speech Recognition")
    assert papers_of(page)[1] == ("Accent Adapters for Speech Recognition", ABSTRACT_B)
    decision = next(d for d in parse_dump(page, "page.txt").decisions if d.line == 11)
    assert decision.kind == "event prose"


def test_event_prose_before_an_untitled_last_abstract_is_set_aside():
    page = lecture(EVENT_PROSE[0], ABSTRACT_B, "Downloads")
    assert papers_of(page)[1] == ("", ABSTRACT_B)


def test_a_multi_paragraph_abstract_still_joins_after_event_prose():
    page = lecture(EVENT_PROSE[1], ABSTRACT_B, ABSTRACT_C, "Two Paragraphs")
    assert papers_of(page)[1] == ("Two Paragraphs", f"{ABSTRACT_B}\n\n{ABSTRACT_C}")


@pytest.mark.parametrize(
    "prompt",
    [
        "Please log in",
        "Please register!",
        "欢迎参加 EACL 2024！",
        "Welcome!",
        "Celebrate EACL in Malta",
    ],
)
def test_prompts_right_after_the_topics_are_not_topics(prompt):
    parsed = parse_dump(lecture(prompt, ABSTRACT_B, "Accent Adapters"), "page.txt")
    assert parsed.papers[0].topics == ["multilinguality"]
    assert len(parsed.papers) == 2


def test_another_events_card_and_site_footer_are_not_papers():
    page = lecture(
        "COLING 2026",
        "Welcome to The 32nd International Conference on Computational Linguistics (COLING 2026)",
        "oral",
        ABSTRACT_B,
        "Accent Adapters",
        "Copyright © 2024 the EACL organisers. All rights reserved.",
    )
    assert [title for title, _ in papers_of(page)] == [
        "Parallel Data for Yoruba Translation",
        "Accent Adapters",
    ]


def test_event_prose_on_a_list_page_is_not_a_paper():
    page = "\n\n".join(["EACL 2024 论文列表", ABSTRACT_A, EVENT_PROSE[0], ABSTRACT_B]) + "\n"
    assert papers_of(page) == [("", ABSTRACT_A), ("", ABSTRACT_B)]


def test_an_abstract_about_online_events_stays_an_abstract():
    abstract = (
        "Online discussion forums host many debates. We collect a corpus of threads and "
        "train a model that predicts which replies will be registered as helpful."
    )
    page = lecture(abstract, "Forum Replies")
    assert papers_of(page)[1] == ("Forum Replies", abstract)


def test_a_seed_shaped_page_of_another_event_without_dates_reads_as_the_seed_does():
    seed = SEED_FILES[4].read_text(encoding="utf-8")
    dated = (
        "EMNLP 2024 will take place in Miami, Florida from Nov 12th to Nov 16th, 2024, at the "
        "Hyatt Regency Miami Hote and on Underline for remote participants."
    )
    assert dated in seed
    other = seed.replace(dated, EVENT_PROSE[0]).replace("EMNLP 2024", "EACL 2024")
    expected = [
        (paper.title, paper.abstract, paper.topics, paper.country)
        for paper in parse_dump(seed, "seed.txt").papers
    ]
    parsed = parse_dump(other, "other.txt")
    assert [(p.title, p.abstract, p.topics, p.country) for p in parsed.papers] == expected
    assert {paper.venue for paper in parsed.papers} == {"EACL 2024"}
    eacl = next(venue for venue in parsed.venues if venue.name == "EACL 2024")
    assert (eacl.location, eacl.start_date) == ("St. Julian's, Malta", None)
