"""A set of papers answered as a citation file to download (papers/citations.py writes entries).

Any list the site shows (the search with its filters, a venue, topic or author page, a reading
list) is exported by the same URL with ``format=bibtex|ris|csljson``. At most ``MAX_EXPORT``
papers, in the list's order; untitled papers are left out rather than given an invented title,
and the file (a comment line where the format has comments) and the header
``X-Papers-Left-Out`` say how many. The entries are streamed, read ``CHUNK`` papers at a time.
"""

from collections.abc import Iterator

from django.http import StreamingHttpResponse

from .citation_fields import AuthorName
from .citations import FORMATS, Format
from .models import Authorship, Paper
from .search import ranked_order

MAX_EXPORT = 2000
# A ranked export ranks this many papers more than it exports, so that the untitled papers it
# leaves out do not make it export fewer than MAX_EXPORT (the collection has a few dozen).
UNTITLED_ROOM = 100
CHUNK = 500
# What an entry reads: not the abstract or the search vector, which would be most of the bytes.
CITED_FIELDS = (
    "title",
    "pages",
    "doi",
    "url",
    "bibkey",
    "venue__name",
    "venue__year",
    "venue__month",
    "venue__location",
    "venue__booktitle",
    "venue__full_name",
    "venue__publisher",
    "venue__editors",
)


def _author_names(ids: list[int]) -> dict[int, list[AuthorName]]:
    """{paper id: its authors' names in order} (1 query, no model instances: 2,000 papers have
    some 13,000 authorships)."""
    names: dict[int, list[AuthorName]] = {pk: [] for pk in ids}
    rows = Authorship.objects.filter(paper_id__in=ids).order_by("paper_id", "position")
    for paper_id, name, family in rows.values_list(
        "paper_id", "author__name", "author__family_name"
    ):
        names[paper_id].append(AuthorName(name, family))
    return names


def _entries(form: Format, ids: list[int]) -> Iterator[str]:
    """The entries of these papers, in this order, a chunk of papers (2 queries) at a time."""
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        found = Paper.objects.select_related("venue").only(*CITED_FIELDS).in_bulk(chunk)
        names = _author_names(chunk)
        for pk in chunk:
            if pk in found:
                yield form.entry(found[pk], names[pk])


def _stream(form: Format, ids: list[int], notes: list[str]) -> Iterator[str]:
    if form.comment:
        for note in notes:
            yield form.comment.format(note)
    yield form.opening
    for index, entry in enumerate(_entries(form, ids)):
        yield (form.separator if index else "") + entry
    yield form.closing


def _notes(exported: int, left_out: int, titled: int) -> list[str]:
    notes = []
    if left_out:
        plural = "paper" if left_out == 1 else "papers"
        notes.append(f"{left_out} {plural} left out: the source gives no title.")
    if titled > exported:
        notes.append(f"Only the first {exported:,} of the {titled:,} titled papers are exported.")
    return notes


def export_response(format_name: str, ids: list[int], left_out: int, titled: int, name: str):
    """The download of the papers ``ids`` (titled, in order, at most MAX_EXPORT) out of
    ``titled`` titled papers in the set, ``left_out`` untitled ones left out."""
    form = FORMATS[format_name]
    notes = _notes(len(ids), left_out, titled)
    response = StreamingHttpResponse(
        _stream(form, ids, notes), content_type=f"{form.content_type}; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}.{form.extension}"'
    response["X-Papers-Exported"] = str(len(ids))
    response["X-Papers-Left-Out"] = str(left_out)
    return response


def export_queryset(format_name: str, papers, name: str):
    """The download of a list's whole set ``papers`` (a queryset in the list's order)."""
    titled = papers.exclude(title="")
    ids = list(titled.values_list("pk", flat=True)[:MAX_EXPORT])
    total = titled.order_by().count() if len(ids) == MAX_EXPORT else len(ids)
    left_out = papers.filter(title="").order_by().count()
    return export_response(format_name, ids, left_out, total, name)


def export_ranked(format_name: str, filterset, name: str):
    """The download of a ranked query's list (a valid PaperFilterSet): its matches in the
    pages' order (papers/search.py ``ranked_order``), MAX_EXPORT titled ones where it has
    that many (UNTITLED_ROOM more are ranked for the untitled among them)."""
    wanted = MAX_EXPORT + UNTITLED_ROOM
    ids = ranked_order(filterset, wanted)
    papers = filterset.qs
    untitled = set(papers.filter(pk__in=ids, title="").order_by().values_list("pk", flat=True))
    if len(ids) < wanted:  # every match: what is left out is among them
        return export_ids(format_name, ids, untitled, name)
    titled = [pk for pk in ids if pk not in untitled][:MAX_EXPORT]
    total = papers.exclude(title="").order_by().count()
    left_out = papers.filter(title="").order_by().count()
    return export_response(format_name, titled, left_out, total, name)


def export_ids(format_name: str, ids: list[int], untitled: set[int], name: str):
    """The download of a reading list: ``ids`` in its order, ``untitled`` among them."""
    titled = [pk for pk in ids if pk not in untitled]
    return export_response(format_name, titled[:MAX_EXPORT], len(untitled), len(titled), name)


def export_paper(format_name: str, paper, name: str):
    """The download of one paper (none where it has no title)."""
    return export_ids(format_name, [paper.pk], set() if paper.title else {paper.pk}, name)
