"""How a query that is an acronym typed in capitals is served, through a running site's API.

    python bench/acronym_queries.py --site URL [--database-url URL]

The acronyms are the collection's title words of two capitals or more (3 to 8 characters,
3 to 300 titles) whose letters also stand in at least two titles as a plain word ("GLUE"
beside "Glue"): those a ranking can get wrong. Each is searched as typed
(``/api/papers/?q=<acronym>``); a result "writes it so" when its title has the acronym as
written or all in capitals. Reported: the first results that write it so, and the mean share
of the first ten that do, of the most they could (the titles writing it so, up to ten). The
site must serve the database named. Nothing is tuned on them: the rule has no weights.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.site_api import list_answer, site_options

ACRONYMS_SQL = r"""
WITH words AS (
    SELECT DISTINCT p.id, w FROM papers_paper p,
    regexp_split_to_table(p.title, '[^A-Za-z0-9]+') AS w
),
acronyms AS (
    SELECT w, count(*) AS titles FROM words
    WHERE w ~ '^[A-Za-z0-9]*[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*$' AND length(w) BETWEEN 3 AND 8
    GROUP BY w HAVING count(*) BETWEEN 3 AND 300
),
plain AS (
    SELECT lower(w) AS word, count(*) AS titles FROM words
    WHERE w ~ '^[A-Z]?[a-z]+$' GROUP BY lower(w)
)
SELECT a.w, a.titles FROM acronyms a JOIN plain p ON p.word = lower(a.w)
WHERE p.titles >= 2 ORDER BY a.w
"""
TOP = 10


def ambiguous_acronyms(database_url: str) -> dict[str, int]:
    """{acronym: the titles writing it}."""
    import psycopg

    with psycopg.connect(database_url) as connection:
        return dict(connection.execute(ACRONYMS_SQL).fetchall())


def written_so(acronym: str, titles: list[str]) -> list[bool]:
    """For each title, whether it has the acronym as written or all in capitals."""
    forms = "|".join(re.escape(form) for form in dict.fromkeys([acronym, acronym.upper()]))
    pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{forms})(?![A-Za-z0-9])")
    return [bool(pattern.search(title)) for title in titles]


def summary(pages: dict[str, list[bool]], titles: dict[str, int]) -> str:
    """The first results writing it so, and the mean share of the first TOP that do, of the
    most they could."""
    firsts = sum(bool(hits) and hits[0] for hits in pages.values())
    shares = [min(1.0, sum(hits[:TOP]) / min(TOP, titles[word])) for word, hits in pages.items()]
    return (
        f"first result writes it so: {firsts}/{len(pages)}; "
        f"mean share of the first {TOP} that do, of the most they could: "
        f"{sum(shares) / len(shares):.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    options = site_options(__doc__.split("\n\n")[0], argv=argv)
    titles = ambiguous_acronyms(options.database_url)
    pages = {}
    for acronym in titles:
        results = list_answer(options.site, acronym)["results"]
        pages[acronym] = written_so(acronym, [result["title"] or "" for result in results])
        print(f"{acronym:10} {sum(pages[acronym][:TOP]):2}/{min(TOP, titles[acronym])}")
    print(summary(pages, titles))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
