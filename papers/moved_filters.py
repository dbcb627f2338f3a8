"""A list asked for by a filter value that moved: an author joined to another (papers/merging.py,
papers/author_redirects.py), a topic renamed or merged (TopicRedirect). The lists, their
exports, the search feed and the API answer the same request with the values that hold now,
permanently, so that the page names and selects them (a topic's old slug filtered right but
was shown as "llm-safety", its facet not selected)."""

from django.db.models import Exists, OuterRef
from django.http import HttpResponsePermanentRedirect

from .models import Author, AuthorRedirect, Topic, TopicRedirect


def filter_redirect(
    request, filterset, author_held: bool = False
) -> HttpResponsePermanentRedirect | None:
    """The same request with each moved value of ``author=`` and ``topic=`` replaced (a query
    for each of those filters given, the author's only when ``author_held`` is false: the
    caller found no author holding its address); else None. ``filterset``: the request's valid
    PaperFilterSet."""
    moved = {}
    slug = filterset.value("author")
    if slug and not author_held and (joined := _joined_author(slug)) is not None:
        moved["author"] = [joined]
    topics = filterset.value("topic") or []
    if topics and (renamed := _renamed_topics(topics)):
        moved["topic"] = list(dict.fromkeys(renamed.get(slug, slug) for slug in topics))
    if not moved:
        return None
    query = request.GET.copy()
    for name, values in moved.items():
        query.setlist(name, values)
    return HttpResponsePermanentRedirect(f"{request.path}?{query.urlencode()}")


def _joined_author(slug: str) -> str | None:
    """The slug of the author an address no author holds was joined to, or None."""
    held = Author.objects.filter(slug=OuterRef("old_slug"))
    moved = AuthorRedirect.objects.filter(old_slug=slug).exclude(Exists(held))
    return moved.values_list("author__slug", flat=True).first()


def _renamed_topics(slugs: list[str]) -> dict[str, str]:
    """{old slug: the topic's slug now} of the slugs no topic holds that a topic left."""
    held = Topic.objects.filter(slug=OuterRef("old_slug"))
    moved = TopicRedirect.objects.filter(old_slug__in=slugs).exclude(Exists(held))
    return dict(moved.values_list("old_slug", "topic__slug"))
