"""The distinctive words two texts share, added to the similar-papers score.

The LSA embedding (papers/similarity.py) keeps the broad subject and loses the narrow one: its
128 dimensions have no room for a word in 83 papers of 26,000, so a paper on sarcasm in tweets
had rumour and suicide-ideation papers about tweets as its nearest, and "sarcasm detection in
tweets" typed as a text found no paper on sarcasm (an outside tester). A word in at most
RARE_SHARE of the papers is kept as itself: the part of each paper's TF-IDF vector (unit
length, as the fit weighs it) on those words, turned towards its title's rare words
(TITLE_LEAN) and as long as it was, is its rare part; the inner product of two rare parts,
times RARE_WEIGHT, is added to their score. A paper's stored neighbours gain its
RARE_PAIRS papers sharing the most (``rare_pairs``, sparse products in blocks of rows), and a
paper saved since the fit has its rare part compared with every paper's (``rare_scores``). A text
typed or pasted scores instead the share of its own rare weight each paper uses
(``rare_coverage``: the squares of its vector's rare entries, for each rare word the paper
has): the narrow word of a short description ("irony detection") counts in full, where its
product with a paper's own weight of it (small in a long abstract) left the broad word's
papers first.
"""

from __future__ import annotations

# A word is rare in at most RARE_SHARE of the papers, never more than RARE_PAPERS (the pairs
# to compare grow as the square of a word's papers), and in a small collection in RARE_FLOOR.
RARE_SHARE = 0.01
RARE_PAPERS = 250
RARE_FLOOR = 5
RARE_WEIGHT = 1.0
# The rare part leans towards the rare words of the title, which name the paper's subject.
TITLE_LEAN = 1.0
RARE_PAIRS = 30
RARE_MIN = 0.03


def rare_columns(matrix):
    """The columns of the TF-IDF matrix's rare words (int32)."""
    import numpy as np

    csr = matrix.tocsr()
    papers_having = np.bincount(csr.indices, minlength=csr.shape[1])
    most = min(RARE_PAPERS, max(RARE_FLOOR, RARE_SHARE * csr.shape[0]))
    return np.flatnonzero(papers_having <= most).astype(np.int32)


def rare_part(weighted, titled, columns, idf):
    """The rows' rare parts (csr float32 [n, rare words]): each row's TF-IDF vector
    ``weighted`` on the rare words ``columns``, turned towards the rare words of its title
    (``titled``: which words each title has; TITLE_LEAN) and as long as it was."""
    import numpy as np
    from scipy import sparse
    from sklearn.preprocessing import normalize

    part = weighted.tocsc()[:, columns].tocsr().astype(np.float32)
    if not len(columns):  # no word is rare (a collection of copies)
        return part
    title = titled.tocsc()[:, columns] @ sparse.diags(idf[columns].astype(np.float32))
    leaning = normalize(part + TITLE_LEAN * normalize(title.tocsr()))
    length = np.sqrt(np.asarray(part.multiply(part).sum(axis=1), dtype=np.float32).ravel())
    return (sparse.diags(length) @ leaning).tocsr().astype(np.float32)


def rare_pairs(rare, limit: int = RARE_PAIRS, block: int = 2_000):
    """(rows, columns, shared): each row's ``limit`` other rows sharing the most rare weight
    with it, and that weight, rows in order."""
    import numpy as np

    transposed = rare.T.tocsr()
    parts = []
    for start in range(0, rare.shape[0], block):
        products = (rare[start : start + block] @ transposed).tocsr()
        products.sort_indices()
        rows = np.repeat(np.arange(products.shape[0]), np.diff(products.indptr))
        columns, shared = products.indices, products.data
        # A pair sharing less than RARE_MIN moves neither paper far: most pairs, left out
        # before the sort.
        others = (rows + start != columns) & (shared >= RARE_MIN)
        rows, columns, shared = rows[others], columns[others], shared[others]
        if not len(rows):
            continue
        # Each row's best first: one sort of the row less its share of the block's best
        # (stable: ties keep the lower column).
        order = np.argsort(rows - shared / (2 * shared.max()), kind="stable")
        rows, columns, shared = rows[order], columns[order], shared[order]
        counts = np.bincount(rows, minlength=products.shape[0])
        firsts = np.repeat(np.cumsum(counts) - counts, counts)
        kept = np.arange(len(rows)) - firsts < limit
        parts.append((rows[kept] + start, columns[kept], shared[kept]))
    if not parts:
        return (np.array([], np.int64), np.array([], np.int64), np.array([], np.float32))
    return tuple(np.concatenate(part) for part in zip(*parts, strict=True))


def rare_scores(rare, asked):
    """Every row's shared rare weight with one rare part ``asked`` (csr [1, rare words]), as a
    dense float32 [n]."""
    import numpy as np

    return np.asarray((rare @ asked.T).todense(), dtype=np.float32).ravel()


def rare_coverage(rare, columns, weighted):
    """Every row's share of a text's rare weight (the squares of ``weighted``'s entries on the
    rare words the row has; ``weighted``: csr [1, words], unit length), dense float32 [n]."""
    import numpy as np

    asked = weighted.tocsc()[:, columns]
    asked.data = asked.data**2
    present = rare.copy()
    present.data = np.ones_like(present.data)
    return np.asarray((present @ asked.T).todense(), dtype=np.float32).ravel()
