"""The collection: venues, papers, topics, authors, their links and curators' merges.

The authors (and their old slugs) are declared in papers/author_models.py, the links (a paper's
topics and authors, removed topics, merged keys) in papers/link_models.py and the tables derived
from them (word statistics, the similarity model, the facet counts, the data version) in
papers/derived_models.py; all are importable from here."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse

from .anthology_metadata import ANTHOLOGY_URL, is_anthology_id
from .author_models import Author as Author
from .author_models import AuthorRedirect as AuthorRedirect
from .derived_models import DataVersion as DataVersion
from .derived_models import FacetCount as FacetCount
from .derived_models import Lexeme as Lexeme
from .derived_models import PaperFacets as PaperFacets
from .derived_models import Similarity as Similarity
from .derived_models import SimilarityState as SimilarityState
from .expressions import display_key as display_key_expression
from .expressions import is_complete, paper_number, venue_held_on
from .expressions import title_vector as title_vector_expression
from .link_models import Authorship as Authorship
from .link_models import DeletedKey as DeletedKey
from .link_models import DeletedTopic as DeletedTopic
from .link_models import MergedKey as MergedKey
from .link_models import PaperTopic as PaperTopic
from .link_models import RemovedTopic as RemovedTopic
from .links import page_url
from .querysets import PaperQuerySet
from .slugs import SlugField
from .text import derive_title, make_slug


class Venue(models.Model):
    name = models.CharField(
        max_length=200, unique=True, help_text='As the dumps write it: "ACL 2025".'
    )
    slug = SlugField(max_length=200, unique=True)
    acronym = models.CharField(max_length=100, blank=True)
    year = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    full_name = models.CharField(max_length=300, blank=True)
    location = models.CharField(max_length=200, blank=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    month = models.CharField(max_length=40, blank=True)
    welcome_text = models.TextField(blank=True)
    booktitle = models.CharField(max_length=500, blank=True)
    # db_default too: code of the release before still writes venues during a deploy.
    publisher = models.CharField(
        max_length=200,
        blank=True,
        default="",
        db_default="",
        help_text="As the Anthology names it: Association for Computational Linguistics.",
    )
    editors = models.TextField(
        blank=True,
        default="",
        db_default="",
        help_text='The volume\'s editors, one per line, as "Family, Given".',
    )
    external_id = models.CharField(
        max_length=100, blank=True, help_text="The Anthology volume ID, e.g. 2024.emnlp-main."
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="children",
        help_text="The conference a Findings, demo or workshop volume belongs to.",
    )
    curated_fields = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    # db_default too: code of the release before still writes venues during a deploy.
    former_names = ArrayField(
        models.CharField(max_length=200),
        default=list,
        db_default=[],
        blank=True,
        help_text="The names a curator renamed it from: a load naming it so finds it.",
    )
    # What "newest venue first" orders by (expressions.venue_order).
    held_on = models.GeneratedField(
        expression=venue_held_on(), output_field=models.DateField(), db_persist=True
    )

    class Meta:
        ordering = ["-year", "name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return page_url("venue-detail", self.slug)

    @property
    def date_note(self) -> str:
        """When it was held, for a line that names it: the month and year, or the year unless
        the name says it already ("Findings of EMNLP 2020 · 2020" said it twice)."""
        when = self.when
        return "" if when == str(self.year or "") and when in self.name else when

    @property
    def when(self) -> str:
        """Month and year as far as known: "July 2025", "2025", or ""."""
        if self.start_date:
            return f"{self.start_date:%B %Y}"
        return " ".join(part for part in (self.month, str(self.year or "")) if part)


class TopicManager(models.Manager):
    def get_by_natural_key(self, name):
        # Ignoring case: a fixture's "LLM Safety" is the topic the dumps created as "llm safety".
        return self.get(name__iexact=name)

    def index(self):
        """Every topic with ``paper_count``, by name as a reader reads it: "Language Modeling"
        before "LLM Safety" (the topic index page and the API's)."""
        return self.annotate(paper_count=models.Count("paper_links")).order_by(Lower("name"))


class Topic(models.Model):
    name = models.CharField(
        max_length=200, unique=True, help_text='As the dumps write it: "llm safety".'
    )
    slug = SlugField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    rule = models.TextField(
        blank=True,
        help_text='A websearch query; papers matching it get this topic, e.g. "kv cache" or "attention sparsity".',
    )
    title_rule = models.TextField(
        blank=True,
        help_text=(
            "A websearch query over titles alone; papers whose title matches it get this topic "
            "too: for words an abstract uses in passing (bias, hallucination, law)."
        ),
    )

    objects = TopicManager()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = make_slug(self.name, "topic")
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return page_url("topic-detail", self.slug)

    def natural_key(self):
        return (self.name,)


class TopicRedirect(models.Model):
    """The slug of a topic merged into another, so old links keep working."""

    old_slug = SlugField(max_length=200, unique=True)
    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="redirects")

    def __str__(self):
        return f"{self.old_slug} → {self.topic.slug}"


class Paper(models.Model):
    # The loader's limits (papers.validation), so the admin's forms keep to them too.
    title = models.TextField(
        blank=True, max_length=1_000, help_text="Empty when the source gives none."
    )
    abstract = models.TextField(blank=True, max_length=20_000)
    abstract_key = models.CharField(
        max_length=64, blank=True, editable=False, help_text="Hash of the normalised abstract."
    )
    # Indexed by paper_venue_complete, which leads with it.
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="papers", db_index=False
    )
    topics = models.ManyToManyField(Topic, through="PaperTopic", related_name="papers", blank=True)
    authors = models.ManyToManyField(
        Author, through="Authorship", related_name="papers", blank=True
    )
    country = models.CharField(max_length=100, blank=True, db_index=True)
    presentation_format = models.CharField(max_length=50, blank=True)
    related_titles = ArrayField(models.TextField(), default=list, blank=True)
    external_id = models.CharField(max_length=100, null=True, blank=True, unique=True)
    pages = models.CharField(max_length=50, blank=True)
    doi = models.CharField(max_length=200, blank=True)
    url = models.URLField(max_length=500, blank=True)
    bibkey = models.CharField(max_length=200, blank=True)
    reviewed = models.BooleanField(default=False)
    curated_fields = ArrayField(
        models.CharField(max_length=40),
        default=list,
        blank=True,
        help_text="Fields a curator set; loads never overwrite them.",
    )
    # Denormalised names, kept in step by the loader and the admin: the search vector weights
    # the authors' (its trigger can only read this row). The topics' are no longer searched
    # (migration 0026: a topic is a filter).
    topic_names = models.TextField(blank=True, editable=False)
    author_names = models.TextField(blank=True, editable=False)
    source_file = models.CharField(max_length=300, blank=True)
    source_position = models.PositiveIntegerField(
        null=True, blank=True, help_text="Line of the source file where the paper starts."
    )
    first_loaded = models.DateTimeField(null=True, blank=True)
    last_loaded = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    # Title (A), abstract (C), topic and author names (B), written by the database trigger
    # papers_paper_search_vector (papers/schema_sql.py) whatever is saved here: a change of
    # names alone reuses the title's and abstract's lexemes instead of parsing the text again.
    search_vector = SearchVectorField(null=True, editable=False)
    # The title's own vector, stored: where filters and a query meet, each of the filters'
    # papers has its title tested, and parsing the title again per paper was most of the work.
    title_vector = models.GeneratedField(
        expression=title_vector_expression(), output_field=SearchVectorField(), db_persist=True
    )
    # The browse orders: complete records first, then by venue, then in proceedings order.
    complete = models.GeneratedField(
        expression=is_complete(), output_field=models.BooleanField(), db_persist=True
    )
    number = models.GeneratedField(
        expression=paper_number(), output_field=models.IntegerField(), db_persist=True
    )
    # Title A–Z's key, stored so that the orders' indexes hold it as a column: PostgreSQL reads
    # an index on an expression of the title only by visiting each paper's row as well (no
    # index-only scan), and the facet memory reads the title order's every id
    # (papers/facet_memory.py). Stored plain, in the row (migration 0020).
    display_key = models.GeneratedField(
        expression=display_key_expression(), output_field=models.TextField(), db_persist=True
    )

    objects = PaperQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        indexes = [
            GinIndex(fields=["search_vector"], name="paper_search_vector"),
            # The title's own vector: papers whose title matches, without reading every match.
            GinIndex(fields=["title_vector"], name="paper_title_tsv"),
            # The default order inside a venue: any page of the newest-first list is read from
            # here, venue by venue, instead of sorting the collection (PaperQuerySet.newest_ids).
            models.Index(
                F("venue"),
                F("complete"),
                F("number"),
                F("display_key"),
                F("id"),
                name="paper_venue_order",
            ),
            # A venue's papers (the foreign key's index), and the newest-first list's count of
            # each venue's complete and incomplete records (PaperQuerySet.newest_ids), narrow.
            models.Index(fields=["venue", "complete"], name="paper_venue_complete"),
            # The newest-first list's segments of a filtered set (PaperQuerySet.newest_ids),
            # read for each filtered id without visiting the wide paper row.
            models.Index(fields=["id"], include=["venue", "complete"], name="paper_segment"),
            # Title A–Z, complete records first: any page of that order skips into it without
            # visiting the rows it passes (an index-only scan), and the facet memory reads the
            # whole order from it (papers/facet_memory.py).
            models.Index(F("complete").desc(), F("display_key"), F("id"), name="paper_title_order"),
            # A question that opens a title, its "?" left out (PaperFilterSet.subject): a prefix
            # of the display key, which the order's index cannot seek under a language's
            # collation (LIKE 'how can we know%' scanned every title with those words).
            models.Index(
                OpClass(F("display_key"), name="text_pattern_ops"),
                condition=Q(complete=True),
                name="paper_title_opening",
            ),
            models.Index(fields=["source_file"], name="paper_source_file"),
            # A DOI pasted into the search box (papers/understanding.py), in any case.
            models.Index(Lower("doi"), name="paper_doi_lower"),
            models.Index(
                fields=["abstract_key"], condition=~Q(abstract_key=""), name="paper_abstract_key"
            ),
        ]
        constraints = [
            # One paper per abstract, except among papers with external IDs: distinct Anthology
            # papers (an erratum, a re-publication) can share an abstract, and the loader
            # merges on it only where external IDs allow. A paper without one is never kept
            # apart from another by the loader, so two of them with one abstract are a duplicate.
            models.UniqueConstraint(
                fields=["abstract_key"],
                condition=Q(external_id__isnull=True) & ~Q(abstract_key=""),
                name="paper_abstract_once",
            ),
        ]

    def __str__(self):
        return self.display_title

    def get_absolute_url(self):
        return page_url("paper-detail", self.pk)

    @property
    def anthology_id(self) -> str:
        """The Anthology ID ("2024.emnlp-main.713") when the paper has one, else ""."""
        return self.external_id if is_anthology_id(self.external_id) else ""

    def get_canonical_url(self):
        """The stable name of the page: /papers/<Anthology ID>/ where there is one (the serial
        id depends on the order of loads), else /papers/<id>/."""
        if self.anthology_id:
            return reverse("paper-by-anthology-id", args=[self.anthology_id])
        return self.get_absolute_url()

    @property
    def pdf_url(self) -> str:
        return f"{ANTHOLOGY_URL}{self.anthology_id}.pdf" if self.anthology_id else ""

    @property
    def has_title(self) -> bool:
        return bool(self.title)

    @property
    def display_title(self) -> str:
        return self.title or derive_title(self.abstract) or f"Paper {self.pk}"

    @property
    def anthology_url(self) -> str:
        """The paper's page on the Anthology, or "" for a paper that is not from it."""
        return f"{ANTHOLOGY_URL}{self.anthology_id}/" if self.anthology_id else ""
