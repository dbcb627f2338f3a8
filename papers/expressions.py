"""The search expressions, each written once.

The models' generated columns and indexes (papers/models.py) and the queries that must match
those indexes (papers/querysets.py) build their SQL from these functions, so an index and the
query meant to use it can never drift apart (the search functions of papers/schema_sql.py,
plain SQL, write the same expressions out).
"""

from django.contrib.postgres.search import SearchVector
from django.db import models
from django.db.models import Func, Value
from django.db.models.functions import Coalesce, Left, Lower, NullIf

SEARCH_CONFIG = "english"
# Characters of the display key kept in the index: an untitled paper's abstract can be long,
# and a B-tree entry cannot be.
DISPLAY_KEY_LENGTH = 200


def weighted_search_vector() -> SearchVector:
    """Title (A), topic and author names (B), abstract (C): the stored Paper.search_vector."""
    return (
        SearchVector("title", config=SEARCH_CONFIG, weight="A")
        + SearchVector("topic_names", config=SEARCH_CONFIG, weight="B")
        + SearchVector("author_names", config=SEARCH_CONFIG, weight="B")
        + SearchVector("abstract", config=SEARCH_CONFIG, weight="C")
    )


def title_vector() -> SearchVector:
    """The title's own tsvector: the expression index paper_title_tsv and the title search."""
    return SearchVector("title", config=SEARCH_CONFIG)


def title_terms() -> Func:
    """The number of lexemes in the title (a shorter matching title is the likelier one meant)."""
    return Func(title_vector(), function="length", output_field=models.IntegerField())


def display_order() -> Lower:
    """Title A–Z, an untitled paper placed by its abstract (which its derived title starts)."""
    return Lower(Left(Coalesce(NullIf("title", Value("")), "abstract"), DISPLAY_KEY_LENGTH))
