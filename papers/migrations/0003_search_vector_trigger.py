"""Paper.search_vector written by a trigger instead of a generated column.

A generated column parses the whole row again whenever any of its inputs changes: every topic a
load's rules or model add to a paper re-parsed its abstract. The trigger (papers/schema_sql.py)
parses the names alone when only they change, and places them last in the vector for that.
"""

import django.contrib.postgres.search
from django.db import migrations


# As papers/schema_sql.py wrote them when this migration was released.
FILL_SEARCH_VECTORS = "UPDATE papers_paper AS p SET search_vector = setweight(to_tsvector('english', COALESCE(p.title, '')), 'A') || setweight(to_tsvector('english', COALESCE(p.abstract, '')), 'C') || setweight(to_tsvector('english', COALESCE(p.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(p.author_names, '')), 'B')"
SEARCH_VECTOR_TRIGGER = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names\n           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(NEW.title, '')), 'A') || setweight(to_tsvector('english', COALESCE(NEW.abstract, '')), 'C') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\nCREATE TRIGGER papers_paper_search_vector\nBEFORE INSERT OR UPDATE ON papers_paper\nFOR EACH ROW EXECUTE FUNCTION papers_paper_search_vector();\n"
DROP_SEARCH_VECTOR_TRIGGER = "\nDROP TRIGGER IF EXISTS papers_paper_search_vector ON papers_paper;\nDROP FUNCTION IF EXISTS papers_paper_search_vector();\n"

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
    dependencies = [("papers", "0002_collection_at_scale")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE papers_paper ALTER COLUMN search_vector DROP EXPRESSION",
                    _GENERATED_COLUMN,
                ),
                migrations.RunSQL(FILL_SEARCH_VECTORS, migrations.RunSQL.noop),
                migrations.RunSQL(
                    SEARCH_VECTOR_TRIGGER,
                    DROP_SEARCH_VECTOR_TRIGGER,
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
