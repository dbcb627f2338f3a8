"""A run's records combined before anything is written (papers/record_merging.py)."""

from datetime import date

import pytest

from papers.models import Venue
from papers.record_merging import merge_records
from papers.records import LoadSummary, PaperRecord, ParsedFile, VenueRecord
from papers.writing import RecordWriter


def venues_of(*records: VenueRecord) -> dict[str, VenueRecord]:
    return merge_records([ParsedFile(source="x.xml", venues=list(records))])[0]


def test_a_conference_no_source_dates_takes_the_earliest_month_of_its_volumes():
    venues = venues_of(
        VenueRecord("Findings of ACL 2025", month="July", parent="ACL 2025"),
        VenueRecord("ACL 2025 (Demos)", month="Jun.", parent="ACL 2025"),
        VenueRecord("ACL 2025 (Tutorials)", month="August", parent="ACL 2025"),
    )
    assert venues["ACL 2025"].month == "Jun."


def test_a_conference_its_source_dates_keeps_its_own_month():
    venues = venues_of(
        VenueRecord("NAACL 2025", month="April"),
        VenueRecord("NAACL 2025 (Tutorials)", month="May", parent="NAACL 2025"),
        VenueRecord("EMNLP 2024", start_date=date(2024, 11, 12)),
        VenueRecord("Findings of EMNLP 2024", month="October", parent="EMNLP 2024"),
        VenueRecord("Findings of LREC 2026", month="sometime", parent="LREC 2026"),
    )
    assert (venues["NAACL 2025"].month, venues["EMNLP 2024"].month) == ("April", "")
    assert venues["LREC 2026"].month == ""


@pytest.mark.django_db
def test_the_dated_conference_sorts_by_its_volumes_month():
    venues = venues_of(
        VenueRecord("Findings of ACL 2025", month="July", parent="ACL 2025"),
        VenueRecord("NAACL 2025", month="April"),
    )
    RecordWriter(LoadSummary()).write_venues(venues)
    newest = Venue.objects.order_by("-held_on", "name").values_list("name", "held_on")
    assert list(newest) == [
        ("ACL 2025", date(2025, 7, 1)),
        ("Findings of ACL 2025", date(2025, 7, 1)),
        ("NAACL 2025", date(2025, 4, 1)),
    ]


def test_the_copy_with_the_anthology_id_places_the_paper_in_its_volume():
    abstract = "We edit knowledge in scripts, and every method falls short on our benchmark."
    page = ParsedFile(
        source="acl-2025.txt", papers=[PaperRecord(abstract=abstract, venue="ACL 2025")]
    )
    anthology = ParsedFile(
        source="2025.findings.xml",
        papers=[
            PaperRecord(
                abstract=abstract,
                venue="Findings of ACL 2025",
                title="ScEdit",
                external_id="2025.findings-acl.104",
            )
        ],
    )
    [paper] = merge_records([page, anthology]).papers
    assert (paper.venue, paper.external_id, paper.title) == (
        "Findings of ACL 2025",
        "2025.findings-acl.104",
        "ScEdit",
    )
    # Read the other way round, the first copy has the ID and keeps its volume.
    [paper] = merge_records([anthology, page]).papers
    assert paper.venue == "Findings of ACL 2025"
