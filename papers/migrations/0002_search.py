"""An expression index on the title's own tsvector, for the ranked search's title candidates.

The stored search_vector mixes title, names and abstract; to find "papers whose title matches"
without reading every matching row, search needs an index on the title alone. The expression
must stay identical to TITLE_VECTOR_SQL in papers/querysets.py for the planner to use it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("papers", "0001_initial")]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS paper_title_tsv ON papers_paper "
            "USING gin (to_tsvector('english'::regconfig, COALESCE(title, ''::text)))",
            "DROP INDEX IF EXISTS paper_title_tsv",
        ),
    ]
