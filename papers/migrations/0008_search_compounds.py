"""Hyphenated compounds indexed joined and as their parts ("few-shot" → "fewshot few shot").

The parser kept "few-shot" as the lexeme few-shot and its parts, and "fewshot" as fewshot: the
query "fewshot" missed every paper writing "few-shot", and "few shot" kept only "shot" ("few"
is a stop word), so it found the zero-shot papers too. Every vector now parses its text
through papers_compounds (papers/schema_sql.py): the trigger's vector, the title's (its index
and title_terms). The vectors are parsed again in one rewrite of the table, then the narrow
rows' copies refilled and the word statistics recounted.
"""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models

# As papers/schema_sql.py wrote them when this migration was released (later changes there
# belong to later migrations).
COMPOUNDS_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_compounds(t text) RETURNS text\nLANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE\nAS $$ SELECT regexp_replace(t, '(\\w+)-(\\w+)(?:-(\\w+))?(?:-(\\w+))?', '\\1\\2\\3\\4 \\1 \\2 \\3 \\4', 'g') $$\n"
DROP_COMPOUNDS_FUNCTION = "DROP FUNCTION IF EXISTS papers_compounds(text)"
SEARCH_VECTOR_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'INSERT' AND current_setting('papers.loader_vectors', true) = 'on' THEN\n        RETURN NEW;\n    END IF;\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names\n           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.topic_names), '')), 'B') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names), '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.topic_names), '')), 'B') || setweight(to_tsvector('english', COALESCE(papers_compounds(NEW.author_names), '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"
SEARCH_VECTOR_SQL = "setweight(to_tsvector('english', COALESCE(papers_compounds(title), '')), 'A') || setweight(to_tsvector('english', COALESCE(papers_compounds(abstract), '')), 'C') || setweight(to_tsvector('english', COALESCE(papers_compounds(topic_names), '')), 'B') || setweight(to_tsvector('english', COALESCE(papers_compounds(author_names), '')), 'B')"
FILL_LEXEMES = "\nUPDATE papers_paperfacets f SET lexemes = strip(p.search_vector)\nFROM papers_paper p WHERE p.id = f.paper_id\n"
TITLE_COMPOUND_MATCHES_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_title_matches(q tsquery)\nRETURNS TABLE (id bigint)\nLANGUAGE sql STABLE ROWS 1000\nSET enable_seqscan = off\nSET enable_indexscan = off\nAS $$\nSELECT p.id FROM papers_paper p\nWHERE to_tsvector('english'::regconfig, COALESCE(papers_compounds(p.title), ''::text)) @@ q\n$$\n"
TITLE_MATCHES_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_title_matches(q tsquery)\nRETURNS TABLE (id bigint)\nLANGUAGE sql STABLE ROWS 1000\nSET enable_seqscan = off\nSET enable_indexscan = off\nAS $$\nSELECT p.id FROM papers_paper p\nWHERE to_tsvector('english'::regconfig, COALESCE(p.title, ''::text)) @@ q\n$$\n"

# The vectors as migration 0003 parsed them, and the trigger's function as 0007 left it, for
# going back.
_OLD_NAMES = (
    "setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || "
    "setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B')"
)
_OLD_TEXT = (
    "setweight(to_tsvector('english', COALESCE(NEW.title, '')), 'A') || "
    "setweight(to_tsvector('english', COALESCE(NEW.abstract, '')), 'C')"
)
OLD_SEARCH_VECTOR_FUNCTION = "\nCREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger\nLANGUAGE plpgsql AS $$\nBEGIN\n    IF TG_OP = 'INSERT' AND current_setting('papers.loader_vectors', true) = 'on' THEN\n        RETURN NEW;\n    END IF;\n    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL\n       AND NEW.title IS NOT DISTINCT FROM OLD.title\n       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN\n        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names\n           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN\n            NEW.search_vector := OLD.search_vector;\n        ELSE\n            NEW.search_vector := ts_filter(OLD.search_vector, '{a,c}') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n        END IF;\n    ELSE\n        NEW.search_vector := setweight(to_tsvector('english', COALESCE(NEW.title, '')), 'A') || setweight(to_tsvector('english', COALESCE(NEW.abstract, '')), 'C') || setweight(to_tsvector('english', COALESCE(NEW.topic_names, '')), 'B') || setweight(to_tsvector('english', COALESCE(NEW.author_names, '')), 'B');\n    END IF;\n    RETURN NEW;\nEND\n$$;\n"
OLD_SEARCH_VECTOR_SQL = f"{_OLD_TEXT} || {_OLD_NAMES}".replace("NEW.", "")
_TITLE_TERMS = "length(to_tsvector('english'::regconfig, COALESCE({title}, '')))"


def _rebuild(vector: str, title: str) -> str:
    """The vectors and title_terms computed again in one rewrite of the table (every index
    rebuilt once; no row trigger runs)."""
    terms = _TITLE_TERMS.format(title=title)
    return (
        "ALTER TABLE papers_paper DROP COLUMN title_terms, "
        f"ADD COLUMN title_terms integer GENERATED ALWAYS AS ({terms}) STORED, "
        f"ALTER COLUMN search_vector TYPE tsvector USING ({vector})"
    )


# The narrow rows' copies of the vectors, and the word statistics (papers/denormalise.py
# refresh_lexemes) recounted from them.
FOLLOW_VECTORS = (
    FILL_LEXEMES
    + """;
DELETE FROM papers_lexeme;
INSERT INTO papers_lexeme (word, documents, occurrences)
SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM papers_paper');
"""
)


def _title_vector(title):
    return django.contrib.postgres.search.SearchVector(title, config="english")


_COMPOUND_TITLE = models.Func(
    models.F("title"), function="papers_compounds", output_field=models.TextField()
)


class Migration(migrations.Migration):
    dependencies = [("papers", "0007_loadspeed_loader_vectors")]

    operations = [
        migrations.RunSQL(COMPOUNDS_FUNCTION, DROP_COMPOUNDS_FUNCTION),
        migrations.RunSQL(SEARCH_VECTOR_FUNCTION, OLD_SEARCH_VECTOR_FUNCTION),
        migrations.RemoveIndex(model_name="paper", name="paper_title_tsv"),
        # The narrow rows' copies and the word statistics follow the vectors, written without
        # the copies' index (one build): after the rewrite, either way.
        migrations.RemoveIndex(model_name="paperfacets", name="paperfacets_lexemes"),
        migrations.RunSQL(migrations.RunSQL.noop, FOLLOW_VECTORS),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    _rebuild(SEARCH_VECTOR_SQL, "papers_compounds(title)"),
                    _rebuild(OLD_SEARCH_VECTOR_SQL, "title"),
                )
            ],
            state_operations=[
                migrations.RemoveField(model_name="paper", name="title_terms"),
                migrations.AddField(
                    model_name="paper",
                    name="title_terms",
                    field=models.GeneratedField(
                        db_persist=True,
                        expression=models.Func(
                            _title_vector(_COMPOUND_TITLE),
                            function="length",
                            output_field=models.IntegerField(),
                        ),
                        output_field=models.IntegerField(),
                    ),
                ),
            ],
        ),
        migrations.RunSQL(FOLLOW_VECTORS, migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name="paperfacets",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["lexemes"], name="paperfacets_lexemes"
            ),
        ),
        migrations.AddIndex(
            model_name="paper",
            index=django.contrib.postgres.indexes.GinIndex(
                _title_vector(_COMPOUND_TITLE), name="paper_title_tsv"
            ),
        ),
        migrations.RunSQL(
            TITLE_COMPOUND_MATCHES_FUNCTION,
            TITLE_MATCHES_FUNCTION,
        ),
    ]
