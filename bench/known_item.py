"""Known-item search, MRR@10 (bench/quality.py --only search): random titled papers, each
searched for with 2–4 words of its own title through the site's search; the reciprocal rank of
the paper in the first ten results (0 when absent), averaged."""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

from bench.environment import log  # puts the project on sys.path
from papers.title_match import TITLE_STOPWORDS

KNOWN_ITEM_SEED = 20240607
KNOWN_ITEM_QUERIES = 200

# Words that make poor known-item queries on their own: those the ranking leaves out of a
# title's length (one list, papers/relevance.py).
STOPWORDS = set(TITLE_STOPWORDS)
_TITLE_WORD = re.compile(r"[\w][\w'’\-]*", re.UNICODE)


def title_query(title: str, rng: random.Random) -> str:
    """2–4 words of the title, in title order, preferring words that are not stopwords."""
    words = [word.strip("-'’") for word in _TITLE_WORD.findall(title)]
    words = [word for word in words if word]
    content = [index for index, word in enumerate(words) if word.lower() not in STOPWORDS]
    pool = content if len(content) >= 2 else list(range(len(words)))
    count = min(len(pool), rng.randint(2, 4))
    chosen = sorted(rng.sample(pool, count))
    return " ".join(words[index] for index in chosen)


@dataclass
class KnownItemResult:
    queries: int = 0
    mrr: float = 0.0
    found_in_10: int = 0
    pages_mrr: float | None = None  # the same queries through ranked_ids (what the pages use)
    examples: list[tuple[str, str, int | None]] = field(default_factory=list)


def known_item_mrr(
    count: int = KNOWN_ITEM_QUERIES, seed: int = KNOWN_ITEM_SEED, depth: int = 10
) -> KnownItemResult:
    from papers.models import Paper

    if not hasattr(Paper.objects, "search"):
        raise SystemExit("quality: Paper.objects.search does not exist yet")
    rng = random.Random(seed)
    ids = list(
        Paper.objects.exclude(title="")
        .filter(external_id__isnull=False)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    chosen = rng.sample(ids, min(count, len(ids)))
    titles = dict(Paper.objects.filter(pk__in=chosen).values_list("pk", "title"))
    result = KnownItemResult(queries=len(chosen))
    total = pages_total = 0.0
    pages = hasattr(Paper.objects.all(), "ranked_ids")
    started = time.perf_counter()
    for pk in chosen:
        query = title_query(titles[pk], rng)
        found = list(Paper.objects.search(query).values_list("pk", flat=True)[:depth])
        rank = found.index(pk) + 1 if pk in found else None
        if rank:
            total += 1 / rank
            result.found_in_10 += 1
        if pages:
            shown = [row[0] for row in Paper.objects.all().ranked_ids(query, limit=depth)]
            if pk in shown:
                pages_total += 1 / (shown.index(pk) + 1)
        if len(result.examples) < 10:
            result.examples.append((query, titles[pk], rank))
    result.mrr = total / len(chosen) if chosen else 0.0
    if pages and chosen:
        result.pages_mrr = pages_total / len(chosen)
    log(f"known-item search: {len(chosen)} queries in {time.perf_counter() - started:.0f} s")
    return result


def known_item_lines(known: KnownItemResult) -> list[str]:
    """The figure and ten example queries, as the report's markdown lines."""
    return [
        f"- Known-item search, MRR@10 over {known.queries} random titled papers with 2–4 "
        f"title words (seed {KNOWN_ITEM_SEED}): **{known.mrr:.3f}**, the paper in the "
        f"first ten for {known.found_in_10} (reference: BM25, title ×3, about 0.86)"
        + (
            f"; through the pages' capped ranking (ranked_ids): {known.pages_mrr:.3f}"
            if known.pages_mrr is not None
            else ""
        ),
        "",
        "Examples (query → rank):",
        "",
        *[
            f"- `{query}` → {rank or 'not in top 10'} ({title})"
            for query, title, rank in known.examples
        ],
    ]
