"""Keep the denormalised name columns and the word statistics in step with the links.

Each function is one SQL statement over the papers given (or all), never a loop over papers.
A load runs its topic rules and topic model inside ``topic_names_deferred()``: each rewrites
the topic names of the papers it changed, and a paper's row (and its index entries) would be
written once per step; deferred, every paper is rewritten once, after both.
"""

from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connection

from .tables import sql

# A paper's names from its links: the aggregate over the links ``pt`` or ``w`` and what they
# join (templates for tables.sql), one definition for the passes below and for the papers a
# load writes (papers/staging.py).
_TOPIC_NAMES = "string_agg(t.name, ', ' ORDER BY t.name)"
_TOPIC_LINKS = "{paper_topic} pt JOIN {topic} t ON t.id = pt.topic_id"
_AUTHOR_NAMES = "string_agg(a.name, ', ' ORDER BY w.position)"
_AUTHOR_LINKS = "{authorship} w JOIN {author} a ON a.id = w.author_id"
# As a correlated expression over the paper row ``{row}``.
TOPIC_NAMES_OF = (
    f"COALESCE((SELECT {_TOPIC_NAMES} FROM {_TOPIC_LINKS} WHERE pt.paper_id = {{row}}.id), '')"
)
AUTHOR_NAMES_OF = (
    f"COALESCE((SELECT {_AUTHOR_NAMES} FROM {_AUTHOR_LINKS} WHERE w.paper_id = {{row}}.id), '')"
)
# As rows (paper_id, names) for the papers whose ids the subquery ``{ids}`` gives, aggregated
# in one pass over their links: for a load's thousands of papers, where a probe of the links'
# indexes per paper took five times longer (26,000 papers: 1.9 -> 0.35 s).
TOPIC_NAMES_BY_PAPER = (
    f"SELECT pt.paper_id, {_TOPIC_NAMES} AS names FROM {_TOPIC_LINKS} "
    "WHERE pt.paper_id IN ({ids}) GROUP BY pt.paper_id"
)
AUTHOR_NAMES_BY_PAPER = (
    f"SELECT w.paper_id, {_AUTHOR_NAMES} AS names FROM {_AUTHOR_LINKS} "
    "WHERE w.paper_id IN ({ids}) GROUP BY w.paper_id"
)

_NAMES_SQL = """
UPDATE {paper} AS paper
SET {column} = names.value
FROM (SELECT p.id, {value} AS value FROM {paper} p {where}) AS names
WHERE paper.id = names.id AND paper.{column} IS DISTINCT FROM names.value
"""


def _run_for_papers(column: str, value: str, paper_ids) -> int:
    where, params = "", []
    if paper_ids is not None:
        where, params = "WHERE p.id = ANY(%s)", [list(paper_ids)]
    statement = sql(_NAMES_SQL, column=column, value=sql(value, row="p"), where=where)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.rowcount


class Pending:
    """The papers whose refresh waits for the end of a deferring block (topic_names_deferred(),
    counts.counts_deferred())."""

    def __init__(self):
        self.ids: set[int] | None = set()  # None: every paper

    def add(self, paper_ids) -> None:
        if paper_ids is None or self.ids is None:
            self.ids = None
        else:
            self.ids.update(paper_ids)


_DEFERRED: ContextVar[Pending | None] = ContextVar("deferred_topic_names", default=None)


def refresh_topic_names(paper_ids=None) -> int:
    """Rewrite Paper.topic_names from the topic links; returns the number of papers changed
    (0 inside topic_names_deferred(), which only notes the papers for its one rewrite)."""
    pending = _DEFERRED.get()
    if pending is None:
        return _run_for_papers("topic_names", TOPIC_NAMES_OF, paper_ids)
    pending.add(paper_ids)
    return 0


@contextmanager
def deferring(variable: ContextVar):
    """Within the block, the refresh that reads ``variable`` only notes papers, in the Pending
    it yields."""
    pending = Pending()
    token = variable.set(pending)
    try:
        yield pending
    finally:
        variable.reset(token)


def topic_names_deferred():
    """Within the block, refresh_topic_names() only notes papers, in the Pending it yields (its
    ``ids``: a set, or None once every paper is noted): the caller rewrites them, once, after
    the block."""
    return deferring(_DEFERRED)


def refresh_author_names(paper_ids=None) -> int:
    """Rewrite Paper.author_names from the authorships; returns the number of papers changed."""
    return _run_for_papers("author_names", AUTHOR_NAMES_OF, paper_ids)


def refresh_lexemes() -> None:
    """Recount every word's document frequency from the search vectors (ts_stat)."""
    with connection.cursor() as cursor:
        cursor.execute(sql("DELETE FROM {lexeme}"))
        cursor.execute(
            sql(
                "INSERT INTO {lexeme} (word, documents, occurrences) "
                "SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM {paper}')"
            )
        )
