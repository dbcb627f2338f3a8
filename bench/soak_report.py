"""The soak run's report: markdown, for stdout and bench/soak-results.md."""

from __future__ import annotations

import os
import platform

from bench.environment import memory_gib
from bench.soak_clients import RECOVERY_LIMIT, Fault, FaultVerdict, Sample, Summary


def machine() -> str:
    gib = memory_gib()
    memory = f", {gib:.1f} GB RAM" if gib is not None else ""
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
        *_header(context, passed),
        *_load_phase(phase1),
        *_fault_phase(phase2, fault, verdict),
    ]
    if verdict.problems or phase1.errors:
        lines += ["", "## Problems", ""]
        if phase1.errors:
            lines.append(f"- phase 1: {phase1.errors} errors {dict(phase1.statuses)}")
        lines += [f"- phase 2: {problem}" for problem in verdict.problems]
    return "\n".join(lines) + "\n"


def _header(context: dict, passed: bool) -> list[str]:
    return [
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
    ]


def _load_phase(phase1: Summary) -> list[str]:
    return [
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
    ]


def _fault_phase(phase2: Summary, fault: Fault, verdict: FaultVerdict) -> list[str]:
    return [
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


def examples_of(samples: list[Sample], limit: int = 5) -> str:
    return "\n".join(
        f"  {s.status} {s.path} at +{s.started:.2f}s ({s.seconds * 1000:.0f} ms) {s.note[:160]!r}"
        for s in samples[:limit]
    )
