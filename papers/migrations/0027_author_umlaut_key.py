"""Authors get a second key, their name with its umlauts written out ("hinrich schuetze" for
"Hinrich Schütze"), by which a name spelled without umlauts finds them.

The Anthology folder writes ten people both ways (Hinrich Schütze and Hinrich Schuetze,
Bernhard Schölkopf and Bernhard Schoelkopf), and each spelling had a page of its own. The key
is filled here from a frozen copy of papers.text.umlaut_key as it was written; the two pages
of one person become one on the next load (papers/people.py ``fold_umlauts``), as every load
joins them. The search vector's names part holds a name with umlauts written out too
(papers_written_out), so "Schuetze" finds Hinrich Schütze's papers: the papers whose authors'
names have umlauts get that part again, and the word statistics are recounted.
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


# As papers/schema_sql.py wrote them when this migration was released (later changes there
# belong to later migrations), and the trigger function as 0026 left it.
WRITTEN_OUT_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_written_out(t text) RETURNS text\nLANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE\nAS $$ SELECT CASE WHEN octet_length(t) = length(t) OR t !~ '[äöüÄÖÜ]' THEN '' ELSE\n    replace(replace(replace(replace(replace(replace(\n        t, 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'Ä', 'Ae'), 'Ö', 'Oe'), 'Ü', 'Ue')\nEND $$\n"
DROP_WRITTEN_OUT_FUNCTION = "DROP FUNCTION IF EXISTS papers_written_out(text)"
SEARCH_VECTOR_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'INSERT' AND current_setting('papers.loader_vectors', true) = 'on' THEN\n        RETURN NEW;\n    END IF;\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names || ' ' || papers_unaccented(NEW.author_names) || ' ' || papers_written_out(NEW.author_names)), '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names || ' ' || papers_unaccented(NEW.author_names) || ' ' || papers_written_out(NEW.author_names)), '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"
OLD_SEARCH_VECTOR_FUNCTION = SEARCH_VECTOR_FUNCTION.replace(
    " || ' ' || papers_written_out(NEW.author_names)", ""
)
NAMES_VECTOR = "setweight(to_tsvector('english', COALESCE(papers_compounds(author_names || ' ' || papers_unaccented(author_names) || ' ' || papers_written_out(author_names)), '')), 'B')"
OLD_NAMES_VECTOR = NAMES_VECTOR.replace(" || ' ' || papers_written_out(author_names)", "")


def _names_again(names_vector: str) -> str:
    """The vectors of the papers whose authors' names have umlauts, their names part parsed
    with ``names_vector`` (the trigger that would keep the old vector off for the statement;
    the narrow rows follow by their own), then the word statistics recounted."""
    return f"""
ALTER TABLE papers_paper DISABLE TRIGGER papers_paper_search_vector;
UPDATE papers_paper SET search_vector = ts_filter(search_vector, '{{a,c}}') || {names_vector}
WHERE author_names ~ '[äöüÄÖÜ]';
ALTER TABLE papers_paper ENABLE TRIGGER papers_paper_search_vector;
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""


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
        migrations.RunSQL(WRITTEN_OUT_FUNCTION, DROP_WRITTEN_OUT_FUNCTION),
        migrations.RunSQL(SEARCH_VECTOR_FUNCTION, OLD_SEARCH_VECTOR_FUNCTION),
        migrations.RunSQL(_names_again(NAMES_VECTOR), _names_again(OLD_NAMES_VECTOR)),
    ]
