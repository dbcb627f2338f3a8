"""Information Extraction's rule also matches entity and concept normalization and "information
extractor" (fixtures/topics.json): a collection whose topic still has the previous rule or
description, as the vocabulary gave them, gets the new ones; what a curator changed stays. The
next load (or apply_topic_rules) applies it: the rule is the topic model's weak supervision."""

from django.db import migrations

SLUG = "information-extraction"
PREVIOUS = '"information extraction" or "named entity" or "named entities" or "entity recognition" or ner or "relation extraction" or "relation classification" or "event extraction" or "event detection" or "entity linking" or "entity typing" or "open ie" or "knowledge base population" or "triple extraction" or "relational facts" or "argument extraction" or "nested entities" or "knowledge extraction" or "fact extraction" or "event argument" or "event arguments" or "relation triples" or "relational triples" or "entity extraction" or "entity resolution" or "entity disambiguation"'
CURRENT = (
    PREVIOUS + ' or "entity normalization" or "concept normalization" or "information extractor"'
)
PREVIOUS_DESCRIPTION = (
    "Structure from text: named entities, relations, events, entity linking and typing, "
    "knowledge base population."
)
CURRENT_DESCRIPTION = (
    "Structure from text: named entities, relations, events, entity linking, typing and "
    "normalization, knowledge base population."
)


def replace(rule: tuple[str, str], description: tuple[str, str]):
    def update(apps, schema_editor):
        topics = apps.get_model("papers", "Topic").objects.filter(slug=SLUG)
        topics.filter(rule=rule[0]).update(rule=rule[1])
        topics.filter(description=description[0]).update(description=description[1])

    return update


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0009_lexeme_without_trigram_index"),
    ]

    operations = [
        migrations.RunPython(
            replace((PREVIOUS, CURRENT), (PREVIOUS_DESCRIPTION, CURRENT_DESCRIPTION)),
            replace((CURRENT, PREVIOUS), (CURRENT_DESCRIPTION, PREVIOUS_DESCRIPTION)),
        ),
    ]
