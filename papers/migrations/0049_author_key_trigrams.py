"""The authors' keys indexed by trigrams: a misspelt name finds the author nearest it
(papers/name_respelling.py) through the index, not by reading every author."""

import django.contrib.postgres.indexes
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('papers', '0048_finance_title_rule_without_taking_stock'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='author',
            index=django.contrib.postgres.indexes.GinIndex(django.contrib.postgres.indexes.OpClass('key', name='gin_trgm_ops'), name='author_key_trigrams'),
        ),
    ]
