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
   filters with and without q, facets, deep pages in each order, paper, similar and author
   pages):
   - the time PostgreSQL alone takes for the SQL the view runs (captured in-process, then
     EXPLAIN (ANALYZE) of each query: planning + execution);
   - p50/p95 latency and requests/s over HTTP through gunicorn (gunicorn.conf.py, the
     production configuration) on a free loopback port, with 1 and with 8 concurrent clients.
5. A markdown table on stdout and in bench/results.md (date, machine, PostgreSQL version).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the project's packages on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_database import (
    DEFAULT_DATABASE,
    bench_database_url,
    database_exists,
    drop_database,
    migrate,
    recreate_database,
    setup_django,
)
from bench.corpus import Corpus, build_corpus, write_jsonl
from bench.environment import DEFAULT_ANTHOLOGY, PROJECT_DIR, WORK_DIR, log, memory_gib
from bench.report import LoadTiming, Row, render
from bench.request_mix import RequestSpec, choose_requests
from bench.server import Gunicorn
from bench.timing import measure_http, sql_alone, warm_up

DEFAULT_OUTPUT = PROJECT_DIR / "bench" / "results.md"
TAIL_URLS = 3  # the slowest one-client URLs whose SQL explains a missed p95

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
        # The load's pages written out now, not by the checkpointer while requests are timed.
        cursor.execute("CHECKPOINT")
    return timings


# --- the report (bench/report.py) ------------------------------------------------------------


def machine_description() -> dict[str, str]:
    from django.db import connection

    gib = memory_gib()
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    import django

    return {
        "CPUs (nproc)": str(os.cpu_count()),
        "RAM": f"{gib:.1f} GiB" if gib is not None else "unknown",
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
    time_the_tails(rows, options.explain_repeats)
    return rows, server_info


def time_the_tails(rows: list[Row], repeats: int) -> None:
    """The SQL of the slowest one-client URLs (TAIL_URLS) of each row that missed its p95: the
    SQL column times other URLs of the row, which need not be the ones that made the p95."""
    for row in rows:
        one = row.http.get(1)
        p95 = one.percentile(0.95) if one else None
        if p95 is not None and p95 > row.spec.target_ms:
            row.tail_sql = sql_alone(one.slowest_urls(TAIL_URLS), repeats)


def run_notes(options: Options, corpus: Corpus, load_before, loads: list[LoadTiming]):
    notes = list(options.notes)
    notes.append(
        "Copies keep their original's venue and authors, so venue, topic and author pages hold "
        "several times the papers of the real ones (a pessimistic case for filters)."
        if corpus.records and "copies" in corpus.description
        else "Corpus without copies."
    )
    notes.append(
        "The database is VACUUM ANALYZEd and checkpointed after the load, before any request."
    )
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


def _parser() -> argparse.ArgumentParser:
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
    return parser


def parse_arguments(argv: list[str]) -> Options:
    parser = _parser()
    arguments = parser.parse_args(argv)
    if arguments.papers < 1:
        parser.error("--papers must be positive")
    # Every option is a field of Options, under the same name.
    chosen = vars(arguments)
    chosen["explain_repeats"] = max(1, chosen["explain_repeats"])
    return Options(**chosen)


def main(argv: list[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    started = time.perf_counter()
    report = run(options)
    print(report)
    log(f"done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
