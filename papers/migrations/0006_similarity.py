"""Tables for similar papers fitted on the collection at load time (papers/similarity.py).

Plain SQL tables, no model: one row per paper with its LSA embedding (a plain real[], no
pgvector, so any PostgreSQL serves it) and its nearest neighbours with their cosines, and a
one-row table remembering what collection the rows were computed from. No foreign key to
papers_paper, so flushing the papers never trips over these rows; stale rows are ignored by
joining to papers_paper and rewritten by the next refresh.
"""

from django.db import migrations

CREATE = """
CREATE TABLE papers_similarity (
    paper_id integer PRIMARY KEY,
    embedding real[] NOT NULL,
    neighbours integer[] NOT NULL,
    scores real[] NOT NULL
);
CREATE TABLE papers_similarity_state (
    id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    fingerprint text NOT NULL,
    papers integer NOT NULL,
    dimensions integer NOT NULL,
    computed timestamptz NOT NULL DEFAULT now()
);
"""

DROP = """
DROP TABLE IF EXISTS papers_similarity_state;
DROP TABLE IF EXISTS papers_similarity;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0005_facets"),
    ]

    operations = [migrations.RunSQL(CREATE, DROP)]
