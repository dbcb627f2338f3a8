"""Write parsed records into the database: one transaction, bulk writes, curated fields kept.

Parsing happens first, for every file, so a bad file stops the run before anything is written.
Papers are matched to the collection by external ID, then normalised abstract, then title at the
same venue; a match is merged — empty fields filled, topics and related titles added — and
fields a curator set (Paper.curated_fields) are never touched.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from itertools import islice
from pathlib import Path

from django.db import connection, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify

from .curation import FILLABLE_FIELDS, fill_empty
from .denormalise import refresh_author_names, refresh_lexemes, refresh_topic_names
from .dumps import venue_in_line
from .models import Author, Authorship, Paper, PaperTopic, RemovedTopic, Topic, TopicRedirect, Venue
from .records import AuthorRecord, PaperRecord, ParsedFile, VenueRecord
from .similarity import refresh_embeddings
from .sources import collect_files, read_source
from .tagging import tag_papers
from .text import abstract_key, fold_whitespace, make_slug
from .topic_rules import apply_topic_rules

BATCH_SIZE = 2000
# After this many new papers the planner's statistics are refreshed before the statements
# that join the new rows: on a fresh database, stale statistics make them quadratic.
ANALYZE_AFTER = 1000
VENUE_FIELDS = tuple(f.name for f in fields(VenueRecord) if f.name not in {"name", "parent"})


@dataclass
class LoadSummary:
    files: int = 0
    papers_read: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    venues_new: int = 0
    topics_new: int = 0
    authors_new: int = 0
    rule_links: int = 0
    warnings: list[str] = field(default_factory=list)

    def describe(self) -> str:
        return (
            f"{self.files} files, {self.papers_read} papers read: {self.new} new, "
            f"{self.updated} updated, {self.unchanged} unchanged; {self.venues_new} new venues, "
            f"{self.topics_new} new topics, {self.authors_new} new authors; "
            f"{self.rule_links} topic links from rules; {len(self.warnings)} warnings"
        )


def batched(items: Iterable, size: int = BATCH_SIZE):
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def parse_files(
    paths: list[Path],
    on_file: Callable[[ParsedFile], None] | None = None,
    skipped: list[str] | None = None,
) -> list[ParsedFile]:
    """Parse every file first; the first bad one raises DumpError before anything is written."""
    parsed_files = []
    for path in collect_files(paths, skipped):
        parsed = read_source(path)
        parsed_files.append(parsed)
        if on_file:
            on_file(parsed)
    return parsed_files


def load_files(
    paths: list[Path], dry_run: bool = False, on_file=None, on_progress=None
) -> LoadSummary:
    skipped: list[str] = []
    parsed_files = parse_files(paths, on_file, skipped)
    summary = LoadSummary(files=len(parsed_files), warnings=skipped)
    for parsed in parsed_files:
        summary.papers_read += len(parsed.papers)
        summary.warnings.extend(parsed.warnings)
    if dry_run:
        return summary
    with transaction.atomic():
        RecordWriter(summary, on_progress).write(parsed_files)
    # After the commit: the similarity model is derived data, refitted only when papers
    # changed; until it is, similar papers come from the full-text path.
    refresh_embeddings()
    return summary


def _merge_records(
    parsed_files: list[ParsedFile],
) -> tuple[dict[str, VenueRecord], list[PaperRecord]]:
    """Venues by name with their fields combined; copies of a paper inside this run merged."""
    venues: dict[str, VenueRecord] = {}
    by_key: dict[tuple, PaperRecord] = {}
    papers: list[PaperRecord] = []
    for parsed in parsed_files:
        for venue in parsed.venues:
            known = venues.setdefault(venue.name, VenueRecord(name=venue.name))
            fill_empty(known, venue, (*VENUE_FIELDS, "parent"))
        for paper in parsed.papers:
            paper.source_file = paper.source_file or parsed.source
            keys = _record_keys(paper)
            kept = next(
                (
                    by_key[key]
                    for key in keys
                    if key in by_key
                    and _same_paper_possible(by_key[key].external_id, paper.external_id)
                ),
                None,
            )
            if kept is None:
                kept = paper
                papers.append(paper)
            else:
                _merge_record(kept, paper)
            for key in keys:
                by_key.setdefault(key, kept)
            venues.setdefault(paper.venue, VenueRecord(name=paper.venue))
    for venue in list(venues.values()):
        if venue.parent:
            venues.setdefault(venue.parent, VenueRecord(name=venue.parent))
    return venues, papers


def _record_keys(paper: PaperRecord) -> list[tuple]:
    """What identifies a paper: its external ID, its abstract, its title at its venue."""
    keys = []
    if paper.external_id:
        keys.append(("id", paper.external_id))
    if key := abstract_key(paper.abstract):
        keys.append(("abstract", key))
    if paper.title:
        keys.append(("title", paper.venue, fold_whitespace(paper.title).lower()))
    return keys


def _same_paper_possible(external_id: str | None, other_external_id: str | None) -> bool:
    """Two records with different external IDs are two papers, whatever else they share."""
    return not external_id or not other_external_id or external_id == other_external_id


def _merge_record(kept: PaperRecord, other: PaperRecord) -> None:
    fill_empty(kept, other, FILLABLE_FIELDS)
    kept.topics.extend(topic for topic in other.topics if topic not in kept.topics)
    kept.related_titles.extend(t for t in other.related_titles if t not in kept.related_titles)
    if not kept.authors:
        kept.authors = other.authors


def _unique_slug(base: str, taken: set[str]) -> str:
    slug, number = base, 2
    while slug in taken:
        slug = f"{base}-{number}"
        number += 1
    taken.add(slug)
    return slug


class TopicResolver:
    """Finds the topic a name means: by name (ignoring case), then by slug — so a topic a
    curator renamed keeps its papers — then through the redirect a curator's merge left."""

    def __init__(self):
        existing = list(Topic.objects.all())
        self.by_name = {topic.name.casefold(): topic for topic in existing}
        self.by_slug = {topic.slug: topic for topic in existing}
        self.by_slug.update(
            (redirect.old_slug, redirect.topic)
            for redirect in TopicRedirect.objects.select_related("topic")
        )
        self.taken = set(self.by_slug)

    def find(self, name: str) -> Topic | None:
        return self.by_name.get(name.casefold()) or self.by_slug.get(make_slug(name, "topic"))

    def add(self, topic: Topic) -> Topic:
        """Give an unsaved topic a free slug and remember it."""
        topic.slug = _unique_slug(topic.slug or make_slug(topic.name, "topic"), self.taken)
        self.by_name[topic.name.casefold()] = topic
        self.by_slug[topic.slug] = topic
        return topic


class RecordWriter:
    def __init__(self, summary: LoadSummary, on_progress=None):
        self.summary = summary
        self.on_progress = on_progress or (lambda done, total: None)
        self.now = timezone.now()

    def write(self, parsed_files: list[ParsedFile]) -> None:
        venue_records, records = _merge_records(parsed_files)
        venues = self.write_venues(venue_records)
        topics = self.write_topics(records)
        papers, changed_ids = self.write_papers(records, venues, topics)
        changed_ids |= self.write_topic_links(records, papers, topics)
        changed_ids |= self.write_authorships(records, papers)
        self.summary.updated = len(changed_ids - self.new_ids)
        self.summary.unchanged = len(papers) - self.summary.new - self.summary.updated
        if len(self.new_ids) >= ANALYZE_AFTER:
            analyze_tables()
        if changed_ids or self.new_ids:
            touched = changed_ids | self.new_ids
            # New papers were written with their names already; these rewrite only rows
            # whose names differ (existing papers that gained topics or authors).
            refresh_topic_names(touched)
            refresh_author_names(touched)
            self.summary.rule_links = apply_topic_rules(paper_ids=touched)
            tag_papers()
            refresh_lexemes()

    # Venues -------------------------------------------------------------

    def write_venues(self, records: dict[str, VenueRecord]) -> dict[str, Venue]:
        venues = {venue.name: venue for venue in Venue.objects.filter(name__in=records)}
        taken = set(Venue.objects.values_list("slug", flat=True))
        new = []
        for name in records:
            if name not in venues:
                venue = Venue(name=name, slug=_unique_slug(slugify(name) or "venue", taken))
                venues[name] = venue
                new.append(venue)
        changed = []
        for name, record in records.items():
            venue = venues[name]
            if not record.acronym and (match := venue_in_line(name)):
                record.acronym, record.year = match["acronym"], int(match["year"])
            if fill_empty(venue, record, VENUE_FIELDS, venue.curated_fields) and venue not in new:
                changed.append(venue)
        Venue.objects.bulk_create(new)
        for name, record in records.items():
            parent = venues.get(record.parent) if record.parent else None
            venue = venues[name]
            if parent and venue.parent_id is None and "parent" not in venue.curated_fields:
                venue.parent = parent
                if venue not in changed:
                    changed.append(venue)
        if changed:
            Venue.objects.bulk_update(changed, [*VENUE_FIELDS, "parent"])
        self.summary.venues_new = len(new)
        return venues

    # Topics -------------------------------------------------------------

    def write_topics(self, records: list[PaperRecord]) -> dict[str, Topic]:
        """Each topic name the records use, resolved to a Topic (created when new)."""
        names = {}
        for record in records:
            for name in record.topics:
                names.setdefault(name.casefold(), name)
        resolver = TopicResolver()
        topics, new = {}, []
        for folded, name in names.items():
            topic = resolver.find(name)
            if topic is None:
                topic = resolver.add(Topic(name=name))
                new.append(topic)
            topics[folded] = topic
        Topic.objects.bulk_create(new)
        self.summary.topics_new = len(new)
        return topics

    # Papers -------------------------------------------------------------

    def find_existing(
        self, records: list[PaperRecord], venues: dict[str, Venue]
    ) -> dict[int, Paper]:
        """The collection's paper for each record (by position in records), where there is one."""
        by_external = {}
        external_ids = [r.external_id for r in records if r.external_id]
        for chunk in batched(external_ids):
            by_external.update(
                {p.external_id: p for p in Paper.objects.filter(external_id__in=chunk)}
            )
        by_abstract = {}
        keys = [abstract_key(r.abstract) for r in records]
        for chunk in batched([k for k in keys if k]):
            by_abstract.update(
                {p.abstract_key: p for p in Paper.objects.filter(abstract_key__in=chunk)}
            )
        by_title = {}
        titled = [
            (venues[r.venue].pk, fold_whitespace(r.title).lower()) for r in records if r.title
        ]
        for chunk in batched(titled):
            candidates = Paper.objects.annotate(lower_title=Lower("title")).filter(
                venue_id__in={venue for venue, _ in chunk},
                lower_title__in={title for _, title in chunk},
            )
            by_title.update({(p.venue_id, p.lower_title): p for p in candidates})
        found = {}
        for index, record in enumerate(records):
            title_key = (venues[record.venue].pk, fold_whitespace(record.title).lower())
            candidates = (
                by_external.get(record.external_id),
                by_abstract.get(keys[index]),
                by_title.get(title_key) if record.title else None,
            )
            paper = next(
                (
                    paper
                    for paper in candidates
                    if paper is not None
                    and _same_paper_possible(paper.external_id, record.external_id)
                ),
                None,
            )
            if paper is not None:
                found[index] = paper
        return found

    def write_papers(
        self, records: list[PaperRecord], venues: dict[str, Venue], topics: dict[str, Topic]
    ) -> tuple[dict[int, Paper], set[int]]:
        existing = self.find_existing(records, venues)
        papers: dict[int, Paper] = {}
        new, changed, changed_fields = [], {}, set()
        for index, record in enumerate(records):
            paper = existing.get(index)
            # An earlier record of this run may have given the paper another external ID.
            if paper is not None and not _same_paper_possible(
                paper.external_id, record.external_id
            ):
                paper = None
            if paper is None:
                paper = self.new_paper(record, venues[record.venue], topics)
                new.append(paper)
            else:
                filled = fill_empty(paper, record, FILLABLE_FIELDS, paper.curated_fields)
                if "abstract" in filled:
                    paper.abstract_key = abstract_key(paper.abstract)
                    filled.append("abstract_key")
                extra = [t for t in record.related_titles if t not in paper.related_titles]
                if extra and "related_titles" not in paper.curated_fields:
                    paper.related_titles = [*paper.related_titles, *extra]
                    filled.append("related_titles")
                if filled:
                    changed[paper.pk] = paper
                    changed_fields.update(filled)
            papers[index] = paper
        self.insert_papers(new)
        if changed:
            for chunk in batched(changed.values()):
                Paper.objects.bulk_update(chunk, [*sorted(changed_fields), "last_loaded"])
        self.new_ids = {paper.pk for paper in new}
        seen = {p.pk for p in papers.values()} - self.new_ids - changed.keys()
        for chunk in batched(sorted(seen), 10000):
            Paper.objects.filter(pk__in=chunk).update(last_loaded=self.now)
        self.summary.new = len(new)
        return papers, set(changed)

    def insert_papers(self, papers: list[Paper]) -> None:
        """COPY the new papers in batches; PostgreSQL computes their search vectors."""
        columns = [field for field in Paper._meta.concrete_fields if not field.generated]
        for paper, pk in zip(papers, allocate_ids(Paper, len(papers)), strict=True):
            paper.pk, paper.created, paper.updated = pk, self.now, self.now
            paper._state.adding = False
        for done, chunk in enumerate(batched(papers), start=1):
            copy_rows(
                Paper,
                [field.column for field in columns],
                (tuple(getattr(paper, field.attname) for field in columns) for paper in chunk),
            )
            self.on_progress(done * BATCH_SIZE, len(papers))

    def new_paper(self, record: PaperRecord, venue: Venue, topics: dict[str, Topic]) -> Paper:
        """An unsaved paper, its name columns filled as refresh_*_names would fill them, so
        the stored search vector is computed once, at insert."""
        topic_names = sorted({topics[name.casefold()].name for name in record.topics})
        return Paper(
            topic_names=", ".join(topic_names),
            author_names=", ".join(author.name for author in record.authors),
            title=fold_whitespace(record.title),
            abstract=record.abstract,
            abstract_key=abstract_key(record.abstract),
            venue=venue,
            country=record.country,
            presentation_format=record.presentation_format,
            related_titles=list(record.related_titles),
            external_id=record.external_id or None,
            pages=record.pages,
            doi=record.doi,
            url=record.url,
            bibkey=record.bibkey,
            source_file=record.source_file,
            source_position=record.line,
            first_loaded=self.now,
            last_loaded=self.now,
        )

    # Links --------------------------------------------------------------

    def write_topic_links(
        self, records, papers: dict[int, Paper], topics: dict[str, Topic]
    ) -> set[int]:
        wanted = {
            (papers[index].pk, topics[name.casefold()].pk)
            for index, record in enumerate(records)
            for name in record.topics
            if "topics" not in papers[index].curated_fields
        }
        if not wanted:
            return set()
        paper_ids = {paper_id for paper_id, _ in wanted}
        have = set()
        for chunk in batched(paper_ids):
            have.update(
                PaperTopic.objects.filter(paper_id__in=chunk).values_list("paper_id", "topic_id")
            )
            have.update(
                RemovedTopic.objects.filter(paper_id__in=chunk).values_list("paper_id", "topic_id")
            )
        missing = sorted(wanted - have)
        PaperTopic.objects.bulk_create(
            [PaperTopic(paper_id=p, topic_id=t, source=PaperTopic.Source.DUMP) for p, t in missing],
            batch_size=BATCH_SIZE,
        )
        return {paper_id for paper_id, _ in missing}

    def write_authorships(self, records, papers: dict[int, Paper]) -> set[int]:
        """Authors for papers that have none yet; a paper's existing author list is kept."""
        wanting = {
            papers[index].pk: record.authors
            for index, record in enumerate(records)
            if record.authors and "authors" not in papers[index].curated_fields
        }
        if not wanting:
            return set()
        for chunk in batched(list(wanting)):
            for paper_id in set(
                Authorship.objects.filter(paper_id__in=chunk).values_list("paper_id", flat=True)
            ):
                del wanting[paper_id]
        authors = self.write_authors([a for names in wanting.values() for a in names])
        copy_rows(
            Authorship,
            ["paper_id", "author_id", "position"],
            (
                (paper_id, authors[_author_key(author)], position)
                for paper_id, names in wanting.items()
                for position, author in enumerate(names, start=1)
            ),
        )
        return set(wanting)

    def write_authors(self, records: list[AuthorRecord]) -> dict[str, int]:
        """The id of each record's author, by slug; authors not yet known are created."""
        wanted = {}
        for record in records:
            wanted.setdefault(_author_key(record), record)
        ids = {}
        for chunk in batched(list(wanted)):
            ids.update(Author.objects.filter(slug__in=chunk).values_list("slug", "id"))
        new = [(key, record) for key, record in wanted.items() if key not in ids]
        new_ids = allocate_ids(Author, len(new))
        copy_rows(
            Author,
            ["id", "name", "slug", "orcid"],
            (
                (pk, record.name, key, record.orcid)
                for pk, (key, record) in zip(new_ids, new, strict=True)
            ),
        )
        ids.update((key, pk) for pk, (key, _) in zip(new_ids, new, strict=True))
        self.summary.authors_new = len(new)
        return ids


def analyze_tables() -> None:
    with connection.cursor() as cursor:
        for model in (Paper, Author, Authorship, PaperTopic):
            cursor.execute(f'ANALYZE "{model._meta.db_table}"')


def allocate_ids(model, count: int) -> list[int]:
    """Draw ids from the table's sequence, for rows written with COPY."""
    if not count:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
            [model._meta.db_table, count],
        )
        return [row[0] for row in cursor.fetchall()]


def copy_rows(model, columns: list[str], rows: Iterable[tuple]) -> None:
    """Write many rows with COPY: far cheaper than INSERT statements for large loads."""
    names = ", ".join(f'"{column}"' for column in columns)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f'COPY "{model._meta.db_table}" ({names}) FROM STDIN') as copy,
    ):
        for row in rows:
            copy.write_row(row)


def _author_key(author: AuthorRecord) -> str:
    return make_slug(author.name, "author")
