"""Abstract keys with quotes straight and each dash one hyphen (papers/text.py abstract_key): a
copy of an abstract saved with straight apostrophes, or "--" for "—", is the same paper. A lecture
page saved so loaded 7 of its 19 papers again (an outside tester).

Each paper's key is written again where its abstract has a quote or a dash to fold. Where the
new key is another paper's already (the two differ only in such characters: a copy loaded
before this), the paper keeps its key, and a curator may merge the two. The keys that merges
and deletions kept (MergedKey, DeletedKey) are hashes of abstracts no longer at hand: a load
looks them up in their old form too (papers/merged_keys.py record_keys). The normalisation is
written here as it stands at this migration, whatever papers/text.py becomes.
"""

import hashlib
import unicodedata

from django.db import migrations

_FOLDS = {**dict.fromkeys("‘’‚‛′", "'"), **dict.fromkeys("“”„‟″", '"')}
_FOLDS |= dict.fromkeys("‐‑‒–—―−", "-")


def _typography(text: str) -> bool:
    return "--" in text or " -" in text or "- " in text or any(c in text for c in _FOLDS)


def _key(abstract: str) -> str:
    normalised = " ".join(unicodedata.normalize("NFKC", abstract).casefold().split())
    if _typography(normalised):
        for char, folded in _FOLDS.items():
            normalised = normalised.replace(char, folded)
        while "--" in normalised:
            normalised = normalised.replace("--", "-")
        normalised = normalised.replace(" -", "-").replace("- ", "-")
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest() if normalised else ""


def fold_keys(apps, schema_editor):
    Paper = apps.get_model("papers", "Paper")
    keyed = Paper.objects.exclude(abstract_key="")
    taken = set(keyed.values_list("abstract_key", flat=True))
    changed = []
    for pk, abstract, old in keyed.values_list("pk", "abstract", "abstract_key").iterator(
        chunk_size=2000
    ):
        new = _key(abstract)  # decided on the normalised text: NFKC makes "－" a dash
        if new and new != old and new not in taken:
            taken.add(new)
            changed.append(Paper(pk=pk, abstract_key=new))
    Paper.objects.bulk_update(changed, ["abstract_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0033_code_title_rule_without_coding"),
    ]

    operations = [
        migrations.RunPython(fold_keys, migrations.RunPython.noop, elidable=False),
    ]
