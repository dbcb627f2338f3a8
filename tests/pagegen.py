"""Pages nobody has seen yet: dump pages built from real Anthology records and furniture.

Each page is shaped like the Underline pages the seeds were saved from — a list page (header,
one abstract per paragraph) or a lecture page (country, the page's paper, its venue, title and
topics, then furniture and more abstract + title pairs, then a footer) — but its papers come
from the ACL Anthology and its furniture from the pool below, written for these tests (none of
it is the seeds' text). Which furniture, in which order, CRLF or a byte order mark, a Chinese
header, multi-paragraph abstracts: all drawn from a seeded random generator, so a failing page
is reproduced by its seed. ``expected`` is what a reader must load from the page.
"""

import itertools
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from papers.anthology import parse_anthology
from papers.dump_blocks import TITLE_MAX_LENGTH, venue_in_line
from papers.text import fold_whitespace

SAMPLE_FILE = Path(__file__).parent / "data" / "anthology_sample.json"
_SENTENCE_BREAK = re.compile(r"(?<=[a-z0-9)]\.)\s+(?=[A-Z])")


@dataclass(frozen=True)
class SourceRecord:
    """A real paper: its title, abstract and event ("EACL 2024")."""

    title: str
    abstract: str
    event: str


@dataclass(frozen=True)
class Expected:
    abstract: str
    title: str
    venue: str
    topics: tuple[str, ...] = ()
    country: str = ""


@dataclass
class Page:
    seed: int
    text: str
    expected: list[Expected] = field(default_factory=list)


def usable(title: str, abstract: str, event: str) -> bool:
    """Records a page can carry as the sources print them: one paragraph of prose ending a
    sentence, a title on one line that does not end like a sentence, an "ACL 2024" event."""
    return (
        len(abstract) >= 200
        and abstract.endswith(".")
        and "\n" not in abstract.strip()
        and 0 < len(title) <= TITLE_MAX_LENGTH
        and not title.endswith((".", ":", ";", ","))
        and venue_in_line(event) is not None
    )


def read_anthology(files: list[Path], per_file: int) -> list[SourceRecord]:
    """Records read with the project's own Anthology parser, ``per_file`` from each file."""
    records = []
    for path in files:
        parsed = parse_anthology(path, path.name)
        events = {venue.name: f"{venue.acronym} {venue.year}" for venue in parsed.venues}
        found = [
            SourceRecord(fold_whitespace(paper.title), paper.abstract.strip(), events[paper.venue])
            for paper in parsed.papers
            if usable(paper.title, paper.abstract.strip(), events.get(paper.venue, ""))
        ]
        records.extend(random.Random(path.name).sample(found, min(per_file, len(found))))
    return records


def read_sample() -> list[SourceRecord]:
    """The committed sample of Anthology records, so the property test runs without ../shared."""
    return [SourceRecord(**row) for row in json.loads(SAMPLE_FILE.read_text(encoding="utf-8"))]


# The pool of furniture --------------------------------------------------------------

PLACES = [
    ("St. Julian's, Malta", "Malta"),
    ("Bangkok, Thailand", "Bangkok"),
    ("Toronto, Canada", "Toronto"),
    ("Abu Dhabi, United Arab Emirates", "Abu Dhabi"),
    ("Mexico City, Mexico", "Mexico City"),
    ("Torino, Italy", "Torino"),
    ("Singapore", "Singapore"),
    ("Dublin, Ireland", "Dublin"),
]
DATES = [
    "March 17 to March 22",
    "August 11th to August 16th",
    "May 20 to 25",
    "Dec 6th to Dec 10th",
]
COUNTRIES = ["Germany", "India", "Brazil", "Japan", "Canada", "South Korea", "Kenya", "France"]
TOPICS = [
    "machine translation",
    "dialogue and interactive systems",
    "sentiment analysis",
    "interpretability",
    "resources and evaluation",
    "speech processing",
    "efficient methods for nlp",
    "multilinguality",
]
FORMATS = ["poster", "oral", "virtual poster"]
OTHER_EVENTS = [
    ("COLING 2026", "The 32nd International Conference on Computational Linguistics"),
    ("LREC 2026", "The Fifteenth Language Resources and Evaluation Conference"),
    ("NAACL 2027", "The 2027 Conference of the North American Chapter of the ACL"),
]

# Each entry: (kind, template). {ev} is the page's event, {acr} its acronym, {place}/{town}
# a place, {dates} a range of dates, {year} the event's year.
FURNITURE = [
    ("welcome", "### Welcome to {ev}!\n*The organising committee is glad to host you in {town}.*"),
    ("welcome", "## A message from the programme chairs\n*Thank you for coming to {ev}.*"),
    ("welcome", "We are delighted to welcome you to {ev} in {town}!"),
    (
        "welcome",
        "On behalf of the organisers, welcome to {acr} {year}. We hope you enjoy the talks.",
    ),
    ("welcome", "欢迎参加 {ev}！"),
    ("login", "Sign in with the account you used for {ev} to watch the recordings."),
    ("login", "Log in, please"),
    ("login", "Log in to ask questions in the live Q&A of each session."),
    ("register", "Please register to continue!"),
    ("register", "Registration for {ev} closes soon: register now to secure your place."),
    (
        "register",
        "You need to register for {acr} {year} before the lecture videos are shown to you.",
    ),
    ("announce-dated", "The {acr} conference is held in {place}, {dates}, {year}."),
    ("announce-dated", "Join us in {town} for {ev}, {dates}, {year}, in person or online."),
    (
        "announce",
        "{ev} will take place in {place}, at the conference centre and online for remote participants.",
    ),
    ("announce", "{ev} is a hybrid event: meet us in {town} or attend virtually from anywhere."),
    (
        "announce",
        "This year {acr} takes place in {town}, and every session is streamed for remote attendees.",
    ),
    ("announce", "The {acr} main conference runs in person at the {town} convention centre."),
    ("announce", "Note that all times on the schedule are given in the local time zone of {town}."),
    ("handbook", "### [Conference handbook]({url}/handbook.pdf)"),
    ("handbook", "[Download the full programme]({url}/programme)"),
    ("handbook", "The handbook with the full schedule and the venue map is on the event website."),
    ("footer", "Copyright © {year} the {acr} organisers. All rights reserved."),
    ("footer", "Privacy policy · Terms of use · Cookie settings"),
]


def _card(rng: random.Random) -> str:
    other, full = rng.choice(OTHER_EVENTS)
    parts = [other, f"Welcome to {full} ({other})"]
    if rng.random() < 0.7:
        parts.append(rng.choice(FORMATS))
    return "\n\n".join(parts)


def furniture(rng: random.Random, event: str) -> list[str]:
    """Some of the pool's kinds, each at most once, in a random order, about ``event``."""
    acronym, year = event.rsplit(" ", 1)
    place, town = rng.choice(PLACES)
    values = {
        "ev": event,
        "acr": acronym,
        "year": year,
        "place": place,
        "town": town,
        "dates": rng.choice(DATES),
        "url": f"https://{acronym.lower()}{year}.example.org",
    }
    kinds = sorted({kind for kind, _ in FURNITURE})
    chosen = [kind for kind in kinds if rng.random() < 0.55]
    blocks = [
        rng.choice([text for kind, text in FURNITURE if kind == wanted]).format(**values)
        for wanted in chosen
    ]
    if rng.random() < 0.5:
        blocks.append(_card(rng))
    rng.shuffle(blocks)
    return blocks


# Pages --------------------------------------------------------------------------------


def paragraphs(rng: random.Random, abstract: str, allow_split: bool) -> list[str]:
    """The abstract as the page prints it: one paragraph, or two or three at sentence ends,
    sometimes with its lines wrapped."""
    sentences = _SENTENCE_BREAK.split(abstract)
    parts = [abstract]
    if allow_split and len(sentences) >= 4 and rng.random() < 0.3:
        cuts = sorted(rng.sample(range(1, len(sentences)), rng.choice([1, 2])))
        bounds = [0, *cuts, len(sentences)]
        parts = [" ".join(sentences[a:b]) for a, b in itertools.pairwise(bounds)]
    if rng.random() < 0.2:
        parts = [re.sub(r"(.{60,80}?) ", "\\1\n", part) for part in parts]
    return parts


def lecture_page(rng: random.Random, records: list[SourceRecord], seed: int) -> Page:
    own, *others = records
    event = own.event
    country = rng.choice(COUNTRIES) if rng.random() < 0.8 else ""
    topics = tuple(rng.sample(TOPICS, rng.choice([0, 1, 2, 3])))
    own_parts = paragraphs(rng, own.abstract, True)
    blocks = [country] if country else []
    blocks += [*own_parts, event, own.title, *topics]
    if rng.random() < 0.3:
        blocks.append(rng.choice(FORMATS))
    expected = [Expected(_joined(own_parts), own.title, event, topics, country)]
    body = furniture(rng, event)
    untitled_last = rng.random() < 0.3
    for number, record in enumerate(others, start=1):
        parts = paragraphs(rng, record.abstract, True)
        last = number == len(others)
        title = "" if last and untitled_last else record.title
        if rng.random() < 0.15:  # furniture between two papers, as some pages have
            body.extend(furniture(rng, event)[:1])
        body += [*parts, *([title] if title else [])]
        expected.append(Expected(_joined(parts), title, event))
    blocks += body
    if rng.random() < 0.7:
        blocks += ["Downloads", f"Next from {event}", others[0].title if others else own.title]
        blocks += ["Similar lecture", "A Lecture Title From Elsewhere"]
    return Page(seed, _encode(rng, blocks), expected)


def list_page(rng: random.Random, records: list[SourceRecord], seed: int) -> Page:
    event = records[0].event
    header = f"{event} {rng.choice(['Papers', 'Accepted Papers', '论文列表', '论文'])}"
    blocks = [header, *(record.abstract for record in records)]
    if rng.random() < 0.3:
        blocks.append(f"### [All {event} papers](https://example.org/{seed})")
    expected = [Expected(fold_whitespace(r.abstract), "", event) for r in records]
    return Page(seed, _encode(rng, blocks), expected)


def _joined(parts: list[str]) -> str:
    return "\n\n".join(fold_whitespace(part) for part in parts)


def _encode(rng: random.Random, blocks: list[str]) -> str:
    text = "\n\n".join(blocks) + "\n"
    if rng.random() < 0.25:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.15:
        text = "\ufeff" + text
    return text


def generate(records: list[SourceRecord], seed: int) -> Page:
    """One page from ``seed``: a lecture page (most) or a list page, papers of one event."""
    rng = random.Random(seed)
    event = rng.choice(sorted({record.event for record in records}))
    same_event = [record for record in records if record.event == event]
    chosen = rng.sample(same_event, min(len(same_event), rng.randint(2, 9)))
    if rng.random() < 0.2:
        return list_page(rng, chosen, seed)
    return lecture_page(rng, chosen, seed)


def pages(records: list[SourceRecord], count: int, first_seed: int = 0) -> list[Page]:
    return [generate(records, seed) for seed in range(first_seed, first_seed + count)]


@dataclass
class Score:
    """Papers right out of papers expected, and what a reader loaded that is no paper."""

    right: int = 0
    total: int = 0
    noise: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def describe(self) -> str:
        return f"{self.right}/{self.total} papers right, {len(self.noise)} noise loaded"


def score(generated: list[Page], parse) -> Score:
    """Compare what ``parse(text, name)`` reads from each page with what the page holds."""
    result = Score()
    for page in generated:
        parsed = parse(page.text, f"page-{page.seed}.txt").papers
        got = {
            paper.abstract: Expected(
                paper.abstract, paper.title, paper.venue, tuple(paper.topics), paper.country
            )
            for paper in parsed
        }
        wanted = {expected.abstract for expected in page.expected}
        for expected in page.expected:
            result.total += 1
            if got.get(expected.abstract) == expected:
                result.right += 1
            else:
                result.wrong.append(f"seed {page.seed}: {expected.title or expected.abstract[:60]}")
        result.noise += [f"seed {page.seed}: {a[:80]}" for a in got if a not in wanted]
    return result
