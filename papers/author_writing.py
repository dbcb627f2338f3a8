"""New authors for a load: one id per normalised name, each new author with a slug of its own."""

from django.db.models import Q

from .bulk import allocate_ids, batched, copy_rows
from .models import Author
from .records import AuthorRecord
from .text import make_slug, name_key


def unique_slug(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3` … : the first not in `taken` (which then holds it)."""
    slug, number = base, 2
    while slug in taken:
        slug = f"{base}-{number}"
        number += 1
    taken.add(slug)
    return slug


def author_key(author: AuthorRecord) -> str:
    return name_key(author.name)


def write_authors(records: list[AuthorRecord]) -> tuple[dict[str, int], int]:
    """The id of each record's author, by normalised name, and how many authors were new:
    authors not yet known are created (COPY), each with a slug of its own."""
    wanted = {}
    for record in records:
        wanted.setdefault(author_key(record), record)
    ids = {}
    for chunk in batched(list(wanted)):
        # Names told apart only by an older normalisation: the first author keeps them.
        for key, pk in (
            Author.objects.filter(key__in=chunk).order_by("-id").values_list("key", "id")
        ):
            ids[key] = pk
    new = [(key, record) for key, record in wanted.items() if key not in ids]
    slugs = author_slugs([record.name for _, record in new])
    new_ids = allocate_ids(Author, len(new))
    copy_rows(
        Author,
        ["id", "name", "key", "slug", "orcid"],
        (
            (pk, record.name, key, slug, record.orcid)
            for pk, (key, record), slug in zip(new_ids, new, slugs, strict=True)
        ),
    )
    ids.update((key, pk) for pk, (key, _) in zip(new_ids, new, strict=True))
    return ids, len(new)


def author_slugs(names: list[str]) -> list[str]:
    """A free slug for each new author: the name's, with a number where it is taken."""
    bases = [make_slug(name, "author") for name in names]
    taken = set()
    for chunk in batched(sorted(set(bases))):
        taken.update(Author.objects.filter(slug__in=chunk).values_list("slug", flat=True))
    for chunk in batched(sorted(taken), 500):
        numbered = Q()
        for base in chunk:
            numbered |= Q(slug__startswith=f"{base}-")
        taken.update(Author.objects.filter(numbered).values_list("slug", flat=True))
    return [unique_slug(base, taken) for base in bases]
