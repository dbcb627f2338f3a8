"""The link tables without the indexes Django gives each foreign key, which duplicated the lead
of another index (authorship_author_paper, authorship_position_once, paper_topic_once,
papertopic_topic_paper) and were written again by every load; authorship_position_once holds
the author too, so a paper's authors are read from it alone (an author page's co-authors)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('papers', '0018_title_lexeme_match_ids'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='authorship',
            name='authorship_position_once',
        ),
        migrations.AlterField(
            model_name='authorship',
            name='author',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='authorships', to='papers.author'),
        ),
        migrations.AlterField(
            model_name='authorship',
            name='paper',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='authorships', to='papers.paper'),
        ),
        migrations.AlterField(
            model_name='papertopic',
            name='paper',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='topic_links', to='papers.paper'),
        ),
        migrations.AlterField(
            model_name='papertopic',
            name='topic',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='paper_links', to='papers.topic'),
        ),
        migrations.AddConstraint(
            model_name='authorship',
            constraint=models.UniqueConstraint(fields=('paper', 'position'), include=('author',), name='authorship_position_once'),
        ),
    ]
