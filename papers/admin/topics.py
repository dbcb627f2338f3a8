"""The topic admin: rename (old addresses redirect), merge, apply rules; the redirects; the
deleted topics loads leave out."""

from django.contrib import admin, messages
from django.db.models import Case, Count, When
from django.utils.text import Truncator

from .. import curation, merging
from ..models import DeletedTopic, Topic, TopicRedirect
from ..topic_rules import run_topic_rules
from .actions import IntermediateActionMixin
from .changes import KeptByDeletionsMixin, NoteChangesMixin
from .forms import TopicForm


@admin.register(Topic)
class TopicAdmin(NoteChangesMixin, IntermediateActionMixin, admin.ModelAdmin):
    form = TopicForm
    list_display = ("name", "slug", "paper_count", "rule_summary")
    ordering = ("name",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    fields = ("name", "slug", "description", "rule", "title_rule")
    actions = ("merge_topics", "apply_rules")

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("paper_links"))

    def get_search_results(self, request, queryset, search_term):
        """The topics found, those whose name begins with the term first, then those whose
        name has it: the topic field's autocomplete listed them A–Z, descriptions' matches
        first, and "Reasoning" typed and Enter chose Knowledge Graphs (an outside curator)."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if term:
            named = Case(
                When(name__istartswith=term, then=0),
                When(name__icontains=term, then=1),
                default=2,
            )
            found = found.alias(named=named).order_by("named", "name")
        return found, duplicates

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
        if change and {"rule", "title_rule"} & set(form.changed_data):
            self.message_user(
                request,
                f"The rules of “{obj}” changed: use the action “Apply the selected topics' "
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
            order=("name",),
            merge=merging.merge_topics,
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
class TopicRedirectAdmin(NoteChangesMixin, admin.ModelAdmin):
    list_display = ("old_slug", "topic")
    list_select_related = ("topic",)
    search_fields = ("old_slug", "topic__name")
    autocomplete_fields = ("topic",)


@admin.register(DeletedTopic)
class DeletedTopicAdmin(KeptByDeletionsMixin, admin.ModelAdmin):
    """The topics curators deleted, which loads leave out (papers/topic_resolver.py): deleting
    a row here lets loads bring the topic back. Written by deletions only."""

    list_display = ("name", "slug", "deleted")
    search_fields = ("name", "slug")
    ordering = ("-deleted", "name")
