"""Paper.search_vector written by a trigger instead of a generated column.

A generated column parses the whole row again whenever any of its inputs changes: every topic a
load's rules or model add to a paper re-parsed its abstract. The trigger (papers/schema_sql.py)
parses the names alone when only they change, and places them last in the vector for that.
"""

import django.contrib.postgres.search
from django.db import migrations

import papers.schema_sql

# The generated column as migration 0001 made it, for going back.
_GENERATED_COLUMN = """
DROP INDEX IF EXISTS paper_search_vector;
ALTER TABLE papers_paper DROP COLUMN search_vector;
ALTER TABLE papers_paper ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, COALESCE(title, '')), 'A')
    || setweight(to_tsvector('english'::regconfig, COALESCE(topic_names, '')), 'B')
    || setweight(to_tsvector('english'::regconfig, COALESCE(author_names, '')), 'B')
    || setweight(to_tsvector('english'::regconfig, COALESCE(abstract, '')), 'C')
) STORED;
CREATE INDEX paper_search_vector ON papers_paper USING gin (search_vector);
"""


class Migration(migrations.Migration):
    dependencies = [("papers", "0002_paperpage_people")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE papers_paper ALTER COLUMN search_vector DROP EXPRESSION",
                    _GENERATED_COLUMN,
                ),
                migrations.RunSQL(papers.schema_sql.FILL_SEARCH_VECTORS, migrations.RunSQL.noop),
                migrations.RunSQL(
                    papers.schema_sql.SEARCH_VECTOR_TRIGGER,
                    papers.schema_sql.DROP_SEARCH_VECTOR_TRIGGER,
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="paper",
                    name="search_vector",
                    field=django.contrib.postgres.search.SearchVectorField(
                        editable=False, null=True
                    ),
                ),
            ],
        ),
    ]
