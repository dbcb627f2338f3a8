"""Where an author's old address leads: to the author it was joined to, by a curator's merge
(papers/merging.py merge_authors) or as a name written without its umlauts
(papers/name_forms.py fold_umlauts). The author page and its feed follow it (papers/views.py,
papers/feeds.py), and the author filter of the lists (papers/moved_filters.py)."""

from .models import Author, AuthorRedirect


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
