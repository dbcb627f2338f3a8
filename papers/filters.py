"""The list's parameters as a django-filter FilterSet, and the search they run.

One GET form: q, venue (repeatable slug), topic (repeatable slug), author (slug), year,
country, sort. Values of one facet are OR-ed (venue=a&venue=b: either venue), different facets
AND-ed. Unknown slugs match nothing (200, with the filter shown so it can be removed); values
of the wrong shape give form errors, which the views turn into a 400 with the message.
"""

import math
import re
from dataclasses import dataclass, field

import django_filters
from django import forms
from django.core.validators import RegexValidator
from django.db.models import F, Q

from .models import Authorship, Paper, PaperTopic, Venue
from .querysets import CANDIDATE_CAP, EXACT_BOUND, SAMPLE_EVERY, Facets, did_you_mean
from .text import websearch_text

PAGE_SIZE = 25
MAX_QUERY_LENGTH = 500
MAX_VALUES = 20
SORTS = [("relevance", "Relevance"), ("newest", "Newest venue first"), ("title", "Title A–Z")]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ue000\ue001]")
slug_validator = RegexValidator(
    r"^[-\w]+\Z", "“%(value)s” is not a valid slug: use letters, digits, - and _."
)


class SlugListField(forms.Field):
    """Repeated ?name=slug parameters: a list of at most MAX_VALUES slugs."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        if not value:
            return []
        if isinstance(value, str):
            value = [value]
        values = list(dict.fromkeys(str(item).strip() for item in value if str(item).strip()))
        if len(values) > MAX_VALUES:
            raise forms.ValidationError(f"At most {MAX_VALUES} values are allowed.")
        return values

    def validate(self, value):
        super().validate(value)
        for item in value:
            if len(item) > 200:
                raise forms.ValidationError("A slug is at most 200 characters.")
            slug_validator(item)


class SlugListFilter(django_filters.Filter):
    field_class = SlugListField


class PaperFilterForm(forms.Form):
    def clean_q(self):
        return " ".join(self.cleaned_data.get("q", "").split())


class PaperFilter(django_filters.FilterSet):
    """Builds Q conditions per facet; ``results(page)`` runs the list's queries."""

    q = django_filters.CharFilter(method="skip", label="Search papers", max_length=MAX_QUERY_LENGTH)
    venue = SlugListFilter(method="skip", label="Venue")
    topic = SlugListFilter(method="skip", label="Topic")
    author = django_filters.CharFilter(
        method="skip", label="Author", max_length=300, validators=[slug_validator]
    )
    year = django_filters.NumberFilter(
        method="skip", label="Year", min_value=1900, max_value=2100, decimal_places=0
    )
    country = django_filters.CharFilter(method="skip", label="Country", max_length=100)
    sort = django_filters.ChoiceFilter(
        method="skip", label="Sort by", choices=SORTS, empty_label=None
    )

    class Meta:
        model = Paper
        fields = []
        form = PaperFilterForm

    FACETS = ("venue", "topic", "author", "year", "country")

    def __init__(self, data=None, *args, fixed: dict | None = None, **kwargs):
        """``fixed``: conditions every count and result obeys (a venue, topic or author page)."""
        self.notices: list[str] = []
        if data is not None:
            data = data.copy()
            text = data.get("q", "")
            cleaned = websearch_text(_CONTROL.sub(" ", text))
            if len(cleaned) > MAX_QUERY_LENGTH:
                cleaned = cleaned[:MAX_QUERY_LENGTH]
                self.notices.append(
                    f"Your search was longer than {MAX_QUERY_LENGTH} characters; "
                    f"only its first {MAX_QUERY_LENGTH} were used."
                )
            if cleaned != text:
                data["q"] = cleaned
            for name in ("author", "country", "sort", "year"):
                if name in data:
                    data[name] = _CONTROL.sub("", data.get(name, ""))
        self.fixed = fixed or {}
        super().__init__(data, *args, queryset=Paper.objects.all(), **kwargs)

    def skip(self, queryset, name, value):
        return queryset

    # --- cleaned values ----------------------------------------------------------------------

    @property
    def sort_choices(self):
        return SORTS if self.text else SORTS[1:]

    def value(self, name):
        return self.form.cleaned_data.get(name) if self.is_valid() else None

    @property
    def text(self) -> str:
        return self.value("q") or ""

    @property
    def ordering(self) -> str:
        sort = self.value("sort") or ""
        if sort == "relevance" and not self.text:
            return "newest"
        return sort or ("relevance" if self.text else "newest")

    def active(self) -> dict[str, list[str]]:
        """The selected values per facet, as strings."""
        chosen = {}
        for name in self.FACETS:
            value = self.value(name)
            if value in (None, "", []):
                continue
            if name == "year":
                value = [str(int(value))]
            elif not isinstance(value, list):
                value = [value]
            chosen[name] = value
        return chosen

    def conditions(self) -> dict[str, Q]:
        """One Q per active facet, on Paper."""
        active = self.active()
        conditions = {}
        if "venue" in active:
            # On venue_id, not through a join: the facet statement evaluates these on
            # papers_paper's own columns (see PaperQuerySet.facets).
            venues = Venue.objects.filter(slug__in=active["venue"]).values("id")
            conditions["venue"] = Q(venue_id__in=venues)
        if "topic" in active:
            slugs = active["topic"]
            links = PaperTopic.objects.filter(
                Q(topic__slug__in=slugs) | Q(topic__redirects__old_slug__in=slugs)
            )
            conditions["topic"] = Q(pk__in=links.values("paper_id"))
        if "author" in active:
            authored = Authorship.objects.filter(author__slug=active["author"][0])
            conditions["author"] = Q(pk__in=authored.values("paper_id"))
        if "year" in active:
            of_year = Venue.objects.filter(year=int(active["year"][0])).values("id")
            conditions["year"] = Q(venue_id__in=of_year)
        if "country" in active:
            conditions["country"] = Q(country=active["country"][0])
        return conditions

    def filter_queryset(self, queryset):
        """The whole filtered, ordered list as one ORM queryset (uncapped)."""
        queryset = queryset.filter(*self.fixed.values(), *self.conditions().values())
        if self.text:
            queryset = queryset.search(self.text)
        return order(queryset, self.ordering)

    # --- the page -----------------------------------------------------------------------------

    def results(self, page: int) -> "Results":
        """Facets and the total (1 query), then the page: ids (1) and cards (2).

        With a query and no match: the closest titles (1) and "did you mean" (≤ 2) instead.
        """
        text = self.text
        fixed = Paper.objects.filter(*self.fixed.values())
        conditions = self.conditions()
        facets = fixed.facets(conditions, self.active(), text=text)
        results = Results(facets=facets, count=facets.total, notices=list(self.notices))
        ranked = text and self.ordering == "relevance"
        reachable = min(results.count, CANDIDATE_CAP) if ranked else results.count
        if facets.estimated:
            counted = "The number of papers and the" if facets.total_estimated else "The"
            results.notices.append(
                f"{counted} counts beside the results are estimates (from one paper in "
                f"{SAMPLE_EVERY}): more than {EXACT_BOUND:,} papers match."
            )
        if ranked and results.count > CANDIDATE_CAP:
            results.notices.append(
                f"{results.count:,} papers match; the best of them are ranked among the first "
                f"{CANDIDATE_CAP:,} found. Add words or filters to narrow the search."
            )
        results.pages = max(1, math.ceil(reachable / PAGE_SIZE))
        if page > results.pages:
            if results.count:
                results.notices.append(f"There are only {results.pages} pages; showing the last.")
            page = results.pages
        results.page = page
        offset = (page - 1) * PAGE_SIZE
        if results.count:
            filtered = fixed.filter(*conditions.values())
            if ranked:
                scored = filtered.ranked_ids(text, PAGE_SIZE, offset)
            elif self.ordering == "newest":
                scored = [(pk, None) for pk in filtered.newest_ids(PAGE_SIZE, offset, text)]
            else:
                if text:
                    filtered = filtered.matching(text)
                ids = order(filtered, self.ordering).values_list("pk", flat=True)[
                    offset : offset + PAGE_SIZE
                ]
                scored = [(pk, None) for pk in ids]
            scores = dict(scored)
            results.papers = Paper.objects.cards([pk for pk, _ in scored], text)
            for paper in results.papers:
                paper.score = scores[paper.pk]
            if not results.papers and page > 1:
                results.notices.append("No papers on this page: the count was an estimate.")
        elif text:
            results.closest = Paper.objects.filter(*self.fixed.values()).closest_titles(text)
            results.suggestion = did_you_mean(text)
        return results


def order(queryset, sort: str):
    from .querysets import display_order

    if sort == "title":
        return queryset.order_by(display_order(), "pk")
    if sort == "relevance":
        return queryset
    return queryset.order_by(
        F("venue__year").desc(nulls_last=True), "venue__name", display_order(), "pk"
    )


@dataclass
class Results:
    facets: Facets
    count: int = 0
    page: int = 1
    pages: int = 1
    papers: list = field(default_factory=list)
    closest: list = field(default_factory=list)
    suggestion: str | None = None
    notices: list[str] = field(default_factory=list)

    @property
    def has_previous(self):
        return self.page > 1

    @property
    def has_next(self):
        return self.page < self.pages

    @property
    def start_index(self):
        return (self.page - 1) * PAGE_SIZE + 1 if self.papers else 0

    @property
    def end_index(self):
        return self.start_index + len(self.papers) - 1 if self.papers else 0

    def page_window(self, size: int = 2):
        """Page numbers to link, with None for a gap: 1 … 4 5 [6] 7 8 … 20."""
        numbers = sorted(
            {1, self.pages, *range(max(1, self.page - size), min(self.pages, self.page + size) + 1)}
        )
        window, last = [], 0
        for number in numbers:
            if number - last > 1:
                window.append(None)
            window.append(number)
            last = number
        return window


def parse_page(raw) -> int:
    """The page number from ?page=; ValueError with a message for anything but a positive integer."""
    if raw in (None, ""):
        return 1
    raw = str(raw).strip()
    if not re.fullmatch(r"[0-9]+", raw):
        raise ValueError(f"page must be a positive whole number, not “{raw[:50]}”.")
    number = int(raw[:12])
    if number < 1:
        raise ValueError("page must be 1 or more.")
    return number
