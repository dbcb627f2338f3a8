"""Topic rules: tag the papers whose text matches a topic's websearch query.

Each topic's rule is applied by one SQL statement over the whole collection (never a loop over
papers). A rule matches the paper's stored search vector restricted to its title (weight A) and
abstract (weight C): topic and author names (weight B) are left out, so the topics a rule adds
cannot make another rule match, and the result does not depend on the order the rules run in.
The rules of the area topics (ACL's submission areas, papers/tagging.py: AREA_SLUGS) make no
links in a collection large enough for the topic model (papers/tagging.py): a paper that
mentions an area is not necessarily of that area, so the model decides those, trained on what
their rules match. In a small collection they link like any other rule.

Only links with source "rule" are replaced: a rule never touches a dump or curator link, and
never adds a topic a curator removed from a paper (RemovedTopic).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction

from .counts import refresh_counts
from .denormalise import refresh_topic_names
from .expressions import SEARCH_CONFIG
from .models import PaperTopic, Topic
from .tables import sql
from .tagging import AREA_SLUGS, areas_by_model

RULE = PaperTopic.Source.RULE.value

# One statement per topic: the papers matching the rule (minus curator removals), the rule links
# that no longer match deleted, the new matches inserted (existing dump and curator links win).
_APPLY_RULE_SQL = """
WITH query AS (
    SELECT websearch_to_tsquery('{config}', %(rule)s) AS q
),
matched AS (
    SELECT p.id AS paper_id
    FROM {paper} p, query
    WHERE (%(papers)s::bigint[] IS NULL OR p.id = ANY(%(papers)s::bigint[]))
      AND p.search_vector @@ query.q
      AND ts_filter(p.search_vector, '{{a,c}}') @@ query.q
      AND NOT EXISTS (
          SELECT 1 FROM {removed_topic} r WHERE r.paper_id = p.id AND r.topic_id = %(topic)s
      )
),
deleted AS (
    DELETE FROM {paper_topic} pt
    WHERE pt.topic_id = %(topic)s AND pt.source = '{rule}'
      AND (%(papers)s::bigint[] IS NULL OR pt.paper_id = ANY(%(papers)s::bigint[]))
      AND NOT EXISTS (SELECT 1 FROM matched m WHERE m.paper_id = pt.paper_id)
    RETURNING pt.paper_id
),
inserted AS (
    INSERT INTO {paper_topic} (paper_id, topic_id, source)
    SELECT m.paper_id, %(topic)s, '{rule}' FROM matched m
    ON CONFLICT (paper_id, topic_id) DO NOTHING
    RETURNING paper_id
)
SELECT
    (SELECT count(*) FROM matched),
    ARRAY(SELECT paper_id FROM deleted),
    ARRAY(SELECT paper_id FROM inserted)
"""

# A topic without a rule (or an area topic the model decides) keeps no rule links.
_CLEAR_RULE_SQL = """
DELETE FROM {paper_topic}
WHERE topic_id = %(topic)s AND source = '{rule}'
  AND (%(papers)s::bigint[] IS NULL OR paper_id = ANY(%(papers)s::bigint[]))
RETURNING paper_id
"""


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
        cursor.execute(f"SELECT numnode(websearch_to_tsquery('{SEARCH_CONFIG}', %s)) = 0", [rule])
        return cursor.fetchone()[0]


def run_topic_rules(
    topics: Iterable[Topic] | None = None, paper_ids: Iterable[int] | None = None
) -> RuleRun:
    """Apply the rules of the given topics (default: all) to the given papers (default: all).

    Reports, topic by topic, how many papers match and how many rule links were added or removed.
    """
    topics = list(Topic.objects.order_by("name") if topics is None else topics)
    papers = None if paper_ids is None else sorted(set(paper_ids))
    run = RuleRun()
    changed: set[int] = set()
    by_model = areas_by_model()
    with transaction.atomic(), connection.cursor() as cursor:
        for topic in topics:
            rule = "" if by_model and topic.slug in AREA_SLUGS else topic.rule.strip()
            result = TopicRuleResult(topic=topic.name)
            if rule:
                cursor.execute(
                    sql(_APPLY_RULE_SQL, config=SEARCH_CONFIG, rule=RULE),
                    {"rule": rule, "topic": topic.pk, "papers": papers},
                )
                result.matched, deleted, inserted = cursor.fetchone()
            else:
                cursor.execute(
                    sql(_CLEAR_RULE_SQL, rule=RULE), {"topic": topic.pk, "papers": papers}
                )
                deleted, inserted = [row[0] for row in cursor.fetchall()], []
            result.added, result.removed = len(inserted), len(deleted)
            changed.update(deleted)
            changed.update(inserted)
            run.results.append(result)
        if changed:
            refresh_topic_names(changed)
            refresh_counts(changed)
        run.papers_changed = len(changed)
        links = PaperTopic.objects.filter(source=RULE, topic__in=[topic.pk for topic in topics])
        if papers is not None:
            links = links.filter(paper_id__in=papers)
        run.rule_links = links.count()
    return run


def apply_topic_rules(
    topics: Iterable[Topic] | None = None, paper_ids: Iterable[int] | None = None
) -> int:
    """Apply the rules (of the given topics, or all); returns the number of rule links they keep."""
    return run_topic_rules(topics, paper_ids).rule_links
