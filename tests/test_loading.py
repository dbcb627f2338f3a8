"""load_papers and export_papers against real PostgreSQL."""

import hashlib
import json
import re
from datetime import date

import pytest
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from papers import curation, writing
from papers.loading import load_files
from papers.merged_keys import ABSTRACT
from papers.models import Author, DeletedKey, MergedKey, Paper, PaperTopic, Topic, Venue
from papers.records import DumpError
from papers.text import abstract_key, legacy_normalised
from tests.conftest import SEED_FILES
from tests.factories import ABSTRACT_A, ABSTRACT_B, lecture_page, list_page, make_topic
from tests.support import run, snapshot


def export() -> str:
    return run("export_papers")[0]


@pytest.mark.django_db
def test_seed_load_matches_the_figures(seeds):
    assert Paper.objects.count() == 79
    counts = {venue.name: venue.papers.count() for venue in Venue.objects.all()}
    assert counts == {"ACL 2025": 57, "EMNLP 2025": 11, "EMNLP 2024": 11}
    assert Paper.objects.exclude(title="").count() == 20
    assert Paper.objects.filter(venue__name="ACL 2025").exclude(title="").count() == 0
    with_topics = {
        paper.title: (sorted(t.name for t in paper.topics.all()), paper.country)
        for paper in Paper.objects.filter(topics__isnull=False)
        .distinct()
        .prefetch_related("topics")
    }
    assert with_topics == {
        "Layer-Aware Representation Filtering: Purifying Finetuning Data to Preserve LLM Safety Alignment": (
            ["llm fine-tuning", "llm safety"],
            "China",
        ),
        "Rethinking Token Reduction for State Space Models": (
            ["information retrieval and text mining", "language modeling", "question answering"],
            "United States",
        ),
    }
    assert set(PaperTopic.objects.values_list("source", flat=True)) == {"dump"}
    assert Paper.objects.exclude(country="").count() == 2
    for title in (
        "Fine-Tuning Lowers Safety and Disrupts Evaluation Consistency",
        "LaTIM: Measuring Latent Token-to-Token Interactions in Mamba Models",
    ):
        assert not Paper.objects.filter(title=title).exists()
        assert Paper.objects.filter(related_titles__contains=[title]).count() == 1
    assert not Paper.objects.filter(abstract__icontains="log in").exists()
    assert not Paper.objects.filter(abstract__icontains="welcome").exists()


@pytest.mark.django_db
def test_seed_venues_carry_what_the_pages_say(seeds):
    acl = Venue.objects.get(slug="acl-2025")
    assert (acl.name, acl.acronym, acl.year) == ("ACL 2025", "ACL", 2025)
    assert (
        acl.full_name == "The 63rd Annual Meeting of the Association for Computational Linguistics"
    )
    assert (acl.location, acl.start_date, acl.end_date) == (
        "Vienna, Austria",
        date(2025, 7, 27),
        date(2025, 8, 1),
    )
    emnlp = Venue.objects.get(slug="emnlp-2024")
    assert (emnlp.location, emnlp.start_date, emnlp.end_date) == (
        "Miami, Florida",
        date(2024, 11, 12),
        date(2024, 11, 16),
    )
    assert Venue.objects.get(slug="emnlp-2025").location == "Suzhou, China"


@pytest.mark.django_db
def test_provenance_and_derived_titles(seeds):
    paper = Paper.objects.get(title="Rethinking Token Reduction for State Space Models")
    assert (paper.source_file.endswith(SEED_FILES[4].name), paper.source_position) == (True, 3)
    untitled = Paper.objects.filter(title="").order_by("id").first()
    assert (
        untitled.display_title
        == "It is crucial for large language models (LLMs) to follow instructions that involve…"
    )
    assert untitled.title == ""


@pytest.mark.django_db
def test_second_load_changes_nothing(seeds):
    before, exported = snapshot(), export()
    out, _ = run("load_papers")
    assert "0 new, 0 updated, 79 unchanged" in out
    assert snapshot() == before
    assert export() == exported


@pytest.mark.django_db
def test_a_paper_met_again_is_merged_and_gains_what_the_new_source_adds(write_dump):
    load_files([write_dump("list.txt", list_page("NAACL 2025 Papers"))])
    assert Paper.objects.filter(title="").count() == 3
    load_files([write_dump("lecture.txt", lecture_page(furniture=False))])
    assert Paper.objects.count() == 4  # A and B merged, C+D is a new untitled paper
    merged = Paper.objects.get(abstract=ABSTRACT_A)
    assert merged.title == "Parallel Data for Yoruba Translation"
    assert sorted(merged.topics.values_list("name", flat=True)) == [
        "machine translation",
        "multilinguality",
    ]
    assert merged.country == "Germany"
    assert merged.source_file.endswith("list.txt")  # provenance stays with the first source
    assert Paper.objects.get(abstract=ABSTRACT_B).title == "Accent Adapters for Speech Recognition"


def placeholder_line(title: str, venue: str) -> str:
    record = {"title": title, "abstract": "No abstract available.", "venue": venue}
    return json.dumps(record) + "\n"


@pytest.mark.django_db
def test_papers_sharing_a_placeholder_abstract_stay_apart(write_dump):
    titles = ["Parsing Old Norse Sagas", "Translating Sanskrit Verse", "Summarising Tweets"]
    lines = [placeholder_line(title, "PlaceConf 2023") for title in titles]
    first = load_files([write_dump("placeholders.jsonl", "".join(lines))])
    assert (first.papers_read, first.new) == (3, 3)
    assert sorted(Paper.objects.values_list("title", flat=True)) == sorted(titles)
    # The first keeps the abstract's key; the others are known by their titles.
    assert sorted(Paper.objects.values_list("abstract_key", flat=True))[:2] == ["", ""]
    again = load_files([write_dump("placeholders.jsonl", "".join(lines))])
    assert (again.new, again.updated, again.unchanged) == (0, 0, 3)
    # A copy of one of them, alone in a later run, finds its own paper.
    later = load_files([write_dump("later.jsonl", lines[2])])
    assert (later.new, later.unchanged) == (0, 1)
    assert Paper.objects.count() == 3


@pytest.mark.django_db
def test_a_copy_whose_title_is_written_otherwise_still_merges(write_dump):
    lines = [
        {"title": r"\texttt{ModSCAN}: Measuring Bias", "abstract": ABSTRACT_A, "venue": "V 2024"},
        {"title": "ModSCAN: Measuring Bias", "abstract": ABSTRACT_A, "venue": "V 2024"},
    ]
    summary = load_files([write_dump("copies.jsonl", "".join(json.dumps(x) + "\n" for x in lines))])
    assert (summary.papers_read, summary.new) == (2, 1)


@pytest.mark.django_db
def test_curated_fields_survive_a_reload(write_dump):
    path = write_dump("lecture.txt", lecture_page(furniture=False))
    load_files([path])
    paper = Paper.objects.get(abstract=ABSTRACT_A)
    Paper.objects.filter(pk=paper.pk).update(
        title="", country="Nigeria", curated_fields=["title", "country"]
    )
    load_files([path])
    paper.refresh_from_db()
    assert (paper.title, paper.country) == ("", "Nigeria")


@pytest.mark.django_db
def test_a_curators_save_while_a_load_runs_is_not_overwritten(write_dump, monkeypatch):
    # The load read the paper, a curator saved it, the load wrote its stale copy over the save
    # (an outside tester: the admin had said "changed successfully").
    load_files([write_dump("v1.jsonl", identified_line("Old Title", "Twelve tasks.", pages="1-5"))])
    paper = Paper.objects.get()
    matched = writing.find_existing

    def curator_saves_meanwhile(*args):
        found = matched(*args)
        Paper.objects.filter(pk=paper.pk).update(
            title="Curated Title", doi="10.1/curated", curated_fields=["title", "doi"]
        )
        return found

    monkeypatch.setattr(writing, "find_existing", curator_saves_meanwhile)
    corrected = identified_line("New Title", "Twelve tasks.", pages="1-6", doi="10.1/source")
    summary = load_files([write_dump("v2.jsonl", corrected)])
    paper.refresh_from_db()
    assert (paper.title, paper.doi, paper.pages) == ("Curated Title", "10.1/curated", "1-6")
    assert summary.updated == 1


BAD_FILES = [
    ("empty.txt", b"", "the file is empty"),
    ("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a binary file"),
    (
        "latin1.txt",
        "ACL 2025 Papers\n\nCaf\xe9 au lait.\n".encode("latin-1"),
        "line 3: not UTF-8 text (byte 0xe9)",
    ),
    ("noheader.txt", b"Papers\n\nSome abstract text here.\n", "names no venue"),
    ("nopaper.txt", b"ACL 2025 Papers\n", "no paper found"),
    ("bad.jsonl", b'{"title": "x", "venue": "ACL 2025"}\n{oops\n', "line 2: not valid JSON"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, content, message", BAD_FILES, ids=[name for name, _, _ in BAD_FILES]
)
def test_a_bad_file_stops_the_run_and_loses_nothing(seeds, write_dump, name, content, message):
    good = write_dump("good.txt", list_page("EACL 2024 Papers"))
    bad = write_dump(name, content)
    before, exported = snapshot(), export()
    with pytest.raises(CommandError) as raised:
        run("load_papers", str(good), str(bad))
    assert message in str(raised.value)
    assert name in str(raised.value)
    assert str(raised.value).startswith("nothing was loaded")
    assert snapshot() == before
    assert export() == exported
    assert not Venue.objects.filter(name="EACL 2024").exists()


@pytest.mark.django_db
def test_a_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="no such file or folder"):
        run("load_papers", str(tmp_path / "nowhere.txt"))


@pytest.mark.django_db
def test_a_folder_with_nothing_to_load_is_a_clear_error(tmp_path):
    (tmp_path / "notes.md").write_text("# notes", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("ACL 2024 Papers", encoding="utf-8")
    with pytest.raises(CommandError) as raised:
        run("load_papers", str(tmp_path))
    assert str(raised.value) == (
        f"nothing was loaded: {tmp_path}: no file to load in this folder (.jsonl, .txt, .xml)"
    )


@pytest.mark.django_db
def test_a_file_named_twice_is_read_once(write_dump):
    # Named twice, or with its folder, it was counted twice: "2 files, 4 papers read".
    path = write_dump("list.txt", list_page("ACL 2025 Papers", [ABSTRACT_A, ABSTRACT_B]))
    summary = load_files([path, path.parent, path])
    assert (summary.files, summary.papers_read, summary.new) == (1, 2, 2)


@pytest.mark.django_db(transaction=True)
def test_a_load_into_a_database_behind_the_code_asks_for_migrate_first():
    executor = MigrationExecutor(connection)
    (latest,) = executor.loader.graph.leaf_nodes("papers")
    (previous,) = executor.loader.graph.node_map[latest].parents
    executor.migrate([previous.key])
    try:
        with pytest.raises(CommandError) as raised:
            run("load_papers")
        assert str(raised.value) == (
            "the database is 1 migration behind this code: run `manage.py migrate` first "
            "(nothing was loaded)"
        )
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert Paper.objects.count() == 0


@pytest.mark.django_db
def test_an_interrupted_load_says_so_without_a_traceback(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("papers.management.commands.load_papers.load_files", interrupted)
    with pytest.raises(CommandError) as raised:
        run("load_papers")
    assert str(raised.value) == "interrupted: a load stopped before its commit writes nothing"


@pytest.mark.django_db
def test_dry_run_parses_and_writes_nothing():
    out, _ = run("load_papers", "--dry-run")
    *files, summary = out.splitlines()
    assert files == [
        f"fixtures/{path.name}: {count} papers"
        for path, count in zip(SEED_FILES, [19, 19, 19, 11, 11], strict=True)
    ]
    # It says what it read, not counts of new and known papers it cannot know (it said
    # "0 new, 0 updated, 0 unchanged" of papers the database had never seen).
    assert summary == (
        "Dry run, nothing written: 5 files, 79 papers read and checked (not matched against the "
        "database: only a load tells new from known); 0 warnings"
    )
    assert Paper.objects.count() == 0


@pytest.mark.django_db
def test_a_list_page_of_titles_and_authors_loads_them_under_its_volume(tmp_path):
    page = tmp_path / "short.txt"
    page.write_text(
        list_page(
            "ACL 2024 Short Papers",
            [
                "Yoruba Translation\nAda Lovelace and Alan Turing",
                ABSTRACT_A,
                "Accent Adapters",
                ABSTRACT_B,
            ],
        ),
        encoding="utf-8",
    )
    run("load_papers", str(page))
    papers = Paper.objects.order_by("pk")
    assert [(p.title, p.venue.name, p.venue.parent.name) for p in papers] == [
        ("Yoruba Translation", "ACL 2024 (Short Papers)", "ACL 2024"),
        ("Accent Adapters", "ACL 2024 (Short Papers)", "ACL 2024"),
    ]
    assert [a.author.name for a in papers[0].authorships.order_by("position")] == [
        "Ada Lovelace",
        "Alan Turing",
    ]
    assert Venue.objects.get(name="ACL 2024").year == 2024


@pytest.mark.django_db
def test_verbosity_2_lists_each_block_decision():
    out, _ = run("load_papers", str(SEED_FILES[3]), "--verbosity", "2")
    assert "line     1  country       China" in out
    assert "line    13  markup        ### Welcome to The 63rd Annual Meeting" in out
    assert "line    86  related title Fine-Tuning Lowers Safety" in out
    assert "1 files, 11 papers read: 11 new" in out


@pytest.mark.django_db
def test_export_lines_have_the_documented_fields(seeds):
    lines = [json.loads(line) for line in export().splitlines()]
    assert len(lines) == 79
    assert [line["id"] for line in lines] == sorted(line["id"] for line in lines)
    assert list(lines[0]) == [
        "id",
        "external_id",
        "title",
        "display_title",
        "abstract",
        "venue",
        "year",
        "topics",
        "country",
        "authors",
        "source",
        "related_titles",
        "presentation_format",
        "pages",
        "doi",
        "url",
        "bibkey",
        "author_details",
        "topic_sources",
        "venue_details",
    ]
    page = next(line for line in lines if line["country"] == "United States")
    assert page["title"] == "Rethinking Token Reduction for State Space Models"
    assert (page["venue"], page["year"], page["external_id"], page["authors"]) == (
        "EMNLP 2024",
        2024,
        None,
        [],
    )
    assert page["topics"] == [
        "information retrieval and text mining",
        "language modeling",
        "question answering",
    ]
    assert page["related_titles"] == [
        "LaTIM: Measuring Latent Token-to-Token Interactions in Mamba Models"
    ]
    assert lines[0]["title"] is None
    # Where each topic came from: a rule's is derived again by a load, not loaded.
    assert page["topic_sources"] == {
        "information retrieval and text mining": "dump",
        "language modeling": "dump",
        "question answering": "dump",
    }
    assert page["venue_details"] == {
        "acronym": "EMNLP",
        "full_name": "",
        "location": "Miami, Florida",
        "start_date": "2024-11-12",
        "end_date": "2024-11-16",
        "month": "",
        "booktitle": "",
        "publisher": "",
        "editors": "",
        "external_id": "",
        "parent": "",
    }
    assert (page["author_details"], page["pages"], page["doi"]) == ([], "", "")


@pytest.mark.django_db
def test_export_round_trip(seeds, tmp_path):
    exported = tmp_path / "papers.jsonl"
    run("export_papers", "-o", str(exported))
    first = exported.read_text(encoding="utf-8")
    Paper.objects.all().delete()
    Topic.objects.all().delete()
    out, _ = run("load_papers", str(exported))
    assert "79 new" in out
    assert "; 0 warnings" in out  # every field an export writes is one a load reads

    def without_ids(text):
        return [
            {k: v for k, v in json.loads(line).items() if k != "id"} for line in text.splitlines()
        ]

    assert without_ids(export()) == without_ids(first)


def collection_facts() -> dict:
    """What a load of the Anthology builds beyond the export's documented fields."""
    papers = Paper.objects.all()
    links = PaperTopic.objects.values_list("source").annotate(n=Count("id"))
    return {
        "papers": papers.count(),
        "citation fields": [
            papers.exclude(**{name: ""}).count() for name in ("pages", "doi", "url", "bibkey")
        ],
        "people": Author.objects.exclude(person_id="").count(),
        "family names": Author.objects.exclude(family_name="").count(),
        "authors": Author.objects.count(),
        "volumes in a conference": Venue.objects.filter(parent__isnull=False).count(),
        "venue places": Venue.objects.exclude(location="").count(),
        "links by source": sorted(links),
    }


@pytest.mark.anthology
@pytest.mark.django_db
def test_an_export_of_anthology_papers_loads_back_as_they_were(anthology_files, tmp_path):
    two = [path for path in anthology_files if path.name in {"2020.aacl.xml", "2024.tacl.xml"}]
    load_files(two)
    before = collection_facts()
    exported = tmp_path / "papers.jsonl"
    run("export_papers", "-o", str(exported))
    Paper.objects.all().delete()
    Author.objects.all().delete()
    Venue.objects.all().delete()
    load_files([exported])
    assert collection_facts() == before
    assert min(before["people"], before["volumes in a conference"], before["venue places"]) > 0


@pytest.mark.django_db
def test_loading_is_batched_not_a_query_per_paper(write_dump):
    abstracts = [
        f"Paper number {n} studies topic {n % 7} with method {n * 13 % 101}." for n in range(2000)
    ]
    path = write_dump("big.txt", list_page("ACL 2023 Papers", abstracts))
    with CaptureQueriesContext(connection) as queries:
        summary = load_files([path])
    assert summary.new == 2000
    # A fixed number of statements whatever the number of papers: the lock, venues, topics,
    # papers (one COPY; the venues' volume IDs and the deleted papers' keys looked up once
    # each), links, names, topic rules and the topic model, word statistics and the
    # similarity refit, the facet counts' refresh (80 today); a query per paper would be
    # thousands.
    assert len(queries) <= 80


TUTORIALS = (
    '<?xml version="1.0" encoding="UTF-8"?><collection id="2025.naacl"><volume id="tutorial">'
    "<meta><booktitle>Proceedings of NAACL 2025: Tutorial Abstracts</booktitle>"
    "<year>2025</year><venue>naacl</venue></meta>{papers}</volume></collection>"
)


def tutorials(*numbers: int) -> str:
    return TUTORIALS.format(
        papers="".join(
            f'<paper id="{n}"><title>Tutorial {n}</title><abstract>We teach topic {n}.</abstract>'
            "</paper>"
            for n in numbers
        )
    )


def workshop_lines(*numbers: int) -> str:
    return "".join(
        json.dumps({"title": f"Paper {n}", "abstract": f"We study task {n}.", "venue": "WNLP 2024"})
        + "\n"
        for n in numbers
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "file_name, source, new_name, remembered",
    [
        # The Anthology's volume is known by its volume ID alone.
        ("2025.naacl.xml", tutorials, "NAACL 2025 Tutorial Abstracts", False),
        # A page's dump gives no volume ID: the venue is known by the name it was renamed from.
        ("wnlp.jsonl", workshop_lines, "Workshop on NLP 2024", True),
    ],
)
def test_a_renamed_venue_is_itself_on_the_next_load(
    write_dump, file_name, source, new_name, remembered
):
    # Reloading a source after a curator's rename made an empty namesake of the venue, and
    # the venue's new paper went there.
    load_files([write_dump(file_name, source(1, 2))])
    venue = Paper.objects.earliest("pk").venue
    old_name, venue.name = venue.name, new_name
    curation.record_venue_edit(venue, ["name"], old_name if remembered else "")
    venue.save()
    load_files([write_dump(file_name, source(1, 2, 3))])
    assert not Venue.objects.filter(name=old_name).exists()
    assert Venue.objects.get(pk=venue.pk).former_names == ([old_name] if remembered else [])
    assert set(Paper.objects.values_list("venue", flat=True)) == {venue.pk}
    assert Paper.objects.count() == 3


def test_a_venue_renamed_back_keeps_no_former_name_of_its_own():
    venue = Venue(name="WNLP 2024", former_names=["WNLP 2024", "WNLP"])
    curation.record_venue_edit(venue, ["name"], "Workshop on NLP 2024")
    assert venue.former_names == ["WNLP", "Workshop on NLP 2024"]


@pytest.mark.django_db
def test_a_venue_named_by_its_slug_is_that_venue(write_dump):
    # "venue": "acl-2024" in a hand-written JSON line made a second venue of that name.
    load_files([write_dump("named.jsonl", identified_line("Named", "By name."))])
    venue = Venue.objects.get()
    line = {"title": "Slugged", "abstract": "By slug.", "venue": venue.slug}
    summary = load_files([write_dump("slugged.jsonl", json.dumps(line) + "\n")])
    assert (summary.new, summary.venues_new) == (1, 0)
    assert list(Venue.objects.values_list("name", "slug")) == [("ACL 2024", "acl-2024")]
    assert Paper.objects.get(title="Slugged").venue == venue


@pytest.mark.django_db
def test_a_venue_written_as_a_slug_or_in_small_letters_is_the_venue_so_named(write_dump):
    # Each spelling made a venue of its own, "acl-2023" taking the address of the Anthology's
    # ACL 2023 (an outside curator); a year written as text was dropped.
    lines = [
        {"title": "One", "abstract": "One.", "venue": "acl-2023", "year": "2023"},
        {"title": "Two", "abstract": "Two.", "venue": "ACL 2023", "year": 2023},
        {"title": "Three", "abstract": "Three.", "venue": "acl 2023"},
    ]
    summary = load_files([write_dump("acl.jsonl", "".join(json.dumps(x) + "\n" for x in lines))])
    assert (summary.new, summary.venues_new, summary.warnings) == (3, 1, [])
    assert list(Venue.objects.values_list("name", "slug", "year")) == [
        ("ACL 2023", "acl-2023", 2023)
    ]
    bad = {"title": "Four", "abstract": "Four.", "venue": "ACL 2023", "year": "next year"}
    with pytest.raises(DumpError, match="line 1: field 'year' must be a year"):
        load_files([write_dump("bad.jsonl", json.dumps(bad) + "\n")])


@pytest.mark.django_db
def test_a_json_lines_name_written_family_first_is_that_person(write_dump):
    # "van der Berg, Jan" was an author of that name beside Jan van der Berg (an outside
    # curator); a generation after the comma is no given name.
    line = {"title": "T", "abstract": "A.", "venue": "ACL 2023"}
    line["authors"] = ["van der Berg, Jan", "Prospero C. Naval, Jr.", "Ada Lovelace"]
    load_files([write_dump("names.jsonl", json.dumps(line) + "\n")])
    assert list(Author.objects.order_by("name").values_list("name", "family_name")) == [
        ("Ada Lovelace", ""),
        ("Jan van der Berg", "van der Berg"),
        ("Prospero C. Naval, Jr.", ""),
    ]


@pytest.mark.django_db
def test_a_topic_written_as_its_slug_is_that_topic(write_dump):
    # "machine-translation" made a second topic beside Machine Translation, and again after a
    # curator merged it away (an outside curator).
    topic = make_topic("Machine Translation")
    line = {"title": "T", "abstract": "A.", "venue": "ACL 2023", "topics": ["machine-translation"]}
    load_files([write_dump("t.jsonl", json.dumps(line) + "\n")])
    assert list(Topic.objects.values_list("name", flat=True)) == ["Machine Translation"]
    assert list(Paper.objects.get().topics.all()) == [topic]


def identified_line(title: str, abstract: str, **fields) -> str:
    record = {"title": title, "abstract": abstract, "venue": "ACL 2024", "external_id": "x-1"}
    return json.dumps(record | fields) + "\n"


@pytest.mark.django_db
def test_a_corrected_source_updates_its_paper_but_not_what_a_curator_changed(write_dump):
    load_files([write_dump("v1.jsonl", identified_line("Old Title", "Twelve tasks.", pages="1-5"))])
    paper = Paper.objects.get()
    paper.country = "Kenya"
    paper.curated_fields = ["country"]
    paper.save()
    corrected = identified_line("New  Title", "Fourteen tasks.", pages="1-6", country="Peru")
    summary = load_files([write_dump("v2.jsonl", corrected)])
    # The summary said "1 unchanged" and the old text stayed (an outside tester).
    assert (summary.new, summary.updated, summary.unchanged) == (0, 1, 0)
    paper.refresh_from_db()
    assert (paper.title, paper.abstract, paper.pages) == ("New Title", "Fourteen tasks.", "1-6")
    assert paper.abstract_key == abstract_key("Fourteen tasks.")
    assert paper.country == "Kenya"  # a curator's
    assert list(Paper.objects.matching("fourteen").values_list("pk", flat=True)) == [paper.pk]
    again = load_files([write_dump("v2.jsonl", corrected)])
    assert (again.updated, again.unchanged) == (0, 1)
    # A title a curator changed stays, whatever the source says (the abstract is corrected).
    Paper.objects.filter(pk=paper.pk).update(title="Curated Title", curated_fields=["title"])
    load_files([write_dump("v3.jsonl", identified_line("Source Title", "Fifteen tasks."))])
    paper.refresh_from_db()
    assert (paper.title, paper.abstract) == ("Curated Title", "Fifteen tasks.")


@pytest.mark.django_db
def test_a_corrected_source_corrects_the_author_list_too(write_dump):
    # A page listed 2 of 10 authors and the Anthology XML never completed them; a corrected
    # JSON line's added author was dropped without a word (an outside curator).
    first = identified_line("A Title", "Twelve tasks.", authors=["Ana Núñez", "Bo Chen", "Cy Ma"])
    load_files([write_dump("v1.jsonl", first)])
    # A curator's merge keeps its author, on no paper now (its old address redirects to it).
    Author.objects.filter(name="Cy Ma").update(variants=["C. Ma"])
    fuller = identified_line(
        "A Title",
        "Twelve tasks.",
        # A name with a comma, and one of initials alone, as the Anthology folder writes some.
        authors=["Ana Núñez", "Paul Martin", "Hinrich Schuetze", "Laks Lakshmanan, V.S.", "V. W."],
    )
    summary = load_files([write_dump("v2.jsonl", fuller)])
    paper = Paper.objects.get()
    assert (summary.updated, paper.author_names) == (
        1,
        "Ana Núñez, Paul Martin, Hinrich Schuetze, Laks Lakshmanan, V.S., V. W.",
    )
    # Bo Chen, on no paper now, has no page left; the same list again changes nothing, even
    # after a curator's respelling.
    assert sorted(Author.objects.values_list("name", flat=True)) == [
        "Ana Núñez",
        "Cy Ma",
        "Hinrich Schuetze",
        "Laks Lakshmanan, V.S.",
        "Paul Martin",
        "V. W.",
    ]
    for author, name in [
        ("Hinrich Schuetze", "Hinrich Schütze"),
        ("Paul Martin", "Paul Martin III"),
    ]:
        respelled = Author.objects.get(name=author)
        respelled.name = name
        respelled.save()
        curation.record_author_edit(respelled, ["name"], author)
    again = load_files([write_dump("v2.jsonl", fuller)])
    assert (again.updated, again.unchanged) == (0, 1)
    # A page's copy without the ID does not correct it, nor a list a curator set.
    page = {
        "title": "A Title",
        "abstract": "Twelve tasks.",
        "venue": "ACL 2024",
        "authors": ["X Y"],
    }
    load_files([write_dump("page.jsonl", json.dumps(page) + "\n")])
    Paper.objects.update(curated_fields=["authors"])
    load_files([write_dump("v1.jsonl", first)])
    assert list(Paper.objects.values_list("author_names", flat=True)) == [
        "Ana Núñez, Paul Martin III, Hinrich Schütze, Laks Lakshmanan, V.S., V. W."
    ]


@pytest.mark.django_db
def test_a_corrected_family_name_corrects_the_author_list(write_dump):
    # "Rosa Delgado" corrected to "Rosa Martínez" in the paper's own XML was kept: the two
    # shared a word (an outside curator).
    load_files([write_dump("v1.jsonl", identified_line("T", "Tasks.", authors=["Rosa Delgado"]))])
    corrected = identified_line("T", "Tasks.", authors=["Rosa Martínez"])
    summary = load_files([write_dump("v2.jsonl", corrected)])
    assert (summary.updated, Paper.objects.get().author_names) == (1, "Rosa Martínez")
    assert list(Author.objects.values_list("name", flat=True)) == ["Rosa Martínez"]


@pytest.mark.django_db
def test_a_page_s_copy_merged_with_the_record_of_the_id_does_not_correct(write_dump):
    # The page's copy first in the run kept its text and took the ID from the Anthology's
    # record: it replaced the Anthology's text, which the next load put back (a reviewer).
    load_files([write_dump("v1.jsonl", identified_line("A Title", "The source's abstract."))])
    page = {"title": "A Title", "abstract": "A page's shorter abstract.", "venue": "ACL 2024"}
    lines = json.dumps(page) + "\n" + identified_line("A Title", "The source's abstract.")
    summary = load_files([write_dump("both.jsonl", lines)])
    assert (summary.updated, Paper.objects.get().abstract) == (0, "The source's abstract.")


@pytest.mark.django_db
def test_an_export_fills_but_does_not_correct(write_dump):
    # An old export undid the Anthology's later corrections (a reviewer).
    load_files([write_dump("v1.jsonl", identified_line("A Title", "The corrected abstract."))])
    exported = identified_line("A Title", "The old abstract.", id=7, source="2024.acl.xml")
    summary = load_files([write_dump("export.jsonl", exported)])
    assert (summary.updated, Paper.objects.get().abstract) == (0, "The corrected abstract.")


@pytest.mark.django_db
def test_a_corrected_pages_venue_and_authors_are_told_kept(write_dump):
    # A page loaded again with its header's venue or an author's name corrected: "1
    # unchanged", nothing else, and an empty venue made (an outside curator).
    page = list_page(
        "EMNLP 2024 Papers", [f"Robust Slot Filling\nPriya Raman and Diego Alvarez\n{ABSTRACT_A}"]
    )
    load_files([write_dump("v1.txt", page)])
    corrected = page.replace("EMNLP 2024", "EMNLP 2023").replace("Diego Alvarez", "Mei Tanaka")
    summary = load_files([write_dump("v2.txt", corrected)])
    assert (summary.new, summary.updated, summary.unchanged, summary.venues_new) == (0, 0, 1, 0)
    assert list(Venue.objects.values_list("name", flat=True)) == ["EMNLP 2024"]
    assert [warning.rsplit("/", 1)[-1].split(": ", 2)[::2] for warning in summary.warnings] == [
        ["v2.txt", "line 5 “Robust Slot Filling” (venue, authors)"]
    ]
    # The same names respelled or shortened are the same people: nothing to tell.
    respelled = page.replace("Diego Alvarez", "Diego Álvarez").replace("Priya Raman", "P. Raman")
    assert load_files([write_dump("v3.txt", respelled)]).warnings == []
    # Another person of the same first name is no respelling (it was taken for one).
    other = page.replace("Diego Alvarez", "Diego Smith")
    assert load_files([write_dump("v4.txt", other)]).warnings[0].endswith("(authors)")


@pytest.mark.django_db
@pytest.mark.parametrize("renamed", ["Xiaoming Wang", "Priya Raman-Iyer"])
def test_a_page_naming_an_author_a_curator_renamed_tells_nothing(write_dump, renamed):
    # The curator renamed "王小明" (or "Priya Raman") in the admin, the old name kept among its
    # variants; the page loaded again was told its paper's authors differ, "correct the paper
    # in the admin" (a curator's trial: a false alarm at every load of the page).
    old = "王小明" if renamed == "Xiaoming Wang" else "Priya Raman"
    page = list_page(
        "EMNLP 2024 Papers", [f"Robust Slot Filling\n{old}, Diego Alvarez\n{ABSTRACT_A}"]
    )
    path = write_dump("page.txt", page)
    load_files([path])
    author = Author.objects.get(name=old)
    author.name = renamed
    author.save()
    curation.record_author_edit(author, ["name"], old, author.slug)
    summary = load_files([path])
    assert (summary.unchanged, summary.warnings) == (1, [])
    assert Paper.objects.get().author_names == f"{renamed}, Diego Alvarez"
    # Another person in the renamed author's place is still told.
    other = load_files([write_dump("other.txt", page.replace(old, "Mei Tanaka"))])
    assert other.warnings[0].endswith("(authors)")


@pytest.mark.django_db
def test_a_page_saved_again_with_another_title_is_told_the_paper_it_copies(write_dump):
    # Its first load had read a wrong title (the authors' names); the corrected page made a
    # second paper of the same abstract, silently (an outside curator).
    page = list_page("EMNLP 2024 Papers", [f"Mimicked Speech\nChloe Walker\n{ABSTRACT_A}"])
    load_files([write_dump("v1.txt", page)])
    corrected = page.replace("Mimicked Speech", "Lyrebird Listening")
    summary = load_files([write_dump("v2.txt", corrected)])
    assert (summary.new, Paper.objects.count()) == (1, 2)
    assert [warning.rsplit("/", 1)[-1] for warning in summary.warnings] == [
        "v2.txt: 1 record is loaded as new, though a paper of the collection has the same "
        "abstract under another title (a title corrected since, or a copy: merge them in the "
        "admin if they are one paper): line 5 “Lyrebird Listening” (the abstract of “Mimicked "
        "Speech”)"
    ]
    # Loaded again, it is that new paper: nothing to tell.
    assert load_files([write_dump("v2.txt", corrected)]).warnings == []


@pytest.mark.django_db
def test_a_reloaded_name_with_a_comma_is_no_other_person(write_dump):
    # The stored names are split at their commas: the record's must be split alike.
    line = {"title": "T", "abstract": "A.", "venue": "ACL 2020"}
    line["authors"] = ["Ana Lee", "Prospero C. Naval, Jr."]
    load_files([write_dump("v1.jsonl", json.dumps(line) + "\n")])
    assert Paper.objects.get().author_names == "Ana Lee, Prospero C. Naval, Jr."
    assert load_files([write_dump("v2.jsonl", json.dumps(line) + "\n")]).warnings == []


@pytest.mark.django_db
def test_an_edited_exports_warning_names_the_file_loaded(write_dump):
    # It named the file the paper first came from, which the export's line gives as its source.
    load_files([write_dump("page.txt", lecture_page(furniture=False))])
    line = json.loads(run("export_papers")[0].splitlines()[0])
    line["title"] += " (edited copy)"
    summary = load_files([write_dump("edited.jsonl", json.dumps(line) + "\n")])
    assert [warning.rsplit("/", 1)[-1][:39] for warning in summary.warnings] == [
        "edited.jsonl: 1 paper differs here from"
    ]


@pytest.mark.django_db
def test_a_copy_known_by_its_title_fills_but_does_not_correct(write_dump):
    load_files([write_dump("v1.jsonl", identified_line("A Title", "The source's abstract."))])
    # A lecture page's copy, no external ID, matched by its title at the venue.
    copy = {"title": "A Title", "abstract": "A page's shorter abstract.", "venue": "ACL 2024"}
    summary = load_files([write_dump("page.jsonl", json.dumps(copy) + "\n")])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 0, 1)
    assert Paper.objects.get().abstract == "The source's abstract."
    # Its own source's text is kept as it should be: nothing to tell (make run's reload of the
    # seed pages told three such papers at every start).
    assert summary.warnings == []


@pytest.mark.django_db
def test_a_corrected_page_without_ids_is_told_its_papers_kept_their_text(write_dump):
    # A curator fixed a typo in a saved page and loaded it again: "1 unchanged", nothing else.
    page = lecture_page(furniture=False)
    load_files([write_dump("lecture.txt", page)])
    corrected = page.replace("4.2 BLEU", "4.3 BLEU").replace("Accent Adapters", "Accent adapters")
    path = write_dump("lecture.txt", corrected)
    summary = load_files([path])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 0, 3)
    assert [warning.rsplit("/", 1)[-1] for warning in summary.warnings] == [
        "lecture.txt: 1 paper differs here from the collection, which keeps its own (a record "
        "that is not the paper's own source, without its external ID or an export, only fills "
        "empty fields; correct the paper in the admin): line 3 “Parallel Data for Yoruba "
        "Translation” (abstract)"
    ]
    assert "4.2 BLEU" in Paper.objects.get(title="Parallel Data for Yoruba Translation").abstract
    # A curator's text is kept on purpose: nothing to tell.
    Paper.objects.filter(title__startswith="Parallel").update(curated_fields=["abstract"])
    assert load_files([path]).warnings == []


@pytest.mark.django_db
def test_a_topic_a_curator_deleted_stays_deleted(write_dump):
    # A dump naming it created it again, and `make run` restored a deleted vocabulary topic at
    # every start (an outside curator).
    path = write_dump("lecture.txt", lecture_page(furniture=False))
    load_files([path])
    curation.delete_topics(Topic.objects.filter(name="multilinguality"))
    summary = load_files([path])
    assert summary.warnings == [
        "topics a curator deleted, not linked to this load's papers: “multilinguality” (to "
        "bring one back, delete its row under “Deleted topics” in the admin)"
    ]
    assert list(Topic.objects.values_list("name", flat=True)) == ["machine translation"]
    vocabulary = write_dump(
        "topics.json",
        json.dumps([{"model": "papers.topic", "fields": {"name": name}} for name in VOCABULARY]),
    )
    out, _ = run("load_topics", str(vocabulary))
    assert out == "1 new topics, 1 already present, 1 deleted by a curator and not restored\n"
    assert sorted(Topic.objects.values_list("name", flat=True)) == [
        "Summarization",
        "machine translation",
    ]
    # A curator who adds a topic of that name again lets loads link it.
    topic = Topic.objects.create(name="Multilinguality")
    curation.record_topic_edit(topic)
    assert load_files([path]).warnings == []
    paper = Paper.objects.get(title="Parallel Data for Yoruba Translation")
    assert sorted(paper.topics.values_list("name", flat=True)) == [
        "Multilinguality",
        "machine translation",
    ]


VOCABULARY = ["Machine Translation", "Multilinguality", "Summarization"]


@pytest.mark.django_db
def test_copies_of_papers_under_another_venue_are_counted_and_told(write_dump):
    # "6 papers read: 3 new, 0 updated, 0 unchanged", the copies under ACL 2024 merged into the
    # EMNLP 2024 papers without a word (an outside curator).
    emnlp = write_dump("emnlp.txt", list_page("EMNLP 2024 Papers"))
    acl = write_dump("acl.txt", list_page("ACL 2024 Papers"))
    summary = load_files([emnlp, acl])
    assert summary.describe().startswith(
        "2 files, 6 papers read: 3 new, 0 updated, 0 unchanged, 3 copies merged; "
    )
    assert [re.sub(r"\S*/", "", warning) for warning in summary.warnings] == [
        f"acl.txt, line {line}: the paper of emnlp.txt, line {line}, under ACL 2024 here; kept "
        "under EMNLP 2024"
        for line in (3, 5, 7)
    ]
    assert set(Paper.objects.values_list("venue__name", flat=True)) == {"EMNLP 2024"}


@pytest.mark.django_db
def test_papers_of_one_title_by_other_authors_are_two_papers(write_dump):
    # WMT's "System Description" by Kenji Tanaka and by Ana Núñez: the second was dropped as a
    # copy of the first, in one file and over two loads (an outside curator).
    def record(abstract, authors):
        line = {"title": "System Description", "abstract": abstract, "venue": "WMT 2024"}
        return json.dumps(line | {"authors": authors}) + "\n"

    tanaka = record("We describe our English-German ensemble.", ["Kenji Tanaka"])
    nunez = record("Our Czech-Ukrainian model is distilled.", ["Ana Núñez"])
    load_files([write_dump("both.jsonl", tanaka + nunez)])
    assert sorted(Paper.objects.values_list("author_names", flat=True)) == [
        "Ana Núñez",
        "Kenji Tanaka",
    ]
    Paper.objects.filter(author_names="Ana Núñez").delete()
    later = load_files([write_dump("nunez.jsonl", nunez.replace("distilled", "pruned"))])
    assert (later.new, later.unchanged) == (1, 0)
    # A copy giving a shorter form of the names, or none, is the same paper.
    copy = record("A page's shorter abstract.", ["K. Tanaka"]) + record("Another one.", [])
    copy += record("A third copy.", ["Tanaka, Kenji, Jr."])
    again = load_files([write_dump("copies.jsonl", copy)])
    assert (again.new, Paper.objects.count()) == (0, 2)


@pytest.mark.django_db
def test_fields_a_load_does_not_read_are_named_in_a_warning(write_dump):
    line = {"title": "Typos", "abstarct": "Twelve tasks.", "autors": ["Ada"], "venue": "ACL 2024"}
    fine = {"title": "Fine", "abstract": "Fourteen tasks.", "venue": "ACL 2024", "mood": "ok"}
    path = write_dump("typos.jsonl", json.dumps(line) + "\n" + json.dumps(fine) + "\n")
    summary = load_files([path])
    assert [warning.rsplit("/", 1)[-1] for warning in summary.warnings] == [
        "typos.jsonl: fields a load does not read, ignored: 'abstarct' (line 1; did you mean "
        "'abstract'?), 'autors' (line 1; did you mean 'authors'?), 'mood' (line 2)"
    ]


@pytest.mark.django_db
def test_a_year_other_than_the_venues_is_told(write_dump):
    # "year": 2019 under "ACL 2024" loaded as 2024 without a word (an outside curator).
    lines = [
        {"title": "Mismatched", "abstract": "One.", "venue": "ACL 2024", "year": 2019},
        {"title": "Matched", "abstract": "Two.", "venue": "ACL 2024", "year": 2024},
        {"title": "Journal", "abstract": "Three.", "venue": "TACL", "year": 2021},
    ]
    path = write_dump("years.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    summary = load_files([path])
    assert [warning.rsplit("/", 1)[-1] for warning in summary.warnings] == [
        "years.jsonl: a year other than its venue's, ignored: line 1 (2019 for ACL 2024)"
    ]
    assert Venue.objects.get(name="ACL 2024").year == 2024


@pytest.mark.django_db
def test_a_copy_differing_in_quotes_and_dashes_is_the_same_paper(write_dump):
    # A page saved with straight apostrophes, or "--" for "—", loaded its papers again.
    curly = {"abstract": "We don’t use “quotes” — really.", "venue": "ACL 2024"}
    straight = {"abstract": 'We don\'t use "quotes" -- really.', "venue": "ACL 2024"}
    # Their titles differ too (the same apostrophes), so neither key matched.
    curly["title"], straight["title"] = "We Don’t Quote Much", "We Don't Quote Much"
    load_files([write_dump("curly.jsonl", json.dumps(curly) + "\n")])
    again = load_files([write_dump("plain.jsonl", json.dumps(straight) + "\n")])
    assert (again.new, again.unchanged) == (0, 1)
    assert Paper.objects.count() == 1


@pytest.mark.django_db
def test_a_merge_kept_before_quotes_were_folded_still_finds_its_survivor(write_dump):
    # A MergedKey written before migration 0034 holds the abstract's key of the old form.
    load_files([write_dump("a.jsonl", identified_line("Survivor", "The survivor's text."))])
    survivor = Paper.objects.get()
    merged_away = "We don’t use “quotes” — really."
    old_key = hashlib.sha256(legacy_normalised(merged_away).encode("utf-8")).hexdigest()
    MergedKey.objects.create(paper=survivor, kind=ABSTRACT, key=old_key)
    record = {"title": "Copy", "abstract": merged_away, "venue": "ACL 2024"}
    summary = load_files([write_dump("copy.jsonl", json.dumps(record) + "\n")])
    assert (summary.new, Paper.objects.count()) == (0, 1)


@pytest.mark.django_db
def test_a_paper_deleted_before_0038_stays_deleted_though_its_abstract_hides_a_character(
    write_dump,
):
    # Its kept key was made with the soft hyphen in: only the pre-0034 form was looked up too,
    # and the deleted paper came back (a reviewer).
    hidden = ABSTRACT_A.replace("trans", "trans\u00ad", 1)
    old_key = hashlib.sha256(legacy_normalised(hidden).encode("utf-8")).hexdigest()
    DeletedKey.objects.create(kind=ABSTRACT, key=old_key, title="")
    summary = load_files([write_dump("a.txt", list_page("ACL 2025 Papers", [hidden, ABSTRACT_B]))])
    assert (summary.new, summary.left_out) == (1, 1)


@pytest.mark.django_db
def test_a_titled_papers_corrected_abstract_is_no_key_of_it(write_dump):
    # Paper A was loaded with B's abstract; a curator put A's right. Kept as A's key, B's
    # abstract took B's record into A on the next load, and B was never loaded (a reviewer).
    def line(title, abstract):
        return json.dumps({"title": title, "abstract": abstract, "venue": "ACL 2024"}) + "\n"

    load_files([write_dump("a.jsonl", line("Paper A", "The abstract of B."))])
    paper = Paper.objects.get()
    former = {"title": paper.title, "abstract": paper.abstract, "venue": paper.venue_id}
    paper.abstract = "The abstract of A."
    curation.record_paper_edit(paper, ["abstract"], former)
    paper.save()
    load_files([write_dump("b.jsonl", line("Paper B", "The abstract of B."))])
    assert sorted(Paper.objects.values_list("title", "abstract")) == [
        ("Paper A", "The abstract of A."),
        ("Paper B", "The abstract of B."),
    ]


@pytest.mark.django_db
def test_a_copy_with_characters_nothing_shows_is_the_same_paper(write_dump):
    # A soft hyphen or a zero-width space in a page's copy made a second paper (an outside
    # tester).
    load_files([write_dump("a.txt", list_page("ACL 2025 Papers", [ABSTRACT_A, ABSTRACT_B]))])
    hidden = [ABSTRACT_A.replace("trans", "trans\u00ad", 1), ABSTRACT_B.replace(" ", "\u200b ", 1)]
    summary = load_files([write_dump("b.txt", list_page("ACL 2025 Papers", hidden))])
    assert (summary.new, Paper.objects.count()) == (0, 2)


@pytest.mark.django_db
def test_an_external_id_is_read_without_its_spaces_and_in_its_own_case(write_dump):
    # Typed by hand, " 2024.TACL-1.3 " made a second paper of 2024.tacl-1.3 (an outside tester).
    load_files(
        [write_dump("a.jsonl", identified_line("Cross", "Twelve.", external_id="2024.tacl-1.3"))]
    )
    again = identified_line("Cross", "Twelve.", external_id=" 2024.TACL-1.3 ")
    summary = load_files([write_dump("b.jsonl", again)])
    assert (summary.new, summary.unchanged) == (0, 1)
    assert list(Paper.objects.values_list("external_id", flat=True)) == ["2024.tacl-1.3"]


@pytest.mark.django_db
def test_a_dry_run_tells_what_a_second_record_of_one_paper_says_otherwise(write_dump):
    first = {"external_id": "x-9", "title": "Cross", "abstract": "Twelve.", "venue": "EMNLP 2024"}
    lines = [json.dumps(record) + "\n" for record in (first, first | {"title": "Crossed"})]
    summary = load_files([write_dump("two.jsonl", "".join(lines))], dry_run=True)
    assert [warning.rsplit("/", 1)[-1] for warning in summary.warnings] == [
        "two.jsonl, line 2: the record of x-9 at line 1 is kept; this one's title differs and "
        "is not loaded"
    ]
    assert Paper.objects.count() == 0


@pytest.mark.django_db
def test_a_second_record_of_one_paper_saying_otherwise_is_told(write_dump):
    first = {"external_id": "x-9", "title": "Cross", "abstract": "Twelve.", "venue": "EMNLP 2024"}
    second = first | {"venue": "ACL 2025", "authors": ["Bo Dup"]}
    same = dict(first)
    lines = [json.dumps(record) + "\n" for record in (first, second, same)]
    summary = load_files([write_dump("two.jsonl", "".join(lines))])
    assert [warning.rsplit("/", 1)[-1] for warning in summary.warnings] == [
        "two.jsonl, line 2: the record of x-9 at line 1 is kept; this one's venue differs and "
        "is not loaded"
    ]
    paper = Paper.objects.get()
    # The first record's venue; the second's authors, which the first lacked (merged, not told).
    assert paper.venue.name == "EMNLP 2024"
    assert [a.author.name for a in paper.authorships.select_related("author")] == ["Bo Dup"]
