"""Snippets of a query's matches: ts_headline over a title or an abstract, with marks that can
only be its own (papers/rendering.py turns them into <mark>)."""

import re

from django.db import models
from django.db.models import F

from .expressions import SEARCH_CONFIG

# Private-use characters that never occur in the data (they are stripped from it before
# ts_headline runs), so only ts_headline's own marks can become <mark> after escaping.
MARK_START = "\ue000"
MARK_STOP = "\ue001"
FRAGMENT_DELIMITER = " … "
HEADLINE_OPTIONS = (
    f"StartSel={MARK_START}, StopSel={MARK_STOP}, MaxWords=40, MinWords=18, ShortWord=2, "
    f'MaxFragments=2, FragmentDelimiter="{FRAGMENT_DELIMITER}"'
)
TITLE_HEADLINE_OPTIONS = f"StartSel={MARK_START}, StopSel={MARK_STOP}, HighlightAll=true"


class Headline(models.Func):
    """ts_headline over a column whose mark sentinels were removed first."""

    output_field = models.TextField()

    def __init__(self, column: str, text: str, options: str):
        super().__init__(F(column))
        self.text = text
        self.options = options

    def as_sql(self, compiler, connection, **extra):
        column_sql, column_params = compiler.compile(self.source_expressions[0])
        sql = (
            f"ts_headline(%s::regconfig, translate({column_sql}, %s, ''), "
            "websearch_to_tsquery(%s::regconfig, %s), %s)"
        )
        params = [SEARCH_CONFIG, *column_params, MARK_START + MARK_STOP, SEARCH_CONFIG]
        return sql, [*params, self.text, self.options]


# Words ts_headline may leave out at a fragment's edge: stop words, words of two letters.
EDGE_WORDS = 2
_TOKEN = re.compile(r"\S+")


def elided(headline: str, abstract: str) -> str:
    """The abstract's headline with "…" where it leaves out words of the abstract's beginning
    or end: ts_headline marks the cuts between its fragments, not before the first or after the
    last, so a snippet began and ended mid-sentence as if it were the whole abstract. The stop
    words and short words it drops at a fragment's edges ("We" of "We propose …", a full stop)
    are put back: a snippet beginning "propose a …" read as cut without saying so."""
    fragments = [_plain(fragment) for fragment in headline.split(FRAGMENT_DELIMITER)]
    whole = " ".join(abstract.split())
    first, last = whole.find(fragments[0]), whole.rfind(fragments[-1])
    if not fragments[0] or first < 0 or last < 0:
        return headline
    before, after = whole[:first], whole[last + len(fragments[-1]) :]
    start = "… " if _more_words(before) else before
    end = " …" if _more_words(after) else after
    return start + headline.strip() + end


def _plain(fragment: str) -> str:
    return " ".join(fragment.translate({ord(MARK_START): None, ord(MARK_STOP): None}).split())


def _more_words(text: str) -> bool:
    """Whether ``text`` holds more than EDGE_WORDS words, read only as far as that takes (the
    rest of an abstract can be hundreds of words)."""
    words = 0
    for part in _TOKEN.finditer(text):
        words += any(character.isalnum() for character in part[0])
        if words > EDGE_WORDS:
            return True
    return False
