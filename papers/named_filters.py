"""The filters a query's words name: "summarization EMNLP 2023" names the venue EMNLP 2023
and its other volumes, "dependency parsing 2021" the year 2021, "Findings of EMNLP 2023
sarcasm" that volume, "summarization naacl" the NAACL conferences and their Findings.

Searched as words, "acl 2024" found the one paper saying both and nothing pointed at the
venue; "dependency parsing 2021" found two papers, neither of 2021 (an outside tester). The
page offers each named filter with the rest of the query (``filters_named``): the words are
still searched as typed, since a year or an acronym may be what a paper says.
"""

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from .models import Author, Authorship, Venue
from .name_keys import GENERATIONS, name_key, umlaut_key
from .search_fields import MAX_VALUES

_YEAR = re.compile(r"(?<![\w.-])((?:19|20)[0-9]{2})(?![\w.-])")
MAX_NAMED = 2
# A name and the subject words around it: longer queries are sentences, not a name and words.
MAX_NAME_AND_WORDS = 6
# A conference's main volume or its Findings, by name: its series ("NAACL 2024": NAACL).
_SERIES_VOLUME = re.compile(r"(?:Findings of )?(?P<series>[A-Za-z][\w-]*) (?:19|20)[0-9]{2}")
_WORD = re.compile(r"(?<![\w-])[A-Za-z][\w-]+(?![\w-])")


@dataclass(frozen=True)
class NamedFilter:
    """A filter the query names: its ``label`` ("EMNLP 2023", "2021"), the ``rest`` of the
    query, the ``url`` of the list with the filter, the rest and the other filters chosen
    (the venue's page when nothing else is asked), and the filter's own parameters."""

    label: str
    rest: str
    url: str
    added: tuple[tuple[str, str], ...] = ()


def filters_named(text: str, chosen: dict[str, list[str]], venues=None) -> list[NamedFilter]:
    """The venues whose name the query's words write (case and spacing aside: "acl 2024",
    "Findings of EMNLP 2023"; the longest name first, at most MAX_NAMED) and else the one year
    they name, among those the collection has (1 query, only when the text has a year); for
    a text without a year, the series a word names (``series_named``, from ``venues``, the
    venue labels this process holds; none without them). ``chosen``: the other filters of the
    list, kept in the links."""
    years = _YEAR.findall(text)
    if not years:
        return series_named(text, chosen, venues) if venues is not None else []
    venues = list(Venue.objects.filter(year__in={int(year) for year in years}))
    named, unnamed = [], text
    for venue in sorted(venues, key=lambda venue: (-len(venue.name), venue.name)):
        name = _written(r"\s+".join(re.escape(word) for word in venue.name.split()))
        if len(named) < MAX_NAMED and name.search(unnamed):
            # "Findings of EMNLP 2023" named, the "EMNLP 2023" in it names nothing more.
            unnamed = name.sub(" ", unnamed, count=1)
            rest = _without(text, name)
            named.append(_venue_filter(venue, venues, rest, chosen))
    if named or len(years) != 1 or int(years[0]) not in {v.year for v in venues}:
        return named
    rest = _without(text, _written(years[0]))
    return [_filter(years[0], rest, [("year", years[0])], chosen)]


def series_named(text: str, chosen: dict[str, list[str]], venues) -> list[NamedFilter]:
    """The conference series the query's first word naming one names ("summarization naacl":
    NAACL): its main volumes and Findings, newest first (at most MAX_VALUES, a filter's values),
    labelled with the years they span ("NAACL (2021–2025)"). Searched as a word, "naacl" ranked
    the few papers saying it first, none about summarization (an outside tester); ``venues``:
    papers/facet_memory.py's labels."""
    series: dict[str, tuple[str, list[tuple[int, str]]]] = {}
    for slug, name, year in zip(venues.slugs, venues.names, venues.years, strict=True):
        if match := _SERIES_VOLUME.fullmatch(name):
            written = match["series"]
            series.setdefault(written.lower(), (written, []))[1].append((year or 0, slug))
    word = next((w[0] for w in _WORD.finditer(text) if w[0].lower() in series), None)
    if word is None:
        return []
    written, volumes = series[word.lower()]
    newest = sorted(volumes, reverse=True)[:MAX_VALUES]
    # The years it holds: a filter takes at most MAX_VALUES venues, ten years of two volumes.
    years = sorted({year for year, _ in newest if year})
    span = f"{years[0]}–{years[-1]}" if len(years) > 1 else (str(years[0]) if years else "")
    label = f"{written} ({span})" if span else written
    rest = _without(text, _written(re.escape(word)))
    return [_filter(label, rest, [("venue", s) for _, s in newest], chosen)]


def authored_in(text: str, chosen: dict[str, list[str]]) -> str | None:
    """The address of the list of the papers of the authors a query names, in the one venue or
    year its other words name ("Yoav Goldberg 2023": q "Yoav Goldberg" in 2023; "yoav goldberg
    acl 2023": in ACL 2023; "Jurafsky 2023", the family name of one author: his papers of
    2023), where they have papers there; None for any other query. Searched
    as typed, no paper had every word, a year being no word of a paper's text (an outside
    tester). Only for a text with a year: one query for the filters it names, one for the
    authors of the rest (two for one word: its family name's), one whether they have papers
    there; ``chosen``: the list's other
    filters."""
    if not _YEAR.search(text):
        return None
    named = filters_named(text, chosen)
    if len(named) != 1 or not named[0].rest:
        return None
    rest = named[0].rest
    authors, url = Author.objects.named(rest), named[0].url
    if not authors:
        # A family name alone is the author filter's, of its one author: searched as a word,
        # "Manning" in 2024 was mostly "man" ("Man Ho Lam", "Pro-Woman, Anti-Man?").
        authors = Author.objects.of_family_name(rest)
        if len(authors) != 1:
            return None
        url = _filter("", "", [("author", authors[0].slug), *named[0].added], chosen).url
    (name, value), *_ = named[0].added
    where = {"paper__venue__slug": value} if name == "venue" else {"paper__venue__year": value}
    there = Authorship.objects.filter(author__in=authors, **where)
    return url if there.exists() else None


def author_at_either_end(text: str, chosen: dict[str, list[str]], memory=None):
    """(the authors whose name opens or ends a longer query, most papers first; the filter of
    the first one's papers with the rest of the query) for "Percy Liang evaluation" or
    "glove christopher manning"; ([], None) when neither end names anyone. Searched as typed,
    such a query found his papers among others and offered nobody (an outside tester). Only
    for three to MAX_NAME_AND_WORDS words without a year (a year's is ``authored_in``): one
    query for each end of two or three words shaped as a name whose last word is an author's
    family word in ``memory`` (papers/facet_memory.py; every end shaped as a name without it),
    which "kv cache eviction" has none of."""
    words = text.split()
    if not 3 <= len(words) <= MAX_NAME_AND_WORDS or _YEAR.search(text):
        return [], None
    families = family_words(memory) if memory is not None else None
    for size in (3, 2):
        ends = [(words[:size], words[size:]), (words[-size:], words[:-size])]
        for name, rest in ends if len(words) > size else []:
            if families is not None and not _last_words(" ".join(name)) & families:
                continue
            if authors := Author.objects.named(" ".join(name)):
                added = [("author", authors[0].slug)]
                label = f"{authors[0].name}’s papers"
                return authors, _filter(label, " ".join(rest), added, chosen)
    return [], None


def family_words(memory) -> frozenset[str]:
    """The last words of the keys of the names of the authors in ``memory`` (a FacetMemory),
    made once for each state of the data it holds (0.4 s for 42,000 names)."""
    if memory.family_words is None:
        memory.family_words = frozenset(
            word for name in memory.authors.names for word in _last_words(name)
        )
    return memory.family_words


def _last_words(name: str) -> set[str]:
    """The last word of the name's key, and of its key with umlauts written out, a generation
    suffix left out ("Hal Daumé III": daume), as AuthorQuerySet.named matches a name."""
    last = set()
    for key in filter(None, (name_key(name), umlaut_key(name))):
        words = key.split()
        while len(words) > 1 and words[-1] in GENERATIONS:
            words.pop()
        last.add(words[-1] if words else "")
    return last


def _written(words: str) -> re.Pattern:
    """The words (a pattern) written as words of a text, in any case."""
    return re.compile(rf"(?<![\w-]){words}(?![\w-])", re.IGNORECASE)


def _without(text: str, words: re.Pattern) -> str:
    """The text without the words, and nothing left but operators and empty quotes: ""."""
    rest = " ".join(words.sub(" ", text, count=1).split())
    return rest if re.search(r"\w", rest) else ""


def _venue_filter(venue: Venue, venues: list[Venue], rest: str, chosen: dict) -> NamedFilter:
    """The filter of a venue the query names, with its other volumes ("ACL 2023": its Findings,
    short papers, demos …) as the front page's grid counts a conference: "ACL 2023
    hallucination" opened the main volume's 14 papers of the conference's 30 (an outside
    researcher). ``venues``: those of its year."""
    volumes = sorted((v for v in venues if v.parent_id == venue.pk), key=lambda v: v.name)
    if not volumes:
        return _filter(venue.name, rest, [("venue", venue.slug)], chosen, venue)
    # Its papers are the list of its volumes, not the main volume's page (a reviewer).
    added = [("venue", v.slug) for v in (venue, *volumes)][:MAX_VALUES]
    return _filter(f"{venue.name} and its other volumes", rest, added, chosen)


def _filter(label: str, rest: str, added: list[tuple[str, str]], chosen: dict, page=None):
    if not rest and not chosen and page is not None:
        return NamedFilter(label, rest, page.get_absolute_url(), tuple(added))
    params = [("q", rest)] if rest else []
    params += [(name, value) for name, values in chosen.items() for value in values]
    query = urlencode([*params, *added])
    return NamedFilter(label, rest, f"{reverse('paper-list')}?{query}", tuple(added))
