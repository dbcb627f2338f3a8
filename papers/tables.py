"""Table names for the raw SQL, read from the models (their one definition)."""

from functools import cache

from django.apps import apps

_MODELS = {
    "paper": "Paper",
    "venue": "Venue",
    "topic": "Topic",
    "paper_topic": "PaperTopic",
    "removed_topic": "RemovedTopic",
    "author": "Author",
    "authorship": "Authorship",
    "lexeme": "Lexeme",
    "similarity": "Similarity",
    "similarity_state": "SimilarityState",
    "paper_facets": "PaperFacets",
    "facet_count": "FacetCount",
    "data_version": "DataVersion",
    "topic_redirect": "TopicRedirect",
    "author_redirect": "AuthorRedirect",
}


@cache
def table_names() -> dict[str, str]:
    return {key: apps.get_model("papers", model)._meta.db_table for key, model in _MODELS.items()}


def sql(template: str, **values) -> str:
    """The template with {paper}, {venue} … as table names and any other {name} from values."""
    return template.format(**table_names(), **values)


def reading_cursor():
    """A cursor for the raw SQL of the pages' reads, on the database the ORM reads the papers
    from: a replica during a public page's request when one is configured (site/replica.py),
    else the primary."""
    from django.db import connections, router

    return connections[router.db_for_read(apps.get_model("papers", "Paper"))].cursor()
