"""Merges that last: the keys of papers a curator merged away, pointing at the survivor.

A load matches its records to the collection by external ID, abstract and title at a venue
(papers/writing.py); a merged-away copy's keys are gone with its row, so without these a
reload of its source would bring it back. ``remember_merged`` keeps them when papers merge;
``find_merged`` gives the survivor for records that carry them, ``survivor_of`` for an old
address (a merged-away paper's id or Anthology ID).
"""

from .bulk import batched
from .models import MergedKey, Paper
from .records import PaperRecord
from .text import fold_whitespace, former_abstract_keys

# MergedKey.Kind's values, as plain strings: the keys are compared with rows read back.
EXTERNAL_ID, ABSTRACT, TITLE, PAPER = "id", "abstract", "title", "paper"


def title_key(venue_id: int, title: str) -> str:
    return f"{venue_id}:{fold_whitespace(title).lower()}"


def paper_keys(paper: Paper) -> set[tuple[str, str]]:
    keys = {(PAPER, str(paper.pk))}
    if paper.external_id:
        keys.add((EXTERNAL_ID, paper.external_id))
    if paper.abstract_key:
        keys.add((ABSTRACT, paper.abstract_key))
    if paper.title:
        keys.add((TITLE, title_key(paper.venue_id, paper.title)))
    return keys


def remember_merged(survivor: Paper, others: list[Paper]) -> None:
    """Point the others' keys, and the keys merged into them before, at the survivor (call
    before the others are deleted: their own merged keys go with them otherwise)."""
    other_ids = [paper.pk for paper in others]
    MergedKey.objects.filter(paper_id__in=other_ids).update(paper=survivor)
    keys = set().union(*(paper_keys(paper) for paper in others)) - paper_keys(survivor)
    MergedKey.objects.bulk_create(
        [MergedKey(kind=kind, key=key, paper=survivor) for kind, key in sorted(keys)],
        update_conflicts=True,
        unique_fields=["kind", "key"],
        update_fields=["paper"],
    )


def remember_former(paper: Paper, keys: set[tuple[str, str]]) -> None:
    """Point keys the paper was known by before a curator corrected it (its abstract's, its
    title's at its venue) at it: reloading the source that still says the old text found no
    paper, and loaded the text again as a second one (an outside tester)."""
    keys = {(kind, key) for kind, key in keys if key} - paper_keys(paper)
    # A key kept for another paper (a merge's) stays that paper's.
    MergedKey.objects.bulk_create(
        [MergedKey(kind=kind, key=key, paper=paper) for kind, key in sorted(keys)],
        ignore_conflicts=True,
    )


def record_keys(record: PaperRecord, venue_id: int, key_of_abstract: str) -> list[tuple[str, str]]:
    keys = []
    if record.external_id:
        keys.append((EXTERNAL_ID, record.external_id))
    if key_of_abstract:
        keys.append((ABSTRACT, key_of_abstract))
        # A key kept before migrations 0034 and 0038 changed the keys is of its old form.
        keys += [(ABSTRACT, key) for key in former_abstract_keys(record.abstract)]
    if record.title:
        keys.append((TITLE, title_key(venue_id, record.title)))
    return keys


def rows_carried(
    rows, records: dict[int, PaperRecord], venue_ids: dict[int, int], abstract_keys: list[str]
) -> dict[int, object]:
    """{index: the row of ``rows`` (a queryset of MergedKey or DeletedKey) holding one of the
    record's keys, the first it carries} of the ``records`` (by index) that carry one;
    ``abstract_keys`` holds each record's abstract key at its index (one query per kind of
    key and batch)."""
    keys = {
        index: record_keys(record, venue_ids[index], abstract_keys[index])
        for index, record in records.items()
    }
    held = {}
    for chunk in batched(sorted({key for carried in keys.values() for key in carried})):
        for kind in {kind for kind, _ in chunk}:
            found = rows.filter(kind=kind, key__any_of=[key for k, key in chunk if k == kind])
            held.update({(row.kind, row.key): row for row in found})
    carrying = {}
    for index, carried in keys.items():
        row = next((held[key] for key in carried if key in held), None)
        if row is not None:
            carrying[index] = row
    return carrying


def find_merged(
    records: dict[int, PaperRecord], venue_ids: dict[int, int], abstract_keys: list[str]
) -> dict[int, Paper]:
    """The survivor for each record (by index) that carries a merged-away paper's key;
    ``abstract_keys`` holds each record's abstract key at its index."""
    if not records or not MergedKey.objects.exists():
        return {}
    merged = MergedKey.objects.select_related("paper")
    carrying = rows_carried(merged, records, venue_ids, abstract_keys)
    return {index: row.paper for index, row in carrying.items()}


def survivor_of(kind: str, key: str) -> int | None:
    """The id of the paper a merged-away paper's id (PAPER) or external ID went to, if any."""
    found = MergedKey.objects.filter(kind=kind, key=key)
    return found.values_list("paper_id", flat=True).first()


def survivors_of(kind: str, keys: list[str]) -> dict[str, int]:
    """survivor_of for many keys: {key: the id of the paper it went to}, for those merged away
    (1 query; none for no keys)."""
    if not keys:
        return {}
    return dict(MergedKey.objects.filter(kind=kind, key__in=keys).values_list("key", "paper_id"))
