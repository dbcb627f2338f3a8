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
import os
import random
import shutil
import sys
import tempfile
import threading
from datetime import datetime, timezone
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the project's packages on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.environment import DEFAULT_ANTHOLOGY, PROJECT_DIR, log
from bench.server import Gunicorn
from bench.soak_clients import (
    Fault,
    fetch,
    judge_fault,
    load_targets,
    restart_in_the_middle,
    run_load,
    summarise,
)
from bench.soak_report import _ms, examples_of, machine, render
from bench.soak_site import Database, prepare, site_environment

DEFAULT_OUTPUT = PROJECT_DIR / "bench" / "soak-results.md"


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
            phase1 = load_phase(server, targets, options)
            phase2, fault, verdict = fault_phase(server, database, targets, options)
            gunicorn_settings = described(server.settings())
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


def load_phase(server, targets, options):
    """Phase 1: the clients for the run's duration; the summary of their samples."""
    for kind in ("list", "search", "paper", "similar"):  # warm every worker a little
        for _ in range(4):
            fetch(server.port, targets.pick(random.Random(len(kind)))[1])
    log(f"phase 1: {options.clients} clients for {options.duration:.0f} s")
    samples = run_load(server.port, targets, options.clients, options.duration, options.seed)
    phase1 = summarise(samples, options.duration)
    log(
        f"phase 1: {phase1.requests:,} requests, {phase1.errors} errors, p50 "
        f"{_ms(phase1.p50)}, p95 {_ms(phase1.p95)}, p99 {_ms(phase1.p99)}, "
        f"{phase1.rate:.1f} req/s"
    )
    if phase1.errors:
        log("phase 1 errors:\n" + examples_of([s for s in samples if s.status != 200]))
    return phase1


def fault_phase(server, database, targets, options):
    """Phase 2: the same load while PostgreSQL is stopped and started; (summary, fault, verdict)."""
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
    samples = run_load(server.port, targets, options.clients, options.duration, options.seed + 1)
    restarter.join(timeout=120)
    phase2 = summarise(samples, options.duration)
    verdict = judge_fault(samples, fault)
    if server.process.poll() is not None:
        verdict.problems.append("gunicorn exited during the run")
    first_200 = verdict.first_200_after_ready
    log(
        f"phase 2: {phase2.requests:,} requests, outage {verdict.outage:.2f} s, "
        f"non-200 {dict(verdict.failures)}, first 200 after ready "
        + (f"{first_200 * 1000:.0f} ms" if first_200 is not None else "never")
    )
    for title, group in (("unclean", verdict.unclean), ("outside", verdict.outside)):
        if group:
            log(f"{title} failures:\n" + examples_of(group))
    return phase2, fault, verdict


def described(conf: dict | None) -> str:
    """gunicorn's settings in a phrase for the report."""
    if not conf:
        return "?"
    threads = conf["threads"]
    plural = "" if threads == "1" else "s"
    return f"{conf['workers']} workers × {threads} thread{plural}, timeout {conf['timeout']} s"


if __name__ == "__main__":
    sys.exit(main())
