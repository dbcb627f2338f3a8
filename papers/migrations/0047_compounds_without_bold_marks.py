"""papers_compounds drops markdown's bold marks before it reads the compounds: an abstract
writing "**M**ultiprompt finetuning and prediction **E**nsembling" (115 of the Anthology
folder's write a word so) was parsed as "M" and "ultiprompt", and /?q=multiprompt missed it
(an outside researcher). The papers whose text has "**" are parsed again, as at 0046, and the
word statistics recounted."""

from django.db import migrations

# The function as 0046 wrote it, and with the marks dropped first (frozen copies:
# papers/schema_sql.py describes the current one).
OLD_COMPOUNDS_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_compounds(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(t, '(\\w+(?:\\.\\d+)*)-(\\w+(?:\\.\\d+)*)(?:-(\\w+(?:\\.\\d+)*)(?:-(\\w+(?:\\.\\d+)*))?)?', '\\1\\2\\3\\4 \\1 \\2 \\3 \\4', 'g') $$
"""
COMPOUNDS_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_compounds(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(replace(t, '**', ''), '(\\w+(?:\\.\\d+)*)-(\\w+(?:\\.\\d+)*)(?:-(\\w+(?:\\.\\d+)*)(?:-(\\w+(?:\\.\\d+)*))?)?', '\\1\\2\\3\\4 \\1 \\2 \\3 \\4', 'g') $$
"""
SEARCH_VECTOR = "setweight(to_tsvector('english', COALESCE(papers_compounds(title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(author_names || ' ' || papers_unaccented(author_names) || ' ' || papers_written_out(author_names)), '')), 'B')"
MARKED = "'%**%'"
PARSED_AGAIN = f"""
ALTER TABLE papers_paper DISABLE TRIGGER papers_paper_search_vector;
UPDATE papers_paper SET title = title, search_vector = {SEARCH_VECTOR}
WHERE title LIKE {MARKED} OR abstract LIKE {MARKED} OR author_names LIKE {MARKED};
ALTER TABLE papers_paper ENABLE TRIGGER papers_paper_search_vector;
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0046_compounds_with_version_numbers"),
    ]

    operations = [
        # One operation each way: the vectors are parsed again by the function it leaves.
        migrations.RunSQL(
            [COMPOUNDS_FUNCTION, PARSED_AGAIN], [OLD_COMPOUNDS_FUNCTION, PARSED_AGAIN]
        ),
    ]
