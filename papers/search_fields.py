"""The list's parameters as form fields: repeated slugs (venue=a&venue=b) and the page number,
each checked as a user can type it (papers/filtering.py's PaperFilterSet declares them)."""

import re

import django_filters
from django import forms

from .slugs import validate_slug

MAX_VALUES = 20
MAX_PAGE_DIGITS = 12


class SlugListField(forms.Field):
    """Repeated ?name=slug parameters: a list of at most MAX_VALUES slugs."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        if not value:
            return []
        if isinstance(value, str):
            value = [value]
        values = list(dict.fromkeys(str(item).strip() for item in value if str(item).strip()))
        if len(values) > MAX_VALUES:
            raise forms.ValidationError(f"At most {MAX_VALUES} values are allowed.")
        return values

    def validate(self, value):
        super().validate(value)
        for item in value:
            if len(item) > 200:
                raise forms.ValidationError("A slug is at most 200 characters.")
            validate_slug(item)


class SlugListFilter(django_filters.Filter):
    field_class = SlugListField


class PageField(forms.Field):
    """?page=: a positive whole number in ASCII digits (leading zeros allowed), 1 by default."""

    def to_python(self, value):
        raw = str(value or "").strip()
        if not raw:
            return 1
        if not re.fullmatch(r"[0-9]+", raw):
            raise forms.ValidationError(f"page must be a positive whole number, not “{raw[:50]}”.")
        digits = raw.lstrip("0")
        if not digits:
            raise forms.ValidationError("page must be 1 or more.")
        # Beyond any collection: the page is clamped to the last one (int() of a few thousand
        # digits would itself fail).
        return int(digits) if len(digits) <= MAX_PAGE_DIGITS else 10**MAX_PAGE_DIGITS
