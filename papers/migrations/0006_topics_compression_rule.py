"""Compression and Quantization's rule also matches quantization (not vector quantization),
model pruning and distillation (fixtures/topics.json): a collection whose topic still has the
previous rule, as the vocabulary gave it, gets the new one; a rule a curator changed stays. The
next load (or apply_topic_rules) applies it."""

from django.db import migrations

SLUG = "compression-and-quantization"
PREVIOUS = '"post-training quantization" or "weight quantization" or "quantization-aware" or "low-bit" or ternary or "model compression" or "knowledge distillation" or "network pruning" or "structured pruning" or "token pruning" or "token reduction" or "compression technique"'
CURRENT = (
    PREVIOUS
    + ' or quantization -"vector quantization" or "model pruning" or "weight pruning" or "layer pruning" or "head pruning" or "expert pruning" or "unstructured pruning" or "pruning methods" or "pruning method" or "pruned model" or "pruned models" or "model distillation" or "distilled model" or "distilled models"'
)


def replace_rule(before: str, after: str):
    def replace(apps, schema_editor):
        apps.get_model("papers", "Topic").objects.filter(slug=SLUG, rule=before).update(rule=after)

    return replace


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0005_facet_lexemes"),
    ]

    operations = [
        migrations.RunPython(replace_rule(PREVIOUS, CURRENT), replace_rule(CURRENT, PREVIOUS)),
    ]
