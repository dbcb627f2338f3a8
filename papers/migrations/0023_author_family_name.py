"""Authors' family names, where the source tells them (the Anthology's <last>), for citations.

"Luis Espinosa Anke" was cited as "Anke, Luis Espinosa": the exports took the last word for
the family name. A column with a constant default: PostgreSQL adds it without rewriting the
table. Loads fill it from now on: for each author they write, and for the authors of papers
already loaded, at their places, when a load reads those papers again.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0022_unaccented_author_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="author",
            name="family_name",
            field=models.CharField(
                blank=True,
                default="",
                help_text=(
                    'The family name, where the source tells it ("Espinosa Anke" of "Luis '
                    'Espinosa Anke"); empty: the last word of the name. Citations write '
                    '"Family, Given".'
                ),
                max_length=300,
            ),
        ),
    ]
