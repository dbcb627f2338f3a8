"""Code Generation's title rule without "or coding" (fixtures/topics.json): "coding" is parsed
to the lexeme of "code", so that alternative matched every title saying "code" and undid the
rule's exclusions; 107 papers on code-switching and code-mixing were tagged Code Generation and
Software Engineering. A title "Coding …" still matches the rule's "code"; "Code-Switchers" is
excluded as "code-switching" is. A collection whose topic has the previous title rule, as
migration 0016 gave it, gets the new one; what a curator changed stays. The next load (or
apply_topic_rules) applies it."""

from django.db import migrations

SLUG = "code-generation-and-software-engineering"
PREVIOUS = 'code -"code-mixed" -"code-switched" -"code-switching" -"code mixing" -"z-code" or coding or programming -"dynamic programming" -"linear programming" or software or sql or "source code"'
CURRENT = PREVIOUS.replace(" or coding or ", " or ").replace(
    '-"code-switching"', '-"code-switching" -"code-switchers"'
)


def replace(previous: str, current: str):
    def update(apps, schema_editor):
        topics = apps.get_model("papers", "Topic").objects.filter(slug=SLUG)
        topics.filter(title_rule=previous).update(title_rule=current)

    return update


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0032_compounds_nested_parts"),
    ]

    operations = [
        migrations.RunPython(replace(PREVIOUS, CURRENT), replace(CURRENT, PREVIOUS)),
    ]
