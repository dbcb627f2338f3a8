"""A corrected source's author list replaces the one a load kept (papers/writing.py).

A paper's author list is kept as the first source gave it: a page's copy of an Anthology paper
names its authors otherwise (their order, short forms) and must not replace the Anthology's.
But a record carrying the paper's own external ID corrects its title and abstract, and its
author list is the source's too: a page that listed 2 of 10 authors kept them against the
Anthology XML, and a corrected JSON line's added author was dropped without a word (an outside
curator). Such a paper's authorships are taken off before the load writes the record's, and
the authors left without a paper go (their pages had nothing to show), but for those a
curator's merge or the Anthology's person id keeps.
"""

from .bulk import batched
from .models import Authorship, Paper
from .name_keys import GENERATIONS, name_key
from .record_merging import name_words_in_order
from .records import PaperRecord

# Every "e" dropped, so that an umlaut written out ("Schuetze") and one whose dots name_key
# dropped ("schutze") compare equal; two names apart by their e's alone are taken for one
# person, and the list is then kept, as it was before any correction.
_UMLAUTS_DROPPED = str.maketrans({"e": None})


def uncorrected_author_lists(records: list[PaperRecord], papers: dict[int, Paper]) -> set[int]:
    """Take off the authorships of the papers (known before this load) whose corrected record
    (its own external ID, ``corrects``) lists other people, but where a curator set them;
    answers the authors they named, for papers/people.py drop_authorless once the record's are
    written."""
    corrected = [
        papers[index].pk
        for index, record in enumerate(records)
        if index in papers
        and record.corrects
        and record.authors
        and record.external_id
        and record.external_id == papers[index].external_id
        and "authors" not in papers[index].curated_fields
        and papers[index].author_names
        and not same_people(", ".join(a.name for a in record.authors), papers[index].author_names)
    ]
    former = set()
    for chunk in batched(corrected):
        listed = Authorship.objects.filter(paper_id__any_of=chunk)
        former |= set(listed.values_list("author_id", flat=True))
        listed.delete()
    return former


def same_people(names: str, other_names: str) -> bool:
    """Whether two author lists, as a paper's names are written ("Ana Núñez, Bo Chen"; a name
    with a comma, "Prospero C. Naval, Jr.", is split alike on both sides), name the same
    people in the same order: as many, each pair of the same family name, one spelling's
    umlauts written out ("Schütze", "Schuetze"), a curator's respelling ("Hal Daume", "Hal
    Daumé III") alike; a part of initials alone ("V.S.", "V. W.") pairs with the same
    initials. A shared given name is not enough: "Rosa Delgado" corrected to "Rosa Martínez"
    in the paper's own Anthology XML was kept (an outside curator)."""
    if names == other_names:  # a reload's every paper but the corrected ones: no name keyed
        return True
    people, other_people = (names.split(", "), other_names.split(", "))
    return len(people) == len(other_people) and all(
        name_key(name) == name_key(other) or _family_word(name) == _family_word(other) != ""
        for name, other in zip(people, other_people, strict=True)
    )


def _family_word(name: str) -> str:
    """The name's last word but a generation suffix, as its key writes it, its e's dropped."""
    words = [word for word in name_words_in_order(name) if word not in GENERATIONS]
    return words[-1].translate(_UMLAUTS_DROPPED) if words else ""
