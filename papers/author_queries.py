"""The authors' queries: the people sharing an author's name, their co-authors, where an
author stands in the author lists of some papers, and the authors of a family name."""

import itertools
import re
from collections import Counter

from django.db import models
from django.db.models import Count, Q

from .expressions import family_key, joined_key
from .name_keys import GENERATIONS, name_key, without_initial_stops
from .name_words import PARTICLES
from .nicknames import given_name_forms
from .schema_sql import ACCENTED, COMBINING_MARKS, UNACCENTED
from .tables import reading_cursor, sql
from .text import OPERATORS, latin_unaccented, make_slug

# The authors sharing papers with author %s, by shared papers then name, the first %s: the
# authorships read from the indexes alone (authorship_author_paper, authorship_position_once)
# and counted per author, the names of those few hundred probed one by one for the order, and
# only the rows shown read whole (a join of the counts to every author scanned the 43,000).
COAUTHORS_SQL = """
WITH counted AS (
    SELECT s.author_id, count(*) AS shared
    FROM {authorship} mine JOIN {authorship} s ON s.paper_id = mine.paper_id
    WHERE mine.author_id = %s AND s.author_id <> %s
    GROUP BY s.author_id
), shown AS (
    SELECT c.author_id, c.shared, (SELECT a.name FROM {author} a WHERE a.id = c.author_id) AS name
    FROM counted c ORDER BY c.shared DESC, name, c.author_id LIMIT %s
)
SELECT a.*, shown.shared, (SELECT count(*) FROM counted) AS coauthor_total
FROM shown JOIN {author} a ON a.id = shown.author_id
ORDER BY shown.shared DESC, shown.name, a.id
"""


# A query of one word that is the family name of this many authors at most offers their pages
# ("Gurevych": Iryna Gurevych); a commoner one ("Zhang": 1,107 authors) names nobody.
FAMILY_NAMESAKES = 5
# A letter's combining marks ("ẹ́": ẹ and an acute) are part of its word: "Kọ́lá Túbọ̀sún", typed
# as his page writes it, offered nobody.
_MARKS = "\u0300-\u036f"
_ONE_NAME = re.compile(rf"[^\W\d_][\w'’{_MARKS}-]+")
# A name: two to five words of letters (with . ' - inside), nothing a search operator uses.
_NAME = re.compile(rf"[^\W\d_][\w.'’{_MARKS}-]*(?:\s+[^\W\d_][\w.'’{_MARKS}-]*){{1,4}}")
# A generation suffix ending a name's slug ("Hal Daumé III", "Matthew C. Williams Jr.").
_SUFFIX = "(-(jr|sr|ii|iii|iv))?"
# A generation suffix of a family name, as expressions.family_key keys it.
_FAMILY_SUFFIXES = (" ii", " iii", " iv", " jr", " jr.", ", jr.", ", jr", " sr", " sr.")
# An umlaut written out ("ue" for "ü"), as name_keys.umlaut_key writes it.
_WRITTEN_OUT = re.compile(r"([aou])e")


def looks_like_name(text: str) -> bool:
    words = text.split()
    return bool(_NAME.fullmatch(text)) and not any(word.lower() in OPERATORS for word in words)


def _slugs_named(slug: str) -> Q:
    """The slugs of a name's authors: the slug, its namesakes' (slug-2 …), with one or two
    middle initials or names the name leaves out ("noah-smith": noah-a-smith; "jackie-cheung":
    jackie-c-k-cheung, jackie-chi-kit-cheung: one person's four pages, the 24-paper one not
    offered) and a suffix it leaves out ("hal-daume": hal-daume-iii), for every form of the
    given name ("dan-jurafsky": daniel-jurafsky too, papers/nicknames.py), or every given name
    of its initials ("y-goldberg": yoav-goldberg, ``_initialled``); each form read through an
    index range of the slugs it begins. Not a part of a hyphenated name ("Wei-Jie Wang" is not
    Wei Wang, nor "Ada Kingsley-Lovelace" Ada Lovelace)."""
    given, _, rest = slug.partition("-")
    if not rest:
        return Q(slug=slug) | Q(
            slug__startswith=f"{slug}-", slug__regex=rf"^{re.escape(slug)}-[0-9]+$"
        )
    if initialled := _initialled(slug):
        return Q(slug=slug) | initialled
    slugs = Q(slug=slug)
    for form in given_name_forms(given):
        ending = rf"{re.escape(rest)}{_SUFFIX}(-[0-9]+)?$"
        slugs |= Q(slug__startswith=f"{form}-", slug__regex=rf"^{re.escape(form)}-{ending}")
        # A middle word is a word of the name: not a hyphenated given or family name's part.
        middle = Q(
            slug__startswith=f"{form}-", slug__regex=rf"^{re.escape(form)}-([a-z]+-){{1,2}}{ending}"
        )
        slugs |= middle & Q(name__regex=r"^\S+\s+\S+\s+\S") & ~Q(name__istartswith=f"{form}-")
    return slugs


def _initialled(slug: str) -> Q | None:
    """The slugs of a name written with its given names' initials ("y-goldberg", "c-d-manning",
    family first "goldberg-y"): a given name of each initial's letter, the second and later
    ones or a middle initial left out, and the family name as typed (christopher-d-manning,
    christopher-manning); None for a name written otherwise. Read through the index range of
    the slugs beginning with the first initial."""
    words = slug.split("-")
    if len(words[-1]) == 1 and len(words[0]) > 1:
        family_words = list(itertools.takewhile(lambda word: len(word) > 1, words))
        words = words[len(family_words) :] + family_words
    initials = list(itertools.takewhile(lambda word: len(word) == 1, words))
    family = "-".join(words[len(initials) :])
    if not initials or not family or any(len(word) == 1 for word in words[len(initials) :]):
        return None
    given = f"{re.escape(initials[0])}[^-]*-" + "".join(
        f"(?:{re.escape(initial)}[^-]*-)?" for initial in initials[1:]
    )
    # One initial typed leaves a middle one out; two name the middle one ("m-c-williams": not
    # miles-x-williams).
    middle = "([a-z]-)?" if len(initials) == 1 else ""
    pattern = rf"^{given}{middle}{re.escape(family)}{_SUFFIX}(-[0-9]+)?$"
    return Q(slug__startswith=initials[0], slug__regex=pattern)


def family_forms(word: str) -> tuple[str, str]:
    """The family names a typed one may mean, in small letters: as typed, and read as umlauts
    written out ("Schuetze": "schutze", as the key has Schütze, accents dropped)."""
    lowered = word.lower()
    return lowered, _WRITTEN_OUT.sub(r"\1", latin_unaccented(lowered))


# What papers_unaccented does in SQL (schema_sql.py): its translation table, marks dropped.
_AS_INDEXED = str.maketrans(ACCENTED, UNACCENTED, COMBINING_MARKS)


def _as_family_key(form: str) -> str:
    """The form as expressions.family_key keys a family name: its accents dropped by the table
    the index's papers_unaccented translates with (Python's own folding also straightened
    "O’Connor"'s apostrophe, which the index keeps). A literal, not an expression: PostgreSQL
    folded one per suffix, and a family name's lookup took 12 ms instead of 3."""
    return form.translate(_AS_INDEXED)


def _family_is(key: str) -> Q:
    """The family name is ``key``, or it with a generation suffix: sources write "Daumé III"
    and "Laverghetta Jr." as family names, and "Daumé" offered nobody; with either apostrophe:
    the Anthology writes "O’Connor", and "O'Connor" typed offered nobody (an outside tester)."""
    keys = {key, key.replace("'", "’"), key.replace("’", "'")}
    return Q(family__in=sorted(k + suffix for k in keys for suffix in ("", *_FAMILY_SUFFIXES)))


def _first_and_last(author) -> str:
    """The author's name without what comes between its first word and its family name's last
    (a generation suffix kept): "Jackie Chi Kit Cheung" is Jackie Cheung, "Ramón Fernandez
    Astudillo" Ramón Astudillo, whom ``named`` finds with their middle words."""
    words = author.name.split()
    family = (author.family_name or words[-1]).split()
    suffixed = len(family) > 1 and family[-1].lower().strip(".") in GENERATIONS
    return (
        " ".join([words[0], *family[-2 if suffixed else -1 :]]) if len(words) > 2 else author.name
    )


class AuthorQuerySet(models.QuerySet):
    def named(self, text: str, limit: int = 30) -> list:
        """The authors whose name is the text (_slugs_named: namesakes, middle initials,
        short forms of the given name; the normalised name; a name merged into another
        author), each with ``paper_count``, most papers first; [] without a query when not a
        name. A name written family name first, with a comma ("Manning, Christopher"), is
        that name."""
        text = without_initial_stops(text)  # "C.D. Manning" as "C D Manning"
        family, comma, given = text.partition(",")
        if comma and given.strip():
            text = f"{given.strip()} {family.strip()}"
        if not looks_like_name(text):
            return []
        slug = make_slug(text, "")
        if not slug:
            return []
        key = name_key(text)
        # Each way of naming read through its own index, the ids united: or-ed in one
        # condition with the redirects' join, they made the planner read every author and
        # authorship.
        ids = (
            self.filter(_slugs_named(slug) | Q(key=key))
            .order_by()
            .values("pk")
            .union(
                self.filter(umlaut_key=key).exclude(umlaut_key="").order_by().values("pk"),
                self.filter(redirects__old_slug=slug).order_by().values("pk"),
            )
        )
        counted = self.filter(pk__in=ids).annotate(paper_count=Count("authorships"))
        return list(counted.order_by("-paper_count", "slug")[:limit])

    def of_family_name(self, text: str) -> list:
        """The authors whose family name is the text, a single word after any particles ("van
        der Goot"), each with ``paper_count``, most papers first; [] when more than
        FAMILY_NAMESAKES have it (one query on the family names' index, a second to count their
        papers when some are found)."""
        word = " ".join(text.split())
        *particles, last = word.split() or [""]
        if not _ONE_NAME.fullmatch(last) or word.lower() in OPERATORS:
            return []
        if any(particle.lower() not in PARTICLES for particle in particles):
            return []
        typed, umlauts = (_as_family_key(form) for form in family_forms(word))
        # The form with umlauts only for names that have some: "Bauer" is not "Baur".
        named = self.alias(family=family_key()).filter(
            _family_is(typed) | (_family_is(umlauts) & Q(umlaut_key__gt=""))
        )
        ids = list(named.order_by().values_list("pk", flat=True)[: FAMILY_NAMESAKES + 1])
        if not ids or len(ids) > FAMILY_NAMESAKES:
            return []
        counted = self.filter(pk__in=ids).annotate(paper_count=Count("authorships"))
        return list(counted.order_by("-paper_count", "slug"))

    def other_forms_of(self, author, limit: int = 10) -> list:
        """The authors named with another form of the author's name (a middle initial or name
        more or less, another form of the given name: ``named``; its words spaced otherwise, one
        query more, and one to count their papers where some are found), not the author nor a
        namesake, with papers, each with ``paper_count``, most papers first: "Christopher
        Manning" has 24 papers, "Christopher D. Manning" 9 and "Christopher D Manning" 4,
        perhaps all one person's."""
        named = self.named(_first_and_last(author), limit + 3)
        # Written with the spaces elsewhere ("AiTi Aw", "Ai Ti Aw": 40 people of the folder),
        # through the index author_joined_key.
        joined = self.alias(joined=joined_key()).filter(joined=author.key.replace(" ", ""))
        spaced = list(joined.exclude(key=author.key).values_list("pk", flat=True)[:limit])
        if spaced:  # counted apart: joined to the authorships, the planner read them all
            spaced = self.filter(pk__in=spaced).annotate(paper_count=Count("authorships"))
        others = {other.pk: other for other in [*named, *spaced]}
        found = [
            other for other in others.values() if other.key != author.key and other.paper_count
        ]
        return sorted(found, key=lambda other: (-other.paper_count, other.slug))[:limit]

    def namesakes_of(self, author):
        """The other authors of the same name (people the Anthology tells apart, and the name's
        own page), each with ``paper_count``, most papers first."""
        return (
            self.filter(key=author.key)
            .exclude(pk=author.pk)
            .annotate(paper_count=Count("authorships"))
            .order_by("-paper_count", "slug")
        )

    def coauthors_of(self, author, limit: int = 30) -> list:
        """The author's co-authors, the ``limit`` with most shared papers, each with ``shared``
        papers and ``coauthor_total``, how many they have in all, most shared first (one
        query). Their authorships are counted per author before any author row is read: a
        prolific author's papers have some 5,000 authorships and a few hundred co-authors."""
        return list(self.raw(sql(COAUTHORS_SQL), [author.pk, author.pk, limit]))


# The place of the first of the authors %s in each of the papers %s that one of them wrote:
# the author, their position and the number of authors.
PLACES_SQL = """
SELECT DISTINCT ON (a.paper_id) a.paper_id, a.author_id, a.position,
       (SELECT count(*) FROM {authorship} b WHERE b.paper_id = a.paper_id)
FROM {authorship} a WHERE a.author_id = ANY(%s) AND a.paper_id = ANY(%s)
ORDER BY a.paper_id, a.position
"""


def places_of(author_ids: list[int], paper_ids: list[int]) -> dict[int, tuple[int, int, int]]:
    """{paper id: (the author's id, their position in its author list, from 1, its number of
    authors)} for the papers ``paper_ids`` one of the authors wrote, the first of them where
    several did (one statement)."""
    with reading_cursor() as cursor:
        cursor.execute(sql(PLACES_SQL), [author_ids, paper_ids])
        return {paper: (author, position, total) for paper, author, position, total in cursor}


# For each of the authors %s: the years of their first and last venues, and the co-author of
# most of their papers (the first by id among equals), or NULLs.
PROFILES_SQL = """
WITH mine AS (
    SELECT s.author_id, s.paper_id FROM {authorship} s WHERE s.author_id = ANY(%s)
), years AS (
    SELECT m.author_id, min(v.year) AS first_year, max(v.year) AS last_year
    FROM mine m JOIN {paper} p ON p.id = m.paper_id JOIN {venue} v ON v.id = p.venue_id
    GROUP BY m.author_id
), partners AS (
    SELECT DISTINCT ON (m.author_id) m.author_id, o.author_id AS partner, count(*) AS shared
    FROM mine m JOIN {authorship} o ON o.paper_id = m.paper_id AND o.author_id <> m.author_id
    GROUP BY m.author_id, o.author_id
    ORDER BY m.author_id, count(*) DESC, o.author_id
)
SELECT y.author_id, y.first_year, y.last_year, a.name
FROM years y LEFT JOIN partners pa ON pa.author_id = y.author_id
LEFT JOIN {author} a ON a.id = pa.partner
"""


def describe_people(authors: list) -> None:
    """Give each of these authors (people sharing a name, shown side by side) what tells them
    apart at a glance: ``active_years`` ("2020–2024", "2024", or "") and ``partner`` (the
    name of the co-author of most of their papers, or ""), in one statement."""
    if not authors:
        return
    with reading_cursor() as cursor:
        cursor.execute(sql(PROFILES_SQL), [[author.pk for author in authors]])
        rows = {row[0]: row[1:] for row in cursor.fetchall()}
    for author in authors:
        first, last, partner = rows.get(author.pk, (None, None, None))
        if first is None:
            author.active_years = ""
        else:
            author.active_years = str(first) if first == last else f"{first}–{last}"
        author.partner = partner or ""


def namesakes_among(authors: list) -> list:
    """The authors of the list whose name another of them has (two co-authors named Jing
    Huang): those a list must tell apart."""
    names = Counter(author.name for author in authors)
    return [author for author in authors if names[author.name] > 1]
