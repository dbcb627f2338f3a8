"""Reading lists without accounts: a list is its URL, ``/list/?ids=3,1,2`` (papers in order).

The browser keeps the reader's own list (static/js/lists.js); the server only reads the ids
from the URL, so a shared list opens anywhere, with no script.
"""

import re

from .models import Paper

MAX_IDS = 500
_ID = re.compile(r"[0-9]{1,18}")


class BadList(ValueError):
    """The ids parameter is not a list of paper ids (the message says why)."""


def parse_ids(raw: str) -> list[int]:
    """The ids of "3,1,2" (spaces allowed, repeats dropped), or BadList."""
    parts = [part.strip() for part in raw.replace(" ", ",").split(",") if part.strip()]
    bad = [part for part in parts if not _ID.fullmatch(part)]
    if bad:
        raise BadList(f"ids must be paper numbers separated by commas, not “{bad[0][:50]}”.")
    ids = list(dict.fromkeys(int(part) for part in parts))
    if len(ids) > MAX_IDS:
        raise BadList(f"A list holds at most {MAX_IDS} papers; this one has {len(ids)}.")
    return ids


def list_papers(ids: list[int]) -> list[Paper]:
    """The papers with these ids that exist, in the list's order, with their venues and first
    authors (1 query)."""
    found = Paper.objects.select_related("venue").with_first_authors().in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]
