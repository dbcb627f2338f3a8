"""The paper page a researcher expects: the PDF first, citations that cite, honest gaps."""

import json
import re
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.bibtex import bib_title, bibtex, bibtex_key
from papers.citation_fields import IncompleteRecord
from papers.citations import acl_citation, citation_meta, csl, ris
from papers.merging import merge_papers
from tests.factories import finish, make_paper, make_venue
from tests.support import parse

pytestmark = pytest.mark.django_db

PDF = "https://aclanthology.org/2024.emnlp-main.713.pdf"


@pytest.fixture
def modscan(db):
    """An Anthology paper with a LaTeX title, pages, a DOI and no abstract."""
    venue = make_venue(
        "EMNLP 2024",
        2024,
        booktitle="Proceedings of the 2024 Conference on Empirical Methods in Natural Language "
        "Processing",
        location="Miami, Florida, USA",
        month="November",
        publisher="Association for Computational Linguistics",
        editors="Al-Onaizan, Yaser\nBansal, Mohit\nChen, Yun-Nung",
    )
    paper = make_paper(
        "",
        title=r"\texttt{ModSCAN}: Measuring Stereotypical Bias in Vision-Language Models",
        venue=venue,
        authors=["Yukun Jiang", "Zheng Li", "Yang Zhang"],
        external_id="2024.emnlp-main.713",
        pages="12814–12845",
        doi="10.18653/v1/2024.emnlp-main.713",
        url="https://aclanthology.org/2024.emnlp-main.713",
        bibkey="jiang-etal-2024-modscan",
    )
    finish()
    return paper


def meta(page) -> list[tuple[str, str]]:
    return [
        (tag.attrs["name"], tag.attrs["content"])
        for tag in page.find_all("meta")
        if tag.attrs.get("name", "").startswith("citation_")
    ]


def test_the_pdf_is_the_first_action_and_in_the_meta_tags(client, modscan):
    page = parse(client.get(f"/papers/{modscan.pk}/"))
    actions = [
        (link.text, link.attrs["href"], link.attrs["class"])
        for link in page.find("div", class_="paper-actions").find_all("a")
    ]
    assert actions == [
        ("PDF", PDF, "action primary"),
        ("Anthology page", "https://aclanthology.org/2024.emnlp-main.713", "action"),
        ("Cite", "#cite-heading", "action"),
    ]
    canonical = "http://testserver/papers/2024.emnlp-main.713/"
    assert meta(page) == [
        ("citation_title", "ModSCAN: Measuring Stereotypical Bias in Vision-Language Models"),
        ("citation_author", "Yukun Jiang"),
        ("citation_author", "Zheng Li"),
        ("citation_author", "Yang Zhang"),
        ("citation_publication_date", "2024"),
        (
            "citation_conference_title",
            "Proceedings of the 2024 Conference on Empirical Methods in Natural Language "
            "Processing",
        ),
        ("citation_firstpage", "12814"),
        ("citation_lastpage", "12845"),
        ("citation_publisher", "Association for Computational Linguistics"),
        ("citation_doi", "10.18653/v1/2024.emnlp-main.713"),
        ("citation_pdf_url", PDF),
        ("citation_abstract_html_url", canonical),
        ("citation_public_url", "https://aclanthology.org/2024.emnlp-main.713"),
    ]


def test_a_latex_title_is_rendered_and_plain_where_text_is_needed(client, modscan):
    response = client.get(f"/papers/{modscan.pk}/")
    html = response.content.decode()
    assert (
        '<h1 id="paper-title"><code>ModSCAN</code>: Measuring Stereotypical Bias in '
        "Vision-Language Models</h1>"
    ) in html
    assert (
        "<title>ModSCAN: Measuring Stereotypical Bias in Vision-Language Models · Paper browser"
        "</title>"
    ) in html
    assert "texttt" not in html


def test_the_anthology_id_names_the_same_page(client, modscan):
    with CaptureQueriesContext(connection) as by_id_queries:
        by_id = client.get(f"/papers/{modscan.pk}/")
    with CaptureQueriesContext(connection) as queries:
        by_name = client.get("/papers/2024.emnlp-main.713/")
    assert by_name.status_code == 200
    # The same page: only the first query differs (the paper by its ID instead of its id).
    assert len(queries.captured_queries) == len(by_id_queries.captured_queries) == 4
    canonical = '<link rel="canonical" href="http://testserver/papers/2024.emnlp-main.713/">'
    assert canonical in by_id.content.decode()
    assert canonical in by_name.content.decode()
    assert parse(by_id).find("h1").text == parse(by_name).find("h1").text
    moved = client.get("/papers/2024.EMNLP-main.713/")
    assert (moved.status_code, moved["Location"]) == (301, "/papers/2024.emnlp-main.713/")
    assert client.get("/papers/2024.emnlp-main.99999/").status_code == 404


def test_format_on_a_papers_address_downloads_its_citation(client, modscan):
    # "/papers/15833/?format=bibtex" answered with the page itself (an outside researcher).
    for address in (f"/papers/{modscan.pk}/", "/papers/2024.emnlp-main.713/"):
        response = client.get(address + "?format=bibtex")
        assert response["Content-Disposition"] == ('attachment; filename="2024.emnlp-main.713.bib"')
        text = b"".join(response.streaming_content).decode()
        assert text.startswith("@inproceedings{jiang-etal-2024-modscan,\n")
    response = client.get(f"/papers/{modscan.pk}/?format=ris")
    assert b"".join(response.streaming_content).decode().startswith("TY  - CPAPER\n")
    refused = client.get(f"/papers/{modscan.pk}/?format=csv")
    assert refused.status_code == 400
    assert "format must be one of: bibtex, ris, csljson." in refused.content.decode()


def test_a_merged_away_papers_addresses_lead_to_the_paper_it_went_into(client, modscan):
    copy = make_paper(
        "A copy of ModSCAN with an abstract.",
        title="ModSCAN (a copy)",
        venue=modscan.venue,
        external_id="2024.findings-emnlp.9",
    )
    finish()
    merge_papers(modscan, [copy])
    survivor = modscan.pk
    moves = {
        f"/papers/{copy.pk}/": f"/papers/{survivor}/",
        "/papers/2024.findings-emnlp.9/": f"/papers/{survivor}/",
        "/papers/2024.FINDINGS-emnlp.9/": "/papers/2024.findings-emnlp.9/",  # canonical first
        f"/papers/{copy.pk}/similar/?sort=newest": f"/papers/{survivor}/similar/?sort=newest",
        "/papers/2024.findings-emnlp.9/similar/": f"/papers/{survivor}/similar/",
        f"/api/papers/{copy.pk}/": f"/api/papers/{survivor}/",
        "/api/papers/2024.findings-emnlp.9/": f"/api/papers/{survivor}/",
        f"/api/papers/{copy.pk}/similar/?limit=3": f"/api/papers/{survivor}/similar/?limit=3",
    }
    for old, new in moves.items():
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old
    never = copy.pk + 1000
    assert client.get(f"/papers/{never}/").status_code == 404
    assert client.get(f"/api/papers/{never}/").json() == {"error": f"No paper with id '{never}'."}


def test_a_paper_without_an_abstract_says_so_and_points_to_the_pdf(client, modscan):
    section = parse(client.get(f"/papers/{modscan.pk}/")).find(
        "section", aria_labelledby="abstract-heading"
    )
    assert section.find("h2").text == "Abstract"
    note = section.find("p", class_="missing")
    assert note.text == "The sources give no abstract for this paper. Read the paper (PDF)."
    assert note.find("a").attrs["href"] == PDF
    assert section.find_all("div", class_="abstract") == []


def test_the_page_offers_every_citation(client, modscan):
    page = parse(client.get(f"/papers/{modscan.pk}/"))
    assert page.find("p", class_="acl-citation").text == (
        "Yukun Jiang, Zheng Li, and Yang Zhang. 2024. ModSCAN: Measuring Stereotypical Bias in "
        "Vision-Language Models. In Proceedings of the 2024 Conference on Empirical Methods in "
        "Natural Language Processing, pages 12814–12845, Miami, Florida, USA. Association for "
        "Computational Linguistics."
    )
    assert page.find("pre", id="bibtex").text_raw() == (
        "@inproceedings{jiang-etal-2024-modscan,\n"
        "    title = {{ModSCAN}: Measuring Stereotypical Bias in Vision-Language Models},\n"
        "    author = {Yukun Jiang and Zheng Li and Yang Zhang},\n"
        "    editor = {Al-Onaizan, Yaser and Bansal, Mohit and Chen, Yun-Nung},\n"
        "    booktitle = {Proceedings of the 2024 Conference on Empirical Methods in Natural "
        "Language Processing},\n"
        "    year = {2024},\n"
        "    month = {November},\n"
        "    address = {Miami, Florida, USA},\n"
        "    publisher = {Association for Computational Linguistics},\n"
        "    pages = {12814--12845},\n"
        "    doi = {10.18653/v1/2024.emnlp-main.713},\n"
        "    url = {https://aclanthology.org/2024.emnlp-main.713}\n"
        "}"
    )
    assert page.find("pre", id="ris").text_raw() == (
        "TY  - CPAPER\n"
        "TI  - ModSCAN: Measuring Stereotypical Bias in Vision-Language Models\n"
        "AU  - Jiang, Yukun\n"
        "AU  - Li, Zheng\n"
        "AU  - Zhang, Yang\n"
        "T2  - Proceedings of the 2024 Conference on Empirical Methods in Natural Language "
        "Processing\n"
        "ED  - Al-Onaizan, Yaser\n"
        "ED  - Bansal, Mohit\n"
        "ED  - Chen, Yun-Nung\n"
        "PY  - 2024\n"
        "CY  - Miami, Florida, USA\n"
        "PB  - Association for Computational Linguistics\n"
        "SP  - 12814\n"
        "EP  - 12845\n"
        "DO  - 10.18653/v1/2024.emnlp-main.713\n"
        "UR  - https://aclanthology.org/2024.emnlp-main.713\n"
        "ID  - jiang-etal-2024-modscan\n"
        "ER  - \n"
    )
    item = json.loads(page.find("pre", id="csl-json").text_raw())
    # One key in every format (pandoc and Zotero cite by it), and the month BibTeX gives.
    assert (item["id"], item["issued"]) == ("jiang-etal-2024-modscan", {"date-parts": [[2024, 11]]})
    assert item["title"] == "ModSCAN: Measuring Stereotypical Bias in Vision-Language Models"
    assert (item["page"], item["page-first"]) == ("12814-12845", "12814")
    assert item["author"][0] == {"family": "Jiang", "given": "Yukun"}
    assert item["editor"][2] == {"family": "Chen", "given": "Yun-Nung"}
    assert item["publisher"] == "Association for Computational Linguistics"
    downloads = [link.attrs["href"] for link in page.find("p", class_="exports").find_all("a")]
    assert downloads == [
        f"/list/?ids={modscan.pk}&format={name}" for name in ("bibtex", "ris", "csljson")
    ]


def test_a_paper_without_authors_says_so(client, db):
    paper = make_paper("We study probabilistic parsing.", title="Probabilistic Parsing")
    finish()
    page = parse(client.get(f"/papers/{paper.pk}/"))
    assert [p.text for p in page.find_all("p", class_="authors")] == [
        "Authors unknown: the source of this record gives none."
    ]
    # Its citation says so too, where it is copied (an outside researcher).
    cite = page.find("section", aria_labelledby="cite-heading")
    assert [p.text for p in cite.find_all("p", class_="missing")] == [
        "The source gives no authors, so this citation has none: add them before you use it."
    ]
    assert cite.find("p", class_="acl-citation").text == "2025. Probabilistic Parsing. In ACL 2025."


def test_an_untitled_paper_is_never_cited_with_its_derived_title(client, db):
    paper = make_paper(
        "Large language models are increasingly deployed in settings where their outputs must "
        "be verified by people who cannot read the inputs, which we study here. More follows.",
        venue=make_venue(),
        authors=["Ann Lee"],
        external_id="2025.acl-long.77",
        url="https://aclanthology.org/2025.acl-long.77",
    )
    finish()
    assert paper.display_title.endswith("…")
    response = client.get(f"/papers/{paper.pk}/")
    page = parse(response)
    assert meta(page) == []
    assert page.find("h1").text == paper.display_title
    cite = page.find("section", aria_labelledby="cite-heading")
    assert "…" not in cite.text
    assert cite.find("p", class_="missing").text.startswith(
        "This record is incomplete: the source gives no title, so there is no citation to copy"
    )
    assert cite.find_all("pre") == []
    for name in ("bibtex", "ris", "csljson"):
        body = b"".join(client.get(f"/list/?ids={paper.pk}&format={name}").streaming_content)
        assert "…" not in body.decode()
        assert "Large language models" not in body.decode()
    with pytest.raises(IncompleteRecord):
        bibtex(paper, ["Ann Lee"])


# --- the citations themselves (pure) -------------------------------------------------------

VENUE = SimpleNamespace(
    name="ACL 2025",
    year=2025,
    booktitle="Proceedings of ACL",
    full_name="",
    month="",
    location="Vienna",
    publisher="",
    editors="",
)
TACL = SimpleNamespace(
    name="TACL 2024",
    year=2024,
    booktitle="Transactions of the Association for Computational Linguistics, Volume 12",
    full_name="",
    month="",
    location="",
    publisher="",
    editors="",
)


def cited(title, pages="", venue=VENUE):
    return SimpleNamespace(
        pk=3, title=title, venue=venue, pages=pages, doi="", url="", bibkey="", pdf_url=""
    )


@pytest.mark.parametrize(
    ("title", "braced"),
    [
        (
            "BERT: Pre-training of Deep Bidirectional Transformers",
            "{BERT}: Pre-training of Deep Bidirectional Transformers",
        ),
        ("Parsing texts in Yoruba with little data", "Parsing texts in {Yoruba} with little data"),
        (
            "LLaMA adapters: a study of Chinese dialect transfer",
            "{LLaMA} adapters: a study of {Chinese} dialect transfer",
        ),
        (
            "Evicting the KV Cache for Long-Context Inference",
            "Evicting the {KV} Cache for Long-Context Inference",
        ),
        ("What Attention Heads Do", "What Attention Heads Do"),
        # Names English always capitalises, which a title-case title cannot tell apart (the ACL
        # style printed "chinese", "u.s.", "i"); "A" alone is the article.
        (
            "A Chinese and English Corpus of U.S. Tweets: What Else Do I Need?",
            "A {Chinese} and {English} Corpus of {U}.{S}. Tweets: What Else Do {I} Need?",
        ),
        (
            "Bayesian Models of Twitter for Yolóxochitl Mixtec",
            "{Bayesian} Models of {Twitter} for Yolóxochitl {Mixtec}",
        ),
        ("Caching & 50% Less_Memory", r"Caching \& 50\% Less\_Memory"),
    ],
)
def test_bibtex_titles_brace_only_what_must_keep_its_case(title, braced):
    assert bib_title(title) == braced


@pytest.mark.parametrize(
    ("author", "title", "key"),
    [
        ("Ivan Vulić", "Überblick über Sprachmodelle", "vulic2025uberblick-3"),
        ("Nguyễn Văn Đức", "Dịch máy tiếng Việt", "duc2025dich-3"),
        ("王小明", "机器翻译", "paper2025paper-3"),
    ],
)
def test_a_made_up_bibtex_key_keeps_the_letters_of_accented_names(author, title, key):
    assert bibtex_key(cited(title), [author]) == key


@pytest.mark.parametrize("pages", ["5798–5809", "5798--5809", "5798-5809", "5798 — 5809"])
def test_page_ranges_are_always_written_one_way(pages):
    paper = cited("A Title", pages)
    assert bibtex(paper, []).endswith("    pages = {5798--5809}\n}")
    assert "SP  - 5798\nEP  - 5809\n" in ris(paper, [])
    assert csl(paper, [])["page"] == "5798-5809"
    assert ("citation_firstpage", "5798") in citation_meta(paper, [])
    assert ("citation_lastpage", "5809") in citation_meta(paper, [])
    assert "pages 5798–5809" in acl_citation(paper, [])


def test_acl_style_references():
    assert acl_citation(cited("Is It Good?", "7"), ["Ada Lovelace"]) == (
        "Ada Lovelace. 2025. Is It Good? In Proceedings of ACL, page 7, Vienna."
    )
    assert acl_citation(cited("What Attention Heads Do", "12–34", TACL), ["A B", "C D"]) == (
        "A B and C D. 2024. What Attention Heads Do. Transactions of the Association for "
        "Computational Linguistics, 12:12–34."
    )
    assert re.fullmatch(
        r"2025\. No Authors\. In Proceedings of ACL, Vienna\.",
        acl_citation(cited("No Authors"), []),
    )
    assert citation_meta(cited("What Attention Heads Do", venue=TACL), []) == [
        ("citation_title", "What Attention Heads Do"),
        ("citation_publication_date", "2024"),
        (
            "citation_journal_title",
            "Transactions of the Association for Computational Linguistics",
        ),
        ("citation_volume", "12"),
    ]


def test_latex_titles_render_in_the_other_lists_of_papers(client, modscan):
    for url in (f"/list/?ids={modscan.pk}", f"/papers/{modscan.pk}/similar/"):
        html = client.get(url).content.decode()
        assert "<code>ModSCAN</code>: Measuring Stereotypical Bias" in html, url
        assert "texttt" not in html, url


def test_latex_is_read_in_snippets_feeds_and_the_api(client, modscan):
    paper = make_paper(
        r"We propose \texttt{ModSCAN}, an L\_2 probe with $\sim$3\% error.",
        title=r"\inftyBench: Probing Long Context",
        venue=modscan.venue,
        authors=["Yukun Jiang"],
    )
    finish()
    read = "We propose ModSCAN, an L2 probe with ~3% error."  # L<sub>2</sub>

    # The headline is ts_headline's fragment, with the stop word and the full stop it drops at
    # its ends put back.
    searched = client.get("/?q=probe").content.decode()
    card = parse(searched).find("li", class_="card", data_paper_id=str(paper.pk))
    assert card.find("p", class_="snippet").text == read
    assert (
        "We propose <code>ModSCAN</code>, an L<sub>2</sub> <mark>probe</mark> with ~3% error."
        in searched
    )
    listed = parse(client.get(f"/?venue={modscan.venue.slug}&sort=newest"))
    card = listed.find("li", class_="card", data_paper_id=str(paper.pk))
    # Read as plain text there: the subscript in its own character.
    assert card.find("p", class_="snippet").text == read.replace("L2", "L₂")

    result = client.get("/api/papers/?q=probe").json()["results"][0]
    assert (result["title"], result["display_title"]) == (
        r"\inftyBench: Probing Long Context",
        "∞Bench: Probing Long Context",
    )
    assert result["snippet"] == (
        "We propose <code>ModSCAN</code>, an L<sub>2</sub> <mark>probe</mark> with ~3% error."
    )
    detail = client.get(f"/api/papers/{paper.pk}/").json()
    assert detail["display_title"] == "∞Bench: Probing Long Context"
    feed = client.get(f"/feeds/venues/{modscan.venue.slug}/").content.decode()
    assert "<title>∞Bench: Probing Long Context</title>" in feed
    assert "inftyBench" not in feed


def test_the_description_meta_tag_reads_the_abstracts_latex(client, modscan):
    paper = make_paper(
        r"We propose \texttt{ModSCAN} over \mathcal{V}-usable information.",
        title="Reading LaTeX",
        venue=modscan.venue,
        authors=["Yukun Jiang"],
    )
    finish()
    page = parse(client.get(f"/papers/{paper.pk}/"))
    description = page.find("meta", name="description").attrs["content"]
    assert description == "We propose ModSCAN over V-usable information."
