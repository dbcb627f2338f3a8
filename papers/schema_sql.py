"""SQL the schema needs that Django's operations cannot express (functions, the search vector's
trigger, the similarity tables), as the latest migrations left it (each migration writes its own
copy out; tests/test_migrations.py checks that they agree), and the vector expressions the loader
computes with it (``text_vector``, ``names_vector``, ``LOADER_VECTORS_SETTING``)."""

import unicodedata

from .compounds import COMPOUND_SQL, COMPOUND_SQL_REPLACEMENT
from .expressions import SEARCH_CONFIG

# The fitted similar-papers model (models.Similarity and SimilarityState, unmanaged): real[]
# columns keep the rows half the size of double precision; ids are bigint like the papers'.
# The state row keeps the fitted model itself (papers/similarity.py model_blob) for projecting
# texts and newly saved papers; ``projected`` marks rows placed on save since the last fit (a
# partial index, so the text search finds those few quickly). The model is stored uncompressed
# (EXTERNAL): its floats do not compress, and the attempt took most of writing it (a fresh
# Anthology load's 33 MB: about 0.65 -> 0.2 s).
SIMILARITY_TABLES = """
CREATE TABLE papers_similarity (
    paper_id bigint PRIMARY KEY,
    embedding real[] NOT NULL,
    neighbours bigint[] NOT NULL,
    scores real[] NOT NULL,
    projected boolean NOT NULL DEFAULT false
);
CREATE INDEX papers_similarity_projected ON papers_similarity (paper_id) WHERE projected;
CREATE TABLE papers_similarity_state (
    id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    fingerprint text NOT NULL,
    papers integer NOT NULL,
    dimensions integer NOT NULL,
    computed timestamptz NOT NULL DEFAULT now(),
    model bytea
);
ALTER TABLE papers_similarity_state ALTER COLUMN model SET STORAGE EXTERNAL;
"""

DROP_SIMILARITY_TABLES = """
DROP TABLE IF EXISTS papers_similarity_state;
DROP TABLE IF EXISTS papers_similarity;
"""

# The papers matching a text query, through the search vector's GIN index (a bitmap), for
# counting all of a query's matches (papers/facets.py). The planner, which does not count
# detoasting, would rather read every row and test its vector (2-3x slower for a common word);
# the function's own settings keep it on the index.
TEXT_MATCHES_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_text_matches(q tsquery)
RETURNS TABLE (id bigint)
LANGUAGE sql STABLE ROWS 10000
SET enable_seqscan = off
SET enable_indexscan = off
AS $$ SELECT p.id FROM papers_paper p WHERE p.search_vector @@ q $$
"""

# Every match of a query, for counting all of them (papers/facets.py), as one string of 8-byte
# integers (int8send) aggregated where the matches are found: from the narrow rows' stripped
# vectors (PaperFacets.lexemes) for a query without a phrase, from the search vectors for one
# with (positions). The planner would rather test every row's vector for the commonest words
# (two thirds of the papers) where the bitmap needs no test at all (a query without a phrase or
# weights is exact on the index): the settings keep it on the index. Aggregated in the
# function, a common word's 80,000 ids pass through no function scan, no union and no CTE on
# their way out (models at 100,000 papers: about 50 -> 32 ms).
LEXEME_MATCH_IDS_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_lexeme_match_ids(q tsquery)
RETURNS bytea
LANGUAGE sql STABLE
SET enable_seqscan = off
SET enable_indexscan = off
AS $$ SELECT string_agg(int8send(f.paper_id), ''::bytea) FROM papers_paperfacets f WHERE f.lexemes @@ q $$
"""
# The same for the titles' stripped vectors (PaperFacets.title_lexemes): a word's title
# matches, held in memory by papers/word_memory.py.
TITLE_LEXEME_MATCH_IDS_FUNCTION = LEXEME_MATCH_IDS_FUNCTION.replace(
    "papers_lexeme_match_ids", "papers_title_lexeme_match_ids"
).replace("f.lexemes @@ q", "f.title_lexemes @@ q")
TEXT_MATCH_IDS_FUNCTION = LEXEME_MATCH_IDS_FUNCTION.replace(
    "papers_lexeme_match_ids", "papers_text_match_ids"
).replace(
    "int8send(f.paper_id), ''::bytea) FROM papers_paperfacets f WHERE f.lexemes @@ q",
    "int8send(p.id), ''::bytea) FROM papers_paper p WHERE p.search_vector @@ q",
)

# A text with its hyphenated compounds written joined and as their parts ("few-shot" →
# "fewshot few shot"), as papers/compounds.py index_compounds writes them: what every search
# vector parses (the trigger's, the title's), so that "few-shot", "fewshot" and "few shot"
# written by a paper are found by the one lexeme the query asks for (text.fold_compounds).
# Markdown's bold marks go first: "**M**ultiprompt" was the words "M" and "ultiprompt".
COMPOUNDS_FUNCTION = f"""
CREATE OR REPLACE FUNCTION papers_compounds(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(replace(t, '**', ''), '{COMPOUND_SQL}', '{COMPOUND_SQL_REPLACEMENT}', 'g') $$
"""
DROP_COMPOUNDS_FUNCTION = "DROP FUNCTION IF EXISTS papers_compounds(text)"


def _accents() -> tuple[str, str]:
    """(the Latin letters with accents, the same letters without): those of Latin-1, Latin
    Extended-A and B and Latin Extended Additional (Vietnamese) that decompose to one ASCII
    letter and marks, and the barred or stroked ones that do not (Đ, Ł, Ø …). Decompositions
    never change (Unicode's stability policy): the table is the same on any Python."""
    strokes = {"Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ł": "L", "ł": "l"}
    strokes |= {"Ø": "O", "ø": "o", "Ŧ": "T", "ŧ": "t"}
    pairs = dict(strokes)
    for code in [*range(0xC0, 0x250), *range(0x1E00, 0x1F00)]:
        letter = chr(code)
        parts = unicodedata.normalize("NFKD", letter)
        bare = "".join(part for part in parts if not unicodedata.combining(part))
        if letter.isalpha() and len(bare) == 1 and bare.isascii() and bare != letter:
            pairs[letter] = bare
    return "".join(pairs), "".join(pairs.values())


ACCENTED, UNACCENTED = _accents()
# The combining diacritical marks, which a text keeps where its letter has no precomposed form
# ("ẹ́" in "Tolúlọpẹ́": ẹ and an acute): dropped, as translate drops what its second list lacks.
# "Ogunremi" found nothing of Tolúlọpẹ́ Ògúnrẹ̀mí's.
COMBINING_MARKS = "".join(chr(code) for code in range(0x300, 0x370))
# A text without its accents, or "" when it has none (nothing parsed twice). A text of ASCII
# alone (as many bytes as letters: most names) skips translate, whose 500-letter table cost
# 68 µs a name (1.8 s a load of 26,000 papers, 0.3 s with the test).
UNACCENTED_FUNCTION = f"""
CREATE OR REPLACE FUNCTION papers_unaccented(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN octet_length(t) = length(t) THEN '' ELSE (
    SELECT CASE WHEN f = t THEN '' ELSE f END
    FROM translate(t, '{ACCENTED}{COMBINING_MARKS}', '{UNACCENTED}') AS f
) END $$
"""
DROP_UNACCENTED_FUNCTION = "DROP FUNCTION IF EXISTS papers_unaccented(text)"

# A text with its umlauts written out as German writes them without the dots ("Schütze" →
# "Schuetze"), or "" when it has none; ASCII alone skips the test.
WRITTEN_OUT_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_written_out(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN octet_length(t) = length(t) OR t !~ '[äöüÄÖÜ]' THEN '' ELSE
    replace(replace(replace(replace(replace(replace(
        t, 'ä', 'ae'), 'ö', 'oe'), 'ü', 'ue'), 'Ä', 'Ae'), 'Ö', 'Oe'), 'Ü', 'Ue')
END $$
"""
DROP_WRITTEN_OUT_FUNCTION = "DROP FUNCTION IF EXISTS papers_written_out(text)"

# The same for the title's own vector, as migration 0002 made it; migration 0008 parsed the
# title with its compounds, and 0011 reads the stored column instead
# (TITLE_VECTOR_MATCHES_FUNCTION).
TITLE_MATCHES_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_title_matches(q tsquery)
RETURNS TABLE (id bigint)
LANGUAGE sql STABLE ROWS 1000
SET enable_seqscan = off
SET enable_indexscan = off
AS $$
SELECT p.id FROM papers_paper p
WHERE to_tsvector('english'::regconfig, COALESCE(p.title, ''::text)) @@ q
$$
"""

# papers_title_matches over the stored title vector Paper.title_vector (the index paper_title_tsv).
TITLE_VECTOR_MATCHES_FUNCTION = TITLE_MATCHES_FUNCTION.replace(
    "to_tsvector('english'::regconfig, COALESCE(p.title, ''::text))", "p.title_vector"
)

# Paper.search_vector: title (A), abstract (C), then the authors' names (B). The names come
# last so that a change of names alone (a curator's edit, a load adding an author) keeps the
# title's and abstract's lexemes as they are, positions included: ts_filter of the old vector
# to weights A and C is exactly the vector of title and abstract, so the result is the one a
# full parse gives, without parsing the abstract again (that parse is most of a load's
# database time). Topic names are not searched (migration 0026): a topic is a filter, and its
# name read as text matched every paper a rule or the model had tagged ("argument mining":
# 823 papers, 782 of them by the name of the topic "Sentiment Analysis and Argument Mining").
# The column is derived: whatever a statement writes to it is replaced (but for the loader's
# inserts, below).
_PARSED = (
    "setweight(to_tsvector('" + SEARCH_CONFIG + "', COALESCE(papers_compounds(NEW.{}), '')), '{}')"
)
# An author's name is parsed as written and, when it has accents, without them too: "Vulic"
# found none of the 84 papers of Ivan Vulić, "Muller" 14 of Müller's 38; and with its umlauts
# written out ("Schuetze" finds Hinrich Schütze's papers, migration 0027).
_AUTHOR_NAMES = (
    "author_names || ' ' || papers_unaccented(NEW.author_names)"
    " || ' ' || papers_written_out(NEW.author_names)"
)
_NAMES_VECTOR = _PARSED.format(_AUTHOR_NAMES, "B")
_TEXT_VECTOR = f"{_PARSED.format('title', 'A')} || {_PARSED.format('abstract', 'C')}"

# A load's new papers come with their vectors already computed, set-based, from the same
# expressions (papers/staging.py): an INSERT in a transaction that set LOADER_VECTORS_SETTING
# keeps the vector it writes instead of parsing the row again. Any other write is recomputed.
LOADER_VECTORS_SETTING = "papers.loader_vectors"

SEARCH_VECTOR_FUNCTION = f"""
CREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' AND current_setting('{LOADER_VECTORS_SETTING}', true) = 'on' THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL
       AND NEW.title IS NOT DISTINCT FROM OLD.title
       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN
        IF NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN
            NEW.search_vector := OLD.search_vector;
        ELSE
            NEW.search_vector := ts_filter(OLD.search_vector, '{{a,c}}') || {_NAMES_VECTOR};
        END IF;
    ELSE
        NEW.search_vector := {_TEXT_VECTOR} || {_NAMES_VECTOR};
    END IF;
    RETURN NEW;
END
$$;
"""


# The vector's two parts over any row ("NEW." replaced by the row's alias), for the loader's
# set-based passes: title and abstract, then the names appended.
def text_vector(row: str) -> str:
    return _TEXT_VECTOR.replace("NEW.", f"{row}.")


def names_vector(row: str) -> str:
    return _NAMES_VECTOR.replace("NEW.", f"{row}.")


# Every paper's vector as the trigger's full branch parses it, over the table's columns: a
# migration rewrites the column with it (ALTER COLUMN … USING: one rewrite, no trigger).
SEARCH_VECTOR_SQL = f"{_TEXT_VECTOR} || {_NAMES_VECTOR}".replace("NEW.", "")

# The stripped search and title vectors of PaperFacets (papers/derived_models.py) follow their
# paper's, whoever updates the paper (the loader, the admin, a rename of an author): one set-based statement per updating statement (the trigger papers_paper_lexemes,
# AFTER UPDATE, FOR EACH STATEMENT, over the rows changed), touching only the rows whose
# lexemes changed. A new paper's row gets them when the counts refresh writes it
# (papers/counts.py).
LEXEMES_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_paper_lexemes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE papers_paperfacets f
    SET lexemes = strip(n.search_vector), title_lexemes = strip(n.title_vector)
    FROM changed n
    WHERE f.paper_id = n.id
      AND (f.lexemes IS DISTINCT FROM strip(n.search_vector)
           OR f.title_lexemes IS DISTINCT FROM strip(n.title_vector));
    RETURN NULL;
END $$;
"""
