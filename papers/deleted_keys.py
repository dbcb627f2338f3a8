"""Papers a curator deleted stay deleted: their keys (external ID, abstract, title at their
venue) are kept (DeletedKey), and a load leaves out a record that carries one and matches no
paper of the collection, where it brought the paper back under a new id. (A merged-away copy's
keys lead to its survivor instead: papers/merged_keys.py.)
"""

from .merged_keys import PAPER, paper_keys, rows_carried
from .models import DeletedKey, MergedKey, Paper
from .records import PaperRecord


def remember_deleted(papers: list[Paper]) -> None:
    """Keep the keys of the papers a curator is deleting (call before they are deleted), and
    the keys that lead to them: those they had before a curator corrected them, and those of
    copies merged into them. Those went with the papers' rows, and a reload of a source that
    still said the text as it was before the correction brought a deleted paper back (an
    outside curator)."""
    titles = {paper.pk: paper.display_title[:500] for paper in papers}
    keys = [(paper.pk, kind, key) for paper in papers for kind, key in sorted(paper_keys(paper))]
    keys += MergedKey.objects.filter(paper_id__in=titles).values_list("paper_id", "kind", "key")
    rows = [DeletedKey(kind=kind, key=key, title=titles[pk]) for pk, kind, key in keys]
    kept = [row for row in rows if row.kind != PAPER]
    DeletedKey.objects.bulk_create(kept, ignore_conflicts=True)


def deleted_records(
    records: dict[int, PaperRecord], venue_ids: dict[int, int], abstract_keys: list[str]
) -> set[int]:
    """The indexes of the ``records`` (by index: those no paper of the collection matched)
    that carry a deleted paper's key; ``abstract_keys`` holds each record's abstract key at
    its index (one query per kind of key, none when nothing was deleted)."""
    if not records or not DeletedKey.objects.exists():
        return set()
    return set(rows_carried(DeletedKey.objects.all(), records, venue_ids, abstract_keys))
