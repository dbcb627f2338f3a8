"""The authors' queries: the people sharing an author's name, their co-authors, and where an
author stands in the author lists of some papers."""

from django.db import models
from django.db.models import Count

from .tables import reading_cursor, sql

# The authors sharing papers with author %s, by shared papers then name, the first %s: the
# authorships read from the indexes alone (authorship_author_paper, authorship_position_once)
# and counted per author, the names of those few hundred probed one by one for the order, and
# only the rows shown read whole (a join of the counts to every author scanned the 43,000).
COAUTHORS_SQL = """
WITH counted AS (
    SELECT s.author_id, count(*) AS shared
    FROM {authorship} mine JOIN {authorship} s ON s.paper_id = mine.paper_id
    WHERE mine.author_id = %s AND s.author_id <> %s
    GROUP BY s.author_id
), shown AS (
    SELECT c.author_id, c.shared, (SELECT a.name FROM {author} a WHERE a.id = c.author_id) AS name
    FROM counted c ORDER BY c.shared DESC, name, c.author_id LIMIT %s
)
SELECT a.*, shown.shared FROM shown JOIN {author} a ON a.id = shown.author_id
ORDER BY shown.shared DESC, shown.name, a.id
"""


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

    def coauthors_of(self, author, limit: int = 30) -> list:
        """The author's co-authors, each with ``shared`` papers, most shared first (one
        query). Their authorships are counted per author before any author row is read: a
        prolific author's papers have some 5,000 authorships and a few hundred co-authors."""
        return list(self.raw(sql(COAUTHORS_SQL), [author.pk, author.pk, limit]))


# The place of the first of the authors %s in each of the papers %s that one of them wrote:
# the author, their position and the number of authors.
PLACES_SQL = """
SELECT DISTINCT ON (a.paper_id) a.paper_id, a.author_id, a.position,
       (SELECT count(*) FROM {authorship} b WHERE b.paper_id = a.paper_id)
FROM {authorship} a WHERE a.author_id = ANY(%s) AND a.paper_id = ANY(%s)
ORDER BY a.paper_id, a.position
"""


def places_of(author_ids: list[int], paper_ids: list[int]) -> dict[int, tuple[int, int, int]]:
    """{paper id: (the author's id, their position in its author list, from 1, its number of
    authors)} for the papers ``paper_ids`` one of the authors wrote, the first of them where
    several did (one statement)."""
    with reading_cursor() as cursor:
        cursor.execute(sql(PLACES_SQL), [author_ids, paper_ids])
        return {paper: (author, position, total) for paper, author, position, total in cursor}
