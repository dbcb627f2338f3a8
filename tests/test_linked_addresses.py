"""An address papers give in their abstracts, pasted into the search box (papers/
linked_addresses.py): the one paper giving it opens, several are listed, none is told."""

from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.linked_addresses import LINKING_LIMIT, linking_papers, searched_address
from papers.search_notices import (
    ADDRESS_ELSEWHERE,
    MORE_PAPERS_GIVING_THE_ADDRESS,
    PAPERS_GIVING_THE_ADDRESS,
)
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("https://github.com/thunlp/TR-BERT", "github.com/thunlp/TR-BERT"),
        ("github.com/thunlp/TR-BERT/tree/main/src?x=1#readme", "github.com/thunlp/TR-BERT"),
        ("https://www.GitHub.com/a/b.git/", "github.com/a/b"),
        ("https://huggingface.co/datasets/squad/", "huggingface.co/datasets/squad"),
        ("https://github.com/facebookresearch", None),  # an owner, not a repository
        ("https://aclanthology.org/2021.naacl-main.463/", None),  # an identifier
        ("accuracy 0.5/1.0", None),
        # Text with a dot and a slash is no address without a scheme or "www.".
        ("GPT-3.5/GPT-4", None),
        ("node.js/express", None),
        ("www.example.org/data/set1", "example.org/data/set1"),
    ],
)
def test_the_address_searched(typed, address):
    assert searched_address(typed) == address


@pytest.fixture
def linked(db):
    venue = make_venue("NAACL 2021", 2021)
    papers = {
        "tr": make_paper(
            "We reduce tokens. Code is at https://github.com/thunlp/TR-BERT.",
            title="TR-BERT: Dynamic Token Reduction",
            venue=venue,
        ),
        "fairseq": make_paper(
            "A toolkit: https://github.com/pytorch/fairseq", title="Fairseq", venue=venue
        ),
        "speech": make_paper(
            "Speech in fairseq (https://github.com/pytorch/fairseq/tree/main/examples/s2t).",
            title="Fairseq S2T",
            venue=venue,
        ),
        # Its address begins as fairseq's: the index's prefix finds it, the abstract tells.
        "extra": make_paper(
            "Extras at https://github.com/pytorch/fairseq-extra.", title="Extra", venue=venue
        ),
    }
    finish()
    return papers


def test_the_one_paper_giving_an_address_opens(client, linked):
    typed = "https://github.com/thunlp/TR-BERT/blob/main/README.md"
    response = client.get("/?" + urlencode({"q": typed}))
    assert (response.status_code, response["Location"]) == (302, linked["tr"].get_absolute_url())
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [result["id"] for result in body["results"]] == [linked["tr"].pk]


def test_an_arxiv_identifier_opens_the_paper_giving_its_address(client, linked):
    # "arXiv:2307.16806" said the collection knows no arXiv identifier, where its arxiv.org
    # address opened the paper giving it (a reviewer).
    arxiv = make_paper("See https://arxiv.org/abs/2307.16806 for more.", title="Arxiv Paper")
    finish()
    for typed in ("arXiv:2307.16806", "2307.16806v2", "https://arxiv.org/abs/2307.16806"):
        response = client.get("/?" + urlencode({"q": typed}))
        assert (response.status_code, response["Location"]) == (302, arxiv.get_absolute_url())


def test_the_papers_giving_an_address_are_listed_exported_and_fed(client, linked):
    typed = "https://github.com/pytorch/fairseq"
    page = parse(client.get("/?" + urlencode({"q": typed})))
    titles = [node.find("a").text for node in page.find_all("h3", class_="card-title")]
    body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
    assert [result["title"] for result in body["results"]] == ["Fairseq S2T", "Fairseq"]
    assert body["notices"] == [PAPERS_GIVING_THE_ADDRESS.format(count=2)]
    assert titles == ["Fairseq S2T", "Fairseq"]
    export = client.get("/?" + urlencode({"q": typed, "format": "bibtex"}))
    assert b"".join(export.streaming_content).count(b"@") == 2
    feed = client.get("/feeds/search/?" + urlencode({"q": typed})).content.decode()
    assert feed.count("<entry>") == 2


def test_more_papers_than_a_page_giving_an_address(client, db):
    venue = make_venue("ACL 2024", 2024)
    for n in range(LINKING_LIMIT + 2):
        make_paper(f"Study {n} uses https://github.com/org/tool.", title=f"Study {n}", venue=venue)
    finish()
    body = client.get("/api/papers/?q=https://github.com/org/tool").json()
    assert body["count"] == LINKING_LIMIT
    assert body["results"][0]["title"] == f"Study {LINKING_LIMIT + 1}"
    assert body["notices"] == [MORE_PAPERS_GIVING_THE_ADDRESS.format(count=LINKING_LIMIT)]


def test_an_address_is_found_with_or_without_www(client, db):
    venue = make_venue("ACL 2024", 2024)
    paper = make_paper(
        "Data at https://www.example.org/data/set1 for all.", title="Set One", venue=venue
    )
    finish()
    for typed in ["https://www.example.org/data/set1", "http://example.org/data/set1/"]:
        response = client.get("/?" + urlencode({"q": typed}))
        assert (response.status_code, response["Location"]) == (302, paper.get_absolute_url())


def test_text_shaped_like_an_address_costs_no_statement(linked):
    with CaptureQueriesContext(connection) as context:
        assert linking_papers("GPT-3.5/GPT-4") == []
    assert context.captured_queries == []


def test_an_address_no_paper_gives_is_told(client, linked):
    body = client.get("/api/papers/?q=https://github.com/pytorch/vision").json()
    assert (body["count"], body["notices"]) == (0, [ADDRESS_ELSEWHERE.format(host="github.com")])
