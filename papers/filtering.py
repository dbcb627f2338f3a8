"""The list's parameters, validated once: ``PaperFilterSet`` checks every parameter of the list
(q, venue, topic, author, year, country as filters; sort and page on its form) for the list page,
the venue, topic and author pages, the feeds and the JSON API alike. Its filters really filter,
so ``.qs`` is the whole matching set, uncapped (ranked by ``PaperQuerySet.search`` when there is
a query). Values of one facet are OR-ed (venue=a&venue=b: either venue), different facets
AND-ed; unknown slugs match nothing (the filter stays shown so it can be removed). The page
they ask for is papers/search.py's.
"""

from functools import cached_property

import django_filters
from django import forms
from django.db.models import Q

from .addressed_queries import AddressedQuery
from .expressions import DISPLAY_KEY_LENGTH, display_opening
from .latex import symbols_as_commands
from .models import Author, Authorship, Paper, PaperTopic, Venue
from .name_keys import name_key
from .named_filters import authored_in
from .questions import question_subject
from .search_fields import PageField, SlugListFilter
from .slugs import validate_slug
from .text import (
    CONTROL_CHARACTERS,
    FIELD_PREFIX,
    MAX_QUERY_WORDS,
    SYMBOL_WORD,
    bounded_query,
    typed_intent,
    typed_query,
    whole_words,
)
from .typed_words import typed_words
from .understanding import join_compounds

MAX_QUERY_LENGTH = 500
SORTS = [("relevance", "Relevance"), ("newest", "Newest venue first"), ("title", "Title A–Z")]
FACETS = ("venue", "topic", "author", "year", "country")
INVALID = "Some of the parameters are not valid."
# The parameters that take one value (venue and topic take several), as the page names them.
SINGLE_VALUED = {
    "q": "search",
    "author": "author",
    "year": "year",
    "country": "country",
    "sort": "order",
    "page": "page",
}


class SearchForm(forms.Form):
    """The parameters that are not filters: the order and the page."""

    sort = forms.ChoiceField(choices=SORTS, required=False, label="Sort by")
    # The query the sort was chosen for: a sort carried to a new query is dropped (relevance).
    sort_q = forms.CharField(required=False, widget=forms.HiddenInput)
    # The query as typed, not respelled ("Search instead for …").
    literal = forms.BooleanField(required=False)
    page = PageField(required=False)

    def __init__(self, *args, refuse_long_query: bool = False, **kwargs):
        self.refuse_long_query = refuse_long_query
        super().__init__(*args, **kwargs)

    def clean_literal(self) -> bool:
        # The checkbox widget reads any value but "false" as ticked: literal=0 was literal.
        return str(self.data.get("literal", "")).lower() in ("1", "true", "on", "yes")

    def clean_q(self):
        text = " ".join((self.cleaned_data.get("q") or "").split())
        if self.refuse_long_query and len(self.data.get("q", "")) > MAX_QUERY_LENGTH:
            raise forms.ValidationError(f"q is at most {MAX_QUERY_LENGTH} characters.")
        if self.refuse_long_query and bounded_query(text)[1]:
            raise forms.ValidationError(f"q has at most {MAX_QUERY_WORDS} words.")
        return text


class PaperFilterSet(AddressedQuery, django_filters.FilterSet):
    """The list's parameters. ``fixed``: conditions every count and result obeys (a venue,
    topic or author page); ``refuse_long_query``: the API's rule (a 400) instead of the
    pages' (the query cut, with a notice)."""

    q = django_filters.CharFilter(method="filter_text", label="Search papers")
    venue = SlugListFilter(method="filter_facet", label="Venue")
    topic = SlugListFilter(method="filter_facet", label="Topic")
    author = django_filters.CharFilter(
        method="filter_facet", label="Author", max_length=300, validators=[validate_slug]
    )
    year = django_filters.NumberFilter(
        method="filter_facet", label="Year", min_value=1900, max_value=2100, decimal_places=0
    )
    country = django_filters.CharFilter(method="filter_facet", label="Country", max_length=100)

    class Meta:
        model = Paper
        fields = []
        form = SearchForm

    def __init__(self, data=None, *, fixed=None, refuse_long_query=False, **kwargs):
        self.notices: list[str] = []
        # q as typed (its intent spelled: "dont" as "don't", "NOT x" as "-x"), for the search
        # box and "Search instead for": repeated words and all.
        self.typed = ""
        self.fixed = fixed or {}  # {facet: [slug]}: the page's own venue, topic or author
        self.refuse_long_query = refuse_long_query
        super().__init__(self._cleaned_data(data), queryset=Paper.objects.all(), **kwargs)

    def _cleaned_data(self, data):
        """Compatibility forms folded and control characters out (text.typed_query), "dont" as
        "don't", "NOT x" as "-x", stacked negations collapsed, repeated terms once, a long
        query cut (pages; the API refuses it)."""
        if data is None:
            return None
        data = data.copy()
        self._notice_repeated(data)
        self.typed = " ".join(typed_intent(typed_query(data.get("q", ""))).split())
        # Maths symbols as the index holds them, before NFKC makes "ℓ" an "l": "μPLAN" found
        # nothing (an outside researcher).
        text = typed_intent(typed_query(symbols_as_commands(data.get("q", ""), names_only=True)))
        if symbol := SYMBOL_WORD.search(text):
            self.notices.append(
                f"Symbols are not searched: “{symbol[0]}” is searched as “{symbol[1]}”."
            )
        if fields := FIELD_PREFIX.findall(text):
            text, self.typed = FIELD_PREFIX.sub("", text), FIELD_PREFIX.sub("", self.typed)
            named = " and ".join(f"“{field.lower()}:”" for field in dict.fromkeys(fields))
            self.notices.append(
                f"Fields are not searched apart: {named} left out, the words are searched in "
                "titles, abstracts and authors' names; the filters narrow by author, venue, "
                "topic and year."
            )
        # Repeated terms first, then the length: "transformer " a hundred times is one word,
        # not 500 characters cut in the middle of a word ("transfor", then respelled).
        text, cut = bounded_query(text)
        if cut:
            self.typed = text  # the box shows the words searched, as the notice says
        if cut and not self.refuse_long_query:
            self.notices.append(
                f"Your search had more than {MAX_QUERY_WORDS} words; "
                f"only its first {MAX_QUERY_WORDS} were used."
            )
        if len(text) > MAX_QUERY_LENGTH and not self.refuse_long_query:
            text = self.typed = whole_words(text, MAX_QUERY_LENGTH)
            self.notices.append(
                f"Your search was longer than {MAX_QUERY_LENGTH} characters; "
                f"only its words within the first {MAX_QUERY_LENGTH} were used."
            )
        if not self.refuse_long_query or not (cut or len(data.get("q", "")) > MAX_QUERY_LENGTH):
            data["q"] = text
        if "sort_q" in data:
            sort_q = typed_intent(typed_query(data.get("sort_q", "")))
            data["sort_q"] = bounded_query(sort_q[:MAX_QUERY_LENGTH])[0]
        for name in ("author", "country", "sort", "year"):
            if name in data:
                data[name] = CONTROL_CHARACTERS.sub("", data.get(name, ""))
        return data

    def _notice_repeated(self, data) -> None:
        """A parameter that takes one value, given several (year=2020&year=2021): the last is
        used, and the page says so."""
        for name in SINGLE_VALUED:
            values = data.getlist(name) if hasattr(data, "getlist") else []
            if len(values) > 1:
                self.notices.append(
                    f"Only one {SINGLE_VALUED[name]} can be chosen at a time: the last one "
                    f"given, “{values[-1][:100]}”, is used."
                )

    @property
    def form(self):
        if not hasattr(self, "_form"):
            Form = self.get_form_class()
            self._form = Form(
                self.data if self.is_bound else None,
                prefix=self.form_prefix,
                refuse_long_query=self.refuse_long_query,
            )
        return self._form

    # --- the filters ---------------------------------------------------------------------

    def filter_text(self, queryset, name, value):
        return queryset.search(join_compounds(self.subject or self.renamed or value)[0])

    def filter_facet(self, queryset, name, value):
        return queryset.filter(self.condition(name, value))

    def filter_queryset(self, queryset):
        """Every filter, under the fixed conditions, in the chosen order (uncapped). The
        form's other fields (sort, page) are not filters."""
        queryset = queryset.filter(*self.fixed_conditions())
        for name, value in self.form.cleaned_data.items():
            if name in self.filters:
                queryset = self.filters[name].filter(queryset, value)
        return queryset.in_order(self.ordering)

    @staticmethod
    def condition(name: str, value) -> Q:
        """The Q on Paper that a facet's value(s) select."""
        values = value if isinstance(value, list) else [value]
        if name == "venue":
            # On venue_id, not through a join: the facet statement evaluates these on the
            # paper table's own columns (papers/facets.py).
            return Q(venue_id__in=Venue.objects.filter(slug__in=values).values("id"))
        if name == "topic":
            links = PaperTopic.objects.filter(
                Q(topic__slug__in=values) | Q(topic__redirects__old_slug__in=values)
            )
            return Q(pk__in=links.values("paper_id"))
        if name == "author":
            authored = Authorship.objects.filter(author__slug=values[0])
            return Q(pk__in=authored.values("paper_id"))
        if name == "year":
            return Q(venue_id__in=Venue.objects.filter(year=int(values[0])).values("id"))
        return Q(country=values[0])

    # --- cleaned values ------------------------------------------------------------------

    def value(self, name):
        return self.form.cleaned_data.get(name) if self.is_valid() else None

    @property
    def text(self) -> str:
        return self.value("q") or ""

    @cached_property
    def subject(self) -> str | None:
        """The subject of a question typed as q (papers/questions.py), which the list, its
        exports and its feed search in its place; None for q as typed: not a question,
        ``literal=1``, or the opening of a paper's title word for word, its end's "?" left out
        or not ("How Can We Know What Language Models Know": one query, on the index of the
        titles' openings, paper_title_opening)."""
        subject = question_subject(self.text) if not self.value("literal") else None
        if subject is None:
            return None
        # As typed, repeated words and all ("How multilingual is multilingual BERT?").
        opening = display_opening(self.typed.rstrip("?!.:; "))[:DISPLAY_KEY_LENGTH]
        titled = Paper.objects.filter(complete=True, display_key__startswith=opening)
        return None if opening and titled.exists() else subject

    @cached_property
    def named_authors(self) -> list:
        """The authors q names, most papers first (AuthorQuerySet.named: one query, only for
        a q shaped as a name)."""
        return Author.objects.named(self.text) if self.text else []

    @cached_property
    def searched_authors(self) -> list:
        """The authors the searched text names, whose papers a ranked list puts first: a
        question's subject's (one query more), else q's (``named_authors``, q searched under
        its author's name included)."""
        return Author.objects.named(self.subject) if self.subject else self.named_authors

    @cached_property
    def renamed(self) -> str | None:
        """The name of the author q names with another form of its words ("Daniel Jurafsky":
        Dan Jurafsky, papers/nicknames.py), which the list, its exports and its feed search
        in its place, as a question's subject: searched as typed, no paper had all its words,
        or another Daniel's did (a reviewer). None where an author named has every word of q
        (a middle initial or a suffix left out: "Noah Smith", "Hal Daume"), where q gives
        initials that several authors named fit ("J. Smith"), for ``literal=1``, or when q
        names nobody."""
        if self.value("literal") or not self.named_authors:
            return None
        typed = set(name_key(self.text.replace(",", " ")).split())
        if len(self.named_authors) > 1 and any(len(word) == 1 for word in typed):
            return None  # "J. Smith": Jake, James…, none of them more than the others
        if any(typed <= set(name_key(author.name).split()) for author in self.named_authors):
            return None
        return self.named_authors[0].name

    @cached_property
    def authored_in(self) -> str | None:
        """The address of the list a q of an author's name and a venue or year asks for
        ("Yoav Goldberg 2023": q "Yoav Goldberg" in 2023, papers/named_filters.py
        ``authored_in``), where the list redirects; None on a venue's, topic's or author's
        page, with a venue or year chosen, or for ``literal=1``."""
        active = self.active()
        if self.fixed or self.value("literal") or {"venue", "year"} & active.keys():
            return None
        return authored_in(self.text, active)

    @property
    def searched(self) -> str:
        """The text the list searches: a question's subject, the name of the author q names
        otherwise, else q."""
        return self.subject or self.renamed or self.text

    @property
    def page_number(self) -> int:
        return self.value("page") or 1

    @property
    def chosen_sort(self) -> str:
        """The order the user chose for this query, or "" (the page's default order).

        A sort sent with ``sort_q`` naming another query was chosen for that query: a new
        query typed into a form that carried it is ranked by relevance again.
        """
        sort = self.value("sort") or ""
        if sort and "sort_q" in self.data and self.value("sort_q") != self.text:
            return ""
        if sort == "relevance" and not self.text:
            return ""
        return sort

    @property
    def ordering(self) -> str:
        return self.chosen_sort or self.default_sort

    @property
    def default_sort(self) -> str:
        """Relevance for a query with a word to look for; else newest venue first: a query
        of exclusions alone ("-neural", "-neural -") ranked untitled, authorless records
        first."""
        return "relevance" if self.text and typed_words(self.text) else "newest"

    @property
    def sort_choices(self):
        """[(value, label)]: the default order first (value "", so a form submits no sort),
        then the other orders one can choose."""
        default = self.default_sort
        labels = dict(SORTS)
        if "venue" in self.fixed:
            # A venue's own papers in "newest venue first": its volumes, each in proceedings order.
            labels["newest"] = "Proceedings order"
        others = [
            (value, labels[value])
            for value, _ in SORTS
            if value != default and (self.text or value != "relevance")
        ]
        return [("", labels[default]), *others]

    def active(self) -> dict[str, list[str]]:
        """The selected values per facet, as strings."""
        chosen = {}
        for name in FACETS:
            value = self.value(name)
            if value in (None, "", []):
                continue
            if name == "year":
                value = [str(int(value))]
            chosen[name] = value if isinstance(value, list) else [value]
        return chosen

    def conditions(self) -> dict[str, Q]:
        """One Q per active facet."""
        return {name: self.condition(name, values) for name, values in self.active().items()}

    def fixed_conditions(self) -> list[Q]:
        """The Qs of the page's own conditions."""
        return [self.condition(name, values) for name, values in self.fixed.items()]

    def error_summary(self) -> tuple[str, dict[str, list[str]]]:
        """(message, errors by parameter) for the 400 answer of an invalid request."""
        errors = {name: [str(error) for error in errors] for name, errors in self.errors.items()}
        if "page" in errors:
            return errors["page"][0], {}
        if list(errors) == ["q"]:
            return errors["q"][0], {}
        return INVALID, errors
