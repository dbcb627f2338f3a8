"""The requests a benchmark times: every kind a reader makes (rare and common words, a phrase,
an exclusion, each filter and the combinations people use, with and without q, facets, deep
pages, paper, similar and author pages), each as URLs never asked before where the collection
has enough of them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from urllib.parse import urlencode

# Targets (ms, one client, p95) by kind of request (issue 14).
TARGETS_MS = {"search": 100.0, "list": 75.0, "page": 40.0}


@dataclass
class RequestSpec:
    name: str
    kind: str  # search, list, page: which target applies
    urls: list[str]  # distinct where the collection allows; the runs take them in turn

    @property
    def target_ms(self) -> float:
        return TARGETS_MS[self.kind]


def _query(params: dict, path: str = "/") -> str:
    return path + "?" + urlencode(params) if params else path


def distinct_urls(variants: list[dict], needed: int, path: str = "/") -> list[str]:
    """`needed` URLs, each a variant's query or, once the variants run out, a later page of
    one (page 2, 3 …): a request that repeats no URL cannot be answered by a cache of pages."""
    if not variants:
        return []
    urls = []
    page = 1
    while len(urls) < needed and page <= needed:
        for params in variants:
            urls.append(_query(params if page == 1 else {**params, "page": page}, path))
            if len(urls) == needed:
                break
        page += 1
    return urls


def _rows(statement: str, params: list | None = None) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(statement, params or [])
        return cursor.fetchall()


def word_pools(count: int) -> tuple[list[str], list[str]]:
    """(rare words: lexemes in 3 to 8 papers that stem to themselves, so that the query means
    the lexeme; common words: the commonest words of titles, as written), deterministic."""
    rare = _rows(
        "SELECT word FROM papers_lexeme WHERE documents BETWEEN 3 AND 8 AND length(word) >= 7 "
        "AND word ~ '^[a-z]+$' AND ts_lexize('english_stem', word) = ARRAY[word] "
        "ORDER BY md5(word) LIMIT %s",
        [count],
    )
    common = _rows(
        "SELECT word FROM (SELECT lower(w) AS word FROM papers_paper p, "
        "regexp_split_to_table(p.title, '[^A-Za-z]+') AS w WHERE mod(p.id, 7) = 0) AS words "
        "WHERE length(word) >= 4 AND numnode(plainto_tsquery('english', word)) > 0 "
        "GROUP BY word ORDER BY count(*) DESC, word LIMIT %s",
        [count],
    )
    return [row[0] for row in rare] or ["transliteration"], [row[0] for row in common] or ["model"]


def filter_pools(count: int) -> dict[str, list]:
    """The values the filter rows combine, the most used first."""
    pools = {
        "venue": "SELECT v.slug FROM papers_venue v JOIN papers_paper p ON p.venue_id = v.id "
        "GROUP BY v.slug ORDER BY count(*) DESC, v.slug LIMIT %s",
        "topic": "SELECT t.slug FROM papers_topic t JOIN papers_papertopic l ON l.topic_id = t.id "
        "GROUP BY t.slug ORDER BY count(*) DESC, t.slug LIMIT %s",
        "year": "SELECT v.year FROM papers_venue v JOIN papers_paper p ON p.venue_id = v.id "
        "WHERE v.year IS NOT NULL GROUP BY v.year ORDER BY count(*) DESC, v.year LIMIT %s",
        "country": "SELECT country FROM papers_paper WHERE country <> '' "
        "GROUP BY country ORDER BY count(*) DESC, country LIMIT %s",
        "author": "SELECT a.slug FROM papers_author a JOIN papers_authorship s "
        "ON s.author_id = a.id GROUP BY a.slug ORDER BY count(*) DESC, a.slug LIMIT %s",
        "venue_topic": "SELECT v.slug, t.slug FROM papers_papertopic l "
        "JOIN papers_paper p ON p.id = l.paper_id JOIN papers_venue v ON v.id = p.venue_id "
        "JOIN papers_topic t ON t.id = l.topic_id "
        "GROUP BY v.slug, t.slug ORDER BY count(*) DESC, v.slug, t.slug LIMIT %s",
        "author_year": "SELECT a.slug, v.year FROM papers_authorship s "
        "JOIN papers_author a ON a.id = s.author_id JOIN papers_paper p ON p.id = s.paper_id "
        "JOIN papers_venue v ON v.id = p.venue_id WHERE v.year IS NOT NULL "
        "GROUP BY a.slug, v.year ORDER BY count(*) DESC, a.slug, v.year LIMIT %s",
        "topic_year": "SELECT t.slug, v.year FROM papers_papertopic l "
        "JOIN papers_topic t ON t.id = l.topic_id JOIN papers_paper p ON p.id = l.paper_id "
        "JOIN papers_venue v ON v.id = p.venue_id WHERE v.year IS NOT NULL "
        "GROUP BY t.slug, v.year ORDER BY count(*) DESC, t.slug, v.year LIMIT %s",
    }
    return {
        name: [row[0] if len(row) == 1 else row for row in _rows(statement, [count])]
        for name, statement in pools.items()
    }


def _combined(first: list, second: list) -> list[tuple]:
    """Every pair of the two lists, the pairs of their first items before later ones."""
    pairs = []
    for total in range(len(first) + len(second) - 1):
        for index in range(max(0, total - len(second) + 1), min(total, len(first) - 1) + 1):
            pairs.append((first[index], second[total - index]))
    return pairs


def _deep_page(index: int) -> int:
    """A page from 40 to 399 for the index-th URL of a row, spread over that range (a page past
    a list's last shows its last)."""
    return 40 + 37 * index % 360


def request_variants(pools: dict[str, list], rare: list, common: list) -> list[tuple]:
    """(name, kind, path, query variants) of every request row."""
    pairs = [f"{a} {b}" for a, b in _combined(common[:20], common[:20]) if a < b]
    rows = [
        ("search: rare term", "search", "/", [{"q": w} for w in rare]),
        ("search: common word", "search", "/", [{"q": w} for w in common]),
        ("search: two common words", "search", "/", [{"q": p} for p in pairs]),
        ("search: phrase", "search", "/", [{"q": f'"{p}"'} for p in pairs]),
        ("search: exclusion", "search", "/", [{"q": p.replace(" ", " -")} for p in pairs]),
        ("api: search", "search", "/api/papers/", [{"q": w} for w in common]),
        ("list + facets (home)", "list", "/", [{}]),
    ]
    # The other orders at depth, where a page of many matches or papers is placed in memory
    # rather than found by walking an index: each word at a page of its own, 40 to 399.
    for order, label in (("title", "A–Z"), ("newest", "newest first")):
        deep = [{"q": w, "sort": order, "page": _deep_page(i)} for i, w in enumerate(common)]
        rows.append((f"search: {label}, deep page", "search", "/", deep))
    single = {"venue": "filter: venue", "topic": "filter: topic", "year": "filter: year"}
    single["country"], single["author"] = "filter: country", "filter: author"
    for name, label in single.items():
        rows.append((label, "list", "/", [{name: value} for value in pools[name]]))
    for name, key, first, second in (
        ("filter: venue + topic", "venue_topic", "venue", "topic"),
        ("filter: author + year", "author_year", "author", "year"),
        ("filter: topic + year", "topic_year", "topic", "year"),
    ):
        rows.append((name, "list", "/", [{first: a, second: b} for a, b in pools[key]]))
    topics = [
        {"topic": topic, "sort": "title", "page": _deep_page(i)}
        for i, topic in enumerate(pools["topic"] * 10)
    ]
    rows.append(("filter: topic A–Z, deep page", "list", "/", topics))
    for name in ("venue", "topic", "year", "country"):
        variants = [{name: v, "q": w} for v, w in _combined(pools[name], common[:10])]
        rows.append((f"filter: {name} + q", "search", "/", variants))
    rows.append(
        (
            "filter: venue + topic + q=models",
            "search",
            "/",
            [{"venue": v, "topic": t, "q": "models"} for v, t in pools["venue_topic"]],
        )
    )
    return [row for row in rows if row[3]]


def choose_requests(seed: int, needed: int = 200) -> list[RequestSpec]:
    """Every request row, each with up to `needed` distinct URLs."""
    from papers.models import Paper

    pools = filter_pools(needed)
    rare, common = word_pools(needed)
    specs = [
        RequestSpec(name, kind, distinct_urls(variants, needed, path))
        for name, kind, path, variants in request_variants(pools, rare, common)
    ]
    total = Paper.objects.count()
    deep = max(2, total // 50)
    pages = range(max(2, deep - needed // 2), max(2, deep - needed // 2) + needed)
    specs.append(RequestSpec(f"deep page (~{deep})", "list", [_query({"page": p}) for p in pages]))
    rng = random.Random(seed)
    ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    sample = rng.sample(ids, min(needed, len(ids)))
    if sample:
        specs.append(RequestSpec("paper page", "page", [f"/papers/{pk}/" for pk in sample]))
        specs.append(
            RequestSpec("similar page", "page", [f"/papers/{pk}/similar/" for pk in sample])
        )
    if pools["author"]:
        authors = [f"/authors/{slug}/" for slug in pools["author"]]
        specs.append(RequestSpec("author page", "list", authors))
    return specs
