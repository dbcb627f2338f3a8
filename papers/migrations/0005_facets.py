"""Indexes for the list's bounded facets and its default order (see papers/querysets.py).

* ``paper_sample``: a partial index on one paper in SAMPLE_EVERY (id % 16 = 0). When a query or
  filter matches more than EXACT_BOUND papers, the facet counts are estimated from this sample
  (shown as "about N"), so their cost stays bounded at any collection size.
* ``paper_venue_order``: (venue_id, display key, id), the default order inside a venue, so a
  page of the newest-first list (any page, however deep) is read from the index per venue
  instead of sorting the whole collection. The key must stay identical to ``display_order()``
  in papers/querysets.py (left(..., 200) keeps an untitled paper's long abstract within a
  B-tree entry).
"""

from django.db import migrations

ORDER_KEY = "lower(left(COALESCE(NULLIF(title, ''::text), abstract), 200))"

# The first matches of a text query (up to the exact bound), and the sample of its matches: both bitmaps (the search vector's GIN index and the
# sample's partial index) AND-ed before the heap is read, so only the sampled matches are
# fetched and no search vector is detoasted. The planner, which does not count detoasting,
# would rather filter every sampled row through @@ (3x slower at 100,000 papers); the
# function's own setting keeps it on bitmaps, and EXECUTE ... USING plans it for the actual
# query. Only matches in the sample are returned, so any filter applied on top stays exact
# within the sample.
PROBE_FUNCTION = """
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

SAMPLE_FUNCTION = """
CREATE OR REPLACE FUNCTION papers_text_sample(q tsquery)
RETURNS TABLE (id bigint)
LANGUAGE plpgsql STABLE ROWS 4000
SET enable_indexscan = off
AS $$
BEGIN
    RETURN QUERY EXECUTE
        'SELECT p.id FROM papers_paper p '
        'WHERE p.search_vector @@ $1 AND (p.id % 16) = 0'
        USING q;
END
$$
"""


class Migration(migrations.Migration):
    dependencies = [("papers", "0003_abstract_key_not_unique")]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS paper_sample ON papers_paper (id) WHERE (id % 16) = 0",
            "DROP INDEX IF EXISTS paper_sample",
        ),
        migrations.RunSQL(
            f"CREATE INDEX IF NOT EXISTS paper_venue_order ON papers_paper (venue_id, ({ORDER_KEY}), id)",
            "DROP INDEX IF EXISTS paper_venue_order",
        ),
        migrations.RunSQL(
            PROBE_FUNCTION, "DROP FUNCTION IF EXISTS papers_text_probe(tsquery, integer)"
        ),
        migrations.RunSQL(SAMPLE_FUNCTION, "DROP FUNCTION IF EXISTS papers_text_sample(tsquery)"),
    ]
