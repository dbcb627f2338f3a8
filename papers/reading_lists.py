"""Reading lists without accounts: a list is its URL, ``/list/?ids=3,1,2`` (papers in order;
Anthology IDs too).

The browser keeps the reader's own list (static/js/lists.js); the server only reads the ids
from the URL, so a shared list opens anywhere, with no script.
"""

import re

from .anthology_metadata import canonical_anthology_id, is_anthology_id
from .merged_keys import EXTERNAL_ID, PAPER, survivors_of
from .models import Paper

MAX_IDS = 500
_ID = re.compile(r"[0-9]{1,18}")


class BadList(ValueError):
    """The ids parameter is not a list of paper ids (the message says why)."""


def parse_ids(raw: str) -> tuple[list[int | str], int]:
    """(the papers of "3,1,2", how many parts name no paper): each a number, or an Anthology
    ID ("2023.emnlp-main.495", in any case), which outlives the numbers of one database;
    spaces allowed, repeats dropped. A part that is neither is left out and counted, as an
    id naming no paper is: one mistyped id no longer lost a shared list. BadList when no part
    is an id, or for too many."""
    parts = [part.strip() for part in raw.replace(" ", ",").split(",") if part.strip()]
    bad = [part for part in parts if not (_ID.fullmatch(part) or is_anthology_id(part))]
    if bad and len(bad) == len(parts):
        raise BadList(
            f"ids must be paper numbers or Anthology IDs separated by commas, not “{bad[0][:50]}”."
        )
    ids = list(
        dict.fromkeys(
            int(part) if _ID.fullmatch(part) else canonical_anthology_id(part)
            for part in parts
            if part not in bad
        )
    )
    if len(ids) > MAX_IDS:
        raise BadList(f"A list holds at most {MAX_IDS} papers; this one has {len(ids)}.")
    return ids, len(dict.fromkeys(bad))


def _numbered(ids: list[int | str]) -> list[int | str]:
    """The ids with each Anthology ID replaced by its paper's number (the paper it was merged
    into, for a merged-away one); one that names no paper is left as it is (1 query, +1 when
    some name none; none without Anthology IDs)."""
    named = [key for key in ids if isinstance(key, str)]
    if not named:
        return ids
    numbers = dict(Paper.objects.filter(external_id__in=named).values_list("external_id", "pk"))
    numbers.update(survivors_of(EXTERNAL_ID, [key for key in named if key not in numbers]))
    return [numbers.get(key, key) if isinstance(key, str) else key for key in ids]


def list_papers(ids: list[int | str]) -> tuple[list[Paper], int]:
    """(the papers with these ids, in the list's order, with their venues and first authors
    (1 query, after ``_numbered``'s for Anthology IDs); how many ids name no paper). A paper a
    curator merged away is the paper it went into (once, at its first place): 1 more query
    when some id names no paper, and 1 more when some of those were merged away."""
    ids = _numbered(ids)
    numbers = [key for key in ids if isinstance(key, int)]
    papers = Paper.objects.select_related("venue").with_first_authors()
    found = papers.in_bulk(numbers)
    missing = [str(pk) for pk in numbers if pk not in found]
    moved = survivors_of(PAPER, missing)
    if moved:
        found.update(papers.in_bulk(list(moved.values())))
    order = dict.fromkeys(moved.get(str(pk), pk) for pk in numbers)
    unknown = (
        len(ids) - len(numbers) + sum(pk not in found and str(pk) not in moved for pk in numbers)
    )
    return [found[pk] for pk in order if pk in found], unknown
