"""What the measures made through a running site's API share (bench/name_queries.py,
bench/acronym_queries.py, bench/typo_queries.py): their options, and the list's answer to a
query."""

from __future__ import annotations

import argparse
import json
import os
from urllib.parse import urlencode
from urllib.request import urlopen


def site_options(description: str, add=None, argv: list[str] | None = None):
    """The parsed options: --site, --database-url (default DATABASE_URL, required) and those
    ``add(parser)`` adds."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--site", required=True, help="the running site, e.g. http://127.0.0.1:8000"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", ""),
        help="the database the site serves (default: DATABASE_URL)",
    )
    if add is not None:
        add(parser)
    options = parser.parse_args(argv)
    if not options.database_url:
        parser.error("give --database-url or set DATABASE_URL")
    return options


def list_answer(site: str, query: str) -> dict:
    """The API list's answer to ``query`` (``/api/papers/?q=…``)."""
    with urlopen(f"{site.rstrip('/')}/api/papers/?{urlencode({'q': query})}") as response:
        return json.load(response)
