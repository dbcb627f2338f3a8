"""Cached facet counts and list pages, keyed by the data's version.

Every load and every curation change raises ``DataVersion`` in its own transaction
(``bump_data_version``: papers/counts.py on each refresh, the admin on every save), and every
key below starts with the version a request read first: a page computed from older data is
never found again, in any process, so nothing has to be deleted and no edit leaves a stale page.
The cache is Django's (settings.CACHES: local memory, or CACHE_URL's Redis or Memcached shared
by every app server). ``settings.RESPONSE_CACHE`` (DJANGO_RESPONSE_CACHE=0) turns it off, for
benchmarks that must measure the work itself.
"""

import hashlib
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction

from .tables import reading_cursor, sql

# Long enough for repeated queries, short enough that unused keys of old versions go.
TIMEOUT_SECONDS = 600


def lock_changes() -> None:
    """Hold, until the transaction ends, the lock every refresh of the counts and every raise of
    the version take first: one order for both, so two changes never wait on each other."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('papers_data_changes'))")


def bump_data_version() -> None:
    """Raise the data version (in the caller's transaction)."""
    lock_changes()
    with connection.cursor() as cursor:
        cursor.execute(
            sql(
                "INSERT INTO {data_version} (id, version) VALUES (1, 1) "
                "ON CONFLICT (id) DO UPDATE SET version = {data_version}.version + 1"
            )
        )


def bump_after_migrations(sender, using, plan=None, **kwargs) -> None:
    """post_migrate: a migration of this app may change what the pages show (vectors, topic
    rules and descriptions), so the version moves, as for a load; a cache shared by several
    app servers would otherwise serve the pages of before the deploy until they expire."""
    from django.db import DEFAULT_DB_ALIAS

    from .derived_models import DataVersion

    if using != DEFAULT_DB_ALIAS or not any(m.app_label == sender.label for m, _ in plan or []):
        return
    if DataVersion._meta.db_table not in connection.introspection.table_names():
        return  # migrated back to before the table
    with transaction.atomic():
        bump_data_version()


def data_version() -> int:
    with reading_cursor() as cursor:
        cursor.execute(sql("SELECT version FROM {data_version} WHERE id = 1"))
        row = cursor.fetchone()
    return row[0] if row else 0


def _key(kind: str, version: int, parts) -> str:
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()
    return f"papers:{kind}:{version}:{digest}"


def request_version(request) -> int:
    """The version this request reads its cache entries under (read once per request)."""
    if not hasattr(request, "papers_data_version"):
        request.papers_data_version = data_version()
    return request.papers_data_version


def cached(kind: str, parts, compute, request=None):
    """``compute()``, or its value cached under ``parts`` at the current data version."""
    if not settings.RESPONSE_CACHE:
        return compute()
    version = request_version(request) if request is not None else data_version()
    key = _key(kind, version, parts)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, TIMEOUT_SECONDS)
    return value


def _cacheable(request, response) -> bool:
    """A plain 200 the same for anyone: no cookie set, no CSRF token put in the page."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def cache_page_by_version(view):
    """Serve repeated GETs of the list pages from the cache, keyed by data version and URL.

    Only anonymous requests without cookies are cached: a signed-in curator's pages carry
    their own state.
    """

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not settings.RESPONSE_CACHE or request.method != "GET" or request.COOKIES:
            return view(request, *args, **kwargs)
        key = _key("page", request_version(request), (request.get_full_path(), args, kwargs))
        response = cache.get(key)
        if response is None:
            response = view(request, *args, **kwargs)
            if _cacheable(request, response):
                cache.set(key, response, TIMEOUT_SECONDS)
        return response

    return wrapper
