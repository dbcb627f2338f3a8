"""Reading lists without accounts: a list is its URL, ``/list/?ids=3,1,2`` (papers in order).

The browser keeps the reader's own list (static/js/lists.js); the server only reads the ids
from the URL, so a shared list opens anywhere, with no script.
"""

import re

from .merged_keys import PAPER
from .models import MergedKey, Paper

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


def list_papers(ids: list[int]) -> tuple[list[Paper], int]:
    """(the papers with these ids, in the list's order, with their venues and first authors
    (1 query); how many ids name no paper). A paper a curator merged away is the paper it
    went into (once, at its first place): 1 more query when some id names no paper, and 1
    more when some of those were merged away."""
    papers = Paper.objects.select_related("venue").with_first_authors()
    found = papers.in_bulk(ids)
    missing = [str(pk) for pk in ids if pk not in found]
    moved = dict(
        MergedKey.objects.filter(kind=PAPER, key__in=missing).values_list("key", "paper_id")
        if missing
        else []
    )
    if moved:
        found.update(papers.in_bulk(list(moved.values())))
    order = dict.fromkeys(moved.get(str(pk), pk) for pk in ids)
    unknown = sum(pk not in found and str(pk) not in moved for pk in ids)
    return [found[pk] for pk in order if pk in found], unknown
