"""People: the loader's authors, one per person the Anthology identifies, else one per name.

The Anthology tells apart people who share a name (``<author id="yang-liu-edinburgh">`` and
eleven more "Yang Liu"s). A record with such a person id is that person: one Author per id,
its slug the id itself (``/authors/yang-liu-edinburgh/``), the other spellings it appears under
kept as ``variants``. A record without an id (every dump author, most Anthology authors) goes by
its normalised name (case, spacing, apostrophes and Latin accents folded: "Andre Martins" is
"André Martins"): to the one person known by that name, else to the name's own Author
(``person_id`` empty; a new one is named by the load's most accented spelling), whose page
lists the people of that name when there are several.

Loads come in any order, so two repairs follow each write: a paper loaded before the Anthology
named its people has the name's Author at that position replaced by the person (``relink``),
and a name whose only person arrived later is folded into that person (``fold_names``).
"""

from collections import defaultdict
from dataclasses import replace

from django.db import connection
from django.db.models import Count, Q

from .author_redirects import redirect_authors
from .bulk import allocate_ids, batched, copy_rows
from .models import Author, Authorship
from .records import AuthorRecord
from .tables import sql
from .text import make_slug, name_key, umlaut_key

AUTHOR_COLUMNS = [
    *("id", "name", "key", "umlaut_key", "slug", "orcid", "person_id", "variants", "family_name")
]


def author_ref(record: AuthorRecord) -> tuple[str, str]:
    """What a record's author is known by: its person id, else its normalised name."""
    if record.person_id:
        return ("person", record.person_id)
    return ("name", name_key(record.name))


def unique_slug(base: str, taken: set[str]) -> str:
    slug, number = base, 2
    while slug in taken:
        slug = f"{base}-{number}"
        number += 1
    taken.add(slug)
    return slug


def taken_slugs(bases: list[str]) -> set[str]:
    """The slugs among ``bases``, and their numbered forms ("name-2"), already in use."""
    taken = set()
    for chunk in batched(sorted(set(bases))):
        taken.update(Author.objects.filter(slug__any_of=chunk).values_list("slug", flat=True))
    for chunk in batched(sorted(taken), 500):
        numbered = Q()
        for base in chunk:
            numbered |= Q(slug__startswith=f"{base}-")
        taken.update(Author.objects.filter(numbered).values_list("slug", flat=True))
    return taken


def people_by_key(keys: set[str]) -> dict[str, set[int]]:
    """{normalised name: ids of the people known by it} for these keys: a person is known by
    its name and by each of its variants, as is an author a curator merged others into
    (papers/merging.py merge_authors: their names are its variants)."""
    found = defaultdict(set)
    people = [Author.objects.exclude(variants=[])]
    people += [
        Author.objects.exclude(person_id="").filter(key__any_of=chunk)
        for chunk in batched(sorted(keys))
    ]
    for queryset in people:
        for pk, name, variants in queryset.values_list("pk", "name", "variants"):
            for known in map(name_key, (name, *variants)):
                if known in keys:
                    found[known].add(pk)
    return found


# Authors written before a source told their family name learn it (only where it ends the
# name as written). Parameters: author ids, family names.
_LEARN_FAMILY_SQL = """
UPDATE {author} a SET family_name = v.family
FROM unnest(%s::bigint[], %s::text[]) AS v(id, family)
WHERE a.id = v.id AND a.family_name = '' AND right(a.name, length(v.family)) = v.family
"""


def learn_family_names(written: list[tuple[int, AuthorRecord]]) -> None:
    """Give the authors of ``written`` ([(author id, its record)], written before this load)
    the family name their record tells, where they have none (one statement)."""
    told = [(pk, record.family) for pk, record in written if record.family]
    if told:
        with connection.cursor() as cursor:
            cursor.execute(sql(_LEARN_FAMILY_SQL), [[pk for pk, _ in told], [f for _, f in told]])


# Authors written before without umlauts take the spelling with them and its umlaut key
# ("Hinrich Schutze", then "Hinrich Schütze"), by which fold_umlauts joins "Hinrich Schuetze"
# to them; a family name that no longer ends the name is learned again. Parameters: author
# ids, names, umlaut keys.
_LEARN_UMLAUTS_SQL = """
UPDATE {author} a SET name = v.name, umlaut_key = v.key,
    family_name = CASE WHEN right(v.name, length(a.family_name)) = a.family_name
                       THEN a.family_name ELSE '' END
FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS v(id, name, key)
WHERE a.id = v.id AND a.umlaut_key = ''
RETURNING a.id
"""


def learn_umlauts(written: list[tuple[int, AuthorRecord]]) -> set[int]:
    """Give the authors of ``written`` ([(author id, its record)], written before this load)
    their record's spelling with umlauts and its umlaut key, where they have no such key (one
    statement, only for a spelling with umlauts): the most accented spelling names a person,
    as within a load. Answers the papers of the authors respelled: their names change."""
    told = [(pk, record.name, key) for pk, record in written if (key := umlaut_key(record.name))]
    if not told:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(sql(_LEARN_UMLAUTS_SQL), [list(c) for c in zip(*told, strict=True)])
        learned = [row[0] for row in cursor.fetchall()]
    return set(Authorship.objects.filter(author_id__in=learned).values_list("paper_id", flat=True))


# The same, for the authors already at those places of papers written before: the author at
# position %s of paper %s, when named %s. Parameters: paper ids, positions, names, families.
_LEARN_FAMILY_IN_PLACE_SQL = """
UPDATE {author} a SET family_name = v.family
FROM unnest(%s::bigint[], %s::int[], %s::text[], %s::text[]) AS v(paper, position, name, family)
JOIN {authorship} s ON s.paper_id = v.paper AND s.position = v.position
WHERE a.id = s.author_id AND a.family_name = '' AND a.name = v.name
"""


def learn_family_names_in_place(authored: dict[int, list[AuthorRecord]]) -> None:
    """Give the authors of papers loaded before (``authored``: {paper id: its records' authors
    in order}, papers whose author lists the load keeps) the family name their records tell,
    where the author at that position has the record's name and no family name (one
    statement): a database loaded before migration 0023 learns them on its next load."""
    told = [
        (paper, position, record.name, record.family)
        for paper, records in authored.items()
        for position, record in enumerate(records, start=1)
        if record.family
    ]
    if told:
        with connection.cursor() as cursor:
            cursor.execute(
                sql(_LEARN_FAMILY_IN_PLACE_SQL),
                [list(column) for column in zip(*told, strict=True)],
            )


def _more_accented(record: AuthorRecord, than: AuthorRecord) -> bool:
    """Whether ``record``'s name keeps more accents than ``than``'s, a spelling of the same
    key: "André Martins" is the better of the two ways one person is written."""
    if record.name.isascii():  # most names: nothing to count
        return False
    return sum(not c.isascii() for c in record.name) > sum(not c.isascii() for c in than.name)


def _with_details_of(record: AuthorRecord, other: AuthorRecord) -> AuthorRecord:
    """The record, with the ORCID and family name of another spelling where it has none (the
    family name only where it ends this spelling too)."""
    family = record.family or (other.family if record.name.endswith(other.family) else "")
    return replace(record, orcid=record.orcid or other.orcid, family=family)


class AuthorWriter:
    """Writes the authors of a load's records; ``write`` answers {record: Author id}."""

    def __init__(self):
        self.new = 0
        self.created: set[int] = set()  # the ids of the authors this writer wrote
        self.people_names: dict[str, list[str]] = {}
        self.respelled: set[int] = set()  # papers whose authors took a spelling with umlauts

    def write(self, records: list[AuthorRecord]) -> dict[AuthorRecord, int]:
        # Each distinct record once, in the order first seen (a name recurs on many papers).
        refs = {record: author_ref(record) for record in dict.fromkeys(records)}
        first: dict[tuple[str, str], AuthorRecord] = {}
        spellings = defaultdict(list)
        for record, ref in refs.items():
            if ref not in first:
                first[ref] = record
            elif ref[0] == "name" and _more_accented(record, first[ref]):
                first[ref] = _with_details_of(record, first[ref])
            if record.person_id and record.name not in spellings[record.person_id]:
                spellings[record.person_id].append(record.name)
        self.people_names = dict(spellings)
        ids = self.write_people(first)
        ids.update(self.write_names(first))
        known = [
            (ids[ref], record) for ref, record in first.items() if ids[ref] not in self.created
        ]
        self.respelled = learn_umlauts(known)
        learn_family_names(known)
        return {record: ids[ref] for record, ref in refs.items()}

    def write_people(self, first: dict) -> dict[tuple[str, str], int]:
        existing = {}
        for chunk in batched(list(self.people_names)):
            existing.update(
                {
                    author.person_id: author
                    for author in Author.objects.filter(person_id__any_of=chunk)
                }
            )
        grown = []
        for person_id, author in existing.items():
            extra = [
                name
                for name in self.people_names[person_id]
                if name != author.name and name not in author.variants
            ]
            if extra:
                author.variants = [*author.variants, *extra]
                grown.append(author)
        Author.objects.bulk_update(grown, ["variants"], batch_size=1000)
        new = [person_id for person_id in self.people_names if person_id not in existing]
        free_slugs(new)
        new_ids = allocate_ids(Author, len(new))
        self.created.update(new_ids)
        copy_rows(Author, AUTHOR_COLUMNS, self.person_rows(new, new_ids, first))
        self.new += len(new)
        ids = {("person", pid): author.pk for pid, author in existing.items()}
        ids.update((("person", pid), pk) for pid, pk in zip(new, new_ids, strict=True))
        return ids

    def person_rows(self, person_ids: list[str], pks: list[int], first: dict):
        for person_id, pk in zip(person_ids, pks, strict=True):
            name, *variants = self.people_names[person_id]
            record = first[("person", person_id)]
            family = record.family if record.name == name else ""
            keys = (name_key(name), umlaut_key(name))
            yield (pk, name, *keys, person_id, record.orcid, person_id, variants, family)

    def write_names(self, first: dict) -> dict[tuple[str, str], int]:
        """Each name without a person id: its only person, else the name's own Author."""
        keys = {key for kind, key in first if kind == "name"}
        people = people_by_key(keys)
        ids = {("name", key): next(iter(people[key])) for key in people if len(people[key]) == 1}
        unresolved = sorted(key for key in keys if ("name", key) not in ids)
        for chunk in batched(unresolved):
            # Names told apart only by an older normalisation: the first author keeps them.
            rows = Author.objects.filter(key__any_of=chunk, person_id="").order_by("-id")
            ids.update((("name", key), pk) for key, pk in rows.values_list("key", "id"))
            for key, pk in written_with_umlauts(chunk).items():
                ids.setdefault(("name", key), pk)
        new = [key for key in unresolved if ("name", key) not in ids]
        records = [first[("name", key)] for key in new]
        slugs = name_slugs([record.name for record in records])
        new_ids = allocate_ids(Author, len(new))
        self.created.update(new_ids)
        copy_rows(Author, AUTHOR_COLUMNS, _name_rows(new_ids, new, records, slugs))
        ids.update((("name", key), pk) for key, pk in zip(new, new_ids, strict=True))
        self.new += len(new)
        return ids

    def fold_names(self) -> set[int]:
        """Names whose only person is among this load's people: their papers go to that
        person and the name's Author goes. Answers the papers whose author changed."""
        keys = {name_key(name) for names in self.people_names.values() for name in names}
        people = people_by_key(keys)
        moved = set()
        for chunk in batched(sorted(keys)):
            for row in Author.objects.filter(key__any_of=chunk, person_id=""):
                if len(people[row.key]) == 1 and row.pk not in people[row.key]:
                    authorships = Authorship.objects.filter(author=row)
                    moved.update(authorships.values_list("paper_id", flat=True))
                    authorships.update(author_id=next(iter(people[row.key])))
                    row.delete()
        return moved


# Each name without a person id that is the name of exactly one other author with its
# umlauts written out ("Hinrich Schuetze" of "Hinrich Schütze"; of two people so named, which
# one is unknown: the name keeps its papers): (the name's author, the author it joins).
_UMLAUT_PAIRS_SQL = """
SELECT b.id, min(a.id)
FROM {author} a JOIN {author} b ON b.key = a.umlaut_key
WHERE a.umlaut_key <> '' AND b.person_id = '' AND b.id <> a.id
GROUP BY b.id HAVING count(*) = 1
"""
# The author joined takes the name's ORCID where it has none; then the name's papers move,
# but a paper that already names that author, and one whose authors a curator set.
_TAKE_ORCID_SQL = """
UPDATE {author} a SET orcid = b.orcid
FROM unnest(%s::bigint[], %s::bigint[]) AS v(folded, kept) JOIN {author} b ON b.id = v.folded
WHERE a.id = v.kept AND a.orcid = '' AND b.orcid <> ''
"""
_MOVE_SQL = """
UPDATE {authorship} s SET author_id = v.kept
FROM unnest(%s::bigint[], %s::bigint[]) AS v(folded, kept)
WHERE s.author_id = v.folded
AND NOT EXISTS (
    SELECT 1 FROM {authorship} t WHERE t.paper_id = s.paper_id AND t.author_id = v.kept
)
AND NOT EXISTS (
    SELECT 1 FROM {paper} p WHERE p.id = s.paper_id AND 'authors' = ANY(p.curated_fields)
)
RETURNING s.paper_id
"""


def fold_umlauts() -> set[int]:
    """Names written without their umlauts ("Hinrich Schuetze") join the author of the name
    written with them ("Hinrich Schütze"), whichever was loaded first: their papers move
    there with its ORCID, and an author left without papers goes (its address redirects,
    AuthorRedirect); a curator's author list stays as it is. Answers the papers whose
    author changed (one statement where no name has such a twin)."""
    with connection.cursor() as cursor:
        cursor.execute(sql(_UMLAUT_PAIRS_SQL))
        pairs = cursor.fetchall()
        if not pairs:
            return set()
        columns = [list(column) for column in zip(*pairs, strict=True)]
        cursor.execute(sql(_TAKE_ORCID_SQL), columns)
        cursor.execute(sql(_MOVE_SQL), columns)
        moved = {row[0] for row in cursor.fetchall()}
    kept = dict(pairs)
    emptied = Author.objects.filter(pk__in=list(kept), authorships=None)
    joined = {pk: kept[pk] for pk in emptied.values_list("pk", flat=True)}
    redirect_authors(joined)
    Author.objects.filter(pk__in=list(joined)).delete()
    return moved


def written_with_umlauts(keys: list[str]) -> dict[str, int]:
    """{key: the one author whose name with its umlauts written out it is} ("hinrich
    schuetze": Hinrich Schütze), for the keys that are exactly one author's so (as
    fold_umlauts joins them)."""
    authors = defaultdict(set)
    for key, pk in Author.objects.filter(umlaut_key__any_of=keys).values_list("umlaut_key", "id"):
        authors[key].add(pk)
    return {key: pks.pop() for key, pks in authors.items() if len(pks) == 1}


def _name_rows(pks: list[int], keys: list[str], records: list[AuthorRecord], slugs: list[str]):
    """The AUTHOR_COLUMNS of new names' authors."""
    for pk, key, record, slug in zip(pks, keys, records, slugs, strict=True):
        spelled = umlaut_key(record.name)
        yield (pk, record.name, key, spelled, slug, record.orcid, "", [], record.family)


def name_slugs(names: list[str]) -> list[str]:
    """A free slug for each new name: the name's, with a number where it is taken."""
    bases = [make_slug(name, "author") for name in names]
    taken = taken_slugs(bases)
    return [unique_slug(base, taken) for base in bases]


def free_slugs(person_ids: list[str]) -> None:
    """A person's slug is its id: a name's Author holding that slug moves to a numbered one."""
    holders = []
    for chunk in batched(person_ids):
        holders += list(Author.objects.filter(slug__any_of=chunk, person_id=""))
    if not holders:
        return
    taken = taken_slugs([make_slug(author.name, "author") for author in holders]) | set(person_ids)
    for author in holders:
        author.slug = unique_slug(make_slug(author.name, "author"), taken)
    Author.objects.bulk_update(holders, ["slug"])


def relink(identified: dict[int, list[AuthorRecord]], ids: dict[AuthorRecord, int]) -> set[int]:
    """Papers whose authors were written before a source identified them: the name's Author
    at each position where the record names a person of that same name (``ids``: each
    record's Author id) becomes that person. Answers the papers changed; names left without
    papers are deleted."""
    wanted = {
        (paper_id, position): (ids[record], name_key(record.name))
        for paper_id, records in identified.items()
        for position, record in enumerate(records, start=1)
        if record.person_id
    }
    changed, replaced = [], set()
    for chunk in batched(list(identified)):
        rows = Authorship.objects.filter(paper_id__any_of=chunk, author__person_id="")
        for authorship in rows.select_related("author"):
            person, key = wanted.get((authorship.paper_id, authorship.position), (None, None))
            if person is not None and authorship.author.key == key:
                replaced.add(authorship.author_id)
                authorship.author_id = person
                changed.append(authorship)
    Authorship.objects.bulk_update(changed, ["author"], batch_size=1000)
    orphans = Author.objects.filter(pk__in=replaced).annotate(papers_left=Count("authorships"))
    Author.objects.filter(pk__in=orphans.filter(papers_left=0).values("pk")).delete()
    return {authorship.paper_id for authorship in changed}
