"""How the list's facets and active filters are shown: the venue facet as a tree (series, then
each year's conference with its volumes nested), the selected values pinned first, and the
active filters named as readers know them, not by slug.

Presentation only: the counts are papers/facets.py's, shown as they are. A link's count is
what clicking it gives, so each row toggles exactly the venue whose count it shows.
"""

from dataclasses import dataclass, field
from typing import NamedTuple

from .facets import FACET_LIMITS, FacetOption
from .models import Author, Topic, Venue
from .venue_series import series_name, volume_label

# Rows a facet shows before "Show all"; a filter box appears in facets longer than that.
FACET_TOP = 8


@dataclass
class VenueRow:
    slug: str
    name: str
    label: str  # short, within its conference: "Findings", "Demos", or the year ("2025 Findings")
    count: int
    selected: bool


@dataclass
class Event:
    """A conference (or a journal's volume) of one year: its main volume and the others."""

    name: str
    year: int | None
    main: VenueRow | None = None  # None when the main volume has no matching paper
    volumes: list[VenueRow] = field(default_factory=list)
    more: bool = False  # behind "Show N more venues": not one of the FACET_TOP largest

    @property
    def total(self) -> int:
        return sum(row.count for row in self.rows)

    @property
    def rows(self) -> list[VenueRow]:
        return ([self.main] if self.main else []) + self.volumes

    @property
    def open(self) -> bool:
        return any(row.selected for row in self.volumes)

    @property
    def filter_text(self) -> str:
        return " ".join(row.name for row in self.rows).lower()


@dataclass
class Series:
    name: str
    events: list[Event] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(event.total for event in self.events)

    @property
    def shown_total(self) -> int:
        """The papers of its conferences shown at once."""
        return sum(event.total for event in self.events if not event.more)

    @property
    def more(self) -> bool:
        """Whether all its conferences are behind "Show N more venues"."""
        return all(event.more for event in self.events)


@dataclass
class VenueFacet:
    # Every series, each with all its conferences newest first; those not among the FACET_TOP
    # with the most papers are behind "Show N more venues", in their place in their series.
    series: list[Series]
    pinned: list[VenueRow]  # the selected venues, by name, first
    events: int  # conferences in all

    @property
    def venues(self) -> int:
        return sum(len(event.rows) for group in self.series for event in group.events)

    @property
    def more(self) -> int:
        """The venues behind "Show N more venues"."""
        return sum(len(e.rows) for group in self.series for e in group.events if e.more)


def venue_facet(options: list[FacetOption], selected: list[str], venues: dict) -> VenueFacet:
    """The venue facet's tree from the counted ``options`` (slug → count), the ``selected``
    slugs and ``venues`` (every venue by id, with parents: ``all_venues``)."""
    by_slug = {venue.slug: venue for venue in venues.values()}
    counts = {option.value: option.count for option in options}
    events: dict[int, Event] = {}
    series: dict[str, Series] = {}
    for slug in [*counts, *(slug for slug in selected if slug not in counts)]:
        venue = by_slug.get(slug)
        if venue is None:
            continue
        head = venues.get(venue.parent_id, venue)
        event = events.get(head.pk)
        if event is None:
            event = events[head.pk] = Event(head.name, head.year)
            series.setdefault(series_name(head), Series(series_name(head))).events.append(event)
        label = (
            str(head.year or head.name) if venue is head else volume_label(venue.name, head.name)
        )
        row = VenueRow(slug, venue.name, label, counts.get(slug, 0), slug in selected)
        if venue is head:
            event.main = row
        else:
            event.volumes.append(row)
    for group in series.values():
        group.events.sort(key=lambda event: (-(event.year or 0), event.name))
        for event in group.events:
            event.volumes.sort(key=lambda row: (-row.count, row.label))
            if event.main is None:
                # No row of the conference (the folder has Findings of ACL 2025, not ACL
                # 2025's own volumes, or the query matched none of them): its volumes stand
                # in its place, named with its year, where a year over them that could not be
                # chosen read as a venue without papers.
                for row in event.volumes:
                    row.label = f"{event.year} {row.label}" if event.year else row.name
    # The conferences with the most papers are shown at once, whatever their series: a series
    # shown whole hid EMNLP 2024's 58 papers behind "Show all" while ACL 2021's one was in sight.
    largest = sorted(events.values(), key=lambda e: (-e.total, -(e.year or 0), e.name))
    for event in largest[FACET_TOP:]:
        event.more = True
    pinned = [
        VenueRow(slug, by_slug[slug].name, by_slug[slug].name, counts.get(slug, 0), True)
        for slug in selected
        if slug in by_slug
    ]
    # One tree: the conferences behind "Show N more venues" open in their series' place (a
    # second tree after it showed "ACL (more)" below NAACL, ACL 2024 apart from ACL 2023). The
    # series with the most papers in sight first, then the others.
    ordered = sorted(series.values(), key=lambda g: (-g.shown_total, -g.total, g.name))
    return VenueFacet(ordered, pinned, len(events))


def pinned_first(options: list[FacetOption], selected: list[str]) -> list[FacetOption]:
    """The options with the selected ones first (each keeps its place otherwise)."""
    chosen = set(selected or ())
    return [o for o in options if o.value in chosen] + [o for o in options if o.value not in chosen]


def chip_labels(active: dict[str, list[str]], facets, venues: dict) -> list[tuple[str, str, str]]:
    """[(facet, value, name)] of the active filters: venues, topics and authors by name (from
    the facets when they list the value, else one query per kind), years and countries as
    they are."""
    known = {
        "venue": {venue.slug: venue.name for venue in venues.values()},
        "topic": {option.value: option.label for option in facets.topic},
        "author": {option.value: option.label for option in facets.author},
    }
    for name, model in (("topic", Topic), ("author", Author)):
        missing = [value for value in active.get(name, []) if value not in known[name]]
        if missing:
            rows = model.objects.filter(slug__in=missing).values_list("slug", "name")
            known[name].update(rows)
    return [
        (name, value, known.get(name, {}).get(value, value))
        for name, values in active.items()
        for value in values
    ]


class VenueEntry(NamedTuple):
    """What the facet's tree and the filters' names read of a venue."""

    pk: int
    slug: str
    name: str
    acronym: str
    year: int | None
    parent_id: int | None


def all_venues() -> dict[int, VenueEntry]:
    """Every venue by id (one query): the facet's tree and the filters' names need them. Rows,
    not models: building a model of each of a hundred venues cost more than the query."""
    rows = Venue.objects.order_by().values_list(*VenueEntry._fields)
    return {row[0]: VenueEntry(*row) for row in rows}


# The country facet is not offered where its values cover this small a share of the results
# (unless one is chosen): the sources give the country of two papers of 26,059, and a
# "Country" facet beside a search for "language models" offered to filter by something almost
# no paper has.
SPARSE_SHARE = 0.05


def facet_context(filterset, facets) -> dict:
    """What the list templates show of the facets and filters (one query: the venues)."""
    venues = all_venues()
    active = filterset.active()
    options = {
        name: pinned_first(getattr(facets, name), active.get(name, []))
        for name in ("topic", "year", "country", "author")
    }
    countries = sum(option.count for option in options["country"])
    if not active.get("country") and countries < SPARSE_SHARE * facets.total:
        options["country"] = []
    return {
        "venue_facet": venue_facet(facets.venue, active.get("venue", []), venues),
        "facet_options": options,
        "chips": chip_labels(active, facets, venues),
        "facet_top": FACET_TOP,
        # Facets cut to their most frequent values: "Show all 15" would claim 15 authors.
        "facet_cut": {
            name: len(getattr(facets, name)) >= limit for name, limit in FACET_LIMITS.items()
        },
    }
