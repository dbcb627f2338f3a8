"""External IDs as the loader now reads them (papers/anthology_metadata.py
canonical_external_id): without spaces around them, an Anthology ID in its own case
("2024.TACL-1.3 " is 2024.tacl-1.3). A paper stored with another spelling would otherwise be
loaded again under the canonical one (a reviewer). The keys merges and deletions kept for
external IDs are rewritten the same way. A paper whose canonical ID another paper holds
already (a copy loaded before this) keeps its own, for a curator to merge; so does a kept
key. The rule is written here as it stands at this migration.
"""

from django.db import migrations

_CANONICAL = r"""CASE
    WHEN btrim({column}) ~* '^[0-9]{{4}}\.[a-z0-9-]+\.[0-9]+$' THEN lower(btrim({column}))
    WHEN btrim({column}) ~* '^[a-z][0-9]{{2}}-[0-9]{{4}}$' THEN upper(btrim({column}))
    ELSE btrim({column}) END"""

_PAPERS = f"""
WITH canonical AS (
    SELECT DISTINCT ON (c.id_written) c.id, c.id_written
    FROM (SELECT id, {_CANONICAL.format(column="external_id")} AS id_written
          FROM papers_paper WHERE external_id IS NOT NULL) AS c
    JOIN papers_paper AS p ON p.id = c.id
    WHERE p.external_id <> c.id_written
      AND NOT EXISTS (SELECT 1 FROM papers_paper o WHERE o.external_id = c.id_written)
    ORDER BY c.id_written, c.id
)
UPDATE papers_paper AS p SET external_id = canonical.id_written
FROM canonical WHERE p.id = canonical.id
"""

_KEYS = """
WITH canonical AS (
    SELECT DISTINCT ON (c.key_written) c.id, c.key_written
    FROM (SELECT id, {canonical} AS key_written FROM {table} WHERE kind = 'id') AS c
    JOIN {table} AS k ON k.id = c.id
    WHERE k.key <> c.key_written
      AND NOT EXISTS (SELECT 1 FROM {table} o WHERE o.kind = 'id' AND o.key = c.key_written)
    ORDER BY c.key_written, c.id
)
UPDATE {table} AS k SET key = canonical.key_written FROM canonical WHERE k.id = canonical.id
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0038_abstract_keys_without_invisible_characters"),
    ]

    operations = [
        migrations.RunSQL(_PAPERS, migrations.RunSQL.noop, elidable=False),
        *(
            migrations.RunSQL(
                _KEYS.format(table=table, canonical=_CANONICAL.format(column="key")),
                migrations.RunSQL.noop,
                elidable=False,
            )
            for table in ("papers_mergedkey", "papers_deletedkey")
        ),
    ]
