"""How a load tells what it is doing while it works: phases with counts, and each file read.

papers/loading.py and papers/writing.py report to a ``Progress``; the base class keeps quiet
(tests, the benchmarks). ``load_papers`` gives a ``TerminalProgress`` on a terminal — a bar
per phase with its count, rate and elapsed time, redrawn in place, and kept alive by a ticker
during long steps (one big file, the similarity fit) — or a ``LineProgress`` otherwise: one
line per file, and each block's role and evidence at verbosity 2.
"""

import threading
import time

from .records import ParsedFile


class Progress:
    """Told about a load's work; says nothing."""

    def phase(self, name: str, total: int | None = None, unit: str = "") -> None:
        """A phase begins (the one before ends); ``total`` items, or None when unknown."""

    def advance(self, done: int, note: str = "") -> None:
        """``done`` items of the phase so far; ``note`` names what is being worked on."""

    def file_read(self, parsed: ParsedFile) -> None:
        """One file was read."""

    def finish(self) -> None:
        """The current phase is over."""


class LineProgress(Progress):
    """One line per file read (verbosity 1), with each block's role and evidence (2)."""

    def __init__(self, stream, verbosity: int):
        self.stream, self.verbosity = stream, verbosity

    def file_read(self, parsed: ParsedFile) -> None:
        if self.verbosity < 1:
            return
        warned = f", {len(parsed.warnings)} warnings" if parsed.warnings else ""
        self.stream.write(f"{parsed.source}: {len(parsed.papers)} papers{warned}")
        if self.verbosity >= 2:
            for decision in parsed.decisions:
                because = f"  ({decision.evidence})" if decision.evidence else ""
                self.stream.write(
                    f"  line {decision.line:>5}  {decision.kind:<13} {decision.text}{because}"
                )


class TerminalProgress(Progress):
    """A bar per phase on a terminal, redrawn in place (``stream`` is a command's OutputWrapper)."""

    WIDTH = 24
    TICK_SECONDS = 0.25

    def __init__(self, stream, clock=time.monotonic):
        self.stream, self.clock = stream, clock
        self.name: str | None = None
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.ticker: threading.Thread | None = None
        self.drawn = 0

    def phase(self, name: str, total: int | None = None, unit: str = "") -> None:
        self.finish()
        self.name, self.total, self.unit = name, total, unit
        self.count, self.note, self.started = 0, "", self.clock()
        self.draw()
        self.stopped.clear()
        self.ticker = threading.Thread(target=self.tick, daemon=True)
        self.ticker.start()

    def advance(self, done: int, note: str = "") -> None:
        self.count, self.note = done, note
        self.draw()

    def file_read(self, parsed: ParsedFile) -> None:
        self.advance(self.count + 1, parsed.source)

    def finish(self) -> None:
        if self.name is None:
            return
        self.stopped.set()
        if self.ticker is not None:
            self.ticker.join()
        self.note = ""
        self.draw()
        self.stream.write("", ending="\n", style_func=str)
        self.name, self.drawn = None, 0

    def tick(self) -> None:
        while not self.stopped.wait(self.TICK_SECONDS):
            self.draw()

    def line(self) -> str:
        elapsed = max(self.clock() - self.started, 1e-9)
        if self.total is None:
            return f"{self.name:<16} {elapsed:6.1f}s"
        done = min(self.count, self.total)
        filled = self.WIDTH * done // max(self.total, 1)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        rate = f"{done / elapsed:,.0f} {self.unit}/s" if done else ""
        counts = f"{done:,}/{self.total:,} {self.unit}"
        return f"{self.name:<16} [{bar}] {counts}  {rate:>12}  {elapsed:6.1f}s  {self.note}"

    def draw(self) -> None:
        with self.lock:
            if self.name is None:
                return
            text = self.line()
            self.stream.write("\r" + text.ljust(self.drawn), ending="", style_func=str)
            self.stream.flush()
            self.drawn = len(text)
