"""Venues as the Anthology arranges them: by series (ACL, EMNLP …) and year, each year's
conference with its volumes (Findings, demos, short papers …) under its main volume.

The front page's venue × year grid and the venue index read one query from here; the list's
venue facet (papers/facet_display.py) names series and volumes the same way.
"""

import re
from dataclasses import dataclass, field

from django.db.models import CharField, Count, OuterRef, Q, Subquery
from django.db.models.functions import Cast, Coalesce
from django.urls import reverse
from django.utils.http import urlencode

from .derived_models import FacetCount
from .expressions import venue_order
from .models import Paper, Venue
from .search_fields import MAX_VALUES


def series_name(venue: Venue) -> str:
    """The series a venue belongs to: its acronym, else its name without the year."""
    return venue.acronym or re.sub(r"\s*\b\d{4}\b\s*", " ", venue.name).strip() or venue.name


def volume_label(name: str, event: str) -> str:
    """A volume's name within its conference: "ACL 2024 (Demos)" → "Demos",
    "Findings of ACL 2024" → "Findings"; any other name as it is."""
    if name.startswith(event):
        return name[len(event) :].strip(" ()") or name
    if name == f"Findings of {event}":
        return "Findings"
    return name


@dataclass
class Conference:
    """One year of a series: the main volume and the others, each with ``paper_count``."""

    main: Venue
    volumes: list[Venue] = field(default_factory=list)

    @property
    def papers(self) -> int:
        return self.main.paper_count + sum(volume.paper_count for volume in self.volumes)

    @property
    def named_volumes(self) -> list[tuple[str, Venue]]:
        return [(volume_label(volume.name, self.main.name), volume) for volume in self.volumes]

    @property
    def venues(self) -> int:
        """Its venues with papers: a conference known only as its volumes' parent (the
        folder's ACL 2025, whose Findings alone are loaded) is not one."""
        return bool(self.main.paper_count) + sum(bool(v.paper_count) for v in self.volumes)

    @property
    def url(self) -> str:
        """Where its count leads: the papers it counts. The list of its volumes that have
        papers when several do (the grid's "1,419" for ACL 2025 opened the 57 of its main
        volume), else that one venue's page."""
        stocked = [venue for venue in (self.main, *self.volumes) if venue.paper_count]
        if len(stocked) <= 1 or len(stocked) > MAX_VALUES:  # the list takes MAX_VALUES venues
            return self.link.get_absolute_url()
        return f"{reverse('paper-list')}?{urlencode([('venue', v.slug) for v in stocked])}"

    @property
    def link(self) -> Venue:
        """The venue whose page shows its papers: the main volume, but for a conference
        without papers of its own, its one volume that has them."""
        if self.main.paper_count:
            return self.main
        stocked = [volume for volume in self.volumes if volume.paper_count]
        return stocked[0] if len(stocked) == 1 else self.main


@dataclass
class Series:
    name: str
    conferences: list[Conference] = field(default_factory=list)

    @property
    def papers(self) -> int:
        return sum(conference.papers for conference in self.conferences)


def with_counts(venues):
    """The venues, each with ``paper_count``: the kept counts (papers/counts.py), a few index
    entries per venue, not a count of every paper."""
    kept = FacetCount.objects.filter(
        facet="v", by_facet="", by_value="", value=Cast(OuterRef("pk"), CharField())
    )
    return venues.annotate(paper_count=Coalesce(Subquery(kept.values("n")), 0))


def venue_series() -> list[Series]:
    """Every venue with its paper count and how many of those lack a title or authors
    (``untitled``: ACL 2025's 32 records from its own pages were "32 papers", its proceedings
    not in the collection: an outside researcher), grouped: series with the most papers first,
    each one's conferences newest first (one query)."""
    untitled = Paper.objects.filter(venue=OuterRef("pk"), complete=False).values("venue")
    untitled = untitled.annotate(n=Count("pk")).values("n")
    venues = with_counts(Venue.objects.defer("welcome_text")).annotate(
        untitled=Coalesce(Subquery(untitled), 0)
    )
    venues = list(venues.order_by(*venue_order()))
    conferences: dict[int, Conference] = {}
    for venue in venues:
        if venue.parent_id is None or venue.parent_id not in conferences:
            conferences[venue.pk] = Conference(venue)
        else:
            conferences[venue.parent_id].volumes.append(venue)
    series: dict[str, Series] = {}
    for conference in conferences.values():
        conference.volumes.sort(key=lambda volume: (-volume.paper_count, volume.name))
        name = series_name(conference.main)
        series.setdefault(name, Series(name)).conferences.append(conference)
    return sorted(series.values(), key=lambda group: (-group.papers, group.name))


def venue_grid(series: list[Series]) -> tuple[list[int], list[tuple[Series, list]]]:
    """(years newest first, [(series, [its conference of each year, or None])]): the front
    page's venue × year grid. Conferences without a year are left to the venue index."""
    years = sorted(
        {c.main.year for group in series for c in group.conferences if c.main.year}, reverse=True
    )
    rows = []
    for group in series:
        by_year = {c.main.year: c for c in group.conferences if c.main.year}
        if by_year:
            rows.append((group, [by_year.get(year) for year in years]))
    return years, rows


def venue_and_volumes(venue: Venue) -> tuple[int, list[Venue]]:
    """A venue page's own paper count and its other volumes, each with ``paper_count`` and
    its ``label`` within the conference ("Findings"), the largest first as the venue index
    has them (one query)."""
    rows = with_counts(Venue.objects.filter(Q(pk=venue.pk) | Q(parent=venue)).only("slug", "name"))
    own, volumes = 0, []
    for row in rows:
        if row.pk == venue.pk:
            own = row.paper_count
        else:
            row.label = volume_label(row.name, venue.name)
            volumes.append(row)
    return own, sorted(volumes, key=lambda volume: (-volume.paper_count, volume.label))


def incomplete_records(venue: Venue) -> int:
    """How many of the venue's own records lack a title or authors (Paper.complete), which
    its page says: ACL 2025's 32 records, from its own pages, had abstracts alone, and
    nothing told a reader the collection did not have its proceedings (an outside tester).
    One count on the index paper_venue_complete."""
    return Paper.objects.filter(venue=venue, complete=False).count()
