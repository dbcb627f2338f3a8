"""The topic a name means, for loads of papers and of the topic vocabulary."""

from .models import Topic, TopicRedirect
from .people import unique_slug
from .text import make_slug, name_key


class TopicResolver:
    """Finds the topic a name means: by normalised name, then by the slug of a topic a curator
    renamed (so it keeps its papers), then through the redirect a curator's merge left."""

    def __init__(self):
        existing = list(Topic.objects.all())
        self.by_name = {name_key(topic.name): topic for topic in existing}
        self.taken = {topic.slug for topic in existing}
        # Only a renamed topic's slug stands for another name: a slug its own name gives
        # ("c" for "C++") must not capture other names ("C").
        self.by_slug = {
            topic.slug: topic for topic in existing if topic.slug != make_slug(topic.name, "topic")
        }
        for redirect in TopicRedirect.objects.select_related("topic"):
            self.by_slug[redirect.old_slug] = redirect.topic
            self.taken.add(redirect.old_slug)

    def find(self, name: str) -> Topic | None:
        return self.by_name.get(name_key(name)) or self.by_slug.get(make_slug(name, "topic"))

    def add(self, topic: Topic) -> Topic:
        """Give an unsaved topic a free slug and remember it."""
        topic.slug = unique_slug(topic.slug or make_slug(topic.name, "topic"), self.taken)
        self.by_name[name_key(topic.name)] = topic
        return topic
