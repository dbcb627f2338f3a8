"""How a query that is an author's name is served, through a running site's API.

    python bench/name_queries.py --site URL [--database-url URL] [--names N]

The N most prolific names of the collection (by authorships, whoever of the name wrote them)
are each searched as typed (``/api/papers/?q=<name>``). A result is "theirs" when one of its
authors has that name (papers.name_keys.name_key: case and accents folded). Reported per name: the
first page's results that are theirs, and the matches; overall, the first results that are
theirs and the mean share of the first page. The site must serve the database named.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.site_api import list_answer, site_options
from papers.name_keys import name_key

PROLIFIC_SQL = """
SELECT a.name FROM papers_author a JOIN papers_authorship s ON s.author_id = a.id
GROUP BY a.name ORDER BY count(*) DESC, a.name LIMIT %s
"""


def prolific_names(database_url: str, count: int) -> list[str]:
    import psycopg

    with psycopg.connect(database_url) as connection:
        return [row[0] for row in connection.execute(PROLIFIC_SQL, [count])]


def theirs(name: str, results: list[dict]) -> list[bool]:
    """For each result, whether one of its authors has the name."""
    key = name_key(name)
    return [any(name_key(author) == key for author in result["authors"]) for result in results]


def summary(pages: dict[str, list[bool]]) -> str:
    """The first results that are theirs and the mean share of the first page, over names."""
    firsts = sum(bool(hits) and hits[0] for hits in pages.values())
    shares = [sum(hits) / len(hits) if hits else 0.0 for hits in pages.values()]
    return (
        f"first result theirs: {firsts}/{len(pages)}; "
        f"mean share of the first page theirs: {sum(shares) / len(shares):.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    options = site_options(
        __doc__.split("\n\n")[0],
        lambda parser: parser.add_argument(
            "--names", type=int, default=40, help="how many names (default 40)"
        ),
        argv,
    )
    pages = {}
    for name in prolific_names(options.database_url, options.names):
        answer = list_answer(options.site, name)
        pages[name] = theirs(name, answer["results"])
        print(f"{name:28} {sum(pages[name]):2}/{len(pages[name])}  matches {answer['count']}")
    print(summary(pages))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
