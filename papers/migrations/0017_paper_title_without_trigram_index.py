"""The titles' trigram index goes: it served only the closest titles of a query that found
nothing, a search whose cost grew with the titles sharing the words' trigrams (0.6 s at 100,000
papers), and it was 82 MB at that size; keeping it up cost about a second of every 26,000
papers written. A query that finds nothing now says why (papers/search_notices.py ``why_nothing``)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0016_topic_title_rules"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="paper",
            name="paper_title_trgm",
        ),
    ]
