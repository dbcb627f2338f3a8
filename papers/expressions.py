"""The search expressions, each written once.

The models' generated columns and indexes (papers/models.py) and the queries that must match
those indexes (papers/querysets.py, papers/facets.py) build their SQL from these functions, so
an index and the query meant to use it can never drift apart.
"""

from django.contrib.postgres.search import SearchVector
from django.db import models
from django.db.models import F, Func, Q, Value
from django.db.models.functions import Coalesce, Left, Lower, Mod, NullIf
from django.db.models.lookups import Exact

SEARCH_CONFIG = "english"
# One paper in SAMPLE_EVERY (by id) forms the sample that facet counts are estimated from when
# a query matches more than the exact bound (papers/facets.py); the partial index paper_sample
# and the function papers_text_sample hold exactly these papers.
SAMPLE_EVERY = 16
# Characters of the display key kept in the index: an untitled paper's abstract can be long,
# and a B-tree entry cannot be.
DISPLAY_KEY_LENGTH = 200


def title_vector() -> SearchVector:
    """The title's own tsvector: the expression index paper_title_tsv and the title search."""
    return SearchVector("title", config=SEARCH_CONFIG)


def title_terms() -> Func:
    """The number of lexemes in the title (a shorter matching title is the likelier one meant)."""
    return Func(title_vector(), function="length", output_field=models.IntegerField())


def display_order() -> Lower:
    """Title A–Z, an untitled paper placed by its abstract (which its derived title starts)."""
    return Lower(Left(Coalesce(NullIf("title", Value("")), "abstract"), DISPLAY_KEY_LENGTH))


def in_sample() -> Q:
    """The papers of the facet sample (see SAMPLE_EVERY)."""
    return Q(Exact(Mod(F("id"), SAMPLE_EVERY), 0))
