"""papers_title_lexeme_match_ids: a query's title matches as one bytea of 8-byte ids, read from
the titles' stripped vectors (PaperFacets.title_lexemes), as papers_lexeme_match_ids reads the
whole papers' (papers/schema_sql.py TITLE_LEXEME_MATCH_IDS_FUNCTION): the words' title matches
papers/word_memory.py holds in memory."""

from django.db import migrations

TITLE_LEXEME_MATCH_IDS = """
CREATE OR REPLACE FUNCTION papers_title_lexeme_match_ids(q tsquery)
RETURNS bytea
LANGUAGE sql STABLE
SET enable_seqscan = off
SET enable_indexscan = off
AS $$ SELECT string_agg(int8send(f.paper_id), ''::bytea) FROM papers_paperfacets f WHERE f.title_lexemes @@ q $$
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0017_paper_title_without_trigram_index"),
    ]

    operations = [
        migrations.RunSQL(
            TITLE_LEXEME_MATCH_IDS,
            "DROP FUNCTION IF EXISTS papers_title_lexeme_match_ids(tsquery)",
        ),
    ]
