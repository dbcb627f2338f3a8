"""The similarity model fitted ahead, in a forked process, while a load's database work goes on.

The fit (papers/similarity.py ``fit``) reads only the collection's texts in id order, which are
final once a load has matched and updated its papers and drawn the new ones' ids
(papers/writing.py); the rest of the load is mostly PostgreSQL's work, the loader waiting. A
``FitAhead`` forks a child there that fits those texts and hands the model back through a pipe;
after the commit ``refresh_embeddings`` takes it when it reads the very same ids and texts, and
fits them itself otherwise (a failed or killed child, a collection changed in between). The
model is the same either way: the fit is seeded and runs on one BLAS thread in both
(``one_blas_thread``).

The child only computes. It closes every descriptor it inherited but its end of the pipe (the
database connection's socket among them, never used: closing a copy sends nothing), and it ends
as multiprocessing's forked children do (``os._exit``, no exit handlers). The parent ends and
reaps the child whatever happens (``close``, or leaving the ``with`` block). Collections smaller
than ``MIN_PAPERS`` are fitted after the commit as before: there a fork would cost about what
it saves.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

from django.db import connection

from .models import Paper
from .similarity import fit, model_text, one_blas_thread
from .tables import sql

MIN_PAPERS = 5000
# The longest the refresh waits for a fit still running ahead before fitting itself: a wedged
# child must not hold up the load (at 100,000 papers the whole fit takes about 10 s).
WAIT_SECONDS = 120

_TEXTS_SQL = "SELECT id, title, abstract FROM {paper} ORDER BY id"


def collection_texts(new_papers: list[Paper]) -> tuple[list[int], list[str]]:
    """The collection's ids and model texts in id order: the papers table's, and the new
    papers' (their ids drawn) not yet in it."""
    with connection.cursor() as cursor:
        cursor.execute(sql(_TEXTS_SQL))
        rows = cursor.fetchall()
    rows += [(paper.pk, paper.title, paper.abstract) for paper in new_papers]
    rows.sort(key=lambda row: row[0])
    return [row[0] for row in rows], [model_text(title, abstract) for _, title, abstract in rows]


def _keep_only(descriptor: int) -> None:
    """Close every descriptor the child inherited but ``descriptor``, the standard ones sent
    to /dev/null. Were the parent killed, what it held then closes with it: the server sees
    its connection end and rolls the load back, a reader of its output sees the output end,
    and the child, the pipe's reading end closed, fails to send and ends."""
    null = os.open(os.devnull, os.O_RDWR)
    for standard in (0, 1, 2):
        os.dup2(null, standard)
    # Fresh streams: a thread of the parent (the progress ticker) may have held stdout's lock
    # at the fork, and a warning written by the child would wait for it for ever.
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child's to its end
    os.closerange(3, descriptor)
    # SC_OPEN_MAX is -1 where descriptors are unlimited: closerange would close nothing.
    os.closerange(descriptor + 1, max(os.sysconf("SC_OPEN_MAX"), 2**20))


def _fit_and_send(texts: list[str], sender) -> None:
    """The child's work: fit the texts, send ("fitted", model) or ("failed", why)."""
    _keep_only(sender.fileno())
    try:
        with one_blas_thread():  # as refresh_embeddings fits: the same floats
            outcome = ("fitted", fit(texts))
    except Exception as error:  # noqa: BLE001 - the parent fits again and meets the error
        outcome = ("failed", repr(error))
    try:
        sender.send(outcome)
    except BrokenPipeError:  # the parent is gone
        return


class FitAhead:
    """At most one fit started ahead of a load's commit; a context manager that ends it."""

    def __init__(self):
        self.ids: list[int] | None = None
        self.texts: list[str] | None = None
        self._process = None
        self._receiver = None

    def __enter__(self) -> FitAhead:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def start(self, new_papers: list[Paper]) -> None:
        """Fork the fit of the collection's texts, the new papers' included (ids drawn), when
        the collection is large enough to gain by it."""
        if self._process is not None or Paper.objects.count() + len(new_papers) < MIN_PAPERS:
            return
        self.ids, self.texts = collection_texts(new_papers)
        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_fit_and_send, args=(self.texts, sender), daemon=True)
        try:
            process.start()
        except OSError:  # no process to be had (memory, limits): the refresh fits
            receiver.close()
            return
        finally:
            # The child holds the sending end: the parent's copy closed, a dead child reads
            # as EOF.
            sender.close()
        self._process, self._receiver = process, receiver

    def take(self, ids: list[int], texts: list[str]) -> tuple[bool, dict | None]:
        """(True, the model) when it was fitted ahead on exactly these ids and texts, else
        (False, None); the child is ended either way."""
        try:
            if self._process is None or ids != self.ids or texts != self.texts:
                return False, None
            if not self._receiver.poll(WAIT_SECONDS):
                return False, None
            kind, fitted = self._receiver.recv()
        except (EOFError, OSError):
            return False, None
        finally:
            self.close()
        return (True, fitted) if kind == "fitted" else (False, None)

    def close(self) -> None:
        """End the child if it still runs (its result unwanted), and reap it."""
        if self._process is None:
            return
        if self._process.is_alive():
            # SIGKILL: the child only computes, and a signal handler it inherited cannot
            # keep it alive (join would wait for ever).
            self._process.kill()
        self._process.join()
        self._receiver.close()
        self._process = self._receiver = None
        self.ids = self.texts = None
