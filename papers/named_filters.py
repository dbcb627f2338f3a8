"""The filters a query's words name: "summarization EMNLP 2023" names the venue EMNLP 2023,
"dependency parsing 2021" the year 2021.

Searched as words, "acl 2024" found the one paper saying both and nothing pointed at the
venue; "dependency parsing 2021" found two papers, neither of 2021 (an outside tester). The
page offers each named filter with the rest of the query (``filters_named``): the words are
still searched as typed, since a year or an acronym may be what a paper says.
"""

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from .models import Venue

# An acronym (letters, digits after the first) and a year, or a year alone; at most
# MAX_NAMED of each query.
_VENUE_WORDS = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]{1,15})\s+((?:19|20)[0-9]{2})(?![\w-])")
_YEAR = re.compile(r"(?<![\w.-])((?:19|20)[0-9]{2})(?![\w.-])")
MAX_NAMED = 2


@dataclass(frozen=True)
class NamedFilter:
    """A filter the query names: its ``label`` ("EMNLP 2023", "2021"), the ``rest`` of the
    query, and the ``url`` of the list with the filter and the rest (the venue's page when
    nothing rests)."""

    label: str
    rest: str
    url: str


def filters_named(text: str) -> list[NamedFilter]:
    """The venues (a main volume, by acronym and year: 1 query, only when the text has such
    words) and else the year the query's words name."""
    pairs = _VENUE_WORDS.findall(text)[:MAX_NAMED]
    named = []
    if pairs:
        wanted = {(acronym.lower(), int(year)) for acronym, year in pairs}
        venues = Venue.objects.filter(parent=None, year__in={year for _, year in wanted})
        found = {(v.acronym.lower(), v.year): v for v in venues if v.acronym}
        for acronym, year in pairs:
            venue = found.get((acronym.lower(), int(year)))
            if venue is not None:
                rest = _without(text, rf"{re.escape(acronym)}\s+{year}")
                named.append(_filter(venue.name, rest, "venue", venue.slug, venue))
    if named:
        return named
    years = _YEAR.findall(text)
    if len(years) == 1:
        rest = _without(text, years[0])
        named.append(_filter(years[0], rest, "year", years[0]))
    return named


def _without(text: str, words: str) -> str:
    return " ".join(re.sub(rf"(?<![\w-]){words}(?![\w-])", " ", text, count=1).split())


def _filter(label: str, rest: str, name: str, value: str, page=None) -> NamedFilter:
    if not rest and page is not None:
        return NamedFilter(label, rest, page.get_absolute_url())
    query = urlencode({"q": rest, name: value} if rest else {name: value})
    return NamedFilter(label, rest, f"{reverse('paper-list')}?{query}")
