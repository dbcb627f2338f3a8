"""People: the loader's authors, one per person the Anthology identifies, else one per name.

The Anthology tells apart people who share a name (``<author id="yang-liu-edinburgh">`` and
eleven more "Yang Liu"s). A record with such a person id is that person: one Author per id,
its slug the id itself (``/authors/yang-liu-edinburgh/``), the other spellings it appears under
kept as ``variants``. A record without an id (every dump author, most Anthology authors) goes by
its normalised name (case, spacing, apostrophes and Latin accents folded: "Andre Martins" is
"André Martins"): to the one person known by that name, else to the name's own Author
(``person_id`` empty; a new one is named by the load's best spelling: the most accented, then
the most capitalised), whose page
lists the people of that name when there are several.

Loads come in any order, so two repairs follow each write: a paper loaded before the Anthology
named its people has the name's Author at that position replaced by the person (``relink``),
and a name whose only person arrived later is folded into that person (``fold_names``).
"""

import re
from collections import defaultdict
from dataclasses import replace

from django.db.models import Count, Q

from .author_redirects import redirect_authors
from .bulk import allocate_ids, batched, copy_rows
from .models import Author, Authorship
from .name_forms import learn_family_names, learn_umlauts, written_with_umlauts
from .name_keys import name_key, umlaut_key
from .name_words import PARTICLES
from .orcid_people import authors_of_orcids, joined_by_orcid
from .records import AuthorRecord
from .text import make_slug

# The numerals of a generation ending a name, written in capitals ("Hal Daumé III").
_GENERATIONS = {"ii", "iii", "iv"}
# An initial written with its full stop ("D." in "Christopher D. Manning").
_STOPPED_INITIAL = re.compile(r"\b\w\.")

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
    its name and by each of its variants."""
    found = defaultdict(set)
    people = [Author.objects.exclude(person_id="").exclude(variants=[])]
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


def merged_names(keys: set[str]) -> dict[str, int]:
    """{normalised name: the author a curator merged that name into} for these keys: an author
    that is no person, whose variants hold the name (papers/merging.py merge_authors), where
    one such author holds it and no other author is named so. A name a curator typed by
    mistake and renamed back stays a variant: the papers of the author of that very name went
    to the renamed one (an outside curator)."""
    found = defaultdict(set)
    merged = Author.objects.filter(person_id="").exclude(variants=[])
    for pk, variants in merged.values_list("pk", "variants"):
        for known in map(name_key, variants):
            if known in keys:
                found[known].add(pk)
    named = Author.objects.filter(key__any_of=sorted(found), person_id="")
    named_otherwise = {key for pk, key in named.values_list("pk", "key") if pk not in found[key]}
    return {
        key: pks.pop() for key, pks in found.items() if len(pks) == 1 and key not in named_otherwise
    }


def _better_spelled(record: AuthorRecord, than: AuthorRecord) -> bool:
    """Whether ``record``'s name is the better spelling of the same key than ``than``'s: it
    keeps more accents ("André Martins"), or as many and more of its parts capitalised
    ("David Alfonso-Hermelo", which the Anthology's first record of him wrote
    "Alfonso-hermelo", where five others do not; a part in capitals alone does not count,
    but a generation's numeral ending the name, "III", counts only in capitals), or
    as many and more initials with their full stop ("Christopher D. Manning")."""
    if record.name == than.name:
        return False
    accents, other_accents = _accents(record.name), _accents(than.name)
    if accents != other_accents:
        return accents > other_accents
    capitalised, other_capitalised = _capitalised_parts(record.name), _capitalised_parts(than.name)
    if capitalised != other_capitalised:
        return capitalised > other_capitalised
    return len(_STOPPED_INITIAL.findall(record.name)) > len(_STOPPED_INITIAL.findall(than.name))


def _accents(name: str) -> int:
    return 0 if name.isascii() else sum(not c.isascii() for c in name)


def _capitalised_parts(name: str) -> int:
    parts = [part for part in name.replace("-", " ").split() if part.lower() not in PARTICLES]
    capitalised = [part[:1].isupper() and not part[1:].isupper() for part in parts]
    if parts and parts[-1].lower() in _GENERATIONS:
        capitalised[-1] = parts[-1].isupper()  # "Hal Daumé III", not "Iii"
    return sum(capitalised)


def _best_spellings_of_orcids(first: dict, orcid_names: dict[str, list[str]]) -> None:
    """An ORCID's author named by the best spelling of its names, those of the records
    without the ORCID too ("Christopher D. Manning", where the ORCID's records wrote
    "Christopher D Manning": a reviewer)."""
    orcid_of = {name_key(n): orcid for orcid, names in orcid_names.items() for n in names}
    for (kind, key), record in first.items():
        ref = ("orcid", orcid_of.get(key, ""))
        if kind == "name" and ref in first and _better_spelled(record, first[ref]):
            first[ref] = _with_details_of(record, first[ref])


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
        refs = joined_by_orcid({record: author_ref(record) for record in dict.fromkeys(records)})
        first: dict[tuple[str, str], AuthorRecord] = {}
        spellings = {"person": defaultdict(list), "orcid": defaultdict(list)}
        for record, ref in refs.items():
            if ref not in first:
                first[ref] = record
            elif ref[0] != "person" and _better_spelled(record, first[ref]):
                first[ref] = _with_details_of(record, first[ref])
            if ref[0] in spellings and record.name not in spellings[ref[0]][ref[1]]:
                spellings[ref[0]][ref[1]].append(record.name)
        self.people_names = dict(spellings["person"])
        self.orcid_names = dict(spellings["orcid"])
        _best_spellings_of_orcids(first, self.orcid_names)
        ids = self.write_people(first)
        ids.update(self.write_orcids(first))
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

    def write_orcids(self, first: dict) -> dict[tuple[str, str], int]:
        """Each ORCID of names that ``joined_by_orcid`` joined: the author that has it, else
        the author of one of its names (which takes it), else a new author named by its best
        spelling; each knows the ORCID's other spellings (its variants), so that a later load
        of a name alone finds it (``merged_names``)."""
        orcids = self.orcid_names
        found = authors_of_orcids(orcids)
        grown = []
        for orcid, author in found.items():
            extra = [n for n in orcids[orcid] if n != author.name and n not in author.variants]
            if extra or not author.orcid:
                author.variants, author.orcid = [*author.variants, *extra], author.orcid or orcid
                grown.append(author)
        Author.objects.bulk_update(grown, ["variants", "orcid"], batch_size=1000)
        new = [orcid for orcid in orcids if orcid not in found]
        records = [first[("orcid", orcid)] for orcid in new]
        variants = [
            [n for n in orcids[o] if n != r.name] for o, r in zip(new, records, strict=True)
        ]
        new_ids = self.insert_names(records, variants)
        ids = {("orcid", orcid): author.pk for orcid, author in found.items()}
        ids.update((("orcid", orcid), pk) for orcid, pk in zip(new, new_ids, strict=True))
        return ids

    def write_names(self, first: dict) -> dict[tuple[str, str], int]:
        """Each name without a person id: its only person, else the name's own Author."""
        keys = {key for kind, key in first if kind == "name"}
        people = people_by_key(keys)
        ids = {("name", key): next(iter(people[key])) for key in people if len(people[key]) == 1}
        # A name a curator merged into another author goes there, unless a person has it.
        merged = merged_names({key for key in keys if ("name", key) not in ids})
        ids.update((("name", key), pk) for key, pk in merged.items())
        unresolved = sorted(key for key in keys if ("name", key) not in ids)
        for chunk in batched(unresolved):
            # Names told apart only by an older normalisation: the first author keeps them.
            rows = Author.objects.filter(key__any_of=chunk, person_id="").order_by("-id")
            ids.update((("name", key), pk) for key, pk in rows.values_list("key", "id"))
            for key, pk in written_with_umlauts(chunk).items():
                ids.setdefault(("name", key), pk)
        new = [key for key in unresolved if ("name", key) not in ids]
        new_ids = self.insert_names([first[("name", key)] for key in new])
        ids.update((("name", key), pk) for key, pk in zip(new, new_ids, strict=True))
        return ids

    def insert_names(self, records: list[AuthorRecord], variants=None) -> list[int]:
        """New authors of these records' names (and ``variants``, none unless given), keyed by
        their names, with free slugs, in one COPY; answers their ids."""
        slugs = name_slugs([record.name for record in records])
        new_ids = allocate_ids(Author, len(records))
        self.created.update(new_ids)
        keys = [name_key(record.name) for record in records]
        copy_rows(Author, AUTHOR_COLUMNS, _name_rows(new_ids, keys, records, slugs, variants))
        self.new += len(records)
        return new_ids

    def fold_names(self) -> set[int]:
        """Names whose only person is among this load's people: their papers go to that
        person and the name's Author goes. Answers the papers whose author changed."""
        keys = {name_key(name) for names in self.people_names.values() for name in names}
        people = people_by_key(keys)
        moved = set()
        for chunk in batched(sorted(keys)):
            for row in Author.objects.filter(key__any_of=chunk, person_id=""):
                if len(people[row.key]) == 1:
                    moved |= _fold_into_person(row, next(iter(people[row.key])))
        return moved


def _fold_into_person(name: Author, person_id: int) -> set[int]:
    """A name's papers go to its person, with the names a curator merged into it (its
    variants) and its address; answers the papers moved."""
    authorships = Authorship.objects.filter(author=name)
    moved = set(authorships.values_list("paper_id", flat=True))
    authorships.update(author_id=person_id)
    if name.variants:
        person = Author.objects.get(pk=person_id)
        known = {person.name, *person.variants}
        extra = [n for n in (name.name, *name.variants) if n not in known]
        Author.objects.filter(pk=person_id).update(variants=[*person.variants, *extra])
    redirect_authors({name.pk: person_id})
    name.delete()
    return moved


def _name_rows(pks, keys, records: list[AuthorRecord], slugs: list[str], variants=None):
    """The AUTHOR_COLUMNS of new names' authors (their ``variants``: none unless given)."""
    variants = variants or [[] for _ in pks]
    for pk, key, record, slug, known in zip(pks, keys, records, slugs, variants, strict=True):
        spelled = umlaut_key(record.name)
        yield (pk, record.name, key, spelled, slug, record.orcid, "", known, record.family)


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
    changed, replaced = [], {}
    for chunk in batched(list(identified)):
        rows = Authorship.objects.filter(paper_id__any_of=chunk, author__person_id="")
        for authorship in rows.select_related("author"):
            person, key = wanted.get((authorship.paper_id, authorship.position), (None, None))
            author = authorship.author
            if person is not None and key in {author.key, *map(name_key, author.variants)}:
                replaced[authorship.author_id] = person
                authorship.author_id = person
                changed.append(authorship)
    Authorship.objects.bulk_update(changed, ["author"], batch_size=1000)
    orphans = Author.objects.filter(pk__in=list(replaced)).annotate(left=Count("authorships"))
    emptied = list(orphans.filter(left=0).values_list("pk", flat=True))
    redirect_authors({pk: replaced[pk] for pk in emptied})
    Author.objects.filter(pk__in=emptied).delete()
    return {authorship.paper_id for authorship in changed}


def drop_authorless(author_ids: set[int]) -> None:
    """Delete those of the authors that have no paper left, but those a curator's merge or
    a person's id keep (their variants, redirects or person id: a merged author's old
    addresses would answer 404, a reviewer)."""
    for chunk in batched(sorted(author_ids)):
        Author.objects.filter(
            pk__any_of=chunk, authorships=None, variants=[], redirects=None, person_id=""
        ).delete()
