"""The links between the collection's rows: a paper's topics (with where each came from), the
topics a curator took off it, its authors in order, and the keys of papers a curator merged into
it. Importable from papers/models.py, which declares the rows they link."""

from django.db import models


class PaperTopic(models.Model):
    class Source(models.TextChoices):
        DUMP = "dump", "dump"
        RULE = "rule", "topic rule"
        CURATOR = "curator", "curator"
        MODEL = "model", "topic model"

    # No index of their own: paper_topic_once and papertopic_topic_paper lead with each.
    paper = models.ForeignKey(
        "Paper", on_delete=models.CASCADE, related_name="topic_links", db_index=False
    )
    topic = models.ForeignKey(
        "Topic", on_delete=models.CASCADE, related_name="paper_links", db_index=False
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.DUMP)
    confidence = models.FloatField(
        null=True, blank=True, help_text="For a topic model's link: its probability (0 to 1)."
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["paper", "topic"], name="paper_topic_once")]
        indexes = [models.Index(fields=["topic", "paper"], name="papertopic_topic_paper")]

    def __str__(self):
        return f"{self.topic} ({self.source})"


class RemovedTopic(models.Model):
    """A topic a curator took off a paper: loads and rules never put it back."""

    paper = models.ForeignKey("Paper", on_delete=models.CASCADE, related_name="removed_topics")
    topic = models.ForeignKey("Topic", on_delete=models.CASCADE, related_name="removals")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["paper", "topic"], name="removed_topic_once")
        ]

    def __str__(self):
        return f"{self.topic} removed from paper {self.paper_id}"


class Authorship(models.Model):
    # No index of their own: authorship_position_once and authorship_author_paper lead with each.
    paper = models.ForeignKey(
        "Paper", on_delete=models.CASCADE, related_name="authorships", db_index=False
    )
    author = models.ForeignKey(
        "Author", on_delete=models.CASCADE, related_name="authorships", db_index=False
    )
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["paper", "position"]
        constraints = [
            # The author in the index too: a paper's authors are read from it alone (an author
            # page's co-authors: some 5,000 authorships for a prolific author).
            models.UniqueConstraint(
                fields=["paper", "position"], include=["author"], name="authorship_position_once"
            )
        ]
        indexes = [models.Index(fields=["author", "paper"], name="authorship_author_paper")]

    def __str__(self):
        return f"{self.author} ({self.position}) on paper {self.paper_id}"


class MergedKey(models.Model):
    """What identified a paper a curator merged into another (its external ID, abstract, title
    at its venue), kept so that a load meeting that copy again finds the survivor instead of
    bringing the copy back, and its id, so that its address leads there (papers/merged_keys.py)."""

    class Kind(models.TextChoices):
        EXTERNAL_ID = "id"
        ABSTRACT = "abstract"
        TITLE = "title"
        PAPER = "paper"  # its own id: its old address leads to the survivor

    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The external ID, the abstract key, "<venue id>:<title in lower case>", or the paper's id.
    key = models.TextField()
    paper = models.ForeignKey("Paper", on_delete=models.CASCADE, related_name="merged_keys")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="merged_key_once")]

    def __str__(self):
        return f"{self.kind} {self.key[:40]} → paper {self.paper_id}"


class DeletedKey(models.Model):
    """What identified a paper a curator deleted (its external ID, abstract, title at its
    venue), kept so that a load meeting that paper again, matching none left, leaves it out
    rather than bringing it back (papers/deleted_keys.py). A curator deletes the rows of a
    paper to let loads bring it back."""

    kind = models.CharField(max_length=10, choices=MergedKey.Kind.choices)
    key = models.TextField()
    # What the paper was, for the curator reading the list.
    title = models.TextField(blank=True)
    deleted = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "deleted paper's key"
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="deleted_key_once")]

    def __str__(self):
        return f"{self.kind} {self.key[:40]} ({self.title[:60]})"


class DeletedTopic(models.Model):
    """A topic a curator deleted, kept so that no load brings it back: neither a dump naming
    it (its links are left out, with a warning) nor the topic vocabulary (`load_topics`, which
    `make run` runs at every start). A curator deletes the row to let loads bring it back, or
    adds a topic of that name again."""

    key = models.CharField(max_length=200, unique=True, help_text="The name's key (name_key).")
    name = models.CharField(max_length=200)
    slug = models.CharField(max_length=200)
    deleted = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name
