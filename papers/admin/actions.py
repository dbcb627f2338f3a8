"""Admin actions that ask for a choice on a page of their own before they apply it."""

from django.contrib import messages
from django.contrib.admin import helpers
from django.template.response import TemplateResponse

from ..load_guard import LoadRunning
from ..merging import MergeRefused
from .forms import ChooseSurvivorForm

# Duplicates of one paper or topic are a handful; "select all" of a list is not a merge (its
# page offered 26,058 survivors to choose from, and one click would have merged them all).
MAX_MERGED = 20


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
        count = queryset.count()
        if count < 2:
            self.message_user(request, f"Select at least two {noun} to merge.", messages.ERROR)
            return None
        if count > MAX_MERGED:
            self.message_user(
                request,
                f"{count:,} {noun} are selected: a merge takes at most {MAX_MERGED} (the "
                f"copies of one {noun[:-1]}). Narrow the selection first.",
                messages.ERROR,
            )
            return None
        form = ChooseSurvivorForm(
            request.POST if self.action_form_submitted(request) else None,
            candidates=queryset.order_by(*order),
        )
        if not form.is_valid():
            return self.render_action_page(request, queryset, form, submit="Merge", **page)
        survivor = form.cleaned_data["survivor"]
        others = list(queryset.exclude(pk=survivor.pk))
        try:
            merge(survivor, others)
        except (MergeRefused, LoadRunning) as refused:
            self.message_user(request, str(refused), messages.ERROR)
            return None
        self.message_user(request, report(survivor, others), messages.SUCCESS)
        return None
