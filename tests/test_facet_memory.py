"""A query's facet counts from the process's memory: exact after every change, in this process,
read again only when the data's state moves."""

import json

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from papers import curation
from papers.caching import bump_data_version, data_version
from papers.facet_memory import title_order, warm_memory
from papers.facets import count_facets
from papers.models import Paper, PaperFacets, Topic, Venue
from tests.factories import finish

pytestmark = pytest.mark.django_db


def counted(text: str, **selected) -> dict:
    facets = count_facets(selected, text=text)
    return {
        "total": facets.total,
        "venue": [(o.value, o.count) for o in facets.venue],
        "author": [(o.value, o.count) for o in facets.author],
        "topic": [(o.value, o.count) for o in facets.topic],
    }


def test_counts_follow_a_curation_change_in_the_same_process(corpus):
    assert counted("cache") == {
        "total": 2,
        "venue": [("acl-2025", 2)],
        "author": [("ada-lovelace", 2), ("alan-turing", 1)],
        "topic": [("efficiency", 2), ("attention", 1)],
    }
    curation.delete_papers(Paper.objects.filter(pk=corpus["kv"].pk))
    assert counted("cache") == {
        "total": 1,
        "venue": [("acl-2025", 1)],
        "author": [("ada-lovelace", 1)],
        "topic": [("efficiency", 1)],
    }


def test_a_rolled_back_change_leaves_no_counts_behind(corpus):
    """A change that raised the version and was rolled back, then another that raised it to the
    same number: the counts are the second change's (the state names the transaction too)."""
    emnlp = Venue.objects.get(slug="emnlp-2024")
    with transaction.atomic():
        Paper.objects.filter(pk=corpus["kv"].pk).update(venue=emnlp)
        finish()
        rolled_back = data_version()
        assert counted("cache")["venue"] == [("acl-2025", 1), ("emnlp-2024", 1)]
        transaction.set_rollback(True)
    Paper.objects.filter(pk=corpus["speech"].pk).update(country="Canada")
    finish()
    assert data_version() == rolled_back
    assert counted("cache")["venue"] == [("acl-2025", 2)]


def test_the_arrays_are_read_once_per_state_of_the_data(corpus):
    """The first count after a change reads the arrays (+1 statement); later ones do not."""
    with CaptureQueriesContext(connection) as first:
        counted("cache")
    with CaptureQueriesContext(connection) as again:
        assert counted("cache", venue=["acl-2025"])["total"] == 2
    assert (len(first), len(again)) == (2, 1)
    curation.delete_papers(Paper.objects.filter(pk=corpus["speech"].pk))
    with CaptureQueriesContext(connection) as changed:
        counted("cache")
    assert len(changed) == 2


def test_a_warmed_process_counts_its_first_query_without_reading_the_arrays(corpus):
    """What a gunicorn worker does as it starts (gunicorn.conf.py post_worker_init)."""
    warm_memory()
    with CaptureQueriesContext(connection) as first:
        assert counted("cache")["total"] == 2
    assert len(first) == 1


def test_one_filter_and_a_query_are_counted_from_the_filters_keys(corpus):
    """With one filter, every match is read and the filter is worked out in memory from its
    keys: a topic's old slug filters as the topic does, a venue no paper matches keeps none."""
    attention = Topic.objects.get(slug="attention")
    attention.slug = "attention-mechanisms"
    attention.save()
    curation.record_topic_edit(attention, old_slug="attention")
    expected = {
        "total": 1,
        "venue": [("acl-2025", 1)],
        "author": [("ada-lovelace", 1), ("alan-turing", 1)],
        "topic": [("efficiency", 2), ("attention-mechanisms", 1)],
    }
    assert counted("cache", topic=["attention"]) == expected
    assert counted("cache", topic=["attention-mechanisms"]) == expected
    assert counted("cache", venue=["emnlp-2024"])["total"] == 0
    assert counted("cache", venue=["emnlp-2024"])["venue"] == [("acl-2025", 2)]
    assert counted("cache", venue=["no-such-venue"])["total"] == 0


def test_a_paper_without_a_facet_row_is_in_no_count_of_a_phrase(corpus):
    """A phrase's matches come from the papers' own index: one whose narrow row is missing is
    left out, as the rows the arrays were read from leave it out, not an error."""
    assert counted('"parallel corpus"')["total"] == 1
    PaperFacets.objects.filter(paper_id=corpus["translation"].pk).delete()
    bump_data_version()
    assert counted('"parallel corpus"') == {"total": 0, "venue": [], "author": [], "topic": []}


def test_the_title_order_is_held_as_the_list_sorts_it(corpus):
    memory = warm_memory()
    held = memory.ids[memory.title_order].tolist()
    assert held == list(Paper.objects.in_order("title").values_list("pk", flat=True))
    assert len(held) == Paper.objects.count() == 5


def test_the_title_order_is_read_from_its_index_alone(corpus):
    """Paper.display_key is a column of the index paper_title_order, so the order's ids need
    no paper row (an index on the expression visited each one), and it is kept in the row:
    stored out of line, as PostgreSQL stores a wide row's small values by default, a sort
    fetched it again at each comparison."""
    with connection.cursor() as cursor:
        # Five papers: reading and sorting them is cheaper.
        for way in ("seqscan", "bitmapscan", "sort"):
            cursor.execute(f"SET LOCAL enable_{way} = off")
        ordered, params = title_order()
        cursor.execute("EXPLAIN (FORMAT JSON) SELECT " + ordered, params)
        plan = cursor.fetchone()[0]
        cursor.execute(
            "SELECT attstorage FROM pg_attribute "
            "WHERE attrelid = 'papers_paper'::regclass AND attname = 'display_key'"
        )
        storage = cursor.fetchone()[0]
    scan = (plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"]["Plans"][0]
    assert (scan["Node Type"], scan["Index Name"]) == ("Index Only Scan", "paper_title_order")
    assert storage == "p"
