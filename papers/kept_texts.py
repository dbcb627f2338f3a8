"""Papers a load met again whose text, venue or authors it did not take: told, not silent.

A record that is not the paper's own source (a conference page or a copy matched by its title
or abstract, without the paper's external ID; an export of a collection) only fills a known
paper's empty fields: a page's shorter abstract must not replace the Anthology's. A curator who
corrected a typo in a saved page and loaded it again was told "1 unchanged" and nothing else,
and so was one who corrected the page's venue or an author's name (an outside curator); the
load now names such papers in a warning, per file, with what differs.
"""

from collections import defaultdict

from .models import Paper
from .name_keys import name_key
from .records import PaperRecord
from .text import abstract_key, fold_whitespace

# The papers named in a file's warning; the rest are counted.
NAMED = 5


def says_otherwise(paper: Paper, record: PaperRecord, key_of_abstract: str, venue_id) -> list[str]:
    """What ``record`` gives otherwise than ``paper`` as the load leaves it ("title",
    "abstract", "venue", "authors"), in fields no curator set (a curator's are kept on
    purpose), for a paper without an external ID: one with its own source (the Anthology's)
    keeps that source's against a page's copy as it should, and `make run`'s reload of the
    seed pages told three such papers at every start."""
    if paper.external_id:
        return []
    curated = set(paper.curated_fields)
    title = fold_whitespace(record.title).casefold() != fold_whitespace(paper.title).casefold()
    names = ", ".join(author.name for author in record.authors).split(", ")
    differs = {
        "title": bool(record.title) and title,
        "abstract": bool(record.abstract) and key_of_abstract != paper.abstract_key,
        "venue": venue_id != paper.venue_id,
        "authors": bool(record.authors and paper.author_names)
        and not _same_families(names, paper.author_names.split(", "))
        and not _known_spellings([author.name for author in record.authors], paper),
    }
    return [field for field, other in differs.items() if other and field not in curated]


def _same_families(names: list[str], other_names: list[str]) -> bool:
    """Whether two author lists name people of the same family names in the same order: a
    name respelled, shortened or given its middle name ("P. Raman", "Grace Brewster Hopper")
    is the same person, "Alan Smith" for "Alan Turing" is a correction (a first name shared
    was taken for the same person: an outside curator). A name with a comma ("Naval, Jr.") is
    split alike on both sides."""
    return len(names) == len(other_names) and all(
        name_key(name).split()[-1:] == name_key(other).split()[-1:]
        for name, other in zip(names, other_names, strict=True)
    )


def _known_spellings(names: list[str], paper: Paper) -> bool:
    """Whether each name is that of the paper's author in its place by its family name or as
    one of the names the author is known by: a curator who renamed "王小明" to "Xiaoming Wang"
    (the old name kept among its variants) was told at every load of the page that its
    authors differ (a curator's trial). A query, only for authors whose families differ."""
    known = paper.authorships.order_by("position").values_list("author__name", "author__variants")
    return len(known) == len(names) and all(
        _same_families([name], [own]) or name_key(name) in {name_key(v) for v in variants}
        for name, (own, variants) in zip(names, known, strict=True)
    )


def kept_text_warnings(
    records: list[PaperRecord], found: dict[int, Paper], abstract_keys: list[str], venue_ids
) -> list[str]:
    """One warning per file read naming its records whose papers (``found``: by the record's
    index, as the load leaves them) kept their own text, venue or authors, each with what
    differs, and one naming its records loaded as new papers with another's abstract
    (``same_abstract_warnings``); ``abstract_keys`` and ``venue_ids``: the records', by
    index."""
    kept = []
    for index, paper in found.items():
        if differs := says_otherwise(paper, records[index], abstract_keys[index], venue_ids[index]):
            kept.append((records[index], differs))
    by_file = defaultdict(list)
    for record, fields in kept:
        by_file[record.read_from or record.source_file].append((record, fields))
    warnings = []
    for source, listed in by_file.items():
        named = ", ".join(
            f"line {r.line} “{fold_whitespace(r.title)}” ({', '.join(fields)})"
            for r, fields in listed[:NAMED]
        )
        more = f" and {len(listed) - NAMED} more" if len(listed) > NAMED else ""
        papers = "1 paper differs" if len(listed) == 1 else f"{len(listed)} papers differ"
        warnings.append(
            f"{source}: {papers} here from the collection, which keeps its own (a record that "
            "is not the paper's own source, without its external ID or an export, only fills "
            f"empty fields; correct the paper in the admin): {named}{more}"
        )
    return warnings + same_abstract_warnings(records, found, abstract_keys)


def same_abstract_warnings(
    records: list[PaperRecord], found: dict[int, Paper], abstract_keys: list[str]
) -> list[str]:
    """One warning per file read naming its records loaded as new papers although a paper of
    the collection has their abstract, its title another (papers/paper_matching.py: such a
    record lost its abstract key, ``abstract_keys``): a page saved again with its title
    corrected made a silent copy of the paper its first load had mistitled (an outside
    curator). One query, only when there are such records."""
    blanked = {
        index: key
        for index, record in enumerate(records)
        if index not in found
        and not abstract_keys[index]
        and (key := abstract_key(record.abstract))
    }
    if not blanked:
        return []
    having = Paper.objects.filter(abstract_key__in=set(blanked.values()))
    titles = dict(having.values_list("abstract_key", "title"))
    by_file = defaultdict(list)
    for index, key in blanked.items():
        if key in titles:
            record = records[index]
            by_file[record.read_from or record.source_file].append((record, titles[key]))
    return [
        f"{source}: {_records(len(listed))} loaded as new, though a paper of the collection "
        "has the same abstract under another title (a title corrected since, or a copy: "
        "merge them in the admin if they are one paper): "
        + ", ".join(
            f"line {r.line} “{fold_whitespace(r.title)}” (the abstract of “{title}”)"
            for r, title in listed[:NAMED]
        )
        + (f" and {len(listed) - NAMED} more" if len(listed) > NAMED else "")
        for source, listed in by_file.items()
    ]


def _records(count: int) -> str:
    return "1 record is" if count == 1 else f"{count} records are"
