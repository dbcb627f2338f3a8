"""Query logic for papers: search, facets and similarity live here, not in views."""

from django.db import models


class PaperQuerySet(models.QuerySet):
    def with_related(self):
        return self.select_related("venue").prefetch_related("topics")
