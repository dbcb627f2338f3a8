"""A misspelt author's name respelled as the author nearest it (papers/name_respelling.py), and
the search page and API showing that author's papers."""

import json
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.name_respelling import name_respelling
from papers.spelling import Respelling
from tests.factories import finish, make_paper, make_venue
from tests.support import parse
from tests.test_query_understanding import titles

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    venue = make_venue("ACL 2024", 2024)
    papers = {}
    for subject in ("parsing", "sentiment", "translation"):
        papers[subject] = make_paper(
            f"We study {subject} with trees.",
            title=f"Trees for {subject.title()}",
            venue=venue,
            authors=["Christopher D. Manning", "Percy Liang"],
        )
    papers["other"] = make_paper(
        "A study of how a man speaks.", title="Speech", venue=venue, authors=["Christopher Malon"]
    )
    papers["vision"] = make_paper(
        "Convolutional networks.", title="Vision", venue=venue, authors=["Yann LeCun"]
    )
    papers["wu"] = make_paper("Graphs.", title="Graphs", venue=venue, authors=["Di Wu"])
    papers["he"] = make_paper("Speech.", title="Speech", venue=venue, authors=["Xiaodong He"])
    papers["yang"] = make_paper(
        "Yang et al. show Yang's method.", title="Methods", venue=venue, authors=["Lei Yang"]
    )
    finish()
    return papers


@pytest.mark.parametrize(
    ("typed", "respelled"),
    [
        # A family name's letter left out, middle initial aside; most papers win a tie.
        ("Christopher Maning", Respelling("Christopher D. Manning", 1, ("maning",))),
        ("christopher d manning", None),  # the author's own name: nothing to respell
        ("Percy Lang", Respelling("Percy Liang", 1, ("lang",))),
        ("Yann LeCunn", Respelling("Yann LeCun", 1, ("lecunn",))),
        ("Yann LeCun", None),
        ("Persy Lieng", Respelling("Percy Liang", 1, ("persy", "lieng"))),
        # Transpositions are one edit each; a long word takes two.
        (
            "Chirstopher Mannign",
            Respelling("Christopher D. Manning", 1, ("chirstopher", "mannign")),
        ),
        ("Christofer Maning", Respelling("Christopher D. Manning", 2, ("christofer", "maning"))),
        ("Percy Fang", None),  # another first letter: another name
        ("Pcy Liang", None),  # two edits in a short word
        ("Liang", None),  # one word is a family name (AuthorQuerySet.of_family_name)
        ("tree parsing", None),  # words, not near a name
        ("Percy Liang parsing", None),  # another number of words
        ("did we", None),  # stop words alone: a phrase, not Di Wu (a reviewer)
        ("Xiadong He", Respelling("Xiaodong He", 1, ("xiadong",))),  # one: a family name
    ],
)
def test_a_name_is_respelled_as_the_nearest_authors(people, typed, respelled):
    assert name_respelling(typed) == respelled


def test_one_statement_and_none_for_what_is_not_shaped_as_a_name(people):
    with CaptureQueriesContext(connection) as queries:
        assert name_respelling("Percy Lang") is not None
        assert name_respelling("what is BERT?") is None
    assert len(queries) == 1


def test_a_misspelt_name_shows_the_authors_papers(client, people):
    response = client.get("/?q=Percy+Lang")
    page = parse(response)
    assert page.find("p", class_="corrected").text == (
        "Showing results for “Percy Liang”. Search instead for “Percy Lang”."
    )
    # The author offered is named as the results are, not as typed.
    assert page.find("h3", id="author-cards-heading").text == "Author named “Percy Liang”"
    body = client.get("/api/papers/?" + urlencode({"q": "Percy Lang"})).json()
    assert body["corrected_query"] == "Percy Liang"
    assert [(a["name"], a["papers"]) for a in body["authors"]] == [("Percy Liang", 3)]
    assert sorted(r["title"] for r in body["results"]) == [
        "Trees for Parsing",
        "Trees for Sentiment",
        "Trees for Translation",
    ]
    assert titles(response) == [r["title"] for r in body["results"]]
    # The export holds the papers shown.
    export = client.get("/?" + urlencode({"q": "Percy Lang", "format": "csljson"}), follow=True)
    items = json.loads(b"".join(export.streaming_content))
    assert sorted(item["title"] for item in items) == sorted(r["title"] for r in body["results"])


def test_a_name_the_collection_has_is_not_respelled_as_words(client, people):
    """Offered "Yang LeCun" before: "yang", a word of far more papers, is near "yann"."""
    venue = make_venue("EMNLP 2024", 2024)
    for n in range(60):
        make_paper(f"Yang et al. tagged {n} texts.", title=f"Tagging {n}", venue=venue)
    finish()
    body = client.get("/api/papers/?q=Yann+LeCun").json()
    assert (body["corrected_query"], body["suggestion"]) == (None, None)
    assert [a["name"] for a in body["authors"]] == ["Yann LeCun"]
    assert [r["title"] for r in body["results"]] == ["Vision"]
    misspelt = client.get("/api/papers/?q=Yann+LeCunn").json()
    assert misspelt["corrected_query"] == "Yann LeCun"
    assert [r["title"] for r in misspelt["results"]] == ["Vision"]


def test_a_query_with_matches_is_not_respelled_as_a_name(client, people):
    """ "min max" (six papers) was offered "Min Ma", "sha lab" shown as Sha Lai's papers (a
    reviewer): a query some paper matches is about its words."""
    make_paper("Percy and Lang tools for treebanks.", title="Tools")
    finish()
    body = client.get("/api/papers/?q=Percy+Lang").json()
    assert body["count"] == 1
    assert (body["corrected_query"], body["suggestion"]) == (None, None)
    assert body["authors"] == []
