"""The similarity model fitted ahead of a load's commit, in a forked process
(papers/fit_ahead.py), its neighbours found there too: the same rows as the fit after the
commit, the fit made again when the texts differ or the child fails, and no child left
behind."""

import multiprocessing
import os
import time
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings
from django.db import connection

from papers import fit_ahead, similarity, writing
from papers.fit_ahead import FitAhead
from papers.loading import load_files
from papers.models import Paper, Similarity
from papers.tables import sql


@pytest.fixture
def taken(monkeypatch):
    """What each take of a fit made ahead answered (taken or not, and "with rows" when its
    neighbours were taken too), in order."""
    answers = []
    take = FitAhead.take

    def recorded(self, collection, shared):
        answer = take(self, collection, shared)
        answers.append(answer[0] if answer[2] is None else "with rows")
        return answer

    monkeypatch.setattr(FitAhead, "take", recorded)
    return answers


@pytest.fixture
def any_size(monkeypatch):
    """Every load fits ahead: the seeds are far below MIN_PAPERS."""
    monkeypatch.setattr(fit_ahead, "MIN_PAPERS", 0)


def stored() -> tuple[list, tuple]:
    """The Similarity rows and the stored model: all that the refresh writes."""
    with connection.cursor() as cursor:
        cursor.execute(
            sql(
                "SELECT paper_id, embedding, neighbours, scores, projected FROM {similarity} "
                "ORDER BY paper_id"
            )
        )
        rows = cursor.fetchall()
        cursor.execute(sql("SELECT fingerprint, papers, model FROM {similarity_state}"))
        fingerprint, papers, model = cursor.fetchone()
    return rows, (fingerprint, papers, bytes(model))


def read_only(ids: list[int], texts: list[str]) -> similarity.Collection:
    """A collection of these ids and texts and nothing else."""
    return similarity.Collection(ids, texts, [], [], None)


@pytest.mark.django_db
def test_a_load_takes_the_fit_made_ahead_and_stores_what_a_fit_after_it_stores(any_size, taken):
    load_files([settings.FIXTURES_DIR])
    assert taken == ["with rows"]
    assert multiprocessing.active_children() == []
    ahead = stored()
    assert len(ahead[0]) == Paper.objects.count()
    similarity.refresh_embeddings(force=True)
    assert stored() == ahead


@pytest.mark.django_db
def test_a_small_load_forks_nothing_and_fits_after_its_commit(taken):
    load_files([settings.FIXTURES_DIR])
    assert taken == [False]
    assert Similarity.objects.count() == Paper.objects.count()


@pytest.mark.django_db
def test_the_model_is_taken_only_for_the_texts_it_was_fitted_on(seeds, any_size):
    with FitAhead() as ahead:
        ahead.start([])
        ids, texts = list(ahead.ids), list(ahead.texts)
        other = read_only(ids, [*texts[:-1], "A text the fit never read."])
        assert ahead.take(other, None) == (False, None, None)
    with FitAhead() as ahead:
        ahead.start([])
        taken, fitted, rows = ahead.take(read_only(ids, texts), None)
    assert rows is None  # no other inputs sent: no neighbours
    assert taken
    with similarity.one_blas_thread():
        serial = similarity.fit(texts)
    assert fitted.keys() == serial.keys()
    rare, serial_rare = fitted.pop("rare"), serial.pop("rare")  # sparse: compared apart
    assert rare.shape == serial_rare.shape and (rare != serial_rare).nnz == 0
    assert all(np.array_equal(fitted[key], serial[key]) for key in serial)
    assert multiprocessing.active_children() == []


@pytest.mark.django_db
def test_a_failed_child_leaves_the_fit_to_the_refresh(seeds, any_size, monkeypatch):
    def failing(texts):
        raise MemoryError("the child ran out")

    monkeypatch.setattr(fit_ahead, "fit", failing)  # the forked child inherits the failure
    with FitAhead() as ahead:
        ahead.start([])
        assert ahead.take(read_only(ahead.ids, ahead.texts), None) == (False, None, None)
    assert multiprocessing.active_children() == []


@pytest.mark.django_db
def test_a_wedged_child_is_not_waited_for(seeds, any_size, monkeypatch):
    monkeypatch.setattr(fit_ahead, "fit", lambda texts: time.sleep(60))
    monkeypatch.setattr(fit_ahead, "WAIT_SECONDS", 0.2)
    started = time.monotonic()
    with FitAhead() as ahead:
        ahead.start([])
        assert ahead.take(read_only(ahead.ids, ahead.texts), None) == (False, None, None)
    assert time.monotonic() - started < 30
    assert multiprocessing.active_children() == []


@pytest.mark.django_db
def test_the_inputs_sent_to_a_child_that_never_reads_them_hold_up_nothing(
    seeds, any_size, monkeypatch
):
    # Several MB through the pipe, the child's fit holding its interpreter: the load waited
    # inside its transaction, for ever with a wedged child (a reviewer).
    monkeypatch.setattr(fit_ahead, "_received", lambda inputs, into: time.sleep(60))
    monkeypatch.setattr(fit_ahead, "WAIT_SECONDS", 0.2)
    big = np.ones((1200, 1200))  # 11 MB pickled: far beyond a pipe's buffer
    monkeypatch.setattr(fit_ahead, "shared_authors", lambda ids: big)
    started = time.monotonic()
    with FitAhead() as ahead:
        ahead.start([])
        ahead.send_inputs()
        assert time.monotonic() - started < 10
        assert ahead.take(read_only(ahead.ids, ahead.texts), None) == (False, None, None)
    assert time.monotonic() - started < 30
    assert multiprocessing.active_children() == []


@pytest.mark.django_db
def test_a_load_that_fails_after_the_fork_leaves_no_child(any_size, monkeypatch):
    def failing():
        raise RuntimeError("the topic model failed")

    monkeypatch.setattr(writing, "tag_papers", failing)
    with pytest.raises(RuntimeError, match="topic model"):
        load_files([settings.FIXTURES_DIR])
    assert multiprocessing.active_children() == []
    assert not Paper.objects.exists()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc")
@pytest.mark.django_db
def test_the_child_holds_nothing_of_the_parent_but_its_ends_of_the_pipes(
    seeds, any_size, monkeypatch
):
    """Were the loader killed, its database connection and its output would close with it."""
    monkeypatch.setattr(fit_ahead, "fit", lambda texts: time.sleep(30))
    with FitAhead() as ahead:
        ahead.start([])
        descriptors = Path(f"/proc/{ahead._process.pid}/fd")
        deadline = time.monotonic() + 30
        while len(list(descriptors.iterdir())) > 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        held = {int(d.name): os.readlink(d) for d in descriptors.iterdir()}
    assert [held.pop(standard) for standard in (0, 1, 2)] == [os.devnull] * 3
    assert [target.split(":")[0] for target in held.values()] == ["pipe", "pipe"]
    assert multiprocessing.active_children() == []
