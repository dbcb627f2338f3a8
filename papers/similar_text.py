"""Papers like a text: the form the page and the API validate with, and the ranked papers.

The text is projected into the fitted model (papers/similarity_model.py) and compared with
every paper's stored embedding by cosine, plus the share of its rare words each paper uses
(papers/rare_words.py); the venue and year filters keep the papers of that venue (or its
volumes) and year. Each result carries its explanation: that score, and the
distinctive words of the text found in the paper's title or abstract, with their weights.
"""

from __future__ import annotations

from django import forms
from django.db.models import Q

from .models import Paper, Venue
from .similar import text_signal
from .similarity_model import current_model, shared_terms, similar_to_text

MAX_TEXT = 10_000
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
SORTS = {"similar": "most similar first", "newest": "newest first"}


class _DraftField(forms.CharField):
    """A text whose line breaks count one character each, as the page's ``maxlength`` counts
    them: the browser sends each as CR LF, and a draft of 9,950 characters with a hundred
    line breaks was refused as 10,056 (an outside researcher)."""

    def to_python(self, value):
        return super().to_python(value).replace("\r\n", "\n")


class SimilarTextForm(forms.Form):
    text = _DraftField(
        max_length=MAX_TEXT,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 10, "maxlength": MAX_TEXT}),
        help_text=f"An abstract or a draft, up to {MAX_TEXT:,} characters.",
    )
    # Any venue's slug, as /api/venues/ lists them (a volume's too: "findings-of-emnlp-2023"
    # was refused, an outside researcher); the page's menu offers the conferences.
    venue = forms.ModelChoiceField(
        Venue.objects.order_by("-year", "name"),
        required=False,
        to_field_name="slug",
        empty_label="Any venue",
    )
    year = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    limit = forms.IntegerField(min_value=1, max_value=MAX_LIMIT, required=False)
    sort = forms.ChoiceField(choices=list(SORTS.items()), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        venue = self.fields["venue"]
        venue.widget.choices = forms.ModelChoiceField(
            venue.queryset.filter(parent__isnull=True),
            to_field_name="slug",
            empty_label="Any venue",
        ).choices
        years = Venue.objects.exclude(year=None).order_by("-year").values_list("year", flat=True)
        self.fields["year"].choices = [("", "Any year")] + [
            (year, str(year)) for year in dict.fromkeys(years)
        ]

    def clean_limit(self):
        return self.cleaned_data["limit"] or DEFAULT_LIMIT


def allowed_ids(venue: Venue | None, year: int | None):
    """The ids the filters keep, or None when there is no filter."""
    if venue is None and year is None:
        return None
    papers = Paper.objects.all()
    if venue is not None:
        papers = papers.filter(Q(venue=venue) | Q(venue__parent=venue))
    if year is not None:
        papers = papers.filter(venue__year=year)
    return papers.values_list("pk", flat=True)


def papers_like_text(text: str, limit: int, venue=None, year=None, sort="similar"):
    """(papers most like ``text``, best first — or newest first — each with ``score`` and
    ``explanation``; None when no model has been fitted yet)."""
    ranked = similar_to_text(text, limit, allowed_ids(venue, year))
    if ranked is None:
        return None
    papers = {paper.pk: paper for paper in Paper.objects.cards([pk for pk, _ in ranked])}
    model = current_model()
    results = []
    for pk, score in ranked:
        paper = papers.get(pk)
        if paper is None:  # deleted since the fit
            continue
        paper.score = score
        paper.explanation = [text_signal(score, shared_terms(model, text, paper))]
        results.append(paper)
    return newest_first(results) if sort == "newest" else results


def newest_first(papers: list) -> list:
    """Similar papers the newest first, those of one year in their order (by score), as every
    similar list's "newest" sort gives them (the page, the API, papers like a text)."""
    papers.sort(key=lambda paper: -(paper.venue.year or 0))
    return papers
