"""The similarity model fitted ahead, in a forked process, while a load's database work goes on.

The fit (papers/similarity.py ``fit``) reads only the collection's texts in id order, which are
final once a load has matched and updated its papers and drawn the new ones' ids
(papers/writing.py); the rest of the load is mostly PostgreSQL's work, the loader waiting. A
``FitAhead`` forks a child there that fits those texts. Once the load has written its papers
and links, it sends the child the neighbours' other inputs (``send_inputs``), and the child
finds the neighbours too; it hands the model and the rows back through a pipe. After the commit
``refresh_embeddings`` takes the model when it reads the very same ids and texts, and the rows
when it reads the very inputs sent too; it computes them itself otherwise (a failed or killed
child, a collection changed in between). The results are the same either way: the fit is
seeded and both run on one BLAS thread (``one_blas_thread``).

The child only computes. It closes every descriptor it inherited but its ends of the two pipes
(the database connection's socket among them, never used: closing a copy sends nothing), and it
ends as multiprocessing's forked children do (``os._exit``, no exit handlers). The parent ends
and reaps the child whatever happens (``close``, or leaving the ``with`` block). Collections
smaller than ``MIN_PAPERS`` are fitted after the commit as before: there a fork would cost
about what it saves.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading

from django.db import connection

from .models import Paper
from .similarity import (
    Collection,
    fit,
    model_text,
    neighbour_rows,
    one_blas_thread,
    read_collection,
    shared_authors,
)
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


def _keep_only(*descriptors: int) -> None:
    """Close every descriptor the child inherited but ``descriptors`` (its ends of the pipes),
    the standard ones sent to /dev/null. Were the parent killed, what it held then closes with it: the server sees
    its connection end and rolls the load back, a reader of its output sees the output end,
    and the child, the pipe's reading end closed, fails to send and ends."""
    null = os.open(os.devnull, os.O_RDWR)
    for standard in (0, 1, 2):
        os.dup2(null, standard)
    # Fresh streams: a thread of the parent (the progress ticker) may have held stdout's lock
    # at the fork, and a warning written by the child would wait for it for ever.
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child's to its end
    low = 3
    for descriptor in sorted(descriptors):
        os.closerange(low, descriptor)
        low = descriptor + 1
    # SC_OPEN_MAX is -1 where descriptors are unlimited: closerange would close nothing.
    os.closerange(low, max(os.sysconf("SC_OPEN_MAX"), 2**20))


def _received(inputs, into: list) -> None:
    """The neighbours' other inputs the parent sends (see ``send_inputs``), or None when it
    closes its end without, or they cannot be read; read while the child fits."""
    try:
        into.append(inputs.recv())
    except Exception:  # noqa: BLE001 - without them the model is still taken, the rows found after
        into.append(None)


def _send(inputs, sent: tuple) -> None:
    """The parent's side of ``_received``, in a thread of its own: several MB through a pipe
    the child empties only when its fit lets its reading thread run (a reviewer: 6.5 s inside
    the load's transaction while a fit held the interpreter)."""
    try:
        inputs.send(sent)
    except OSError:  # the child is gone, or the load gave it up: take() finds no rows
        return


def _fit_and_send(ids: list[int], texts: list[str], sender, inputs) -> None:
    """The child's work: fit the texts, then, given the other inputs for these ids, the
    neighbours; send ("fitted", model, neighbour rows or None) or ("failed", why)."""
    _keep_only(sender.fileno(), inputs.fileno())
    received: list = []
    reader = threading.Thread(target=_received, args=(inputs, received), daemon=True)
    reader.start()
    try:
        with one_blas_thread():  # as refresh_embeddings fits: the same floats
            fitted, rows = fit(texts), None
            reader.join()
            if fitted is not None and received[0] is not None and received[0][0] == ids:
                _, years, events, areas, shared = received[0]
                collection = Collection(ids, texts, years, events, areas)
                rows = neighbour_rows(collection, fitted, shared)
        outcome = ("fitted", fitted, rows)
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
        self.sent: tuple | None = None  # the neighbours' other inputs sent to the child
        self._process = self._receiver = self._inputs = self._sending = None

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
        inputs, self._inputs = context.Pipe(duplex=False)
        process = context.Process(
            target=_fit_and_send, args=(self.ids, self.texts, sender, inputs), daemon=True
        )
        try:
            process.start()
        except OSError:  # no process to be had (memory, limits): the refresh fits
            receiver.close()
            self._inputs.close()
            return
        finally:
            # The child holds the sending end: the parent's copy closed, a dead child reads
            # as EOF (and the reading end of the inputs, which it sees end when ours closes).
            sender.close()
            inputs.close()
        self._process, self._receiver = process, receiver

    def send_inputs(self) -> None:
        """Hand the child the neighbours' other inputs (the collection's years, conferences and
        areas, the shared authors' matrix), read once the load wrote its last paper and link:
        the child then finds the neighbours too, while the load's database work goes on, where
        the refresh found them after the commit (about 2.5 s at 26,000 papers)."""
        if self._process is None or self.sent is not None or self._receiver.poll(0):
            return  # none, sent already, or it has failed (its answer is in)
        collection = read_collection()
        shared = shared_authors(collection.ids)
        self.sent = (collection.ids, collection.years, collection.events, collection.areas, shared)
        self._sending = threading.Thread(target=_send, args=(self._inputs, self.sent), daemon=True)
        self._sending.start()

    def take(self, collection: Collection, shared) -> tuple[bool, dict | None, object]:
        """(True, the model, the neighbour rows or None) when it was fitted ahead on exactly
        this collection's ids and texts (the rows: found on exactly its other inputs too), else
        (False, None, None); the child is ended either way."""
        read = (collection.ids, collection.texts)
        try:
            if self._process is None or read != (self.ids, self.texts):
                return False, None, None
            if self._sending is not None:
                self._sending.join(WAIT_SECONDS)
                if self._sending.is_alive():  # a wedged child: given up, the refresh fits
                    return False, None, None
            self._inputs.close()  # nothing more to send: the child need not wait for it
            if not self._receiver.poll(WAIT_SECONDS):
                return False, None, None
            kind, *outcome = self._receiver.recv()
            same = self.sent is not None and _same_inputs(self.sent, collection, shared)
        except (EOFError, OSError):
            return False, None, None
        finally:
            self.close()
        if kind != "fitted":
            return False, None, None
        fitted, rows = outcome
        return True, fitted, rows if same else None

    def close(self) -> None:
        """End the child if it still runs (its result unwanted), and reap it."""
        if self._process is None:
            return
        if self._process.is_alive():
            # SIGKILL: the child only computes, and a signal handler it inherited cannot
            # keep it alive (join would wait for ever).
            self._process.kill()
        self._process.join()
        if self._sending is not None:
            self._sending.join()  # its reader gone, its send ends in a broken pipe
        self._receiver.close()
        self._inputs.close()
        self._process = self._receiver = self._inputs = self._sending = None
        self.ids = self.texts = self.sent = None


def _same_inputs(sent: tuple, collection: Collection, shared) -> bool:
    """Whether the inputs sent to the child are those of ``collection`` and ``shared``."""
    import numpy as np

    ids, years, events, areas, matrix = sent
    return (
        (ids, years, events) == (collection.ids, collection.years, collection.events)
        and np.array_equal(areas, collection.areas)
        and matrix.shape == shared.shape
        and (matrix != shared).nnz == 0
    )
