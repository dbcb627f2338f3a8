"""A load's new papers, staged so that each one's row is written once, with every derived column.

Inside ``staging()`` the loader copies its new papers into a staged table (COPY) and computes
their title-and-abstract vectors there in one set-based pass (``stage_papers``). The
topic rules and the topic model read the collection through ``papers_source()``, which then
adds the staged papers to the papers table, and write their links before the papers exist (the
links' foreign keys are checked at commit). ``move_staged()`` then writes the staged papers into
the papers table in one INSERT, with their topic and author names and the whole search vector,
which the trigger keeps (schema_sql.LOADER_VECTORS_SETTING). Without staging, a new paper's row
and its sixteen index entries were written by the COPY and written again when the rules and the
model gave it topics (most of the papers of a large load).
"""

from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial

from django.db import DatabaseError, connection, transaction

from .bulk import BATCH_SIZE, batched, copy_into, copy_rows
from .denormalise import AUTHOR_NAMES_BY_PAPER, TOPIC_NAMES_BY_PAPER
from .load_guard import refused_copy_row
from .models import Paper
from .schema_sql import LOADER_VECTORS_SETTING, names_vector, text_vector
from .tables import sql

# Unlogged, not temporary: parallel workers cannot read a temporary table, and the parse of the
# titles and abstracts into vectors, most of a fresh load's database time, is shared by them
# (the Anthology's 26,014 papers on two busy cores: 5.9 -> 3.6 s). Created and dropped in the
# load's transaction, it is never seen outside it, nor left behind when the load fails.
STAGED = "papers_staged"
# The staged papers' ids, external ids and title-and-abstract vectors: a narrow table of its
# own, written once (an UPDATE of the staged rows would write every row twice).
STAGED_VECTORS = "pg_temp.papers_staged_vectors"

# A new paper's columns as the loader writes them; the database computes the generated ones,
# and the names and the vector are made from the links as the row is moved.
_COPIED = [
    field
    for field in Paper._meta.concrete_fields
    if not field.generated and field.name != "search_vector"
]
_COLUMNS = [field.column for field in _COPIED]
_MOVED_COLUMNS = [column for column in _COLUMNS if column not in ("topic_names", "author_names")]

_STAGING: ContextVar[bool] = ContextVar("papers_staging", default=False)


@contextmanager
def staging():
    """An empty staged table for the block, in the caller's transaction, dropped at the block's
    end (a failed block's rollback drops it too); papers_source() includes it."""
    with connection.cursor() as cursor:
        # The papers table's columns, types and NOT NULLs (so COPY refuses what it would), no
        # indexes, triggers or generated columns (the INSERT into the papers table makes those).
        cursor.execute(
            sql(
                f"DROP TABLE IF EXISTS {STAGED}, {STAGED_VECTORS}; "
                f"CREATE UNLOGGED TABLE {STAGED} (LIKE {{paper}})"
            )
        )
    token = _STAGING.set(True)
    try:
        yield
    finally:
        _STAGING.reset(token)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {STAGED}")


def stage_papers(papers: list[Paper], advance) -> None:
    """COPY new papers (ids drawn) into the staged table in batches, telling ``advance`` the
    number done after each, then compute their title-and-abstract vectors (the names are
    added as they move)."""
    for done, chunk in enumerate(batched(papers), start=1):
        _copy_papers(partial(copy_into, STAGED), chunk)
        advance(min(done * BATCH_SIZE, len(papers)))
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {STAGED_VECTORS} ON COMMIT DROP AS "
            f"SELECT s.id, s.external_id, {text_vector('s')} AS search_vector FROM {STAGED} s"
        )
        cursor.execute(f"ANALYZE {STAGED_VECTORS} (id)")


def _copy_papers(copy, papers: list[Paper]) -> None:
    """COPY papers with ``copy(columns, rows)``; a refused row names its paper."""
    rows = (tuple(getattr(paper, field.attname) for field in _COPIED) for paper in papers)
    try:
        copy(_COLUMNS, rows)
    except DatabaseError as error:
        if row := refused_copy_row(error):
            error.paper = papers[row - 1]
        raise


def papers_source() -> str:
    """The collection's papers as a FROM item with id, external_id and search_vector: the
    papers table, and the staged papers too while staging (their vectors without names, which
    the rules and the model leave out)."""
    if not _STAGING.get():
        return sql("{paper}")
    staged = f"SELECT id, external_id, search_vector FROM {STAGED_VECTORS}"
    return sql(f"(SELECT id, external_id, search_vector FROM {{paper}} UNION ALL {staged})")


def collection_size() -> int:
    """The number of papers, the staged ones included."""
    if not _STAGING.get():
        return Paper.objects.count()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {STAGED_VECTORS}")
        return Paper.objects.count() + cursor.fetchone()[0]


def move_staged(papers: list[Paper]) -> None:
    """Write the staged papers into the papers table. When the database refuses them, the
    paper it refuses is found by copying them there (COPY names the row it refuses)."""
    try:
        with transaction.atomic():
            _insert_staged()
    except DatabaseError:
        for chunk in batched(papers):
            with transaction.atomic():
                _copy_papers(partial(copy_rows, Paper), chunk)
        raise


def _insert_staged() -> None:
    """One INSERT: each staged paper with its topic and author names from its links and its
    whole vector, which the trigger keeps (schema_sql.LOADER_VECTORS_SETTING)."""
    names = ", ".join(f'"{column}"' for column in _MOVED_COLUMNS)
    staged_ids = f"SELECT id FROM {STAGED_VECTORS}"  # analysed: the plans know its size
    statement = sql(
        'INSERT INTO "{paper}" ({names}, topic_names, author_names, search_vector) '
        "SELECT {staged}, n.topic_names, n.author_names, v.search_vector || {names_vector} "
        "FROM {table} staged JOIN {vectors} v ON v.id = staged.id "
        "LEFT JOIN ({topic_names}) topics ON topics.paper_id = staged.id "
        "LEFT JOIN ({author_names}) authors ON authors.paper_id = staged.id CROSS JOIN LATERAL "
        "(SELECT COALESCE(topics.names, '') AS topic_names, "
        "COALESCE(authors.names, '') AS author_names) n "
        "ORDER BY staged.id",
        names=names,
        staged=", ".join(f'staged."{column}"' for column in _MOVED_COLUMNS),
        names_vector=names_vector("n"),
        table=STAGED,
        vectors=STAGED_VECTORS,
        topic_names=sql(TOPIC_NAMES_BY_PAPER, ids=staged_ids),
        author_names=sql(AUTHOR_NAMES_BY_PAPER, ids=staged_ids),
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config(%s, 'on', true)", [LOADER_VECTORS_SETTING])
        cursor.execute(statement)
        cursor.execute("SELECT set_config(%s, 'off', true)", [LOADER_VECTORS_SETTING])
        cursor.execute(f"TRUNCATE {STAGED}, {STAGED_VECTORS}")
