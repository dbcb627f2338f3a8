"""Topic names out of the search vector: a topic is a filter, not words of the paper.

Read as text, a topic's name matched every paper a rule or the model had tagged with it:
"argument mining" found 823 papers, 782 of them by the name of the topic "Sentiment Analysis
and Argument Mining" alone, and "culture" 1,614, most by "Computational Social Science and
Culture". The vector keeps the title (A), the abstract (C) and the authors' names (B). The
papers with topics get their vectors' names part again (the title and abstract part kept as it
is, as the trigger does for a change of names), with the trigger that would keep the old vector
off for the statement; the narrow rows follow by their own trigger, and the word statistics are
recounted.
"""

from django.db import migrations

# As papers/schema_sql.py wrote them when this migration was released (later changes there
# belong to later migrations).
SEARCH_VECTOR_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'INSERT' AND current_setting('papers.loader_vectors', true) = 'on' THEN\n        RETURN NEW;\n    END IF;\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names || ' ' || papers_unaccented(NEW.author_names)), '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names || ' ' || papers_unaccented(NEW.author_names)), '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"
OLD_SEARCH_VECTOR_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'INSERT' AND current_setting('papers.loader_vectors', true) = 'on' THEN\n        RETURN NEW;\n    END IF;\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names\n           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.topic_names), '')), 'B') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names || ' ' || papers_unaccented(NEW.author_names)), '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.topic_names), '')), 'B') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names || ' ' || papers_unaccented(NEW.author_names)), '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"
NAMES_VECTOR = "setweight(to_tsvector('english', COALESCE(papers_compounds(author_names || ' ' || papers_unaccented(author_names)), '')), 'B')"
OLD_NAMES_VECTOR = "setweight(to_tsvector('english', COALESCE(papers_compounds(topic_names), '')), 'B') || setweight(to_tsvector('english', COALESCE(papers_compounds(author_names || ' ' || papers_unaccented(author_names)), '')), 'B')"


def _names_again(names_vector: str) -> str:
    """The vectors of the papers with topics, their names part parsed with ``names_vector``,
    then the word statistics recounted."""
    return f"""
ALTER TABLE papers_paper DISABLE TRIGGER papers_paper_search_vector;
UPDATE papers_paper SET search_vector = ts_filter(search_vector, '{{a,c}}') || {names_vector}
WHERE topic_names <> '';
ALTER TABLE papers_paper ENABLE TRIGGER papers_paper_search_vector;
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""


class Migration(migrations.Migration):
    dependencies = [("papers", "0025_merged_key_paper_kind")]

    operations = [
        migrations.RunSQL(SEARCH_VECTOR_FUNCTION, OLD_SEARCH_VECTOR_FUNCTION),
        migrations.RunSQL(_names_again(NAMES_VECTOR), _names_again(OLD_NAMES_VECTOR)),
    ]
