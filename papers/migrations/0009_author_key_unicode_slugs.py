"""Authors keyed by their normalised name (not their slug), and slugs in any script."""

import unicodedata

from django.db import migrations, models


def fill_author_keys(apps, schema_editor):
    """The key as papers.text.name_key computes it (copied: a migration must not change)."""
    author_model = apps.get_model("papers", "Author")
    authors = list(author_model.objects.only("id", "name"))
    for author in authors:
        author.key = " ".join(unicodedata.normalize("NFKC", author.name).casefold().split())
    author_model.objects.bulk_update(authors, ["key"], batch_size=5000)


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0008_paper_abstract_once"),
    ]

    operations = [
        migrations.AddField(
            model_name="author",
            name="key",
            field=models.CharField(
                db_index=True,
                default="",
                editable=False,
                help_text="The normalised name.",
                max_length=300,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_author_keys, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="author",
            name="slug",
            field=models.SlugField(allow_unicode=True, max_length=300, unique=True),
        ),
        migrations.AlterField(
            model_name="topic",
            name="slug",
            field=models.SlugField(allow_unicode=True, max_length=200, unique=True),
        ),
        migrations.AlterField(
            model_name="topicredirect",
            name="old_slug",
            field=models.SlugField(allow_unicode=True, max_length=200, unique=True),
        ),
        migrations.AlterField(
            model_name="venue",
            name="slug",
            field=models.SlugField(allow_unicode=True, max_length=200, unique=True),
        ),
    ]
