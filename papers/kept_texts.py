"""Papers a load met again whose text it did not take: told, not silent.

A record that is not the paper's own source (a conference page or a copy matched by its title
or abstract, without the paper's external ID; an export of a collection) only fills a known
paper's empty fields: a page's shorter abstract must not replace the Anthology's. A curator who
corrected a typo in a saved page and loaded it again was told "1 unchanged" and nothing else;
the load now names such papers in a warning, per file.
"""

from collections import defaultdict

from .models import Paper
from .records import PaperRecord
from .text import fold_whitespace

# The papers named in a file's warning; the rest are counted.
NAMED = 5


def says_otherwise(paper: Paper, record: PaperRecord, key_of_abstract: str) -> bool:
    """Whether ``record`` gives a title or an abstract other than ``paper``'s as the load
    leaves it, in a field no curator set (a curator's text is kept on purpose), for a paper
    without an external ID: one with its own source (the Anthology's) keeps that source's text
    against a page's copy as it should, and `make run`'s reload of the seed pages told three
    such papers at every start."""
    if paper.external_id:
        return False
    curated = set(paper.curated_fields)
    abstract = (
        bool(record.abstract)
        and key_of_abstract != paper.abstract_key
        and "abstract" not in curated
    )
    title = (
        bool(record.title)
        and fold_whitespace(record.title).casefold() != fold_whitespace(paper.title).casefold()
        and "title" not in curated
    )
    return abstract or title


def kept_text_warnings(records: list[PaperRecord]) -> list[str]:
    """One warning per file naming its records whose papers kept their own text."""
    by_file = defaultdict(list)
    for record in records:
        by_file[record.source_file].append(record)
    warnings = []
    for source, kept in by_file.items():
        named = ", ".join(f"line {r.line} “{fold_whitespace(r.title)}”" for r in kept[:NAMED])
        more = f" and {len(kept) - NAMED} more" if len(kept) > NAMED else ""
        papers = "1 paper differs" if len(kept) == 1 else f"{len(kept)} papers differ"
        warnings.append(
            f"{source}: {papers} here from the collection, whose text is kept (a record that "
            "is not the paper's own source, without its external ID or an export, only fills "
            f"empty fields; correct the text in the admin): {named}{more}"
        )
    return warnings
