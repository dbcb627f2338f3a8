"""Forms of the curators' admin: paper and topic edits, and the action pages' choices."""

from django import forms
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.postgres.forms import SimpleArrayField

from ..models import (
    Paper,
    PaperTopic,
    Topic,
)
from ..text import abstract_key, collapse_negations
from ..topic_rules import rule_matches_nothing


class LinesField(SimpleArrayField):
    """A list of strings edited one per line (titles contain commas)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(forms.CharField(), delimiter="\n", **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = "\n".join(line.strip() for line in value.splitlines() if line.strip())
        return super().to_python(value)


class PaperForm(forms.ModelForm):
    related_titles = LinesField(
        required=False, help_text="Titles of related lectures, one per line."
    )
    url = forms.URLField(required=False, max_length=500, assume_scheme="https")

    def clean_abstract(self):
        abstract = self.cleaned_data["abstract"]
        key = abstract_key(abstract)
        if key:
            twin = Paper.objects.filter(abstract_key=key).exclude(pk=self.instance.pk).first()
            if twin:
                raise forms.ValidationError(
                    f"Paper {twin.pk} (“{twin.display_title}”) has this abstract already."
                )
        return abstract

    class Meta:
        model = Paper
        fields = (
            "title",
            "abstract",
            "venue",
            "country",
            "presentation_format",
            "related_titles",
            "external_id",
            "pages",
            "doi",
            "url",
            "bibkey",
            "reviewed",
        )


class TopicForm(forms.ModelForm):
    class Meta:
        model = Topic
        fields = ("name", "slug", "description", "rule", "title_rule")

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        clash = Topic.objects.filter(name__iexact=name).exclude(pk=self.instance.pk).first()
        if clash:
            raise forms.ValidationError(
                f"The topic “{clash.name}” already has this name; merge the two topics instead."
            )
        return name

    def clean_rule(self):
        return _clean_rule(self.cleaned_data["rule"])

    def clean_title_rule(self):
        return _clean_rule(self.cleaned_data["title_rule"])


def _clean_rule(text: str) -> str:
    rule = collapse_negations(text).strip()
    if rule and rule_matches_nothing(rule):
        raise forms.ValidationError(
            "This rule has only stop words or punctuation, so it can match no paper."
        )
    return rule


class ChooseTopicForm(forms.Form):
    def __init__(self, *args, admin_site, topics=None, **kwargs):
        super().__init__(*args, **kwargs)
        if topics is None:  # any topic: searched as the curator types
            widget = AutocompleteSelect(PaperTopic._meta.get_field("topic"), admin_site)
            self.fields["topic"] = forms.ModelChoiceField(Topic.objects.all(), widget=widget)
        else:
            self.fields["topic"] = forms.ModelChoiceField(topics)


class ChooseSurvivorForm(forms.Form):
    survivor = forms.ModelChoiceField(
        queryset=None, widget=forms.RadioSelect, empty_label=None, label="Keep"
    )

    def __init__(self, *args, candidates, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["survivor"].queryset = candidates
