"""Topic rules: tag the papers whose text matches a topic's websearch query.

All the rules are applied by one SQL statement over the whole collection (never a loop over
papers or over topics). A rule matches the paper's stored search vector restricted to its title
(weight A) and abstract (weight C), and a topic's title rule the vector restricted to its title:
a word an abstract uses in passing ("we mitigate hallucination", "position bias", "scaling
law") says less of a paper's subject than the same word in its title. Topic and author names
(weight B) are left out, so the topics a rule adds cannot make another rule match, and the
result does not depend on the order the rules run in.
A rule whose words the title does not say and the abstract says once (a passing mention:
"privacy" in a sentence on future work) tags only a paper with no other topic, neither a
plainer rule's nor a dump, curator or model link (the loader runs the topic model first).
The rules of the area topics (ACL's submission areas, papers/tagging.py: AREA_SLUGS) make no
links in a collection large enough for the topic model (papers/tagging.py): a paper that
mentions an area is not necessarily of that area, so the model decides those, trained on what
their rules match. In a small collection they link like any other rule.

Only links with source "rule" are replaced: a rule never touches a dump or curator link, and
never adds a topic a curator removed from a paper (RemovedTopic).
"""

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction

from .compounds import websearch_text
from .counts import refresh_counts
from .denormalise import refresh_topic_names
from .expressions import SEARCH_CONFIG
from .models import PaperTopic, Topic
from .staging import papers_source
from .tables import sql
from .tagging import AREA_SLUGS, areas_by_model

RULE = PaperTopic.Source.RULE.value
# The times an abstract says a rule's terms (a phrase where it stands, ``mention_queries``) for
# the rule to tag the paper whatever else it has; once is a passing mention.
SAID_OFTEN = 2

# One statement for all the rules: each rule's query is parsed once (MATERIALIZED: inlined, it is
# parsed again for every paper), every paper's title-and-abstract vector computed once and tested
# against each query; the rule links of the given topics that no longer match are
# deleted (found by EXCEPT, hashed: NOT EXISTS can become a nested loop over the links when their
# statistics predate a load), the new matches inserted (existing dump and curator links win).
# The rule links of the %(unruled)s topics go from every paper, not only the given ones: the
# area topics' links from the time the collection was too small for the topic model.
# Every rule is read (%(ruled)s), its links written for %(topics)s only: whether a match is a
# passing mention depends on the paper's other topics. %(mention_*)s: the queries counting a
# rule's mentions (``mention_queries``).
_RULES = """
rules AS MATERIALIZED (
    SELECT r.topic_id, websearch_to_tsquery('{config}', NULLIF(r.rule, '')) AS q,
           websearch_to_tsquery('{config}', NULLIF(r.title_rule, '')) AS title_q,
           m.queries, m.factors
    FROM unnest(%(ruled)s::bigint[], %(rules)s::text[], %(title_rules)s::text[])
        AS r(topic_id, rule, title_rule)
    LEFT JOIN (
        SELECT m.topic_id, array_agg(m.query::tsquery) AS queries, array_agg(m.factor) AS factors
        FROM unnest(%(mention_topics)s::bigint[], %(mention_factors)s::int[],
                    %(mention_queries)s::text[]) AS m(topic_id, factor, query)
        GROUP BY m.topic_id
    ) AS m ON m.topic_id = r.topic_id
)"""
_MATCHING = """
    FROM {papers} p
    CROSS JOIN LATERAL (
        SELECT ts_filter(p.search_vector, '{{a,c}}') AS words,
               ts_filter(p.search_vector, '{{a}}') AS title OFFSET 0
    ) v
    JOIN rules ON v.words @@ rules.q OR v.title @@ rules.title_q
    WHERE (%(papers)s::bigint[] IS NULL OR p.id = ANY(%(papers)s::bigint[]))"""
# With some topics given, the papers their rules match: the others' rules are read on those
# alone (every rule over the collection made one topic's run 0.2 s -> 5.7 s, a reviewer).
_CHOSEN = (
    """
chosen AS MATERIALIZED (
    SELECT DISTINCT p.id"""
    + _MATCHING
    + """ AND rules.topic_id = ANY(%(topics)s::bigint[])
)"""
)
_HITS = (
    """
hits AS (
    SELECT p.id AS paper_id, rules.topic_id,
           -- A rule or title rule may be empty (NULL): one unsaid is not said. The abstract's
           -- words are those of weight C, the only weight counted ({{D,C,B,A}}).
           COALESCE(v.title @@ rules.q OR v.title @@ rules.title_q
                    OR (SELECT max(m.factor * ts_rank_cd('{{0,1,0,0}}', v.words, m.query, 0))
                        FROM unnest(rules.queries, rules.factors) AS m(query, factor))
                       >= {said_often},
                    false) AS plain"""
    + _MATCHING
    + """ {scope}
      AND NOT EXISTS (
          SELECT 1 FROM {removed_topic} r WHERE r.paper_id = p.id AND r.topic_id = rules.topic_id
      )
)"""
)
# A passing mention (the abstract says a rule's words once, the title not at all) tags only a
# paper that has no other topic: "knowledge distillation" used to make data is not Compression,
# nor "privacy" said in passing Privacy and Security (an outside researcher's wrong tags).
_WRITES = """,
judged AS (
    SELECT h.*, bool_or(h.plain) OVER (PARTITION BY h.paper_id) AS plainly_tagged FROM hits h
),
matched AS (
    SELECT h.paper_id, h.topic_id FROM judged h
    WHERE h.topic_id = ANY(%(topics)s::bigint[])
      AND (h.plain OR NOT h.plainly_tagged AND NOT EXISTS (
          SELECT 1 FROM {paper_topic} pt WHERE pt.paper_id = h.paper_id AND pt.source <> '{rule}'
      ))
),
deleted AS (
    DELETE FROM {paper_topic} pt
    WHERE (pt.paper_id, pt.topic_id) IN (
        SELECT paper_id, topic_id FROM {paper_topic}
        WHERE source = '{rule}' AND topic_id = ANY(%(topics)s::bigint[])
          AND (%(papers)s::bigint[] IS NULL OR paper_id = ANY(%(papers)s::bigint[])
               OR topic_id = ANY(%(unruled)s::bigint[]))
        EXCEPT SELECT paper_id, topic_id FROM matched
    )
    RETURNING pt.paper_id, pt.topic_id
),
inserted AS (
    INSERT INTO {paper_topic} (paper_id, topic_id, source)
    SELECT paper_id, topic_id, '{rule}' FROM matched
    ON CONFLICT (paper_id, topic_id) DO NOTHING
    RETURNING paper_id, topic_id
),
events AS (
    SELECT topic_id, paper_id, 'matched' AS kind FROM matched
    UNION ALL SELECT topic_id, paper_id, 'added' FROM inserted
    UNION ALL SELECT topic_id, paper_id, 'removed' FROM deleted
)
SELECT topic_id,
       count(*) FILTER (WHERE kind = 'matched'),
       count(*) FILTER (WHERE kind = 'added'),
       count(*) FILTER (WHERE kind = 'removed'),
       COALESCE(array_agg(paper_id) FILTER (WHERE kind <> 'matched'), '{{}}')
FROM events
GROUP BY topic_id
"""

# Each alternative of a rule as the index parses it, a phrase as a phrase: ts_rank_cd counts one
# cover per occurrence, divided by 1 + the words the phrase skips ("theory of mind": 'theori' <2>
# 'mind', half a cover), so "in-context learning" said three times counted 1.5 (a reviewer).
_TERM_QUERIES_SQL = """
SELECT t.term, websearch_to_tsquery('{config}', t.term)::text FROM unnest(%s::text[]) AS t(term)
"""
_DISTANCE = re.compile(r"<(\d+|-)>")
# " or " between a rule's alternatives, not inside a quoted phrase; an excluded word or phrase.
_OR = re.compile(r'\s+or\s+(?=(?:[^"]*"[^"]*")*[^"]*$)', re.IGNORECASE)
_EXCLUDED = re.compile(r'(?<!\S)-(?:"[^"]*"|\S+)')


def mention_queries(rules: list[str]) -> list[tuple[int, int, str]]:
    """The queries counting each rule's mentions (one query): (the rule's index, the factor
    that makes each occurrence one, a tsquery of the rule's alternatives skipping that many
    words less one, or-ed), a rule's alternatives grouped by their factor. A mention is counted
    in its group: the statement takes the best group's count, since "text-to-SQL" is a mention
    of both "text-to-sql" and "sql" (a reviewer)."""
    terms = [[_EXCLUDED.sub(" ", part).strip() for part in _OR.split(rule)] for rule in rules]
    with connection.cursor() as cursor:
        cursor.execute(
            sql(_TERM_QUERIES_SQL, config=SEARCH_CONFIG),
            [sorted({term for rule in terms for term in rule if term})],
        )
        parsed = {term: query for term, query in cursor.fetchall() if query}
    queries = []
    for index, rule in enumerate(terms):
        grouped = defaultdict(list)
        for term in (term for term in rule if term in parsed):
            skipped = sum(int(d) - 1 for d in _DISTANCE.findall(parsed[term]) if d != "-")
            grouped[1 + skipped].append(f"( {parsed[term]} )")
        queries += [(index, factor, " | ".join(grouped[factor])) for factor in sorted(grouped)]
    return queries


def _statement(every_topic: bool) -> str:
    """The rules' statement: every paper's rules read, or with some topics given, those of the
    papers their rules match."""
    if every_topic:
        parts, scope = [_RULES, _HITS], ""
    else:
        parts, scope = [_RULES, _CHOSEN, _HITS], "AND p.id IN (SELECT c.id FROM chosen c)"
    text = "WITH " + ",".join(parts) + _WRITES
    return sql(
        text,
        config=SEARCH_CONFIG,
        rule=RULE,
        papers=papers_source(),
        scope=scope,
        said_often=SAID_OFTEN,
    )


@dataclass
class TopicRuleResult:
    topic: str
    matched: int = 0
    added: int = 0
    removed: int = 0


@dataclass
class RuleRun:
    """What a run of the rules did, topic by topic."""

    results: list[TopicRuleResult] = field(default_factory=list)
    rule_links: int = 0
    papers_changed: int = 0

    @property
    def added(self) -> int:
        return sum(result.added for result in self.results)

    @property
    def removed(self) -> int:
        return sum(result.removed for result in self.results)

    def __str__(self) -> str:
        return (
            f"{len(self.results)} topic rules applied: {self.rule_links} rule links "
            f"({self.added} added, {self.removed} removed), {self.papers_changed} papers changed"
        )


def rule_matches_nothing(rule: str) -> bool:
    """True when a rule reduces to an empty query (only stop words or punctuation)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT numnode(websearch_to_tsquery('{SEARCH_CONFIG}', %s)) = 0",
            [websearch_text(rule)],
        )
        return cursor.fetchone()[0]


def rule_matches_by_absence(rule: str) -> bool:
    """True when a rule matches a paper for a word it lacks ("-safety", "guard or -safety"):
    such a rule tags nearly every paper (it matches a paper with no words at all)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ''::tsvector @@ websearch_to_tsquery('{SEARCH_CONFIG}', %s)",
            [websearch_text(rule)],
        )
        return cursor.fetchone()[0]


def run_topic_rules(
    topics: Iterable[Topic] | None = None, paper_ids: Iterable[int] | None = None
) -> RuleRun:
    """Apply the rules of the given topics (default: all) to the given papers (default: all).

    Reports, topic by topic, how many papers match and how many rule links were added or removed.
    """
    every = list(Topic.objects.order_by("name"))
    topics = every if topics is None else list(topics)
    papers = None if paper_ids is None else sorted(set(paper_ids))
    with transaction.atomic(), connection.cursor() as cursor:
        # One statement over the whole collection (seconds at 100,000 papers on a busy machine):
        # the admin's "apply topic rules" must not hit the timeout meant for web queries (loads
        # and management commands already run without it).
        cursor.execute("SET LOCAL statement_timeout = 0")
        cursor.execute(_statement(len(topics) == len(every)), _parameters(every, topics, papers))
        counts = {row[0]: row[1:] for row in cursor.fetchall()}
        run = RuleRun()
        changed: set[int] = set()
        for topic in topics:
            matched, added, removed, paper_ids_changed = counts.get(topic.pk, (0, 0, 0, []))
            run.results.append(TopicRuleResult(topic.name, matched, added, removed))
            changed.update(paper_ids_changed)
        if changed:
            refresh_topic_names(changed)
            refresh_counts(changed)
        run.papers_changed = len(changed)
        links = PaperTopic.objects.filter(source=RULE, topic__in=[topic.pk for topic in topics])
        if papers is not None:
            links = links.filter(paper_id__in=papers)
        run.rule_links = links.count()
    return run


def _parameters(every: list[Topic], topics: list[Topic], papers: list[int] | None) -> dict:
    """The statement's parameters: every topic's rules (an area topic's are the topic model's
    weak supervision once it decides them), the topics whose links are written, the papers."""
    by_model = areas_by_model()
    ruled = [
        t
        for t in every
        if (t.rule.strip() or t.title_rule.strip()) and not (by_model and t.slug in AREA_SLUGS)
    ]
    rules = [websearch_text(topic.rule.strip()) for topic in ruled]
    mentions = mention_queries(rules)
    return {
        "ruled": [topic.pk for topic in ruled],
        "rules": rules,
        "title_rules": [websearch_text(topic.title_rule.strip()) for topic in ruled],
        "mention_topics": [ruled[index].pk for index, _, _ in mentions],
        "mention_factors": [factor for _, factor, _ in mentions],
        "mention_queries": [query for _, _, query in mentions],
        "topics": [topic.pk for topic in topics],
        "unruled": [t.pk for t in topics if by_model and t.slug in AREA_SLUGS],
        "papers": papers,
    }


def apply_topic_rules(
    topics: Iterable[Topic] | None = None, paper_ids: Iterable[int] | None = None
) -> int:
    """Apply the rules (of the given topics, or all); returns the number of rule links they keep."""
    return run_topic_rules(topics, paper_ids).rule_links
