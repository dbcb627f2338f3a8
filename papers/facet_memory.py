"""The papers' facet values held in each process's memory, to count a query's matches.

PostgreSQL finds a query's matches through the GIN index (papers/facets.py); grouping them per
venue, topic, author and country in SQL would then read every match's narrow row and unnest
its topic and author arrays (five authors a paper): at 100,000 papers a common word spent most
of its page's time there. Each process keeps instead the papers' venue, country, topics and
authors as arrays in paper-id order, with the names they are shown by, and a facet's counts
are one ``bincount`` over the matches' positions: milliseconds, however many papers match.
The same read gives the papers' places in the list's orders (their venues' newness, whether
their records are complete, the title A–Z order), from which a page of the matches in those
orders is placed (papers/newest_order.py, papers/word_memory.py ``title_page``).

The arrays belong to one state of the data, named by ``STATE_SQL``: the data version and the
transaction that last raised it (unique even after a rolled-back raise). Every change of the
papers' facet rows raises it in its own transaction (papers/counts.py), and the statement that
finds the matches reads the state in the same snapshot: when it differs from the arrays', they
are read again (one statement, ~0.5 s at 100,000 papers, once per process and change) and the
matches too, so counts stay exact under loads and curation. One copy per database (a replica
may lag the primary).
"""

import threading
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from .newest_order import venue_ranks
from .tables import reading_cursor, sql

STATE_SQL = "(SELECT version::text || ':' || xmin::text FROM {data_version} WHERE id = 1)"

# Every array in paper-id order; a paper's topics and authors flattened, with their numbers.
_ARRAYS_SQL = """SELECT
    array_agg(paper_id ORDER BY paper_id), array_agg(venue_id ORDER BY paper_id),
    array_agg(country ORDER BY paper_id),
    array_agg(cardinality(topic_ids) ORDER BY paper_id),
    string_agg(array_to_string(topic_ids, ','), ',' ORDER BY paper_id)
        FILTER (WHERE cardinality(topic_ids) > 0),
    array_agg(cardinality(author_ids) ORDER BY paper_id),
    string_agg(array_to_string(author_ids, ','), ',' ORDER BY paper_id)
        FILTER (WHERE cardinality(author_ids) > 0),
    array_agg(length(title_lexemes) ORDER BY paper_id)
FROM {paper_facets}"""
# Each facet's values as [id, slug, name, year] (text), in id order.
_LABELS_SQL = (
    "(SELECT array_agg(ARRAY[id::text, slug, name, year::text] ORDER BY id) FROM {venue})",
    "(SELECT array_agg(ARRAY[id::text, slug, name, NULL] ORDER BY id) FROM {topic})",
    "(SELECT array_agg(ARRAY[id::text, slug, name, NULL] ORDER BY id) FROM {author})",
)
# The venues' ids, newest first (the list's order, papers/expressions.py venue_order).
_NEWEST_VENUES_SQL = "(SELECT array_agg(r.id ORDER BY r.rank) FROM ({ranks}) AS r)"
# The papers whose record lacks its title or authors (few), which the list's orders put last
# (papers/querysets.py in_order).
_INCOMPLETE_SQL = "(SELECT array_agg(p.id) FROM {paper} p WHERE NOT p.complete)"
# Those without a title, fewer still, which an export leaves out.
_UNTITLED_SQL = "(SELECT array_agg(p.id) FROM {paper} p WHERE NOT p.complete AND p.title = '')"


@cache
def title_order() -> tuple[str, tuple]:
    """(SQL, params) of an array of the papers' ids in title A–Z order, the list's
    (papers/querysets.py ``in_order``), which PostgreSQL reads from the index paper_title_order
    without visiting the rows (100,000 ids in about 25 ms)."""
    from .models import Paper

    ids, params = Paper.objects.in_order("title").values("id").query.sql_with_params()
    return f"ARRAY({ids})", params


def _positions_of(position: np.ndarray, ids: list | None) -> np.ndarray:
    """The positions of the papers ``ids``, in their order, leaving out those without a facet
    row (``position`` gives each paper id's, or -1)."""
    ids = np.array(ids or [], dtype=np.int64)
    found = position[ids[ids < len(position)]]
    return found[found >= 0]


def _numbers(text: str | None) -> np.ndarray:
    return np.array(text.split(",") if text else [], dtype=np.int64)


class _Labelled:
    """One facet's values: ids (sorted) and, by position, slug, name and year."""

    def __init__(self, rows):
        self.ids = np.array([row[0] for row in rows], dtype=np.int64)
        self.slugs = [row[1] for row in rows]
        self.names = [row[2] for row in rows]
        self.years = [row[3] for row in rows]

    def positions(self, ids: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.ids, ids)


class _Links:
    """A many-valued facet (topics, authors) of every paper: each paper's number of values and
    their positions in the facet's labels, flattened in paper order."""

    def __init__(self, per_paper: np.ndarray, flat: np.ndarray, size: int):
        self.per_paper, self.flat, self.size = per_paper, flat, size
        self.starts = np.cumsum(per_paper) - per_paper  # each paper's first value in flat
        self.owners = np.repeat(np.arange(len(per_paper)), per_paper)  # each value's paper
        self.totals = np.bincount(flat, minlength=size)  # every paper's values counted

    def having(self, wanted: np.ndarray) -> np.ndarray:
        """Whether each paper has one of the ``wanted`` values (by label position)."""
        having = np.zeros(len(self.per_paper), dtype=bool)
        having[self.owners[wanted[self.flat]]] = True
        return having

    def counts(self, chosen: np.ndarray) -> np.ndarray:
        """Per label, the papers at positions ``chosen`` (distinct) that have it: from the
        values of the chosen papers or, for more than half the papers, every paper's counts less
        those of the others (a common word's 80,000 matches read as their 20,000 others)."""
        if 2 * len(chosen) <= len(self.per_paper):
            return np.bincount(self.flat[self._values_of(chosen)], minlength=self.size)
        others = np.ones(len(self.per_paper), dtype=bool)
        others[chosen] = False
        values = self._values_of(np.flatnonzero(others))
        return self.totals - np.bincount(self.flat[values], minlength=self.size)

    def _values_of(self, positions: np.ndarray) -> np.ndarray:
        """The indexes in ``flat`` of the values of the papers at ``positions``."""
        counts = self.per_paper[positions]
        shift = np.repeat(self.starts[positions] - (np.cumsum(counts) - counts), counts)
        return shift + np.arange(len(shift))


@dataclass
class FacetMemory:
    """The facet values of every paper at one state of the data: arrays by position (the
    papers in id order), and the title A–Z order over those positions."""

    state: str | None
    position: np.ndarray  # by paper id: its position in the arrays, -1 for none
    ids: np.ndarray  # by position: the paper's id
    venue: np.ndarray  # a position in venues
    newness: np.ndarray  # by position in venues: 0 for the newest venue, 1 for the next …
    title_words: np.ndarray  # by position: the number of distinct words of the paper's title
    complete: np.ndarray  # by position: whether the paper's record has its title and authors
    titled: np.ndarray  # by position: whether it has a title (an export leaves out the others)
    title_order: np.ndarray  # the positions in title A–Z order, complete records first
    country: np.ndarray  # a position in countries, -1 for none
    countries: list[str]
    topic_links: _Links
    author_links: _Links
    venues: _Labelled
    topics: _Labelled
    authors: _Labelled
    # The common words' matches read so far, as packed bits over the positions
    # (papers/word_memory.py): they belong to this state of the data.
    words: dict = field(default_factory=dict)
    # The matches of the latest queries with a phrase that were read whole, the same way.
    phrases: dict = field(default_factory=dict)
    # The last words of the authors' names (papers/named_filters.py family_words), once asked.
    family_words: frozenset | None = None

    def positions(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The positions of the papers ``ids`` that have a row here, and which of ``ids`` they
        are: at the state the arrays were read, a paper without a facet row is in no count."""
        known = (ids >= 0) & (ids < len(self.position))
        known[known] = self.position[ids[known]] >= 0
        return self.position[ids[known]], known


def _memory_statement() -> tuple[str, list]:
    """(SQL, params) of the one statement that reads the arrays and labels."""
    labels = ", ".join(_LABELS_SQL)
    ranks, ranks_params = venue_ranks()
    newest = _NEWEST_VENUES_SQL.format(ranks=ranks)
    ordered, ordered_params = title_order()
    statement = sql(
        f"SELECT {STATE_SQL}, a.*, {labels}, {newest}, {_INCOMPLETE_SQL}, {_UNTITLED_SQL}, "
        f"{ordered} "
        f"FROM ({_ARRAYS_SQL}) a"
    )
    return statement, [*ranks_params, *ordered_params]


def _newness(venue_labels: _Labelled, newest_venues: list | None) -> np.ndarray:
    """By position in the venues' labels: 0 for the newest venue, 1 for the next …"""
    newness = np.zeros(len(venue_labels.ids), dtype=np.int64)
    newest = np.array(newest_venues or [], dtype=np.int64)
    newness[venue_labels.positions(newest)] = np.arange(len(newest))
    return newness


def read_memory(cursor) -> FacetMemory:
    """The arrays and labels as they are in the data now (one snapshot: one statement)."""
    cursor.execute(*_memory_statement())
    state, ids, venues, countries, topic_counts, topics, author_counts, authors, *rest = (
        cursor.fetchone()
    )
    title_words, *named = rest
    *named, newest_venues, incomplete, untitled, title_ids = named
    venue_labels, topic_labels, author_labels = (
        _Labelled([(int(i), slug, name, year and int(year)) for i, slug, name, year in rows or []])
        for rows in named
    )
    ids = np.array(ids or [], dtype=np.int64)
    position = np.full(int(ids.max()) + 1 if len(ids) else 0, -1, dtype=np.int64)
    position[ids] = np.arange(len(ids))
    complete = np.ones(len(ids), dtype=bool)
    complete[_positions_of(position, incomplete)] = False
    titled = np.ones(len(ids), dtype=bool)
    titled[_positions_of(position, untitled)] = False
    country_names = sorted({country for country in countries or [] if country})
    country_at = {country: at for at, country in enumerate(country_names)}
    return FacetMemory(
        state=state,
        position=position,
        ids=ids,
        venue=venue_labels.positions(np.array(venues or [], dtype=np.int64)),
        newness=_newness(venue_labels, newest_venues),
        title_words=np.array(title_words or [], dtype=np.int64),
        complete=complete,
        titled=titled,
        title_order=_positions_of(position, title_ids),
        country=np.array([country_at.get(c, -1) for c in countries or []], dtype=np.int64),
        countries=country_names,
        topic_links=_Links(
            np.array(topic_counts or [], dtype=np.int64),
            topic_labels.positions(_numbers(topics)),
            len(topic_labels.ids),
        ),
        author_links=_Links(
            np.array(author_counts or [], dtype=np.int64),
            author_labels.positions(_numbers(authors)),
            len(author_labels.ids),
        ),
        venues=venue_labels,
        topics=topic_labels,
        authors=author_labels,
    )


_memories: dict[str, FacetMemory] = {}
_lock = threading.Lock()


def held_memories() -> list[FacetMemory]:
    """The arrays this process holds, one per database it read them from."""
    return list(_memories.values())


def warm_memory() -> FacetMemory:
    """The arrays of the database the pages read from, read before any request needs them
    unless this process holds them at the data's present state (a worker forked from a master
    that read them): at 100,000 papers a first query's count waits about a second for them
    (gunicorn.conf.py calls this in the master and as each worker starts)."""
    with reading_cursor() as cursor:
        cursor.execute(sql(f"SELECT {STATE_SQL}"))
        memory_for(cursor.db.alias, cursor.fetchone()[0], cursor, np.zeros(0, dtype=np.int64))
        return _memories[cursor.db.alias]


def memory_for(alias: str, state: str | None, cursor, ids: np.ndarray):
    """(this process's arrays of database ``alias``, the positions of ``ids`` in them, which of
    ``ids`` have one) if the arrays are those of ``state``, read again if they are older: None
    when the data has moved on since (find the matches again)."""
    with _lock:
        memory = _memories.get(alias)
        if memory is None or memory.state != state:
            memory = _memories[alias] = read_memory(cursor)
    return (memory, *memory.positions(ids)) if memory.state == state else None


# Counting -----------------------------------------------------------------------------------


def passing(memory: FacetMemory, name: str, keys: list, positions: np.ndarray) -> np.ndarray:
    """Whether each paper at ``positions`` passes the filter ``name`` whose values are ``keys``
    (papers/facet_rows.py KEYS: ids of venues, a year's venues, topics or authors; a country's
    name). A key this memory lacks is no paper's."""
    if name == "country":
        wanted = [at for at, country in enumerate(memory.countries) if country in keys]
        return np.isin(memory.country[positions], wanted)
    labelled = {"topic": memory.topics, "author": memory.authors}.get(name, memory.venues)
    keys = np.array(keys or [], dtype=np.int64)
    at = labelled.positions(keys)
    found = at < len(labelled.ids)
    found[found] = labelled.ids[at[found]] == keys[found]
    wanted = np.zeros(len(labelled.ids), dtype=bool)
    wanted[at[found]] = True
    if name in ("venue", "year"):
        return wanted[memory.venue[positions]]
    links = memory.topic_links if name == "topic" else memory.author_links
    return links.having(wanted)[positions]


def _top(kind: str, counts: np.ndarray, labels: list[str], slugs: list[str], limit: int | None):
    """Rows of the values counted more than zero times: with a ``limit``, the ``limit`` most
    counted, ties by name (as the SQL statement's cut, papers/facets.py)."""
    counted = np.flatnonzero(counts)
    if limit is not None and len(counted) > limit:
        floor = np.partition(counts[counted], len(counted) - limit)[len(counted) - limit]
        counted = counted[counts[counted] >= floor]
        counted = sorted(counted, key=lambda at: (-counts[at], labels[at]))[:limit]
    return [(kind, slugs[at], labels[at], None, int(counts[at])) for at in counted]


def _venue_rows(memory: FacetMemory, chosen: np.ndarray, limit=None) -> list[tuple]:
    venues = memory.venues
    counts = np.bincount(memory.venue[chosen], minlength=len(venues.ids))
    return [
        ("venue", venues.slugs[at], venues.names[at], venues.years[at], int(counts[at]))
        for at in np.flatnonzero(counts)
    ]


def _year_rows(memory: FacetMemory, chosen: np.ndarray, limit=None) -> list[tuple]:
    years: dict[int, int] = {}
    for _, _, _, year, n in _venue_rows(memory, chosen):
        if year is not None:
            years[year] = years.get(year, 0) + n
    return [("year", str(year), str(year), year, n) for year, n in years.items()]


def _topic_rows(memory: FacetMemory, chosen: np.ndarray, limit=None) -> list[tuple]:
    topics = memory.topics
    counts = memory.topic_links.counts(chosen)
    return _top("topic", counts, topics.names, topics.slugs, limit)


def _author_rows(memory: FacetMemory, chosen: np.ndarray, limit=None) -> list[tuple]:
    authors = memory.authors
    counts = memory.author_links.counts(chosen)
    return _top("author", counts, authors.names, authors.slugs, limit)


def _country_rows(memory: FacetMemory, chosen: np.ndarray, limit=None) -> list[tuple]:
    countries = memory.country[chosen]
    counts = np.bincount(countries[countries >= 0], minlength=len(memory.countries))
    return _top("country", counts, memory.countries, memory.countries, limit)


def _total_rows(memory: FacetMemory, chosen: np.ndarray, limit=None) -> list[tuple]:
    """The papers counted, and how many of them have no title (an export leaves those out)."""
    untitled = int(np.count_nonzero(~memory.titled[chosen]))
    return [("total", None, None, None, len(chosen)), ("untitled", None, None, None, untitled)]


_ROWS = {
    "venue": _venue_rows,
    "year": _year_rows,
    "topic": _topic_rows,
    "author": _author_rows,
    "country": _country_rows,
    "total": _total_rows,
}


def count_in_memory(
    memory: FacetMemory,
    positions: np.ndarray,
    flags: dict[str, np.ndarray],
    limits: dict[str, int | None],
) -> list[tuple]:
    """Rows (kind, value, label, year, n) of the facet statement (papers/facets.py): for each
    facet of ``limits`` (and "total"), the papers at ``positions`` that pass every filter but
    that facet's own (``flags``: per filter, whether each paper passes it), counted per
    value."""
    rows = []
    for name, limit in limits.items():
        kept = np.ones(len(positions), dtype=bool)
        for other, passes in flags.items():
            if other != name:
                kept &= passes
        rows += _ROWS[name](memory, positions[kept], limit)
    return rows
