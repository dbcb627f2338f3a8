"""Every kind of hostile record is refused before writing, with a message naming file and line."""

import json
import re

import pytest
from django.core.management.base import CommandError

from papers.loading import load_files
from papers.models import Author, Authorship, Paper, Topic, Venue
from papers.validation import (
    AUTHOR_NAME_LIMIT,
    ORCID_LIMIT,
    PAPER_LIMITS,
    TOPIC_NAME_LIMIT,
    VENUE_LIMITS,
)
from tests.factories import make_author, make_paper, make_venue
from tests.test_anthology import collection, paper, volume
from tests.test_loading import run, snapshot

pytestmark = pytest.mark.django_db

GOOD_LINE = {"title": "A good paper", "abstract": "A good abstract.", "venue": "ACL 2025"}


def jsonl(*lines: dict) -> str:
    return "".join(json.dumps({**GOOD_LINE, **line}) + "\n" for line in lines)


def words(count: int) -> str:
    """`count` distinct words: the most a search vector can get from so much text."""
    return " ".join(f"w{number:x}" for number in range(count))


def anthology_paper(**fields) -> str:
    return collection("2024.acl", volume("long", "Proceedings of ACL", paper("1", **fields)))


def xml_paper_line(text: str) -> int:
    return text[: text.index("<paper")].count("\n") + 1


HOSTILE_JSONL = [
    ({"authors": [""]}, "an author with an empty name"),
    ({"authors": ["Ann Lee", " \t "]}, "an author with an empty name"),
    ({"title": "", "abstract": ""}, "a paper with neither title nor abstract"),
    ({"title": None, "abstract": "  \n "}, "a paper with neither title nor abstract"),
    ({"venue": ""}, "a paper without a venue"),
    ({"abstract": "x" * 20_001}, "the abstract is 20,001 characters long (at most 20,000)"),
    # Its search vector would pass PostgreSQL's 1 MB limit ("string is too long for tsvector").
    ({"abstract": words(200_000)}, "the abstract is 1,330,095 characters long (at most 20,000)"),
    ({"title": "t" * 1_001}, "the title is 1,001 characters long (at most 1,000)"),
    ({"venue": "V" * 201}, "the venue is 201 characters long (at most 200)"),
    ({"external_id": "e" * 101}, "the external id is 101 characters long (at most 100)"),
    ({"country": "c" * 101}, "the country is 101 characters long (at most 100)"),
    ({"source": "s" * 301}, "the source file is 301 characters long (at most 300)"),
    ({"authors": ["a" * 301]}, "an author's name is 301 characters long (at most 300)"),
    (
        {"authors": [f"Author {n:03d} " + "x" * 60 for n in range(480)]},
        "the author names are 34,080 characters together (at most 30,000)",
    ),
    ({"authors": [f"Author {n}" for n in range(501)]}, "501 authors (at most 500)"),
    ({"topics": ["t" * 201]}, "a topic is 201 characters long (at most 200)"),
    ({"topics": [""]}, "a topic that is empty"),
    ({"topics": [f"topic {n}" for n in range(5_000)]}, "5,000 topics (at most 50)"),
    ({"related_titles": ["r" * 1_001]}, "a related title is 1,001 characters long (at most 1,000)"),
    ({"related_titles": [f"t{n}" for n in range(51)]}, "51 related titles (at most 50)"),
    ({"abstract": "nul \u0000 inside"}, "the abstract contains a NUL character"),
    ({"title": "half \ud800 a pair"}, "the title contains a lone surrogate (not Unicode text)"),
    ({"authors": ["Ann \udfff"]}, "an author's name contains a lone surrogate (not Unicode text)"),
    ({"topics": ["mt\u0000"]}, "a topic contains a NUL character"),
]


@pytest.mark.parametrize(
    ("fields", "reason"), HOSTILE_JSONL, ids=[reason for _, reason in HOSTILE_JSONL]
)
def test_hostile_export_lines_are_refused_and_nothing_is_written(seeds, tmp_path, fields, reason):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.jsonl").write_text(jsonl({"title": "Fine"}), encoding="utf-8")
    bad = folder / "b.jsonl"
    bad.write_text(jsonl({"title": "Also fine"}, fields), encoding="utf-8")
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        run("load_papers", str(folder))
    assert str(refused.value) == f"nothing was loaded: {bad}, line 2: {reason}"
    assert snapshot() == before


def test_a_year_that_is_no_year_is_refused(write_dump):
    path = write_dump("year.jsonl", jsonl({"year": 99_999}))
    with pytest.raises(CommandError) as refused:
        run("load_papers", str(path))
    assert (
        str(refused.value) == f"nothing was loaded: {path}: ACL 2025: the year 99999 is not a year"
    )
    assert Venue.objects.count() == 0


HOSTILE_XML = [
    ({"abstract": "a" * 20_001}, "the abstract is 20,001 characters long (at most 20,000)"),
    ({"title": "T" * 1_001}, "the title is 1,001 characters long (at most 1,000)"),
    ({"extra": "<doi>" + "d" * 201 + "</doi>"}, "the doi is 201 characters long (at most 200)"),
    ({"url": "x" * 501}, "the url is 526 characters long (at most 500)"),
    (
        {"authors": "<author><first>Ann</first><last>" + "L" * 300 + "</last></author>"},
        "an author's name is 304 characters long (at most 300)",
    ),
    (
        {"authors": '<author orcid="' + "0" * 41 + '"><first>A</first><last>B</last></author>'},
        "an author's ORCID is 41 characters long (at most 40)",
    ),
    ({"title": "", "abstract": None}, "a paper with neither title nor abstract"),
]


@pytest.mark.parametrize(
    ("fields", "reason"), HOSTILE_XML, ids=[reason for _, reason in HOSTILE_XML]
)
def test_hostile_anthology_papers_are_refused_with_their_line(write_dump, fields, reason):
    text = anthology_paper(**fields)
    path = write_dump("bad.xml", text)
    with pytest.raises(CommandError) as refused:
        run("load_papers", str(path))
    line = xml_paper_line(text)
    assert str(refused.value) == f"nothing was loaded: {path}, line {line}: {reason}"
    assert Paper.objects.count() == Venue.objects.count() == 0


def test_an_oversized_abstract_in_a_text_dump_is_refused(write_dump):
    path = write_dump("big.txt", "ACL 2025 Papers\n\nA short one.\n\n" + "word " * 5_000 + "\n")
    with pytest.raises(CommandError) as refused:
        run("load_papers", str(path))
    assert str(refused.value) == (
        f"nothing was loaded: {path}, line 5: the abstract is 24,999 characters long "
        "(at most 20,000)"
    )
    assert Paper.objects.count() == 0


def test_a_paper_at_every_limit_loads(write_dump):
    line = {
        "title": words(300)[:999] + "x",
        "abstract": words(5_000)[:19_999] + "x",
        "authors": [f"Author {n:03d} " + "y" * 49 for n in range(500)],
        "topics": [f"topic {n:02d} " + "z" * 191 for n in range(50)],
        "related_titles": [f"Related {n:02d} " + "r" * 989 for n in range(50)],
        "external_id": "e" * 100,
        "country": "c" * 100,
        "source": "s" * 300,
    }
    assert sum(len(name) for name in line["authors"]) == 30_000
    load_files([write_dump("limits.jsonl", jsonl(line))])
    paper = Paper.objects.get()
    assert (len(paper.title), len(paper.abstract), paper.authors.count(), paper.topics.count()) == (
        1_000,
        20_000,
        500,
        50,
    )


def test_the_limits_fit_the_columns():
    def column(model, name):
        return model._meta.get_field(name).max_length

    # The venue and the parent are venue names; welcome texts and abstracts are unbounded text.
    assert {name: column(Paper, name) for name in PAPER_LIMITS if name != "venue"} == {
        name: limit for name, limit in PAPER_LIMITS.items() if name != "venue"
    }
    assert PAPER_LIMITS["venue"] == VENUE_LIMITS["parent"] == column(Venue, "name")
    assert {name: column(Venue, name) for name in VENUE_LIMITS if name != "parent"} == {
        name: None if name == "welcome_text" else limit
        for name, limit in VENUE_LIMITS.items()
        if name != "parent"
    }
    assert column(Author, "name") == AUTHOR_NAME_LIMIT
    assert column(Author, "orcid") == ORCID_LIMIT
    assert column(Topic, "name") == TOPIC_NAME_LIMIT


def test_a_name_given_twice_in_one_paper_is_linked_once(write_dump):
    path = write_dump(
        "twice.jsonl",
        jsonl({"authors": ["Ann Lee", "ann  lee", "Bo Chen", "ANN LEE"], "topics": ["MT", "mt"]}),
    )
    load_files([path])
    paper = Paper.objects.get()
    names = list(
        Authorship.objects.filter(paper=paper).order_by("position").values_list("author__name")
    )
    assert names == [("Ann Lee",), ("Bo Chen",)]
    assert list(paper.topics.values_list("name", flat=True)) == ["MT"]


def test_a_paper_whose_first_author_has_a_blank_name_still_has_its_page(client):
    venue = make_venue("ACL 2025", 2025)
    blank = Author.objects.create(name="  ", slug="blank")
    shown = make_paper("An abstract about parsing.", title="Robust Parsing", venue=venue)
    Authorship.objects.create(paper=shown, author=blank, position=1)
    Authorship.objects.create(paper=shown, author=make_author("Ann Lee"), position=2)
    response = client.get(shown.get_absolute_url())
    assert response.status_code == 200
    entry = re.search(r"<code>(@inproceedings.*?)</code>", response.content.decode(), re.S)[1]
    assert entry.splitlines()[:3] == [
        f"@inproceedings{{lee2025robust-{shown.pk},",
        "    title = {Robust Parsing},",
        "    author = {Ann Lee},",
    ]


def test_an_export_that_would_not_load_back_is_refused(seeds):
    broken = Paper.objects.order_by("id").first()
    Authorship.objects.create(
        paper=broken, author=Author.objects.create(name="", slug="nameless"), position=99
    )
    with pytest.raises(CommandError) as refused:
        run("export_papers")
    assert str(refused.value) == (
        f"paper {broken.pk} would not load back (an author with an empty name); "
        "correct it in the admin and export again"
    )


@pytest.mark.parametrize(
    ("abstract", "kept"),
    [
        ("AbstractMachine translation (MT) helps.", "Machine translation (MT) helps."),
        ("Abstract: The shortest path is undefined.", "The shortest path is undefined."),
        # The words, not a label:
        (
            "Abstract Meaning Representation (AMR) is a graph.",
            "Abstract Meaning Representation (AMR) is a graph.",
        ),
        ("Abstractive summarization is hard.", "Abstractive summarization is hard."),
    ],
)
def test_an_abstract_loses_the_label_opening_it(write_dump, abstract, kept):
    xml = collection(
        "2021.tacl", volume("1", "Transactions of the ACL", paper(1, abstract=abstract))
    )
    load_files([write_dump("2021.tacl.xml", xml)])
    assert Paper.objects.get().abstract == kept
