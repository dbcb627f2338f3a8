"""Every admin save and delete raises the data version, in its transaction (papers/caching.py).

The curation functions the admins call refresh what a change moves (names, facet counts); this
mixin makes sure that no edit, whatever it changed, leaves a cached page computed before it.
"""

from .. import curation


class NoteChangesMixin:
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        curation.note_change()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        curation.note_change()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        curation.note_change()
