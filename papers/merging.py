"""Merges of duplicates a curator chooses: papers into one, topics into one, authors into one.

Links move to the survivor (of two links of one topic, the stronger source stays), a
curator's removals and curated fields move with them, and what identified the others keeps
leading to the survivor: a merged paper's keys (papers/merged_keys.py), a merged topic's slug
(a redirect), a merged author's names (its survivor's variants) and slug (a redirect). Each
merge refreshes the names, counts and data version as every curation does
(papers/curation.py).
"""

from django.db import connection, transaction
from django.db.models import Max

from .author_corrections import same_people
from .author_redirects import redirect_authors
from .counts import refresh_counts
from .curation import CURATOR, FILLABLE_FIELDS, fill_empty
from .denormalise import refresh_author_names, refresh_topic_names
from .load_guard import refuse_during_load
from .merged_keys import remember_merged
from .models import (
    Author,
    Authorship,
    Paper,
    PaperTopic,
    RemovedTopic,
    Topic,
    TopicRedirect,
)
from .tables import sql
from .topic_rules import apply_topic_rules

# Which of two links of one topic a merge keeps: a person's choice over a source's, a
# source's over a rule's, a rule (it reads the paper's words) over the topic model's guess.
SOURCE_RANK = {
    PaperTopic.Source.MODEL: 0,
    PaperTopic.Source.RULE: 1,
    PaperTopic.Source.DUMP: 2,
    PaperTopic.Source.CURATOR: 3,
}


def _keep_stronger(target: PaperTopic, other: PaperTopic) -> None:
    """The target link takes the other's source (and confidence) where it ranks higher."""
    if SOURCE_RANK[other.source] > SOURCE_RANK[target.source]:
        target.source, target.confidence = other.source, other.confidence
        target.save(update_fields=["source", "confidence"])


# Merging papers --------------------------------------------------------------------------


def merge_papers(survivor: Paper, others: list[Paper]) -> Paper:
    """Fold duplicate papers into the survivor, then delete them.

    Topic links move (the stronger source wins when both have a topic), a curator's removal
    moves unless the survivor's curator chose that topic, authors are appended, related titles
    joined; fields a curator set on a duplicate (and not on the survivor) are taken with their
    values, and the survivor's empty fields are filled from the duplicates. The duplicates'
    keys (external ID, abstract, title) are kept, pointing at the survivor. Raises
    LoadRunning while a load runs: it may have read the papers, and would write its copy of
    the survivor over the fields the merge filled (a reviewer).
    """
    other_ids = [paper.pk for paper in others]
    with transaction.atomic():
        refuse_during_load("merge the papers")
        # So that a reload of a duplicate's source finds the survivor, not a gap.
        remember_merged(survivor, others)
        links = _move_paper_links(survivor, other_ids)
        _move_paper_removals(survivor, other_ids, links)
        _append_authors(survivor, other_ids)
        for other in others:
            _take_fields(survivor, other)
        # Delete first: the survivor may take over a unique external ID.
        Paper.objects.filter(pk__in=other_ids).delete()
        survivor.save()
        refresh_topic_names([survivor.pk])
        refresh_author_names([survivor.pk])
        refresh_counts([survivor.pk, *other_ids])
        # Its topics and text are the duplicates' too: its passing mentions are decided again
        # (papers/topic_rules.py; a reviewer found them kept beside a curator's topic).
        apply_topic_rules(paper_ids=[survivor.pk])
    return survivor


def _move_paper_links(survivor: Paper, other_ids: list[int]) -> dict[int, PaperTopic]:
    """Give the survivor the duplicates' topic links it has not removed; returns its links
    by topic id."""
    links = {link.topic_id: link for link in survivor.topic_links.all()}
    removed = set(survivor.removed_topics.values_list("topic_id", flat=True))
    for link in PaperTopic.objects.filter(paper_id__in=other_ids).order_by("pk"):
        if link.topic_id in removed:
            continue
        if link.topic_id in links:
            _keep_stronger(links[link.topic_id], link)
        else:
            links[link.topic_id] = PaperTopic.objects.create(
                paper=survivor,
                topic_id=link.topic_id,
                source=link.source,
                confidence=link.confidence,
            )
    return links


def _move_paper_removals(survivor: Paper, other_ids: list[int], links) -> None:
    """A duplicate's removal moves to the survivor, unless its curator chose that topic."""
    for topic_id in set(
        RemovedTopic.objects.filter(paper_id__in=other_ids).values_list("topic_id", flat=True)
    ):
        link = links.get(topic_id)
        if link is not None and link.source == CURATOR:
            continue
        if link is not None:
            link.delete()
        RemovedTopic.objects.get_or_create(paper=survivor, topic_id=topic_id)


def _append_authors(survivor: Paper, other_ids: list[int]) -> None:
    """The duplicates' authors the survivor lacks, after its own, in the duplicates' order."""
    authors = list(survivor.authorships.values_list("author_id", flat=True))
    position = survivor.authorships.aggregate(last=Max("position"))["last"] or 0
    for authorship in Authorship.objects.filter(paper_id__in=other_ids).order_by(
        "paper_id", "position"
    ):
        if authorship.author_id not in authors:
            position += 1
            authors.append(authorship.author_id)
            Authorship.objects.create(
                paper=survivor, author_id=authorship.author_id, position=position
            )


def _take_fields(survivor: Paper, other: Paper) -> None:
    """Take a duplicate's curated fields the survivor has not curated, fill the survivor's
    empty fields from it, join its related titles and its reviewed mark (unsaved)."""
    concrete = {field.name for field in Paper._meta.concrete_fields}
    taken = [name for name in other.curated_fields if name not in survivor.curated_fields]
    survivor.curated_fields = [*survivor.curated_fields, *taken, *_chosen(survivor, other)]
    for name in concrete.intersection(taken):
        setattr(survivor, name, getattr(other, name))
    taken += fill_empty(survivor, other, FILLABLE_FIELDS)
    if "abstract" in taken:  # the key loads find the paper by follows its abstract
        survivor.abstract_key = other.abstract_key
    survivor.related_titles = [
        *survivor.related_titles,
        *(t for t in other.related_titles if t not in survivor.related_titles),
    ]
    survivor.reviewed = survivor.reviewed or other.reviewed


def _chosen(survivor: Paper, other: Paper) -> list[str]:
    """The survivor's fields a curator chose over a duplicate whose external ID it takes
    (title, abstract, authors, where the duplicate said otherwise and no curator set them):
    the ID's source, loaded again, corrected them back to the duplicate's, undoing the merge's
    choice (an outside curator)."""
    if survivor.external_id or not other.external_id:
        return []
    differs = {
        "title": survivor.title != other.title,
        "abstract": survivor.abstract_key != other.abstract_key,
        "authors": bool(survivor.author_names and other.author_names)
        and not same_people(survivor.author_names, other.author_names),
    }
    curated = set(survivor.curated_fields) | set(other.curated_fields)
    return [name for name, other_said in differs.items() if other_said and name not in curated]


# Merging topics --------------------------------------------------------------------------


def merge_topics(survivor: Topic, others: list[Topic]) -> Topic:
    """Fold topics into the survivor: papers move over, old slugs redirect to it, rules (and
    title rules) join. Raises LoadRunning while a load runs (it links papers to topics)."""
    other_ids = [topic.pk for topic in others]
    with transaction.atomic():
        refuse_during_load("merge the topics")
        papers = set(
            PaperTopic.objects.filter(topic_id__in=[survivor.pk, *other_ids]).values_list(
                "paper_id", flat=True
            )
        )
        _move_topic_links_and_removals(survivor, other_ids)
        for field in ("rule", "title_rule"):
            rules = [getattr(topic, field).strip() for topic in (survivor, *others)]
            setattr(survivor, field, " or ".join(dict.fromkeys(rule for rule in rules if rule)))
        for other in others:
            fill_empty(survivor, other, ("description",))
        _redirect_topics(survivor, others)
        Topic.objects.filter(pk__in=other_ids).delete()
        survivor.save()
        refresh_topic_names(papers)
        refresh_counts(papers)
    return survivor


def _move_topic_links_and_removals(survivor: Topic, other_ids: list[int]) -> None:
    """The other topics' links move to the survivor (the stronger source wins; none where
    the survivor was removed), then their removals on papers the survivor is not on."""
    links = {link.paper_id: link for link in survivor.paper_links.all()}
    removed = set(survivor.removals.values_list("paper_id", flat=True))
    for link in PaperTopic.objects.filter(topic_id__in=other_ids).order_by("pk"):
        if link.paper_id in links:
            _keep_stronger(links[link.paper_id], link)
            link.delete()
        elif link.paper_id in removed:
            link.delete()
        else:
            link.topic = survivor
            link.save(update_fields=["topic"])
            links[link.paper_id] = link
    for removal in RemovedTopic.objects.filter(topic_id__in=other_ids):
        if removal.paper_id not in links and removal.paper_id not in removed:
            RemovedTopic.objects.create(paper_id=removal.paper_id, topic=survivor)
            removed.add(removal.paper_id)


def _redirect_topics(survivor: Topic, others: list[Topic]) -> None:
    """The others' slugs, and the redirects to them, lead to the survivor."""
    other_ids = [topic.pk for topic in others]
    TopicRedirect.objects.filter(topic_id__in=other_ids).update(topic=survivor)
    for other in others:
        TopicRedirect.objects.update_or_create(old_slug=other.slug, defaults={"topic": survivor})


# Merging authors -------------------------------------------------------------------------

# A paper naming several of the authors merged keeps the first place any of them had; its
# places are then numbered again from 1 (by way of 1001, 1002 …: each place is unique, and
# a paper has at most 500 authors).
_ONE_PLACE_SQL = """
DELETE FROM {authorship} a USING {authorship} b
WHERE a.paper_id = b.paper_id AND a.author_id = ANY(%s) AND b.author_id = ANY(%s)
  AND b.position < a.position
RETURNING a.paper_id
"""
_RENUMBER_SQL = """
UPDATE {authorship} s SET position = 1000 + r.n
FROM (SELECT id, row_number() OVER (PARTITION BY paper_id ORDER BY position) AS n
      FROM {authorship} WHERE paper_id = ANY(%s)) AS r
WHERE s.id = r.id;
UPDATE {authorship} SET position = position - 1000 WHERE paper_id = ANY(%s) AND position > 1000
"""


class MergeRefused(ValueError):
    """The authors cannot be merged, ever: the message says why."""


def merge_authors(survivor: Author, others: list[Author]) -> Author:
    """Fold authors who are one person into the survivor ("Dan Weld" and "Daniel Weld" into
    "Daniel S. Weld"): their papers move to it (a paper naming two of them keeps the
    first place), their names become its variants, so that later loads give those names to
    it (but where the Anthology names a person), it takes an ORCID or family name it lacks,
    and their addresses redirect to it. Raises MergeRefused when two are people the
    Anthology tells apart (a load would part them), and LoadRunning while a load runs (it
    writes authors)."""
    group = [survivor.pk, *(other.pk for other in others)]
    with transaction.atomic():
        refuse_during_load("merge the authors")
        authors = list(Author.objects.select_for_update().filter(pk__in=group).order_by("pk"))
        people = sorted({author.person_id for author in authors if author.person_id})
        if len(people) > 1:
            raise MergeRefused(
                f"The Anthology tells these people apart ({', '.join(people)}): "
                "a load would part them again."
            )
        survivor = next(author for author in authors if author.pk == survivor.pk)
        others = [author for author in authors if author.pk != survivor.pk]
        papers = _move_authorships(survivor, group)
        _take_names(survivor, others)
        redirect_authors(dict.fromkeys(group[1:], survivor.pk))
        Author.objects.filter(pk__in=group[1:]).delete()
        survivor.save(update_fields=["variants", "orcid", "family_name", "person_id"])
        refresh_author_names(papers)
        refresh_counts(papers)
    return survivor


def _move_authorships(survivor: Author, group: list[int]) -> set[int]:
    """The group's authorships become the survivor's, one per paper; answers their papers."""
    papers = set(Authorship.objects.filter(author_id__in=group).values_list("paper_id", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(sql(_ONE_PLACE_SQL), [group, group])
        doubled = sorted({row[0] for row in cursor.fetchall()})
        if doubled:
            cursor.execute(sql(_RENUMBER_SQL), [doubled, doubled])
    Authorship.objects.filter(author_id__in=group[1:]).update(author=survivor)
    return papers


def _take_names(survivor: Author, others: list[Author]) -> None:
    """The survivor knows the others' names (its variants), and takes an ORCID, a family name
    or a person id it lacks (unsaved)."""
    names = [survivor.name, *survivor.variants]
    for other in others:
        names += [name for name in (other.name, *other.variants) if name not in names]
        fill_empty(survivor, other, ("orcid", "family_name", "person_id"))
    survivor.variants = names[1:]
