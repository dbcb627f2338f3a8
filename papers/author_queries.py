"""The authors' queries: the people sharing an author's name, and their co-authors."""

from django.db import models
from django.db.models import Count


class AuthorQuerySet(models.QuerySet):
    def namesakes_of(self, author):
        """The other authors of the same name (people the Anthology tells apart, and the name's
        own page), each with ``paper_count``, most papers first."""
        return (
            self.filter(key=author.key)
            .exclude(pk=author.pk)
            .annotate(paper_count=Count("authorships"))
            .order_by("-paper_count", "slug")
        )

    def coauthors_of(self, author, limit: int = 30):
        """The author's co-authors, each with ``shared`` papers, most shared first."""
        papers = author.authorships.values("paper_id")
        return (
            self.filter(authorships__paper__in=papers)
            .exclude(pk=author.pk)
            .annotate(shared=Count("authorships"))
            .order_by("-shared", "name")[:limit]
        )
