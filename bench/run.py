"""The benchmark behind `make bench`: load a corpus at scale, then time the site over HTTP.

    python bench/run.py [--papers 100000] [--anthology DIR | --synthetic] [--database papers_bench]

1. A database of its own (default ``papers_bench``) on the configured server: the server of
   DATABASE_URL when set, else the embedded one in .pgdata/. It is dropped and created afresh
   (``--reuse`` keeps a loaded one and skips the load).
2. A corpus: the Anthology XML folder (``--anthology DIR``, else ../shared/data/anthology when
   present), else a synthetic corpus from a fixed seed; scaled to ``--papers`` by replicas with
   perturbed titles and abstracts (written as JSON Lines exports, which load_papers reads).
3. The load, timed, through the project's loader (papers.loading.load_files): papers/s.
4. For a fixed set of requests (rare terms, the commonest terms, a phrase, an exclusion,
   filters with and without q, facets, a deep page, paper, similar and author pages):
   - the time PostgreSQL alone takes for the SQL the view runs (captured in-process, then
     EXPLAIN (ANALYZE) of each query: planning + execution);
   - p50/p95 latency and requests/s over HTTP through gunicorn (gunicorn.conf.py, the
     production configuration) on a free loopback port, with 1 and with 8 concurrent clients.
5. A markdown table on stdout and in bench/results.md (date, machine, PostgreSQL version).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import shutil
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

PROJECT_DIR = Path(__file__).resolve().parent.parent
SITE_DIR = PROJECT_DIR / "site"
DEFAULT_ANTHOLOGY = PROJECT_DIR.parent / "shared" / "data" / "anthology"
DEFAULT_OUTPUT = PROJECT_DIR / "bench" / "results.md"
WORK_DIR = PROJECT_DIR / "bench" / "work"  # gitignored
DEFAULT_DATABASE = "papers_bench"

for _path in (str(SITE_DIR), str(PROJECT_DIR)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench.report import LoadTiming, Row, render  # noqa: E402  (needs the project on sys.path)
from bench.server import Gunicorn, get  # noqa: E402


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- the database -----------------------------------------------------------------------------


_DATABASE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def bench_database_url(name: str) -> str:
    """A postgres:// URL for database `name` on the configured server (DATABASE_URL or embedded)."""
    if not _DATABASE_NAME.match(name):
        raise SystemExit(f"bench: {name!r} is not a plain database name")
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        parts = urlsplit(url)
        return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))
    from database import start_embedded_server

    info = start_embedded_server().get_postmaster_info()
    port = f":{info.port}" if info.port else ""
    return f"postgres://postgres@{port}/{name}?host={quote(str(info.socket_dir), safe='/')}"


def _maintenance_connection(url: str):
    import psycopg

    from database import config_from_url

    config = config_from_url(url)
    return psycopg.connect(
        dbname="postgres",
        user=config["USER"] or None,
        password=config["PASSWORD"] or None,
        host=config["HOST"] or None,
        port=config["PORT"] or None,
        autocommit=True,
    )


def database_exists(url: str) -> bool:
    from database import config_from_url

    with _maintenance_connection(url) as connection:
        name = config_from_url(url)["NAME"]
        return bool(
            connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        )


def recreate_database(url: str) -> None:
    from database import config_from_url

    name = config_from_url(url)["NAME"]
    with _maintenance_connection(url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    from django.db import connections

    from database import config_from_url

    connections.close_all()
    with _maintenance_connection(url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{config_from_url(url)["NAME"]}" WITH (FORCE)')


def setup_django(url: str) -> None:
    """Django configured on the bench database (settings read DATABASE_URL)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
    os.environ["DJANGO_HTTPS"] = "0"  # plain HTTP on loopback, as `make run` serves it
    # The bench's own statements (VACUUM, EXPLAIN ANALYZE at 100,000 papers) are not web
    # requests: no statement timeout here; gunicorn below runs with the settings' own.
    os.environ["DJANGO_STATEMENT_TIMEOUT_MS"] = "0"
    # The SQL timed in-process is the view's own, not a cached response's.
    os.environ["DJANGO_RESPONSE_CACHE"] = "0"
    import django

    django.setup()
    from django.conf import settings

    if "testserver" not in settings.ALLOWED_HOSTS:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]


def migrate() -> None:
    """Migrations, the topics fixture, and static files (pages need their manifest)."""
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    topics = Path(settings.FIXTURES_DIR) / "topics.json"
    if topics.exists():
        call_command("loaddata", str(topics), verbosity=0)


# --- the corpus -------------------------------------------------------------------------------


@dataclass
class Corpus:
    """What gets loaded: XML files as they are, plus records written as JSON Lines."""

    description: str
    xml_files: list[Path] = field(default_factory=list)
    xml_papers: int = 0
    records: list = field(default_factory=list)  # PaperRecords to write as JSON Lines

    @property
    def size(self) -> int:
        return self.xml_papers + len(self.records)


def anthology_records(folder: Path) -> tuple[list[Path], list]:
    from papers.anthology import looks_like_anthology, parse_anthology

    files = []
    records = []
    for path in sorted(folder.glob("*.xml")):
        with path.open("rb") as stream:
            if not looks_like_anthology(stream.read(4096)):
                continue
        files.append(path)
        records.extend(parse_anthology(path, path.name).papers)
    return files, records


_TERMS = [
    "language models",
    "large language models",
    "machine translation",
    "question answering",
    "named entity recognition",
    "sentiment analysis",
    "summarization",
    "dialogue systems",
    "parsing",
    "retrieval",
    "knowledge graphs",
    "speech recognition",
    "instruction tuning",
    "in-context learning",
    "chain-of-thought reasoning",
    "hallucination",
    "multilingual transfer",
    "low-resource languages",
    "evaluation metrics",
    "benchmarks",
    "code generation",
    "information extraction",
    "text classification",
    "semantic parsing",
    "coreference resolution",
    "commonsense reasoning",
    "fact verification",
    "bias and fairness",
    "interpretability",
    "prompting",
    "reinforcement learning from human feedback",
    "vision-language models",
    "data augmentation",
    "contrastive learning",
    "knowledge distillation",
    "parameter-efficient fine-tuning",
    "tokenization",
    "word embeddings",
    "neural networks",
    "transformers",
]
_VERBS = [
    "propose",
    "introduce",
    "present",
    "study",
    "analyse",
    "evaluate",
    "investigate",
    "revisit",
    "benchmark",
]
_NOUNS = [
    "method",
    "framework",
    "dataset",
    "model",
    "approach",
    "benchmark",
    "metric",
    "architecture",
    "pipeline",
    "objective",
    "corpus",
    "algorithm",
    "toolkit",
    "analysis",
]
_ADJECTIVES = [
    "robust",
    "efficient",
    "scalable",
    "simple",
    "novel",
    "unified",
    "multilingual",
    "interpretable",
    "adaptive",
    "hierarchical",
    "contrastive",
    "generative",
    "sparse",
    "cross-lingual",
    "zero-shot",
    "few-shot",
]
_FIRST = [
    "Ana",
    "Bo",
    "Chen",
    "Dana",
    "Eitan",
    "Fatima",
    "Gustavo",
    "Hiro",
    "Ines",
    "Jun",
    "Kofi",
    "Lena",
    "Mateo",
    "Nadia",
    "Oren",
    "Priya",
    "Qiang",
    "Rosa",
    "Sven",
    "Tariq",
    "Uma",
    "Viktor",
    "Wei",
    "Xin",
    "Yara",
    "Zoltan",
    "Akira",
    "Beatriz",
    "Chloe",
    "Dmitri",
]
_LAST = [
    "Abe",
    "Brown",
    "Costa",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Huang",
    "Ivanova",
    "Jensen",
    "Kim",
    "Li",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Patel",
    "Quinn",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Usman",
    "Varga",
    "Wang",
    "Xu",
    "Yilmaz",
    "Zhang",
    "Liu",
    "Singh",
    "Chen",
    "Sato",
]
_VENUES = [(acronym, year) for year in range(2020, 2026) for acronym in ("ACL", "EMNLP", "NAACL")]


def synthetic_records(count: int, seed: int) -> list:
    """`count` papers of NLP-flavoured text from a fixed seed (the same every run)."""
    from papers.records import AuthorRecord, PaperRecord

    rng = random.Random(seed)
    authors = [f"{first} {last}" for first in _FIRST for last in _LAST]
    records = []
    for index in range(count):
        topic, other = rng.sample(_TERMS, 2)
        adjective, noun = rng.choice(_ADJECTIVES), rng.choice(_NOUNS)
        title = rng.choice(
            [
                f"{adjective.capitalize()} {topic} with {other}",
                f"Towards {adjective} {topic}: a {noun} for {other}",
                f"On the {noun} of {topic} for {other}",
                f"{topic.capitalize()} meets {other}",
            ]
        )
        sentences = [
            f"{topic.capitalize()} is central to many applications of natural language processing.",
            f"We {rng.choice(_VERBS)} a {adjective} {noun} that combines {topic} and {other}.",
            f"Experiments on {rng.randint(2, 12)} {rng.choice(_TERMS)} datasets show gains of "
            f"{rng.randint(1, 15)}.{rng.randint(0, 9)} points over strong baselines.",
            f"Unlike prior work on {rng.choice(_TERMS)}, our {noun} needs no {rng.choice(_TERMS)}.",
            f"We release our {rng.choice(_NOUNS)} and code (id {seed}-{index}).",
        ]
        rng.shuffle(sentences)
        acronym, year = _VENUES[index % len(_VENUES)]
        records.append(
            PaperRecord(
                abstract=" ".join(sentences),
                venue=f"{acronym} {year}",
                title=title,
                authors=[AuthorRecord(name) for name in rng.sample(authors, rng.randint(1, 6))],
                external_id=f"synthetic-{seed}-{index}",
            )
        )
    return records


_WORD = re.compile(r"[A-Za-z][a-z]{3,}")


def scale_records(originals: list, target: int, seed: int) -> list:
    """Copies of the originals with perturbed titles and abstracts, until `target` papers in all.

    Each copy replaces a few words of its title and abstract with words drawn from the corpus
    itself (so term frequencies stay realistic) and keeps venue and authors; titles at a venue
    and abstracts stay unique, so the loader sees every copy as a new paper.
    """
    from dataclasses import replace

    from papers.text import normalise_abstract, normalise_title

    if target <= len(originals) or not originals:
        return []
    rng = random.Random(seed)
    vocabulary = [
        word
        for word, _ in Counter(
            word.lower()
            for record in originals[:5000]
            for word in _WORD.findall(record.title + " " + record.abstract)
        ).most_common(5000)
    ]
    titles = {(record.venue, normalise_title(record.title)) for record in originals}
    abstracts = {normalise_abstract(record.abstract) for record in originals if record.abstract}

    def perturb(text: str, share: float) -> str:
        words = text.split(" ")
        if not words or not text:
            return text
        for _ in range(max(1, round(len(words) * share))):
            position = rng.randrange(len(words))
            words[position] = rng.choice(vocabulary)
        return " ".join(words)

    copies = []
    order = list(range(len(originals)))
    generation = 0
    while len(originals) + len(copies) < target:
        generation += 1
        rng.shuffle(order)
        for index in order:
            if len(originals) + len(copies) >= target:
                break
            original = originals[index]
            for attempt in range(6):
                title = perturb(original.title, 0.12) if original.title else ""
                abstract = perturb(original.abstract, 0.06) if original.abstract else ""
                if attempt == 5:
                    title = f"{title} (copy {generation})"
                title_key = (original.venue, normalise_title(title))
                abstract_key = normalise_abstract(abstract)
                if title_key not in titles and (not abstract or abstract_key not in abstracts):
                    break
            titles.add(title_key)
            if abstract:
                abstracts.add(abstract_key)
            copies.append(
                replace(
                    original,
                    title=title,
                    abstract=abstract,
                    external_id=f"{original.external_id or 'paper'}.copy{generation}-{index}",
                    line=None,
                )
            )
    return copies


def write_jsonl(records: list, folder: Path, per_file: int = 20000) -> list[Path]:
    """Records as JSON Lines exports (the format export_papers writes and load_papers reads)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for start in range(0, len(records), per_file):
        path = folder / f"corpus-{start // per_file:03d}.jsonl"
        with path.open("w", encoding="utf-8") as stream:
            for record in records[start : start + per_file]:
                year = re.search(r"\b(\d{4})\b", record.venue)
                entry = {
                    "external_id": record.external_id or None,
                    "title": record.title or None,
                    "abstract": record.abstract,
                    "venue": record.venue,
                    "year": int(year.group(1)) if year else None,
                    "topics": list(record.topics),
                    "authors": [author.name for author in record.authors],
                    "related_titles": [],
                }
                stream.write(json.dumps(entry, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def build_corpus(papers: int, anthology: Path | None, seed: int) -> Corpus:
    if anthology is not None:
        files, originals = anthology_records(anthology)
        if not originals:
            raise SystemExit(f"bench: no Anthology XML in {anthology}")
        if papers >= len(originals):
            return Corpus(
                description=(
                    f"ACL Anthology XML ({len(files)} files, {len(originals):,} papers) "
                    f"+ {papers - len(originals):,} perturbed copies"
                ),
                xml_files=files,
                xml_papers=len(originals),
                records=scale_records(originals, papers, seed),
            )
        rng = random.Random(seed)
        return Corpus(
            description=f"{papers:,} papers sampled from the ACL Anthology XML",
            records=rng.sample(originals, papers),
        )
    base = min(papers, 20000)
    originals = synthetic_records(base, seed)
    return Corpus(
        description=(
            f"synthetic (seed {seed}): {base:,} generated papers"
            + (f" + {papers - base:,} perturbed copies" if papers > base else "")
        ),
        records=originals + scale_records(originals, papers, seed),
    )


# --- the load ---------------------------------------------------------------------------------


def load_corpus(paths: list[Path]):
    """The one call into the project's loader: what `load_papers PATH ...` does."""
    from papers.loading import load_files

    return load_files(paths)


def load(corpus: Corpus, work_dir: Path) -> list[LoadTiming]:
    timings = []
    if corpus.xml_files:
        log(f"loading {len(corpus.xml_files)} Anthology XML files ({corpus.xml_papers:,} papers)")
        started = time.perf_counter()
        summary = load_corpus(corpus.xml_files)
        seconds = time.perf_counter() - started
        timings.append(
            LoadTiming("Anthology XML", summary.new, seconds, summary.phases, os.getloadavg()[0])
        )
        log(f"  {summary.describe()}")
    if corpus.records:
        folder = work_dir / "corpus"
        shutil.rmtree(folder, ignore_errors=True)
        paths = write_jsonl(corpus.records, folder)
        log(f"loading {len(corpus.records):,} papers from {len(paths)} JSON Lines files")
        started = time.perf_counter()
        summary = load_corpus(paths)
        seconds = time.perf_counter() - started
        timings.append(
            LoadTiming("JSON Lines", summary.new, seconds, summary.phases, os.getloadavg()[0])
        )
        log(f"  {summary.describe()}")
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return timings


# --- the requests -----------------------------------------------------------------------------


# Targets (ms, one client, p95) by kind of request (issue 14).
TARGETS_MS = {"search": 100.0, "list": 75.0, "page": 40.0}


@dataclass
class RequestSpec:
    name: str
    kind: str  # search, list, page: which target applies
    urls: list[str]  # distinct where the collection allows; the runs take them in turn

    @property
    def target_ms(self) -> float:
        return TARGETS_MS[self.kind]


def _query(params: dict, path: str = "/") -> str:
    return path + "?" + urlencode(params) if params else path


def distinct_urls(variants: list[dict], needed: int, path: str = "/") -> list[str]:
    """`needed` URLs, each a variant's query or, once the variants run out, a later page of
    one (page 2, 3 …): a request that repeats no URL cannot be answered by a cache of pages."""
    if not variants:
        return []
    urls = []
    page = 1
    while len(urls) < needed and page <= needed:
        for params in variants:
            urls.append(_query(params if page == 1 else {**params, "page": page}, path))
            if len(urls) == needed:
                break
        page += 1
    return urls


def _rows(statement: str, params: list | None = None) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(statement, params or [])
        return cursor.fetchall()


def word_pools(count: int) -> tuple[list[str], list[str]]:
    """(rare words: lexemes in 3 to 8 papers that stem to themselves, so that the query means
    the lexeme; common words: the commonest words of titles, as written), deterministic."""
    rare = _rows(
        "SELECT word FROM papers_lexeme WHERE documents BETWEEN 3 AND 8 AND length(word) >= 7 "
        "AND word ~ '^[a-z]+$' AND ts_lexize('english_stem', word) = ARRAY[word] "
        "ORDER BY md5(word) LIMIT %s",
        [count],
    )
    common = _rows(
        "SELECT word FROM (SELECT lower(w) AS word FROM papers_paper p, "
        "regexp_split_to_table(p.title, '[^A-Za-z]+') AS w WHERE mod(p.id, 7) = 0) AS words "
        "WHERE length(word) >= 4 AND numnode(plainto_tsquery('english', word)) > 0 "
        "GROUP BY word ORDER BY count(*) DESC, word LIMIT %s",
        [count],
    )
    return [row[0] for row in rare] or ["transliteration"], [row[0] for row in common] or ["model"]


def filter_pools(count: int) -> dict[str, list]:
    """The values the filter rows combine, the most used first."""
    pools = {
        "venue": "SELECT v.slug FROM papers_venue v JOIN papers_paper p ON p.venue_id = v.id "
        "GROUP BY v.slug ORDER BY count(*) DESC, v.slug LIMIT %s",
        "topic": "SELECT t.slug FROM papers_topic t JOIN papers_papertopic l ON l.topic_id = t.id "
        "GROUP BY t.slug ORDER BY count(*) DESC, t.slug LIMIT %s",
        "year": "SELECT v.year FROM papers_venue v JOIN papers_paper p ON p.venue_id = v.id "
        "WHERE v.year IS NOT NULL GROUP BY v.year ORDER BY count(*) DESC, v.year LIMIT %s",
        "country": "SELECT country FROM papers_paper WHERE country <> '' "
        "GROUP BY country ORDER BY count(*) DESC, country LIMIT %s",
        "author": "SELECT a.slug FROM papers_author a JOIN papers_authorship s "
        "ON s.author_id = a.id GROUP BY a.slug ORDER BY count(*) DESC, a.slug LIMIT %s",
        "venue_topic": "SELECT v.slug, t.slug FROM papers_papertopic l "
        "JOIN papers_paper p ON p.id = l.paper_id JOIN papers_venue v ON v.id = p.venue_id "
        "JOIN papers_topic t ON t.id = l.topic_id "
        "GROUP BY v.slug, t.slug ORDER BY count(*) DESC, v.slug, t.slug LIMIT %s",
        "author_year": "SELECT a.slug, v.year FROM papers_authorship s "
        "JOIN papers_author a ON a.id = s.author_id JOIN papers_paper p ON p.id = s.paper_id "
        "JOIN papers_venue v ON v.id = p.venue_id WHERE v.year IS NOT NULL "
        "GROUP BY a.slug, v.year ORDER BY count(*) DESC, a.slug, v.year LIMIT %s",
        "topic_year": "SELECT t.slug, v.year FROM papers_papertopic l "
        "JOIN papers_topic t ON t.id = l.topic_id JOIN papers_paper p ON p.id = l.paper_id "
        "JOIN papers_venue v ON v.id = p.venue_id WHERE v.year IS NOT NULL "
        "GROUP BY t.slug, v.year ORDER BY count(*) DESC, t.slug, v.year LIMIT %s",
    }
    return {
        name: [row[0] if len(row) == 1 else row for row in _rows(statement, [count])]
        for name, statement in pools.items()
    }


def _combined(first: list, second: list) -> list[tuple]:
    """Every pair of the two lists, the pairs of their first items before later ones."""
    pairs = []
    for total in range(len(first) + len(second) - 1):
        for index in range(max(0, total - len(second) + 1), min(total, len(first) - 1) + 1):
            pairs.append((first[index], second[total - index]))
    return pairs


def request_variants(pools: dict[str, list], rare: list, common: list) -> list[tuple]:
    """(name, kind, path, query variants) of every request row."""
    pairs = [f"{a} {b}" for a, b in _combined(common[:20], common[:20]) if a < b]
    rows = [
        ("search: rare term", "search", "/", [{"q": w} for w in rare]),
        ("search: common word", "search", "/", [{"q": w} for w in common]),
        ("search: two common words", "search", "/", [{"q": p} for p in pairs]),
        ("search: phrase", "search", "/", [{"q": f'"{p}"'} for p in pairs]),
        ("search: exclusion", "search", "/", [{"q": p.replace(" ", " -")} for p in pairs]),
        ("api: search", "search", "/api/papers/", [{"q": w} for w in common]),
        ("list + facets (home)", "list", "/", [{}]),
    ]
    single = {"venue": "filter: venue", "topic": "filter: topic", "year": "filter: year"}
    single["country"], single["author"] = "filter: country", "filter: author"
    for name, label in single.items():
        rows.append((label, "list", "/", [{name: value} for value in pools[name]]))
    for name, key, first, second in (
        ("filter: venue + topic", "venue_topic", "venue", "topic"),
        ("filter: author + year", "author_year", "author", "year"),
        ("filter: topic + year", "topic_year", "topic", "year"),
    ):
        rows.append((name, "list", "/", [{first: a, second: b} for a, b in pools[key]]))
    for name in ("venue", "topic", "year", "country"):
        variants = [{name: v, "q": w} for v, w in _combined(pools[name], common[:10])]
        rows.append((f"filter: {name} + q", "search", "/", variants))
    rows.append(
        (
            "filter: venue + topic + q=models",
            "search",
            "/",
            [{"venue": v, "topic": t, "q": "models"} for v, t in pools["venue_topic"]],
        )
    )
    return [row for row in rows if row[3]]


def choose_requests(seed: int, needed: int = 200) -> list[RequestSpec]:
    """Every request row, each with up to `needed` distinct URLs."""
    from papers.models import Paper

    pools = filter_pools(needed)
    rare, common = word_pools(needed)
    specs = [
        RequestSpec(name, kind, distinct_urls(variants, needed, path))
        for name, kind, path, variants in request_variants(pools, rare, common)
    ]
    total = Paper.objects.count()
    deep = max(2, total // 50)
    pages = range(max(2, deep - needed // 2), max(2, deep - needed // 2) + needed)
    specs.append(RequestSpec(f"deep page (~{deep})", "list", [_query({"page": p}) for p in pages]))
    rng = random.Random(seed)
    ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    sample = rng.sample(ids, min(needed, len(ids)))
    if sample:
        specs.append(RequestSpec("paper page", "page", [f"/papers/{pk}/" for pk in sample]))
        specs.append(
            RequestSpec("similar page", "page", [f"/papers/{pk}/similar/" for pk in sample])
        )
    if pools["author"]:
        authors = [f"/authors/{slug}/" for slug in pools["author"]]
        specs.append(RequestSpec("author page", "list", authors))
    return specs


# --- the SQL alone ----------------------------------------------------------------------------


@dataclass
class SqlTiming:
    queries: int = 0
    milliseconds: float | None = None
    status: int | None = None
    slowest_ms: float = 0.0
    plan: list[str] = field(default_factory=list)  # EXPLAIN ANALYZE of the slowest statement


def explain_ms(sql: str) -> float:
    """Planning + execution time PostgreSQL reports for one statement."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return float(plan[0].get("Planning Time", 0.0)) + float(plan[0].get("Execution Time", 0.0))


def explain_plan(sql: str) -> list[str]:
    """The statement's plan with actual rows and buffers, as EXPLAIN prints it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) " + sql)
        return [row[0] for row in cursor.fetchall()]


def captured_selects(client, url: str) -> tuple[int, list[str]]:
    """The response status and the SELECTs the view ran for `url` (after one warming run)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm: the first request of a process compiles templates, etc.
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    statements = [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"] and query["sql"].lstrip().upper().startswith(("SELECT", "WITH"))
    ]
    return response.status_code, statements


def sql_alone(urls: list[str], repeats: int = 3) -> SqlTiming:
    """Run the view in-process for each URL, capture its SQL, and time each SELECT with EXPLAIN
    ANALYZE: per request the sum over its queries of the best of `repeats` runs, averaged over
    the URLs. The plan of the slowest statement is kept (the report's misses show it)."""
    from django.test import Client

    client = Client(raise_request_exception=False)  # a failing view still shows its SQL
    result = SqlTiming()
    totals, slowest_sql = [], None
    for url in urls:
        result.status, statements = captured_selects(client, url)
        result.queries = max(result.queries, len(statements))
        total = 0.0
        for sql in statements:
            best = min(explain_ms(sql) for _ in range(repeats))
            total += best
            if best > result.slowest_ms:
                result.slowest_ms, slowest_sql = best, sql
        totals.append(total)
    result.milliseconds = sum(totals) / len(totals) if totals else None
    if slowest_sql is not None:
        result.plan = explain_plan(slowest_sql)
    return result


# --- the server -------------------------------------------------------------------------------


@dataclass
class HttpTiming:
    clients: int
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    urls: set[str] = field(default_factory=set)  # the distinct URLs requested

    def percentile(self, share: float) -> float | None:
        if not self.latencies_ms:
            return None
        ordered = sorted(self.latencies_ms)
        return ordered[max(0, math.ceil(share * len(ordered)) - 1)]

    @property
    def rate(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0


def warm_up(port: int, urls: list[str]) -> None:
    """A few untimed requests first (the workers' database connections, compiled templates)."""
    for url in urls:
        with contextlib.suppress(OSError):
            get(port, url)


def measure_http(
    port: int, urls: list[str], clients: int, count: int, time_limit: float
) -> HttpTiming:
    """`count` requests (taking the URLs in turn, again from the first only when they run out)
    from `clients` threads, each with a keep-alive connection; stops after `time_limit` s."""
    result = HttpTiming(clients=clients)
    lock = threading.Lock()
    next_index = iter(range(count))
    deadline = time.monotonic() + time_limit

    def take() -> int | None:
        with lock:
            if time.monotonic() > deadline:
                return None
            return next(next_index, None)

    def client() -> None:
        connection = HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while (index := take()) is not None:
                url = urls[index % len(urls)]
                with lock:
                    result.urls.add(url)
                started = time.perf_counter()
                try:
                    status, _ = get(port, url, connection=connection)
                except OSError as error:
                    connection.close()
                    connection = HTTPConnection("127.0.0.1", port, timeout=60)
                    with lock:
                        result.statuses[type(error).__name__] += 1
                    continue
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    result.latencies_ms.append(elapsed)
                    result.statuses[status] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.perf_counter() - started
    return result


# --- the report (bench/report.py) ------------------------------------------------------------


def machine_description() -> dict[str, str]:
    from django.db import connection

    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    import django

    return {
        "CPUs (nproc)": str(os.cpu_count()),
        "RAM": memory or "unknown",
        "PostgreSQL": version,
        "Python": sys.version.split()[0],
        "Django": django.get_version(),
    }


# --- the run ----------------------------------------------------------------------------------


@dataclass
class Options:
    papers: int = 100_000
    anthology: Path | None = None
    synthetic: bool = False
    seed: int = 20240501
    database: str = DEFAULT_DATABASE
    reuse: bool = False
    drop: bool = False
    requests: int = 40  # per request type with one client
    requests_concurrent: int = 120  # per request type with eight clients
    clients: tuple[int, ...] = (1, 8)
    time_limit: float = 20.0  # seconds per request type and concurrency
    workers: int | None = None
    explain_repeats: int = 3
    output: Path | None = DEFAULT_OUTPUT
    work_dir: Path = WORK_DIR
    notes: list[str] = field(default_factory=list)


def resolve_anthology(options: Options) -> Path | None:
    if options.synthetic:
        return None
    if options.anthology is not None:
        if not options.anthology.is_dir():
            raise SystemExit(f"bench: no such folder {options.anthology}")
        return options.anthology
    return DEFAULT_ANTHOLOGY if DEFAULT_ANTHOLOGY.is_dir() else None


def split_urls(urls: list[str], one: int, eight: int) -> dict[str, list[str]]:
    """The URLs of a row for each use, apart from one another while there are enough: the
    one-client run, the eight-client run, then the untimed warm-up and the SQL timing."""
    spare = urls[one + eight :] or urls
    return {
        "c1": urls[:one],
        "c8": urls[one : one + eight] or urls,
        "warm": spare[:2],
        "sql": spare[2:5] or spare[:3],
    }


def measure_rows(specs: list[RequestSpec], options: Options, url: str):
    """(rows, server settings): each request row timed over HTTP at each number of clients."""
    log("timing the SQL alone (EXPLAIN ANALYZE)")
    parts = {
        spec.name: split_urls(spec.urls, options.requests, options.requests_concurrent)
        for spec in specs
    }
    sql = {spec.name: sql_alone(parts[spec.name]["sql"], options.explain_repeats) for spec in specs}
    environment = {**os.environ, "DATABASE_URL": url, "DJANGO_HTTPS": "0"}
    environment["DJANGO_RESPONSE_CACHE"] = "0"  # every request does its work
    del environment["DJANGO_STATEMENT_TIMEOUT_MS"]
    if options.workers:
        environment["GUNICORN_WORKERS"] = str(options.workers)
    rows = []
    with Gunicorn(environment, options.work_dir / "gunicorn.log") as server:
        server_info = server.settings()
        log(
            f"gunicorn on 127.0.0.1:{server.port} "
            f"({server_info['workers']} workers × {server_info['threads']} threads)"
        )
        for spec in specs:
            warm_up(server.port, parts[spec.name]["warm"])
            http = {}
            for clients in options.clients:
                count, urls = options.requests, parts[spec.name]["c1"]
                if clients != 1:
                    count, urls = options.requests_concurrent, parts[spec.name]["c8"]
                http[clients] = measure_http(server.port, urls, clients, count, options.time_limit)
            rows.append(Row(spec, sql[spec.name], http))
            one = http.get(min(options.clients))
            p50 = one.percentile(0.5) if one else None
            log(f"  {spec.name}: SQL {sql[spec.name].milliseconds} ms, p50 {p50} ms")
    return rows, server_info


def run_notes(options: Options, corpus: Corpus, load_before, loads: list[LoadTiming]):
    notes = list(options.notes)
    notes.append(
        "Copies keep their original's venue and authors, so venue, topic and author pages hold "
        "several times the papers of the real ones (a pessimistic case for filters)."
        if corpus.records and "copies" in corpus.description
        else "Corpus without copies."
    )
    notes.append("The database is VACUUM ANALYZEd after the load, before any request.")
    for timing in loads:
        notes.append(
            f"Load average (1 min) when the {timing.label} load ended: {timing.load_average:.1f} "
            f"on {os.cpu_count()} CPUs."
        )
    load_after = os.getloadavg()
    notes.append(
        f"Load average (1 min) {load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end "
        f"of the HTTP runs, on {os.cpu_count()} CPUs: other processes on the machine "
        "(anything above the benchmark's own clients and server) inflate the latencies."
    )
    return notes


def run(options: Options) -> str:
    """The whole benchmark; returns the markdown report (also written to options.output)."""
    load_before = os.getloadavg()
    url = bench_database_url(options.database)
    reuse = options.reuse and database_exists(url)
    if not reuse:
        log(f"creating database {options.database}")
        recreate_database(url)
    setup_django(url)
    log("migrating")
    migrate()
    from papers.models import Paper

    options.work_dir.mkdir(parents=True, exist_ok=True)
    loads: list[LoadTiming] = []
    if reuse and Paper.objects.exists():
        corpus = Corpus(description=f"reused database {options.database} (not reloaded)")
        log(f"reusing {options.database}: {Paper.objects.count():,} papers")
    else:
        log(f"building the corpus ({options.papers:,} papers)")
        corpus = build_corpus(options.papers, resolve_anthology(options), options.seed)
        loads = load(corpus, options.work_dir)
    log("choosing the requests")
    specs = choose_requests(options.seed, options.requests + options.requests_concurrent + 5)
    rows, server_info = measure_rows(specs, options, url)
    header = {
        "corpus": corpus.description,
        "papers": f"{Paper.objects.count():,}",
        "machine": "; ".join(f"{key} {value}" for key, value in machine_description().items()),
        "server": ", ".join(f"{key} {value}" for key, value in server_info.items()),
    }
    report = render(rows, loads, header, run_notes(options, corpus, load_before, loads))
    if options.output is not None:
        options.output.parent.mkdir(parents=True, exist_ok=True)
        options.output.write_text(report, encoding="utf-8")
        log(f"wrote {options.output}")
    if options.drop:
        drop_database(url)
    return report


def parse_arguments(argv: list[str]) -> Options:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000, help="corpus size (default 100000)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--anthology", type=Path, help="folder of Anthology XML files")
    source.add_argument(
        "--synthetic",
        action="store_true",
        help="a synthetic corpus, even if the Anthology is there",
    )
    parser.add_argument("--seed", type=int, default=Options.seed)
    parser.add_argument(
        "--database", default=DEFAULT_DATABASE, help="database name (default papers_bench)"
    )
    parser.add_argument("--reuse", action="store_true", help="keep an already loaded database")
    parser.add_argument("--drop", action="store_true", help="drop the database at the end")
    parser.add_argument(
        "--requests", type=int, default=Options.requests, help="requests per type, 1 client"
    )
    parser.add_argument(
        "--requests-concurrent",
        type=int,
        default=Options.requests_concurrent,
        help="requests per type, 8 clients",
    )
    parser.add_argument(
        "--time-limit", type=float, default=Options.time_limit, help="seconds per type and level"
    )
    parser.add_argument(
        "--explain-repeats", type=int, default=3, help="EXPLAIN ANALYZE runs per query (best kept)"
    )
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: gunicorn.conf.py)")
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        help="markdown report (default bench/results.md)",
    )
    parser.add_argument("--work-dir", type=Path, default=WORK_DIR)
    arguments = parser.parse_args(argv)
    if arguments.papers < 1:
        parser.error("--papers must be positive")
    return Options(
        papers=arguments.papers,
        anthology=arguments.anthology,
        synthetic=arguments.synthetic,
        seed=arguments.seed,
        database=arguments.database,
        reuse=arguments.reuse,
        drop=arguments.drop,
        requests=arguments.requests,
        requests_concurrent=arguments.requests_concurrent,
        time_limit=arguments.time_limit,
        workers=arguments.workers,
        explain_repeats=max(1, arguments.explain_repeats),
        output=arguments.output,
        work_dir=arguments.work_dir,
    )


def main(argv: list[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    report = run(options)
    print(report)
    log(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
