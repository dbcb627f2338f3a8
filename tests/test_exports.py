"""Exports of any list as BibTeX, RIS and CSL-JSON, read back with real parsers."""

import json
from types import SimpleNamespace

import bibtexparser
import jsonschema
import pytest
import rispy
from django.http import QueryDict

from papers import downloads, search
from papers.bibtex import bibtex_title
from papers.citation_fields import AuthorName, journal_volume, named, page_range, split_name
from papers.filtering import PaperFilterSet
from papers.models import Paper, Venue
from papers.search import search_page
from tests.factories import finish, make_paper, make_venue

# The part of the CSL-JSON schema (citation-style-language/schema, csl-data.json) that the
# exports use: each item needs an id and a type; names, dates and the rest have these types.
CSL_NAME = {
    "type": "object",
    "properties": {
        "family": {"type": "string"},
        "given": {"type": "string"},
        "literal": {"type": "string"},
    },
    "additionalProperties": False,
}
CSL_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["id", "type"],
        "properties": {
            "id": {"type": ["string", "number"]},
            "type": {"enum": ["paper-conference", "article-journal"]},
            "title": {"type": "string"},
            "author": {"type": "array", "items": CSL_NAME},
            "editor": {"type": "array", "items": CSL_NAME},
            "publisher": {"type": "string"},
            "container-title": {"type": "string"},
            "volume": {"type": ["string", "number"]},
            "event-title": {"type": "string"},
            "event-place": {"type": "string"},
            "issued": {
                "type": "object",
                "properties": {
                    "date-parts": {
                        "type": "array",
                        "items": {"type": "array", "items": {"type": ["string", "number"]}},
                    }
                },
                "required": ["date-parts"],
            },
            "page": {"type": "string"},
            "page-first": {"type": "string"},
            "DOI": {"type": "string"},
            "URL": {"type": "string"},
        },
        "additionalProperties": False,
    },
}


@pytest.fixture
def cited(corpus):
    """The corpus plus a TACL article and a proceedings paper with pages, DOI and URL."""
    tacl = make_venue(
        "TACL 2024",
        2024,
        full_name="Transactions of the ACL",
        booktitle="Transactions of the ACL, Volume 12",
        publisher="MIT Press",
        editors="Roark, Brian",  # a journal's: not cited
    )
    acl = make_venue("ACL 2025", 2025)
    acl.booktitle = "Proceedings of the 63rd Annual Meeting of the ACL"
    acl.publisher = "Association for Computational Linguistics"
    acl.editors = "Navigli, Roberto\nCarpuat, Marine"
    acl.save()
    papers = dict(corpus)
    papers["article"] = make_paper(
        "A journal article about attention heads and their roles.",
        title="What Attention Heads Do",
        venue=tacl,
        authors=["Grace Hopper", "Edsger W. Dijkstra"],
        pages="12–34",
        doi="10.1162/tacl_a_00001",
        url="https://aclanthology.org/2024.tacl-1.1",
    )
    papers["proceedings"] = make_paper(
        "A proceedings paper with all of its bibliographic details known.",
        title="Complete Records & 100% Details",
        venue=acl,
        authors=["Ada Lovelace"],
        pages="1-10",
        doi="10.18653/v1/2025.acl-long.1",
        url="https://aclanthology.org/2025.acl-long.1",
    )
    finish()
    return papers


def download(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, url
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response, body.decode()


def list_url(papers, *names, fmt):
    ids = ",".join(str(papers[name].pk) for name in names)
    return f"/list/?ids={ids}&format={fmt}"


def test_bibtex_round_trip(client, cited):
    url = list_url(cited, "proceedings", "article", "speech", "kv", fmt="bibtex")
    response, text = download(client, url)
    assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="reading-list.bib"'
    assert response["X-Papers-Left-Out"] == "1"
    assert response["X-Papers-Exported"] == "3"
    database = bibtexparser.loads(text)
    assert database.comments == ["% 1 paper left out: the source gives no title."]
    proceedings, article, kv = database.entries
    assert proceedings == {
        "ENTRYTYPE": "inproceedings",
        "ID": f"lovelace2025complete-{cited['proceedings'].pk}",
        "title": r"Complete Records \& 100\% Details",
        "author": "Ada Lovelace",
        "editor": "Navigli, Roberto and Carpuat, Marine",
        "booktitle": "Proceedings of the 63rd Annual Meeting of the ACL",
        "year": "2025",
        "address": "Vienna",
        "publisher": "Association for Computational Linguistics",
        "pages": "1--10",
        "doi": "10.18653/v1/2025.acl-long.1",
        "url": "https://aclanthology.org/2025.acl-long.1",
    }
    assert article == {
        "ENTRYTYPE": "article",
        "ID": f"hopper2024what-{cited['article'].pk}",
        "title": "What Attention Heads Do",
        "author": "Grace Hopper and Edsger W. Dijkstra",
        "journal": "Transactions of the ACL",
        "volume": "12",
        "year": "2024",
        "publisher": "MIT Press",
        "pages": "12--34",
        "doi": "10.1162/tacl_a_00001",
        "url": "https://aclanthology.org/2024.tacl-1.1",
    }
    # Only what a style must not lowercase is braced: the acronym, not the whole title.
    assert kv["title"] == "Evicting the {KV} Cache for Long-Context Inference"
    assert kv["author"] == "Ada Lovelace and Alan Turing"


def test_ris_round_trip(client, cited):
    url = list_url(cited, "article", "proceedings", "speech", fmt="ris")
    response, text = download(client, url)
    assert response["Content-Type"] == "application/x-research-info-systems; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="reading-list.ris"'
    assert response["X-Papers-Left-Out"] == "1"
    # RIS has no comments: the file is entries only, the header says what was left out.
    assert text.startswith("TY  - JOUR\n")
    article, proceedings = rispy.loads(text)
    assert article == {
        "type_of_reference": "JOUR",
        "title": "What Attention Heads Do",
        "authors": ["Hopper, Grace", "Dijkstra, Edsger W."],
        "journal_name": "Transactions of the ACL",
        "volume": "12",
        "year": "2024",
        "publisher": "MIT Press",
        "start_page": "12",
        "end_page": "34",
        "doi": "10.1162/tacl_a_00001",
        "urls": ["https://aclanthology.org/2024.tacl-1.1"],
        # The key BibTeX gives the entry: one key whichever file a writer cites from.
        "id": f"hopper2024what-{cited['article'].pk}",
    }
    assert proceedings == {
        "type_of_reference": "CPAPER",
        "title": "Complete Records & 100% Details",
        "authors": ["Lovelace, Ada"],
        "secondary_title": "Proceedings of the 63rd Annual Meeting of the ACL",
        "year": "2025",
        "place_published": "Vienna",
        "publisher": "Association for Computational Linguistics",
        # RIS's editor tag, which rispy keeps under its tag.
        "unknown_tag": {"ED": ["Navigli, Roberto", "Carpuat, Marine"]},
        "start_page": "1",
        "end_page": "10",
        "doi": "10.18653/v1/2025.acl-long.1",
        "urls": ["https://aclanthology.org/2025.acl-long.1"],
        "id": f"lovelace2025complete-{cited['proceedings'].pk}",
    }


def test_csljson_round_trip(client, cited):
    url = list_url(cited, "speech", "proceedings", "article", fmt="csljson")
    response, text = download(client, url)
    assert response["Content-Type"] == "application/vnd.citationstyles.csl+json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="reading-list.json"'
    assert response["X-Papers-Left-Out"] == "1"
    items = json.loads(text)
    jsonschema.validate(items, CSL_SCHEMA)
    assert items == [
        {
            "id": f"lovelace2025complete-{cited['proceedings'].pk}",
            "type": "paper-conference",
            "title": "Complete Records & 100% Details",
            "author": [{"family": "Lovelace", "given": "Ada"}],
            "container-title": "Proceedings of the 63rd Annual Meeting of the ACL",
            "event-title": "Annual Meeting of the ACL",
            "event-place": "Vienna",
            "editor": [
                {"family": "Navigli", "given": "Roberto"},
                {"family": "Carpuat", "given": "Marine"},
            ],
            "publisher": "Association for Computational Linguistics",
            "issued": {"date-parts": [[2025]]},
            "page": "1-10",
            "page-first": "1",
            "DOI": "10.18653/v1/2025.acl-long.1",
            "URL": "https://aclanthology.org/2025.acl-long.1",
        },
        {
            "id": f"hopper2024what-{cited['article'].pk}",
            "type": "article-journal",
            "title": "What Attention Heads Do",
            "author": [
                {"family": "Hopper", "given": "Grace"},
                {"family": "Dijkstra", "given": "Edsger W."},
            ],
            "container-title": "Transactions of the ACL",
            "volume": "12",
            "publisher": "MIT Press",
            "issued": {"date-parts": [[2024]]},
            "page": "12-34",
            "page-first": "12",
            "DOI": "10.1162/tacl_a_00001",
            "URL": "https://aclanthology.org/2024.tacl-1.1",
        },
    ]


def test_search_export_keeps_query_filters_and_order(client, cited):
    _, text = download(client, "/?q=kv+cache&venue=acl-2025&format=ris")
    titles = [entry["title"] for entry in rispy.loads(text)]
    # Ranked as the page ranks them: the shorter matching title first.
    assert titles == [
        "Quantised KV Cache Compression",
        "Evicting the KV Cache for Long-Context Inference",
    ]
    _, text = download(client, "/?venue=emnlp-2024&sort=title&page=9&format=bibtex")
    assert [e["title"] for e in bibtexparser.loads(text).entries] == [
        "Noisy Retrieval Hurts Faithfulness",
        "Parallel Data for {Yoruba} Translation",
    ]


@pytest.mark.parametrize(
    ("url", "filename", "titles"),
    [
        (
            "/venues/acl-2025/?format=csljson",
            "acl-2025.json",
            [
                "Complete Records & 100% Details",
                "Evicting the KV Cache for Long-Context Inference",
                "Quantised KV Cache Compression",
            ],
        ),
        (
            "/topics/attention/?format=csljson",
            "topic-attention.json",
            [
                "Evicting the KV Cache for Long-Context Inference",
                "Noisy Retrieval Hurts Faithfulness",
            ],
        ),
        (
            "/authors/grace-hopper/?format=csljson",
            "grace-hopper.json",
            [
                "Noisy Retrieval Hurts Faithfulness",
                "Parallel Data for Yoruba Translation",
                "What Attention Heads Do",
            ],
        ),
    ],
)
def test_venue_topic_and_author_exports(client, cited, url, filename, titles):
    response, text = download(client, url)
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    items = json.loads(text)
    jsonschema.validate(items, CSL_SCHEMA)
    assert [item["title"] for item in items] == titles


def test_venue_export_counts_the_untitled_paper_left_out(client, cited):
    response, text = download(client, "/venues/acl-2025/?format=bibtex")
    assert response["X-Papers-Left-Out"] == "1"
    assert text.startswith("% 1 paper left out: the source gives no title.\n@inproceedings{")
    assert "accented" not in text.lower()


def test_a_lists_export_link_counts_the_papers_it_exports(client, cited):
    # "Export these 32 papers" downloaded an empty file: none of ACL 2025's 32 seed records
    # has a title (an outside researcher).
    from tests.support import parse

    # A title of stop words alone is a title (a reviewer: counted as none, it was left out).
    make_paper("Questions.", title="What Is It?", venue=Venue.objects.get(slug="acl-2025"))
    finish()
    page = parse(client.get("/venues/acl-2025/"))
    exports = page.find("p", class_="exports")
    total = Paper.objects.filter(venue__slug="acl-2025").count()
    assert exports.find("span").text == (
        f"Export these {total - 1} papers (1 without a title left out):"
    )
    response, _ = download(client, "/venues/acl-2025/?format=bibtex")
    assert int(response["X-Papers-Exported"]) == total - 1
    untitled = make_venue("Workshop 2025", 2025)
    make_paper("An abstract alone.", venue=untitled)
    finish()
    exports = parse(client.get(f"/venues/{untitled.slug}/")).find("p", class_="exports")
    assert exports.find("span").text == "No paper here has a title to export."
    assert [a.text for a in exports.find_all("a")] == ["Atom feed"]
    # A reading list's too.
    ids = f"{cited['speech'].pk},{cited['kv'].pk}"
    exports = parse(client.get(f"/list/?ids={ids}")).find("p", class_="exports")
    assert exports.find("span").text == "Export this paper (1 without a title left out):"


def test_export_is_capped_and_says_so(client, cited, monkeypatch):
    monkeypatch.setattr(downloads, "MAX_EXPORT", 2)
    response, text = download(client, "/?format=bibtex")
    assert response["X-Papers-Exported"] == "2"
    database = bibtexparser.loads(text)
    assert len(database.entries) == 2
    assert database.comments == [
        "% 1 paper left out: the source gives no title.\n"
        "% Only the first 2 of the 6 titled papers are exported."
    ]


def test_a_ranked_export_fills_its_cap_with_titled_papers(client, db, monkeypatch):
    """Untitled papers ranked among the first MAX_EXPORT are left out, and the next titled
    ones take their places: the file holds MAX_EXPORT papers, as its link says."""
    venue = make_venue("ACL 2025", 2025)
    for index in range(2):
        make_paper(f"Zebra {index}.", venue=venue)  # short: ranked first
    for index in range(3):
        make_paper(
            f"On zebra stripes, counted and measured again, {index}.",
            title=f"Stripes {index}",
            venue=venue,
        )
    finish()
    monkeypatch.setattr(downloads, "MAX_EXPORT", 2)
    monkeypatch.setattr(downloads, "UNTITLED_ROOM", 2)
    response, text = download(client, "/?q=zebra&format=bibtex")
    assert response["X-Papers-Exported"] == "2"
    assert bibtexparser.loads(text).comments == [
        "% 2 papers left out: the source gives no title.\n"
        "% Only the first 2 of the 3 titled papers are exported."
    ]


def test_entries_are_streamed_in_chunks(client, cited, monkeypatch, django_assert_num_queries):
    monkeypatch.setattr(downloads, "CHUNK", 2)
    response = client.get("/?format=ris")
    assert response.streaming
    # Two queries a chunk (papers, authorships) for three chunks of the six titled papers.
    with django_assert_num_queries(6):
        text = b"".join(response.streaming_content).decode()
    assert len(rispy.loads(text)) == 6


def test_empty_export_is_still_a_valid_file(client, cited):
    _, text = download(client, "/?q=nothingmatcheszz&format=csljson")
    assert json.loads(text) == []
    _, text = download(client, "/list/?ids=&format=bibtex")
    assert bibtexparser.loads(text).entries == []


@pytest.mark.parametrize(
    "url",
    ["/?format=pdf", "/venues/acl-2025/?format=", "/list/?ids=1&format=BibTeX"],
)
def test_unknown_format_is_a_400(client, cited, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "format must be one of: bibtex, ris, csljson." in response.content.decode()


def test_pages_link_their_exports(client, cited):
    from tests.support import parse

    page = parse(client.get("/?q=cache&page=1"))
    links = [a.attrs["href"] for a in page.find("p", class_="exports").find_all("a")]
    assert links[:3] == [
        "?q=cache&format=bibtex",
        "?q=cache&format=ris",
        "?q=cache&format=csljson",
    ]


def test_page_ranges_and_names():
    assert page_range("1-10") == ("1", "10")
    assert page_range("1--10") == ("1", "10")
    assert page_range(" 12 – 34 ") == ("12", "34")
    assert page_range("7") == ("7", "")
    assert page_range("") == ("", "")
    assert split_name("Edsger W. Dijkstra") == ("Dijkstra", "Edsger W.")
    assert split_name("Plato") == ("Plato", "")
    assert split_name("Wagner Meira Jr.") == ("Meira Jr.", "Wagner")
    assert split_name(AuthorName("Wagner Meira Jr.", "Jr.")) == ("Meira Jr.", "Wagner")
    # Particles in small letters before the last word are the family name's (RIS gave "Berg,
    # Jan van der": an outside curator); a given name "Van" is no particle.
    assert split_name("Jan van der Berg") == ("van der Berg", "Jan")
    assert split_name("María de la Cruz") == ("de la Cruz", "María")
    assert split_name("Van Nguyen") == ("Nguyen", "Van")
    assert split_name(AuthorName("Luis Espinosa Anke", "Espinosa Anke")) == (
        "Espinosa Anke",
        "Luis",
    )
    # A family name that no longer ends the name at a word (a curator renamed the author).
    assert split_name(AuthorName("Ann Klee", "Lee")) == ("Klee", "Ann")


@pytest.mark.parametrize(
    ("stored", "field"),
    [
        ("RED^{\\textrm{FM}}: a Filtered Dataset", "{{RED}$^{\\textrm{FM}}$}: a Filtered Dataset"),
        (
            "Refinement by \\ell_{1} Norm Optimisation",
            "Refinement by {$\\ell_{1}$} Norm Optimisation",
        ),
        (
            "Pointwise \\mathcal{V}-Usable Information",
            "Pointwise {$\\mathcal{V}$}-Usable Information",
        ),
        # A word holding maths is braced whole, so no style lowercases "Mem".
        ("R^3Mem: Bridging Memory", "{R$^3$Mem}: Bridging Memory"),
        ("360^{\\circ} Images", "{360$^{\\circ}$} Images"),
        # A maths command ends where its name does; font switches are text.
        ("\\inftyBench: Long Contexts", "{$\\infty$Bench}: Long Contexts"),
        ("360^\\circREA: Views", "{360$^\\circ${REA}}: Views"),
        # Symbols written as characters, which pdflatex cannot set from UTF-8, as maths.
        ("SOTOPIA-π: Interactive Learning", "{SOTOPIA}-{$\\pi$}: Interactive Learning"),
        ("∞Bench and α-β Tuning", "{$\\infty{}$Bench} and {$\\alpha$}-{$\\beta$} Tuning"),
        ("A × B ± C", "A × {B} ± {C}"),
        ("{\\rm SP^3}: Sums", "{{SP}$^3$}: Sums"),
        ("{\\it Time} Flies", "Time Flies"),
        # Not maths: an underscore before a letter, a lone caret or tilde (escaped for LaTeX).
        (
            "Using more_data ~ well ^ done",
            "Using more\\_data \\textasciitilde{} well \\textasciicircum{} done",
        ),
        # No other command reaches the file: a title must not \input a reader's files.
        ("Bad \\input{/etc/passwd} Title", "Bad input/etc/passwd {Title}"),  # sentence case
        ("Bad \\mathcal{\\input{x}} Title", "Bad inputx Title"),
        # A private-use character is text, not a stand-in for maths.
        ("Private \uf0b7 Use", "Private \uf0b7 Use"),
    ],
)
def test_a_bibtex_title_keeps_its_maths_as_latex(stored, field):
    """pdflatex refused the plain text (R³, ℓ₁) and a bare caret stopped it."""
    assert bibtex_title(SimpleNamespace(title=stored, pk=1)) == field


def test_names_lose_their_direction_marks():
    assert named(["\u202aPere-Lluís Huguet Cabot", "Simone\u200e Tedeschi", "\u202c"]) == [
        "Pere-Lluís Huguet Cabot",
        "Simone Tedeschi",
    ]


def test_journal_volume_from_the_booktitle():
    def venue(booktitle, full_name=""):
        return SimpleNamespace(booktitle=booktitle, full_name=full_name, name="TACL 2024")

    assert journal_volume(venue("Transactions of the ACL, Volume 12")) == (
        "Transactions of the ACL",
        "12",
    )
    assert journal_volume(venue("", "Transactions of the ACL")) == ("Transactions of the ACL", "")
    assert journal_volume(venue("Volume 3")) == ("Volume 3", "")


def test_a_ranked_export_follows_the_pages_then_ranks_the_rest(client, db, monkeypatch):
    venue = make_venue("ACL 2025", 2025)
    # The fewer other words a matching title has, the higher it ranks.
    titles = [" ".join(["Zebra", *(f"w{word}" for word in range(index))]) for index in range(12)]
    for index, title in enumerate(titles):
        make_paper(f"On zebra {index}.", title=title, venue=venue)
    make_paper("An untitled note on zebra stripes.", venue=venue)
    finish()
    monkeypatch.setattr(search, "CANDIDATE_CAP", 5)
    monkeypatch.setattr(downloads, "MAX_EXPORT", 9)
    shown = search_page(PaperFilterSet(QueryDict("q=zebra"))).papers
    response, text = download(client, "/?q=zebra&format=ris")
    exported = [entry["title"] for entry in rispy.loads(text)]
    assert [paper.title for paper in shown[:5]] == titles[:5]
    assert exported == titles[:9]
    assert response["X-Papers-Exported"] == "9"
    assert response["X-Papers-Left-Out"] == "1"
    assert text.startswith("TY  - ")
