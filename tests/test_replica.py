"""Reads from a real streaming replica (DATABASE_REPLICA_URL): public pages read there,
writes, the admin, commands and a client that has just written read the primary."""

import logging
import os
import runpy
import subprocess
import sys
from contextlib import contextmanager

import pytest
from django.db import connections
from django.test.utils import CaptureQueriesContext
from replica import PIN_COOKIE

from papers.models import Paper
from tests.conftest import PROJECT_DIR
from tests.factories import finish, make_paper, make_venue
from tests.standby import wait_for_replay


def dsn(alias: str) -> str:
    info = connections[alias].settings_dict
    return f"host={info['HOST'] or '127.0.0.1'} port={info['PORT']} user={info['USER']} dbname={info['NAME']}"


@contextmanager
def replay_paused(replica):
    """The standby stops applying the primary's changes: what it serves is visibly older."""
    with replica.cursor() as cursor:
        cursor.execute("SELECT pg_wal_replay_pause()")
    try:
        yield
    finally:
        with replica.cursor() as cursor:
            cursor.execute("SELECT pg_wal_replay_resume()")


on_replica_and_primary = pytest.mark.django_db(transaction=True, databases=["default", "replica"])


@pytest.fixture
def replicated_paper(replica):
    venue = make_venue("ACL 2025", 2025)
    paper = make_paper("We study replicas of databases.", title="Replicated Reads", venue=venue)
    # The derived data as a load leaves it: without the facet rows a search finds nothing (the
    # page once showed the paper anyway, among the closest titles of a query without matches).
    finish()
    wait_for_replay(dsn("default"), dsn("replica"))
    return paper


@on_replica_and_primary
def test_public_page_is_read_from_the_replica(client, replica, replicated_paper):
    with CaptureQueriesContext(replica) as on_replica:
        response = client.get(f"/papers/{replicated_paper.pk}/")
    assert response.status_code == 200
    assert "Replicated Reads" in response.content.decode()
    assert any('"papers_paper"' in query["sql"] for query in on_replica.captured_queries)


@on_replica_and_primary
def test_search_and_its_facets_read_nothing_from_the_primary(client, replica, replicated_paper):
    with (
        CaptureQueriesContext(connections["default"]) as on_primary,
        CaptureQueriesContext(replica) as on_replica,
    ):
        response = client.get("/?q=replicas")
        similar = client.get(f"/papers/{replicated_paper.pk}/similar/")
    assert (response.status_code, similar.status_code) == (200, 200)
    assert "Replicated Reads" in response.content.decode()
    assert on_primary.captured_queries == []
    assert len(on_replica.captured_queries) >= 5


@on_replica_and_primary
def test_the_warm_up_reads_what_the_pages_read_from_the_replica(
    client, replica, replicated_paper, settings
):
    """What the gunicorn master reads before it forks (gunicorn.conf.py): the primary's and
    the replica's facet values, so that a search's first count reads neither."""
    gunicorn = runpy.run_path(str(PROJECT_DIR / "gunicorn.conf.py"))
    gunicorn["_warm"](logging.getLogger("test"))
    with CaptureQueriesContext(replica) as on_replica:
        assert client.get("/?q=replicas").status_code == 200
    read = " ".join(query["sql"] for query in on_replica.captured_queries)
    assert "array_agg(paper_id ORDER BY paper_id)" not in read  # the facet values: held


@on_replica_and_primary
def test_replica_serves_what_it_has_replayed_and_writers_read_the_primary(
    client, replica, replicated_paper
):
    with replay_paused(replica):
        Paper.objects.filter(pk=replicated_paper.pk).update(title="Renamed on the primary")
        stale = client.get(f"/papers/{replicated_paper.pk}/").content.decode()
        # Outside a request (commands, loads, this test) reads go to the primary.
        assert Paper.objects.get(pk=replicated_paper.pk).title == "Renamed on the primary"
    assert "Replicated Reads" in stale and "Renamed on the primary" not in stale


@on_replica_and_primary
def test_a_curator_sees_their_change_at_once(admin_client, replica, replicated_paper):
    with replay_paused(replica):
        Paper.objects.filter(pk=replicated_paper.pk).update(title="Curated title")
        before = admin_client.get(f"/papers/{replicated_paper.pk}/").content.decode()
        saved = admin_client.post("/admin/logout/")
        after = admin_client.get(f"/papers/{replicated_paper.pk}/").content.decode()
    assert "Curated title" not in before
    assert saved.cookies[PIN_COOKIE]["max-age"] == 10
    assert "Curated title" in after


@on_replica_and_primary
def test_admin_reads_the_primary(admin_client, replica, replicated_paper):
    with replay_paused(replica):
        Paper.objects.filter(pk=replicated_paper.pk).update(title="Curated title")
        page = admin_client.get(f"/admin/papers/paper/{replicated_paper.pk}/change/")
    assert page.status_code == 200
    assert "<title>Curated title | Change paper" in page.content.decode()


def test_replica_url_configures_the_alias_and_the_router():
    code = (
        "from django.conf import settings as s; r = s.DATABASES['replica']; "
        "print(r['HOST'], r['PORT'], r['NAME'], r['TEST']['MIRROR'], s.DATABASE_ROUTERS)"
    )
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/papers",
        "DATABASE_REPLICA_URL": "postgres://reader@replica.internal:5433/papers",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == [
        "replica.internal",
        "5433",
        "papers",
        "default",
        "['replica.ReplicaRouter']",
    ]
