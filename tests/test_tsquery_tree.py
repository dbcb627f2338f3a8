"""A tsquery's text read as a tree (papers/tsquery_tree.py)."""

import pytest

from papers.tsquery_tree import exact, operands, parse_query, wanted_operands


@pytest.mark.parametrize(
    ("query", "tree"),
    [
        ("'kv' & 'cach'", ("and", ("word", "'kv'"), ("word", "'cach'"))),
        ("'cach' & !'quantis'", ("and", ("word", "'cach'"), ("not", ("word", "'quantis'")))),
        ("'it''s'", ("word", "'it''s'")),
        (
            "'kv' <-> 'cach' & !'vision' | 'speech'",
            (
                "or",
                (
                    "and",
                    ("phrase", ("word", "'kv'"), ("word", "'cach'")),
                    ("not", ("word", "'vision'")),
                ),
                ("word", "'speech'"),
            ),
        ),
        (
            "'model' & !( 'larg' <-> 'languag' )",
            (
                "and",
                ("word", "'model'"),
                ("not", ("phrase", ("word", "'larg'"), ("word", "'languag'"))),
            ),
        ),
        ("'learn' <2> 'rank'", ("phrase", ("word", "'learn'"), ("word", "'rank'"))),
        ("", None),
        ("'a' &", None),
        ("( 'a' | 'b'", None),
        ("'a':*", None),
        ("!'a' <-> 'b'", None),
    ],
)
def test_parse_query_reads_tsquery_text(query, tree):
    assert parse_query(query) == tree


def test_a_tree_without_a_phrase_is_matched_exactly():
    plain = parse_query("'a' & !'b' | 'c'")
    phrase = parse_query("'a' & !( 'b' <-> 'c' )")
    assert (exact(plain), exact(phrase)) == (True, False)
    assert operands(phrase) == ["'a'", "'b'", "'c'"]


def test_the_wanted_operands_leave_out_excluded_words():
    tree = parse_query("'a' & !( 'b' <-> 'c' ) & ( 'd' | 'a' ) & !'e'")
    assert wanted_operands(tree) == ["'a'", "'d'"]
