"""A few pages served by a server process to itself as it starts (gunicorn.conf.py).

A gunicorn worker's first page of each kind took 40-75 ms longer than its next one at
100,000 papers: Django filled its URL reversal tables, modules were imported and regular
expressions compiled on first use, and the worker's new PostgreSQL connection planned each
statement with empty catalog caches. Served here, the first reader's page does none of that.
Each request carries a cookie, as a signed-in reader's does: the page cache serves and keeps
only pages asked for without one (papers/caching.py), so the master's pages do not stand in
for the work a worker's own must do.
"""

import io
import sys

# Whatever the data: the front page, a search and its API answer; then, where the data has
# them, the first paper's page and its similar papers, a topic's list, an author's page.
SEARCH = "language+models"


def sample_paths() -> list[str]:
    """The pages to serve."""
    from papers.models import Author, Paper, Topic

    paths = ["/", f"/?q={SEARCH}", f"/api/papers/?q={SEARCH}"]
    paper = Paper.objects.order_by("pk").values_list("pk", flat=True).first()
    if paper is not None:
        paths += [f"/papers/{paper}/", f"/papers/{paper}/similar/"]
    topic = Topic.objects.order_by("pk").values_list("slug", flat=True).first()
    if topic is not None:
        paths.append(f"/?topic={topic}")
    author = Author.objects.order_by("pk").values_list("slug", flat=True).first()
    if author is not None:
        paths.append(f"/authors/{author}/")
    return paths


def serve_samples(application) -> list[tuple[str, str]]:
    """[(path, status line)] of each sample page, served by the WSGI ``application`` as a
    reader's GET over HTTPS would be, to the site's first allowed host."""
    from django.conf import settings

    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if "*" not in h), "localhost")
    return [(path, _served(application, _environ(path, host))) for path in sample_paths()]


def _served(application, environ: dict) -> str:
    """The status line of the response, read to its end (as a server reads it)."""
    statuses = []
    response = application(environ, lambda status, *_: statuses.append(status))
    try:
        for _ in response:
            pass
    finally:
        if hasattr(response, "close"):
            response.close()
    return statuses[0]


def _environ(path: str, host: str) -> dict:
    path, _, query = path.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": host,
        "SERVER_PORT": "443",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "HTTP_COOKIE": "first-page=1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "https",
    }
