"""Names one ORCID joins into one author (papers/people.py writes them).

The Anthology folder writes some people under several names, and gives each name the
person's ORCID where the person gave it ("Christopher Manning", "Christopher D Manning": one
ORCID, 61 such ORCIDs of several names). A name with an ORCID is known by the ORCID where it
agrees with the ORCID's first name: the folder gives one ORCID to two people too.
"""

from collections import defaultdict

from .bulk import batched
from .models import Author
from .name_keys import name_key
from .records import AuthorRecord


def joined_by_orcid(refs: dict[AuthorRecord, tuple[str, str]]) -> dict:
    """The records' refs, those of names with an ORCID (no person id) known by the ORCID
    instead where the ORCID has several names, in this load or in the collection, that agree
    with its first one (``same_person``): the Anthology folder gives "Christopher Manning" and
    "Christopher D Manning" one ORCID, and two pages split his papers (an outside
    researcher); it also gives one ORCID to "Albert Lam" and "Xiao-Ming Wu", whose names
    disagree and stay apart. A name alone with its ORCID keeps the ways a name is found."""
    keys: dict[str, list[str]] = defaultdict(list)
    for record, ref in refs.items():
        if ref[0] == "name" and _orcid(record.orcid) and ref[1] not in keys[_orcid(record.orcid)]:
            keys[_orcid(record.orcid)].append(ref[1])
    for orcid, key in _known_keys(set(keys)):
        if key not in keys[orcid]:
            keys[orcid].append(key)
    joined = set()
    for orcid, names in keys.items():
        agreeing = [key for key in names if same_person(names[0], key)]
        if len(agreeing) > 1:
            joined.update((orcid, key) for key in agreeing)
    return {
        record: ("orcid", _orcid(record.orcid)) if (_orcid(record.orcid), ref[1]) in joined else ref
        for record, ref in refs.items()
    }


def _orcid(orcid: str) -> str:
    return orcid.strip().upper()


def _known_keys(orcids: set[str]):
    """(ORCID, key) of the authors the collection knows by these ORCIDs."""
    for chunk in batched(sorted(orcids)):
        for orcid, key in Author.objects.filter(orcid__any_of=chunk).values_list("orcid", "key"):
            yield _orcid(orcid), key


def same_person(key: str, other: str) -> bool:
    """Whether two name keys may be one person's: the same family name (last word) and given
    name (first word), or the given name's initial ("c manning", "christopher d manning")."""
    words, other_words = key.split(), other.split()
    if not words or not other_words or words[-1] != other_words[-1]:
        return False
    given, other_given = sorted((words[0], other_words[0]), key=len)
    return given == other_given or (len(given) == 1 and other_given.startswith(given))


def authors_of_orcids(orcids: dict[str, list[str]]) -> dict[str, Author]:
    """{ORCID: the author to write its names to}: the first author with that ORCID whose name
    is one of the ORCID's people, else the first author of one of its names (no person's, and
    of no other ORCID)."""
    found = {}
    for chunk in batched(sorted(orcids)):
        for author in Author.objects.filter(orcid__any_of=chunk).order_by("pk"):
            orcid = _orcid(author.orcid)
            lead = name_key(orcids[orcid][0]) if orcid in orcids else ""
            if orcid not in found and same_person(lead, author.key):
                found[orcid] = author
    by_key = {
        name_key(name): orcid
        for orcid, names in orcids.items()
        if orcid not in found
        for name in names
    }
    for chunk in batched(sorted(by_key)):
        for author in Author.objects.filter(key__any_of=chunk, person_id="").order_by("pk"):
            orcid = by_key[author.key]
            if _orcid(author.orcid) in ("", orcid):  # another ORCID: another person
                found.setdefault(orcid, author)
    return found
