"""Rows written by binary COPY (papers/binary_copy.py, papers/similarity_store.py) read back."""

import numpy as np
import pytest
from django.db import connection

from papers import binary_copy
from papers.similarity_store import Rows


def _copied(chunks) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMPORARY TABLE copied (id bigint, embedding real[], neighbours bigint[], "
            "scores real[])"
        )
        with cursor.copy("COPY copied FROM STDIN (FORMAT BINARY)") as copy:
            for chunk in chunks:
                copy.write(chunk)
        cursor.execute("SELECT id, embedding, neighbours, scores FROM copied ORDER BY id")
        return cursor.fetchall()


@pytest.mark.django_db
def test_tuples_hold_bigints_reals_and_arrays_exactly():
    columns = [
        np.array([7, 2**40], dtype=np.int64),
        np.array([[0.1, -2.5e-7, 3.0], [1e30, 0.0, -1.0]], dtype=np.float32),
        np.array([[9, -1], [2**50, 5]], dtype=np.int64),
        np.array([[0.25], [-0.125]], dtype=np.float32),
    ]
    rows = _copied([binary_copy.SIGNATURE, binary_copy.tuples(columns), binary_copy.TRAILER])
    assert [(row[0], row[2], row[3]) for row in rows] == [
        (7, [9, -1], [0.25]),
        (2**40, [2**50, 5], [-0.125]),
    ]
    # the reals as the server prints them (shortest text), the same float32 values
    assert np.array([row[1] for row in rows], dtype=np.float32).tolist() == columns[1].tolist()


@pytest.mark.django_db
def test_rows_of_every_width_are_copied_with_their_own_neighbours():
    # rows with 2, 0 and 1 neighbours (-1 pads), in blocks of two rows
    rows = Rows(
        ids=np.array([30, 10, 20], dtype=np.int64),
        embeddings=np.array([[0.5], [1.0], [-1.0]], dtype=np.float32),
        neighbours=np.array([[10, 20], [-1, -1], [30, -1]], dtype=np.int64),
        scores=np.array([[0.75, 0.5], [0.0, 0.0], [0.25, 0.0]], dtype=np.float32),
    )
    assert _copied(rows.copy_data(block=2)) == [
        (10, [1.0], [], []),
        (20, [-1.0], [30], [0.25]),
        (30, [0.5], [10, 20], [0.75, 0.5]),
    ]
