"""gunicorn settings: the one place the server is configured (make run, Dockerfile)."""

import gc
import multiprocessing
import os
import sys
from pathlib import Path

# settings, urls and wsgi are top-level modules in site/ (see README).
pythonpath = "site"
sys.path.insert(0, str(Path(__file__).resolve().parent / pythonpath))
from database import read_dotenv  # noqa: E402 (site/ is on the path from here)

# The variables .env sets and the shell does not (GUNICORN_WORKERS …), as the settings read it.
read_dotenv(Path(__file__).resolve().parent / ".env")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# One request per process (gunicorn's sync worker): the kernel's queue hands each request to
# an idle worker. Two threads (gthread) kept each worker's keep-alive connections and made a
# request wait for a busy worker's thread or share its GIL: with 8 clients, p95 was 6-11x the
# one-client figure, against 4-6x with sync workers (bench/results.md).
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
# No control socket (gunicornc): by default gunicorn 25+ writes one into $HOME/.gunicorn/.
control_socket_disable = True


# The master loads the site before it forks the workers (when_ready reads the papers' facet
# values and common words, imports the views and compiles the templates there): the workers
# share what it read instead of each doing it on its first requests.
preload_app = True


def _warm(log) -> None:
    """The papers' facet values and common words read into this process unless it holds them
    at the data's present state (papers/facet_memory.py, papers/word_memory.py), from each
    database the pages read (a replica's too): a first query would wait for them (about a
    second for the facets and 5 s for the words at 100,000 papers). A database that does not
    answer yet leaves them to the first queries."""
    from contextlib import nullcontext

    from django.conf import settings
    from django.db import DatabaseError
    from replica import REPLICA, public_reads

    from papers.facet_memory import warm_memory
    from papers.word_memory import warm_words

    replicated = REPLICA in settings.DATABASES
    for reads in (nullcontext(), public_reads()) if replicated else (nullcontext(),):
        try:
            with reads:
                warm_words(warm_memory())
        except DatabaseError as error:
            log.warning("facet values and common words not read at start: %s", error)


def _prepare_pages() -> None:
    """The URLs resolved once (which imports every view) and every template of the site
    compiled (the cached loader keeps them): a worker's first page took five times as long as
    its next one, importing and compiling them."""
    from pathlib import Path

    from django.conf import settings
    from django.template.loader import get_template
    from django.urls import resolve

    resolve("/")
    root = Path(settings.BASE_DIR) / "templates"
    for path in sorted(root.rglob("*.html")):
        get_template(path.relative_to(root).as_posix())


def _serve_first_pages(application, log) -> None:
    """A page of each kind served to this process itself (site/first_pages.py)."""
    from django.db import DatabaseError
    from first_pages import serve_samples

    try:
        served = serve_samples(application)
    except DatabaseError as error:
        log.warning("first pages not served at start: %s", error)
        return
    failed = [f"{path} ({status})" for path, status in served if not status.startswith("200")]
    if failed:
        log.warning("first pages that did not answer 200: %s", ", ".join(failed))


def when_ready(server):
    from django.db import connections

    _prepare_pages()
    _warm(server.log)
    _serve_first_pages(server.app.wsgi(), server.log)
    # Nothing connected is forked: each worker opens its own connections.
    connections.close_all()


def pre_fork(server, worker):
    """What the master holds is moved out of the collector's reach before each fork: a
    worker's full collection walked the master's objects too (the facet and word memory, the
    compiled templates; 52-74 ms each at 100,000 papers), and writing their collector headers
    copied pages the workers otherwise share."""
    gc.freeze()


def post_worker_init(worker):
    _warm(worker.log)
    # Again in the worker: its own PostgreSQL connection starts with empty catalog caches.
    _serve_first_pages(worker.wsgi, worker.log)
