"""gunicorn settings: the one place the server is configured (make run, Dockerfile)."""

import multiprocessing
import os

# settings, urls and wsgi are top-level modules in site/ (see README).
pythonpath = "site"
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
# No control socket (gunicornc): by default gunicorn 25+ writes one into $HOME/.gunicorn/.
control_socket_disable = True


def post_worker_init(worker):
    """Each worker reads the papers' facet values before it takes a request (the first query's
    counts would wait about a second for them at 100,000 papers); a database that does not
    answer yet leaves them to the first query, as before."""
    from django.db import DatabaseError, connections

    from papers.facet_memory import warm_memory

    try:
        warm_memory()
    except DatabaseError as error:
        worker.log.warning("facet memory not read at start: %s", error)
    finally:
        connections.close_all()
