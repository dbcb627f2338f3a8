"""The forms of a given name a name query asks for (papers/nicknames.py)."""

import pytest

from papers.nicknames import given_name_forms


@pytest.mark.parametrize(
    ("given", "forms"),
    [
        ("dan", ["dan", "daniel", "danny"]),
        ("daniel", ["daniel", "dan", "danny"]),
        ("bill", ["bill", "will", "william"]),
        ("chris", ["chris", "christian", "christina", "christine", "christopher", "tina"]),
        ("steve", ["steve", "stephen", "steven"]),
        ("ed", ["ed", "eddie", "eduard", "edward", "ted"]),
        ("kathy", ["kathy", "catherine", "cathy", "kate", "katherine", "kathleen", "katie"]),
        ("noah", ["noah"]),
    ],
)
def test_a_given_name_has_its_short_and_formal_forms_the_typed_one_first(given, forms):
    assert given_name_forms(given) == forms
