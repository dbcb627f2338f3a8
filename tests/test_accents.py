"""Words written with and without accents are one word to a search (papers/accents.py)."""

from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.understanding import join_compounds
from tests.factories import finish, make_paper, make_venue


@pytest.fixture
def spelled(db):
    venue = make_venue("ACL 2024", 2024)
    papers = {
        "québec": make_paper(
            "Speech from Québec and its French.", title="Québec French", venue=venue
        ),
        "quebec": make_paper("Tweets written in Quebec.", title="Regional Tweets", venue=venue),
        "naïve": make_paper("A naïve Bayes baseline for tweets.", title="Naïve Bayes", venue=venue),
        "bokmål": make_paper("Parsing Norwegian Bokmål text.", title="Norwegian", venue=venue),
        # Stemmed without its accents: "résumé" found none of the papers writing "resume".
        "resume": make_paper("Parsing resumes of applicants.", title="Job Resumes", venue=venue),
    }
    finish()
    return papers


def found(client, query: str) -> set[int]:
    body = client.get("/api/papers/?" + urlencode({"q": query})).json()
    return {result["id"] for result in body["results"]}


@pytest.mark.parametrize(
    ("typed", "keys"),
    [
        ("Quebec", {"québec", "quebec"}),
        ("Québec", {"québec", "quebec"}),
        ("naive bayes", {"naïve"}),
        ("Bokmal", {"bokmål"}),
        ("résumé", {"resume"}),
        ("Résumés", {"resume"}),
    ],
)
def test_a_word_is_found_with_and_without_its_accents(client, spelled, typed, keys):
    assert found(client, typed) == {spelled[key].pk for key in keys}


def test_the_other_spelling_is_the_indexs_and_phrases_are_as_typed(spelled):
    assert join_compounds("naive bayes")[0] == "naive bayes or naïv bayes"
    assert join_compounds("Québec speech")[0] == "Québec speech or quebec speech"
    assert join_compounds('"naive bayes"')[0] == '"naive bayes"'
    # An exclusion removes each form of its word, as the page says.
    assert join_compounds("tweets -quebec")[0] == "tweets -quebec -québec"
    # A word the collection writes one way only is searched as typed.
    assert join_compounds("tweets")[0] == "tweets"


def test_the_other_spellings_of_a_query_cost_one_statement(spelled):
    with CaptureQueriesContext(connection) as context:
        join_compounds("naive bayes from quebec tweets")
    spellings = [query for query in context.captured_queries if "papers_unaccented" in query["sql"]]
    assert len(spellings) == 1


def test_an_excluded_word_is_excluded_with_or_without_its_accents(client, spelled):
    # "resume -résumé" kept the papers writing "resume" (an outside tester).
    assert found(client, "parsing -résumés") == {spelled["bokmål"].pk}
    assert found(client, "Parsing -Bokmal") == {spelled["resume"].pk}
