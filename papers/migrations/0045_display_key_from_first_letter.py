"""Title A–Z's key starts at the title's first letter or digit, without accents: quotes,
brackets, symbols and a LaTeX command before it are passed over ("“Judge me by my size”" under
J, "\\textit{GeoHard}" under G), and "Ìròyìn" sorts under I. 108 titles of the Anthology folder
sorted after Z, as the C collation orders punctuation and accented letters.

A generated column's expression cannot be altered in place (PostgreSQL 15, Django): the column
is dropped, which drops the three indexes holding it, and added again with its storage plain,
in the row (as migration 0020 made it), then the indexes are built again. The pattern is a
frozen copy of papers/expressions.py DISPLAY_KEY_PASSED.
"""

import django.db.models.functions.comparison
import django.db.models.functions.text
from django.db import migrations, models

PASSED = "^(\\\\[A-Za-z]+|[\\s!-/:-@[-`{-~«»¡¿\u2000-\u2bff\U0001f300-\U0001faff])+"
_TEXT = """LEFT(COALESCE(NULLIF("title", ''), "abstract"), 400)"""
NEW_KEY = (
    f"LOWER(LEFT(regexp_replace(COALESCE(NULLIF(papers_unaccented({_TEXT}), ''), {_TEXT}), "
    f"'{PASSED}', ''), 200))"
)
OLD_KEY = """LOWER(LEFT(COALESCE(NULLIF("title", ''), "abstract"), 200))"""
INDEXES = """
CREATE INDEX paper_venue_order ON papers_paper (venue_id, complete, number, display_key, id);
CREATE INDEX paper_title_order ON papers_paper (complete DESC, display_key, id);
CREATE INDEX paper_title_opening ON papers_paper (display_key text_pattern_ops) WHERE complete;
"""


def _column(key: str) -> str:
    return (
        'ALTER TABLE "papers_paper" DROP COLUMN "display_key"; '
        f'ALTER TABLE "papers_paper" ADD COLUMN "display_key" text GENERATED ALWAYS AS ({key}) '
        'STORED, ALTER COLUMN "display_key" SET STORAGE PLAIN;' + INDEXES
    )


def _text():
    return django.db.models.functions.text.Left(
        django.db.models.functions.comparison.Coalesce(
            django.db.models.functions.comparison.NullIf("title", models.Value("")), "abstract"
        ),
        400,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0044_author_joined_key"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(_column(NEW_KEY), _column(OLD_KEY))],
            state_operations=[
                migrations.AlterField(
                    model_name="paper",
                    name="display_key",
                    field=models.GeneratedField(
                        db_persist=True,
                        expression=django.db.models.functions.text.Lower(
                            django.db.models.functions.text.Left(
                                models.Func(
                                    django.db.models.functions.comparison.Coalesce(
                                        django.db.models.functions.comparison.NullIf(
                                            models.Func(
                                                _text(),
                                                function="papers_unaccented",
                                                output_field=models.TextField(),
                                            ),
                                            models.Value(""),
                                        ),
                                        _text(),
                                    ),
                                    models.Value(PASSED),
                                    models.Value(""),
                                    function="regexp_replace",
                                ),
                                200,
                            )
                        ),
                        output_field=models.TextField(),
                    ),
                ),
            ],
        ),
    ]
