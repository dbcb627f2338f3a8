"""List filters of the paper admin."""

from django.contrib import admin


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
