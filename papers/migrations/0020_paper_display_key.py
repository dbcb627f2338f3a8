"""Title A–Z's key becomes a stored column, Paper.display_key, and the two order indexes hold it
instead of the expression: PostgreSQL cannot answer from an index on an expression of the title
without visiting each paper's row, so reading the title order's ids (the facet memory's, and a
deep page's skip) read every row; on the column they are an index-only scan.

The column is stored plain, in the row: by default PostgreSQL moves a wide row's values out of
line, small ones too (four in ten keys at 100,000 papers, beside the abstract and the vectors),
and sorting a topic's papers by an out-of-line key fetched it again at each comparison (the SQL
of page 40 of a topic A–Z: 25 -> 190 ms). Both settings are given in the one statement that
writes the column, so the rewrite of the table stores it so."""

import django.db.models.functions.comparison
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0019_link_indexes_without_duplicates"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="paper",
            name="paper_venue_order",
        ),
        migrations.RemoveIndex(
            model_name="paper",
            name="paper_title_order",
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    'ALTER TABLE "papers_paper" ADD COLUMN "display_key" text GENERATED ALWAYS AS '
                    """(LOWER(LEFT(COALESCE(NULLIF("title", ''), "abstract"), 200))) STORED, """
                    'ALTER COLUMN "display_key" SET STORAGE PLAIN',
                    'ALTER TABLE "papers_paper" DROP COLUMN "display_key"',
                )
            ],
            state_operations=[
                migrations.AddField(
                    model_name="paper",
                    name="display_key",
                    field=models.GeneratedField(
                        db_persist=True,
                        expression=django.db.models.functions.text.Lower(
                            django.db.models.functions.text.Left(
                                django.db.models.functions.comparison.Coalesce(
                                    django.db.models.functions.comparison.NullIf(
                                        "title", models.Value("")
                                    ),
                                    "abstract",
                                ),
                                200,
                            )
                        ),
                        output_field=models.TextField(),
                    ),
                ),
            ],
        ),
        migrations.AddIndex(
            model_name="paper",
            index=models.Index(
                models.F("venue"),
                models.F("complete"),
                models.F("number"),
                models.F("display_key"),
                models.F("id"),
                name="paper_venue_order",
            ),
        ),
        migrations.AddIndex(
            model_name="paper",
            index=models.Index(
                models.OrderBy(models.F("complete"), descending=True),
                models.F("display_key"),
                models.F("id"),
                name="paper_title_order",
            ),
        ),
    ]
