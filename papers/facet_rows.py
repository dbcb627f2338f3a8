"""Which of the papers' narrow rows (``PaperFacets``) a facet count reads, as named parts of
one statement: the rows under the page's fixed conditions that pass all the filters but at
most one (each with a flag per filter), among a query's matches when there is one and the
filters narrow the rows, each side read through its own index so that the smaller one drives
(papers/matching.py). The counts themselves are papers/facets.py's (grouped in SQL) or
papers/facet_memory.py's (a query's).
"""

from .matching import in_lexemes, is_phrase, matching_within

# A filter's values (slugs, a year, a country) as the keys a PaperFacets row holds, one a row:
# the ids of venues (a year's venues), topics (an old slug's too) or authors; a country's name.
# The one home of that mapping: the rows' conditions, the keys a query's counts work the flags
# out from (KEYS) and the keys counts are kept under (papers/facets.py) are written from it.
VALUE_KEYS = {
    "venue": "SELECT id FROM {venue} WHERE slug = ANY(%s)",
    "year": "SELECT id FROM {venue} WHERE year = %s",
    "topic": (
        "SELECT id FROM {topic} WHERE slug = ANY(%s) "
        "UNION SELECT topic_id FROM {topic_redirect} WHERE old_slug = ANY(%s)"
    ),
    "author": "SELECT id FROM {author} WHERE slug = %s",
    "country": "SELECT %s::text",
}
KEYS = {name: f"ARRAY({keys})" for name, keys in VALUE_KEYS.items()}
# A filter as a condition on a PaperFacets row ``f``.
CONDITIONS = {
    "venue": f"f.venue_id = ANY({KEYS['venue']})",
    "year": f"f.venue_id = ANY({KEYS['year']})",
    "topic": f"f.topic_ids && {KEYS['topic']}",
    "author": f"f.author_ids && {KEYS['author']}",
    "country": "f.country = %s",
}


def filter_params(name: str, values: list[str]) -> list:
    """The parameters of a filter's condition (or kept keys) for its values."""
    if name == "venue":
        return [values]
    if name == "topic":
        return [values, values]
    if name == "year":
        return [int(values[0])]
    return [values[0]]


class Statement:
    """The facet statement's named parts and their parameters, in order."""

    def __init__(self):
        self.parts: list[str] = []
        self.params: list = []

    def add(self, name: str, body: str, params=()):
        self.parts.append(f"{name} AS MATERIALIZED ({body})")
        self.params += list(params)


# The columns of a narrow row the counts read (not its lexemes: only tested, never counted).
COLUMNS = "f.paper_id, f.venue_id, f.country, f.topic_ids, f.author_ids"


def row_conditions(*filter_sets: dict[str, list[str]]) -> tuple[list[str], list]:
    """The conditions on a row ``f`` that it passes every filter of these sets ({facet:
    values}), and their params."""
    where, params = [], []
    for filters in filter_sets:
        for name, values in filters.items():
            where.append(CONDITIONS[name])
            params += filter_params(name, values)
    return where, params


def _narrowing(selected, fixed, counted_from_rows) -> tuple[list[str], list]:
    """Conditions on the rows that every facet counted from rows needs: the fixed ones, and
    the papers that pass all filters but that facet's own (for one facet or another)."""
    where, params = row_conditions(fixed)
    alternatives, alternative_params = [], []
    for name in counted_from_rows:
        others = [other for other in selected if other != name]
        if not others:
            return where, params
        alternative = "(" + " AND ".join(CONDITIONS[other] for other in others) + ")"
        if alternative not in alternatives:
            alternatives.append(alternative)
            for other in others:
                alternative_params += filter_params(other, selected[other])
    if alternatives:
        where.append("(" + " OR ".join(alternatives) + ")")
    return where, params + alternative_params


def narrows(selected, fixed, counted_from_rows) -> bool:
    """Whether the facets counted from rows need only some of the rows (else every row, or,
    with a query, every match: papers/matching.py every_match)."""
    return bool(_narrowing(selected, fixed, counted_from_rows)[0])


def rows_parts(selected, fixed, text, counted_from_rows, columns=COLUMNS):
    """The PaperFacets rows the facets counted from rows need (``u``), with a flag per filter.

    With a query, only where the rows are narrowed (``narrows``). A query without a phrase is
    matched on the rows' own stripped vectors (the planner may combine the filters' indexes
    with the lexemes' own). A phrase needs positions: the smaller side of the filters' papers
    and the query's matches drives (papers/matching.py), so a common word costs no more than
    the filters. ``columns``: those of a row read.
    """
    where, params = _narrowing(selected, fixed, counted_from_rows)
    flags, flag_params = [], []
    for name, values in selected.items():
        flags.append(f"{CONDITIONS[name]} AS c_{name}")
        flag_params += filter_params(name, values)
    select = f"SELECT {', '.join([columns, *flags])} FROM {{paper_facets}} f"
    if not text:
        return [("u", f"{select} WHERE {' AND '.join(where) or 'TRUE'}", flag_params + params)]
    if not where:
        raise ValueError("a query's rows are read here only where the filters narrow them")
    (phrase, phrase_params), (lexemes, lexemes_params) = is_phrase(text), in_lexemes(text)
    matching, matching_params = matching_within("candidate_ids", text)
    narrowed = " AND ".join(where)
    # Without a phrase, the candidates are the matches; with one, the filters' papers, tested
    # below.
    candidates = (
        f"{select} WHERE {narrowed} AND NOT {phrase} AND {lexemes} UNION ALL "
        f"{select} WHERE {narrowed} AND {phrase}"
    )
    candidates_params = [*flag_params, *params, *phrase_params, *lexemes_params]
    phrased = f"SELECT * FROM candidates WHERE {phrase} AND paper_id IN ({matching})"
    return [
        ("candidates", candidates, [*candidates_params, *flag_params, *params, *phrase_params]),
        ("candidate_ids", "SELECT paper_id AS id FROM candidates", []),
        (
            "u",
            f"SELECT * FROM candidates WHERE NOT {phrase} UNION ALL {phrased}",
            [*phrase_params, *phrase_params, *matching_params],
        ),
    ]
