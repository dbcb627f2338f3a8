"""Schema that Django's operations cannot express, run by migration 0001 as RunSQL.

Built from the same constants as the models and the queries (papers/expressions.py), so the
functions' sample and the partial index paper_sample are always the same papers.
"""

from .expressions import SAMPLE_EVERY, SEARCH_CONFIG

# The fitted similar-papers model (models.Similarity and SimilarityState, unmanaged): real[]
# columns keep the rows half the size of double precision; ids are bigint like the papers'.
# The state row keeps the fitted model itself (papers/similarity.py model_blob) for projecting
# texts and newly saved papers; ``projected`` marks rows placed on save since the last fit (a
# partial index, so the text search finds those few quickly).
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
"""

DROP_SIMILARITY_TABLES = """
DROP TABLE IF EXISTS papers_similarity_state;
DROP TABLE IF EXISTS papers_similarity;
"""

# The first matches of a text query (up to the facets' exact bound), and the sample's matches:
# both through bitmaps (the search vector's GIN index, AND-ed with the sample's partial index),
# so no search vector is detoasted. The planner, which does not count detoasting, would rather
# filter every sampled row through @@ (3x slower at 100,000 papers); the functions' own settings
# keep it on bitmaps, and EXECUTE ... USING plans each for the actual query.
TEXT_PROBE_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_text_probe(q tsquery, n integer)
RETURNS TABLE (id bigint)
LANGUAGE plpgsql STABLE ROWS 5000
SET enable_indexscan = off
SET enable_seqscan = off
AS $$
BEGIN
    RETURN QUERY EXECUTE
        'SELECT p.id FROM papers_paper p WHERE p.search_vector @@ $1 LIMIT $2'
        USING q, n;
END
$$
"""

# The sample predicate as Django writes expressions.in_sample() (MOD(id, n) = 0), so that the
# planner proves the partial index paper_sample applies.
TEXT_SAMPLE_FUNCTION = f"""
CREATE OR REPLACE FUNCTION papers_text_sample(q tsquery)
RETURNS TABLE (id bigint)
LANGUAGE plpgsql STABLE ROWS 4000
SET enable_indexscan = off
AS $$
BEGIN
    RETURN QUERY EXECUTE
        'SELECT p.id FROM papers_paper p '
        'WHERE p.search_vector @@ $1 AND MOD(p.id, {SAMPLE_EVERY}) = 0'
        USING q;
END
$$
"""

# Paper.search_vector: title (A), abstract (C), then topic and author names (B). The names come
# last so that a change of names alone (the loader's topic rules and model, a curator's edit)
# keeps the title's and abstract's lexemes as they are, positions included: ts_filter of the
# old vector to weights A and C is exactly the vector of title and abstract, so the result is
# the one a full parse gives, without parsing the abstract again (that parse is most of a
# load's database time). The column is derived: whatever a statement writes to it is replaced.
_NAMES_VECTOR = (
    f"setweight(to_tsvector('{SEARCH_CONFIG}', COALESCE(NEW.topic_names, '')), 'B') || "
    f"setweight(to_tsvector('{SEARCH_CONFIG}', COALESCE(NEW.author_names, '')), 'B')"
)
_TEXT_VECTOR = (
    f"setweight(to_tsvector('{SEARCH_CONFIG}', COALESCE(NEW.title, '')), 'A') || "
    f"setweight(to_tsvector('{SEARCH_CONFIG}', COALESCE(NEW.abstract, '')), 'C')"
)

SEARCH_VECTOR_TRIGGER = f"""
CREATE OR REPLACE FUNCTION papers_paper_search_vector() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.search_vector IS NOT NULL
       AND NEW.title IS NOT DISTINCT FROM OLD.title
       AND NEW.abstract IS NOT DISTINCT FROM OLD.abstract THEN
        IF NEW.topic_names IS NOT DISTINCT FROM OLD.topic_names
           AND NEW.author_names IS NOT DISTINCT FROM OLD.author_names THEN
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
CREATE TRIGGER papers_paper_search_vector
BEFORE INSERT OR UPDATE ON papers_paper
FOR EACH ROW EXECUTE FUNCTION papers_paper_search_vector();
"""

# Every paper's vector parsed afresh, as the trigger's full branch does (the migration that
# introduced the trigger).
FILL_SEARCH_VECTORS = (
    "UPDATE papers_paper AS p SET search_vector = "
    + f"{_TEXT_VECTOR} || {_NAMES_VECTOR}".replace("NEW.", "p.")
)

DROP_SEARCH_VECTOR_TRIGGER = """
DROP TRIGGER IF EXISTS papers_paper_search_vector ON papers_paper;
DROP FUNCTION IF EXISTS papers_paper_search_vector();
"""
