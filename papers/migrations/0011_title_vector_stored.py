"""The title's vector is stored (Paper.title_vector, generated from the title as the expression
index paper_title_tsv computed it), and the index and papers_title_matches read the column.
Where filters and a query meet, the ranking tests the title of each of the filters' papers it
reads; parsing the title again per paper (to_tsvector over papers_compounds, ~0.06 ms) was
most of a filtered search's ranking at 100,000 papers. Paper.title_terms goes: the ranking
counts a title's words itself (papers/title_match.py)."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models

TITLE_MATCHES = """
CREATE OR REPLACE FUNCTION papers_title_matches(q tsquery)
RETURNS TABLE (id bigint)
LANGUAGE sql STABLE ROWS 1000
SET enable_seqscan = off
SET enable_indexscan = off
AS $$
SELECT p.id FROM papers_paper p
WHERE {title} @@ q
$$
"""
STORED = "p.title_vector"
PARSED = "to_tsvector('english'::regconfig, COALESCE(papers_compounds(p.title), ''::text))"


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0010_information_extraction_rule"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="paper",
            name="title_terms",
        ),
        migrations.RemoveIndex(
            model_name="paper",
            name="paper_title_tsv",
        ),
        migrations.AddField(
            model_name="paper",
            name="title_vector",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.contrib.postgres.search.SearchVector(
                    models.Func(
                        models.F("title"),
                        function="papers_compounds",
                        output_field=models.TextField(),
                    ),
                    config="english",
                ),
                output_field=django.contrib.postgres.search.SearchVectorField(),
            ),
        ),
        migrations.AddIndex(
            model_name="paper",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["title_vector"], name="paper_title_tsv"
            ),
        ),
        migrations.RunSQL(
            TITLE_MATCHES.format(title=STORED), TITLE_MATCHES.format(title=PARSED)
        ),
    ]
