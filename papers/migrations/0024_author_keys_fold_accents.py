"""Authors' keys fold the accents of Latin letters: "Andre Martins" is "André Martins".

And their apostrophes: "Sean O'Brien" is "Sean O’Brien". The Anthology writes one person
both ways (117 such pairs in its folder), and a key that kept them gave each spelling a page
of its own. The key is what the loader matches a record by, so each author's key becomes what
papers.text.name_key computes today. Authors split by the
old key are not merged here: they now share a key, so each page lists the other among the
people of that name, and new papers of either spelling go to the first of them.
"""

import unicodedata

from django.db import migrations

from papers.text import fold_whitespace, name_key

BATCH = 2000


def _rekey(apps, key_of) -> None:
    Author = apps.get_model("papers", "Author")
    changed = []
    for author in Author.objects.only("id", "name", "key").order_by("id").iterator(BATCH):
        key = key_of(author.name)
        if key != author.key:
            author.key = key
            changed.append(author)
    Author.objects.bulk_update(changed, ["key"], batch_size=BATCH)


def fold_accents(apps, schema_editor) -> None:
    _rekey(apps, name_key)


def keep_accents(apps, schema_editor) -> None:
    """The key as it was before: NFKC, case-folded, whitespace folded."""
    _rekey(apps, lambda name: fold_whitespace(unicodedata.normalize("NFKC", name).casefold()))


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0023_author_family_name"),
    ]

    operations = [
        migrations.RunPython(fold_accents, keep_accents, elidable=True),
    ]
