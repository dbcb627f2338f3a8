"""Forms of the curators' admin: paper (with its authors), venue and topic edits, and the
action pages' choices."""

import hashlib

from django import forms
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.postgres.forms import SimpleArrayField
from django.forms.models import BaseInlineFormSet

from ..models import (
    Author,
    Authorship,
    Paper,
    PaperTopic,
    RemovedTopic,
    Topic,
    TopicRedirect,
    Venue,
)
from ..name_keys import name_key
from ..text import abstract_key, collapse_negations
from ..topic_rules import rule_matches_by_absence, rule_matches_nothing

# The years a curator may give a venue (the Anthology's first is 1952): a year outside is a
# typing slip, and year 0 has no date (a 500 before).
FIRST_YEAR, LAST_YEAR = 1900, 2100
STALE_PAGE = (
    "Someone changed this paper after you opened this page, so your changes were not saved: "
    "open the paper again to see the change, then make yours."
)
# Parents followed up from a venue to refuse a loop (real chains have one or two links).
MAX_PARENTS = 20
# An author's place on a paper: the positions a curator can type; saving moves rows aside
# by SPARE_POSITIONS first (papers/admin/papers.py), within the column's 32,767.
MAX_POSITION, SPARE_POSITIONS = 9999, 10000


class LinesField(SimpleArrayField):
    """A list of strings edited one per line (titles contain commas)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        super().__init__(forms.CharField(), delimiter="\n", **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = "\n".join(line.strip() for line in value.splitlines() if line.strip())
        return super().to_python(value)


def edit_version(paper: Paper) -> str:
    """A digest of what the paper's change page shows, as the database holds it now: its
    fields, topic links, removed topics and authors (four statements). A save that changed
    nothing leaves it as it was."""
    fields = (*PaperForm.Meta.fields, "curated_fields")
    fresh = Paper.objects.filter(pk=paper.pk).values(*fields).first()
    topics = sorted(PaperTopic.objects.filter(paper_id=paper.pk).values_list("topic_id", "source"))
    removed = sorted(RemovedTopic.objects.filter(paper_id=paper.pk).values_list("topic_id"))
    authors = Authorship.objects.filter(paper_id=paper.pk).order_by("position")
    state = (fresh, topics, removed, list(authors.values_list("position", "author_id")))
    return hashlib.sha256(repr(state).encode()).hexdigest()


class StoredText(forms.CharField):
    """Text as it is stored: a browser sends a text area's line breaks as CRLF, and an
    unchanged two-paragraph abstract counted as changed (and curated)."""

    def to_python(self, value):
        return super().to_python(value).replace("\r\n", "\n")


class PaperForm(forms.ModelForm):
    related_titles = LinesField(
        required=False, help_text="Titles of related lectures, one per line."
    )
    url = forms.URLField(required=False, max_length=500, assume_scheme="https")
    # What the page showed when it was opened: a save over another curator's (or a load's)
    # later change is refused rather than silently undoing it.
    version = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A posted form carries the version it was opened at (its initial too, so that it is
        # no change of its own); clean() reads the current one.
        if self.is_bound:
            self.fields["version"].initial = self.data.get(self.add_prefix("version"))
        elif self.instance.pk is not None:
            self.fields["version"].initial = edit_version(self.instance)

    def clean_title(self):
        """A title the paper had is corrected, never emptied: emptied, the record became
        incomplete, shown by a fragment of its abstract, and the title was lost, kept from
        every later load as the curator's (an outside curator)."""
        title = self.cleaned_data["title"]
        if not title.strip() and self.instance.pk is not None and self.instance.title.strip():
            raise forms.ValidationError(
                "A paper's title cannot be emptied: correct it instead (the title it had: "
                f"“{self.instance.title[:200]}”)."
            )
        return title

    def clean_abstract(self):
        abstract = self.cleaned_data["abstract"]
        key = abstract_key(abstract)
        # Only a changed abstract is checked: the Anthology may give two papers one abstract
        # (a paper and its Findings copy), and either must stay editable.
        if key and (self.instance._state.adding or abstract != self.instance.abstract):
            twin = Paper.objects.filter(abstract_key=key).exclude(pk=self.instance.pk).first()
            if twin:
                raise forms.ValidationError(
                    f"Paper {twin.pk} (“{twin.display_title}”) has this abstract already."
                )
        return abstract

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is not None and cleaned.get("version") != edit_version(self.instance):
            raise forms.ValidationError(STALE_PAGE)
        # Only when both fields were read (a field with its own error is left out).
        texts = [cleaned.get(name) for name in ("title", "abstract")]
        if None not in texts and not any(text.strip() for text in texts):
            raise forms.ValidationError("A paper needs a title or an abstract.")
        return cleaned

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
        field_classes = {"title": StoredText, "abstract": StoredText}


class AuthorshipForm(forms.ModelForm):
    position = forms.IntegerField(min_value=1, max_value=MAX_POSITION)

    class Meta:
        model = Authorship
        fields = ("position", "author")


class AuthorshipFormSet(BaseInlineFormSet):
    """A paper's authors: each once (its positions are checked by the unique constraint)."""

    def clean(self):
        super().clean()
        seen = set()
        for form in self.forms:
            if self._should_delete_form(form) or not getattr(form, "cleaned_data", None):
                continue
            author = form.cleaned_data.get("author")
            if author is not None and author.pk in seen:
                form.add_error("author", f"{author.name} is an author of this paper already.")
            elif author is not None:
                seen.add(author.pk)


class VenueForm(forms.ModelForm):
    year = forms.IntegerField(
        required=False, min_value=FIRST_YEAR, max_value=LAST_YEAR, help_text="Empty: unknown."
    )

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", "The venue cannot end before it starts.")
        parent = cleaned.get("parent")
        if parent is not None and self.instance.pk is not None:
            chain = [parent]
            while chain[-1].parent_id is not None and len(chain) < MAX_PARENTS:
                chain.append(chain[-1].parent)
            if any(venue.pk == self.instance.pk for venue in chain):
                self.add_error("parent", "A venue cannot belong to itself.")
        return cleaned

    class Meta:
        model = Venue
        fields = (
            "name",
            "slug",
            "acronym",
            "year",
            "full_name",
            "parent",
            "location",
            "start_date",
            "end_date",
            "month",
            "welcome_text",
            "booktitle",
            "external_id",
        )


class AuthorForm(forms.ModelForm):
    class Meta:
        model = Author
        fields = ("name", "slug", "orcid", "person_id", "variants", "family_name")

    def clean_name(self):
        """People share names, but not a paper: a name that another author of one of this
        author's papers has is refused ("Fox Mulder, Fox Mulder" on one paper, and later loads
        giving either the other's papers: an outside tester), with the way to say they are one."""
        name = " ".join(self.cleaned_data["name"].split())
        if self.instance.pk is None:
            return name
        papers = Authorship.objects.filter(author=self.instance.pk).values("paper")
        clash = (
            Author.objects.filter(key=name_key(name), authorships__paper__in=papers)
            .exclude(pk=self.instance.pk)
            .first()
        )
        if clash:
            raise forms.ValidationError(
                f"“{clash.name}” is another author of this author's papers; if they are one "
                "person, merge the two authors instead (“Merge the selected authors”)."
            )
        return name


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

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        moved = TopicRedirect.objects.filter(old_slug=slug).exclude(topic=self.instance.pk)
        taken = moved.select_related("topic").first()
        if taken:
            raise forms.ValidationError(
                f"/topics/{slug}/ leads to “{taken.topic.name}” (its old address); choose "
                "another slug."
            )
        return slug

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
    if rule and rule_matches_by_absence(rule):
        raise forms.ValidationError(
            "This rule matches papers by a word they lack, so it would tag nearly every paper: "
            "give the words a paper must have (“safety -guard”, not “-guard”)."
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
        if candidates.model is Paper:
            candidates = candidates.select_related("venue")
        self.fields["survivor"].queryset = candidates
        self.fields["survivor"].label_from_instance = _choice_label


def _choice_label(candidate) -> str:
    """A survivor's choice: a paper with its venue, Anthology ID and id (copies of one paper
    share a title); another with its papers where counted (authors, topics): "Daniel S. Weld
    (9 papers)" tells the name most used."""
    if isinstance(candidate, Paper):
        known = candidate.external_id or "no Anthology ID"
        return f"{candidate.display_title} — {candidate.venue.name}, {known}, id {candidate.pk}"
    count = getattr(candidate, "paper_count", None)
    if count is None:
        return str(candidate)
    return f"{candidate} ({count:,} paper{'' if count == 1 else 's'})"
