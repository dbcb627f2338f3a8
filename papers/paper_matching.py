"""Which of the collection's papers each record of a load is.

A record is matched by its external ID, then its normalised abstract, then its title at the
same venue, by its authors (two records with different external IDs are never one paper, nor
two of one title whose authors disagree), then by the keys of
papers a curator merged away (papers/merged_keys.py), which lead to the paper that absorbed
them. Each kind of key is looked up in batches of many keys, one array each.
"""

from django.db.models.functions import Lower

from .bulk import batched
from .merged_keys import find_merged
from .models import Paper
from .record_merging import authors_disagree, same_paper_possible, titles_agree
from .records import PaperRecord
from .text import fold_whitespace

# The papers as matching reads them: without their vectors and sort key, which the database
# derives and the load never reads from them (their text was half of each row sent).
_DERIVED = ("search_vector", "title_vector", "display_key")


def find_existing(
    records: list[PaperRecord], abstract_keys: list[str], venue_ids: list[int]
) -> tuple[dict[int, Paper], dict[int, Paper]]:
    """(the collection's paper for each record by its keys, the survivor of a merged-away
    paper for each of the others), by position in ``records``; ``abstract_keys`` and
    ``venue_ids`` hold each record's abstract key and venue id at its position. A record
    without an external ID whose abstract is a paper's with a title that disagrees with its
    own loses its abstract key (set to "" in ``abstract_keys``): it is another paper,
    identified by its title."""
    # A first load has nothing to match, nor merged-away keys (each points at a paper).
    if not Paper.objects.exists():
        return {}, {}
    # A paper of the record's external ID is its paper, whatever its other keys find: those
    # are looked up only for the other records (a reload of the Anthology read each of its
    # 26,014 papers three times, 2.5 s, to find each by the first key).
    by_external = papers_by_external_id(records)
    found = {
        index: by_external[record.external_id]
        for index, record in enumerate(records)
        if record.external_id in by_external
    }
    rest = [index for index in range(len(records)) if index not in found]
    titles = {
        index: (venue_ids[index], fold_whitespace(records[index].title).lower())
        for index in rest
        if records[index].title
    }
    by_abstract, by_title = papers_by_text([abstract_keys[index] for index in rest], titles)
    for index in rest:
        record = records[index]
        by_text = by_abstract.get(abstract_keys[index])
        if by_text is not None and not titles_agree(by_text.title, record.title):
            by_text = None
            if not record.external_id:
                # Another paper's abstract: the record's title identifies it, not its abstract.
                abstract_keys[index] = ""
        by_name = next(
            (p for p in by_title.get(titles.get(index), ()) if _same_people(p, record)), None
        )
        paper = next(
            (
                paper
                for paper in (by_text, by_name)
                if paper is not None and same_paper_possible(paper.external_id, record.external_id)
            ),
            None,
        )
        if paper is not None:
            found[index] = paper
    unmatched = {index: r for index, r in enumerate(records) if index not in found}
    merged = find_merged(unmatched, {index: venue_ids[index] for index in unmatched}, abstract_keys)
    return found, merged


def papers_by_external_id(records: list[PaperRecord]) -> dict[str, Paper]:
    """The collection's papers carrying the records' external IDs, by external ID."""
    by_external = {}
    for chunk in batched([r.external_id for r in records if r.external_id]):
        by_external.update(
            {
                p.external_id: p
                for p in Paper.objects.defer(*_DERIVED).filter(external_id__any_of=chunk)
            }
        )
    return by_external


def papers_by_text(
    abstract_keys: list[str], titles: dict[int, tuple[int, str]]
) -> tuple[dict, dict]:
    """The collection's papers carrying the keys: by abstract key, by (venue id, lowercased
    title) (``titles``: (venue id, lowercased title) by record; a list, as papers of other
    authors may share a title)."""
    by_abstract = {}
    for chunk in batched([k for k in abstract_keys if k]):
        by_abstract.update(
            {
                p.abstract_key: p
                for p in Paper.objects.defer(*_DERIVED).filter(abstract_key__any_of=chunk)
            }
        )
    by_title = {}
    for chunk in batched(list(titles.values())):
        candidates = (
            Paper.objects.defer(*_DERIVED)
            .annotate(lower_title=Lower("title"))
            .filter(
                venue_id__any_of={venue for venue, _ in chunk},
                lower_title__any_of={title for _, title in chunk},
            )
        )
        for paper in candidates.order_by("pk"):
            by_title.setdefault((paper.venue_id, paper.lower_title), []).append(paper)
    return by_abstract, by_title


def _same_people(paper: Paper, record: PaperRecord) -> bool:
    """Whether a paper of the record's title is by its authors (``authors_disagree``)."""
    names = paper.author_names.split(", ") if paper.author_names else []
    return not authors_disagree(names, [author.name for author in record.authors])
