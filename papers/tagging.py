"""The topic model: which of ACL's submission areas a paper belongs to, fitted on the collection.

The area topics (``AREA_TRACKS``: Machine Translation, Information Extraction, Summarization …)
are the main subject of a paper, so they are decided by one multi-class model over the areas
plus "none of them", not by a word anywhere in an abstract: a paper that evaluates on question
answering is not a question answering paper. Their rules make no links (papers/topic_rules.py):
they are this model's weak supervision, and its links are theirs.

``tag_papers()`` (called by the loader before the rules) fits the model on the whole collection
and writes its links with one COPY and one statement:

- Features (papers/topic_features.py): the distinct lexemes of each paper's title and of its
  title and abstract, read from the stored search vectors (the search configuration's stems,
  stop words left out), the title's marked apart so that a word in the title weighs more;
  words in fewer than ``MIN_DOCUMENTS`` papers or in more than half are dropped.
- Labels: the track labels of ``fixtures/topic_training.csv`` (ACL 2020, the part kept for
  training) and the curator and dump links to area topics, weighted ``SUPERVISED_WEIGHT``; then
  weak labels from the area topics' rules (and title rules) over the title alone,
  approximated on the lexemes (a phrase matches when all its words occur, a ``-term``
  excludes): a paper whose title matches exactly one area's rule is labelled that area, a
  paper whose title matches none "none". The
  title names a paper's subject; an abstract names its datasets and baselines too (rules over
  title and abstract as weak labels gave IE precision 0.49 and Sentiment recall 0.40 in
  cross-validation on the training labels, over titles 0.71 and 0.80).
- Model: multinomial naive Bayes (fitted in one sparse product, so refitting at every load is
  cheap). A paper gets its most probable area, and any other area within ``MARGIN`` (natural
  log) of it, unless "none" is the most probable. The link's confidence is the area's
  probability calibrated by ``TEMPERATURE`` (naive Bayes counts every word as independent
  evidence, so its own probabilities are all but 0 or 1; divided by 10, its log-probabilities
  give the lowest log loss on the training labels in cross-validation).
- Areas whose words other areas' papers use as tools or test beds (``TITLE_OR_CONFIDENCE``:
  information extraction — a sequence labeller tested on NER, a clinical concept extractor —
  and question answering — QA as the format of an evaluation, a QA dataset presented as a
  resource) need more than an abstract's words: a link to one of them is kept only when its
  rule matches the paper's title or its confidence reaches the floor (cross-validated on the
  training labels, precision 0.71 to 0.75 and 0.80 to 0.83, recall unchanged at 0.88 and 0.83).
- ``TITLE_LINKS`` (information extraction): a title its rule matches links the paper to it
  whatever the margin unless "none" is most probable (cross-validated recall 0.88 to 0.90).
- ``NAMED_IN_TITLE``: a title naming an area outright ("machine translation") links the paper
  to it whatever the model says.

Model links never override a dump, rule or curator link and never re-add a topic a curator
removed (RemovedTopic). A collection of fewer than ``MIN_PAPERS`` papers is too small to learn
from: there the area topics' rules link like any other rule and the model makes no links.
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

from .counts import refresh_counts
from .denormalise import refresh_topic_names
from .models import PaperTopic, Topic
from .staging import collection_size
from .tables import sql
from .topic_features import collection_features, title_matches

# ACL 2020's submission tracks and the slug of the topic that is each one's counterpart.
AREA_TRACKS = {
    "Machine Translation and Multilinguality": "machine-translation",
    "Information Extraction": "information-extraction",
    "Summarization": "summarization",
    "Dialogue and Interactive Systems": "dialogue-and-interactive-systems",
    "Question Answering": "question-answering",
    "Sentiment Analysis, Stylistic Analysis, and Argument Mining": (
        "sentiment-analysis-and-argument-mining"
    ),
    "Language Generation": "natural-language-generation",
    "Speech and Multimodality": "speech-and-audio",
    "Syntax: Tagging, Chunking, and Parsing": "syntax-and-parsing",
    "Semantics: Sentence-level Semantics, Textual Inference and Other areas": "semantics",
    "Semantics: Lexical Semantics": "semantics",
    "Phonology, Morphology and Word Segmentation": "morphology-and-phonology",
    "Discourse and Pragmatics": "discourse-and-pragmatics",
    "Resources and Evaluation": "datasets-and-annotation",
    "Interpretability and Analysis of Models for NLP": "interpretability",
    "Ethics and NLP": "ethics-in-nlp",
    "Language Grounding to Vision, Robotics and Beyond": "vision-language-and-multimodality",
    "Computational Social Science and Social Media": "computational-social-science-and-culture",
    "Information Retrieval and Text Mining": "information-retrieval-and-text-mining",
    "Linguistic Theories, Cognitive Modeling and Psycholinguistics": (
        "cognitive-modeling-and-psycholinguistics"
    ),
}
AREA_SLUGS = frozenset(AREA_TRACKS.values())

TRAINING_FILE = Path(settings.FIXTURES_DIR) / "topic_training.csv"
HELD_OUT_TENTHS = 3
SUPERVISED_WEIGHT = 10.0
SMOOTHING = 0.3
MARGIN = 0.5
MIN_PAPERS = 1000
TEMPERATURE = 10.0
TITLE_OR_CONFIDENCE = {"information-extraction": 0.25, "question-answering": 0.25}
TITLE_LINKS = frozenset({"information-extraction"})
# The words by which a title names an area outright: such a title links the paper to it
# whatever the model says ("Gender Bias in Machine Translation" had no Machine Translation;
# 63 of the 855 titles of the folder saying "machine translation" had none, 159 of 774 saying
# "question answering"; 33 of 422 saying "sentiment", 23 of 176 saying "QA"). Narrower than
# the areas' rules, whose words a title also uses for a tool or a test bed (all of a rule as
# title links: Sentiment precision 0.70 -> 0.54 in cross-validation on the tuning labels).
NAMED_IN_TITLE = {
    "machine-translation": '"machine translation"',
    "summarization": "summarization or summarisation",
    "question-answering": '"question answering" or qa',
    "sentiment-analysis-and-argument-mining": (
        'sentiment or "argument mining" or "opinion mining"'
    ),
    "ethics-in-nlp": "ethics or ethical",
    "datasets-and-annotation": "dataset or corpus or corpora or treebank or annotation",
}

MODEL = PaperTopic.Source.MODEL.value

# The chosen links are copied into a temporary table (one COPY) the planner has statistics for.
_CHOSEN_TABLE_SQL = """
CREATE TEMPORARY TABLE topic_model_chosen (
    paper_id bigint NOT NULL, topic_id bigint NOT NULL, confidence float8 NOT NULL
) ON COMMIT DROP
"""

# Then one statement: the chosen links (minus curator removals) upserted as model links — an
# existing dump or curator link wins; a rule's, from the time the collection was too small for
# the model, becomes the model's (the rules, run after the model, take those away: the first
# load past MIN_PAPERS left such papers with neither, a reviewer) — and the model links no
# longer chosen deleted. The
# stale links are found by EXCEPT (hashed) rather than NOT EXISTS, which the planner runs as a
# nested loop when the link table's statistics predate the load (seconds become minutes).
_WRITE_LINKS_SQL = """
WITH chosen AS (
    SELECT c.paper_id, c.topic_id, c.confidence
    FROM topic_model_chosen c
    WHERE NOT EXISTS (
        SELECT 1 FROM {removed_topic} r WHERE r.paper_id = c.paper_id AND r.topic_id = c.topic_id
    )
),
deleted AS (
    DELETE FROM {paper_topic} pt
    WHERE (pt.paper_id, pt.topic_id) IN (
        SELECT paper_id, topic_id FROM {paper_topic} WHERE source = '{model}'
        EXCEPT SELECT paper_id, topic_id FROM chosen
    )
    RETURNING pt.paper_id
),
upserted AS (
    INSERT INTO {paper_topic} AS pt (paper_id, topic_id, source, confidence)
    SELECT paper_id, topic_id, '{model}', confidence FROM chosen
    ON CONFLICT (paper_id, topic_id)
    DO UPDATE SET source = '{model}', confidence = EXCLUDED.confidence
    WHERE pt.source = '{rule}'
       OR pt.source = '{model}' AND pt.confidence IS DISTINCT FROM EXCLUDED.confidence
    RETURNING pt.paper_id, xmax = 0 AS inserted
)
SELECT ARRAY(SELECT paper_id FROM deleted), ARRAY(SELECT paper_id FROM upserted WHERE inserted)
"""


@dataclass
class TaggingRun:
    """What a run of the topic model did."""

    papers: int = 0
    labelled: int = 0
    fitted: bool = False
    model_links: int = 0
    added: int = 0
    removed: int = 0
    changed: set[int] = field(default_factory=set)  # the papers whose model links changed

    def __str__(self) -> str:
        if not self.fitted:
            return (
                f"topic model not fitted: {self.papers} papers (at least {MIN_PAPERS} needed), "
                f"{self.removed} model links removed"
            )
        return (
            f"topic model fitted on {self.labelled} labelled papers of {self.papers}: "
            f"{self.model_links} model links ({self.added} added, {self.removed} removed)"
        )


def areas_by_model() -> bool:
    """True when the collection is large enough for the model to decide the area topics."""
    return collection_size() >= MIN_PAPERS


def held_out(anthology_id: str) -> bool:
    """True for the papers whose track labels are kept out of training (a fixed 30%)."""
    digest = int(hashlib.sha1(anthology_id.encode("utf-8")).hexdigest(), 16)
    return digest % 10 < HELD_OUT_TENTHS


def read_tracks(path: Path) -> dict[str, str]:
    """Anthology ID -> track, from a CSV with those columns (lines starting with # skipped)."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        missing = {"anthology_id", "track"} - set(rows.fieldnames or ())
        if missing:  # checked here: a file of its header alone gives no row to fail on
            raise KeyError(min(missing))
        return {row["anthology_id"]: row["track"] for row in rows}


def training_labels(areas: list[Topic], ids, external_ids, weak, tracks):
    """Each paper's class (an index into areas, len(areas) for "none", -1 unlabelled) and weight;
    ``weak`` is title_matches()."""
    import numpy as np

    none = len(areas)
    index = {topic.slug: number for number, topic in enumerate(areas)}
    matched = weak.sum(axis=1)
    labels = np.full(len(ids), -1)
    labels[matched == 1] = weak[matched == 1].argmax(axis=1)
    labels[matched == 0] = none
    weights = np.ones(len(ids))
    row_of_external = {external: row for row, external in enumerate(external_ids) if external}
    for anthology_id, track in tracks.items():
        row = row_of_external.get(anthology_id)
        if row is not None:
            labels[row] = index.get(AREA_TRACKS.get(track, ""), none)
            weights[row] = SUPERVISED_WEIGHT
    row_of_id = {paper_id: row for row, paper_id in enumerate(ids)}
    given = PaperTopic.objects.filter(
        topic__in=areas, source__in=[PaperTopic.Source.CURATOR, PaperTopic.Source.DUMP]
    ).values_list("paper_id", "topic__slug")
    for paper_id, slug in given.order_by("paper_id", "topic__slug"):
        labels[row_of_id[paper_id]] = index[slug]
        weights[row_of_id[paper_id]] = SUPERVISED_WEIGHT
    return labels, weights


def fit_areas(matrix, labels, weights, classes: int):
    """Papers × classes log-probabilities of a naive Bayes model fitted on the labelled papers."""
    import numpy as np
    from sklearn.naive_bayes import MultinomialNB

    known = labels >= 0
    model = MultinomialNB(alpha=SMOOTHING)
    model.fit(matrix[known], labels[known], sample_weight=weights[known])
    log_probability = np.full((matrix.shape[0], classes), -np.inf)
    log_probability[:, model.classes_] = model.predict_log_proba(matrix)
    return log_probability


def choose_areas(log_probability, areas: list[Topic], weak, named):
    """(rows, areas, confidences): each paper's best class, those within MARGIN of it, its
    TITLE_LINKS and the areas its title names, less those TITLE_OR_CONFIDENCE drops; "none"
    last, ``weak`` title_matches(), ``named`` named_in_titles()."""
    import numpy as np
    from scipy.special import log_softmax

    best = log_probability.max(axis=1, keepdims=True)
    chosen = log_probability >= best - MARGIN
    of_an_area = log_probability[:, [len(areas)]] < best
    chosen[:, : len(areas)] |= weak & [topic.slug in TITLE_LINKS for topic in areas] & of_an_area
    chosen[:, : len(areas)] |= named
    chosen[:, len(areas)] = False
    confidence = np.exp(log_softmax(log_probability / TEMPERATURE, axis=1))
    floors = np.array([TITLE_OR_CONFIDENCE.get(topic.slug, 0.0) for topic in areas])
    chosen[:, : len(areas)] &= weak | (confidence[:, : len(areas)] >= floors)
    rows, columns = np.nonzero(chosen)
    return rows, columns, confidence[rows, columns]


def named_in_titles(areas: list[Topic], matrix, vocabulary):
    """A papers × areas boolean array: which areas each paper's title names (NAMED_IN_TITLE)."""
    rules = [NAMED_IN_TITLE.get(topic.slug, "") for topic in areas]
    return title_matches(areas, matrix, vocabulary, rules)


def write_model_links(paper_ids: list[int], topic_ids: list[int], confidences: list[float]):
    """Replace the model links with these; returns (paper ids deleted, paper ids inserted)."""
    with transaction.atomic(), connection.wrap_database_errors, connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS pg_temp.topic_model_chosen")
        cursor.execute(_CHOSEN_TABLE_SQL)
        with cursor.cursor.copy("COPY topic_model_chosen FROM STDIN") as copy:
            for row in zip(paper_ids, topic_ids, confidences, strict=True):
                copy.write_row(row)
        cursor.execute("ANALYZE topic_model_chosen")
        cursor.execute(sql(_WRITE_LINKS_SQL, model=MODEL, rule=PaperTopic.Source.RULE.value))
        return cursor.fetchone()


def tag_papers(training_file: Path | None = TRAINING_FILE) -> TaggingRun:
    """Fit the area model on the collection and rewrite its links (see the module docstring)."""
    run = TaggingRun(papers=collection_size())
    areas = list(Topic.objects.filter(slug__in=AREA_SLUGS).order_by("slug"))
    chosen = ([], [], [])
    if areas and areas_by_model():
        ids, external_ids, matrix, vocabulary = collection_features()
        tracks = read_tracks(training_file) if training_file and training_file.exists() else {}
        weak = title_matches(areas, matrix, vocabulary)
        labels, weights = training_labels(areas, ids, external_ids, weak, tracks)
        run.labelled = int((labels >= 0).sum())
        run.fitted = len(set(labels[labels >= 0].tolist())) >= 2
    if run.fitted:
        log_probability = fit_areas(matrix, labels, weights, len(areas) + 1)
        named = named_in_titles(areas, matrix, vocabulary)
        rows, columns, confidences = choose_areas(log_probability, areas, weak, named)
        chosen = (
            [ids[row] for row in rows],
            [areas[column].pk for column in columns],
            [round(float(value), 4) for value in confidences],
        )
    with transaction.atomic():
        deleted, inserted = write_model_links(*chosen)
        if deleted or inserted:
            refresh_topic_names(set(deleted) | set(inserted))
            refresh_counts(set(deleted) | set(inserted))
        run.added, run.removed = len(inserted), len(deleted)
        run.changed = set(deleted) | set(inserted)
        run.model_links = PaperTopic.objects.filter(source=MODEL).count()
    return run
