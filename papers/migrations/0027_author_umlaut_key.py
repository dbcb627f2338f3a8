"""Authors get a second key, their name with its umlauts written out ("hinrich schuetze" for
"Hinrich Schütze"), by which a name spelled without umlauts finds them.

The Anthology folder writes eleven people both ways (Hinrich Schütze and Hinrich Schuetze,
Bernhard Schölkopf and Bernhard Schoelkopf), and each spelling had a page of its own. The key
is filled here from a frozen copy of papers.text.umlaut_key as it was written, and those
authors' papers are found by the spelling without umlauts too (their names, as searched,
written out as well); the two pages of one person become one on the next load
(papers/people.py ``fold_umlauts``), as every load joins them.
"""

import unicodedata

from django.db import migrations, models

BATCH = 2000
# papers/text.py as this migration was written: Latin letters with a stroke, and apostrophes,
# folded; umlauts written out.
LATIN_FOLDS = str.maketrans("ĐđĦħıŁłØøŦŧ’‘ʼ", "DdHhiLlOoTt'''")
UMLAUTS_WRITTEN_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def name_key(text: str) -> str:
    """papers.text.name_key of a case-folded NFKC text, as it was."""
    if not text.isascii():
        kept: list[str] = []
        for char in unicodedata.normalize("NFKD", text):
            if not (unicodedata.combining(char) and kept and kept[-1].isascii()):
                kept.append(char)
        text = unicodedata.normalize("NFC", "".join(kept)).translate(LATIN_FOLDS)
    return " ".join(text.split())


def umlaut_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    written_out = text.translate(UMLAUTS_WRITTEN_OUT)
    return name_key(written_out) if written_out != text else ""


def fill_umlaut_keys(apps, schema_editor) -> None:
    Author = apps.get_model("papers", "Author")
    changed = []
    names = Author.objects.exclude(name__regex=r"^[\x00-\x7f]*$").only("id", "name")
    for author in names.order_by("id").iterator(BATCH):
        author.umlaut_key = umlaut_key(author.name)
        if author.umlaut_key:
            changed.append(author)
    Author.objects.bulk_update(changed, ["umlaut_key"], batch_size=BATCH)


# The papers of authors with umlauts get their names again, written out too, as
# papers/denormalise.py AUTHOR_NAMES_OF wrote them when this migration was released (the
# trigger parses the vector's names part again, the narrow rows follow by their own); the word
# statistics are recounted.
NAMES_AGAIN = """
UPDATE papers_paper p SET author_names = COALESCE((
    SELECT string_agg(a.name{written_out}, ', ' ORDER BY w.position)
    FROM papers_authorship w JOIN papers_author a ON a.id = w.author_id WHERE w.paper_id = p.id
), '')
WHERE p.id IN (
    SELECT w.paper_id FROM papers_authorship w JOIN papers_author a ON a.id = w.author_id
    WHERE a.umlaut_key <> ''
);
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""
WRITTEN_OUT = " || CASE WHEN a.umlaut_key = '' THEN '' ELSE ' ' || a.umlaut_key END"


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0026_search_without_topic_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="author",
            name="umlaut_key",
            field=models.CharField(
                blank=True,
                default="",
                editable=False,
                help_text='The normalised name with its umlauts written out ("ü" as "ue"); '
                "empty without umlauts.",
                max_length=300,
            ),
        ),
        migrations.AddIndex(
            model_name="author",
            index=models.Index(
                condition=models.Q(("umlaut_key", ""), _negated=True),
                fields=["umlaut_key"],
                name="author_umlaut_key",
            ),
        ),
        migrations.RunPython(fill_umlaut_keys, migrations.RunPython.noop, elidable=True),
        migrations.RunSQL(
            NAMES_AGAIN.format(written_out=WRITTEN_OUT), NAMES_AGAIN.format(written_out="")
        ),
    ]
