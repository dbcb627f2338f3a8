"""A web address pasted into the search box that papers give in their abstracts, a code
repository's most often ("https://github.com/thunlp/TR-BERT"): the papers giving it. Going from
a repository to its paper is a common task; the address searched as words found nothing, then
was told to be another site's (an outside tester). 2,563 of the Anthology folder's abstracts
give a GitHub address.

The index holds an address as the parser reads it (papers_compounds first, as for any text):
its host ('github.com') and its path ('/thunlp/trbert', or '/thunlp/trbert.' with the
sentence's full stop). A paper gives the address when its vector has the host and a path
beginning with the address's; a repository's address is cut to its owner and name, so that
one pasted from a file's page (".../tree/main/src") finds the paper naming the repository.
"""

import re

from .anthology_pages import ANTHOLOGY_HOSTS
from .expressions import SEARCH_CONFIG
from .results import PAGE_SIZE
from .tables import reading_cursor, sql

# The papers listed at most: one page of the list.
LINKING_LIMIT = PAGE_SIZE
# Hosts whose addresses name a repository by their first two path segments.
REPOSITORY_HOSTS = {"github.com", "gitlab.com", "bitbucket.org"}
# An address: with its scheme or "www.", or a repository host's without ("github.com/a/b", as
# people paste it); "GPT-3.5/GPT-4" or "0.5/1.0" is text, and costs no statement.
_ADDRESS = re.compile(
    r"(?:(?:https?://)(?:www\.)?|www\.|(?=(?:github\.com|gitlab\.com|bitbucket\.org)/))"
    r"(?P<host>[\w-]+(?:\.[\w-]+)+)(?P<path>/[^\s?#]{1,300})(?:[?#]\S*)?",
    re.IGNORECASE,
)

# The tsquery of the address's host, with or without "www." (an abstract may write either),
# and the start of its path, as the index parses them; NULL when the parser reads no address.
_QUERY_SQL = f"""SELECT CASE WHEN d.host IS NOT NULL AND d.path IS NOT NULL THEN format(
    '(%%s | %%s) & %%s:*', quote_literal(d.host), quote_literal('www.' || d.host),
    quote_literal(d.path)
)::tsquery END
FROM (
    SELECT max(t.lexemes[1]) FILTER (WHERE t.alias = 'host') AS host,
           max(t.lexemes[1]) FILTER (WHERE t.alias = 'url_path') AS path
    FROM ts_debug('{SEARCH_CONFIG}', papers_compounds(%s)) AS t
) AS d"""
# The index finds the papers whose addresses begin so ("/pytorch/fairseq" also finds
# "/pytorch/fairseq-extra"); the abstract, read for those few only, tells the address whole.
_LINKING_SQL = f"""SELECT p.id FROM {{paper}} AS p
WHERE p.search_vector @@ ({_QUERY_SQL}) AND p.abstract ~* %s
ORDER BY p.id DESC LIMIT {LINKING_LIMIT + 1}"""
_SPECIAL = re.compile(r"([.^$*+?()\[\]{}|\\-])")


def searched_address(text: str) -> str | None:
    """The address as the papers would give it ("github.com/thunlp/TR-BERT"), without scheme,
    query or trailing slash, a repository's cut to its owner and name; None when the whole
    text is not an address with a path, or is the Anthology's (an identifier or a page of it,
    papers/understanding.py and papers/anthology_pages.py)."""
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        return None
    host = match["host"].lower()
    if host in ANTHOLOGY_HOSTS or host.removeprefix("www.") in ANTHOLOGY_HOSTS:
        return None
    segments = [segment for segment in match["path"].split("/") if segment]
    if host in REPOSITORY_HOSTS:
        if len(segments) < 2:
            return None
        segments = segments[:2]
        segments[1] = segments[1].removesuffix(".git")
    return f"{host}/{'/'.join(segments)}" if segments else None


def linking_papers(text: str) -> list[int]:
    """The ids of the papers whose abstracts give the address the whole text is, the last
    loaded first, at most LINKING_LIMIT and one more, which tells that more give it ([] for any
    other text; one indexed query)."""
    address = searched_address(text)
    if address is None:
        return []
    with reading_cursor() as cursor:
        whole = _SPECIAL.sub(r"\\\1", address) + r"(?![\w-])"
        cursor.execute(sql(_LINKING_SQL), [address, whole])
        return [row[0] for row in cursor.fetchall()]
