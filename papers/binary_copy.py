"""Rows for PostgreSQL's binary COPY, laid out by numpy: bigints and arrays of reals or bigints.

papers/similarity.py stores 100,000 rows of 328 numbers after each fit. Formatting them as COPY
text in Python took 8 s of CPU (0.4 s here), and the server parsed the text too; here a block of
rows is one structured numpy array in the binary format (a 16-bit field count, then each field's
32-bit length and big-endian value; an array field holds its dimension count, a null flag, its
element type's oid, each dimension's length and lower bound, then each element's length and
value), written with one ``tobytes()``.

The data of a COPY is ``SIGNATURE``, the tuples, then ``TRAILER``.
"""

from __future__ import annotations

SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)  # then no flags, no header extension
TRAILER = b"\xff\xff"
_TYPES = {"i": (">i8", 20), "f": (">f4", 700)}  # numpy kind: big-endian value, element oid


def tuples(columns) -> bytes:
    """The binary COPY tuples of rows whose fields are ``columns``, numpy arrays with a row each:
    [n] int64 (bigint) or [n, m] int64 / float32 (an array of m: bigint[] / real[])."""
    import numpy as np

    layout = [("fields", ">i2")]
    for i, column in enumerate(columns):
        value = _TYPES[column.dtype.kind][0]
        if column.ndim == 1:
            layout += [(f"length{i}", ">i4"), (f"value{i}", value)]
        else:
            element = [("length", ">i4"), ("value", value)]
            layout += [
                (f"length{i}", ">i4"),
                (f"header{i}", ">i4", (5,)),
                (f"value{i}", element, (column.shape[1],)),
            ]
    records = np.empty(len(columns[0]), dtype=layout)
    records["fields"] = len(columns)
    for i, column in enumerate(columns):
        value, oid = _TYPES[column.dtype.kind]
        size = np.dtype(value).itemsize
        if column.ndim == 1:
            records[f"length{i}"] = size
            records[f"value{i}"] = column
            continue
        width = column.shape[1]
        records[f"length{i}"] = 20 + width * (4 + size)
        records[f"header{i}"] = (1, 0, oid, width, 1)  # one dimension, no nulls, from 1
        records[f"value{i}"]["length"] = size
        records[f"value{i}"]["value"] = column
    return records.tobytes()
