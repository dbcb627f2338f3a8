"""The project's shape: settings from the environment, docker-compose, and `make run` serving."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
import yaml

from bench.server import free_port
from tests.conftest import PROJECT_DIR

SETTINGS_SOURCE = (PROJECT_DIR / "site" / "settings.py").read_text(encoding="utf-8")


def settings_variables() -> set[str]:
    """The environment variables the settings (and the database module) read."""
    sources = SETTINGS_SOURCE + (PROJECT_DIR / "site" / "database.py").read_text(encoding="utf-8")
    return set(
        re.findall(r"""(?:env_flag|env_list|environ\.get|getenv)\(\s*["']([A-Z_]+)["']""", sources)
    )


def check_settings(env: dict) -> subprocess.CompletedProcess:
    """Import the settings in a fresh interpreter with exactly these DJANGO_ variables."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    code = "import settings; print(settings.DEBUG, settings.ALLOWED_HOSTS)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_DIR / "site",
        env={**clean, **env, "PYTHONPATH": str(PROJECT_DIR / "site")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_settings_read_the_documented_variables():
    assert {
        "DATABASE_URL",
        "DJANGO_SECRET_KEY",
        "DJANGO_DEBUG",
        "DJANGO_ALLOWED_HOSTS",
    } <= settings_variables()


def test_debug_is_off_and_a_secret_key_is_required_by_default(tmp_path):
    # An empty .env-free run: the settings refuse to start without a key when DEBUG is off.
    env = {"DJANGO_SECRET_KEY": ""}
    result = check_settings(env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in result.stderr
    result = check_settings({"DJANGO_SECRET_KEY": "x" * 50})
    assert result.stdout.split()[0] == "False"


def test_allowed_hosts_come_from_the_environment():
    result = check_settings(
        {"DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "a.example, b.example"}
    )
    assert result.stdout.strip() == "False ['a.example', 'b.example']"
    result = check_settings({"DJANGO_SECRET_KEY": "x" * 50})
    assert result.stdout.strip() == "False ['localhost', '127.0.0.1']"


def test_docker_compose_agrees_with_the_settings():
    compose = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"postgres", "web", "proxy"}
    postgres, web = services["postgres"], services["web"]
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume = postgres["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert web["build"] == "."
    assert web["depends_on"]["postgres"]["condition"] == "service_healthy"
    environment = web["environment"]
    assert set(environment) <= settings_variables()
    assert {"DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS"} <= set(
        environment
    )
    assert environment["DJANGO_DEBUG"] == "0"
    user, database = (
        postgres["environment"]["POSTGRES_USER"],
        postgres["environment"]["POSTGRES_DB"],
    )
    assert re.match(rf"postgres://{user}:.+@postgres:5432/{database}$", environment["DATABASE_URL"])
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text(encoding="utf-8")
    assert "migrate" in dockerfile and "gunicorn" in dockerfile and "collectstatic" in dockerfile


def wait_for(url: str, process: subprocess.Popen, seconds: float) -> bytes:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make run exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read()
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {seconds} s")


@pytest.mark.skipif(
    not (PROJECT_DIR / ".venv" / "bin" / "gunicorn").exists(), reason="needs `make install`"
)
def test_make_run_serves_the_site(tmp_path):
    port = free_port()
    log = (tmp_path / "make-run.log").open("w+")
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=PROJECT_DIR,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        health = wait_for(f"http://127.0.0.1:{port}/healthz", process, 120)
        assert b"ok" in health
        page = wait_for(f"http://127.0.0.1:{port}/?q=token+reduction+state+space", process, 10)
        text = re.sub(r"<[^>]+>", "", page.decode())
        assert "Rethinking Token Reduction for State Space Models" in text
        assert "79 papers" in wait_for(f"http://127.0.0.1:{port}/", process, 10).decode()
        log.seek(0)
        assert f"http://127.0.0.1:{port}/" in log.read()
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=30)
