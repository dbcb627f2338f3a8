"""Authors' keys drop an initial's full stop: "Christopher D Manning" is "Christopher D.
Manning", and "Laks V.S. Lakshmanan" is "Laks V. S. Lakshmanan".

The Anthology folder writes 29 people both ways, and a key that kept the stop gave each
spelling a page of its own. Each author's key (and its key with umlauts written out) becomes
what papers.text.name_key computes at this migration (a frozen copy, below). As in migration
0024, authors split by the old key are not merged here: they now share a key, so each page
lists the other among the people of that name, new papers of either spelling go to the first
of them, and a curator merges them in the admin.
"""

import re
import unicodedata

from django.db import migrations

BATCH = 2000
LATIN_FOLDS = str.maketrans("ĐđĦħıŁłØøŦŧ’‘ʼ", "DdHhiLlOoTt'''")
UMLAUTS_WRITTEN_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
INITIAL_STOP = re.compile(r"\b([^\W\d_])\.(?:\s+|(?=[^\W\d_])|$)")


def _unaccented(text: str) -> str:
    if text.isascii():
        return text
    kept: list[str] = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char) and kept and kept[-1].isascii():
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept)).translate(LATIN_FOLDS)


def name_key(name: str, fold_stops: bool = True) -> str:
    """papers.text.name_key as it is at this migration (without the stop's fold: as before)."""
    folded = _unaccented(unicodedata.normalize("NFKC", name).casefold())
    if fold_stops:
        folded = INITIAL_STOP.sub(r"\1 ", folded)
    return " ".join(folded.split())


def umlaut_key(name: str, fold_stops: bool = True) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    written_out = text.translate(UMLAUTS_WRITTEN_OUT)
    return name_key(written_out, fold_stops) if written_out != text else ""


def _rekey(apps, fold_stops: bool) -> None:
    Author = apps.get_model("papers", "Author")
    changed = []
    initials = Author.objects.filter(name__regex=r"\m\w\.").only("id", "name", "key")
    for author in initials.order_by("id").iterator(BATCH):
        key, spelled = name_key(author.name, fold_stops), umlaut_key(author.name, fold_stops)
        if (key, spelled) != (author.key, author.umlaut_key):
            author.key, author.umlaut_key = key, spelled
            changed.append(author)
    Author.objects.bulk_update(changed, ["key", "umlaut_key"], batch_size=BATCH)


def fold_stops(apps, schema_editor) -> None:
    _rekey(apps, fold_stops=True)


def keep_stops(apps, schema_editor) -> None:
    _rekey(apps, fold_stops=False)


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0039_external_ids_as_the_collection_writes_them"),
    ]

    operations = [
        migrations.RunPython(fold_stops, keep_stops, elidable=True),
    ]
