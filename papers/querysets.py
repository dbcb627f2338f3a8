"""Query logic for papers: search, facets and similarity live here, not in views.

Design for 100,000 papers
-------------------------
Ranked search (``ranked_ids``) never ranks every match. A common query such as
"language models" matches most of a large NLP collection, and ranking tens of thousands of
rows with ts_rank_cd (detoasting each stored vector, then sorting) costs far more than the
150 ms budget. Instead the ranking runs over a bounded candidate set built by two LIMITed
index scans, both under the page's filters:

1. papers whose *title* matches the query, found through the expression index
   ``paper_title_tsv`` (migration 0002) on the title's own tsvector, at most
   ``CANDIDATE_CAP`` of them;
2. papers whose weighted search vector matches, found through the GIN index
   ``paper_search_vector``, at most ``CANDIDATE_CAP`` of them.

Neither scan sorts: PostgreSQL stops the bitmap heap scan after the LIMIT. The union (at most
twice the cap) is then ranked with ts_rank_cd over the weighted vector (title A counts most),
normalised to [0, 1), plus 1 for a title match, so a paper whose title matches the query always
ranks above one that only mentions it in its abstract. When a query matches no more than the
cap, which is every specific query, the ranking is exact; beyond it, relevance pages stop at
the cap and the page says so (the total count and the facets still count every match).

Facets are SQL aggregates: one GROUP BY over (venue, country) whose conditional counts
(COUNT ... FILTER) give the venue, year and country facets each under the *other* filters,
and the total; one for topics; one for authors. Python only folds the few grouped rows.

Similar papers use a "more like this" query built in SQL from the paper's most distinctive
lexemes (tf in the paper × idf from the Lexeme table); see ``similar_to``.
"""

from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db import connection, models
from django.db.models import Count, F, Func, Q, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, Lower, NullIf

SEARCH_CONFIG = "english"
CANDIDATE_CAP = 2000
# ts_rank_cd weights for D, C, B, A: abstract (C) a fifth of the title (A), names (B) 0.4.
RANK_WEIGHTS = "{0.05, 0.2, 0.4, 1.0}"
TITLE_BOOST = 1.0
# Private-use characters that never occur in the data (they are stripped from it before
# ts_headline runs), so only ts_headline's own marks can become <mark> after escaping.
MARK_START = "\ue000"
MARK_STOP = "\ue001"
HEADLINE_OPTIONS = (
    f"StartSel={MARK_START}, StopSel={MARK_STOP}, MaxWords=40, MinWords=18, ShortWord=2, "
    'MaxFragments=2, FragmentDelimiter=" … "'
)
TITLE_HEADLINE_OPTIONS = f"StartSel={MARK_START}, StopSel={MARK_STOP}, HighlightAll=true"
FACET_AUTHOR_LIMIT = 15
FACET_COUNTRY_LIMIT = 25
FACET_TOPIC_LIMIT = 40
SIMILAR_TERMS = 15
SIMILAR_CAP = 1500


def web_query(text: str) -> SearchQuery:
    return SearchQuery(text, search_type="websearch", config=SEARCH_CONFIG)


def title_vector() -> SearchVector:
    """The title's own tsvector, exactly as the expression index paper_title_tsv spells it."""
    return SearchVector("title", config=SEARCH_CONFIG)


class Headline(Func):
    """ts_headline over a column whose mark sentinels were removed first."""

    output_field = models.TextField()

    def __init__(self, column: str, text: str, options: str):
        super().__init__(F(column))
        self.text = text
        self.options = options

    def as_sql(self, compiler, connection, **extra):
        column_sql, column_params = compiler.compile(self.source_expressions[0])
        sql = (
            f"ts_headline(%s::regconfig, translate({column_sql}, %s, ''), "
            "websearch_to_tsquery(%s::regconfig, %s), %s)"
        )
        params = [SEARCH_CONFIG, *column_params, MARK_START + MARK_STOP, SEARCH_CONFIG]
        return sql, [*params, self.text, self.options]


def display_order():
    """Title A–Z with untitled papers ordered by their abstract (which their derived title starts)."""
    return Lower(Coalesce(NullIf("title", Value("")), "abstract"))


def _and(conditions) -> Q:
    combined = Q()
    for condition in conditions:
        combined &= condition
    return combined


def _count(condition: Q):
    return Count("pk", filter=condition) if condition else Count("pk")


@dataclass
class FacetOption:
    value: str
    label: str
    count: int
    active: bool = False


@dataclass
class Facets:
    total: int = 0
    venue: list[FacetOption] = field(default_factory=list)
    year: list[FacetOption] = field(default_factory=list)
    country: list[FacetOption] = field(default_factory=list)
    topic: list[FacetOption] = field(default_factory=list)
    author: list[FacetOption] = field(default_factory=list)


class PaperQuerySet(models.QuerySet):
    def with_related(self):
        return self.select_related("venue").prefetch_related("topics")

    # --- full text -------------------------------------------------------------------------

    def matching(self, text: str):
        """Papers whose weighted vector matches the websearch query (no ranking)."""
        return self.filter(search_vector=web_query(text))

    def search(self, text: str):
        """Every match, annotated with ``score`` and best first (uncapped: for small sets and
        scripts; the pages use ``ranked_ids``, which bounds the work)."""
        rank = RawSQL(
            "ts_rank_cd(%s::float4[], papers_paper.search_vector, "
            "websearch_to_tsquery(%s::regconfig, %s), 33) + CASE WHEN "
            "to_tsvector(%s::regconfig, COALESCE(papers_paper.title, '')) "
            "@@ websearch_to_tsquery(%s::regconfig, %s) THEN %s ELSE 0 END",
            [RANK_WEIGHTS, SEARCH_CONFIG, text, SEARCH_CONFIG, SEARCH_CONFIG, text, TITLE_BOOST],
            output_field=models.FloatField(),
        )
        return self.matching(text).annotate(score=rank).order_by("-score", "pk")

    def ranked_ids(self, text: str, limit: int, offset: int = 0, cap: int = CANDIDATE_CAP):
        """[(id, score)] of one page of the best matches, ranked within a capped candidate set.

        ``self`` carries the non-text filters; see the module docstring for the design.
        """
        query = web_query(text)
        base = self.order_by()
        by_title = (
            base.annotate(title_vector=title_vector()).filter(title_vector=query).values("id")[:cap]
        )
        by_vector = base.filter(search_vector=query).values("id")[:cap]
        title_sql, title_params = by_title.query.sql_with_params()
        vector_sql, vector_params = by_vector.query.sql_with_params()
        sql = f"""
            SELECT p.id,
                   ts_rank_cd(%s::float4[], p.search_vector, websearch_to_tsquery(%s::regconfig, %s), 33)
                   + c.in_title * %s AS score
            FROM (
                SELECT id, max(in_title) AS in_title FROM (
                    SELECT t.id, 1 AS in_title FROM ({title_sql}) AS t(id)
                    UNION ALL
                    SELECT v.id, 0 AS in_title FROM ({vector_sql}) AS v(id)
                ) AS both_sets GROUP BY id
            ) AS c
            JOIN papers_paper p ON p.id = c.id
            ORDER BY score DESC, p.id
            LIMIT %s OFFSET %s
        """
        params = [
            RANK_WEIGHTS,
            SEARCH_CONFIG,
            text,
            TITLE_BOOST,
            *title_params,
            *vector_params,
            limit,
            offset,
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [(row[0], float(row[1])) for row in cursor.fetchall()]

    def cards(self, ids, text: str = ""):
        """The papers with these ids, in this order, ready for result cards (2 queries).

        With a query, ``title_html`` and ``snippet`` come from ts_headline, computed only here,
        i.e. only for the papers of the page shown.
        """
        qs = self.filter(pk__in=list(ids)).select_related("venue").prefetch_related("topics")
        if text:
            qs = qs.annotate(
                headline=Headline("abstract", text, HEADLINE_OPTIONS),
                title_headline=Headline("title", text, TITLE_HEADLINE_OPTIONS),
            )
        found = {paper.pk: paper for paper in qs.order_by()}
        return [found[pk] for pk in ids if pk in found]

    # --- facets ---------------------------------------------------------------------------

    def facets(self, conditions: dict[str, Q], active: dict[str, list[str]]) -> Facets:
        """Counts per venue, year, country, topic and author, each under the other conditions.

        ``self`` is the text-matched (or whole) collection plus any fixed conditions;
        ``conditions`` the user's filters by facet name; ``active`` the selected values.
        Three queries, whatever the size of the collection.
        """
        from .models import Authorship, PaperTopic

        def others(name):
            return _and(q for key, q in conditions.items() if key != name)

        base = self.order_by()
        rows = base.values(
            "venue_id", "venue__slug", "venue__name", "venue__year", "country"
        ).annotate(
            n_all=_count(others(None)),
            n_venue=_count(others("venue")),
            n_year=_count(others("year")),
            n_country=_count(others("country")),
        )
        facets = Facets()
        venues, years, countries = {}, {}, {}
        for row in rows:
            facets.total += row["n_all"]
            key = row["venue__slug"]
            if row["n_venue"]:
                label = row["venue__name"]
                venues.setdefault(key, [label, row["venue__year"] or 0, 0])[2] += row["n_venue"]
            if row["n_year"] and row["venue__year"]:
                years[row["venue__year"]] = years.get(row["venue__year"], 0) + row["n_year"]
            if row["n_country"] and row["country"]:
                countries[row["country"]] = countries.get(row["country"], 0) + row["n_country"]

        def chosen(name, value):
            return str(value) in active.get(name, [])

        facets.venue = [
            FacetOption(slug, label, count, chosen("venue", slug))
            for slug, (label, _year, count) in sorted(
                venues.items(), key=lambda item: (-item[1][1], item[1][0])
            )
        ]
        facets.year = [
            FacetOption(str(year), str(year), count, chosen("year", year))
            for year, count in sorted(years.items(), reverse=True)
        ]
        facets.country = [
            FacetOption(name, name, count, chosen("country", name))
            for name, count in sorted(countries.items(), key=lambda item: (-item[1], item[0]))
        ][:FACET_COUNTRY_LIMIT]

        topic_rows = (
            PaperTopic.objects.filter(paper__in=base.filter(others("topic")).values("pk"))
            .values("topic__slug", "topic__name")
            .annotate(n=Count("pk"))
            .order_by("-n", "topic__name")[:FACET_TOPIC_LIMIT]
        )
        facets.topic = [
            FacetOption(
                row["topic__slug"],
                row["topic__name"],
                row["n"],
                chosen("topic", row["topic__slug"]),
            )
            for row in topic_rows
        ]
        author_rows = (
            Authorship.objects.filter(paper__in=base.filter(others("author")).values("pk"))
            .values("author__slug", "author__name")
            .annotate(n=Count("pk"))
            .order_by("-n", "author__name")[:FACET_AUTHOR_LIMIT]
        )
        facets.author = [
            FacetOption(
                row["author__slug"],
                row["author__name"],
                row["n"],
                chosen("author", row["author__slug"]),
            )
            for row in author_rows
        ]
        return facets

    # --- no results -------------------------------------------------------------------------

    def closest_titles(self, text: str, limit: int = 5):
        """Titles nearest the words typed, by trigram word similarity (pg_trgm GIN index)."""
        from django.contrib.postgres.search import TrigramWordSimilarity

        return list(
            self.filter(title__trigram_word_similar=text)
            .annotate(similarity=TrigramWordSimilarity(text, "title"))
            .select_related("venue")
            .order_by("-similarity", "pk")[:limit]
        )

    # --- similar papers ---------------------------------------------------------------------

    def similar_to(self, paper, limit: int = 20):
        """The papers most like ``paper``: a list of Paper with ``score`` and ``shared_terms``.

        One SQL statement picks the paper's SIMILAR_TERMS most distinctive lexemes
        (1 + ln of their weighted frequency in the paper, title ×3 and names ×2, times
        ln(N / document frequency) from the Lexeme table; lexemes in over a fifth of the
        collection are not distinctive and are skipped). Candidates come from two LIMITed GIN
        scans: papers sharing at least two of those lexemes (an OR of AND-ed pairs) up to
        SIMILAR_CAP, and papers sharing any one, up to a tenth of that, so the cost is bounded
        at any collection size. Each candidate is scored by the share of the paper's term
        weight it contains (an idf-weighted overlap in [0, 1], each term tested by a binary
        search of the candidate's vector, no ranking function over positions), plus 0.15 per
        shared topic and 0.05 for the same venue; never the paper itself. Shared terms are
        spelled as the paper writes them. A second query fetches the papers shown.
        """
        pk = paper.pk if hasattr(paper, "pk") else int(paper)
        sql = """
        WITH src AS (
            SELECT id, venue_id, search_vector,
                   concat_ws(' ', title, abstract, topic_names, author_names) AS text
            FROM papers_paper WHERE id = %(pk)s
        ),
        stats AS (
            SELECT CASE WHEN c.reltuples >= 1 THEN c.reltuples
                        ELSE (SELECT count(*) FROM papers_paper) END::float8 AS n
            FROM pg_class c WHERE c.oid = 'papers_paper'::regclass
        ),
        terms AS (
            SELECT t.lexeme,
                   ('''' || replace(t.lexeme, '''', '''''') || '''')::tsquery AS single,
                   (1 + ln((SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END)
                            FROM unnest(t.weights) AS w)))
                   * ln((stats.n + 1) / (l.documents + 0.5)) AS weight
            FROM src
            CROSS JOIN LATERAL unnest(src.search_vector) AS t(lexeme, positions, weights)
            JOIN papers_lexeme l ON l.word = t.lexeme
            CROSS JOIN stats
            WHERE l.documents >= 2
              AND l.documents <= GREATEST(3, stats.n * 0.2)
              AND length(t.lexeme) >= 3
              AND t.lexeme ~ '^[[:alpha:]][[:alnum:]-]*$'
              AND t.lexeme NOT IN ('textbf', 'textit', 'emph', 'http', 'https', 'www')
            ORDER BY weight DESC, t.lexeme
            LIMIT %(terms)s
        ),
        q AS (
            SELECT string_agg(quote_literal_tsq, ' | ')::tsquery AS any_term,
                   sum(weight) AS total
            FROM (SELECT '''' || replace(lexeme, '''', '''''') || '''' AS quote_literal_tsq, weight
                  FROM terms) AS quoted
        ),
        pairs AS (
            SELECT string_agg('(''' || replace(a.lexeme, '''', '''''') || ''' & '''
                              || replace(b.lexeme, '''', '''''') || ''')', ' | ')::tsquery AS two
            FROM terms a JOIN terms b ON a.lexeme < b.lexeme
        ),
        cand AS (
            (SELECT p.id FROM papers_paper p, pairs
             WHERE p.search_vector @@ pairs.two AND p.id <> %(pk)s LIMIT %(cap)s)
            UNION
            (SELECT p.id FROM papers_paper p, q
             WHERE p.search_vector @@ q.any_term AND p.id <> %(pk)s LIMIT %(small_cap)s)
        ),
        surface AS MATERIALIZED (
            SELECT DISTINCT ON (stem) stem, word FROM (
                SELECT w.word, (ts_lexize('english_stem', w.word))[1] AS stem, w.ord
                FROM src, regexp_split_to_table(
                    lower(src.text) || ' ' || regexp_replace(lower(src.text), '-', ' ', 'g'),
                    '[^[:alnum:]-]+'
                ) WITH ORDINALITY AS w(word, ord)
                WHERE w.word <> ''
            ) AS words
            WHERE stem IS NOT NULL
            ORDER BY stem, length(word), ord
        ),
        scored AS (
            SELECT p.id,
                   COALESCE(shared.weight / NULLIF(q.total, 0), 0)
                   + 0.15 * (SELECT count(*) FROM papers_papertopic a
                             JOIN papers_papertopic b ON a.topic_id = b.topic_id
                             WHERE a.paper_id = %(pk)s AND b.paper_id = p.id)
                   + CASE WHEN p.venue_id = src.venue_id THEN 0.05 ELSE 0 END AS score,
                   shared.lexemes
            FROM cand
            JOIN papers_paper p ON p.id = cand.id
            CROSS JOIN q CROSS JOIN src
            CROSS JOIN LATERAL (
                SELECT sum(t.weight) AS weight, array_agg(t.lexeme ORDER BY t.weight DESC) AS lexemes
                FROM terms t
                WHERE p.search_vector @@ t.single
            ) AS shared
        ),
        top AS (
            SELECT id, score, lexemes FROM scored ORDER BY score DESC, id LIMIT %(limit)s
        )
        SELECT top.id, top.score,
               ARRAY(SELECT COALESCE(s.word, w.lexeme)
                     FROM unnest(top.lexemes) WITH ORDINALITY AS w(lexeme, ord)
                     LEFT JOIN surface s ON s.stem = w.lexeme
                     ORDER BY w.ord) AS words
        FROM top ORDER BY top.score DESC, top.id
        """
        params = {
            "pk": pk,
            "terms": SIMILAR_TERMS,
            "cap": SIMILAR_CAP,
            "small_cap": max(SIMILAR_CAP // 10, limit),
            "limit": limit,
        }
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        papers = self.model.objects.select_related("venue").in_bulk([row[0] for row in rows])
        result = []
        for row_pk, score, words in rows:
            similar = papers.get(row_pk)
            if similar is None:
                continue
            similar.score = round(float(score), 4)
            similar.shared_terms = list(dict.fromkeys(words or []))
            result.append(similar)
        return result


_SPELLING_CANDIDATES_SQL = """
SELECT t.word, s.stem, l.word, l.documents
FROM unnest(%s::text[]) AS t(word)
CROSS JOIN LATERAL (SELECT (ts_lexize('english_stem', t.word))[1] AS stem) AS s
CROSS JOIN LATERAL (
    SELECT l.word, l.documents FROM papers_lexeme l
    WHERE s.stem IS NOT NULL AND l.word %% s.stem AND l.word ~ '^[a-z]+$'
      AND NOT EXISTS (SELECT 1 FROM papers_lexeme k WHERE k.word = s.stem)
    ORDER BY similarity(l.word, s.stem) DESC, l.documents DESC, l.word
    LIMIT 20
) AS l
"""

_SURFACE_FORMS_SQL = """
SELECT DISTINCT c.lexeme, m[1]
FROM unnest(%s::text[]) AS c(lexeme)
CROSS JOIN LATERAL (
    SELECT lower(p.title || ' ' || p.abstract) AS text FROM papers_paper p
    WHERE p.search_vector @@ plainto_tsquery('simple', c.lexeme)
    LIMIT 3
) AS found
CROSS JOIN LATERAL regexp_matches(
    found.text, '\\m(' || left(c.lexeme, GREATEST(3, length(c.lexeme) - 1)) || '[a-z]*)', 'g'
) AS m
"""


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, transpositions."""
    previous2, previous = None, list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def did_you_mean(text: str) -> str | None:
    """The query respelled from the collection's own vocabulary, or None (at most two queries).

    Each alphabetic word whose stem the collection lacks gets the Lexeme words near its stem
    by trigram similarity (pg_trgm GIN index on Lexeme.word); the closest by edit distance
    (ties: the commoner) wins and is written as the collection writes it.
    """
    import re

    words = []
    for word in re.findall(r"[A-Za-z]{3,}", text):
        lowered = word.lower()
        if lowered not in {"and", "or", "not"} and lowered not in words:
            words.append(lowered)
    words = words[:8]
    if not words:
        return None
    best: dict[str, tuple] = {}
    with connection.cursor() as cursor:
        cursor.execute(_SPELLING_CANDIDATES_SQL, [words])
        for typed, stem, lexeme, documents in cursor.fetchall():
            key = (edit_distance(stem, lexeme), -documents, lexeme)
            if key[0] <= max(2, len(stem) // 3) and (typed not in best or key < best[typed]):
                best[typed] = key
        if not best:
            return None
        cursor.execute(_SURFACE_FORMS_SQL, [sorted({key[2] for key in best.values()})])
        forms: dict[str, list[str]] = {}
        for lexeme, form in cursor.fetchall():
            forms.setdefault(lexeme, []).append(form)
    replacements = {}
    for typed, key in best.items():
        spelled = sorted(forms.get(key[2], []), key=lambda form: (edit_distance(typed, form), form))
        if spelled and spelled[0] != typed:
            replacements[typed] = spelled[0]
    if not replacements:
        return None

    def swap(match):
        typed = match.group(0)
        better = replacements.get(typed.lower())
        if better is None:
            return typed
        if typed.isupper() and len(typed) > 1:
            return better.upper()
        return better.capitalize() if typed[0].isupper() else better

    return re.sub(r"[A-Za-z]{3,}", swap, text)
