import papers.schema_sql
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("papers", "0001_initial")]

    operations = [
        migrations.RunSQL(
            papers.schema_sql.SIMILARITY_MODEL, papers.schema_sql.DROP_SIMILARITY_MODEL
        ),
    ]
