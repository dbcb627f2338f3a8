"""The collection's authors: a person the Anthology identifies, or a name, and the slugs of
authors joined to another. Importable from papers/models.py."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.db import models
from django.db.models import Q

from .author_queries import AuthorQuerySet
from .expressions import family_key, joined_key
from .links import page_url
from .name_keys import name_key, umlaut_key
from .slugs import SlugField


class Author(models.Model):
    """A person the Anthology identifies (``person_id``, also the slug), or a name: the authors
    no source identified, where no single person of that name is known (papers/people.py)."""

    name = models.CharField(max_length=300)
    # Not unique: people share names, and names that only an older normalisation told apart
    # (accents, before migration 0024) may already be two authors.
    key = models.CharField(
        max_length=300, db_index=True, editable=False, help_text="The normalised name."
    )
    umlaut_key = models.CharField(
        max_length=300,
        blank=True,
        default="",
        editable=False,
        help_text='The normalised name with its umlauts written out ("ü" as "ue"); empty '
        "without umlauts.",
    )
    slug = SlugField(max_length=300, unique=True)
    orcid = models.CharField(max_length=40, blank=True)
    person_id = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text='The Anthology\'s id of this person ("yang-liu-edinburgh"); empty for a name.',
    )
    variants = ArrayField(
        models.CharField(max_length=300),
        default=list,
        blank=True,
        help_text="Other spellings of this person's name in the sources.",
    )
    family_name = models.CharField(
        max_length=300,
        blank=True,
        default="",
        help_text='The family name, where the source tells it ("Espinosa Anke" of "Luis Espinosa '
        'Anke"); empty: the last word of the name. Citations write "Family, Given".',
    )

    objects = AuthorQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["person_id"], condition=~Q(person_id=""), name="author_person_once"
            )
        ]
        indexes = [
            # The few names with umlauts, matched against every name's key (papers/name_forms.py).
            models.Index(
                fields=["umlaut_key"], condition=~Q(umlaut_key=""), name="author_umlaut_key"
            ),
            # A query of one word that is a family name offers its people (papers/understanding.py).
            models.Index(family_key(), name="author_family_key"),
            # An author page names the people of its name spaced otherwise ("AiTi Aw").
            models.Index(joined_key(), name="author_joined_key"),
            # A name misspelt finds the author nearest it (papers/name_respelling.py).
            GinIndex(OpClass("key", name="gin_trgm_ops"), name="author_key_trigrams"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.key = name_key(self.name)
        self.umlaut_key = umlaut_key(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return page_url("author-detail", self.slug)


class AuthorRedirect(models.Model):
    """The slug of an author joined to another (a curator's merge, or a name written without
    its umlauts, papers/name_forms.py), so old links keep working."""

    old_slug = SlugField(max_length=300, unique=True)
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="redirects")

    def __str__(self):
        return f"{self.old_slug} → {self.author.slug}"
