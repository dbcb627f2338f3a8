"""Where an author's old address leads: to the author it was joined to, by a curator's merge
(papers/merging.py merge_authors) or as a name written without its umlauts
(papers/name_forms.py fold_umlauts). The author page and its feed follow it (papers/views.py,
papers/feeds.py), and the author filter of the lists (papers/moved_filters.py)."""

from .models import Author, AuthorRedirect
from .text import make_slug


def redirect_authors(joined: dict[int, int]) -> None:
    """Before the authors ``joined`` ({id: the id of the author it joined}) are deleted: their
    slugs, and the redirects that led to them, lead to the author each joined."""
    slugs = dict(Author.objects.filter(pk__in=list(joined)).values_list("pk", "slug"))
    for pk, kept in joined.items():
        AuthorRedirect.objects.filter(author_id=pk).update(author_id=kept)
    AuthorRedirect.objects.bulk_create(
        [AuthorRedirect(old_slug=slug, author_id=joined[pk]) for pk, slug in slugs.items()],
        update_conflicts=True,
        unique_fields=["old_slug"],
        update_fields=["author"],
    )


def moved_author(slug: str) -> Author | None:
    """The author an address no author holds leads to, or None: through its redirect, else
    the author whose name with its umlauts written out it is (those joined by migration
    0027, before redirects were kept)."""
    moved = AuthorRedirect.objects.select_related("author").filter(old_slug=slug).first()
    if moved is not None:
        return moved.author
    return Author.objects.filter(umlaut_key=slug.replace("-", " ")).order_by("id").first()


def author_known_as(slug: str) -> Author | None:
    """The one author whose other spellings include the name this address writes, or None
    (none, or several): "/authors/christopher-manning/" was a 404 where Christopher D.
    Manning's page says "Also published as: Christopher Manning" (an outside tester). Read
    among the authors whose family name ends the address, only where no author holds it."""
    family = slug.rstrip("-0123456789").rsplit("-", 1)[-1]
    candidates = Author.objects.filter(family_name__iendswith=family).exclude(variants=[])
    known = [a for a in candidates if any(make_slug(name) == slug for name in a.variants)]
    return known[0] if len(known) == 1 else None
