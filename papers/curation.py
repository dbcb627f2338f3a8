"""Curation: what a curator changes, recorded so that later loads never undo it.

Changed paper and venue fields are added to their ``curated_fields``; a topic added to a paper
is a ``curator`` link; a topic taken off a paper leaves a ``RemovedTopic`` that loads and rules
respect, and the topic rules run again on the papers whose topics changed (a rule's passing
mention tags only a paper without another topic, papers/topic_rules.py). Every change to topic
links or author lists refreshes the papers' ``topic_names`` and
``author_names`` (search reads the authors'). ``fill_empty`` is the one rule for filling empty
fields, shared with the loader and with merges of duplicates (papers/merging.py). Every change
refreshes the facet counts of the papers it touched, in its transaction (papers/counts.py), and
raises the data version that cached pages are keyed by (papers/caching.py): ``note_change``
for a change that moves no count (a renamed venue, a new redirect).
"""

from django.db import transaction
from django.db.models import F, Func, Value

from .caching import bump_data_version
from .counts import refresh_counts
from .deleted_keys import remember_deleted
from .denormalise import refresh_author_names, refresh_topic_names
from .load_guard import refuse_during_load
from .merged_keys import ABSTRACT, TITLE, remember_former, title_key
from .models import (
    AuthorRedirect,
    Authorship,
    Paper,
    PaperTopic,
    RemovedTopic,
    Topic,
    TopicRedirect,
)
from .name_keys import name_key
from .people import drop_authorless
from .similarity_model import project_paper
from .text import abstract_key
from .topic_resolver import forget_deleted_topic, remember_deleted_topics
from .topic_rules import apply_topic_rules

# Paper fields a source (a load, or a merged duplicate) may fill when the paper has them empty.
FILLABLE_FIELDS = (
    "title",
    "abstract",
    "country",
    "presentation_format",
    "external_id",
    "pages",
    "doi",
    "url",
    "bibkey",
)
# Paper fields a record carrying the paper's own external ID corrects when it says otherwise:
# the source's current text (a corrected Anthology file, an updated export). A record known
# only by its abstract or title fills empty fields alone: a lecture page's copy of an
# Anthology paper does not replace the Anthology's text.
CORRECTABLE_FIELDS = ("title", "abstract", "pages", "doi", "url", "bibkey")
CURATOR = PaperTopic.Source.CURATOR
# Paper fields whose change in the admin is not a curation of loaded data.
NOT_CURATED = {"reviewed", "curated_fields"}
# Venue fields whose change is not a curation: the slug is the venue's address, not loaded.
VENUE_NOT_CURATED = {"curated_fields", "slug"}


def add_curated(current: list[str], names) -> list[str]:
    """The curated field list with the given names added, in a stable order."""
    return [*current, *sorted(set(names) - set(current))]


def fill_empty(target, source, names, protected=()) -> list[str]:
    """Copy the source's non-empty values into the target's empty fields, leaving the
    protected ones alone; returns the names filled, in the order given."""
    filled = []
    for name in names:
        value = getattr(source, name)
        if value and not getattr(target, name) and name not in protected:
            setattr(target, name, value)
            filled.append(name)
    return filled


def correct_fields(target, source, names, protected=()) -> list[str]:
    """Copy the source's non-empty values that differ from the target's, leaving the protected
    ones alone; returns the names changed, in the order given."""
    corrected = []
    for name in names:
        value = getattr(source, name)
        if value and value != getattr(target, name) and name not in protected:
            setattr(target, name, value)
            corrected.append(name)
    return corrected


# Recording a curator's edits -------------------------------------------------------------


def note_change() -> None:
    """A change the pages show but no count follows (names, dates, redirects): cached pages
    computed before it are not served again."""
    bump_data_version()


def record_paper_edit(paper: Paper, changed_fields, former: dict | None = None) -> None:
    """Before a paper is saved: record the fields the curator changed (or, on a new paper,
    filled in) as curated, and give a changed abstract the key loads find the paper by. A
    known paper keeps its former title's key, and, untitled, its former abstract's (``former``:
    the fields as the form had them), for the loads of sources that still say them (a load
    finds a titled paper by its abstract only where the titles agree). A titled paper's former
    abstract is no key of it: a wrong abstract corrected may be another paper's, whose record
    it would then take (a reviewer)."""
    concrete = {field.name for field in Paper._meta.concrete_fields}
    changed = (set(changed_fields) - NOT_CURATED) & concrete
    if changed:
        paper.curated_fields = add_curated(paper.curated_fields, changed)
    former_abstract = paper.abstract_key
    if "abstract" in changed:
        paper.abstract_key = abstract_key(paper.abstract)
    if paper.pk and former and changed & {"abstract", "title", "venue"}:
        title = former.get("title", "")
        venue = former.get("venue", paper.venue_id)
        former_title = title_key(venue, title) if title else ""
        remember_former(
            paper, {(ABSTRACT, "" if title else former_abstract), (TITLE, former_title)}
        )


def record_paper_links_edit(paper: Paper, curated, former_authors=frozenset()) -> None:
    """After a curator saved a paper and its links: record ``curated`` ("topics",
    "authors") as curated fields, refresh the paper's topic and author names, delete those of
    its ``former_authors`` (ids) left on no paper (their pages showed nothing: an outside
    curator), and place the paper in the fitted similarity model so that it has similar
    papers at once."""
    if set(curated) - set(paper.curated_fields):
        paper.curated_fields = add_curated(paper.curated_fields, curated)
        Paper.objects.filter(pk=paper.pk).update(curated_fields=paper.curated_fields)
    drop_authorless(set(former_authors))
    refresh_topic_names([paper.pk])
    refresh_author_names([paper.pk])
    refresh_counts([paper.pk])
    project_paper(paper.pk)


def record_venue_edit(venue, changed_fields, old_name: str = "") -> None:
    """Before a venue is saved: record the fields the curator changed as curated. A renamed
    venue keeps its old name (``old_name``) among its former names, so that a load naming it
    the old way (a page's dump, which gives no volume ID) finds it rather than making an empty
    namesake and putting the venue's new papers there."""
    changed = set(changed_fields) - VENUE_NOT_CURATED
    if changed:
        venue.curated_fields = add_curated(venue.curated_fields, changed)
    if "name" in changed_fields:
        former = [name for name in venue.former_names if name != venue.name]
        if old_name and old_name != venue.name and old_name not in former:
            former.append(old_name)
        venue.former_names = former


def record_topic_edit(topic: Topic, old_slug: str | None = None, renamed: bool = False) -> None:
    """After a topic is saved: its old slug redirects to it, its live slug is no redirect,
    a deleted topic of its name may be named by loads again, and a renamed topic's papers get
    their topic names refreshed."""
    forget_deleted_topic(topic)
    if old_slug and old_slug != topic.slug:
        TopicRedirect.objects.update_or_create(old_slug=old_slug, defaults={"topic": topic})
    TopicRedirect.objects.filter(old_slug=topic.slug).delete()
    if renamed:
        refresh_topic_names(topic.paper_links.values_list("paper_id", flat=True))
    note_change()


def record_author_edit(author, changed_fields, old_name: str = "", old_slug: str = "") -> None:
    """After an author is saved: a renamed author keeps its old name (``old_name``) among its
    variants, as a merge keeps the names it joins, so that a later load naming the author the
    old way finds it rather than making a second author; its papers get their author names
    refreshed. An author given another address keeps its old one (``old_slug``) as a
    redirect: its page, feed and filter answered 404 (an outside curator)."""
    if "slug" in changed_fields and old_slug and old_slug != author.slug:
        AuthorRedirect.objects.update_or_create(old_slug=old_slug, defaults={"author": author})
    if "name" in changed_fields:
        variants = [name for name in author.variants if name_key(name) != author.key]
        if old_name and name_key(old_name) != author.key and old_name not in variants:
            variants.append(old_name)
        if variants != author.variants:  # its own name is no other spelling of it
            author.variants = variants
            author.save(update_fields=["variants"])
        refresh_author_names(author.authorships.values_list("paper_id", flat=True))
    note_change()


def delete_topics(topics) -> None:
    """Delete the topics (a queryset) and refresh the topic names of the papers they were on.
    Raises LoadRunning while a load runs (it would fail on its links to them)."""
    with transaction.atomic():
        refuse_during_load("delete the topics")
        remember_deleted_topics(topics)
        papers = list(
            PaperTopic.objects.filter(topic__in=topics).values_list("paper_id", flat=True)
        )
        topics.delete()
        refresh_topic_names(papers)
        refresh_counts(papers)
        if papers:
            apply_topic_rules(paper_ids=papers)


def delete_authors(authors) -> None:
    """Delete the authors (a queryset) and refresh the papers they were on. Raises LoadRunning
    while a load runs (it would fail on its links to them)."""
    with transaction.atomic():
        refuse_during_load("delete the authors")
        papers = list(
            Authorship.objects.filter(author__in=authors).values_list("paper_id", flat=True)
        )
        authors.delete()
        refresh_author_names(papers)
        refresh_counts(papers)


def delete_papers(papers) -> None:
    """Delete the papers (a queryset), keep their keys so that loads leave them out
    (papers/deleted_keys.py), delete their authors left on no paper (but those a merge or a
    person id keeps), and take them out of the facet counts. Raises LoadRunning while a load
    runs (one that had matched a paper failed whole on its links to it)."""
    with transaction.atomic():
        refuse_during_load("delete the papers")
        deleted = list(papers)
        remember_deleted(deleted)
        ids = [paper.pk for paper in deleted]
        authors = set(
            Authorship.objects.filter(paper_id__in=ids).values_list("author_id", flat=True)
        )
        Paper.objects.filter(pk__in=ids).delete()
        drop_authorless(authors)  # their pages, offered by search, showed no paper
        refresh_counts(ids)


def mark_reviewed(papers) -> int:
    """Mark the papers (a queryset) as reviewed; returns how many."""
    count = papers.update(reviewed=True)
    note_change()
    return count


# Topic links -----------------------------------------------------------------------------


def set_topics(paper_id: int, add=(), remove=()) -> None:
    """A curator's topic changes on one paper: added as curator links, removed remembered."""
    add, remove = set(add), set(remove) - set(add)
    with transaction.atomic():
        if remove:
            PaperTopic.objects.filter(paper_id=paper_id, topic_id__in=remove).delete()
            RemovedTopic.objects.bulk_create(
                [RemovedTopic(paper_id=paper_id, topic_id=topic_id) for topic_id in remove],
                ignore_conflicts=True,
            )
        if add:
            RemovedTopic.objects.filter(paper_id=paper_id, topic_id__in=add).delete()
            _link_as_curator(PaperTopic(paper_id=paper_id, topic_id=t) for t in add)
        refresh_counts([paper_id])
        apply_topic_rules(paper_ids=[paper_id])


def _link_as_curator(links) -> None:
    """Write the links as a curator's; a link that exists already becomes a curator's."""
    links = list(links)
    for link in links:
        link.source, link.confidence = CURATOR, None
    PaperTopic.objects.bulk_create(
        links,
        update_conflicts=True,
        unique_fields=["paper", "topic"],
        update_fields=["source", "confidence"],
    )


def add_topic_to_papers(topic: Topic, paper_ids: list[int]) -> int:
    """Give the papers the topic as a curator's link; returns the number of papers changed."""
    with transaction.atomic():
        have = set(
            PaperTopic.objects.filter(topic=topic, paper_id__in=paper_ids)
            .exclude(source__in=[PaperTopic.Source.RULE, PaperTopic.Source.MODEL])
            .values_list("paper_id", flat=True)
        )
        wanting = [pk for pk in paper_ids if pk not in have]
        RemovedTopic.objects.filter(topic=topic, paper_id__in=wanting).delete()
        # A rule's or the model's link the curator confirms becomes a curator link: neither
        # the rules nor the model's next fit may take it away.
        _link_as_curator(PaperTopic(paper_id=pk, topic=topic) for pk in wanting)
        mark_topics_curated(wanting)
        refresh_topic_names(wanting)
        refresh_counts(wanting)
        if wanting:
            apply_topic_rules(paper_ids=wanting)
    return len(wanting)


def remove_topic_from_papers(topic: Topic, paper_ids: list[int]) -> int:
    """Take the topic off the papers that have it and remember it; returns how many."""
    with transaction.atomic():
        having = list(
            PaperTopic.objects.filter(topic=topic, paper_id__in=paper_ids).values_list(
                "paper_id", flat=True
            )
        )
        PaperTopic.objects.filter(topic=topic, paper_id__in=having).delete()
        RemovedTopic.objects.bulk_create(
            [RemovedTopic(paper_id=pk, topic=topic) for pk in having], ignore_conflicts=True
        )
        mark_topics_curated(having)
        refresh_topic_names(having)
        refresh_counts(having)
        if having:
            apply_topic_rules(paper_ids=having)
    return len(having)


def mark_topics_curated(paper_ids) -> None:
    """Record "topics" as curated on the papers (one statement)."""
    Paper.objects.filter(pk__in=list(paper_ids)).exclude(
        curated_fields__contains=["topics"]
    ).update(
        curated_fields=Func(
            F("curated_fields"),
            Value("topics"),
            function="array_append",
            output_field=Paper._meta.get_field("curated_fields"),
        )
    )
