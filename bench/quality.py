"""Quality at scale, with the ACL Anthology loaded: similar papers and known-item search.

    python bench/quality.py [--anthology DIR] [--tracks CSV] [--database papers_quality]

- Similar papers, P@5 same-track: for every paper of ../shared/data/miniconf/tracks.csv
  (ACL and EMNLP 2020 main papers with their conference track), the site's similar papers
  (Paper.objects.similar_to) among the labelled papers themselves; the share of the first five
  that share its track, averaged. References on these papers: TF-IDF 0.43,
  all-MiniLM-L6-v2 0.47.
- Similar papers on narrow subjects (bench/narrow_subjects.py): for papers whose title names
  one of twenty narrow subjects, the share of their first five similar papers naming it, and
  the same for the subject typed as a text.
- Known-item search, MRR@10: 200 random titled papers (fixed seed), each searched for with 2–4
  words of its own title through the site's search (Paper.objects.search); the reciprocal
  rank of the paper in the first ten results (0 when absent), averaged. Reference: BM25 with
  the title counted three times, about 0.86.

The Anthology is loaded into a database of its own (default papers_quality, on the server of
DATABASE_URL or the embedded one), once: later runs reuse it unless --reload.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import inspect
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_database import (
    bench_database_url,
    database_exists,
    migrate,
    recreate_database,
    setup_django,
)
from bench.crossfit import crossfitted_ranking
from bench.environment import DEFAULT_ANTHOLOGY, PROJECT_DIR, log  # puts site/ on sys.path
from bench.known_item import known_item_lines, known_item_mrr
from bench.narrow_subjects import narrow_lines
from bench.run import load_corpus

DEFAULT_TRACKS = PROJECT_DIR.parent / "shared" / "data" / "miniconf" / "tracks.csv"
DEFAULT_DATABASE = "papers_quality"
SIMILAR_POOL = 2000  # similar papers asked for, when the method ranks the whole collection


# --- the database ---------------------------------------------------------------------------


def prepare(database: str, anthology: Path, reload: bool) -> None:
    """The Anthology loaded into `database` (created and loaded when missing or --reload)."""
    url = bench_database_url(database)
    fresh = reload or not database_exists(url)
    if fresh:
        log(f"creating database {database}")
        recreate_database(url)
    setup_django(url)
    migrate()
    from papers.models import Paper

    if fresh or not Paper.objects.filter(external_id__isnull=False).exists():
        files = sorted(anthology.glob("*.xml"))
        if not files:
            raise SystemExit(f"quality: no Anthology XML in {anthology}")
        log(f"loading {len(files)} Anthology files into {database}")
        started = time.perf_counter()
        summary = load_corpus(files)
        log(f"  {summary.describe()} in {time.perf_counter() - started:.0f} s")
    log(f"{database}: {Paper.objects.count():,} papers")
    from papers.similarity import refresh_embeddings

    refreshed = refresh_embeddings()  # a no-op when the loader already fitted this collection
    if not refreshed["skipped"]:
        log(
            f"  similar papers fitted on {refreshed['papers']:,} papers in {refreshed['seconds']} s"
        )


# --- similar papers: P@5 same-track ---------------------------------------------------------


def read_tracks(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8", newline="") as stream:
        return {
            row["anthology_id"].strip(): row["track"].strip()
            for row in csv.DictReader(stream)
            if row.get("anthology_id") and row.get("track")
        }


def similar_among(paper, labelled_ids: set[int], k: int) -> list[int]:
    """The ids of the k papers most similar to `paper`, among `labelled_ids` only.

    Uses Paper.objects.similar_to: passes the candidate set when the method takes one, else
    filters its queryset, else (a sliced queryset or a list) keeps the labelled ones of what
    it returns.
    """
    from papers.models import Paper

    similar_to = Paper.objects.similar_to
    parameters = inspect.signature(similar_to).parameters
    arguments = {}
    for name in ("among", "candidates", "within", "queryset"):
        if name in parameters:
            arguments[name] = Paper.objects.filter(pk__in=labelled_ids)
            break
    else:
        if "limit" in parameters:
            # Rank the whole candidate pool, then keep the labelled papers in their order.
            arguments["limit"] = SIMILAR_POOL
    result = similar_to(paper, **arguments)
    if hasattr(result, "filter"):
        with contextlib.suppress(AttributeError, TypeError, AssertionError):
            result = result.filter(pk__in=labelled_ids)  # unless sliced: then filtered below
    ids = []
    for item in result[: k * 50] if hasattr(result, "query") else result:
        pk = item if isinstance(item, int) else getattr(item, "pk", None)
        if pk is None or pk == paper.pk or pk not in labelled_ids or pk in ids:
            continue
        ids.append(pk)
        if len(ids) == k:
            break
    return ids


@dataclass
class SimilarResult:
    labelled: int = 0
    found: int = 0
    precision: float = 0.0
    short: int = 0  # papers with fewer than k similar papers returned
    per_track: dict[str, float] = field(default_factory=dict)


def similar_precision(tracks_path: Path, k: int = 5) -> SimilarResult:
    from papers.models import Paper

    if not hasattr(Paper.objects, "similar_to"):
        raise SystemExit("quality: Paper.objects.similar_to does not exist yet")
    tracks = read_tracks(tracks_path)
    papers = {p.external_id: p for p in Paper.objects.filter(external_id__in=list(tracks))}
    track_of = {paper.pk: tracks[external_id] for external_id, paper in papers.items()}
    labelled_ids = set(track_of)
    result = SimilarResult(labelled=len(tracks), found=len(papers))
    by_track: dict[str, list[float]] = {}
    started = time.perf_counter()
    for done, paper in enumerate(papers.values(), start=1):
        if done % 250 == 0:
            log(f"  similar papers: {done:,} of {len(papers):,}")
        ids = similar_among(paper, labelled_ids, k)
        if len(ids) < k:
            result.short += 1
        hits = sum(1 for pk in ids if track_of.get(pk) == track_of[paper.pk])
        by_track.setdefault(track_of[paper.pk], []).append(hits / k)
    scores = [score for values in by_track.values() for score in values]
    result.precision = sum(scores) / len(scores) if scores else 0.0
    result.per_track = {track: sum(v) / len(v) for track, v in sorted(by_track.items())}
    log(f"similar papers: {len(scores)} queries in {time.perf_counter() - started:.0f} s")
    return result


# --- similar papers in the app's own setting: P@5 and P@10 through the API ----------------

SPLIT_SEED = 7  # the tuning half the model's settings were chosen on, and the held-out half
APP_DEPTH = 100  # similar papers asked of the API per labelled paper


@dataclass
class AppResult:
    queries: list[int]
    tuning: set[int]
    ranked: dict[int, list[int]]  # each labelled paper's labelled similar papers, in order
    track_of: dict[int, str]
    reference: dict[int, list[int]] = field(default_factory=dict)  # TF-IDF cosine, same setting
    crossfitted: dict[int, list[int]] = field(default_factory=dict)  # bench/crossfit.py
    seconds: float = 0.0

    def precision(self, ranked: dict[int, list[int]], queries, k: int) -> float:
        """Mean share of the first k labelled papers sharing the track; missing slots miss."""
        shares = [
            sum(self.track_of[other] == self.track_of[pk] for other in ranked[pk][:k]) / k
            for pk in queries
        ]
        return sum(shares) / len(shares) if shares else 0.0


def _labelled(tracks_path: Path) -> tuple[list[int], dict[int, str]]:
    from papers.models import Paper

    tracks = read_tracks(tracks_path)
    found = dict(
        Paper.objects.filter(external_id__in=list(tracks)).values_list("external_id", "pk")
    )
    ordered = [found[external_id] for external_id in tracks if external_id in found]
    return ordered, {found[external_id]: tracks[external_id] for external_id in found}


def similar_in_app(tracks_path: Path) -> AppResult:
    """Each labelled paper's /api/papers/<id>/similar/?limit=100, through Django's test client,
    with the labelled papers in the order the API gives them."""
    import numpy as np

    queries, track_of = _labelled(tracks_path)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(queries))
    tuning = {queries[i] for i in order[: len(queries) // 2]}
    started = time.perf_counter()
    ranked = ask_similar_api(queries, track_of)
    seconds = time.perf_counter() - started
    log(f"similar papers in the app: {len(queries)} API calls in {seconds:.0f} s")
    result = AppResult(queries, tuning, ranked, track_of, seconds=seconds)
    result.reference = tfidf_in_collection(queries, track_of)
    result.crossfitted = crossfitted_ranking(tuning, lambda: ask_similar_api(queries, track_of))
    return result


def ask_similar_api(queries: list[int], track_of: dict[int, str]) -> dict[int, list[int]]:
    """Each paper's labelled papers among its APP_DEPTH similar papers, in the API's order."""
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    ranked = {}
    for pk in queries:
        response = client.get(f"/api/papers/{pk}/similar/", {"limit": APP_DEPTH})
        if response.status_code != 200:
            raise SystemExit(f"quality: the similar API answered {response.status_code} for {pk}")
        ranked[pk] = [item["id"] for item in response.json()["results"] if item["id"] in track_of]
    return ranked


def tfidf_in_collection(queries: list[int], track_of: dict[int, str]) -> dict[int, list[int]]:
    """The reference in the same setting: TF-IDF cosine (title and abstract, sublinear tf)
    over the whole collection, each labelled paper's labelled papers among its 100 nearest."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    from papers.models import Paper

    rows = list(Paper.objects.order_by("pk").values_list("pk", "title", "abstract"))
    ids = np.asarray([row[0] for row in rows])
    vectorizer = TfidfVectorizer(stop_words="english", sublinear_tf=True, min_df=2, max_df=0.5)
    matrix = vectorizer.fit_transform(f"{row[1]}. {row[2]}" for row in rows)
    position = {pk: row for row, pk in enumerate(ids.tolist())}
    ranked = {}
    for start in range(0, len(queries), 200):
        chunk = queries[start : start + 200]
        scores = (matrix[[position[pk] for pk in chunk]] @ matrix.T).toarray()
        for row, pk in enumerate(chunk):
            scores[row, position[pk]] = -np.inf
            best = np.argsort(-scores[row], kind="stable")[:APP_DEPTH]
            ranked[pk] = [int(other) for other in ids[best] if int(other) in track_of]
    return ranked


def outside_topic_training(queries: list[int]) -> list[int]:
    """The labelled papers whose track the area-topic model never trained on (papers/tagging.py
    trains on fixtures/topic_training.csv: on the others, a shared area topic repeats the label)."""
    from papers.models import Paper
    from papers.tagging import TRAINING_FILE, read_tracks

    trained = set(read_tracks(TRAINING_FILE)) if TRAINING_FILE.exists() else set()
    external = dict(Paper.objects.filter(pk__in=queries).values_list("pk", "external_id"))
    return [pk for pk in queries if external.get(pk) not in trained]


def app_lines(result: AppResult) -> list[str]:
    held_out = [pk for pk in result.queries if pk not in result.tuning]
    tuning = [pk for pk in result.queries if pk in result.tuning]
    untrained = outside_topic_training(result.queries)
    lines = [
        f"- Similar papers in the app (the whole collection loaded; each labelled paper's first "
        f"labelled papers among its {APP_DEPTH} similar papers from the API; missing slots "
        "miss), P@5 / P@10 same-track:",
        "",
        "  | papers | similar API | similar API, cross-fitted areas | TF-IDF cosine, same "
        "setting |",
        "  |---|---|---|---|",
    ]
    for name, queries in (
        (f"all {len(result.queries)}", result.queries),
        (f"tuning half ({len(tuning)})", tuning),
        (f"held-out half ({len(held_out)})", held_out),
        (f"outside the topic model's training ({len(untrained)})", untrained),
    ):
        cells = [
            " / ".join(f"{result.precision(ranked, queries, k):.3f}" for k in (5, 10))
            if ranked
            else "not run"
            for ranked in (result.ranked, result.crossfitted, result.reference)
        ]
        lines.append(f"  | {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "  The area topics (a shared area adds to the score) come from a model trained on "
        "fixtures/topic_training.csv, part of these labels, so that the first column flatters "
        "the papers it trained on. The cross-fitted column is the honest figure: each "
        "trained-on paper's areas from a model trained without its half of the labels "
        "(bench/crossfit.py), as a paper of another conference gets them.",
        "",
        f"  API time: {1000 * result.seconds / max(1, len(result.queries)):.0f} ms per paper. "
        "all-MiniLM-L6-v2: not run (sentence-transformers is not installable here; its "
        "reference on these labels ranked among themselves is in tracks.csv's README).",
    ]
    return lines


# --- the run --------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anthology", type=Path, default=DEFAULT_ANTHOLOGY)
    parser.add_argument("--tracks", type=Path, default=DEFAULT_TRACKS)
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--reload", action="store_true", help="drop and reload the database")
    parser.add_argument(
        "--only",
        choices=["similar", "similar-app", "narrow", "search"],
        help="one figure: similar (among the labelled papers), similar-app (through the API, "
        "the whole collection), narrow (similar papers on narrow subjects, through the API), "
        "search",
    )
    parser.add_argument("--output", type=Path, help="also write the figures (markdown) here")
    arguments = parser.parse_args(argv)

    prepare(arguments.database, arguments.anthology, arguments.reload)
    lines = ["# Quality at scale", ""]
    if arguments.only in (None, "similar"):
        similar = similar_precision(arguments.tracks)
        lines += [
            f"- Similar papers, P@5 same-track among the {similar.found:,} labelled papers "
            f"found (of {similar.labelled:,} in tracks.csv): **{similar.precision:.3f}** "
            "(references: TF-IDF 0.43, all-MiniLM-L6-v2 0.47)"
            + (
                f"; {similar.short} papers had fewer than 5 similar papers" if similar.short else ""
            ),
        ]
    if arguments.only in (None, "similar-app"):
        lines += app_lines(similar_in_app(arguments.tracks))
    if arguments.only in (None, "narrow"):
        lines += narrow_lines()
    if arguments.only in (None, "search"):
        lines += known_item_lines(known_item_mrr())
    report = "\n".join(lines) + "\n"
    print(report)
    if arguments.output:
        arguments.output.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
