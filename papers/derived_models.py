"""Tables derived from the collection and kept in step with it by code: the word statistics
(papers/denormalise.py), the similarity model (papers/similarity.py), the facet counts and the
narrow rows they are counted from (papers/counts.py), and the data version the cache is keyed by
(papers/caching.py). None holds anything a load or a refresh cannot rebuild."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import GreaterThan

_OCTETS = models.Func("word", function="octet_length", output_field=models.IntegerField())


class Lexeme(models.Model):
    """Document frequencies of the collection's words (from ts_stat), refreshed by each load.

    They spell "did you mean" suggestions and weigh a paper's distinctive words for similarity.
    Every lookup is by word, through the primary key (spelling reads a range of it), or by a
    word's spelling without accents: a trigram index here was chosen for equality lookups whose
    word the planner could not see, and read thousands of posting-list pages for one common
    word.
    """

    word = models.TextField(primary_key=True)
    documents = models.PositiveIntegerField()
    occurrences = models.PositiveIntegerField()

    class Meta:
        indexes = [
            # A word's spellings with accents, looked up by its spelling without (papers/
            # accents.py): only the words beyond ASCII (a seventh), which each load rewrites.
            models.Index(
                models.Func("word", function="papers_unaccented", output_field=models.TextField()),
                name="lexeme_unaccented",
                condition=Q(GreaterThan(_OCTETS, Length("word"))),
            )
        ]

    def __str__(self):
        return self.word


class Similarity(models.Model):
    """A paper's fitted embedding and its nearest neighbours (papers/similarity.py).

    Written by COPY after each load, read by papers/similar.py; no foreign key to the paper, so
    flushing papers never trips over these rows (stale rows are ignored by the join).
    """

    paper_id = models.BigIntegerField(primary_key=True)
    embedding = ArrayField(models.FloatField())
    neighbours = ArrayField(models.BigIntegerField())
    scores = ArrayField(models.FloatField())

    class Meta:
        managed = False  # real[] columns, created by migration 0001's SQL
        db_table = "papers_similarity"

    def __str__(self):
        return f"neighbours of paper {self.paper_id}"


class SimilarityState(models.Model):
    """What collection the similarity rows were computed from (one row)."""

    id = models.SmallIntegerField(primary_key=True, default=1)
    fingerprint = models.TextField()
    papers = models.IntegerField()
    dimensions = models.IntegerField()
    computed = models.DateTimeField()

    class Meta:
        managed = False
        db_table = "papers_similarity_state"

    def __str__(self):
        return f"similarity model of {self.papers} papers"


class PaperFacets(models.Model):
    """What a paper counts under in each facet (papers/counts.py): its venue, country, topics
    and authors, as the facet counts last counted it.

    The facet counts are kept by difference: a refresh compares these rows with the live links
    and adds or takes away only what changed. The rows are also the narrow form the counts of a
    query's matches are taken from (no link tables joined): ``lexemes`` is the paper's search
    vector stripped of positions and weights (a few times smaller, kept inline), so a query
    without a phrase is matched and counted here without reading the wide papers' rows, and
    ``title_lexemes`` its title's, so that a ranked page's title matches under filters are
    found by combining the filters' indexes with the title's (papers/querysets.py). Both are
    set when the row is written and kept in step by the trigger papers_paper_lexemes
    (schema_sql.LEXEMES_FUNCTION) on every update of a paper. No foreign key: a deleted
    paper's row stays until the refresh in the deleting transaction takes its counts away.
    """

    paper_id = models.BigIntegerField(primary_key=True)
    venue_id = models.BigIntegerField(db_index=True)
    country = models.CharField(max_length=100, blank=True)
    topic_ids = ArrayField(models.BigIntegerField(), default=list)
    author_ids = ArrayField(models.BigIntegerField(), default=list)
    lexemes = SearchVectorField(default="")
    title_lexemes = SearchVectorField(default="")

    class Meta:
        indexes = [
            GinIndex(fields=["topic_ids"], name="paperfacets_topics"),
            GinIndex(fields=["lexemes"], name="paperfacets_lexemes"),
            GinIndex(fields=["title_lexemes"], name="paperfacets_title_lexemes"),
            GinIndex(fields=["author_ids"], name="paperfacets_authors"),
            models.Index(fields=["country"], condition=~Q(country=""), name="paperfacets_country"),
        ]

    def __str__(self):
        return f"facets of paper {self.paper_id}"


class FacetCount(models.Model):
    """The number of papers with ``value`` in ``facet`` (v venue id, t topic id, a author id,
    c country), among all papers (``by_facet`` "") or among those with ``by_value`` in
    ``by_facet``: the counts that do not depend on a query, exact, kept by papers/counts.py."""

    pk = models.CompositePrimaryKey("by_facet", "by_value", "facet", "value")
    facet = models.CharField(max_length=1)
    value = models.CharField(max_length=100)
    by_facet = models.CharField(max_length=1, blank=True)
    by_value = models.CharField(max_length=100, blank=True)
    n = models.IntegerField()

    class Meta:
        indexes = [
            # The commonest values first (top topics and authors) without sorting them all.
            models.Index("by_facet", "by_value", "facet", F("n").desc(), name="facetcount_top"),
            # Rows a refresh brought to zero, deleted after it.
            models.Index(fields=["facet"], condition=Q(n=0), name="facetcount_zero"),
        ]

    def __str__(self):
        among = f" among {self.by_facet}={self.by_value}" if self.by_facet else ""
        return f"{self.facet}={self.value}{among}: {self.n}"


class DataVersion(models.Model):
    """One row: a number every load and every curation change raises, in its transaction, so
    that cached pages (papers/caching.py) computed from older data are never served again."""

    id = models.SmallIntegerField(primary_key=True, default=1)
    version = models.BigIntegerField(default=0)

    def __str__(self):
        return f"data version {self.version}"
