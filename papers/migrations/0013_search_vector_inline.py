"""The search vector is kept in the paper's row (storage MAIN): a long paper's abstract goes to
TOAST first. A phrase is tested on the positions of every paper whose vector has its words
(59,000 for "language models" at 100,000 papers); with both columns EXTENDED the vector, the
larger, went out of line, and fetching it back tripled that test (223 -> 96 ms). VACUUM FULL
stores the rows already there the new way (it locks the table for the rewrite: about 12 s at
100,000 papers), so this migration runs outside a transaction."""

from django.db import migrations


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("papers", "0012_lexeme_matches_function"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE papers_paper ALTER COLUMN search_vector SET STORAGE MAIN",
            "ALTER TABLE papers_paper ALTER COLUMN search_vector SET STORAGE EXTENDED",
        ),
        migrations.RunSQL("VACUUM FULL papers_paper", migrations.RunSQL.noop),
    ]
