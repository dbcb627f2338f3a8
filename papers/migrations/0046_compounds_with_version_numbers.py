"""papers_compounds reads a version number as one part of a compound ("GPT-3.5": "GPT3.5 GPT
3.5", "Qwen2.5-7B": "Qwen2.57B Qwen2.5 7B"). It read "GPT-3.5" as "GPT3 GPT 3" and a ".5" left
over, and the query, folded to "GPT3.5", found 23 of the 277 papers of the Anthology folder
writing it (an outside tester). The papers whose text has such a compound (514 of the folder's)
are parsed again, with the trigger off (it keeps a vector whose text did not change), their
title vectors with them (a generated column, computed again as the row is written); the word
statistics are recounted (as at 0042)."""

from django.db import migrations

# The function as 0032 wrote it, and with version-number parts (frozen copies:
# papers/schema_sql.py describes the current one).
OLD_COMPOUNDS_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_compounds(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(t, '(\\w+)-(\\w+)(?:-(\\w+)(?:-(\\w+))?)?', '\\1\\2\\3\\4 \\1 \\2 \\3 \\4', 'g') $$
"""
COMPOUNDS_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_compounds(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(t, '(\\w+(?:\\.\\d+)*)-(\\w+(?:\\.\\d+)*)(?:-(\\w+(?:\\.\\d+)*)(?:-(\\w+(?:\\.\\d+)*))?)?', '\\1\\2\\3\\4 \\1 \\2 \\3 \\4', 'g') $$
"""
SEARCH_VECTOR = "setweight(to_tsvector('english', COALESCE(papers_compounds(title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(author_names || ' ' || papers_unaccented(author_names) || ' ' || papers_written_out(author_names)), '')), 'B')"
# A number with decimals beside a compound's hyphen: the texts the two functions part apart.
VERSIONED = "'\\.\\d+-\\w|\\w-\\w+\\.\\d'"
PARSED_AGAIN = f"""
ALTER TABLE papers_paper DISABLE TRIGGER papers_paper_search_vector;
UPDATE papers_paper SET title = title, search_vector = {SEARCH_VECTOR}
WHERE title ~ {VERSIONED} OR abstract ~ {VERSIONED} OR author_names ~ {VERSIONED};
ALTER TABLE papers_paper ENABLE TRIGGER papers_paper_search_vector;
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0045_display_key_from_first_letter"),
    ]

    operations = [
        # One operation each way: the vectors are parsed again by the function it leaves.
        migrations.RunSQL(
            [COMPOUNDS_FUNCTION, PARSED_AGAIN], [OLD_COMPOUNDS_FUNCTION, PARSED_AGAIN]
        ),
    ]
