"""papers_lexeme_match_ids and papers_text_match_ids: every match of a query as one bytea of
8-byte ids, aggregated where the matches are found (papers/schema_sql.py
LEXEME_MATCH_IDS_FUNCTION), in place of papers_lexeme_matches, whose rows went through a
function scan, a union and a CTE before they were aggregated (a common word's facets at
100,000 papers: about 50 -> 32 ms)."""

from django.db import migrations

LEXEME_MATCH_IDS = """
CREATE OR REPLACE FUNCTION papers_lexeme_match_ids(q tsquery)
RETURNS bytea
LANGUAGE sql STABLE
SET enable_seqscan = off
SET enable_indexscan = off
AS $$ SELECT string_agg(int8send(f.paper_id), ''::bytea) FROM papers_paperfacets f WHERE f.lexemes @@ q $$
"""

TEXT_MATCH_IDS = """
CREATE OR REPLACE FUNCTION papers_text_match_ids(q tsquery)
RETURNS bytea
LANGUAGE sql STABLE
SET enable_seqscan = off
SET enable_indexscan = off
AS $$ SELECT string_agg(int8send(p.id), ''::bytea) FROM papers_paper p WHERE p.search_vector @@ q $$
"""

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
        ("papers", "0013_search_vector_inline"),
    ]

    operations = [
        migrations.RunSQL(
            LEXEME_MATCH_IDS, "DROP FUNCTION IF EXISTS papers_lexeme_match_ids(tsquery)"
        ),
        migrations.RunSQL(TEXT_MATCH_IDS, "DROP FUNCTION IF EXISTS papers_text_match_ids(tsquery)"),
        migrations.RunSQL(
            "DROP FUNCTION IF EXISTS papers_lexeme_matches(tsquery)", LEXEME_MATCHES
        ),
    ]
