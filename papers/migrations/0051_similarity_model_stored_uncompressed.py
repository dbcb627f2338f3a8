"""The similarity model's blob is stored uncompressed (papers/schema_sql.py SIMILARITY_TABLES
tells why): the storage of a column only, the rows as they were."""

from django.db import migrations

UNCOMPRESSED = "ALTER TABLE papers_similarity_state ALTER COLUMN model SET STORAGE EXTERNAL"
COMPRESSED = "ALTER TABLE papers_similarity_state ALTER COLUMN model SET STORAGE EXTENDED"


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0050_finance_rule_without_judicious"),
    ]

    operations = [migrations.RunSQL(UNCOMPRESSED, COMPRESSED)]
