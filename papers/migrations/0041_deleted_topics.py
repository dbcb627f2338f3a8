"""Topics a curator deleted are kept by name, so that no load brings them back
(papers/topic_resolver.py): `make run` loads the topic vocabulary at every start, and a dump
naming a deleted topic created it again."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('papers', '0040_author_keys_fold_initials_stops'),
    ]

    operations = [
        migrations.CreateModel(
            name='DeletedTopic',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(help_text="The name's key (name_key).", max_length=200, unique=True)),
                ('name', models.CharField(max_length=200)),
                ('slug', models.CharField(max_length=200)),
                ('deleted', models.DateTimeField(auto_now_add=True)),
            ],
        ),
    ]
