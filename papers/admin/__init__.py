"""The curators' admin: venues, papers, topics and authors.

This package only declares the admin pages (lists, filters, forms, actions); what a curator's
change does — recording it in ``curated_fields`` so that later loads never undo it, curator
topic links and removals, merges, refreshed names — is done by ``papers.curation``. Importing
it registers every model's admin.
"""

from django.contrib import admin

from . import papers, topics, venues

admin.site.site_header = "Paper browser administration"
admin.site.site_title = "Paper browser admin"
admin.site.index_title = "Curation"

__all__ = ["papers", "topics", "venues"]
