"""People as the Anthology tells them apart: one page per person id, names without one."""

import json

import pytest

from papers import curation
from papers.loading import load_files
from papers.merging import MergeRefused, merge_authors
from papers.models import Author, Authorship, Paper
from papers.name_keys import name_key
from tests.factories import make_author
from tests.support import parse

pytestmark = pytest.mark.django_db


def author(name: str, person_id: str = "") -> str:
    first, last = name.rsplit(" ", 1)
    attribute = f' id="{person_id}"' if person_id else ""
    return f"<author{attribute}><first>{first}</first><last>{last}</last></author>"


def anthology_xml(*papers: tuple[str, list[str]]) -> str:
    """A one-volume collection 2024.acl whose papers have these titles and author elements."""
    body = "".join(
        f'<paper id="{number}"><title>{title}</title>{"".join(authors)}'
        f"<abstract>Abstract of {title}, paper {number}.</abstract></paper>"
        for number, (title, authors) in enumerate(papers, start=1)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><collection id="2024.acl"><volume id="long">'
        "<meta><booktitle>Proceedings of ACL 2024 (Volume 1: Long Papers)</booktitle>"
        "<year>2024</year><venue>acl</venue></meta>"
        f"{body}</volume></collection>"
    )


def dump_jsonl(*papers: tuple[str, list[str]]) -> str:
    return "".join(
        json.dumps(
            {"title": title, "abstract": f"A dump abstract about {title}.", "venue": "ACL 2024"}
            | {"authors": names}
        )
        + "\n"
        for title, names in papers
    )


PEOPLE = anthology_xml(
    ("Edinburgh Parsing", [author("Yang Liu", "yang-liu-edinburgh"), author("Ann Lee")]),
    ("ICT Translation", [author("Yang Liu", "yang-liu-ict")]),
    ("Unattributed Work", [author("Yang Liu")]),
    ("Thomas One", [author("Christopher Thomas", "chris-thomas")]),
    ("Thomas Two", [author("Chris Thomas", "chris-thomas")]),
    ("Singh Paper", [author("Mayank Singh", "mayank-singh")]),
)


def authors_of(title: str) -> list[str]:
    paper = Paper.objects.get(title=title)
    return [a.author.slug for a in paper.authorships.select_related("author")]


def test_each_person_the_anthology_separates_has_a_page(client, write_dump):
    load_files([write_dump("2024.acl.xml", PEOPLE)])
    assert authors_of("Edinburgh Parsing") == ["yang-liu-edinburgh", "ann-lee"]
    assert authors_of("ICT Translation") == ["yang-liu-ict"]
    # Two people share the name: an author without an id is the name's, not one of them.
    assert authors_of("Unattributed Work") == ["yang-liu"]
    assert Author.objects.get(slug="yang-liu").person_id == ""

    page = parse(client.get("/authors/yang-liu-edinburgh/"))
    assert page.find("h1").text == "Yang Liu"
    assert page.find(id="namesakes-heading").text == "Other people named Yang Liu"
    others = [
        (item.find("a").attrs["href"], item.text)
        for item in page.find("section", class_="namesakes").find_all("li")
    ]
    assert others == [
        ("/authors/yang-liu/", "Yang Liu (papers not attributed to one person), 1 paper · 2024"),
        ("/authors/yang-liu-ict/", "Yang Liu (yang-liu-ict), 1 paper · 2024"),
    ]
    assert [h.text for h in page.find_all("h3", class_="card-title")] == ["Edinburgh Parsing"]

    name_page = parse(client.get("/authors/yang-liu/"))
    assert name_page.find(id="namesakes-heading").text == "People named Yang Liu"
    namesakes = name_page.find("section", class_="namesakes")
    listed = [item.find("a").attrs["href"] for item in namesakes.find_all("li")]
    assert listed == ["/authors/yang-liu-edinburgh/", "/authors/yang-liu-ict/"]
    assert [h.text for h in name_page.find_all("h3", class_="card-title")] == ["Unattributed Work"]


def test_a_person_keeps_the_spellings_of_their_name(client, write_dump):
    load_files([write_dump("2024.acl.xml", PEOPLE)])
    person = Author.objects.get(person_id="chris-thomas")
    assert (person.name, person.slug, person.variants) == (
        "Christopher Thomas",
        "chris-thomas",
        ["Chris Thomas"],
    )
    page = parse(client.get("/authors/chris-thomas/"))
    assert page.find("p", class_="name-variants").text == "Also published as: Chris Thomas"
    assert page.find_all("section", class_="namesakes") == []
    assert "2 papers" in page.text


def test_a_dump_author_goes_to_the_one_person_of_that_name(write_dump):
    # The dump comes first: its "Mayank Singh" is a name, until the Anthology names the person.
    load_files([write_dump("early.jsonl", dump_jsonl(("Early Singh", ["Mayank Singh"])))])
    assert Author.objects.get(slug="mayank-singh").person_id == ""
    summary = load_files([write_dump("2024.acl.xml", PEOPLE)])
    assert authors_of("Early Singh") == ["mayank-singh"]
    assert authors_of("Singh Paper") == ["mayank-singh"]
    assert Author.objects.filter(key="mayank singh").count() == 1
    assert Author.objects.get(key="mayank singh").person_id == "mayank-singh"
    assert summary.updated == 1  # Early Singh: its author is now the person
    # And a dump after the Anthology goes to the person at once.
    load_files([write_dump("late.jsonl", dump_jsonl(("Late Singh", ["Mayank Singh"])))])
    assert authors_of("Late Singh") == ["mayank-singh"]
    load_files([write_dump("many.jsonl", dump_jsonl(("Liu Again", ["Yang Liu"])))])
    assert authors_of("Liu Again") == ["yang-liu"]  # several people: the name's page


def test_a_paper_loaded_before_its_people_were_named_is_relinked(write_dump):
    """A database loaded when person ids were ignored gains its people on the next load."""
    merged = anthology_xml(
        ("Edinburgh Parsing", [author("Yang Liu"), author("Ann Lee")]),
        ("ICT Translation", [author("Yang Liu")]),
    )
    load_files([write_dump("2024.acl.xml", merged)])
    assert authors_of("ICT Translation") == ["yang-liu"]
    assert Author.objects.get(slug="yang-liu").authorships.count() == 2

    summary = load_files([write_dump("2024.acl.xml", PEOPLE)])
    assert authors_of("Edinburgh Parsing") == ["yang-liu-edinburgh", "ann-lee"]
    assert authors_of("ICT Translation") == ["yang-liu-ict"]
    assert authors_of("Unattributed Work") == ["yang-liu"]
    assert summary.updated == 2
    assert not Authorship.objects.filter(author__person_id="", author__key="yang liu").exclude(
        paper__title="Unattributed Work"
    )
    again = load_files([write_dump("2024.acl.xml", PEOPLE)])
    assert (again.new, again.updated) == (0, 0)


def test_a_person_id_takes_its_slug_from_a_name_holding_it(client, write_dump):
    load_files([write_dump("early.jsonl", dump_jsonl(("Early Liu", ["Yang Liu"])))])
    assert authors_of("Early Liu") == ["yang-liu"]
    xml = anthology_xml(
        ("Catch All", [author("Yang Liu", "yang-liu")]),
        ("ICT Translation", [author("Yang Liu", "yang-liu-ict")]),
    )
    load_files([write_dump("2024.acl.xml", xml)])
    assert Author.objects.get(slug="yang-liu").person_id == "yang-liu"
    assert authors_of("Early Liu") == ["yang-liu-2"]
    assert client.get("/authors/yang-liu-2/").status_code == 200


def test_a_name_with_and_without_its_accents_is_one_author(client, write_dump):
    dump = dump_jsonl(
        ("Plain Spelling", ["Andre Martins", "Ann Lee"]),
        ("Accented Spelling", ["André Martins"]),
        ("Stroked Letters", ["Łukasz Kaiser", "Alex Lưu"]),
        ("Apostrophes", ["Sean O'Brien", "Zoë O’Neil"]),
        ("Curly Apostrophes", ["Sean O’Brien", "Zoe O'Neil"]),
    )
    load_files([write_dump("2024.jsonl", dump)])
    load_files([write_dump("later.jsonl", dump_jsonl(("Later Paper", ["ANDRE MARTINS"])))])
    martins = Author.objects.get(key="andre martins")
    # The most accented spelling names the author; the slug is the one it always had.
    assert (martins.name, martins.slug) == ("André Martins", "andre-martins")
    assert sorted(martins.authorships.values_list("paper__title", flat=True)) == [
        "Accented Spelling",
        "Later Paper",
        "Plain Spelling",
    ]
    assert Author.objects.count() == 6
    page = parse(client.get("/authors/andre-martins/"))
    assert page.find("h1").text == "André Martins"
    assert page.find_all("section", class_="namesakes") == []
    assert len(page.find_all("h3", class_="card-title")) == 3
    assert authors_of("Stroked Letters") == ["lukasz-kaiser", "alex-luu"]
    assert authors_of("Curly Apostrophes") == ["sean-obrien", "zoe-oneil"]
    assert Author.objects.get(slug="zoe-oneil").name == "Zoë O’Neil"


def test_names_are_kept_composed_and_without_invisible_characters(write_dump):
    # A decomposed "Nguyễn" was kept as 17 code points; a zero-width space made a second
    # "Seán O'Brien", whose address held it (an outside tester).
    dump = dump_jsonl(
        ("Decomposed", ["Nguye\u0302\u0303n Va\u0306n Anh", "Sea\u0301n O'Brien\u200b"]),
        ("Composed", ["Nguyễn Văn Anh", "Seán O'Brien"]),
    )
    load_files([write_dump("2024.jsonl", dump)])
    assert sorted(Author.objects.values_list("name", "slug")) == [
        ("Nguyễn Văn Anh", "nguyen-van-anh"),
        ("Seán O'Brien", "sean-obrien"),
    ]
    assert authors_of("Decomposed") == authors_of("Composed") == ["nguyen-van-anh", "sean-obrien"]


def test_a_name_in_two_cases_is_named_by_its_capitalised_spelling(write_dump):
    # The Anthology's first record of him wrote "Alfonso-hermelo", five others "Alfonso-Hermelo".
    dump = dump_jsonl(
        ("First Record", ["David Alfonso-hermelo"]),
        ("Second Record", ["David Alfonso-Hermelo"]),
        ("Shouted Record", ["DAVID ALFONSO-HERMELO"]),
    )
    load_files([write_dump("2024.jsonl", dump)])
    assert list(Author.objects.values_list("name", flat=True)) == ["David Alfonso-Hermelo"]
    assert authors_of("First Record") == ["david-alfonso-hermelo"]
    # A generation's numeral is written in capitals: 6 Anthology records wrote "Iii", 21 "III".
    generation = dump_jsonl(("Miscased", ["Hal Daumé Iii"]), ("Capitals", ["Hal Daumé III"]))
    load_files([write_dump("generation.jsonl", generation)])
    assert Author.objects.get(key="hal daume iii").name == "Hal Daumé III"
    # A particle's case says nothing: the first spelling stays (a reviewer).
    particles = dump_jsonl(("Lower", ["Antal van den Bosch"]), ("Upper", ["Antal Van Den Bosch"]))
    load_files([write_dump("particles.jsonl", particles)])
    assert Author.objects.get(key="antal van den bosch").name == "Antal van den Bosch"


def test_an_unaccented_spelling_goes_to_the_person_the_anthology_names(write_dump):
    xml = anthology_xml(("Person Paper", [author("André Martins", "andre-martins-lisbon")]))
    load_files([write_dump("2024.acl.xml", xml)])
    load_files([write_dump("dump.jsonl", dump_jsonl(("Dump Paper", ["Andre Martins"])))])
    assert authors_of("Dump Paper") == ["andre-martins-lisbon"]
    assert Author.objects.count() == 1


def test_a_paper_a_load_changed_without_reading_it_is_not_counted_unchanged(write_dump):
    # The second load's name joins the first paper's author (umlauts): that paper changed
    # without being read, and "1 new, 1 updated, -1 unchanged" took it from the papers read.
    load_files([write_dump("first.jsonl", dump_jsonl(("Written Out", ["Hinrich Schuetze"])))])
    later = load_files([write_dump("later.jsonl", dump_jsonl(("Umlauts", ["Hinrich Schütze"])))])
    assert (later.new, later.updated, later.unchanged) == (1, 1, 0)
    assert Author.objects.get().name == "Hinrich Schütze"


@pytest.mark.parametrize("ascii_first", [False, True])
def test_a_name_written_with_its_umlauts_written_out_is_one_author(client, write_dump, ascii_first):
    """German writes "Schütze" as "Schuetze" without the dots, and the Anthology writes eleven
    people both ways: one author, named with the umlauts, whichever spelling comes first."""
    umlauts = dump_jsonl(("With Umlauts", ["Hinrich Schütze", "Xue Wang"]))
    written_out = dump_jsonl(
        ("Written Out", ["Hinrich Schuetze", "Xu Wang"]), ("Dots Dropped", ["Hinrich Schutze"])
    )
    files = [write_dump("umlauts.jsonl", umlauts), write_dump("written.jsonl", written_out)]
    for path in reversed(files) if ascii_first else files:
        load_files([path])
    schutze = Author.objects.get(key="hinrich schutze")
    # Named with the umlauts, found by both keys.
    assert (schutze.name, schutze.umlaut_key) == ("Hinrich Schütze", "hinrich schuetze")
    assert sorted(schutze.authorships.values_list("paper__title", flat=True)) == [
        "Dots Dropped",
        "With Umlauts",
        "Written Out",
    ]
    # Only a name with umlauts has a second key: "Xu" is not "Xue".
    assert sorted(Author.objects.values_list("name", flat=True)) == [
        "Hinrich Schütze",
        "Xu Wang",
        "Xue Wang",
    ]
    page = parse(client.get(schutze.get_absolute_url()))
    assert len(page.find_all("h3", class_="card-title")) == 3
    # The papers that moved are counted and found under their author.
    assert client.get(f"/api/papers/?author={schutze.slug}").json()["count"] == 3
    assert client.get("/api/papers/?q=Schuetze").json()["count"] == 3
    card = parse(client.get("/?q=Hinrich+Schuetze")).find("section", class_="author-cards")
    assert [a.attrs["href"] for a in card.find_all("a")] == [schutze.get_absolute_url()]
    # The address of the spelling without umlauts, where it had a page, leads to the author.
    response = client.get("/authors/hinrich-schuetze/")
    assert (response.status_code, response["Location"]) == (301, schutze.get_absolute_url())
    assert client.get("/authors/no-such-person/").status_code == 404


@pytest.mark.django_db
def test_an_address_written_as_another_name_of_one_author_leads_to_them(client):
    # "/authors/christopher-manning/" was a 404 though the page of Christopher D. Manning
    # says "Also published as: Christopher Manning" (an outside tester).
    manning = make_author("Christopher D. Manning")
    Author.objects.filter(pk=manning.pk).update(
        variants=["Christopher Manning"], family_name="Manning"
    )
    response = client.get("/authors/christopher-manning/?year=2024")
    assert (response.status_code, response["Location"]) == (
        302,
        manning.get_absolute_url() + "?year=2024",
    )
    # Not where two authors go by it.
    other = make_author("Christopher B. Manning")
    Author.objects.filter(pk=other.pk).update(
        variants=["Christopher Manning"], family_name="Manning"
    )
    assert client.get("/authors/christopher-manning/").status_code == 404


def test_a_name_without_umlauts_joins_one_author_only_and_never_a_curators_list(write_dump):
    """Of two people named with umlauts, which one "Thomas Mueller" is is unknown: the name
    keeps its papers. A paper whose authors a curator set keeps them; the ORCID of the name
    joined goes with it."""
    xml = anthology_xml(
        ("First Müller", [author("Thomas Müller", "thomas-muller-1")]),
        ("Second Müller", [author("Thomas Müller", "thomas-muller-2")]),
    )
    written_out = dump_jsonl(
        ("Mueller Paper", ["Thomas Mueller"]),
        ("Schuetze Paper", ["Hinrich Schuetze"]),
        ("Curated Schuetze Paper", ["Hinrich Schuetze"]),
    )
    load_files([write_dump("2024.acl.xml", xml), write_dump("written.jsonl", written_out)])
    Author.objects.filter(slug="hinrich-schuetze").update(orcid="0000-0002-1825-0097")
    Paper.objects.filter(title="Curated Schuetze Paper").update(curated_fields=["authors"])
    load_files([write_dump("umlauts.jsonl", dump_jsonl(("Umlaut Paper", ["Hinrich Schütze"])))])
    assert authors_of("Mueller Paper") == ["thomas-mueller"]
    assert authors_of("Curated Schuetze Paper") == ["hinrich-schuetze"]
    assert authors_of("Schuetze Paper") == authors_of("Umlaut Paper") == ["hinrich-schutze"]
    assert Author.objects.get(slug="hinrich-schutze").orcid == "0000-0002-1825-0097"


def test_an_initial_with_or_without_its_full_stop_is_one_person(client, write_dump):
    """The Anthology folder writes 29 people both ways: "Christopher D Manning" had a page of
    his own beside "Christopher D. Manning". The spelling with the stops names the person."""
    assert (
        name_key("Laks V.S. Lakshmanan") == name_key("Laks V S Lakshmanan") == "laks v s lakshmanan"
    )
    assert name_key("A.k.m Mahamud") == "a k m mahamud"
    # A full stop after more than one letter, or in a number, is not an initial's.
    assert name_key("St. John Perse") == "st. john perse"
    assert name_key("GPT-3.5 Turbo") == "gpt-3.5 turbo"
    # A hyphen between letters is a space: 36 people of the Anthology folder are written both
    # ways, each spelling with a page of its own (an outside tester).
    assert name_key("Dilek Hakkani-Tür") == name_key("Dilek Hakkani Tur") == "dilek hakkani tur"
    dump = dump_jsonl(
        ("First Record", ["Christopher D Manning", "Laks V.S. Lakshmanan"]),
        ("Second Record", ["Christopher D. Manning"]),
        ("Third Record", ["Laks V. S. Lakshmanan", "St John Perse"]),
    )
    load_files([write_dump("2024.jsonl", dump)])
    assert sorted(Author.objects.values_list("name", "slug")) == [
        ("Christopher D. Manning", "christopher-d-manning"),
        ("Laks V. S. Lakshmanan", "laks-v-s-lakshmanan"),
        ("St John Perse", "st-john-perse"),
    ]
    assert authors_of("First Record") == ["christopher-d-manning", "laks-v-s-lakshmanan"]
    load_files([write_dump("more.jsonl", dump_jsonl(("Fourth Record", ["Christopher D Manning"])))])
    assert authors_of("Fourth Record") == ["christopher-d-manning"]
    assert client.get("/api/papers/?author=christopher-d-manning").json()["count"] == 3


def test_names_one_orcid_gives_are_one_author(write_dump):
    """The Anthology folder gives "Christopher Manning" and "Christopher D Manning" one ORCID:
    two pages split his papers (an outside researcher). One ORCID given to two names that
    disagree ("Albert Lam", "Xiao-Ming Wu" in the folder) keeps them apart."""
    manning = "0000-0001-6155-649X"
    shared = "0000-0002-6887-9301"
    xml = anthology_xml(
        (
            "Paper 1",
            [author("Christopher Manning").replace("<author>", f'<author orcid="{manning}">')],
        ),
        (
            "Paper 2",
            [
                author("Christopher D Manning").replace("<author>", f'<author orcid="{manning}">'),
                author("Albert Lam").replace("<author>", f'<author orcid="{shared}">'),
                author("Xiao-Ming Wu").replace("<author>", f'<author orcid="{shared}">'),
            ],
        ),
        # Without the ORCID, with the stop: the spelling that names him (a reviewer).
        ("Paper 3", [author("Christopher D. Manning")]),
    )
    load_files([write_dump("2024.acl.xml", xml)])
    assert sorted(Author.objects.values_list("name", "orcid", "variants")) == [
        ("Albert Lam", shared, []),
        ("Christopher D. Manning", manning, ["Christopher Manning", "Christopher D Manning"]),
        ("Xiao-Ming Wu", shared, []),
    ]
    assert authors_of("Paper 1") == authors_of("Paper 3") == ["christopher-d-manning"]
    assert authors_of("Paper 2") == ["christopher-d-manning", "albert-lam", "xiao-ming-wu"]
    # A later load of either name alone, or of another spelling with the ORCID, finds him.
    later = dump_jsonl(
        ("Page Copy", ["Christopher Manning"]), ("Another", ["Christopher D. Manning"])
    )
    load_files([write_dump("later.jsonl", later)])
    assert authors_of("Page Copy") == authors_of("Another") == ["christopher-d-manning"]
    assert Author.objects.filter(name__contains="Manning").count() == 1


def test_accents_of_other_scripts_are_part_of_the_name():
    assert name_key("Nguyễn Văn Đức") == "nguyen van duc"
    assert name_key("Barnabás  PÓCZOS") == "barnabas poczos"
    # A Devanagari virama and a Cyrillic breve are letters of their words, not accents.
    assert name_key("अक्षय") == "अक्षय"
    assert name_key("Андрей") == "андрей"
    assert name_key("Κώστας") == "κώστασ"  # case folding makes a final sigma a sigma


def test_the_search_offers_every_person_of_a_name(client, write_dump):
    load_files([write_dump("2024.acl.xml", PEOPLE)])
    page = parse(client.get("/?q=Yang+Liu"))
    links = {link.attrs["href"] for link in page.find_all("a")}
    offered = {href for href in links if href.startswith("/authors/yang-liu")}
    assert offered == {
        "/authors/yang-liu/",
        "/authors/yang-liu-edinburgh/",
        "/authors/yang-liu-ict/",
    }


@pytest.mark.anthology
def test_the_real_anthology_separates_the_yang_lius(client, anthology_files):
    two = [path for path in anthology_files if path.name in {"2020.acl.xml", "2021.acl.xml"}]
    load_files(two)
    response = client.get("/authors/yang-liu-ict/")
    assert response.status_code == 200
    people = Author.objects.filter(key="yang liu").exclude(person_id="")
    assert sorted(people.values_list("slug", flat=True)) == ["yang-liu", "yang-liu-ict"]
    ict = Author.objects.get(slug="yang-liu-ict")
    assert ict.authorships.count() == 2


def family_author(first: str, last: str, person_id: str = "") -> str:
    attribute = f' id="{person_id}"' if person_id else ""
    return f"<author{attribute}><first>{first}</first><last>{last}</last></author>"


FAMILIES = anthology_xml(
    (
        "Hypernym Discovery",
        [
            family_author("Luis", "Espinosa Anke"),
            family_author("Marten", "van Schijndel", "marten-van-schijndel"),
            family_author("Ann", "Lee"),
        ],
    ),
)


def test_citations_write_the_family_name_the_anthology_tells(client, write_dump):
    """ "Luis Espinosa Anke" was cited as "Anke, Luis Espinosa": the last word taken for the
    family name. The Anthology's <last> is kept (Author.family_name) and cited."""
    load_files([write_dump("2024.acl.xml", FAMILIES)])
    paper = Paper.objects.get(title="Hypernym Discovery")
    ris = client.get(f"/list/?ids={paper.pk}&format=ris")
    authors = [
        line
        for line in b"".join(ris.streaming_content).decode().splitlines()
        if line.startswith("AU")
    ]
    assert authors == ["AU  - Espinosa Anke, Luis", "AU  - van Schijndel, Marten", "AU  - Lee, Ann"]
    csl = json.loads(
        b"".join(client.get(f"/list/?ids={paper.pk}&format=csljson").streaming_content)
    )
    assert csl[0]["author"] == [
        {"family": "Espinosa Anke", "given": "Luis"},
        {"family": "van Schijndel", "given": "Marten"},
        {"family": "Lee", "given": "Ann"},
    ]
    bibtex = b"".join(client.get(f"/list/?ids={paper.pk}&format=bibtex").streaming_content)
    assert "author = {Espinosa Anke, Luis and van Schijndel, Marten and Ann Lee}" in bibtex.decode()
    page = parse(client.get(f"/papers/{paper.pk}/"))
    cited = [meta.attrs["content"] for meta in page.find_all("meta", name="citation_author")]
    assert cited == ["Espinosa Anke, Luis", "van Schijndel, Marten", "Lee, Ann"]


def test_authors_loaded_without_a_family_name_learn_it(write_dump):
    """A dump does not say which words are the family name; a later Anthology file does."""
    load_files(
        [
            write_dump(
                "early.jsonl",
                dump_jsonl(("Early Anke", ["Luis Espinosa Anke", "Marten van Schijndel"])),
            )
        ]
    )
    assert set(Author.objects.values_list("name", "family_name")) == {
        ("Luis Espinosa Anke", ""),
        ("Marten van Schijndel", ""),
    }
    load_files([write_dump("2024.acl.xml", FAMILIES)])
    assert Author.objects.get(name="Luis Espinosa Anke").family_name == "Espinosa Anke"
    assert Author.objects.get(slug="marten-van-schijndel").family_name == "van Schijndel"


def test_a_database_loaded_before_learns_family_names_on_its_next_load(write_dump):
    """Papers whose author lists a load keeps: their authors learn the family name at their
    place, where they have none (as after migration 0023)."""
    load_files([write_dump("2024.acl.xml", FAMILIES)])
    Author.objects.update(family_name="")
    load_files([write_dump("2024.acl.xml", FAMILIES)])
    assert dict(Author.objects.values_list("name", "family_name")) == {
        "Luis Espinosa Anke": "Espinosa Anke",
        "Marten van Schijndel": "van Schijndel",
        "Ann Lee": "Lee",
    }


def test_a_curators_merge_of_one_persons_names_holds_through_loads(client, write_dump):
    """ "Daniel S. Weld", "Dan Weld" and "Daniel Weld" were three authors: a curator
    merges them, and later loads give every spelling to the one kept."""
    path = write_dump(
        "weld.jsonl",
        dump_jsonl(
            ("Weld One", ["Daniel S. Weld", "Ann Lee"]),
            ("Weld Two", ["Dan Weld"]),
            ("Weld Three", ["Daniel Weld", "Ann Lee", "Dan Weld", "Bo Chen"]),
        ),
    )
    load_files([path])
    Author.objects.filter(name="Daniel Weld").update(orcid="0000-0002-1825-0097")
    kept = Author.objects.get(name="Daniel S. Weld")
    others = list(Author.objects.filter(name__in=["Dan Weld", "Daniel Weld"]).order_by("pk"))
    old_slugs = {other.name: other.slug for other in others}
    merge_authors(kept, others)
    kept.refresh_from_db()
    assert (kept.variants, kept.orcid) == (["Dan Weld", "Daniel Weld"], "0000-0002-1825-0097")
    # A paper that named two of them keeps the first place either had, its places numbered
    # again (a gap made the last author "4th of 3").
    three = Paper.objects.get(title="Weld Three")
    assert authors_of("Weld Three") == [kept.slug, "ann-lee", "bo-chen"]
    assert list(three.authorships.values_list("position", flat=True)) == [1, 2, 3]
    assert three.author_names == "Daniel S. Weld, Ann Lee, Bo Chen"
    more = dump_jsonl(
        ("Weld Four", ["Daniel Weld"]), ("Weld Five", ["Daniel Weld", "Ann Lee", "Dan Weld"])
    )
    load_files([path, write_dump("more.jsonl", more)])
    assert list(Author.objects.filter(name__contains="Weld")) == [kept]
    assert sorted(kept.authorships.values_list("paper__title", flat=True)) == [
        "Weld Five",
        "Weld Four",
        "Weld One",
        "Weld Three",
        "Weld Two",
    ]
    # A new paper naming two of the merged names has the author once, in the first place.
    five = Paper.objects.get(title="Weld Five")
    assert authors_of("Weld Five") == [kept.slug, "ann-lee"]
    assert list(five.authorships.values_list("position", flat=True)) == [1, 2]
    assert client.get(f"/api/papers/?author={kept.slug}").json()["count"] == 5
    # Their addresses lead to the author kept: the page, its feed, the list's filter.
    short, dropped = old_slugs["Dan Weld"], old_slugs["Daniel Weld"]
    for old, new in [
        (f"/authors/{dropped}/?sort=newest", f"/authors/{kept.slug}/?sort=newest"),
        (f"/feeds/authors/{short}/", f"/feeds/authors/{kept.slug}/"),
        (f"/?q=weld&author={dropped}", f"/?q=weld&author={kept.slug}"),
        (f"/?q=Dan+Weld&author={short}", f"/?q=Dan+Weld&author={kept.slug}"),
        (f"/?author={dropped}&format=bibtex", f"/?author={kept.slug}&format=bibtex"),
        (f"/api/papers/?author={dropped}", f"/api/papers/?author={kept.slug}"),
        (f"/feeds/search/?author={dropped}", f"/feeds/search/?author={kept.slug}"),
    ]:
        response = client.get(old)
        assert (response.status_code, response["Location"]) == (301, new), old
    # A merged name, searched, offers the author it joined.
    body = client.get("/api/papers/?q=Daniel+Weld").json()
    assert [author["name"] for author in body["authors"]] == ["Daniel S. Weld"]


def test_people_the_anthology_tells_apart_are_not_merged(write_dump):
    load_files([write_dump("2024.acl.xml", PEOPLE)])
    edinburgh, ict = (
        Author.objects.get(slug="yang-liu-edinburgh"),
        Author.objects.get(slug="yang-liu-ict"),
    )
    with pytest.raises(
        MergeRefused, match=r"tells these people apart \(yang-liu-edinburgh, yang-liu-ict\)"
    ):
        merge_authors(edinburgh, [ict])
    assert authors_of("ICT Translation") == ["yang-liu-ict"]


def test_a_merged_name_goes_to_the_person_the_anthology_names_later(client, write_dump):
    dump = dump_jsonl(("Dump One", ["Christopher Thomas"]), ("Dump Two", ["Chris Thomas"]))
    load_files([write_dump("thomas.jsonl", dump)])
    kept = Author.objects.get(name="Christopher Thomas")
    merge_authors(kept, [Author.objects.get(name="Chris Thomas")])
    xml = anthology_xml(
        ("Thomas One", [author("Christopher Thomas", "chris-thomas")]),
        ("Thomas Two", [author("Chris Thomas", "chris-thomas")]),
    )
    load_files([write_dump("2024.acl.xml", xml)])
    load_files([write_dump("later.jsonl", dump_jsonl(("Dump Three", ["Chris Thomas"])))])
    # One person, every paper; the merged author's address leads to it.
    person = Author.objects.get(person_id="chris-thomas")
    assert list(Author.objects.filter(name__contains="Thomas")) == [person]
    assert sorted(person.authorships.values_list("paper__title", flat=True)) == [
        "Dump One",
        "Dump Three",
        "Dump Two",
        "Thomas One",
        "Thomas Two",
    ]
    response = client.get(f"/authors/{kept.slug}/")
    assert (response.status_code, response["Location"]) == (301, person.get_absolute_url())


def test_a_renamed_author_keeps_the_old_name_for_later_loads(write_dump):
    # A curator renamed "Tianyu Jiang"; a later file naming him so made a second author.
    load_files([write_dump("2024.acl.xml", anthology_xml(("First", [author("Tianyu Jiang")])))])
    renamed = Author.objects.get(name="Tianyu Jiang")
    renamed.name = "Tianyu J. Jiang"
    renamed.save()
    curation.record_author_edit(renamed, ["name"], "Tianyu Jiang")
    assert Author.objects.get(pk=renamed.pk).variants == ["Tianyu Jiang"]
    load_files([write_dump("later.jsonl", dump_jsonl(("Second", ["Tianyu Jiang"])))])
    assert authors_of("Second") == [renamed.slug]
    assert list(Author.objects.values_list("name", flat=True)) == ["Tianyu J. Jiang"]
    # Only a new name is kept: one that its key already matches is not a variant.
    curation.record_author_edit(renamed, ["name"], "Tianyu J. JIANG")
    assert Author.objects.get(pk=renamed.pk).variants == ["Tianyu Jiang"]


def test_a_name_typed_by_mistake_and_renamed_back_takes_no_papers_of_that_name(write_dump):
    # "Ruby Cole" renamed "Grace Liu" by mistake, then back: a new paper by Grace Liu, who has
    # her own page, went to Ruby Cole (an outside curator).
    load_files(
        [write_dump("one.jsonl", dump_jsonl(("First", ["Ruby Cole"]), ("Other", ["Grace Liu"])))]
    )
    ruby = Author.objects.get(name="Ruby Cole")
    for old_name, name in [("Ruby Cole", "Grace Liu"), ("Grace Liu", "Ruby M. Cole")]:
        ruby.name = name
        ruby.save()
        curation.record_author_edit(ruby, ["name"], old_name)
    load_files([write_dump("two.jsonl", dump_jsonl(("Second", ["Grace Liu"])))])
    assert authors_of("Second") == ["grace-liu"]
    # Renamed back to a name it had, that name is no variant of its own.
    ruby.name = "Ruby Cole"
    ruby.save()
    curation.record_author_edit(ruby, ["name"], "Ruby M. Cole")
    assert Author.objects.get(pk=ruby.pk).variants == ["Grace Liu", "Ruby M. Cole"]
