"""The whole Anthology folder through load_papers, on top of the seed dumps (needs ../shared)."""

import pytest
from django.test import Client

from papers.loading import load_files
from papers.models import Author, Paper, Venue
from tests.conftest import anthology_dir
from tests.support import independent_counts


@pytest.mark.anthology
@pytest.mark.django_db
def test_the_anthology_imports_every_paper_once_and_merges_the_dump_papers(seeds, anthology_files):
    expected_ids: set[str] = set()
    for path in anthology_files:
        expected_ids |= independent_counts(path)[2]

    summary = load_files([anthology_dir()])

    assert summary.papers_read == len(expected_ids)
    imported = set(Paper.objects.exclude(external_id=None).values_list("external_id", flat=True))
    assert imported == expected_ids
    merged = Paper.objects.exclude(external_id=None).exclude(source_file__endswith=".xml")
    assert summary.updated == merged.count() > 0
    assert Paper.objects.count() == 79 + len(expected_ids) - merged.count()
    # A seed paper that the dump left untitled gets its Anthology title, authors and links,
    # and its volume: the ACL 2025 pages list Findings papers with the main ones.
    statistical = Paper.objects.get(external_id="2025.findings-acl.204")
    assert statistical.source_file.startswith("fixtures/000_")
    assert statistical.venue.name == "Findings of ACL 2025"
    assert statistical.title.startswith("Statistical inference on black-box generative models")
    assert statistical.url == "https://aclanthology.org/2025.findings-acl.204"
    assert statistical.authorships.count() > 0
    assert Venue.objects.get(name="Findings of EMNLP 2023").parent.name == "EMNLP 2023"

    again = load_files([anthology_dir()])
    assert (again.new, again.updated, again.unchanged) == (0, 0, len(expected_ids))

    author = Author.objects.get(authorships__paper=statistical, authorships__position=1)
    page = Client().get(f"/authors/{author.slug}/")
    assert page.status_code == 200
    assert author.name in page.content.decode()
