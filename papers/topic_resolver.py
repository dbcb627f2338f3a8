"""The topic a name means, for loads of papers and of the topic vocabulary, and the names of
topics a curator deleted, which no load brings back."""

from functools import cached_property

from .models import DeletedTopic, Topic, TopicRedirect
from .name_keys import name_key
from .people import unique_slug
from .text import make_slug


class TopicResolver:
    """Finds the topic a name means: by normalised name, then by the slug of a topic a curator
    renamed (so it keeps its papers), then through the redirect a curator's merge left, then,
    for a name written as a slug of words, by that slug; and tells a name a curator deleted
    the topic of."""

    def __init__(self):
        existing = list(Topic.objects.all())
        self.by_name = {name_key(topic.name): topic for topic in existing}
        self.taken = {topic.slug for topic in existing}
        # Only a renamed topic's slug stands for another name: a slug its own name gives
        # ("c" for "C++") must not capture other names ("C").
        self.by_slug = {
            topic.slug: topic for topic in existing if topic.slug != make_slug(topic.name, "topic")
        }
        # A name written as a slug of words ("machine-translation", a JSON line's) is that
        # topic: it made a second one, and again after a curator merged that away.
        self.by_written_slug = {topic.slug: topic for topic in existing if "-" in topic.slug}
        for redirect in TopicRedirect.objects.select_related("topic"):
            self.by_slug[redirect.old_slug] = redirect.topic
            self.taken.add(redirect.old_slug)

    @cached_property
    def deleted_names(self) -> tuple[set[str], set[str]]:
        """The keys and slugs of the topics curators deleted: read once, when first asked."""
        deleted = list(DeletedTopic.objects.values_list("key", "slug"))
        return {key for key, _ in deleted}, {slug for _, slug in deleted if slug}

    def find(self, name: str) -> Topic | None:
        slug = make_slug(name, "topic")
        found = self.by_name.get(name_key(name)) or self.by_slug.get(slug)
        if found is None and name == slug:
            return self.by_written_slug.get(slug)
        return found

    def deleted(self, name: str) -> bool:
        """Whether a curator deleted the topic this name meant (and no topic has it now)."""
        if self.find(name) is not None:
            return False
        keys, slugs = self.deleted_names
        return name_key(name) in keys or make_slug(name, "topic") in slugs

    def add(self, topic: Topic) -> Topic:
        """Give an unsaved topic a free slug and remember it."""
        topic.slug = unique_slug(topic.slug or make_slug(topic.name, "topic"), self.taken)
        self.by_name[name_key(topic.name)] = topic
        if "-" in topic.slug:
            self.by_written_slug.setdefault(topic.slug, topic)
        return topic


def remember_deleted_topics(topics) -> None:
    """Keep the names of the topics (a queryset) a curator is deleting: by its name's key, and
    by its slug where a rename left the slug of another name (as ``TopicResolver`` finds it)."""
    rows = [
        DeletedTopic(
            key=name_key(topic.name)[:200],
            name=topic.name,
            slug=topic.slug if topic.slug != make_slug(topic.name, "topic") else "",
        )
        for topic in topics
    ]
    DeletedTopic.objects.bulk_create(rows, ignore_conflicts=True)


def forget_deleted_topic(topic: Topic) -> None:
    """A curator gave a topic a deleted one's name (or its slug): loads may name it again."""
    DeletedTopic.objects.filter(key=name_key(topic.name)).delete()
    DeletedTopic.objects.filter(slug=topic.slug).delete()


def deleted_topics_warning(names: list[str]) -> str:
    """The load's warning for the topics its records name that a curator deleted."""
    listed = ", ".join(f"“{name}”" for name in sorted(names))
    return (
        f"topics a curator deleted, not linked to this load's papers: {listed} (to bring one "
        "back, delete its row under “Deleted topics” in the admin)"
    )
