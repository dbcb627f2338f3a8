"""Slugs in any script: the one rule of what a slug may hold, for the slugs the loader makes,
the addresses that name them, the list's parameters and the admin's fields.

Django's unicode slugs hold word characters only, and a script's combining marks are none:
"हिन्दी शर्मा" lost its vowel signs and viramas ("हनद-शरम", which no reader can read), as Tamil,
Bengali or Thai names did. Here a slug holds letters, digits, "_", "-" and combining marks.
"""

import re
import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

INVALID_SLUG = "“{value}” is not a valid slug: use letters, digits, - and _."
_SEPARATORS = re.compile(r"[-\s]+")


def _slug_character(character: str) -> bool:
    return character.isalnum() or character in "-_" or unicodedata.category(character)[0] == "M"


def is_slug(value: str) -> bool:
    return bool(value) and all(_slug_character(character) for character in value)


def validate_slug(value: str) -> None:
    if not is_slug(value):
        raise ValidationError(INVALID_SLUG.format(value=value[:50]), code="invalid")


def validate_stored_slug(value: str) -> None:
    """A slug a page is named by: one an address asked with capitals redirects to, so in small
    letters. "Micaela-Jantzi" saved in the admin made its page redirect to "micaela-jantzi" and
    back, for ever (an outside curator)."""
    validate_slug(value)
    if value != value.lower():
        raise ValidationError(
            f"“{value[:50]}” is not a valid slug: use small letters (“{value[:50].lower()}”).",
            code="capitals",
        )


def script_slug(name: str) -> str:
    """``name`` as a slug in its own script, marks kept ("हिन्दी-शर्मा", "иван-петров")."""
    text = unicodedata.normalize("NFKC", name).lower()
    kept = "".join(c for c in text if _slug_character(c) or c.isspace())
    return _SEPARATORS.sub("-", kept).strip("-_")


class SlugField(models.SlugField):
    """A model's slug as this module allows it, in the admin's forms too."""

    default_validators = [validate_stored_slug]

    def __init__(self, *args, **kwargs):
        # Django's unicode slug would put its own validator in place of this one.
        kwargs["allow_unicode"] = False
        super().__init__(*args, **kwargs)
        self.allow_unicode = True

    def formfield(self, **kwargs):
        return models.CharField.formfield(
            self, **{"form_class": forms.CharField, "validators": [validate_stored_slug], **kwargs}
        )
