"""Keep the denormalised name columns and the word statistics in step with the links.

Each function is one SQL statement over the papers given (or all), never a loop over papers.
"""

from django.db import connection

from .tables import sql

_TOPIC_NAMES_SQL = """
UPDATE {paper} AS paper
SET topic_names = names.value
FROM (
    SELECT p.id, COALESCE(string_agg(t.name, ', ' ORDER BY t.name), '') AS value
    FROM {paper} p
    LEFT JOIN {paper_topic} pt ON pt.paper_id = p.id
    LEFT JOIN {topic} t ON t.id = pt.topic_id
    {{where}}
    GROUP BY p.id
) AS names
WHERE paper.id = names.id AND paper.topic_names IS DISTINCT FROM names.value
"""

_AUTHOR_NAMES_SQL = """
UPDATE {paper} AS paper
SET author_names = names.value
FROM (
    SELECT p.id, COALESCE(string_agg(a.name, ', ' ORDER BY s.position), '') AS value
    FROM {paper} p
    LEFT JOIN {authorship} s ON s.paper_id = p.id
    LEFT JOIN {author} a ON a.id = s.author_id
    {{where}}
    GROUP BY p.id
) AS names
WHERE paper.id = names.id AND paper.author_names IS DISTINCT FROM names.value
"""


def _run_for_papers(template: str, paper_ids) -> int:
    where, params = "", []
    if paper_ids is not None:
        where, params = "WHERE p.id = ANY(%s)", [list(paper_ids)]
    with connection.cursor() as cursor:
        cursor.execute(sql(template).format(where=where), params)
        return cursor.rowcount


def refresh_topic_names(paper_ids=None) -> int:
    """Rewrite Paper.topic_names from the topic links; returns the number of papers changed."""
    return _run_for_papers(_TOPIC_NAMES_SQL, paper_ids)


def refresh_author_names(paper_ids=None) -> int:
    """Rewrite Paper.author_names from the authorships; returns the number of papers changed."""
    return _run_for_papers(_AUTHOR_NAMES_SQL, paper_ids)


def refresh_lexemes() -> None:
    """Recount every word's document frequency from the search vectors (ts_stat)."""
    with connection.cursor() as cursor:
        cursor.execute(sql("DELETE FROM {lexeme}"))
        cursor.execute(
            sql(
                "INSERT INTO {lexeme} (word, documents, occurrences) "
                "SELECT word, ndoc, nentry FROM ts_stat('SELECT search_vector FROM {paper}')"
            )
        )
