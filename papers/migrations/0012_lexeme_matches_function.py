"""papers_lexeme_matches: the ids of the papers whose stripped vector (PaperFacets.lexemes)
matches a query, always through that vector's GIN index. The facets of a common word were
counted from every narrow row, each row's vector tested, where the index's bitmap needs no
test (papers/schema_sql.py LEXEME_MATCHES_FUNCTION)."""

from django.db import migrations

LEXEME_MATCHES = """
CREATE OR REPLACE FUNCTION papers_lexeme_matches(q tsquery)
RETURNS TABLE (id bigint)
LANGUAGE sql STABLE ROWS 10000
SET enable_seqscan = off
SET enable_indexscan = off
AS $$ SELECT f.paper_id FROM papers_paperfacets f WHERE f.lexemes @@ q $$
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0011_title_vector_stored"),
    ]

    operations = [
        migrations.RunSQL(
            LEXEME_MATCHES, "DROP FUNCTION IF EXISTS papers_lexeme_matches(tsquery)"
        ),
    ]
