"""Small factories for building papers directly in tests, and dump text for the loader.

Use them when a test needs data other than the seeds: create rows, then call ``finish()`` so
the denormalised names, the Lexeme table and the facet counts are in step, as the loader leaves
them. Each paper gets its abstract key as the loader computes it, so duplicate detection sees
what it would.
"""

from papers.counts import refresh_counts
from papers.denormalise import refresh_author_names, refresh_lexemes, refresh_topic_names
from papers.models import Author, Authorship, Paper, PaperTopic, Topic, Venue
from papers.text import abstract_key, make_slug


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
        abstract_key=abstract_key(abstract),
        venue=venue or make_venue(),
        **fields,
    )
    for name in topics:
        PaperTopic.objects.create(paper=paper, topic=make_topic(name))
    for position, name in enumerate(authors, 1):
        Authorship.objects.create(paper=paper, author=make_author(name), position=position)
    return paper


def finish() -> None:
    """Bring the denormalised names, word statistics and facet counts in step, as every load
    does."""
    refresh_topic_names()
    refresh_author_names()
    refresh_lexemes()
    refresh_counts()


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


# Dump text, as the sources publish it ------------------------------------------------

ABSTRACT_A = (
    "Machine translation for low-resource languages remains hard. We collect a parallel "
    "corpus of Yoruba and English sentences and train a multilingual model. Our results show "
    "gains of 4.2 BLEU over strong baselines."
)
ABSTRACT_B = (
    "Speech recognition systems struggle with accented speech. We propose an adapter that "
    "conditions the acoustic model on accent embeddings, cutting word error rate by 12%."
)
ABSTRACT_C = (
    "Retrieval-augmented generation grounds answers in documents. We study how retrieval "
    "noise affects faithfulness and propose a filter that discards irrelevant passages."
)
ABSTRACT_D = (
    "Dialogue agents forget what users told them. We add a memory that stores salient facts "
    "and retrieves them at each turn, which improves consistency in long conversations."
)


def lecture_page(
    *,
    country="Germany",
    venue="NAACL 2025",
    topics=("machine translation", "multilinguality"),
    furniture=True,
    footer=True,
    untitled_last=True,
) -> str:
    parts = [country, ABSTRACT_A, venue, "Parallel Data for Yoruba Translation", *topics]
    if furniture:
        parts += [
            "### Welcome to The 2025 Annual Conference of the Nations of the Americas Chapter "
            "of the ACL (NAACL 2025)",
            "Message from the General Chair:\n*It is a pleasure to welcome you to NAACL 2025, "
            "held in Albuquerque, New Mexico, from April 29 to May 4, 2025.*\n"
            "[Read more](https://example.org/welcome)",
            "To access this event page, you need to log in with the **email address you "
            "registered with**.",
            "Please log in",
            "COLING 2025",
            "Welcome to The 31st International Conference on Computational Linguistics (COLING 2025)",
            "oral",
            f"{venue} will be held in Albuquerque, New Mexico from April 29th to May 4th, 2025.",
        ]
    parts += [ABSTRACT_B, "Accent Adapters for Speech Recognition"]
    parts += [ABSTRACT_C + "\n" + "We release code and data.", "", ABSTRACT_D]
    if not untitled_last:
        parts.append("Memory for Dialogue Agents")
    if footer:
        parts += [
            "Downloads",
            f"Next from {venue}",
            "Accent Adapters for Speech Recognition",
            "Similar lecture",
            "A Title That Is Not In The Collection",
        ]
    return "\n\n".join(part for part in parts if part) + "\n"


def list_page(header="EACL 2024 Papers", abstracts=(ABSTRACT_A, ABSTRACT_B, ABSTRACT_C)) -> str:
    return "\n\n".join([header, *abstracts]) + "\n"
