"""Serving the site for the benchmark and the soak: gunicorn on a free loopback port, and GETs."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from http.client import HTTPConnection, HTTPException
from pathlib import Path
from urllib.parse import quote

PROJECT_DIR = Path(__file__).resolve().parent.parent
STARTUP_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str, timeout: float = 30, connection: HTTPConnection | None = None):
    """(status, body bytes) of one GET on the loopback port; network errors raise. A path
    with letters beyond ASCII (an author's slug: /authors/jørgen-…/) is sent percent-encoded,
    as a browser sends it."""
    own = connection is None
    connection = connection or HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        encoded = quote(path, safe="/?&=%+:,;@!$'()*~-._")
        connection.request("GET", encoded, headers={"Host": "127.0.0.1"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        if own:
            connection.close()


class Gunicorn:
    """gunicorn with the project's gunicorn.conf.py, in a process group of its own; entering
    waits until /healthz answers 200."""

    def __init__(self, environment: dict[str, str], log_path: Path, access_log: str = os.devnull):
        self.port = free_port()
        self.environment = {**environment, "GUNICORN_ACCESS_LOG": str(access_log)}
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
        command += ["--bind", f"127.0.0.1:{self.port}", "wsgi:application"]
        with self.log_path.open("wb") as log_file:
            self.process = subprocess.Popen(
                command,
                cwd=PROJECT_DIR,
                env=self.environment,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited early:\n{self.tail()}")
            try:
                if get(self.port, "/healthz", timeout=5)[0] == 200:
                    return self
            except (OSError, HTTPException):
                pass
            time.sleep(0.2)
        self.__exit__(None, None, None)
        raise RuntimeError(
            f"gunicorn did not answer /healthz in {STARTUP_SECONDS} s:\n{self.tail()}"
        )

    def __exit__(self, *exc_info) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def settings(self) -> dict[str, str]:
        """workers, threads and timeout as gunicorn.conf.py computes them for this environment."""
        code = (
            "import runpy; c = runpy.run_path('gunicorn.conf.py'); "
            "print(c['workers'], c['threads'], c['timeout'])"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=PROJECT_DIR,
            env=self.environment,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        return dict(zip(("workers", "threads", "timeout"), out, strict=False))
