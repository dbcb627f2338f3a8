"""Authors' keys fold the accents of Latin letters: "Andre Martins" is "André Martins".

And their apostrophes: "Sean O'Brien" is "Sean O’Brien". The Anthology writes one person
both ways (117 such pairs in its folder), and a key that kept them gave each spelling a page
of its own. The key is what the loader matches a record by, so each author's key becomes what
papers.text.name_key computed when this migration was written (a frozen copy, below). Authors split by the
old key are not merged here: they now share a key, so each page lists the other among the
people of that name, and new papers of either spelling go to the first of them.
"""

import unicodedata

from django.db import migrations

BATCH = 2000
# Latin letters with a stroke, and apostrophes, as papers/text.py folded them.
LATIN_FOLDS = str.maketrans("ĐđĦħıŁłØøŦŧ’‘ʼ", "DdHhiLlOoTt'''")


def name_key(name: str) -> str:
    """papers.text.name_key as it was: NFKC, case-folded, Latin accents and apostrophes
    folded, whitespace folded."""
    text = unicodedata.normalize("NFKC", name).casefold()
    if not text.isascii():
        kept: list[str] = []
        for char in unicodedata.normalize("NFKD", text):
            if not (unicodedata.combining(char) and kept and kept[-1].isascii()):
                kept.append(char)
        text = unicodedata.normalize("NFC", "".join(kept)).translate(LATIN_FOLDS)
    return " ".join(text.split())


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
    _rekey(apps, lambda name: " ".join(unicodedata.normalize("NFKC", name).casefold().split()))


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0023_author_family_name"),
    ]

    operations = [
        migrations.RunPython(fold_accents, keep_accents, elidable=True),
    ]
