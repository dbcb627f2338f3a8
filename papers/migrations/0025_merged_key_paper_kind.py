"""A merged-away paper's own id among its merged keys: its old address leads to the survivor.

Only the field's choices change (no SQL): /papers/<id>/ of a paper a curator merged into
another redirected nowhere (a 404), so bookmarks and reading lists lost it.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0024_author_keys_fold_accents"),
    ]

    operations = [
        migrations.AlterField(
            model_name="mergedkey",
            name="kind",
            field=models.CharField(
                choices=[
                    ("id", "External Id"),
                    ("abstract", "Abstract"),
                    ("title", "Title"),
                    ("paper", "Paper"),
                ],
                max_length=10,
            ),
        ),
    ]
