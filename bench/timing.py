"""What a benchmark measures for each kind of request: the SQL alone (EXPLAIN ANALYZE of what
the view runs) and the latency over HTTP through gunicorn with 1 and 8 clients."""

from __future__ import annotations

import contextlib
import json
import math
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.client import HTTPConnection

from bench.server import get


@dataclass
class SqlTiming:
    queries: int = 0
    milliseconds: float | None = None
    status: int | None = None
    slowest_ms: float = 0.0
    plan: list[str] = field(default_factory=list)  # EXPLAIN ANALYZE of the slowest statement
    # The project's SQL functions the slowest statement calls: their work is in no plan node.
    functions: list[str] = field(default_factory=list)
    # The plan of the slowest statement those functions run, as auto_explain reports it.
    inner_plan: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)  # the URLs whose SQL was timed


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


# auto_explain, for one transaction: every nested statement's plan with
# actual rows and buffers, sent to the client as a notice rather than to the server's log.
_AUTO_EXPLAIN = (
    "SET LOCAL auto_explain.log_min_duration = 0",
    "SET LOCAL auto_explain.log_nested_statements = on",
    "SET LOCAL auto_explain.log_analyze = on",
    "SET LOCAL auto_explain.log_buffers = on",
    "SET LOCAL auto_explain.log_timing = off",
    "SET LOCAL auto_explain.log_level = notice",
)
_DURATION = re.compile(r"^duration: ([0-9.]+) ms\s+plan:\n(.*)", re.DOTALL)


def inner_plan(sql: str) -> list[str]:
    """The plan of the slowest statement that the project's SQL functions called by ``sql``
    run (auto_explain's report of a nested statement), [] where auto_explain cannot be loaded
    (it needs a superuser and the server's contrib modules)."""
    from django.db import DatabaseError, connection, transaction

    reports = []

    def kept(notice) -> None:  # a notice is valid only during its handler's call
        reports.append(notice.message_primary or "")

    connection.ensure_connection()
    raw = connection.connection
    raw.add_notice_handler(kept)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("LOAD 'auto_explain'")
            for setting in _AUTO_EXPLAIN:
                cursor.execute(setting)
            cursor.execute(sql)
            # Off again at once, should this run inside a longer transaction.
            cursor.execute("SET LOCAL auto_explain.log_min_duration = -1")
    except DatabaseError:
        return []
    finally:
        raw.remove_notice_handler(kept)
    return slowest_nested_plan(reports)


def slowest_nested_plan(messages: list[str]) -> list[str]:
    """The plan lines of the slowest of auto_explain's reports but the last (the statement
    itself, which ends last), without the query's text and parameters."""
    timed = [match for message in messages[:-1] if (match := _DURATION.match(message))]
    if not timed:
        return []
    slowest = max(timed, key=lambda match: float(match.group(1)))
    lines = slowest.group(2).splitlines()
    return [line for line in lines if not line.startswith(("Query Text:", "Query Parameters:"))]


def captured_selects(client, url: str) -> tuple[int, list[str]]:
    """The response status and the SELECTs the view ran for `url` (after one warming run),
    as a newly started gunicorn worker runs them: the common words held, no phrase."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from papers.word_memory import drop_held_phrases

    client.get(url)  # warm: the first request of a process compiles templates, etc.
    drop_held_phrases()
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
    result = SqlTiming(urls=list(urls))
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
        result.functions = sorted(set(re.findall(r"\b(papers_\w+)\(", slowest_sql)))
        if result.functions:
            result.inner_plan = inner_plan(slowest_sql)
    return result


@dataclass
class HttpTiming:
    clients: int
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    urls: set[str] = field(default_factory=set)  # the distinct URLs requested
    timed: list[tuple[float, str]] = field(default_factory=list)  # (ms, URL) of each response

    def slowest_urls(self, count: int) -> list[str]:
        """The distinct URLs of the slowest responses, slowest first: the p95's tail."""
        urls: list[str] = []
        for _, url in sorted(self.timed, reverse=True):
            if url not in urls:
                urls.append(url)
            if len(urls) == count:
                break
        return urls

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
                    result.timed.append((elapsed, url))
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
