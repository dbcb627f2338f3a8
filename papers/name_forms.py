"""What loads learn of the forms of a name: the family name a source tells (for authors
written before it told it), and the name with its umlauts ("Hinrich Schütze" written
"Hinrich Schuetze"): an author loaded without them takes them, and a name written without
them joins the author written with them (``fold_umlauts``). Called by papers/people.py and
papers/writing.py as they write authors."""

from collections import defaultdict

from django.db import connection

from .author_redirects import redirect_authors
from .models import Author, Authorship
from .name_keys import umlaut_key
from .records import AuthorRecord
from .tables import sql

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
# The papers with an author who has no family name: the only ones the statement above can
# change. Once loaded, every author has one: a reload sends none of its authorships.
_FAMILY_UNKNOWN_SQL = """
SELECT DISTINCT s.paper_id FROM {author} a JOIN {authorship} s ON s.author_id = a.id
WHERE a.family_name = ''
"""


def learn_family_names_in_place(authored: dict[int, list[AuthorRecord]]) -> None:
    """Give the authors of papers loaded before (``authored``: {paper id: its records' authors
    in order}, papers whose author lists the load keeps) the family name their records tell,
    where the author at that position has the record's name and no family name (one
    statement, sent only the papers with such an author): a database loaded before migration
    0023 learns them on its next load."""
    if not authored:
        return
    with connection.cursor() as cursor:
        cursor.execute(sql(_FAMILY_UNKNOWN_SQL))
        unknown = {row[0] for row in cursor.fetchall()}
    told = [
        (paper, position, record.name, record.family)
        for paper, records in authored.items()
        if paper in unknown
        for position, record in enumerate(records, start=1)
        if record.family
    ]
    if told:
        with connection.cursor() as cursor:
            cursor.execute(
                sql(_LEARN_FAMILY_IN_PLACE_SQL),
                [list(column) for column in zip(*told, strict=True)],
            )


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
