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
from datetime import datetime, timezone
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

from bench.server import Gunicorn, get  # noqa: E402  (needs the project on sys.path)


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


@dataclass
class LoadTiming:
    label: str
    papers: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.papers / self.seconds if self.seconds else 0.0


def load(corpus: Corpus, work_dir: Path) -> list[LoadTiming]:
    timings = []
    if corpus.xml_files:
        log(f"loading {len(corpus.xml_files)} Anthology XML files ({corpus.xml_papers:,} papers)")
        started = time.perf_counter()
        summary = load_corpus(corpus.xml_files)
        timings.append(LoadTiming("Anthology XML", summary.new, time.perf_counter() - started))
        log(f"  {summary.describe()}")
    if corpus.records:
        folder = work_dir / "corpus"
        shutil.rmtree(folder, ignore_errors=True)
        paths = write_jsonl(corpus.records, folder)
        log(f"loading {len(corpus.records):,} papers from {len(paths)} JSON Lines files")
        started = time.perf_counter()
        summary = load_corpus(paths)
        timings.append(LoadTiming("JSON Lines", summary.new, time.perf_counter() - started))
        log(f"  {summary.describe()}")
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return timings


# --- the requests -----------------------------------------------------------------------------


@dataclass
class RequestSpec:
    name: str
    kind: str  # search, list, page: which target applies
    urls: list[str]

    @property
    def target_ms(self) -> float:
        return {"search": 150.0, "list": 100.0, "page": 50.0}[self.kind]


def _query(params: dict) -> str:
    return "/?" + urlencode(params)


def rare_terms(count: int = 2) -> list[str]:
    """Words in a handful of papers (3-8), picked deterministically from the search vectors."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT word FROM ts_stat('SELECT search_vector FROM papers_paper')
            WHERE ndoc BETWEEN 3 AND 8 AND length(word) >= 7 AND word ~ '^[a-z]+$'
            ORDER BY md5(word) LIMIT %s
            """,
            [count],
        )
        return [row[0] for row in cursor.fetchall()] or ["transliteration"]


def choose_requests(seed: int) -> list[RequestSpec]:
    from django.db.models import Count

    from papers.models import Author, Paper, Topic, Venue

    total = Paper.objects.count()
    venue = Venue.objects.annotate(n=Count("papers")).order_by("-n", "name").first()
    topic = Topic.objects.annotate(n=Count("papers")).order_by("-n", "name").first()
    author = Author.objects.annotate(n=Count("papers")).order_by("-n", "slug").first()
    rng = random.Random(seed)
    ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    sample = sorted(rng.sample(ids, min(20, len(ids))))
    deep_page = max(2, total // 50)
    rare = rare_terms(2)

    specs = [
        RequestSpec("search: rare term", "search", [_query({"q": term}) for term in rare]),
        RequestSpec('search: "language models"', "search", [_query({"q": "language models"})]),
        RequestSpec(
            'search: "large language models"', "search", [_query({"q": "large language models"})]
        ),
        RequestSpec("search: phrase", "search", [_query({"q": '"machine translation"'})]),
        RequestSpec("search: exclusion", "search", [_query({"q": "translation -neural"})]),
        RequestSpec("list + facets (home)", "list", ["/"]),
    ]
    if venue is not None:
        specs.append(RequestSpec("filter: venue", "list", [_query({"venue": venue.slug})]))
        specs.append(
            RequestSpec(
                "filter: venue + q",
                "search",
                [_query({"q": "language models", "venue": venue.slug})],
            )
        )
    if topic is not None:
        specs.append(RequestSpec("filter: topic", "list", [_query({"topic": topic.slug})]))
    if venue is not None and topic is not None:
        specs.append(
            RequestSpec(
                "facets: venue + topic",
                "list",
                [_query({"venue": venue.slug, "topic": topic.slug})],
            )
        )
    specs.append(RequestSpec(f"deep page ({deep_page})", "list", [_query({"page": deep_page})]))
    if sample:
        specs.append(RequestSpec("paper page", "page", [f"/papers/{pk}/" for pk in sample]))
        specs.append(
            RequestSpec("similar page", "page", [f"/papers/{pk}/similar/" for pk in sample])
        )
    if author is not None:
        specs.append(RequestSpec("author page", "list", [f"/authors/{author.slug}/"]))
    return specs


# --- the SQL alone ----------------------------------------------------------------------------


@dataclass
class SqlTiming:
    queries: int = 0
    milliseconds: float | None = None
    status: int | None = None


def explain_ms(sql: str) -> float:
    """Planning + execution time PostgreSQL reports for one statement."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0]
    if isinstance(plan, str):
        plan = json.loads(plan)
    return float(plan[0].get("Planning Time", 0.0)) + float(plan[0].get("Execution Time", 0.0))


def sql_alone(spec: RequestSpec, repeats: int = 3, urls: int = 5) -> SqlTiming:
    """Run the view in-process, capture its SQL, and time each SELECT with EXPLAIN ANALYZE.

    The figure per request is the sum over its queries of the best of `repeats` runs; it is
    averaged over the spec's first `urls` URLs.
    """
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(raise_request_exception=False)  # a failing view still shows its SQL
    totals = []
    counts = []
    status = None
    for url in spec.urls[:urls]:
        client.get(url)  # warm: the first request of a process compiles templates, etc.
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        status = response.status_code
        statements = [
            query["sql"]
            for query in captured.captured_queries
            if query["sql"] and query["sql"].lstrip().upper().startswith(("SELECT", "WITH"))
        ]
        counts.append(len(statements))
        total = 0.0
        for sql in statements:
            total += min(explain_ms(sql) for _ in range(repeats))
        totals.append(total)
    return SqlTiming(
        queries=max(counts) if counts else 0,
        milliseconds=sum(totals) / len(totals) if totals else None,
        status=status,
    )


# --- the server -------------------------------------------------------------------------------


@dataclass
class HttpTiming:
    clients: int
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def percentile(self, share: float) -> float | None:
        if not self.latencies_ms:
            return None
        ordered = sorted(self.latencies_ms)
        return ordered[max(0, math.ceil(share * len(ordered)) - 1)]

    @property
    def rate(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0


def warm_up(port: int, spec: RequestSpec) -> None:
    """A few untimed requests first (caches, the workers' database connections)."""
    for url in spec.urls[:2] * 2:
        with contextlib.suppress(OSError):
            get(port, url)


def measure_http(
    port: int, spec: RequestSpec, clients: int, count: int, time_limit: float
) -> HttpTiming:
    """`count` requests (cycling through the spec's URLs) from `clients` threads, each with a
    keep-alive connection; stops early after `time_limit` seconds."""
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
                url = spec.urls[index % len(spec.urls)]
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


# --- the report -------------------------------------------------------------------------------


@dataclass
class Row:
    spec: RequestSpec
    sql: SqlTiming
    http: dict[int, HttpTiming]


def _ms(value: float | None) -> str:
    return "–" if value is None else (f"{value:.1f}" if value < 10 else f"{value:.0f}")


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


def verdict(row: Row) -> str:
    notes = []
    for clients, timing in sorted(row.http.items()):
        p95 = timing.percentile(0.95)
        if p95 is None:
            notes.append(f"c{clients}: no data")
        else:
            notes.append(f"c{clients} {'✓' if p95 <= row.spec.target_ms else '✗'}")
    one = row.http.get(1)
    p50 = one.percentile(0.5) if one else None
    if p50 is not None and row.sql.milliseconds:
        ratio = p50 / row.sql.milliseconds
        notes.append(f"app/SQL {ratio:.1f}× {'✓' if ratio <= 2 else '✗'}")
    return ", ".join(notes)


def render(
    rows: list[Row],
    loads: list[LoadTiming],
    corpus: Corpus,
    papers_in_db: int,
    machine: dict[str, str],
    server: dict[str, str],
    notes: list[str],
) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Benchmark",
        "",
        f"Run {now} by `make bench` (bench/run.py). Corpus: {corpus.description}; "
        f"{papers_in_db:,} papers in the database.",
        "",
        "Machine: " + "; ".join(f"{key} {value}" for key, value in machine.items()) + ".",
        "Server: gunicorn (gunicorn.conf.py) on loopback, "
        + ", ".join(f"{key} {value}" for key, value in server.items())
        + ".",
        "",
        "## Load",
        "",
        "| source | papers | seconds | papers/s | target ≥ 2,000/s |",
        "|---|---:|---:|---:|---|",
    ]
    total_papers = sum(timing.papers for timing in loads)
    total_seconds = sum(timing.seconds for timing in loads)
    for timing in [*loads, LoadTiming("total", total_papers, total_seconds)]:
        lines.append(
            f"| {timing.label} | {timing.papers:,} | {timing.seconds:.1f} | {timing.rate:,.0f} | "
            f"{'✓' if timing.rate >= 2000 else '✗'} |"
        )
    lines += [
        "",
        "## Requests",
        "",
        "Latencies in ms over HTTP (c1 = one client, c8 = eight concurrent clients); SQL = the "
        "time PostgreSQL alone takes for the view's queries (EXPLAIN ANALYZE: planning + "
        "execution, summed over the request's SELECTs, best of 3); app/SQL = c1 p50 ÷ SQL.",
        "",
        "| request | target p95 | SQL (queries) | c1 p50 | c1 p95 | c1 req/s | c8 p50 | c8 p95 "
        "| c8 req/s | status | met |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for row in rows:
        one, eight = row.http.get(1), row.http.get(8)
        statuses = Counter()
        for timing in row.http.values():
            statuses.update(timing.statuses)
        status = " ".join(f"{code}×{n}" for code, n in sorted(statuses.items(), key=str))
        lines.append(
            f"| {row.spec.name} | ≤ {row.spec.target_ms:.0f} | "
            f"{_ms(row.sql.milliseconds)} ({row.sql.queries}) | "
            f"{_ms(one.percentile(0.5) if one else None)} | "
            f"{_ms(one.percentile(0.95) if one else None)} | "
            f"{(one.rate if one else 0):.0f} | "
            f"{_ms(eight.percentile(0.5) if eight else None)} | "
            f"{_ms(eight.percentile(0.95) if eight else None)} | "
            f"{(eight.rate if eight else 0):.0f} | {status} | {verdict(row)} |"
        )
    lines += ["", "Request URLs:", ""]
    for row in rows:
        shown = ", ".join(f"`{url}`" for url in row.spec.urls[:3])
        more = f" (+{len(row.spec.urls) - 3} more)" if len(row.spec.urls) > 3 else ""
        lines.append(f"- {row.spec.name}: {shown}{more}")
    if notes:
        lines += ["", "## Notes", "", *[f"- {note}" for note in notes]]
    return "\n".join(lines) + "\n"


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
    anthology = resolve_anthology(options)
    loads: list[LoadTiming] = []
    if reuse and Paper.objects.exists():
        corpus = Corpus(description=f"reused database {options.database} (not reloaded)")
        log(f"reusing {options.database}: {Paper.objects.count():,} papers")
    else:
        log(f"building the corpus ({options.papers:,} papers)")
        corpus = build_corpus(options.papers, anthology, options.seed)
        loads = load(corpus, options.work_dir)
    papers_in_db = Paper.objects.count()

    log("choosing the requests")
    specs = choose_requests(options.seed)
    log("timing the SQL alone (EXPLAIN ANALYZE)")
    sql = {spec.name: sql_alone(spec, options.explain_repeats) for spec in specs}
    machine = machine_description()
    rows = []
    environment = {**os.environ, "DATABASE_URL": url, "DJANGO_HTTPS": "0"}
    del environment["DJANGO_STATEMENT_TIMEOUT_MS"]
    if options.workers:
        environment["GUNICORN_WORKERS"] = str(options.workers)
    with Gunicorn(environment, options.work_dir / "gunicorn.log") as server:
        server_info = server.settings()
        log(
            f"gunicorn on 127.0.0.1:{server.port} "
            f"({server_info['workers']} workers × {server_info['threads']} threads)"
        )
        for spec in specs:
            http = {}
            warm_up(server.port, spec)
            for clients in options.clients:
                count = options.requests if clients == 1 else options.requests_concurrent
                http[clients] = measure_http(server.port, spec, clients, count, options.time_limit)
            rows.append(Row(spec, sql[spec.name], http))
            one = http.get(min(options.clients))
            log(
                f"  {spec.name}: SQL {_ms(sql[spec.name].milliseconds)} ms, "
                f"p50 {_ms(one.percentile(0.5) if one else None)} ms"
            )
    notes = list(options.notes)
    notes.append(
        "Copies keep their original's venue and authors, so venue, topic and author pages hold "
        "several times the papers of the real ones (a pessimistic case for filters)."
        if corpus.records and "copies" in corpus.description
        else "Corpus without copies."
    )
    notes.append("The database is VACUUM ANALYZEd after the load, before any request.")
    load_after = os.getloadavg()
    notes.append(
        f"Load average (1 min) {load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end "
        f"of the HTTP runs, on {os.cpu_count()} CPUs: other processes on the machine "
        "(anything above the benchmark's own clients and server) inflate the latencies."
    )
    report = render(rows, loads, corpus, papers_in_db, machine, server_info, notes)
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
