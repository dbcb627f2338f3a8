"""Reads from a PostgreSQL streaming replica (DATABASE_REPLICA_URL), writes on the primary.

Only the public pages' reads of the papers app go to the replica: the middleware marks a
request as replica-safe when it is a GET or HEAD outside the admin, and the router sends a
read there only under that mark. Everything else (writes, the admin, logins and sessions,
management commands and loads, which run outside any request) stays on the primary, so a
transaction never mixes the two. The public site writes nothing; after a curator's write in the
admin the browser carries a short-lived cookie that keeps its next reads on the primary, so the
curator sees their own change on the public pages despite replication lag.
"""

from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

REPLICA = "replica"
PIN_COOKIE = "read_primary"
_replica_reads: ContextVar[bool] = ContextVar("replica_reads", default=False)


class ReplicaRouter:
    """Routes the papers app's reads to the replica inside replica-safe requests."""

    def db_for_read(self, model, **hints):
        if _replica_reads.get() and model._meta.app_label == "papers":
            return REPLICA
        return None

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == "default"


@contextmanager
def public_reads():
    """Reads routed as a public page's are, outside a request (the gunicorn master's warm-up
    of what the pages read)."""
    token = _replica_reads.set(True)
    try:
        yield
    finally:
        _replica_reads.reset(token)


def replica_safe(request) -> bool:
    """A read a replica a few hundred milliseconds behind may serve."""
    return (
        request.method in ("GET", "HEAD")
        and not request.path.startswith("/admin/")
        and PIN_COOKIE not in request.COOKIES
    )


class ReplicaReadsMiddleware:
    """Marks replica-safe requests for ReplicaRouter; pins the client to the primary for
    REPLICA_PIN_SECONDS after a change made in the admin."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _replica_reads.set(replica_safe(request))
        try:
            response = self.get_response(request)
        finally:
            _replica_reads.reset(token)
        if request.path.startswith("/admin/") and request.method not in ("GET", "HEAD", "OPTIONS"):
            response.set_cookie(
                PIN_COOKIE,
                "1",
                max_age=settings.REPLICA_PIN_SECONDS,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
