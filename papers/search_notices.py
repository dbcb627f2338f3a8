"""What a results page says of its results, beside them: why a query shows no paper at all,
that a broad query is ranked among a capped set of candidates, the pages there are.
"""

import math
import re
from itertools import takewhile

from .anthology_metadata import ANTHOLOGY_URL
from .compounds import content_words, is_stop_word, websearch_text
from .expressions import SEARCH_CONFIG
from .matching import QUERY_SQL
from .querysets import NEGATION
from .results import PAGE_SIZE, Results
from .tables import reading_cursor, sql
from .text import QUOTED

ONLY_STOP_WORDS_SQL = f"SELECT numnode({QUERY_SQL}) = 0"
_WORD = re.compile(r"[^\W_]")

# The chosen venues, topics, author, year and country the collection does not know, each with
# the value of the same letters in another case if there is one (slugs are lower case: their
# unique index finds it; a country is found among the kept counts). Parameters: venue slugs,
# topic slugs, the author's slugs (none or one), the years (none or one), the countries (none
# or one).
_UNKNOWN_SQL = """
SELECT 'venue', s, (SELECT v.slug FROM {venue} v WHERE v.slug = lower(s))
FROM unnest(%s::text[]) AS s WHERE NOT EXISTS (SELECT 1 FROM {venue} v WHERE v.slug = s)
UNION ALL
SELECT 'topic', s, (SELECT t.slug FROM {topic} t WHERE t.slug = lower(s))
FROM unnest(%s::text[]) AS s WHERE NOT EXISTS (SELECT 1 FROM {topic} t WHERE t.slug = s)
    AND NOT EXISTS (SELECT 1 FROM {topic_redirect} r WHERE r.old_slug = s)
UNION ALL
SELECT 'author', s, (SELECT a.slug FROM {author} a WHERE a.slug = lower(s))
FROM unnest(%s::text[]) AS s WHERE NOT EXISTS (SELECT 1 FROM {author} a WHERE a.slug = s)
UNION ALL
SELECT 'year', s, NULL
FROM unnest(%s::text[]) AS s WHERE NOT EXISTS (SELECT 1 FROM {venue} v WHERE v.year = s::int)
UNION ALL
SELECT 'country', s, (SELECT k.value FROM {facet_count} k WHERE k.by_facet = '' AND k.by_value = ''
                      AND k.facet = 'c' AND lower(k.value) = lower(s) AND k.n > 0 LIMIT 1)
FROM unnest(%s::text[]) AS s WHERE NOT EXISTS (SELECT 1 FROM {paper} p WHERE p.country = s)
"""

# Why a query shows no paper at all, for the reasons there can be.
EXCLUDED_EVERYTHING = (
    "Every paper with the other words has one of the excluded words. An exclusion removes "
    "each form of its word (-model removes models too)."
)
FILTERED_EVERYTHING = (
    "Papers outside the filters chosen have these words: remove a filter to see them."
)
# {facet}: the filter's name ("topic").
NO_PAPER_HAS_THE_FILTER = "No paper of the collection has the {facet} chosen yet."
NO_PAPER_IN_EVERY_FILTER = (
    "No paper is in all of the filters chosen together: remove one to see its papers."
)
NO_PAPER_HAS_THE_WORDS = (
    "No paper in the collection has these words. Check their spelling, or try fewer or other words."
)
ONLY_STOP_WORDS = (
    "These words are too common to search for (like “the”, “of” or “and”): add a word that "
    "says what the papers are about."
)
# {id}: the Anthology ID the query names.
UNKNOWN_ANTHOLOGY_ID = (
    "No paper with the Anthology ID {id} is in this collection. The ACL Anthology may have it: "
    + ANTHOLOGY_URL
    + "{id}/"
)
# {doi}: the DOI the query names.
UNKNOWN_DOI = "No paper with the DOI {doi} is in this collection: https://doi.org/{doi}"
NOTHING_AT_ANTHOLOGY_ADDRESS = (
    "No paper, author, volume or event at that ACL Anthology address is in this collection. "
    "Search for the paper's title or its author's name."
)
# {host}: the site the address pasted is of.
UNKNOWN_ARXIV_ID = (
    "This collection knows papers by their Anthology ID or DOI, not by their arXiv identifier: "
    "search for the paper's title, or see https://arxiv.org/abs/{id}"
)
ADDRESS_ELSEWHERE = (
    "No paper in this collection gives that address at {host}. Search for the paper's title, "
    "or paste its Anthology ID, DOI or ACL Anthology address."
)
# {count}: the papers whose abstracts give the address pasted (papers/linked_addresses.py).
PAPERS_GIVING_THE_ADDRESS = "{count} papers give that address in their abstracts."
IDENTIFIERS_LISTED = "The papers of the identifiers given: {found} of {asked} name a paper here."
MORE_PAPERS_GIVING_THE_ADDRESS = (
    "More than {count} papers give that address in their abstracts: the {count} loaded last."
)
NO_PAPER_HERE_HAS_THE_WORDS = (
    "None of the papers of this page has these words. The search box at the top of the page "
    "searches all papers."
)


def why_nothing(filterset, fixed, text: str) -> str:
    """The notice of a query that shows nothing, not even papers matching some of its words
    (``filterset``: the page's PaperFilterSet; ``fixed``: its papers under the page's own
    conditions; an identifier the collection lacks is told before any search,
    PaperFilterSet.address_notice): its exclusions removed every match, its filters did (papers
    outside them match: one EXISTS through the index), its words are all too common to be
    searched (one statement), or no paper of the page (a venue's, a topic's, an author's) or of
    the collection has its words.

    Bounded work: the pages used to offer the titles nearest the words typed instead, a
    trigram search whose cost grows with the titles sharing the words' trigrams (0.6 s at
    100,000 papers for "models" under a venue without it), for titles outside the filters."""
    if NEGATION.search(text):
        return EXCLUDED_EVERYTHING
    if filterset.active() and fixed.matching(text).exists():
        return FILTERED_EVERYTHING
    if _only_stop_words(text):
        return ONLY_STOP_WORDS
    return NO_PAPER_HERE_HAS_THE_WORDS if filterset.fixed else NO_PAPER_HAS_THE_WORDS


def _only_stop_words(text: str) -> bool:
    """Whether the text search configuration reads nothing in ``text`` ("the of and": every
    word a stop word), which "check their spelling" would not help (one statement)."""
    if not _WORD.search(text):
        return False  # punctuation alone ("???") has no words at all
    with reading_cursor() as cursor:
        cursor.execute(ONLY_STOP_WORDS_SQL, [SEARCH_CONFIG, websearch_text(text)])
        return cursor.fetchone()[0]


def count_notices(results: Results, ranked: bool, matched, cap: int, named: int = 0) -> None:
    """A ranked query matching more than ``cap`` papers says among which it ranks them: the
    candidates chosen in memory (``matched``, papers/word_memory.py) or the first found,
    after the papers of the ``named`` authors the query names."""
    if ranked and results.count > cap:
        which = (
            "those with your words in the shortest titles, then those whose titles have most "
            "of your words, the newest first among equals"
            if matched
            else f"the first {cap:,} found"
        )
        if named:
            which = f"the papers of the author{'s' if named > 1 else ''} named, then {which}"
        results.notices.append(
            f"Only {cap:,} of the {results.count:,} matching papers are ranked: {which}. "
            "Add words or filters to rank them all, or list them newest first to page through every one."
        )


# Stop words no reader expects a phrase to count at its edge ("the few-shot").
ARTICLES = {"a", "an", "the"}


def phrase_notices(typed: str) -> list[str]:
    """A notice for each quoted phrase of the query as ``typed`` that opens or closes with
    stop words and holds two content words or more ("very low-resource"): the search vectors
    hold no stop word, so the phrase is searched without them, and the page says so. Not of an
    article, which no reader expects to count there, nor of a phrase of one content word,
    searched as its compound where the collection has one (papers/understanding.py)."""
    notices = []
    for quoted in QUOTED.finditer(typed):
        words = quoted.group(0).strip('"').split()
        if content_words(" ".join(words)) < 2:
            continue
        opening = list(takewhile(is_stop_word, words))
        closing = list(takewhile(is_stop_word, words[len(opening) :][::-1]))[::-1]
        edges = [word for word in opening + closing if word.lower() not in ARTICLES]
        if edges:
            named = " and ".join(f"“{word}”" for word in dict.fromkeys(edges))
            notices.append(
                f"{named} in “{' '.join(words)}” {'is' if len(edges) == 1 else 'are'} too common "
                "to be searched: the papers shown have the rest of the phrase."
            )
    return list(dict.fromkeys(notices))


def paginate(results: Results, asked: int, ranked: bool, cap: int) -> None:
    """The number of pages (a ranked query's reachable matches are its first ``cap``) and the
    page shown: the one ``asked`` for, else the last."""
    reachable = min(results.count, cap) if ranked else results.count
    results.pages = max(1, math.ceil(reachable / PAGE_SIZE))
    results.page = min(asked, results.pages)
    if asked > results.pages and results.count:
        pages = "is only 1 page" if results.pages == 1 else f"are only {results.pages} pages"
        results.notices.append(f"There {pages}; showing the last.")


# The facets whose values unknown_choices checks.
NAMED = ("venue", "topic", "author", "year", "country")


def unknown_choices(chosen: dict[str, list[str]]) -> list[str]:
    """A notice for each venue, topic, author, year or country of ``chosen`` ({facet: values}, the
    list's filters) that the collection does not know, naming the one it knows in other letter
    case (one statement): a list filtered by an unknown value is empty or narrower, not wrong."""
    with reading_cursor() as cursor:
        cursor.execute(sql(_UNKNOWN_SQL), [chosen.get(name, []) for name in NAMED])
        rows = cursor.fetchall()
    return [_unknown(facet, value, known) for facet, value, known in rows]


def _unknown(facet: str, value: str, known: str | None) -> str:
    """The notice of a filter value the collection does not know (``known``: the one it knows
    in other letter case)."""
    if facet == "year":
        return f"No paper of the collection is from {value}."
    if facet == "country":
        # The Anthology's XML tells no country: most papers have none.
        notice = f"No paper of the collection is from the country “{value}”"
        if not known:
            return notice + ": few of its sources tell a paper's country."
    else:
        notice = f"No {facet} has the address name “{value}”"
    return notice + (f": did you mean “{known}”?" if known else ".")


def some_unknown(facets, chosen: dict[str, list[str]]) -> bool:
    """Whether a page with results may have a venue or topic the collection does not know
    among several chosen: its facet (which lists the values chosen that count papers) lacks
    one of them (a value chosen that counts none, or a topic's old slug: then the check finds
    nothing)."""
    return any(
        set(chosen[name]) - {option.value for option in getattr(facets, name)}
        for name in ("venue", "topic")
        if name in chosen
    )
