"""The soak run's clients: threads asking for list, search, paper and similar pages for a
while, their samples summarised; and the fault, PostgreSQL stopped and started in the middle,
judged from the samples."""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode

from bench.server import get
from bench.soak_site import SEARCH_TERMS, Database

RECOVERY_LIMIT = 5.0  # seconds from the database being ready to the site serving again
REQUEST_TIMEOUT = 30.0  # per request, as gunicorn's worker timeout
CLEAN_503_MARKER = "Temporarily unavailable"


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
