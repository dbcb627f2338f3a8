"""Names' keys read a hyphen between letters as a space: "Dilek Hakkani Tur" is "Dilek
Hakkani-Tür", and "Min Soo Kim" is "Min-Soo Kim".

The Anthology folder writes 36 people both ways, and a key that kept the hyphen gave each
spelling a page of its own. Each author's key (and its key with umlauts written out), and each
deleted topic's, becomes what papers.name_keys.name_key computes at this migration (a frozen
copy, below). As at 0040, authors split by the old key are not merged here: they now share a
key, so each page lists the other among the people of that name, new papers of either
spelling go to the first of them, and a curator merges them in the admin. "GPT-3.5" keeps its
hyphen: it is between a letter and a digit.
"""

import re
import unicodedata

from django.db import migrations

BATCH = 2000
LATIN_FOLDS = str.maketrans("ĐđĦħıŁłØøŦŧ’‘ʼ", "DdHhiLlOoTt'''")
UMLAUTS_WRITTEN_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
INITIAL_STOP = re.compile(r"\b([^\W\d_])\.(?:\s+|(?=[^\W\d_])|$)")
BETWEEN_LETTERS = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def _unaccented(text: str) -> str:
    if text.isascii():
        return text
    kept: list[str] = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char) and kept and kept[-1].isascii():
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept)).translate(LATIN_FOLDS)


def name_key(name: str, fold_hyphens: bool = True) -> str:
    """papers.name_keys.name_key as it is at this migration (without the hyphen's fold: as
    before)."""
    folded = _unaccented(unicodedata.normalize("NFKC", name).casefold())
    if fold_hyphens:
        folded = BETWEEN_LETTERS.sub(" ", folded)
    return " ".join(INITIAL_STOP.sub(r"\1 ", folded).split())


def umlaut_key(name: str, fold_hyphens: bool = True) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    written_out = text.translate(UMLAUTS_WRITTEN_OUT)
    return name_key(written_out, fold_hyphens) if written_out != text else ""


def _rekey(apps, fold_hyphens: bool) -> None:
    Author = apps.get_model("papers", "Author")
    changed = []
    hyphenated = Author.objects.filter(name__contains="-").only("id", "name", "key")
    for author in hyphenated.order_by("id").iterator(BATCH):
        key, spelled = name_key(author.name, fold_hyphens), umlaut_key(author.name, fold_hyphens)
        if (key, spelled) != (author.key, author.umlaut_key):
            author.key, author.umlaut_key = key, spelled
            changed.append(author)
    Author.objects.bulk_update(changed, ["key", "umlaut_key"], batch_size=BATCH)
    DeletedTopic = apps.get_model("papers", "DeletedTopic")
    for deleted in DeletedTopic.objects.filter(name__contains="-"):
        key = name_key(deleted.name, fold_hyphens)[:200]
        # Another deleted topic's name may have that key already: one row says both.
        if DeletedTopic.objects.filter(key=key).exclude(pk=deleted.pk).exists():
            deleted.delete()
        else:
            DeletedTopic.objects.filter(pk=deleted.pk).update(key=key)


def fold_hyphens(apps, schema_editor) -> None:
    _rekey(apps, fold_hyphens=True)


def keep_hyphens(apps, schema_editor) -> None:
    _rekey(apps, fold_hyphens=False)


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0042_unaccented_drops_combining_marks"),
    ]

    operations = [
        migrations.RunPython(fold_hyphens, keep_hyphens, elidable=True),
    ]
