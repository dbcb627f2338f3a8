"""The search and order expressions, each written once.

The models' generated columns and indexes (papers/models.py) and the queries that must match
those indexes (papers/querysets.py) build their SQL from these functions, so an index and the
query meant to use it can never drift apart (the search functions of papers/schema_sql.py,
plain SQL, write the same expressions out).
"""

import re

from django.contrib.postgres.search import SearchVector
from django.db import models
from django.db.models import Case, ExpressionWrapper, F, Func, Q, Value, When
from django.db.models.functions import Cast, Coalesce, Left, Lower, NullIf
from django.db.models.lookups import Exact

from .text import latin_unaccented

SEARCH_CONFIG = "english"
# Characters of the display key kept in the index: an untitled paper's abstract can be long,
# and a B-tree entry cannot be.
DISPLAY_KEY_LENGTH = 200
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def title_vector() -> SearchVector:
    """The title's own tsvector, its compounds written as the search vectors write them
    (papers_compounds, papers/schema_sql.py): the stored column Paper.title_vector, which the
    index paper_title_tsv and the title search read."""
    compounds = Func(F("title"), function="papers_compounds", output_field=models.TextField())
    return SearchVector(compounds, config=SEARCH_CONFIG)


def title_vector_sql(table: str) -> str:
    """The title's vector of the papers ``table`` (a name or an alias), for the hand-written
    queries that test a paper's title: the stored column, not parsed again per paper."""
    return f"{table}.title_vector"


# What Title A–Z passes over before a title's first letter or digit: quotes, brackets and
# symbols, and a LaTeX command ("“Judge me by my size”" under J, "\textit{GeoHard}" under G,
# "♫ MuSiQue" under M). 108 titles of the Anthology folder sorted after Z. The same pattern
# in PostgreSQL and in Python (``display_opening``); no character class of the locale's.
DISPLAY_KEY_PASSED = (
    r"^(\\[A-Za-z]+|[\s!-/:-@[-`{-~«»¡¿" + "\u2000-\u2bff\U0001f300-\U0001faff" + "])+"
)


def display_key() -> Lower:
    """Title A–Z's key, an untitled paper placed by its abstract (which its derived title
    starts): lowercased, without its Latin letters' accents ("Ìròyìn" under I) and what comes
    before its first letter or digit (DISPLAY_KEY_PASSED); the stored column
    Paper.display_key, which the orders' indexes hold."""
    text = Left(Coalesce(NullIf("title", Value("")), "abstract"), 2 * DISPLAY_KEY_LENGTH)
    unaccented = Func(text, function="papers_unaccented", output_field=models.TextField())
    text = Coalesce(NullIf(unaccented, Value("")), text)
    opened = Func(text, Value(DISPLAY_KEY_PASSED), Value(""), function="regexp_replace")
    return Lower(Left(opened, DISPLAY_KEY_LENGTH))


def display_opening(text: str) -> str:
    """The opening of a title as its display key has it."""
    return re.sub(DISPLAY_KEY_PASSED, "", latin_unaccented(text)).lower()


def is_complete() -> ExpressionWrapper:
    """A record a reader can use: it has a title and authors (Paper.complete). The browse
    orders put the others after every complete one, so they never crowd the first pages."""
    return ExpressionWrapper(~Q(title="") & ~Q(author_names=""), output_field=models.BooleanField())


def paper_number() -> Cast:
    """The paper's number in its volume, from its Anthology ID (2024.acl-long.123 → 123,
    P19-1001 → 1001): the proceedings order (Paper.number); NULL without an ID."""
    digits = Func(F("external_id"), Value(r"(\d{1,9})$"), function="substring")
    return Cast(digits, models.IntegerField())


def venue_held_on() -> Coalesce:
    """When a venue was held (Venue.held_on): its start date, else the first of its month,
    else 1 January of its year (a journal volume), else NULL."""
    named = Lower(Left("month", 3))
    month = Case(
        *[When(Exact(named, Value(name)), then=number) for number, name in enumerate(MONTHS, 1)],
        default=1,
        output_field=models.IntegerField(),
    )
    first = Func(F("year"), month, Value(1), function="make_date", output_field=models.DateField())
    return Coalesce(F("start_date"), first, output_field=models.DateField())


def venue_order(prefix: str = "") -> list:
    """Newest venue first, by date; a conference's volumes (Findings, demos …) follow its main
    volume, whatever month each names. ``prefix`` reaches the venue from another model
    ("venue__")."""
    parent = f"{prefix}parent"
    return [
        Coalesce(F(f"{parent}__held_on"), F(f"{prefix}held_on")).desc(nulls_last=True),
        Coalesce(F(f"{parent}__name"), F(f"{prefix}name")).asc(),
        F(parent).asc(nulls_first=True),
        F(f"{prefix}name").asc(),
        F(f"{prefix}id").asc(),
    ]


def family_key() -> Coalesce:
    """An author's family name in small letters without the accents of its Latin letters
    ("vulic" for Vulić, "schutze" for Schütze: typed either way, it finds its people): the one
    the source told (Author.family_name), else the name's last word, as citations take it."""
    last_word = Func(F("name"), Value(r"^.*\s"), Value(""), function="regexp_replace")
    told = Case(When(family_name="", then=last_word), default=F("family_name"))
    lowered = Lower(told, output_field=models.CharField())
    # papers_unaccented (schema_sql.py) is empty for a text without accents.
    unaccented = Func(lowered, function="papers_unaccented", output_field=models.CharField())
    return Coalesce(NullIf(unaccented, Value("")), lowered, output_field=models.CharField())


def joined_key() -> Func:
    """An author's key without its spaces: "aiti aw" and "ai ti aw" are "aitiaw" (the index
    author_joined_key): one person's name written with its spaces elsewhere."""
    return Func(
        F("key"), Value(" "), Value(""), function="replace", output_field=models.CharField()
    )
