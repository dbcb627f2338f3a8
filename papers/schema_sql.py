"""Schema that Django's operations cannot express, run by migration 0001 as RunSQL.

Built from the same constants as the models and the queries (papers/expressions.py), so the
functions' sample and the partial index paper_sample are always the same papers.
"""

from .expressions import SAMPLE_EVERY

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
