"""Small factories for building papers directly in tests, and fixtures my test modules share.

Use them when a test needs data other than the seeds: create rows, then call ``finish()`` so
the denormalised names and the Lexeme table are in step, as the loader leaves them.
"""

import itertools

import pytest

from papers.denormalise import refresh_author_names, refresh_lexemes, refresh_topic_names
from papers.models import Author, Authorship, Paper, PaperTopic, Topic, Venue
from papers.text import make_slug

_counter = itertools.count(1)


def make_venue(name="ACL 2025", year=2025, **fields) -> Venue:
    venue, _ = Venue.objects.get_or_create(
        name=name, defaults={"slug": make_slug(name), "year": year, **fields}
    )
    return venue


def make_topic(name: str, **fields) -> Topic:
    topic, _ = Topic.objects.get_or_create(name=name, defaults={"slug": make_slug(name), **fields})
    return topic


def make_author(name: str) -> Author:
    author, _ = Author.objects.get_or_create(slug=make_slug(name), defaults={"name": name})
    return author


def make_paper(
    abstract: str,
    title: str = "",
    venue: Venue | None = None,
    topics=(),
    authors=(),
    **fields,
) -> Paper:
    """A paper with its topic links and ordered authorships; call finish() after the last one."""
    paper = Paper.objects.create(
        title=title,
        abstract=abstract,
        abstract_key=f"test-{next(_counter)}",
        venue=venue or make_venue(),
        **fields,
    )
    for name in topics:
        PaperTopic.objects.create(paper=paper, topic=make_topic(name))
    for position, name in enumerate(authors, 1):
        Authorship.objects.create(paper=paper, author=make_author(name), position=position)
    return paper


def finish() -> None:
    """Bring the denormalised names and word statistics in step, as every load does."""
    refresh_topic_names()
    refresh_author_names()
    refresh_lexemes()


def many_papers(count: int, venue: Venue | None = None, word: str = "corpus") -> list[Paper]:
    """``count`` similar untitled papers (for pagination), each abstract distinct."""
    venue = venue or make_venue()
    return [
        make_paper(
            f"Paper number {index} studies a {word} of sentences. We report result {index}.",
            venue=venue,
        )
        for index in range(count)
    ]


@pytest.fixture
def corpus(db):
    """A small collection with known subjects, titles, topics, authors and countries."""
    acl = make_venue("ACL 2025", 2025, full_name="Annual Meeting of the ACL", location="Vienna")
    emnlp = make_venue("EMNLP 2024", 2024, location="Miami")
    papers = {
        "kv": make_paper(
            "Long contexts make the key-value cache of attention large. We propose an eviction "
            "policy for the KV cache that keeps the tokens attention needs, cutting memory by "
            "half with no loss on long-context benchmarks.",
            title="Evicting the KV Cache for Long-Context Inference",
            venue=acl,
            topics=["efficiency", "attention"],
            authors=["Ada Lovelace", "Alan Turing"],
            country="United Kingdom",
        ),
        "translation": make_paper(
            "Machine translation for low-resource languages remains hard. We collect a parallel "
            "corpus of Yoruba and English sentences and train a multilingual translation model.",
            title="Parallel Data for Yoruba Translation",
            venue=emnlp,
            topics=["machine translation"],
            authors=["Grace Hopper"],
            country="Nigeria",
        ),
        "speech": make_paper(
            "Speech recognition systems struggle with accented speech. We propose an adapter that "
            "conditions the acoustic model on accent embeddings, cutting word error rate by 12%.",
            venue=acl,
            topics=["speech"],
            authors=["Alan Turing"],
            country="United Kingdom",
        ),
        "retrieval": make_paper(
            "Retrieval-augmented generation grounds answers in retrieved documents. We study how "
            "retrieval noise affects faithfulness and filter irrelevant passages before attention.",
            title="Noisy Retrieval Hurts Faithfulness",
            venue=emnlp,
            topics=["attention"],
            authors=["Grace Hopper", "Ada Lovelace"],
            country="United States",
        ),
        "cache2": make_paper(
            "We compress the KV cache of long-context models by quantising keys and values, and "
            "show eviction and quantisation combine well for attention at long context.",
            title="Quantised KV Cache Compression",
            venue=acl,
            topics=["efficiency"],
            authors=["Ada Lovelace"],
            country="China",
        ),
    }
    finish()
    return papers
