"""The fitted similar-papers model written (papers/similarity.py fits it): each paper's row of
the Similarity table by one binary COPY (papers/binary_copy.py), and the state row with the
fingerprint and the model itself, in one transaction."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import connection, transaction

from . import binary_copy
from .tables import sql

if TYPE_CHECKING:
    from .similarity import Collection

STATE_SQL = """
INSERT INTO {similarity_state} (id, fingerprint, papers, dimensions, computed, model)
VALUES (1, %s, %s, %s, now(), %s)
ON CONFLICT (id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, papers = EXCLUDED.papers,
    dimensions = EXCLUDED.dimensions, computed = EXCLUDED.computed, model = EXCLUDED.model
"""


@dataclass
class Rows:
    """The Similarity rows as arrays: paper ids [n], embeddings float32 [n, d], neighbour ids
    int64 [n, k] best first and their fused scores float32 [n, k] (-1 and 0 pad the rows with
    fewer than k neighbours)."""

    ids: object
    embeddings: object
    neighbours: object
    scores: object

    def __len__(self) -> int:
        return len(self.ids)

    def copy_data(self, block: int = 10_000):
        """The rows as binary COPY data, a block of rows at a time (rows of a block grouped by
        their number of neighbours: the arrays of a group have one width)."""
        import numpy as np

        yield binary_copy.SIGNATURE
        for start in range(0, len(self), block):
            counts = (self.neighbours[start : start + block] >= 0).sum(axis=1)
            for count in np.unique(counts):
                rows = start + np.flatnonzero(counts == count)
                yield binary_copy.tuples(
                    [
                        self.ids[rows],
                        self.embeddings[rows],
                        self.neighbours[rows, :count],
                        self.scores[rows, :count],
                    ]
                )
        yield binary_copy.TRAILER


def store(rows_out: Rows | None, current, fitted, blob) -> int:
    """The rows and the state written in one transaction; the number of rows."""
    import psycopg

    papers = 0 if rows_out is None else len(rows_out)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql("DELETE FROM {similarity}"))
        if papers:
            with cursor.copy(
                sql(
                    "COPY {similarity} (paper_id, embedding, neighbours, scores) FROM STDIN "
                    "(FORMAT BINARY)"
                )
            ) as copy:
                for data in rows_out.copy_data():
                    copy.write(data)
        dimensions = 0 if fitted is None else fitted["embeddings"].shape[1]
        # A cursor that binds its parameters on the server sends the blob (94 MB at 100,000
        # papers) as bytes; Django's cursor quotes it into the statement's text as hex (6.5 s
        # for this statement against 2-2.6 s, measured at 100,000 papers).
        with psycopg.Cursor(connection.connection) as raw:
            raw.execute(sql(STATE_SQL), [current, papers, dimensions, blob])
    return papers


def model_blob(collection: Collection, fitted: dict) -> bytes:
    """The fitted model as an .npz archive (no pickles), for SimilarityState.model."""
    import numpy as np

    buffer = io.BytesIO()
    valid = fitted["valid"]
    rare = fitted["rare"][valid]
    np.savez(
        buffer,
        terms=np.asarray(fitted["terms"], dtype=str),
        idf=fitted["idf"],
        components=fitted["components"],
        ids=np.asarray(collection.ids, dtype=np.int64)[valid],
        embeddings=fitted["embeddings"][valid],
        years=np.asarray(collection.years, dtype=np.int64)[valid],
        events=np.asarray(collection.events, dtype=np.int64)[valid],
        areas=collection.areas[valid],
        rare_data=rare.data,
        rare_indices=rare.indices,
        rare_indptr=rare.indptr,
        rare_columns=fitted["rare_columns"],
    )
    return buffer.getvalue()
