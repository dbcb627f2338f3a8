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
