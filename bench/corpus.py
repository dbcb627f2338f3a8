"""The corpus a benchmark loads: the Anthology XML as it is, or a synthetic one from a seed,
scaled to the size asked for by perturbed copies written as JSON Lines exports."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path


@dataclass
class Corpus:
    """What gets loaded: XML files as they are, plus records written as JSON Lines."""

    description: str
    xml_files: list[Path] = field(default_factory=list)
    xml_papers: int = 0
    records: list = field(default_factory=list)  # PaperRecords to write as JSON Lines

    @property
    def size(self) -> int:
        return self.xml_papers + len(self.records)


def anthology_records(folder: Path) -> tuple[list[Path], list]:
    from papers.anthology import looks_like_anthology, parse_anthology

    files = []
    records = []
    for path in sorted(folder.glob("*.xml")):
        with path.open("rb") as stream:
            if not looks_like_anthology(stream.read(4096)):
                continue
        files.append(path)
        records.extend(parse_anthology(path, path.name).papers)
    return files, records


_TERMS = [
    "language models",
    "large language models",
    "machine translation",
    "question answering",
    "named entity recognition",
    "sentiment analysis",
    "summarization",
    "dialogue systems",
    "parsing",
    "retrieval",
    "knowledge graphs",
    "speech recognition",
    "instruction tuning",
    "in-context learning",
    "chain-of-thought reasoning",
    "hallucination",
    "multilingual transfer",
    "low-resource languages",
    "evaluation metrics",
    "benchmarks",
    "code generation",
    "information extraction",
    "text classification",
    "semantic parsing",
    "coreference resolution",
    "commonsense reasoning",
    "fact verification",
    "bias and fairness",
    "interpretability",
    "prompting",
    "reinforcement learning from human feedback",
    "vision-language models",
    "data augmentation",
    "contrastive learning",
    "knowledge distillation",
    "parameter-efficient fine-tuning",
    "tokenization",
    "word embeddings",
    "neural networks",
    "transformers",
]
_VERBS = [
    "propose",
    "introduce",
    "present",
    "study",
    "analyse",
    "evaluate",
    "investigate",
    "revisit",
    "benchmark",
]
_NOUNS = [
    "method",
    "framework",
    "dataset",
    "model",
    "approach",
    "benchmark",
    "metric",
    "architecture",
    "pipeline",
    "objective",
    "corpus",
    "algorithm",
    "toolkit",
    "analysis",
]
_ADJECTIVES = [
    "robust",
    "efficient",
    "scalable",
    "simple",
    "novel",
    "unified",
    "multilingual",
    "interpretable",
    "adaptive",
    "hierarchical",
    "contrastive",
    "generative",
    "sparse",
    "cross-lingual",
    "zero-shot",
    "few-shot",
]
_FIRST = [
    "Ana",
    "Bo",
    "Chen",
    "Dana",
    "Eitan",
    "Fatima",
    "Gustavo",
    "Hiro",
    "Ines",
    "Jun",
    "Kofi",
    "Lena",
    "Mateo",
    "Nadia",
    "Oren",
    "Priya",
    "Qiang",
    "Rosa",
    "Sven",
    "Tariq",
    "Uma",
    "Viktor",
    "Wei",
    "Xin",
    "Yara",
    "Zoltan",
    "Akira",
    "Beatriz",
    "Chloe",
    "Dmitri",
]
_LAST = [
    "Abe",
    "Brown",
    "Costa",
    "Dubois",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Huang",
    "Ivanova",
    "Jensen",
    "Kim",
    "Li",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Patel",
    "Quinn",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Usman",
    "Varga",
    "Wang",
    "Xu",
    "Yilmaz",
    "Zhang",
    "Liu",
    "Singh",
    "Chen",
    "Sato",
]
_VENUES = [(acronym, year) for year in range(2020, 2026) for acronym in ("ACL", "EMNLP", "NAACL")]


def synthetic_records(count: int, seed: int) -> list:
    """`count` papers of NLP-flavoured text from a fixed seed (the same every run)."""
    from papers.records import AuthorRecord, PaperRecord

    rng = random.Random(seed)
    authors = [f"{first} {last}" for first in _FIRST for last in _LAST]
    records = []
    for index in range(count):
        topic, other = rng.sample(_TERMS, 2)
        adjective, noun = rng.choice(_ADJECTIVES), rng.choice(_NOUNS)
        title = rng.choice(
            [
                f"{adjective.capitalize()} {topic} with {other}",
                f"Towards {adjective} {topic}: a {noun} for {other}",
                f"On the {noun} of {topic} for {other}",
                f"{topic.capitalize()} meets {other}",
            ]
        )
        sentences = [
            f"{topic.capitalize()} is central to many applications of natural language processing.",
            f"We {rng.choice(_VERBS)} a {adjective} {noun} that combines {topic} and {other}.",
            f"Experiments on {rng.randint(2, 12)} {rng.choice(_TERMS)} datasets show gains of "
            f"{rng.randint(1, 15)}.{rng.randint(0, 9)} points over strong baselines.",
            f"Unlike prior work on {rng.choice(_TERMS)}, our {noun} needs no {rng.choice(_TERMS)}.",
            f"We release our {rng.choice(_NOUNS)} and code (id {seed}-{index}).",
        ]
        rng.shuffle(sentences)
        acronym, year = _VENUES[index % len(_VENUES)]
        records.append(
            PaperRecord(
                abstract=" ".join(sentences),
                venue=f"{acronym} {year}",
                title=title,
                authors=[AuthorRecord(name) for name in rng.sample(authors, rng.randint(1, 6))],
                external_id=f"synthetic-{seed}-{index}",
            )
        )
    return records


_WORD = re.compile(r"[A-Za-z][a-z]{3,}")


def scale_records(originals: list, target: int, seed: int) -> list:
    """Copies of the originals with perturbed titles and abstracts, until `target` papers in all.

    Each copy replaces a few words of its title and abstract with words drawn from the corpus
    itself (so term frequencies stay realistic) and keeps venue and authors; titles at a venue
    and abstracts stay unique, so the loader sees every copy as a new paper.
    """
    if target <= len(originals) or not originals:
        return []
    rng = random.Random(seed)
    copier = _Copier(originals, rng)
    copies = []
    order = list(range(len(originals)))
    generation = 0
    while len(originals) + len(copies) < target:
        generation += 1
        rng.shuffle(order)
        for index in order[: target - len(originals) - len(copies)]:
            copies.append(copier.copy(originals[index], index, generation))
    return copies


class _Copier:
    """Perturbed copies of records whose titles (at their venue) and abstracts stay unique."""

    def __init__(self, originals: list, rng: random.Random):
        from papers.text import normalise_abstract, normalise_title

        self.rng = rng
        self.normalise_title, self.normalise_abstract = normalise_title, normalise_abstract
        self.vocabulary = [
            word
            for word, _ in Counter(
                word.lower()
                for record in originals[:5000]
                for word in _WORD.findall(record.title + " " + record.abstract)
            ).most_common(5000)
        ]
        self.titles = {(record.venue, normalise_title(record.title)) for record in originals}
        self.abstracts = {
            normalise_abstract(record.abstract) for record in originals if record.abstract
        }

    def perturb(self, text: str, share: float) -> str:
        words = text.split(" ")
        if not words or not text:
            return text
        for _ in range(max(1, round(len(words) * share))):
            position = self.rng.randrange(len(words))
            words[position] = self.rng.choice(self.vocabulary)
        return " ".join(words)

    def copy(self, original, index: int, generation: int):
        """A copy of ``original`` unlike any record so far (its title marked as a copy when six
        perturbations all collide)."""
        for attempt in range(6):
            title = self.perturb(original.title, 0.12) if original.title else ""
            abstract = self.perturb(original.abstract, 0.06) if original.abstract else ""
            if attempt == 5:
                title = f"{title} (copy {generation})"
            title_key = (original.venue, self.normalise_title(title))
            abstract_key = self.normalise_abstract(abstract)
            if title_key not in self.titles and (
                not abstract or abstract_key not in self.abstracts
            ):
                break
        self.titles.add(title_key)
        if abstract:
            self.abstracts.add(abstract_key)
        return replace(
            original,
            title=title,
            abstract=abstract,
            external_id=f"{original.external_id or 'paper'}.copy{generation}-{index}",
            line=None,
        )


def write_jsonl(records: list, folder: Path, per_file: int = 20000) -> list[Path]:
    """Records as JSON Lines exports (the format export_papers writes and load_papers reads)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for start in range(0, len(records), per_file):
        path = folder / f"corpus-{start // per_file:03d}.jsonl"
        with path.open("w", encoding="utf-8") as stream:
            for record in records[start : start + per_file]:
                year = re.search(r"\b(\d{4})\b", record.venue)
                entry = {
                    "external_id": record.external_id or None,
                    "title": record.title or None,
                    "abstract": record.abstract,
                    "venue": record.venue,
                    "year": int(year.group(1)) if year else None,
                    "topics": list(record.topics),
                    "authors": [author.name for author in record.authors],
                    "related_titles": [],
                }
                stream.write(json.dumps(entry, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def build_corpus(papers: int, anthology: Path | None, seed: int) -> Corpus:
    if anthology is not None:
        files, originals = anthology_records(anthology)
        if not originals:
            raise SystemExit(f"bench: no Anthology XML in {anthology}")
        if papers >= len(originals):
            return Corpus(
                description=(
                    f"ACL Anthology XML ({len(files)} files, {len(originals):,} papers) "
                    f"+ {papers - len(originals):,} perturbed copies"
                ),
                xml_files=files,
                xml_papers=len(originals),
                records=scale_records(originals, papers, seed),
            )
        rng = random.Random(seed)
        return Corpus(
            description=f"{papers:,} papers sampled from the ACL Anthology XML",
            records=rng.sample(originals, papers),
        )
    base = min(papers, 20000)
    originals = synthetic_records(base, seed)
    return Corpus(
        description=(
            f"synthetic (seed {seed}): {base:,} generated papers"
            + (f" + {papers - base:,} perturbed copies" if papers > base else "")
        ),
        records=originals + scale_records(originals, papers, seed),
    )
