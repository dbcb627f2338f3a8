"""Every admin save and delete raises the data version, in its transaction (papers/caching.py),
and no deletion or merge runs while a load does.

The curation functions the admins call refresh what a change moves (names, facet counts); this
mixin makes sure that no edit, whatever it changed, leaves a cached page computed before it. A
deletion or a merge while a load runs is refused (papers/load_guard.py: the load would fail on
its links to what was deleted, or write its copy over the merge): the curator is told to try
again when the load has ended, on the page they were on.
"""

from django.contrib import messages
from django.db import transaction
from django.http import HttpResponseRedirect

from .. import curation
from ..load_guard import LoadRunning, refuse_during_load


class NoteChangesMixin:
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        curation.note_change()

    def delete_model(self, request, obj):
        with transaction.atomic():
            refuse_during_load(f"delete the {self.model._meta.verbose_name_plural}")
            super().delete_model(request, obj)
            curation.note_change()

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            refuse_during_load(f"delete the {self.model._meta.verbose_name_plural}")
            super().delete_queryset(request, queryset)
            curation.note_change()

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except LoadRunning as running:
            return self.refused(request, running)

    def response_action(self, request, queryset):
        # One transaction: Django's bulk delete logs the deletions before it deletes, and a
        # refused one left "Deleted" entries in the history (a reviewer).
        try:
            with transaction.atomic():
                return super().response_action(request, queryset)
        except LoadRunning as running:
            return self.refused(request, running)

    def refused(self, request, running: LoadRunning):
        self.message_user(request, str(running), messages.ERROR)
        return HttpResponseRedirect(request.get_full_path())


class KeptByDeletionsMixin:
    """The rows deletions keep (a deleted paper's keys, a deleted topic's name): listed, and
    deleted by a curator to let loads bring the paper or topic back; never added or changed."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
