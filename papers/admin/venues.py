"""The venue and author admins: paper counts, curated fields recorded; authors who are one
person merged (old addresses redirect), and the redirects; the keys of deleted papers."""

from django.contrib import admin, messages
from django.db.models import Count, Q
from django.template.defaultfilters import pluralize

from .. import curation, merging
from ..models import (
    Author,
    AuthorRedirect,
    DeletedKey,
    Venue,
)
from ..name_keys import name_key
from .actions import IntermediateActionMixin
from .changes import KeptByDeletionsMixin, NoteChangesMixin
from .forms import AuthorForm, VenueForm


@admin.register(Venue)
class VenueAdmin(NoteChangesMixin, admin.ModelAdmin):
    form = VenueForm
    list_display = ("name", "acronym", "year", "location", "start_date", "end_date", "paper_count")
    ordering = ("-year", "name")
    list_filter = ("year", "acronym")
    search_fields = ("name", "acronym", "full_name", "location")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("curated_fields", "former_names")
    autocomplete_fields = ("parent",)
    fieldsets = (
        (None, {"fields": ("name", "slug", "acronym", "year", "full_name", "parent")}),
        ("Event", {"fields": ("location", "start_date", "end_date", "month", "welcome_text")}),
        ("Anthology", {"fields": ("booktitle", "publisher", "editors", "external_id")}),
        ("Curation", {"fields": ("curated_fields", "former_names")}),
    )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("papers"))

    def get_readonly_fields(self, request, obj=None):
        """A venue's slug is its address, which its feed, links and filters keep: set when the
        venue is added, then fixed (changed, the old address answered 404: an outside
        curator)."""
        fixed = super().get_readonly_fields(request, obj)
        return (*fixed, "slug") if obj is not None else fixed

    def get_prepopulated_fields(self, request, obj=None):
        return {} if obj is not None else super().get_prepopulated_fields(request, obj)

    @admin.display(description="papers", ordering="paper_count")
    def paper_count(self, venue):
        return venue.paper_count

    def save_model(self, request, obj, form, change):
        if change:
            curation.record_venue_edit(obj, form.changed_data, form.initial.get("name", ""))
        super().save_model(request, obj, form, change)


@admin.register(Author)
class AuthorAdmin(NoteChangesMixin, IntermediateActionMixin, admin.ModelAdmin):
    form = AuthorForm
    list_display = ("name", "slug", "orcid", "paper_count")
    actions = ("merge_authors",)
    ordering = ("name",)
    search_fields = ("name", "orcid", "slug")
    search_help_text = 'Name (with or without its accents: "Vulic" finds Vulić, "Schuetze" Schütze), slug or ORCID.'
    prepopulated_fields = {"slug": ("name",)}

    def get_search_results(self, request, queryset, search_term):
        """The admin's search, and the name's keys too: a name typed without its accents, its
        umlauts written out ("Schuetze": Schütze, which an outside curator did not find), or
        in other case or spacing, finds the author (the paper form's author picker too); an
        old address of an author joined to another finds that author."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        key = name_key(search_term)
        if key:
            moved = AuthorRedirect.objects.filter(old_slug=search_term.strip().lower())
            named = Q(key__contains=key) | Q(umlaut_key__contains=key)
            found |= queryset.filter(named | Q(pk__in=moved.values("author_id")))
        return found, duplicates

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(paper_count=Count("authorships"))

    @admin.display(description="papers", ordering="paper_count")
    def paper_count(self, author):
        return author.paper_count

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change:
            initial = form.initial
            curation.record_author_edit(
                obj, form.changed_data, initial.get("name", ""), initial.get("slug", "")
            )
        if "name" in form.changed_data:
            self.tell_namesakes(request, obj)

    def tell_namesakes(self, request, author):
        """People share names, so a name another author has is kept; but a curator who
        renamed "Manning" to "C.D. Manning" beside "C. D. Manning" had two pages of one name
        without a word (an outside curator): the others are named, with the way to merge."""
        others = list(Author.objects.namesakes_of(author)[:5])
        if others:
            names = ", ".join(
                f"“{other.name}” ({other.paper_count} paper{pluralize(other.paper_count)})"
                for other in others
            )
            self.message_user(
                request,
                f"Other authors have this name: {names}. If one is the same person, merge them "
                "(“Merge the selected authors”).",
                messages.WARNING,
            )

    def delete_model(self, request, obj):
        curation.delete_authors(Author.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        curation.delete_authors(queryset)

    @admin.action(
        description="Merge the selected authors (one person)", permissions=["change", "delete"]
    )
    def merge_authors(self, request, queryset):
        return self.merge_action(
            request,
            queryset,
            noun="authors",
            order=("-paper_count", "name", "pk"),
            merge=merging.merge_authors,
            report=lambda survivor, others: (
                f"Merged {', '.join(f'“{other}”' for other in others)} into “{survivor}”; "
                "their papers are its papers, later loads give it their names, and the old "
                "addresses redirect to it."
            ),
            action="merge_authors",
            title="Merge authors",
            intro=(
                "Choose the name to keep for this person. The other authors are deleted: their "
                "papers move to it, their names become its other spellings (so later loads "
                "give those names to it), and their addresses redirect to it."
            ),
        )


@admin.register(AuthorRedirect)
class AuthorRedirectAdmin(NoteChangesMixin, admin.ModelAdmin):
    list_display = ("old_slug", "author")
    list_select_related = ("author",)
    search_fields = ("old_slug", "author__name")
    autocomplete_fields = ("author",)


@admin.register(DeletedKey)
class DeletedKeyAdmin(KeptByDeletionsMixin, admin.ModelAdmin):
    """The keys of the papers curators deleted, which loads leave out (papers/deleted_keys.py):
    deleting a paper's rows here lets loads bring it back. Written by deletions only."""

    list_display = ("title", "kind", "key", "deleted")
    list_filter = ("kind",)
    search_fields = ("title", "key")
    ordering = ("-deleted", "title")
