"""The venues a load's records name, as the collection knows them: a venue a curator renamed
is still itself, and a venue named by its slug (a hand-written JSON line's "acl-2024") too."""

from django.db.models import Q

from .models import Venue
from .records import VenueRecord


def known_venues(records: dict[str, VenueRecord]) -> dict[str, Venue]:
    """{record's name: the venue it is}: by name, else by its volume ID, else by a name a
    curator renamed it from (a venue a curator renamed is still itself: a load naming it as
    its source does made a second one), else by its slug. One query, and one more for volume
    IDs."""
    names = list(records)
    found = list(
        Venue.objects.filter(
            Q(name__in=names) | Q(former_names__overlap=names) | Q(slug__in=names)
        ).order_by("pk")
    )
    venues = {venue.name: venue for venue in found if venue.name in records}
    unknown = [name for name in records if name not in venues]
    volumes = {records[name].external_id: name for name in unknown if records[name].external_id}
    for venue in Venue.objects.filter(external_id__in=volumes).order_by("pk"):
        venues.setdefault(volumes[venue.external_id], venue)
    for venue in found:
        for name in set(venue.former_names).intersection(unknown):
            venues.setdefault(name, venue)
    for venue in found:
        if venue.slug in records:
            venues.setdefault(venue.slug, venue)
    return venues


def drop_unused(new: list[Venue], papers) -> int:
    """Delete the venues a load made that none of its ``papers`` is under and that hold no
    volumes (a conference's record holds its own): a corrected page's header, whose papers the
    collection knew under another venue, made an empty venue (an outside curator). Answers how
    many went."""
    used = {paper.venue_id for paper in papers}
    unused = [venue.pk for venue in new if venue.pk not in used]
    if not unused:
        return 0
    _, deleted = Venue.objects.filter(pk__in=unused, children__isnull=True).delete()
    return deleted.get(Venue._meta.label, 0)
