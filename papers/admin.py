"""The curators' admin: venues, papers, topics and authors.

This module only declares the admin pages (lists, filters, forms, actions); what a curator's
change does — recording it in ``curated_fields`` so that later loads never undo it, curator
topic links and removals, merges, refreshed names — is done by ``papers.curation``.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.views.main import ORDER_VAR
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.postgres.forms import SimpleArrayField
from django.db.models import Count, Prefetch
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.text import Truncator

from . import curation
from .models import (
    Author,
    Authorship,
    Paper,
    PaperTopic,
    RemovedTopic,
    Topic,
    TopicRedirect,
    Venue,
)
from .search import ranked_matches
from .text import abstract_key, websearch_text
from .topic_rules import rule_matches_nothing, run_topic_rules

# Filters --------------------------------------------------------------------------------


class HasTitleFilter(admin.SimpleListFilter):
    title = "has a title"
    parameter_name = "has_title"

    def lookups(self, request, model_admin):
        return [("yes", "Titled"), ("no", "Untitled (title derived from the abstract)")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(title="")
        if self.value() == "no":
            return queryset.filter(title="")
        return queryset


class ValueFilter(admin.SimpleListFilter):
    """Filter on the distinct non-empty values of a text field, plus "none"."""

    field_name = ""
    empty_label = "None"

    def lookups(self, request, model_admin):
        values = (
            model_admin.get_queryset(request)
            .exclude(**{self.field_name: ""})
            .order_by(self.field_name)
            .values_list(self.field_name, flat=True)
            .distinct()
        )
        return [(value, value) for value in values] + [("__none__", self.empty_label)]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "__none__":
            return queryset.filter(**{self.field_name: ""})
        if value:
            return queryset.filter(**{self.field_name: value})
        return queryset


class CountryFilter(ValueFilter):
    title = "country"
    parameter_name = "country"
    field_name = "country"
    empty_label = "No country"


class SourceFileFilter(ValueFilter):
    title = "source file"
    parameter_name = "source_file"
    field_name = "source_file"
    empty_label = "Not loaded from a file"


# Forms ----------------------------------------------------------------------------------


class LinesField(SimpleArrayField):
    """A list of strings edited one per line (titles contain commas)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(forms.CharField(), delimiter="\n", **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = "\n".join(line.strip() for line in value.splitlines() if line.strip())
        return super().to_python(value)


class PaperForm(forms.ModelForm):
    related_titles = LinesField(
        required=False, help_text="Titles of related lectures, one per line."
    )
    url = forms.URLField(required=False, max_length=500, assume_scheme="https")

    def clean_abstract(self):
        abstract = self.cleaned_data["abstract"]
        key = abstract_key(abstract)
        if key:
            twin = Paper.objects.filter(abstract_key=key).exclude(pk=self.instance.pk).first()
            if twin:
                raise forms.ValidationError(
                    f"Paper {twin.pk} (“{twin.display_title}”) has this abstract already."
                )
        return abstract

    class Meta:
        model = Paper
        fields = (
            "title",
            "abstract",
            "venue",
            "country",
            "presentation_format",
            "related_titles",
            "external_id",
            "pages",
            "doi",
            "url",
            "bibkey",
            "reviewed",
        )


class TopicForm(forms.ModelForm):
    class Meta:
        model = Topic
        fields = ("name", "slug", "description", "rule")

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        clash = Topic.objects.filter(name__iexact=name).exclude(pk=self.instance.pk).first()
        if clash:
            raise forms.ValidationError(
                f"The topic “{clash.name}” already has this name; merge the two topics instead."
            )
        return name

    def clean_rule(self):
        rule = websearch_text(self.cleaned_data["rule"]).strip()
        if rule and rule_matches_nothing(rule):
            raise forms.ValidationError(
                "This rule has only stop words or punctuation, so it can match no paper."
            )
        return rule


class ChooseTopicForm(forms.Form):
    def __init__(self, *args, admin_site, topics=None, **kwargs):
        super().__init__(*args, **kwargs)
        if topics is None:  # any topic: searched as the curator types
            widget = AutocompleteSelect(PaperTopic._meta.get_field("topic"), admin_site)
            self.fields["topic"] = forms.ModelChoiceField(Topic.objects.all(), widget=widget)
        else:
            self.fields["topic"] = forms.ModelChoiceField(topics)


class ChooseSurvivorForm(forms.Form):
    survivor = forms.ModelChoiceField(
        queryset=None, widget=forms.RadioSelect, empty_label=None, label="Keep"
    )

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["survivor"].queryset = candidates


# Shared: actions with an intermediate page ----------------------------------------------


class IntermediateActionMixin:
    """Actions that first ask for a choice on a page of their own, then apply it."""

    action_template = "admin/papers/action_form.html"

    def action_form_submitted(self, request) -> bool:
        return request.POST.get("apply") == "yes"

    def render_action_page(self, request, queryset, form, *, action, title, intro, submit):
        select_across = request.POST.get("select_across") == "1"
        selected = list(queryset.order_by("pk")[:1] if select_across else queryset.order_by("pk"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": title,
            "intro": intro,
            "submit_label": submit,
            "form": form,
            "media": self.media + form.media,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "select_across": "1" if select_across else "0",
            "selected_pks": [obj.pk for obj in selected],
            "objects": queryset.order_by("pk")[:50],
            "count": queryset.count(),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, self.action_template, context)

    def merge_action(self, request, queryset, *, noun, order, merge, report, **page):
        """Ask which selected object survives, then merge the others into it."""
        if queryset.count() < 2:
            self.message_user(request, f"Select at least two {noun} to merge.", messages.ERROR)
            return None
        form = ChooseSurvivorForm(
            request.POST if self.action_form_submitted(request) else None,
            candidates=queryset.order_by(order),
        )
        if not form.is_valid():
            return self.render_action_page(request, queryset, form, submit="Merge", **page)
        survivor = form.cleaned_data["survivor"]
        others = list(queryset.exclude(pk=survivor.pk))
        merge(survivor, others)
        self.message_user(request, report(survivor, others), messages.SUCCESS)
        return None


# Inlines --------------------------------------------------------------------------------


class PaperTopicInline(admin.TabularInline):
    model = PaperTopic
    fields = ("topic", "link_source")
    readonly_fields = ("link_source",)
    autocomplete_fields = ("topic",)
    ordering = ("topic__name",)
    extra = 1
    verbose_name = "topic"
    verbose_name_plural = "topics"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("topic")

    @admin.display(description="source")
    def link_source(self, link):
        return link.get_source_display() if link.pk else "curator (new)"


class RemovedTopicInline(admin.TabularInline):
    model = RemovedTopic
    fields = ("topic",)
    readonly_fields = ("topic",)
    extra = 0
    verbose_name = "topic removed by a curator (loads and rules never add it back)"
    verbose_name_plural = (
        "topics removed by a curator (loads and rules never add them back; delete to allow)"
    )

    def has_add_permission(self, request, obj=None):
        return False


class AuthorshipInline(admin.TabularInline):
    model = Authorship
    fields = ("position", "author")
    autocomplete_fields = ("author",)
    ordering = ("position",)
    extra = 0


# Papers ---------------------------------------------------------------------------------


@admin.register(Paper)
class PaperAdmin(IntermediateActionMixin, admin.ModelAdmin):
    form = PaperForm
    list_display = ("display_title_column", "venue", "topic_list", "country", "has_title_column")
    list_filter = (
        "venue",
        ("topics", admin.RelatedOnlyFieldListFilter),
        HasTitleFilter,
        CountryFilter,
        SourceFileFilter,
        "reviewed",
    )
    list_select_related = ("venue",)
    list_per_page = 50
    search_fields = ("title",)  # shows the search box; the search itself is full-text
    search_help_text = (
        "Full-text search of titles, abstracts, topics and authors "
        '(websearch syntax: "exact phrase", or, -exclude).'
    )
    show_full_result_count = False
    autocomplete_fields = ("venue",)
    inlines = (PaperTopicInline, RemovedTopicInline, AuthorshipInline)
    readonly_fields = (
        "derived_title",
        "curated_fields",
        "source_file",
        "source_position",
        "first_loaded",
        "last_loaded",
        "created",
        "updated",
    )
    fieldsets = (
        (None, {"fields": ("title", "derived_title", "abstract", "venue", "country")}),
        (
            "Details",
            {
                "fields": (
                    "presentation_format",
                    "related_titles",
                    "external_id",
                    "pages",
                    "doi",
                    "url",
                    "bibkey",
                )
            },
        ),
        ("Curation", {"fields": ("reviewed", "curated_fields")}),
        (
            "Provenance",
            {
                "fields": (
                    "source_file",
                    "source_position",
                    "first_loaded",
                    "last_loaded",
                    "created",
                    "updated",
                )
            },
        ),
    )
    actions = (
        "add_topic",
        "remove_topic",
        "merge_papers",
        "mark_reviewed",
        "apply_rules_to_papers",
    )

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("topics", queryset=Topic.objects.order_by("name")))
        )

    # Columns ----------------------------------------------------------------------------

    @admin.display(description="title", ordering="title")
    def display_title_column(self, paper):
        if paper.title:
            return paper.title
        return format_html(
            '<span class="derived-title" title="No title in the source: derived from the '
            'abstract">{}</span> <small>(derived)</small>',
            paper.display_title,
        )

    @admin.display(description="topics")
    def topic_list(self, paper):
        return ", ".join(topic.name for topic in paper.topics.all()) or "—"

    @admin.display(description="has title", boolean=True, ordering="title")
    def has_title_column(self, paper):
        return paper.has_title

    @admin.display(description="derived title")
    def derived_title(self, paper):
        if paper.pk is None or paper.title:
            return "— (the paper has a title)" if paper.title else "—"
        return f"{paper.display_title} (derived from the abstract, not stored)"

    # Search -----------------------------------------------------------------------------

    def get_search_results(self, request, queryset, search_term):
        """Full-text search ranked by the public pages' relevance score (papers/search.py)."""
        matches = ranked_matches(queryset, search_term)
        if search_term.strip() and ORDER_VAR not in request.GET:
            matches = matches.order_by("-score", "pk")
        return matches, False

    # Saving: record what the curator changed ----------------------------------------------

    def save_model(self, request, obj, form, change):
        # On the add page, changed_data names the fields the curator filled in.
        curation.record_paper_edit(obj, form.changed_data)
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        form.save_m2m()
        paper = form.instance
        curated = set()
        for formset in formsets:
            if formset.model is PaperTopic:
                if self.save_topic_links(paper, formset):
                    curated.add("topics")
            elif formset.model is Authorship:
                if formset.has_changed():
                    curated.add("authors")
                self.save_formset(request, form, formset, change=change)
            else:
                self.save_formset(request, form, formset, change=change)
        curation.record_paper_links_edit(paper, curated)

    def save_topic_links(self, paper, formset) -> bool:
        """Apply the topic inline as a curator's edit; True when the paper's topics changed."""
        formset.save(commit=False)  # fills new/changed/deleted_objects for the change message
        added, removed = set(), set()
        for form in formset.initial_forms:
            old = form.initial.get("topic")
            if formset._should_delete_form(form):
                removed.add(old)
            elif "topic" in form.changed_data:
                removed.add(old)
                added.add(form.cleaned_data["topic"].pk)
        for form in formset.extra_forms:
            if form.has_changed() and not formset._should_delete_form(form):
                added.add(form.cleaned_data["topic"].pk)
        for obj in formset.new_objects:
            obj.source = curation.CURATOR
        removed -= added
        if not added and not removed:
            return False
        curation.set_topics(paper.pk, add=added, remove=removed)
        return True

    # Actions ----------------------------------------------------------------------------

    @admin.action(description="Add a topic to the selected papers", permissions=["change"])
    def add_topic(self, request, queryset):
        form = ChooseTopicForm(
            request.POST if self.action_form_submitted(request) else None,
            admin_site=self.admin_site,
        )
        if form.is_valid():
            topic = form.cleaned_data["topic"]
            count = curation.add_topic_to_papers(topic, list(queryset.values_list("pk", flat=True)))
            self.message_user(
                request, f"Added the topic “{topic}” to {count} papers.", messages.SUCCESS
            )
            return None
        return self.render_action_page(
            request,
            queryset,
            form,
            action="add_topic",
            title="Add a topic",
            intro="Add this topic, as a curator's choice, to these papers:",
            submit="Add the topic",
        )

    @admin.action(description="Remove a topic from the selected papers", permissions=["change"])
    def remove_topic(self, request, queryset):
        topics = Topic.objects.filter(paper_links__paper__in=queryset).distinct().order_by("name")
        form = ChooseTopicForm(
            request.POST if self.action_form_submitted(request) else None,
            admin_site=self.admin_site,
            topics=topics,
        )
        if form.is_valid():
            topic = form.cleaned_data["topic"]
            count = curation.remove_topic_from_papers(
                topic, list(queryset.values_list("pk", flat=True))
            )
            self.message_user(
                request,
                f"Removed the topic “{topic}” from {count} papers; "
                "loads and topic rules will not add it back.",
                messages.SUCCESS,
            )
            return None
        return self.render_action_page(
            request,
            queryset,
            form,
            action="remove_topic",
            title="Remove a topic",
            intro="Remove this topic from these papers (loads and rules will not add it back):",
            submit="Remove the topic",
        )

    @admin.action(
        description="Merge the selected duplicate papers", permissions=["change", "delete"]
    )
    def merge_papers(self, request, queryset):
        return self.merge_action(
            request,
            queryset,
            noun="papers",
            order="pk",
            merge=curation.merge_papers,
            report=lambda survivor, others: (
                f"Merged {len(others)} papers into “{survivor.display_title}”."
            ),
            action="merge_papers",
            title="Merge duplicate papers",
            intro=(
                "Choose the paper to keep. The others are deleted; their topics, authors, "
                "related titles and curated fields move to it, and it gains the fields it lacks."
            ),
        )

    @admin.action(description="Mark the selected papers as reviewed", permissions=["change"])
    def mark_reviewed(self, request, queryset):
        count = curation.mark_reviewed(queryset)
        self.message_user(request, f"Marked {count} papers as reviewed.", messages.SUCCESS)

    @admin.action(
        description="Apply the topic rules to the selected papers", permissions=["change"]
    )
    def apply_rules_to_papers(self, request, queryset):
        run = run_topic_rules(paper_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"Topic rules: {run}.", messages.SUCCESS)


# Topics ---------------------------------------------------------------------------------


@admin.register(Topic)
class TopicAdmin(IntermediateActionMixin, admin.ModelAdmin):
    form = TopicForm
    list_display = ("name", "slug", "paper_count", "rule_summary")
    ordering = ("name",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    fields = ("name", "slug", "description", "rule")
    actions = ("merge_topics", "apply_rules")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("paper_links"))

    @admin.display(description="papers", ordering="paper_count")
    def paper_count(self, topic):
        return topic.paper_count

    @admin.display(description="rule")
    def rule_summary(self, topic):
        return Truncator(topic.rule).chars(80) or "—"

    def save_model(self, request, obj, form, change):
        old_slug = form.initial.get("slug") if change else None
        super().save_model(request, obj, form, change)
        curation.record_topic_edit(obj, old_slug, renamed=change and "name" in form.changed_data)
        if change and "rule" in form.changed_data:
            self.message_user(
                request,
                f"The rule of “{obj}” changed: use the action “Apply the selected topics' "
                "rules” (or manage.py apply_topic_rules) to tag papers with it.",
                messages.INFO,
            )

    def delete_model(self, request, obj):
        curation.delete_topics(Topic.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        curation.delete_topics(queryset)

    @admin.action(description="Merge the selected topics", permissions=["change", "delete"])
    def merge_topics(self, request, queryset):
        return self.merge_action(
            request,
            queryset,
            noun="topics",
            order="name",
            merge=curation.merge_topics,
            report=lambda survivor, others: (
                f"Merged {', '.join(f'“{other}”' for other in others)} into “{survivor}”; "
                "the old addresses redirect to it."
            ),
            action="merge_topics",
            title="Merge topics",
            intro=(
                "Choose the topic to keep. The others are deleted: their papers move to it, "
                "their rules are joined to its rule, and their addresses redirect to it."
            ),
        )

    @admin.action(description="Apply the selected topics' rules", permissions=["change"])
    def apply_rules(self, request, queryset):
        run = run_topic_rules(queryset.order_by("name"))
        self.message_user(request, f"Topic rules: {run}.", messages.SUCCESS)


@admin.register(TopicRedirect)
class TopicRedirectAdmin(admin.ModelAdmin):
    list_display = ("old_slug", "topic")
    list_select_related = ("topic",)
    search_fields = ("old_slug", "topic__name")
    autocomplete_fields = ("topic",)


# Venues and authors ---------------------------------------------------------------------


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ("name", "acronym", "year", "location", "start_date", "end_date", "paper_count")
    ordering = ("-year", "name")
    list_filter = ("year", "acronym")
    search_fields = ("name", "acronym", "full_name", "location")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("curated_fields",)
    autocomplete_fields = ("parent",)
    fieldsets = (
        (None, {"fields": ("name", "slug", "acronym", "year", "full_name", "parent")}),
        ("Event", {"fields": ("location", "start_date", "end_date", "month", "welcome_text")}),
        ("Anthology", {"fields": ("booktitle", "external_id")}),
        ("Curation", {"fields": ("curated_fields",)}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("papers"))

    @admin.display(description="papers", ordering="paper_count")
    def paper_count(self, venue):
        return venue.paper_count

    def save_model(self, request, obj, form, change):
        if change:
            curation.record_venue_edit(obj, form.changed_data)
        super().save_model(request, obj, form, change)


@admin.register(Author)
class AuthorAdmin(admin.ModelAdmin):
    list_display = ("name", "orcid", "paper_count")
    ordering = ("name",)
    search_fields = ("name", "orcid")
    prepopulated_fields = {"slug": ("name",)}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("authorships"))

    @admin.display(description="papers", ordering="paper_count")
    def paper_count(self, author):
        return author.paper_count

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change:
            curation.record_author_edit(obj, form.changed_data)
