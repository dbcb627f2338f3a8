"""Similar papers on a narrow subject, through the app's own API, with the collection loaded.

The track labels (bench/quality.py) are broad areas: a paper on sarcasm in tweets and one on
rumours in tweets share "Computational Social Science". A reader asks for the same subject: an
outside tester found a sarcasm paper's similar papers about tweets, none about sarcasm, and
"sarcasm detection in tweets" typed as a text finding no paper on sarcasm. Here, for each of a
list of narrow subjects:

- papers: each paper whose title names the subject (at most PER_SUBJECT of them), its first
  five similar papers from /api/papers/<id>/similar/; the share of them whose title or
  abstract names the subject;
- text: the subject typed as a text to POST /api/similar/; the share of its first five papers
  naming it.

The subjects come in two lists of ten: TUNING, the ones papers/rare_words.py's weights were
chosen on, and HELD_OUT, never looked at while choosing them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

PER_SUBJECT = 40
FIRST = 5
# (what a reader types, the pattern a title or abstract names it by)
TUNING = [
    ("sarcasm", r"\bsarcas"),
    ("irony", r"\biron(y|ic)"),
    ("humor", r"\bhumou?r"),
    ("sign language", r"\bsign languages?\b"),
    ("code-switching", r"\bcode[- ]?(switch|mix)"),
    ("metaphor", r"\bmetaphor"),
    ("hate speech", r"\bhate(ful)? speech"),
    ("stance detection", r"\bstance"),
    ("rumor detection", r"\brumou?r"),
    ("emoji", r"\bemoji"),
]
HELD_OUT = [
    ("poetry", r"\bpo(etry|em|etic)"),
    ("text simplification", r"\bsimplif"),
    ("coreference resolution", r"\bcoreferen"),
    ("spelling correction", r"\bspell"),
    ("morphology", r"\bmorpholog"),
    ("legal", r"\blegal\b"),
    ("clinical", r"\bclinical\b"),
    ("math word problems", r"\bmath(ematical)? word problems?"),
    ("table question answering", r"\btables?\b"),
    ("commonsense", r"\bcommon[- ]?sense"),
]


@dataclass
class SubjectShare:
    subject: str
    papers: int  # papers whose title names it, asked
    paper_share: float  # the share of their first five similar papers naming it
    text_share: float  # the share of the first five papers like the subject typed


def narrow_subjects(subjects: list[tuple[str, str]]) -> list[SubjectShare]:
    """Each subject's shares, through the API (Django's test client, in this process)."""
    from django.test import Client

    from papers.models import Paper

    client = Client(HTTP_HOST="localhost")
    papers = list(Paper.objects.order_by("pk").values_list("pk", "title", "abstract"))
    titles = {pk: title for pk, title, _ in papers}
    texts = {pk: f"{title} {abstract}" for pk, title, abstract in papers}
    shares = []
    for typed, pattern in subjects:
        names = re.compile(pattern, re.IGNORECASE)
        asked = [pk for pk, title in titles.items() if names.search(title)][:PER_SUBJECT]
        per_paper = []
        for pk in asked:
            found = client.get(f"/api/papers/{pk}/similar/", {"limit": FIRST}).json()["results"]
            per_paper.append(_share(names, [texts.get(item["id"], "") for item in found]))
        body = json.dumps({"text": typed, "limit": FIRST})
        found = client.post("/api/similar/", body, content_type="application/json").json()
        text_share = _share(names, [texts.get(item["id"], "") for item in found["results"]])
        paper_share = sum(per_paper) / len(per_paper) if per_paper else 0.0
        shares.append(SubjectShare(typed, len(asked), paper_share, text_share))
    return shares


def _share(names: re.Pattern, found: list[str]) -> float:
    return sum(bool(names.search(text)) for text in found[:FIRST]) / FIRST


def narrow_lines() -> list[str]:
    """The markdown the quality report gives: both lists, each subject and the means."""
    lines = [
        "",
        "- Similar papers on a narrow subject (bench/narrow_subjects.py): the share of the first "
        f"five naming the subject, for papers whose title names it (at most {PER_SUBJECT} each) "
        "and for the subject typed as a text:",
        "",
        "  | subjects | subject | papers | similar papers | papers like the text |",
        "  |---|---|---:|---:|---:|",
    ]
    for label, subjects in (("tuning", TUNING), ("held out", HELD_OUT)):
        shares = narrow_subjects(subjects)
        for share in shares:
            lines.append(
                f"  | {label} | {share.subject} | {share.papers} | {share.paper_share:.2f} "
                f"| {share.text_share:.2f} |"
            )
        papers = sum(share.paper_share for share in shares) / len(shares)
        text = sum(share.text_share for share in shares) / len(shares)
        lines.append(f"  | {label} | **mean** | | **{papers:.2f}** | **{text:.2f}** |")
    return lines
