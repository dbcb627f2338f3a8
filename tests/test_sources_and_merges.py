"""Sources named portably, and a curator's merges that survive reloads (real PostgreSQL)."""

import json
from urllib.parse import urlencode

import pytest

from papers import curation, merging
from papers.facets import count_facets
from papers.loading import load_files
from papers.models import DeletedKey, MergedKey, Paper
from tests.factories import ABSTRACT_A, ABSTRACT_B, ABSTRACT_C, lecture_page, list_page, make_venue
from tests.support import run

pytestmark = pytest.mark.django_db


# Sources -----------------------------------------------------------------------------


def test_a_folder_given_names_its_files_from_the_folder(tmp_path):
    folder = tmp_path / "dumps"
    (folder / "2024").mkdir(parents=True)
    (folder / "list.txt").write_text(list_page("NAACL 2025 Papers"), encoding="utf-8")
    (folder / "2024" / "lecture.txt").write_text(lecture_page(furniture=False), encoding="utf-8")
    load_files([folder])
    assert sorted(set(Paper.objects.values_list("source_file", flat=True))) == [
        "dumps/2024/lecture.txt",
        "dumps/list.txt",
    ]


def test_a_file_given_is_named_by_its_folder_and_itself_from_any_working_folder(
    tmp_path, monkeypatch
):
    folder = tmp_path / "saved"
    folder.mkdir()
    path = folder / "list.txt"
    path.write_text(list_page("NAACL 2025 Papers"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    load_files([path.relative_to(tmp_path)])
    monkeypatch.chdir(folder)
    summary = load_files([path.relative_to(folder)])  # "list.txt", from inside the folder
    assert (summary.new, summary.unchanged) == (0, 3)
    assert set(Paper.objects.values_list("source_file", flat=True)) == {"saved/list.txt"}


def test_the_export_and_the_api_show_the_portable_source(tmp_path, client):
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "list.txt").write_text(list_page("NAACL 2025 Papers"), encoding="utf-8")
    load_files([folder.resolve()])
    exported = [json.loads(line) for line in run("export_papers")[0].splitlines()]
    assert {row["source"] for row in exported} == {"saved/list.txt"}
    paper = Paper.objects.get(abstract=ABSTRACT_A)
    assert client.get(f"/api/papers/{paper.pk}/").json()["source"] == "saved/list.txt"


# Merges ------------------------------------------------------------------------------


def _two_copies(write_dump):
    """One paper met twice with different abstracts: in a list page and a lecture page."""
    edited = ABSTRACT_A.replace("Our results show", "The results show")
    listed = write_dump("list.txt", list_page("NAACL 2025 Papers", (edited, ABSTRACT_C)))
    lecture = write_dump("lecture.txt", lecture_page(furniture=False))
    load_files([listed, lecture])
    survivor = Paper.objects.get(abstract=ABSTRACT_A)
    duplicate = Paper.objects.get(abstract=edited)
    return listed, lecture, survivor, duplicate


def test_a_merge_survives_a_reload_of_the_merged_away_copys_dump(write_dump):
    listed, _, survivor, duplicate = _two_copies(write_dump)
    count = Paper.objects.count()
    merging.merge_papers(survivor, [duplicate])
    assert Paper.objects.count() == count - 1
    summary = load_files([listed])
    assert (summary.new, summary.papers_read) == (0, 2)
    assert Paper.objects.count() == count - 1
    assert (
        not Paper.objects.filter(abstract__startswith=ABSTRACT_A[:40])
        .exclude(pk=survivor.pk)
        .exists()
    )
    survivor.refresh_from_db()
    assert survivor.abstract == ABSTRACT_A  # the survivor keeps its own abstract
    assert survivor.title == "Parallel Data for Yoruba Translation"


def test_the_merged_away_keys_point_at_the_survivor(write_dump):
    _, _, survivor, duplicate = _two_copies(write_dump)
    merging.merge_papers(survivor, [duplicate])
    assert sorted(MergedKey.objects.values_list("kind", "key", "paper_id")) == [
        ("abstract", duplicate.abstract_key, survivor.pk),
        ("paper", str(duplicate.pk), survivor.pk),  # its address leads to the survivor
    ]


def test_a_merge_into_a_paper_later_merged_again_follows_the_last_survivor(write_dump):
    listed, _, survivor, duplicate = _two_copies(write_dump)
    merging.merge_papers(survivor, [duplicate])
    third = Paper.objects.get(abstract=ABSTRACT_B)
    merging.merge_papers(third, [survivor])
    assert set(MergedKey.objects.values_list("paper_id", flat=True)) == {third.pk}
    # The copy's abstract and id; the survivor's abstract, title and id.
    assert MergedKey.objects.count() == 5
    count = Paper.objects.count()
    assert load_files([listed]).new == 0
    assert Paper.objects.count() == count


def test_a_merge_of_papers_with_two_external_ids_survives_a_reload(write_dump):
    """Two Anthology records of one paper (an erratum's new ID): the curator's word stands."""
    lines = [
        {"external_id": "2031.acl-1", "title": "Yoruba Data", "abstract": ABSTRACT_A},
        {"external_id": "2031.acl-99", "title": "Yoruba Data, Again", "abstract": ABSTRACT_B},
    ]
    path = write_dump(
        "two.jsonl", "".join(json.dumps({**line, "venue": "ACL 2031"}) + "\n" for line in lines)
    )
    load_files([path])
    survivor = Paper.objects.get(external_id="2031.acl-1")
    merging.merge_papers(survivor, [Paper.objects.get(external_id="2031.acl-99")])
    summary = load_files([path])
    # Both records find the survivor and change nothing.
    assert (summary.new, summary.updated, summary.unchanged) == (0, 0, 2)
    assert list(Paper.objects.values_list("external_id", "title")) == [
        ("2031.acl-1", "Yoruba Data")
    ]
    kinds = sorted(MergedKey.objects.values_list("kind", flat=True))
    assert kinds == ["abstract", "id", "paper", "title"]


def test_a_merge_keeping_a_pages_copy_survives_a_reload_of_the_ids_source(write_dump):
    # The survivor took the duplicate's external ID; reloading the ID's source corrected its
    # title and author list back to the duplicate's, undoing the curator's choice.
    line = {"external_id": "2031.acl-9", "title": "Crowdsourced NER", "abstract": ABSTRACT_A}
    line |= {"venue": "ACL 2031", "authors": ["Ada Lovelace", "Alan Turing"]}
    path = write_dump("ner.jsonl", json.dumps(line) + "\n")
    copy = {"title": "Named Entity Recognition by the Crowd", "abstract": ABSTRACT_B}
    copy |= {"venue": "ACL 2031", "authors": ["Ada Lovelace", "Alan Turing", "Lena Vogt"]}
    load_files([path, write_dump("page.jsonl", json.dumps(copy) + "\n")])
    survivor = Paper.objects.get(title=copy["title"])
    merging.merge_papers(survivor, [Paper.objects.get(external_id="2031.acl-9")])
    assert sorted(Paper.objects.get().curated_fields) == ["abstract", "authors", "title"]
    summary = load_files([path])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 0, 1)
    paper = Paper.objects.get()
    assert (paper.external_id, paper.title, paper.abstract) == (
        "2031.acl-9",
        copy["title"],
        ABSTRACT_B,
    )
    assert paper.author_names == "Ada Lovelace, Alan Turing, Lena Vogt"


def test_a_merged_away_papers_anthology_id_or_doi_finds_the_survivor(client, write_dump):
    lines = [
        {"external_id": "2031.acl-long.1", "venue": "ACL 2031", "abstract": ABSTRACT_A},
        {
            "external_id": "2031.findings-acl.5",
            "venue": "Findings of ACL 2031",
            "abstract": ABSTRACT_B,
        },
    ]
    path = write_dump(
        "two.jsonl", "".join(json.dumps({**line, "title": "Yoruba"}) + "\n" for line in lines)
    )
    load_files([path])
    survivor = Paper.objects.get(external_id="2031.acl-long.1")
    merging.merge_papers(survivor, [Paper.objects.get(external_id="2031.findings-acl.5")])
    for typed in ["2031.findings-acl.5", "10.18653/v1/2031.findings-acl.5"]:
        response = client.get("/?" + urlencode({"q": typed}))
        assert (response.status_code, response["Location"]) == (
            302,
            survivor.get_canonical_url(),
        )
        body = client.get("/api/papers/?" + urlencode({"q": typed})).json()
        assert [result["id"] for result in body["results"]] == [survivor.pk]


def test_a_later_runs_anthology_record_moves_the_paper_to_its_volume(write_dump):
    """A conference's page lists a Findings paper with the main ones; the Anthology's record of
    it, loaded in a later run, names its volume (as within one run: papers/record_merging.py)."""

    def load(name, **fields):
        line = {"title": "Yoruba Data", "abstract": ABSTRACT_A, **fields}
        return load_files([write_dump(name, json.dumps(line) + "\n")])

    load("page.jsonl", venue="ACL 2031")
    summary = load(
        "anthology.jsonl", venue="Findings of ACL 2031", external_id="2031.findings-acl.5"
    )
    assert (summary.new, summary.updated) == (0, 1)
    paper = Paper.objects.select_related("venue").get()
    assert (paper.venue.name, paper.external_id) == ("Findings of ACL 2031", "2031.findings-acl.5")
    assert count_facets({"venue": ["acl-2031"]}).total == 0
    assert count_facets({"venue": ["findings-of-acl-2031"]}).total == 1
    # A venue a curator chose stays.
    Paper.objects.update(external_id="", curated_fields=["venue"])
    load("again.jsonl", venue="ACL 2031", external_id="2031.acl-5")
    assert Paper.objects.select_related("venue").get().venue.name == "Findings of ACL 2031"


def test_a_paper_corrected_then_deleted_stays_deleted_through_loads(write_dump):
    # The keys of its text before the correction went with its row: the source, which still
    # says that text, brought it back (an outside curator).
    lines = [
        {"title": "Pademelon Prompts Toward Robustness", "abstract": ABSTRACT_A},
        {"title": "Quokka Queries", "abstract": ABSTRACT_B},
    ]
    path = write_dump(
        "two.jsonl", "".join(json.dumps({**line, "venue": "EMNLP 2031"}) + "\n" for line in lines)
    )
    load_files([path])
    other = make_venue("ACL 2031", 2031)
    for paper in Paper.objects.all():
        former = {"title": paper.title, "venue": paper.venue_id}
        if paper.title.startswith("Pademelon"):
            paper.title, paper.abstract = paper.title.replace("Toward", "Towards"), ABSTRACT_C
            changed = ["title", "abstract"]
        else:
            paper.venue, changed = other, ["venue"]
        curation.record_paper_edit(paper, changed, former)
        paper.save()
    curation.delete_papers(Paper.objects.all())
    summary = load_files([path])
    assert (summary.new, summary.left_out) == (0, 2)
    assert not Paper.objects.exists()


def test_a_paper_a_curator_deleted_stays_deleted_through_loads(write_dump):
    lines = [
        {"external_id": "2031.acl-long.1", "title": "Yoruba Data", "abstract": ABSTRACT_A},
        {"title": "Accented Speech", "abstract": ABSTRACT_B},
        {"title": "Kept Paper", "abstract": ABSTRACT_C},
    ]
    path = write_dump(
        "three.jsonl", "".join(json.dumps({**line, "venue": "ACL 2031"}) + "\n" for line in lines)
    )
    load_files([path])
    curation.delete_papers(Paper.objects.exclude(title="Kept Paper"))
    assert sorted(DeletedKey.objects.values_list("kind", "title")) == [
        ("abstract", "Accented Speech"),
        ("abstract", "Yoruba Data"),
        ("id", "Yoruba Data"),
        ("title", "Accented Speech"),
        ("title", "Yoruba Data"),
    ]
    # The same file again: the deleted papers are left out, not brought back under new ids.
    summary = load_files([path])
    assert (summary.new, summary.unchanged, summary.left_out) == (0, 1, 2)
    assert summary.describe().endswith("; 0 warnings; 2 left out (deleted by a curator)")
    assert list(Paper.objects.values_list("title", flat=True)) == ["Kept Paper"]
    # A curator who deletes a paper's keys lets loads bring it back.
    DeletedKey.objects.filter(title="Accented Speech").delete()
    summary = load_files([path])
    assert (summary.new, summary.left_out) == (1, 1)
    assert sorted(Paper.objects.values_list("title", flat=True)) == [
        "Accented Speech",
        "Kept Paper",
    ]
