"""The paper admin: list, search, edit page with its topic and author inlines, actions."""

from django.contrib import admin, messages
from django.contrib.admin.views.main import ORDER_VAR
from django.db.models import F, Prefetch
from django.template.defaultfilters import pluralize
from django.utils.html import format_html

from .. import curation, merging
from ..models import (
    Authorship,
    Paper,
    PaperTopic,
    RemovedTopic,
    Topic,
)
from ..own_pages import own_page
from ..search import ranked_matches
from ..topic_rules import run_topic_rules
from ..understanding import identified_paper
from .actions import IntermediateActionMixin
from .changes import NoteChangesMixin
from .filters import CountryFilter, HasTitleFilter, SourceFileFilter
from .forms import (
    SPARE_POSITIONS,
    AuthorshipForm,
    AuthorshipFormSet,
    ChooseTopicForm,
    PaperForm,
)


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
    form = AuthorshipForm
    formset = AuthorshipFormSet
    fields = ("position", "author")
    autocomplete_fields = ("author",)
    ordering = ("position",)
    extra = 0


# Papers ---------------------------------------------------------------------------------


@admin.register(Paper)
class PaperAdmin(NoteChangesMixin, IntermediateActionMixin, admin.ModelAdmin):
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
        '(websearch syntax: "exact phrase", or, -exclude), or an Anthology ID, DOI or address.'
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
        (None, {"fields": ("title", "derived_title", "abstract", "venue", "country", "version")}),
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
        """Full-text search, the best matches first as the public pages rank them, then the
        others by id (papers/search.py ranked_matches); an identifier finds its paper."""
        # An Anthology ID, DOI or Anthology address pasted in finds that paper, as on the site,
        # and so does the address of its page here (an outside curator found none).
        identified = identified_paper(search_term) or _own_paper(search_term)
        if identified is not None:
            return queryset.filter(pk=identified.pk), False
        matches = ranked_matches(queryset, search_term)
        if search_term.strip() and ORDER_VAR not in request.GET:
            matches = matches.order_by(F("rank").asc(nulls_last=True), "pk")
        return matches, False

    # Saving: record what the curator changed ----------------------------------------------

    def get_object(self, request, object_id, from_field=None):
        """On a save, the paper's row is locked until the save commits (the admin's view is
        one transaction): two curators saving at once are checked one after the other, and
        the second, its page now stale, is refused (PaperForm's version, read after this)."""
        paper = super().get_object(request, object_id, from_field)
        if paper is not None and request.method == "POST":
            list(Paper.objects.select_for_update().filter(pk=paper.pk).values_list("pk"))
        return paper

    def save_model(self, request, obj, form, change):
        # On the add page, changed_data names the fields the curator filled in.
        curation.record_paper_edit(obj, form.changed_data, form.initial if change else None)
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        curation.delete_papers(Paper.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        curation.delete_papers(queryset)

    def save_related(self, request, form, formsets, change):
        form.save_m2m()
        paper = form.instance
        curated, listed = set(), set()
        for formset in formsets:
            if formset.model is PaperTopic:
                if self.save_topic_links(paper, formset):
                    curated.add("topics")
            elif formset.model is Authorship:
                if formset.has_changed():
                    curated.add("authors")
                listed = {row.initial.get("author") for row in formset.initial_forms}
                self.save_authorships(request, form, formset, change)
            else:
                self.save_formset(request, form, formset, change=change)
        curation.record_paper_links_edit(paper, curated, listed - {None})

    def save_authorships(self, request, form, formset, change) -> None:
        """Save the author inline, whose rows may trade places: each row that moves or goes
        steps aside first, so that no two rows ever hold one position (the rows are saved
        one by one under a unique constraint that cannot be deferred)."""
        leaving = [
            row.instance.pk
            for row in formset.initial_forms
            if formset._should_delete_form(row) or "position" in row.changed_data
        ]
        Authorship.objects.filter(pk__in=leaving).update(position=F("position") + SPARE_POSITIONS)
        self.save_formset(request, form, formset, change=change)

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
                request,
                f"Added the topic “{topic}” to {count} paper{pluralize(count)}.",
                messages.SUCCESS,
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
                f"Removed the topic “{topic}” from {count} paper{pluralize(count)}; "
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
            order=("pk",),
            merge=merging.merge_papers,
            report=lambda survivor, others: (
                f"Merged {len(others)} paper{pluralize(len(others))} into "
                f"“{survivor.display_title}”."
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
        self.message_user(
            request, f"Marked {count} paper{pluralize(count)} as reviewed.", messages.SUCCESS
        )

    @admin.action(
        description="Apply the topic rules to the selected papers", permissions=["change"]
    )
    def apply_rules_to_papers(self, request, queryset):
        run = run_topic_rules(paper_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"Topic rules: {run}.", messages.SUCCESS)


def _own_paper(text: str) -> Paper | None:
    """The paper whose page of this site ``text`` addresses, or None."""
    page = own_page(text)
    return page if isinstance(page, Paper) else None
