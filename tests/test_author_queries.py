"""papers/author_queries.py: an author's co-authors, counted on real PostgreSQL."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from papers.models import Author
from tests.factories import finish, make_paper, make_venue


def test_coauthors_most_shared_first_then_by_name_in_one_query(db):
    venue = make_venue()
    make_paper("One.", venue=venue, authors=["Ada Lovelace", "Grace Hopper", "Alan Turing"])
    make_paper("Two.", venue=venue, authors=["Grace Hopper", "Ada Lovelace"])
    make_paper("Three.", venue=venue, authors=["Ada Lovelace", "Barbara Liskov"])
    make_paper("Not hers.", venue=venue, authors=["Edsger Dijkstra", "Alan Turing"])
    finish()
    ada = Author.objects.get(slug="ada-lovelace")
    with CaptureQueriesContext(connection) as queries:
        coauthors = Author.objects.coauthors_of(ada)
    assert len(queries) == 1
    assert [(a.name, a.shared) for a in coauthors] == [
        ("Grace Hopper", 2),
        ("Alan Turing", 1),  # the ties by name
        ("Barbara Liskov", 1),
    ]
    assert [a.get_absolute_url() for a in Author.objects.coauthors_of(ada, limit=2)] == [
        "/authors/grace-hopper/",
        "/authors/alan-turing/",
    ]
