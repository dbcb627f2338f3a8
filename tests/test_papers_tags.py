"""The line saying why a paper is similar, and the numbers it writes
(papers/templatetags/papers_tags.py)."""

from types import SimpleNamespace

import pytest
from django.template.defaultfilters import floatformat

from papers.templatetags.papers_tags import decimals, page_span, similar_why


def test_a_similar_paper_s_reasons_in_words_then_their_weights():
    item = SimpleNamespace(
        explanation=[
            {"signal": "text", "weight": 0.61234, "terms": [{"term": "kv cache"}, {"term": "<b>"}]},
            {"signal": "authors", "weight": 0.1, "authors": ["Ana & Bo", "Chen"]},
            {"signal": "year", "weight": 0.02, "year": 2024},
            {"signal": "venue", "weight": 0.03, "venue": "ACL 2024"},
            {"signal": "areas", "weight": 0.05, "areas": ["Machine Translation"]},
            {"signal": "topics", "weight": 0.04, "topics": ["Long Context", "Efficient Inference"]},
        ]
    )
    assert similar_why(item) == (
        '<p class="shared">Why: both use “kv cache”, “&lt;b&gt;” · '
        "same authors: Ana &amp; Bo, Chen · same year (2024) · same conference (ACL 2024) · "
        "same area: Machine Translation · shared topics: Long Context, Efficient Inference "
        '<span class="score-parts">(score: text 0.61, authors +0.10, year +0.02, venue +0.03, '
        "areas +0.05, topics +0.04)</span></p>\n"
    )


def test_a_similar_paper_without_shared_words_is_similar_in_wording():
    item = SimpleNamespace(explanation=[{"signal": "text", "weight": 0.3, "terms": []}])
    assert similar_why(item) == (
        '<p class="shared">Why: similar wording <span class="score-parts">(score: text 0.30)'
        "</span></p>\n"
    )


@pytest.mark.parametrize(
    ("value", "places", "written"),
    [
        (0.4817, 3, "0.482"),
        (0.125, 2, "0.13"),  # half up, not to even
        (2.675, 2, "2.68"),  # from the shortest decimal form, not the binary 2.67499...
        (3, 2, "3.00"),
        (-0.0001, 2, "0.00"),  # no "-0.00"
        (-1.005, 2, "-1.01"),
        (1e-9, 3, "0.000"),
    ],
)
def test_decimals_writes_what_floatformat_writes(value, places, written):
    assert decimals(value, places) == written == str(floatformat(value, places))


@pytest.mark.parametrize(
    ("pages", "shown"),
    [
        ("3521-3532", "3521–3532"),
        ("12912--12940", "12912–12940"),
        ("7 — 9", "7–9"),
        ("17", "17"),
        # Not one range: as the source wrote it, not cut to its ends or to nothing.
        ("1-2-3", "1-2-3"),
        ("--", "--"),
    ],
)
def test_a_page_range_is_shown_with_one_dash_whatever_the_source_wrote(pages, shown):
    assert page_span(pages) == shown
