"""PaperFacets.title_lexemes: each paper's title vector stripped, beside its stripped search
vector, with its own GIN index, so that a ranked page's title matches under filters come from
combining the filters' indexes with the title's (a bitmap AND on the narrow rows) instead of
testing the title of each of the filters' papers (/?topic=…&q=models at 100,000 papers: the
title matches 25 -> 4 ms). The trigger papers_paper_lexemes keeps both in step
(papers/schema_sql.py LEXEMES_FUNCTION). The papers already loaded are counted here (moved
from 0005: it runs the live refresh_counts, which writes this column)."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations

# As papers/schema_sql.py wrote them when this migration was released.
LEXEMES_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_paper_lexemes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE papers_paperfacets f
    SET lexemes = strip(n.search_vector), title_lexemes = strip(n.title_vector)
    FROM changed n
    WHERE f.paper_id = n.id
      AND (f.lexemes IS DISTINCT FROM strip(n.search_vector)
           OR f.title_lexemes IS DISTINCT FROM strip(n.title_vector));
    RETURN NULL;
END $$;
"""

PREVIOUS_LEXEMES_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_paper_lexemes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE papers_paperfacets f SET lexemes = strip(n.search_vector)
    FROM changed n
    WHERE f.paper_id = n.id AND f.lexemes IS DISTINCT FROM strip(n.search_vector);
    RETURN NULL;
END $$;
"""

FILL_TITLE_LEXEMES = """
UPDATE papers_paperfacets f SET title_lexemes = strip(p.title_vector)
FROM papers_paper p WHERE p.id = f.paper_id
"""


def count_the_collection(apps, schema_editor):
    """Count the papers already loaded (a new database has none). It runs the live
    refresh_counts, so it belongs to the migration that completes the counts' tables: a later
    change of PaperFacets moves it to that migration."""
    from papers.counts import refresh_counts

    refresh_counts()


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0014_match_ids_functions"),
    ]

    operations = [
        migrations.AddField(
            model_name="paperfacets",
            name="title_lexemes",
            field=django.contrib.postgres.search.SearchVectorField(default=""),
        ),
        # Filled before the index is built (one build instead of an update per row).
        migrations.RunSQL(FILL_TITLE_LEXEMES, migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name="paperfacets",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["title_lexemes"], name="paperfacets_title_lexemes"
            ),
        ),
        migrations.RunSQL(LEXEMES_FUNCTION, PREVIOUS_LEXEMES_FUNCTION),
        migrations.RunPython(count_the_collection, migrations.RunPython.noop),
    ]
