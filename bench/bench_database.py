"""The benchmark's own database on the configured server (DATABASE_URL, else the embedded one):
its URL, created afresh or dropped, Django set up on it and migrated."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

# site/ on sys.path: the settings module and site/database.py are imported from there.
import bench.environment  # noqa: F401

DEFAULT_DATABASE = "papers_bench"

_DATABASE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def bench_database_url(name: str) -> str:
    """A postgres:// URL for database `name` on the configured server (DATABASE_URL or embedded)."""
    if not _DATABASE_NAME.match(name):
        raise SystemExit(f"bench: {name!r} is not a plain database name")
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        parts = urlsplit(url)
        return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))
    from database import start_embedded_server

    info = start_embedded_server().get_postmaster_info()
    port = f":{info.port}" if info.port else ""
    return f"postgres://postgres@{port}/{name}?host={quote(str(info.socket_dir), safe='/')}"


def _maintenance_connection(url: str):
    import psycopg

    from database import config_from_url

    config = config_from_url(url)
    return psycopg.connect(
        dbname="postgres",
        user=config["USER"] or None,
        password=config["PASSWORD"] or None,
        host=config["HOST"] or None,
        port=config["PORT"] or None,
        autocommit=True,
    )


def database_exists(url: str) -> bool:
    from database import config_from_url

    with _maintenance_connection(url) as connection:
        name = config_from_url(url)["NAME"]
        return bool(
            connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        )


def recreate_database(url: str) -> None:
    from database import config_from_url

    name = config_from_url(url)["NAME"]
    with _maintenance_connection(url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    from django.db import connections

    from database import config_from_url

    connections.close_all()
    with _maintenance_connection(url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{config_from_url(url)["NAME"]}" WITH (FORCE)')


def setup_django(url: str) -> None:
    """Django configured on the bench database (settings read DATABASE_URL)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
    os.environ["DJANGO_HTTPS"] = "0"  # plain HTTP on loopback, as `make run` serves it
    # The bench's own statements (VACUUM, EXPLAIN ANALYZE at 100,000 papers) are not web
    # requests: no statement timeout here; gunicorn below runs with the settings' own.
    os.environ["DJANGO_STATEMENT_TIMEOUT_MS"] = "0"
    # The SQL timed in-process is the view's own, not a cached response's.
    os.environ["DJANGO_RESPONSE_CACHE"] = "0"
    import django

    django.setup()
    from django.conf import settings

    if "testserver" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]


def migrate() -> None:
    """Migrations, the topics fixture, and static files (pages need their manifest)."""
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    topics = Path(settings.FIXTURES_DIR) / "topics.json"
    if topics.exists():
        call_command("loaddata", str(topics), verbosity=0)
