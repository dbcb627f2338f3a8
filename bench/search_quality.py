"""Known-item search quality, measured honestly: a tuning set and a separate test set.

    python bench/search_quality.py [--database-url URL] [--anthology DIR] [--queries N]
        [--only tuning|test] [--more-tuning SEED,…] [--failures]

The whole Anthology folder is loaded into the database DATABASE_URL names (or --database-url),
unless it is loaded already. Known-item queries are drawn from random titled papers with two
different seeds: the tuning set (TUNING_SEED) and the test set (TEST_SEED, its papers disjoint
from the tuning set's), each of two kinds: 2–4 words of the paper's title, in title order, and
3–4 words of its abstract. Each query is run through the site's own ranking (``search_page``,
as the list page and the API rank: full matches, then partial ones) and through BM25 (k1 1.2,
b 0.75, title counted three times plus the abstract, our own implementation) over the same
papers. Reported: MRR@10 (reciprocal rank of the paper among the first ten, 0 when absent) and
S@1 (share ranked first), per set and kind. Tune on the tuning set only; quote the test set.
--more-tuning draws a larger tuning set, QUERIES per kind from each seed given, its papers
apart from the test set's (a change of a few queries in 200 is within the noise);
--failures lists the tuning queries whose paper the site does not rank first; --site URL asks
a running site (the same database) through its API, as a user's script would.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_database import migrate, setup_django
from bench.environment import DEFAULT_ANTHOLOGY, log
from bench.known_item import STOPWORDS
from bench.run import load_corpus

TUNING_SEED = 1009
TEST_SEED = 7919
QUERIES = 200  # per set and kind
DEPTH = 10
_WORD = re.compile(r"[\w][\w'’\-]*")
_TOKEN = re.compile(r"\w+")


def content_words(text: str) -> list[str]:
    words = [word.strip("-'’") for word in _WORD.findall(text)]
    return [word for word in words if word and word.lower() not in STOPWORDS]


def title_query(title: str, rng: random.Random) -> str | None:
    words = content_words(title)
    if len(words) < 2:
        return None
    chosen = sorted(rng.sample(range(len(words)), min(len(words), rng.randint(2, 4))))
    return " ".join(words[index] for index in chosen)


def abstract_query(abstract: str, rng: random.Random) -> str | None:
    words = [word for word in content_words(abstract) if len(word) > 3 and word.isalpha()]
    if len(words) < 4:
        return None
    chosen = sorted(rng.sample(range(len(words)), rng.randint(3, 4)))
    return " ".join(words[index] for index in chosen)


def draw(papers: list[tuple], seed: int, count: int, exclude: set[int]) -> list[tuple]:
    """[(kind, query, paper id)]: ``count`` queries of each kind, from papers not excluded."""
    rng = random.Random(seed)
    pool = [paper for paper in papers if paper[0] not in exclude]
    chosen = rng.sample(pool, min(len(pool), count * 2))
    queries = []
    for kind, make, field in (("title", title_query, 1), ("abstract", abstract_query, 2)):
        made = 0
        for paper in chosen:
            query = make(paper[field], rng) if made < count else None
            if query:
                queries.append((kind, query, paper[0]))
                made += 1
    return queries


class BM25:
    """Okapi BM25 over title ×3 + abstract (lowercased word tokens, stop words dropped)."""

    def __init__(self, papers: list[tuple], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: dict[int, int] = {}
        for pk, title, abstract in papers:
            tokens = self.tokens(f"{title} {title} {title} {abstract}")
            self.lengths[pk] = len(tokens)
            for token, frequency in Counter(tokens).items():
                self.postings[token].append((pk, frequency))
        self.average = sum(self.lengths.values()) / max(1, len(self.lengths))
        self.total = len(self.lengths)

    @staticmethod
    def tokens(text: str) -> list[str]:
        return [t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]

    def search(self, query: str, depth: int = DEPTH) -> list[int]:
        scores: dict[int, float] = defaultdict(float)
        for token in dict.fromkeys(self.tokens(query)):
            posting = self.postings.get(token, [])
            idf = math.log(1 + (self.total - len(posting) + 0.5) / (len(posting) + 0.5))
            for pk, frequency in posting:
                norm = self.k1 * (1 - self.b + self.b * self.lengths[pk] / self.average)
                scores[pk] += idf * frequency * (self.k1 + 1) / (frequency + norm)
        return [pk for pk, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))][
            :depth
        ]


def app_search(query: str, depth: int = DEPTH) -> list[int]:
    """The ids the list page shows for the query, in order (full matches, then partial)."""
    from django.http import QueryDict

    from papers.filtering import PaperFilterSet
    from papers.search import search_page

    filterset = PaperFilterSet(QueryDict(mutable=True) | {"q": query})
    if not filterset.is_valid():
        return []
    results = search_page(filterset)
    return [paper.pk for paper in results.papers + results.partial][:depth]


def site_search(site: str):
    """The ranking as a user gets it: the running site's own list, through ``/api/papers/``
    (the list page's order, full matches then partial ones)."""

    def search(query: str, depth: int = DEPTH) -> list[int]:
        url = f"{site.rstrip('/')}/api/papers/?{urlencode({'q': query})}"
        with urlopen(url, timeout=30) as response:
            body = json.load(response)
        return [result["id"] for result in body.get("results", [])][:depth]

    return search


def more_tuning(papers: list[tuple], seeds: list[int], count: int, test: list[tuple]):
    """``count`` queries of each kind from each seed, no paper of the test set's nor twice."""
    queries: list[tuple] = []
    for seed in seeds:
        taken = {pk for _, _, pk in test + queries}
        queries += draw(papers, seed, count, taken)
    return queries


def failures(queries: list[tuple], titles: dict[int, str]) -> list[str]:
    """A line per query whose paper the site does not rank first: its rank, the query, the
    paper's title and the first result's."""
    lines = []
    for kind, query, pk in queries:
        found = app_search(query)
        if found[:1] != [pk]:
            rank = found.index(pk) + 1 if pk in found else "-"
            first = titles.get(found[0], "") if found else ""
            lines.append(f"- {kind} `{query}` → {rank}: {titles[pk]!r}; first {first!r}")
    return lines


def measure(queries: list[tuple], rank) -> dict[str, tuple[float, float, int]]:
    """{kind: (MRR@10, S@1, queries)} for one ranker."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    for kind, query, pk in queries:
        found = rank(query)[:DEPTH]
        by_kind[kind].append(1 / (found.index(pk) + 1) if pk in found else 0.0)
    return {
        kind: (sum(values) / len(values), sum(v == 1.0 for v in values) / len(values), len(values))
        for kind, values in by_kind.items()
    }


def prepare(anthology: Path) -> list[tuple]:
    """The collection loaded (once); [(id, title, abstract)] of its titled Anthology papers."""
    migrate()
    from papers.models import Paper

    if not Paper.objects.filter(external_id__isnull=False).exists():
        files = sorted(anthology.glob("*.xml"))
        if not files:
            raise SystemExit(f"search_quality: no Anthology XML in {anthology}")
        log(f"loading {len(files)} Anthology files")
        log(f"  {load_corpus(files).describe()}")
    rows = Paper.objects.exclude(title="").order_by("pk").values_list("pk", "title", "abstract")
    return list(rows)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--anthology", type=Path, default=DEFAULT_ANTHOLOGY)
    parser.add_argument("--queries", type=int, default=QUERIES, help="per set and kind")
    parser.add_argument("--only", choices=["tuning", "test"], help="one set only")
    parser.add_argument(
        "--more-tuning",
        default="",
        help="comma-separated seeds: a larger tuning set, apart from the test set",
    )
    parser.add_argument("--failures", action="store_true", help="list tuning-set failures")
    parser.add_argument(
        "--site",
        default="",
        help="a running site's address (http://127.0.0.1:8000): its API ranks instead of "
        "search_page in this process; the database must be the one the site serves",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = _arguments(argv)
    if not arguments.database_url:
        raise SystemExit("search_quality: give --database-url or set DATABASE_URL")
    setup_django(arguments.database_url)
    papers = prepare(arguments.anthology)
    everything = list(papers)
    with_abstract = [paper for paper in papers if paper[2]]
    tuning = draw(with_abstract, TUNING_SEED, arguments.queries, set())
    test = draw(with_abstract, TEST_SEED, arguments.queries, {pk for _, _, pk in tuning})
    started = time.perf_counter()
    bm25 = BM25(everything)
    log(f"BM25 index of {len(everything):,} papers in {time.perf_counter() - started:.0f} s")
    lines = [f"# Known-item search over {len(everything):,} titled papers", ""]
    sets = [("tuning", TUNING_SEED, tuning), ("test", TEST_SEED, test)]
    if arguments.more_tuning:
        seeds = [int(seed) for seed in arguments.more_tuning.split(",")]
        extra = more_tuning(with_abstract, seeds, arguments.queries, test)
        sets.append(("tuning", arguments.more_tuning, extra))
    for name, seed, queries in sets:
        if arguments.only and arguments.only != name:
            continue
        started = time.perf_counter()
        ranker = site_search(arguments.site) if arguments.site else app_search
        app, reference = measure(queries, ranker), measure(queries, bm25.search)
        log(f"{name}: {len(queries)} queries in {time.perf_counter() - started:.0f} s")
        for kind in ("title", "abstract"):
            mrr, s1, count = app[kind]
            bm_mrr, bm_s1, _ = reference[kind]
            lines.append(
                f"- {name} set (seed {seed}), {kind} words, {count} queries: app MRR@10 "
                f"**{mrr:.3f}**, S@1 {s1:.3f}; BM25 (title ×3) MRR@10 {bm_mrr:.3f}, S@1 {bm_s1:.3f}"
            )
    if arguments.failures:
        titles = {pk: title for pk, title, _ in papers}
        lines += ["", "Tuning-set failures (rank, query, paper; first result):", ""]
        lines += failures(tuning, titles)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
