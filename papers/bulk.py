"""Bulk writes for loads: COPY, ids drawn from sequences, batches, lookups of many keys,
fresh planner statistics."""

from collections.abc import Iterable
from itertools import islice

from django.db import connection
from django.db.models import Field, ForeignObject, Lookup

BATCH_SIZE = 2000


class AnyOf(Lookup):
    """``field__any_of=values``: the values sent as one array (``= ANY(%s)``), where ``__in``
    sends one parameter each: a batch of a load's keys is compiled and bound 3-4x faster."""

    lookup_name = "any_of"
    prepare_rhs = False

    def as_sql(self, compiler, connection):
        lhs, params = self.process_lhs(compiler, connection)
        return f"{lhs} = ANY(%s)", [*params, list(self.rhs)]


# A foreign key's lookups are its own (ForeignObject's), not those of Field.
Field.register_lookup(AnyOf)
ForeignObject.register_lookup(AnyOf)


def batched(items: Iterable, size: int = BATCH_SIZE):
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def analyze_tables(models) -> None:
    """Fresh planner statistics for the tables a load wrote (its last step's plans read them)."""
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f'ANALYZE "{model._meta.db_table}"')


def allocate_ids(model, count: int) -> list[int]:
    """Draw ids from the table's sequence, for rows written with COPY."""
    if not count:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [model._meta.db_table, count],
        )
        return [row[0] for row in cursor.fetchall()]


def copy_rows(model, columns: list[str], rows: Iterable[tuple]) -> None:
    """Write many rows with COPY: far cheaper than INSERT statements for large loads."""
    copy_into(f'"{model._meta.db_table}"', columns, rows)


def copy_into(table: str, columns: list[str], rows: Iterable[tuple]) -> None:
    """COPY rows into a table named as SQL (quoted or schema-qualified as needed)."""
    names = ", ".join(f'"{column}"' for column in columns)
    with (
        # COPY goes through psycopg's own cursor: its errors become Django's here.
        connection.wrap_database_errors,
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


# For the load's transaction only (SET LOCAL). A load is all or nothing and can be run again,
# so its commit need not wait for the disk (a crash right after it loses the load, nothing
# else). New GIN entries gather in a larger pending list and are merged into the indexes in a
# few large sorted passes, at the end (merge_pending_index_entries), not in many small ones.
_LOAD_SETTINGS = {
    "synchronous_commit": "off",
    "gin_pending_list_limit": "65536",  # kB
    "work_mem": "65536",  # kB: the set-based passes group and join whole loads
}


def use_load_settings() -> None:
    with connection.cursor() as cursor:
        for name, value in _LOAD_SETTINGS.items():
            cursor.execute("SELECT set_config(%s, %s, true)", [name, value])


def merge_pending_index_entries(*models) -> None:
    """Move the models' GIN indexes' pending entries into the indexes, so searches need not
    scan them (one statement)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam "
            "WHERE i.indrelid = ANY(%s::regclass[]) AND a.amname = 'gin'",
            [[model._meta.db_table for model in models]],
        )
