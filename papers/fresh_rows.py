"""A known paper's changes written over its row as it stands when written, not as it was read.

A load reads the papers its records match, decides their changes, then writes them: a curator
who saved one of them in between had the save overwritten by the load's stale copy, which the
admin had called "changed successfully" (an outside tester). The rows are locked when written
(SELECT … FOR UPDATE: a save after that waits for the load's commit, then is refused as stale)
and each gets only the fields the load changed, but those its curator has changed since.
"""

from .models import Paper

# A field written with another, and curated as that one.
_CURATED_AS = {"abstract_key": "abstract"}


def locked_with_changes(changes: list[tuple[Paper, list[str]]], now) -> list[Paper]:
    """The rows of the papers of ``changes`` (each the paper as the load changed it, and the
    names of the fields it changed), read now and locked until the load commits, with those
    fields set but the ones curated since, loaded ``now``. A paper deleted since is not
    written again (its links then make the database refuse the load, which writes nothing:
    load again); papers are not merged while a load runs (papers/merging.py)."""
    rows = Paper.objects.select_for_update().in_bulk([paper.pk for paper, _ in changes])
    fresh = []
    for paper, fields in changes:
        row = rows.get(paper.pk)
        if row is None:
            continue
        for name in fields:
            if _CURATED_AS.get(name, name) not in row.curated_fields:
                setattr(row, name, getattr(paper, name))
        row.last_loaded = now
        fresh.append(row)
    return fresh
