"""An index of authors' keys without their spaces, by which an author's page names the people
of its name spaced otherwise ("AiTi Aw" beside "Ai Ti Aw": 40 people of the Anthology folder,
two pages each that did not know of each other)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0043_name_keys_fold_hyphens"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="author",
            index=models.Index(
                models.Func(
                    models.F("key"),
                    models.Value(" "),
                    models.Value(""),
                    function="replace",
                    output_field=models.CharField(),
                ),
                name="author_joined_key",
            ),
        ),
    ]
