"""Snippets of a query's matches: ts_headline over a title or an abstract, with marks that can
only be its own (papers/rendering.py turns them into <mark>)."""

from django.db import models
from django.db.models import F

from .expressions import SEARCH_CONFIG

# Private-use characters that never occur in the data (they are stripped from it before
# ts_headline runs), so only ts_headline's own marks can become <mark> after escaping.
MARK_START = "\ue000"
MARK_STOP = "\ue001"
HEADLINE_OPTIONS = (
    f"StartSel={MARK_START}, StopSel={MARK_STOP}, MaxWords=40, MinWords=18, ShortWord=2, "
    'MaxFragments=2, FragmentDelimiter=" … "'
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
