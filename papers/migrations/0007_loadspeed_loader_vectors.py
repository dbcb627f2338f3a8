"""The search vector's trigger keeps the vectors a load computed for its new papers.

A load computes its new papers' vectors set-based before its topic rules and model run on them,
then writes each new paper's row once, with its final names and vector (papers/staging.py),
instead of writing it and rewriting it when the rules and the model add topics. The trigger
keeps a vector given by an INSERT only in a transaction that set papers.loader_vectors
(papers/schema_sql.py); every other write is computed as before.
"""

from django.db import migrations

# The function as this migration makes it (written out: later changes to papers/schema_sql.py
# belong to later migrations).
SEARCH_VECTOR_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'INSERT' AND current_setting('papers.loader_vectors', true) = 'on' THEN\n        RETURN NEW;\n    END IF;\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names\n           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(NEW.title, '')), 'A') || setweight(to_tsvector('english', COALESCE(NEW.abstract, '')), 'C') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"

# The function as migration 0003 made it, for going back.
SEARCH_VECTOR_FUNCTION_0003 = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names\n           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(NEW.title, '')), 'A') || setweight(to_tsvector('english', COALESCE(NEW.abstract, '')), 'C') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"


class Migration(migrations.Migration):
    dependencies = [("papers", "0006_topics_compression_rule")]

    operations = [
        migrations.RunSQL(SEARCH_VECTOR_FUNCTION, SEARCH_VECTOR_FUNCTION_0003),
    ]
