"""Finance and Legal NLP's title rule without "taking stock" (fixtures/topics.json): the rule's
"stock" tagged "Speech Translation and the End-to-End Promise: Taking Stock of Where We Are"
a finance paper (an outside tester). A collection whose topic has the previous title rule gets
the new one; what a curator changed stays. The next load (or apply_topic_rules) applies it."""

from django.db import migrations

SLUG = "finance-and-legal-nlp"
PREVIOUS = 'financial or finance or legal or law -"scaling law" -"scaling laws" -zipf or court or courts or stock or stocks or fintech or judicial or contracts or lawyers'
# "stocks" is parsed to the lexeme of "stock": as an alternative of its own it undid the exclusion.
CURRENT = PREVIOUS.replace(" or stock or stocks or ", ' or stock -"taking stock" or ')


def replace(previous: str, current: str):
    def update(apps, schema_editor):
        topics = apps.get_model("papers", "Topic").objects.filter(slug=SLUG)
        topics.filter(title_rule=previous).update(title_rule=current)

    return update


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0047_compounds_without_bold_marks"),
    ]

    operations = [
        migrations.RunPython(replace(PREVIOUS, CURRENT), replace(CURRENT, PREVIOUS)),
    ]
