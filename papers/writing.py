"""Write merged records into the database: bulk writes, curated fields kept.

Papers are matched to the collection (papers/paper_matching.py); a match is
merged — empty fields filled, the fields a record with its own external ID says otherwise
corrected, topics and related titles added — and fields a curator set
(Paper.curated_fields) are never touched. New papers are staged (papers/staging.py) and written
once, after the topic model and rules, with their names and vectors; the derived data (name
columns, topic rules, word statistics, facet counts) is refreshed for the papers touched. Once
the papers are matched the collection's texts are final, and the similarity model's fit starts
ahead of the commit (papers/fit_ahead.py); once they are written, with their links, so are
the neighbours' other inputs, and the neighbours are found ahead too.
"""

from dataclasses import replace

from django.utils import timezone

from .author_corrections import uncorrected_author_lists
from .bulk import (
    allocate_ids,
    analyze_tables,
    batched,
    copy_rows,
    merge_pending_index_entries,
    use_load_settings,
)
from .counts import counts_deferred, refresh_counts
from .curation import CORRECTABLE_FIELDS, FILLABLE_FIELDS, correct_fields, fill_empty
from .deleted_keys import deleted_records
from .denormalise import (
    refresh_author_names,
    refresh_lexemes,
    refresh_topic_names,
    topic_names_deferred,
)
from .dump_blocks import venue_in_line
from .fit_ahead import FitAhead
from .fresh_rows import locked_with_changes
from .kept_texts import kept_text_warnings
from .models import Author, Authorship, Paper, PaperTopic, RemovedTopic, Topic, Venue
from .name_forms import fold_umlauts, learn_family_names_in_place
from .name_keys import name_key
from .paper_matching import find_existing
from .people import AuthorWriter, drop_authorless, relink, unique_slug
from .progress import Progress
from .record_merging import VENUE_FIELDS, MergedRecords, merge_records, same_paper_possible
from .records import LoadSummary, PaperRecord, ParsedFile, VenueRecord
from .staging import collection_size, move_staged, stage_papers, staging
from .tagging import tag_papers
from .text import fold_whitespace, make_slug
from .topic_resolver import TopicResolver, deleted_topics_warning
from .topic_rules import apply_topic_rules
from .validation import MAX_RELATED_TITLES
from .venue_lookup import drop_unused, known_venues

# After this many new papers the planner's statistics are refreshed before the statements
# that join the new rows: on a fresh database, stale statistics make them quadratic.
ANALYZE_AFTER = 1000


class RecordWriter:
    """Writes a load's parsed files; ``fit_ahead`` (papers/fit_ahead.py), when given, is
    started once the collection's texts are final."""

    def __init__(
        self,
        summary: LoadSummary,
        progress: Progress | None = None,
        fit_ahead: FitAhead | None = None,
    ):
        self.summary = summary
        self.progress = progress or Progress()
        self.fit_ahead = fit_ahead
        self.now = timezone.now()

    def write(self, parsed_files: list[ParsedFile]) -> None:
        timed = self.summary.timed
        use_load_settings()
        self.progress.phase("matching papers")
        with staging():
            with timed("match and write papers"):
                merged = merge_records(parsed_files)
                self.summary.warnings.extend(merged.warnings)
                self.summary.copies = self.summary.papers_read - len(merged.papers)
                records = merged.papers
                venues = self.write_venues(merged.venues)
                topics = self.write_topics(records)
                papers, changed_ids = self.write_papers(merged, venues, topics)
                self.summary.venues_new -= drop_unused(self.new_venues, papers.values())
                if self.fit_ahead is not None:
                    self.fit_ahead.start(self.new_papers)
            self.progress.phase("topics, authors")
            with timed("topic and author links"):
                changed_ids |= self.write_topic_links(records, papers, topics)
                changed_ids |= self.write_authorships(records, papers)
            # Updated: every paper the run changed, read or not; unchanged: of those read only.
            updated = changed_ids - self.new_ids
            read = {paper.pk for paper in papers.values()}
            self.summary.updated = len(updated)
            self.summary.unchanged = len(papers) - self.summary.new - len(updated & read)
            if len(self.new_ids) >= ANALYZE_AFTER:
                with timed("statistics"):
                    analyze_tables((Author, Authorship, PaperTopic))
            counted = changed_ids | self.new_ids
            if counted:
                counted = self.write_derived(counted)
        # The facet counts of the papers written and of those the rules and the model changed,
        # once; always, so that the data version moves with any change of venues too.
        self.progress.phase("facet counts")
        with timed("facet counts"):
            refresh_counts(counted)

    def write_derived(self, touched: set[int]) -> set[int] | None:
        """Names, the topic model before the topic rules (which read its links), the new papers'
        rows and word statistics, set-based; answers the papers whose facets changed (None: all).

        The model and the rules read the new papers staged (papers/staging.py) and link them
        before their rows are written, once, with their final names and vectors; existing
        papers' names are rewritten only where they differ, each row once.
        """
        timed = self.summary.timed
        existing = touched - self.new_ids
        with timed("names"):
            refresh_author_names(existing)
        # A load that touched every paper applies the rules to all, without sending their ids.
        rule_papers = None if len(touched) == collection_size() else touched
        with topic_names_deferred() as pending, counts_deferred() as counted:
            pending.add(None if rule_papers is None else existing)
            self.progress.phase("topic model")
            with timed("topic model"):
                relinked = tag_papers().changed
            self.progress.phase("topic rules")
            with timed("topic rules"):
                ruled = None if rule_papers is None else rule_papers | relinked
                self.summary.rule_links = apply_topic_rules(paper_ids=ruled)
        with timed("match and write papers"):
            move_staged(self.new_papers)
        if self.fit_ahead is not None:  # every paper and link written: the neighbours' inputs
            with timed("similarity model"):
                self.fit_ahead.send_inputs()
        if len(self.new_ids) >= ANALYZE_AFTER:
            # The papers arrive only now: statistics taken before would describe the table
            # without them, and the pages' plans would read every paper (a seq scan per venue).
            with timed("statistics"):
                analyze_tables((Paper, PaperTopic))
        with timed("names"):
            if rule_papers is not None or existing:  # else every paper is new, named as moved
                refresh_topic_names(None if pending.ids is None else pending.ids - self.new_ids)
        self.progress.phase("search words")
        with timed("word statistics"):
            refresh_lexemes()
        with timed("search indexes"):
            merge_pending_index_entries(Paper, Author)
        return None if counted.ids is None else touched | counted.ids

    # Venues -------------------------------------------------------------

    def write_venues(self, records: dict[str, VenueRecord]) -> dict[str, Venue]:
        venues = known_venues(records)
        taken = set(Venue.objects.values_list("slug", flat=True))
        new = []
        for name in records:
            if name not in venues:
                venue = Venue(name=name, slug=unique_slug(make_slug(name, "venue"), taken))
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
        self.new_venues, self.summary.venues_new = new, len(new)
        return venues

    # Topics -------------------------------------------------------------

    def write_topics(self, records: list[PaperRecord]) -> dict[str, Topic]:
        """Each topic name the records use, resolved to a Topic (created when new)."""
        names = {}
        for record in records:
            for name in record.topics:
                names.setdefault(name_key(name), name)
        resolver = TopicResolver()
        topics, new = {}, []
        if deleted := [name for name in names.values() if resolver.deleted(name)]:
            self.summary.warnings.append(deleted_topics_warning(deleted))
        for folded, name in names.items():
            if name in deleted:
                continue
            topic = resolver.find(name)
            if topic is None:
                topic = resolver.add(Topic(name=name))
                new.append(topic)
            topics[folded] = topic
        Topic.objects.bulk_create(new)
        self.summary.topics_new = len(new)
        return topics

    # Papers -------------------------------------------------------------

    def write_papers(
        self, merged: MergedRecords, venues: dict[str, Venue], topics: dict[str, Topic]
    ) -> tuple[dict[int, Paper], set[int]]:
        records, abstract_keys = merged.papers, merged.abstract_keys
        venue_ids = [venues[record.venue].pk for record in records]
        found, self.merged = find_existing(records, abstract_keys, venue_ids)
        existing = found | self.merged
        unmatched = {index: r for index, r in enumerate(records) if index not in existing}
        deleted = deleted_records(unmatched, dict(enumerate(venue_ids)), abstract_keys)
        self.summary.left_out = len(deleted)
        papers: dict[int, Paper] = {}
        new, changed, changed_fields = [], {}, set()
        for index, record in enumerate(records):
            if index in deleted:
                continue  # a curator deleted it: no paper, no links
            paper = existing.get(index)
            # An earlier record of this run may have given the paper another external ID.
            # (A curator's merge stands even across external IDs.)
            if (
                paper is not None
                and index not in self.merged
                and not same_paper_possible(paper.external_id, record.external_id)
            ):
                paper = None
            if paper is None:
                paper = self.new_paper(record, abstract_keys[index], venues[record.venue])
                new.append(paper)
            elif filled := self.update_paper(
                paper, record, venues[record.venue], abstract_keys[index]
            ):
                changed[paper.pk] = (paper, filled)
                changed_fields.update(filled)
            papers[index] = paper
        found = {index: papers[index] for index in found if index in papers}
        self.summary.warnings += kept_text_warnings(records, found, abstract_keys, venue_ids)
        self.insert_papers(new)
        for chunk in batched(sorted(changed)):
            rows = locked_with_changes([changed[pk] for pk in chunk], self.now)
            Paper.objects.bulk_update(rows, [*sorted(changed_fields), "last_loaded"])
        self.new_ids = {paper.pk for paper in new}
        seen = {p.pk for p in papers.values()} - self.new_ids - changed.keys()
        for chunk in batched(sorted(seen), 10000):
            Paper.objects.filter(pk__any_of=chunk).update(last_loaded=self.now)
        self.summary.new = len(new)
        return papers, set(changed)

    def update_paper(
        self, paper: Paper, record: PaperRecord, venue: Venue, key_of_abstract: str
    ) -> list[str]:
        """A known paper met again: its empty fields filled, those a record with its own
        external ID says otherwise corrected (a corrected source), its volume taken, related
        titles added; never a field a curator changed. Answers the fields changed."""
        moved = self.takes_volume(paper, record, venue)
        filled = fill_empty(paper, record, FILLABLE_FIELDS, paper.curated_fields)
        if record.corrects and record.external_id and record.external_id == paper.external_id:
            title = fold_whitespace(record.title)  # as a new paper's is written
            protected = [*paper.curated_fields, *filled]
            corrected = replace(record, title=title)
            filled += correct_fields(paper, corrected, CORRECTABLE_FIELDS, protected)
        filled += ["venue"] if moved else []
        if "abstract" in filled:
            paper.abstract_key = key_of_abstract
            filled.append("abstract_key")
        extra = [t for t in record.related_titles if t not in paper.related_titles]
        room = MAX_RELATED_TITLES - len(paper.related_titles)
        if extra and room > 0 and "related_titles" not in paper.curated_fields:
            paper.related_titles = [*paper.related_titles, *extra[:room]]
            filled.append("related_titles")
        return filled

    @staticmethod
    def takes_volume(paper: Paper, record: PaperRecord, venue: Venue) -> bool:
        """Move ``paper`` to ``venue`` when the record brings the Anthology ID it lacked and
        names another volume, as copies merged within a run do (papers/record_merging.py); a
        curated venue stays. Answers whether it moved."""
        if (
            not record.external_id
            or paper.external_id
            or paper.venue_id == venue.pk
            or "venue" in paper.curated_fields
        ):
            return False
        paper.venue = venue
        return True

    def insert_papers(self, papers: list[Paper]) -> None:
        """The new papers, their ids drawn, staged (papers/staging.py) until they move in."""
        self.progress.phase("writing papers", len(papers), "papers")
        for paper, pk in zip(papers, allocate_ids(Paper, len(papers)), strict=True):
            paper.pk, paper.created, paper.updated = pk, self.now, self.now
            paper._state.adding = False
        stage_papers(papers, self.progress.advance)
        self.new_papers = papers

    def new_paper(self, record: PaperRecord, key_of_abstract: str, venue: Venue) -> Paper:
        """An unsaved paper (its names and vector are written from its links as it is moved
        from the staged table, papers/staging.py)."""
        return Paper(
            title=fold_whitespace(record.title),
            abstract=record.abstract,
            abstract_key=key_of_abstract,
            venue=venue,
            country=record.country,
            presentation_format=record.presentation_format,
            related_titles=record.related_titles[:MAX_RELATED_TITLES],
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
            (papers[index].pk, topics[name_key(name)].pk)
            for index, record in enumerate(records)
            if index in papers
            for name in record.topics
            if "topics" not in papers[index].curated_fields and name_key(name) in topics
        }
        if not wanted:
            return set()
        paper_ids = {paper_id for paper_id, _ in wanted}
        have = set()
        for chunk in batched(paper_ids):
            for model in (PaperTopic, RemovedTopic):
                links = model.objects.filter(paper_id__any_of=chunk)
                have.update(links.values_list("paper_id", "topic_id"))
        missing = sorted(wanted - have)
        copy_rows(
            PaperTopic,
            ["paper_id", "topic_id", "source"],
            ((p, t, PaperTopic.Source.DUMP.value) for p, t in missing),
        )
        return {paper_id for paper_id, _ in missing}

    def write_authorships(self, records, papers: dict[int, Paper]) -> set[int]:
        """Authors for papers that have none yet, or whose corrected source lists others
        (papers/author_corrections.py); a paper's existing author list is kept, but for the
        people a source now identifies in it (papers/people.py: relink), and for a name
        without its umlauts joining the name with them, on every load (fold_umlauts: a database
        migrated to 0027 joins its pairs on its next load). Answers the papers changed."""
        wanting = {
            papers[index].pk: record.authors
            for index, record in enumerate(records)
            if record.authors and index in papers and "authors" not in papers[index].curated_fields
        }
        if not wanting:
            return fold_umlauts()
        former = uncorrected_author_lists(records, papers)
        identified, authored = {}, {}
        for chunk in batched(list(wanting)):
            for paper_id in set(
                Authorship.objects.filter(paper_id__any_of=chunk).values_list("paper_id", flat=True)
            ):
                names = authored[paper_id] = wanting.pop(paper_id)
                if any(author.person_id for author in names):
                    identified[paper_id] = names
        learn_family_names_in_place(authored)
        writer = AuthorWriter()
        people = [a for names in identified.values() for a in names if a.person_id]
        authors = writer.write([a for names in wanting.values() for a in names] + people)
        self.summary.authors_new = writer.new
        # Two names of one author (a curator merged them) are one authorship, the first.
        copy_rows(
            Authorship,
            ["paper_id", "author_id", "position"],
            (
                (paper_id, author_id, position)
                for paper_id, names in wanting.items()
                for position, author_id in enumerate(
                    dict.fromkeys(authors[author] for author in names), start=1
                )
            ),
        )
        moved = relink(identified, authors) | writer.fold_names() | fold_umlauts()
        drop_authorless(former)
        return set(wanting) | moved | writer.respelled
