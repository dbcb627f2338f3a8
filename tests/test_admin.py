"""The curators' admin, driven through its real pages with the test client, on PostgreSQL.

The seeds are loaded the way `make setup` loads them (topics.json, then load_papers), forms are
posted as a browser would post them (every field the page renders), and each action is checked
to change exactly what it says.
"""

from html.parser import HTMLParser
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.models import DELETION, LogEntry
from django.core.management import call_command
from django.db import connection
from django.db.models import Q
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django.asserts import assertContains

from papers import curation, search
from papers.admin.forms import STALE_PAGE
from papers.filtering import PaperFilterSet
from papers.models import (
    Author,
    Authorship,
    DeletedKey,
    Paper,
    PaperTopic,
    RemovedTopic,
    Topic,
    TopicRedirect,
    Venue,
)
from papers.querysets import web_query
from papers.search import search_page
from papers.text import abstract_key
from papers.topic_rules import apply_topic_rules
from tests.factories import finish, make_author, make_paper
from tests.support import load_running, parse

TOPICS_FIXTURE = settings.FIXTURES_DIR / "topics.json"
LARF = "Layer-Aware Representation Filtering: Purifying Finetuning Data to Preserve LLM Safety Alignment"
MLWQ = "MLWQ: Efficient Small Language Model Deployment via Multi-Level Weight Quantization"
TOKEN_REDUCTION = "Rethinking Token Reduction for State Space Models"


# Fixtures and helpers -------------------------------------------------------------------


@pytest.fixture(autouse=True)
def admin_test_settings(settings):
    """A fast password hasher for the accounts the tests create."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def load_everything():
    """What `make setup` does: the topic vocabulary, then every dump (rules run at the end)."""
    call_command("loaddata", str(TOPICS_FIXTURE), verbosity=0)
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)


@pytest.fixture
def seeded(db):
    load_everything()


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_superuser("curator", "curator@example.org", "pw")
    client.force_login(user)
    return client


def untitled_acl_paper(startswith: str) -> Paper:
    return Paper.objects.get(title="", abstract__startswith=startswith)


def links() -> set[tuple[int, str, str]]:
    """Every topic link in the collection, as (paper id, topic name, source)."""
    return set(PaperTopic.objects.values_list("paper_id", "topic__name", "source"))


def topics_of(paper: Paper) -> dict[str, str]:
    return dict(paper.topic_links.values_list("topic__name", "source"))


def changelist_pks(response) -> list[int]:
    return [paper.pk for paper in response.context["cl"].result_list]


class _FormReader(HTMLParser):
    """The (name, value) pairs a browser would submit for one form of a page."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.pairs: list[tuple[str, str]] = []
        self.select: str | None = None
        self.select_options: list[tuple[str, bool]] = []
        self.textarea: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and attributes.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        name = attributes.get("name")
        if tag == "input" and name:
            kind = attributes.get("type", "text")
            if kind in {"submit", "button", "image", "reset", "file"}:
                return
            if kind in {"checkbox", "radio"}:
                if "checked" in attributes:
                    self.pairs.append((name, attributes.get("value") or "on"))
                return
            self.pairs.append((name, attributes.get("value") or ""))
        elif tag == "select" and name:
            self.select, self.select_options = name, []
        elif tag == "option" and self.select:
            self.select_options.append((attributes.get("value") or "", "selected" in attributes))
        elif tag == "textarea" and name:
            self.textarea, self.text = name, []

    def handle_data(self, data):
        if self.textarea:
            self.text.append(data)

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "textarea" and self.textarea:
            text = "".join(self.text)
            self.pairs.append((self.textarea, text[1:] if text.startswith("\n") else text))
            self.textarea = None
        elif tag == "select" and self.select:
            chosen = [value for value, selected in self.select_options if selected]
            if not chosen and self.select_options:
                chosen = [self.select_options[0][0]]
            self.pairs.extend((self.select, value) for value in chosen)
            self.select = None


def form_data(response, form_id: str) -> dict[str, list[str]]:
    """What the page's form posts unchanged; edit the returned dict, then post it."""
    reader = _FormReader(form_id)
    reader.feed(response.content.decode())
    assert reader.pairs, f"no form #{form_id} on the page"
    data: dict[str, list[str]] = {}
    for name, value in reader.pairs:
        data.setdefault(name, []).append(value)
    return data


def inline_row(data: dict, prefix: str, topic_name: str) -> int:
    """The index of the inline row showing the given topic."""
    topic = Topic.objects.get(name=topic_name)
    total = int(data[f"{prefix}-TOTAL_FORMS"][0])
    for index in range(total):
        if data.get(f"{prefix}-{index}-topic") == [str(topic.pk)]:
            return index
    raise AssertionError(f"no row for {topic_name}")


def open_change_page(client, paper: Paper) -> tuple[str, dict[str, list[str]]]:
    """(the paper's admin change page, what its form posts unchanged), as a curator opens it."""
    url = reverse("admin:papers_paper_change", args=[paper.pk])
    page = client.get(url)
    assert page.status_code == 200
    return url, form_data(page, "paper_form")


def post_change_form(client, paper: Paper, edit) -> None:
    """Open the paper's admin change page, let `edit` change the posted data, save."""
    url, data = open_change_page(client, paper)
    edit(data)
    data["_save"] = ["Save"]
    response = client.post(url, data)
    if response.status_code != 302:
        errors = [response.context["adminform"].form.errors] + [
            formset.errors for formset in response.context["inline_admin_formsets"]
        ]
        raise AssertionError(f"the change form did not save: {errors}")


def run_action(client, model: str, action: str, objects, **fields):
    """Choose an action on the changelist; then, if it asks, answer its page with `fields`."""
    url = reverse(f"admin:papers_{model}_changelist")
    chosen = {
        "action": action,
        "index": "0",
        ACTION_CHECKBOX_NAME: [str(obj.pk) for obj in objects],
    }
    response = client.post(url, chosen)
    if not fields:
        return response
    assert response.status_code == 200, "the action shows its own page first"
    data = {
        "action": action,
        ACTION_CHECKBOX_NAME: [str(obj.pk) for obj in objects],
        "select_across": "0",
        "apply": "yes",
        **{name: str(value) for name, value in fields.items()},
    }
    return client.post(url, data)


# Access -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/admin/", "/admin/papers/paper/", "/admin/papers/topic/"])
def test_anonymous_visitor_gets_the_login_page(client, db, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/admin/login/?next={path}"
    login = client.get(response["Location"])
    assert login.status_code == 200
    form = parse(login)
    assert form.find_all("input", name="csrfmiddlewaretoken")
    assert form.find_all("input", name="password")


def test_a_user_who_is_not_staff_gets_the_login_page(client, django_user_model, seeded):
    user = django_user_model.objects.create_user("reader", "reader@example.org", "pw")
    client.force_login(user)
    response = client.get("/admin/papers/paper/")
    assert response.status_code == 302
    assert response["Location"] == "/admin/login/?next=/admin/papers/paper/"


def test_staff_without_permissions_cannot_change_papers(client, django_user_model, seeded):
    user = django_user_model.objects.create_user("intern", "intern@example.org", "pw")
    user.is_staff = True
    user.save()
    client.force_login(user)
    paper = Paper.objects.first()
    assert client.get("/admin/papers/paper/").status_code == 403
    assert client.get(reverse("admin:papers_paper_change", args=[paper.pk])).status_code == 403


def test_admin_posts_need_the_csrf_token(seeded, django_user_model):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_superuser("c", "c@example.org", "pw"))
    paper = Paper.objects.first()
    response = client.post(
        reverse("admin:papers_paper_change", args=[paper.pk]), {"title": "Forged"}
    )
    assert response.status_code == 403
    assert Paper.objects.get(pk=paper.pk).title == paper.title


def test_public_pages_show_anonymous_visitors_no_admin_link(client, seeded):
    response = client.get("/")
    assert response.status_code == 200
    assert b"/admin/" not in response.content


# Every page renders -----------------------------------------------------------------------


def test_every_admin_page_renders_with_the_seeds(staff, seeded):
    author = Author.objects.create(name="Ada Lovelace", slug="ada-lovelace")
    Authorship.objects.create(paper=Paper.objects.first(), author=author, position=1)
    TopicRedirect.objects.create(old_slug="old-safety", topic=Topic.objects.get(name="LLM Safety"))
    RemovedTopic.objects.create(
        paper=Paper.objects.get(title=LARF), topic=Topic.objects.get(name="Reasoning")
    )
    assert staff.get("/admin/").status_code == 200
    assert staff.get("/admin/papers/").status_code == 200
    for model in (Paper, Venue, Topic, Author, TopicRedirect):
        name = model._meta.model_name
        changelist = staff.get(reverse(f"admin:papers_{name}_changelist"))
        assert changelist.status_code == 200, name
        assert staff.get(reverse(f"admin:papers_{name}_add")).status_code == 200, name
        for obj in model.objects.all():
            change = staff.get(reverse(f"admin:papers_{name}_change", args=[obj.pk]))
            assert change.status_code == 200, (name, obj.pk)
        obj = model.objects.first()
        for view in ("history", "delete"):
            page = staff.get(reverse(f"admin:papers_{name}_{view}", args=[obj.pk]))
            assert page.status_code == 200, (name, view)


def test_paper_list_shows_its_columns_and_derived_titles(staff, seeded):
    emnlp_2024 = Venue.objects.get(name="EMNLP 2024")
    response = staff.get(f"/admin/papers/paper/?venue__id__exact={emnlp_2024.pk}")
    content = response.content.decode()
    assert response.context["cl"].result_count == 11
    headers = [th.text for th in parse(response).find("table", id="result_list").find_all("th")]
    for header in ("Title", "Venue", "Topics", "Country", "Has title"):
        assert header in headers
    assert TOKEN_REDUCTION in content
    assert "United States" in content
    for name in (
        "Information Retrieval and Text Mining",
        "Language Modeling",
        "Question Answering",
    ):
        assert name in content
    untitled = Paper.objects.get(abstract__startswith="For extremely weak-supervised")
    assert untitled.title == ""
    assertContains(response, "<small>(derived)</small>", count=1, html=True)
    assertContains(
        response,
        '<span class="derived-title" title="No title in the source: derived from the abstract">'
        f"{untitled.display_title}</span> <small>(derived)</small>",
        html=True,
    )
    assert staff.get("/admin/papers/paper/?has_title=no").context["cl"].result_count == 59


def test_paper_list_queries_are_bounded(staff, seeded):
    emnlp_2024 = Venue.objects.get(name="EMNLP 2024")
    with CaptureQueriesContext(connection) as few:
        staff.get(f"/admin/papers/paper/?venue__id__exact={emnlp_2024.pk}")
    with CaptureQueriesContext(connection) as many:
        staff.get("/admin/papers/paper/")
    assert len(many) == len(few)  # 11 papers or 50 papers: the same queries
    assert len(many) <= 15


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("has_title=yes", 20),
        ("has_title=no", 59),
        ("country=China", 1),
        ("country=__none__", 77),
        ("source_file=fixtures/003_ca14163f21a50126.txt", 11),
        ("reviewed__exact=0", 79),
    ],
)
def test_paper_filters(staff, seeded, query, expected):
    response = staff.get(f"/admin/papers/paper/?{query}")
    assert response.status_code == 200
    assert response.context["cl"].result_count == expected


def test_paper_filter_by_topic(staff, seeded):
    topic = Topic.objects.get(name="Speech and Audio")
    response = staff.get(f"/admin/papers/paper/?topics__id__exact={topic.pk}")
    expected = set(topic.papers.values_list("pk", flat=True))
    assert len(expected) == 4
    assert set(changelist_pks(response)) == expected


def test_the_source_file_filter_lists_the_dumps(staff, seeded):
    response = staff.get("/admin/papers/paper/")
    spec = next(s for s in response.context["cl"].filter_specs if s.title == "source file")
    values = [value for value, _ in spec.lookup_choices]
    assert values == [
        "fixtures/000_a82bdcca502a49c9.txt",
        "fixtures/001_42276ca0236703a6.txt",
        "fixtures/002_7ef0b9c4a55fd6de.txt",
        "fixtures/003_ca14163f21a50126.txt",
        "fixtures/004_eb211f5027e5b66c.txt",
        "__none__",
    ]


# Search -----------------------------------------------------------------------------------


def test_admin_search_is_full_text_with_stemming(staff, seeded):
    guard = Paper.objects.get(abstract__contains="smaller distilled models are used")
    topic = Topic.objects.get(name="Compression and Quantization")
    PaperTopic.objects.get_or_create(paper=guard, topic=topic, defaults={"source": "curator"})
    response = staff.get("/admin/papers/paper/", {"q": "quantized"})
    found = set(changelist_pks(response))
    # "quantized" stems to quantiz: titles and abstracts saying quantization or
    # vector-quantized. Not the papers tagged "Compression and Quantization" whose text says
    # neither (a topic's name is no words of its papers: the topic filter finds them), such as
    # a safety guard made cheaper with "smaller distilled models".
    in_text = Paper.objects.filter(
        Q(abstract__iregex=r"quantiz") | Q(title__iregex=r"quantiz")
    ).values_list("pk", flat=True)
    assert found == set(in_text)
    assert Paper.objects.get(title=MLWQ).pk in found
    assert guard.pk not in found
    tagged = staff.get("/admin/papers/paper/", {"topics__id__exact": topic.pk})
    assert guard.pk in changelist_pks(tagged)
    # A fragment of a word is not a word: no substring scan.
    assert staff.get("/admin/papers/paper/", {"q": "uantiz"}).context["cl"].result_count == 0


def test_admin_search_uses_websearch_syntax_and_ranks(staff, seeded):
    response = staff.get("/admin/papers/paper/", {"q": '"kv cache" -spindlekv'})
    pks = changelist_pks(response)
    assert pks == list(
        Paper.objects.filter(abstract__icontains="kv cache")
        .exclude(abstract__icontains="spindlekv")
        .values_list("pk", flat=True)
    )
    ranked = staff.get("/admin/papers/paper/", {"q": "quantization"})
    assert ranked.context["cl"].result_list[0].title == MLWQ  # in its title: ranked first


def test_admin_search_places_the_pages_best_first_then_every_other_match(
    staff, seeded, monkeypatch
):
    monkeypatch.setattr(search, "ADMIN_RANKED", 3)
    public = search_page(PaperFilterSet(QueryDict("q=language+models")))
    response = staff.get("/admin/papers/paper/", {"q": "language models"})
    pks = changelist_pks(response)
    matches = Paper.objects.filter(search_vector=web_query("language models"))
    assert response.context["cl"].result_count == matches.count() > 3
    assert pks[:3] == [paper.pk for paper in public.papers[:3]]
    # The others follow by id, every one of them there (an action on all reaches each).
    rest = sorted(set(matches.values_list("pk", flat=True)) - set(pks[:3]))
    assert pks[3:] == rest[: len(pks) - 3]


def test_admin_search_finds_a_paper_by_its_identifier(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    Paper.objects.filter(pk=paper.pk).update(
        external_id="2025.acl-long.7", doi="10.18653/v1/2025.acl-long.7"
    )
    for pasted in (
        "2025.acl-long.7",
        "10.18653/v1/2025.acl-long.7",
        "https://aclanthology.org/2025.acl-long.7.pdf",
        # Its page's address here, by either name (an outside curator found none).
        "http://testserver/papers/2025.acl-long.7/",
        f"http://testserver/papers/{paper.pk}/",
    ):
        response = staff.get("/admin/papers/paper/", {"q": pasted})
        assert changelist_pks(response) == [paper.pk], pasted


def test_admin_finds_an_author_typed_without_accents(staff, seeded):
    # A slug that does not spell the name either (an older one): only the key finds it.
    vulic = Author.objects.create(name="Ivan Vulić", slug="ivan-v")
    Author.objects.create(name="Ivana Vulovic", slug="ivana-vulovic")
    response = staff.get("/admin/papers/author/", {"q": "vulic"})
    assert [author.pk for author in response.context["cl"].result_list] == [vulic.pk]
    # Its umlauts written out too (an outside curator found nobody for "Schuetze").
    schutze = make_author("Hinrich Schütze")
    response = staff.get("/admin/papers/author/", {"q": "Schuetze"})
    assert [author.pk for author in response.context["cl"].result_list] == [schutze.pk]
    picker = staff.get(
        "/admin/autocomplete/",
        {
            "app_label": "papers",
            "model_name": "authorship",
            "field_name": "author",
            "term": "Vulic",
        },
    )
    assert picker.json()["results"] == [{"id": str(vulic.pk), "text": "Ivan Vulić"}]


def test_admin_search_by_id_and_digit_like_characters(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    assert changelist_pks(staff.get("/admin/papers/paper/", {"q": str(paper.pk)})) == [paper.pk]
    # Superscripts, circled and subscript digits are digits to str.isdigit(), not to int().
    for term in ("²", "①", "₁", "9" * 40):
        response = staff.get("/admin/papers/paper/", {"q": term})
        assert response.status_code == 200, term
        assert response.context["cl"].result_count == 0, term


def test_admin_search_runs_no_like_scans(staff, seeded):
    with CaptureQueriesContext(connection) as queries:
        staff.get("/admin/papers/paper/", {"q": "speech"})
    sql = " ".join(query["sql"] for query in queries).upper()
    assert " LIKE " not in sql
    assert "WEBSEARCH_TO_TSQUERY" in sql


def test_the_topic_filter_finds_a_topic_a_curator_added(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    zebra = Topic.objects.create(name="zebrafish studies", slug="zebrafish-studies")

    def add_zebra(data):
        index = int(data["topic_links-TOTAL_FORMS"][0]) - 1  # the empty extra row
        data[f"topic_links-{index}-topic"] = [str(zebra.pk)]

    post_change_form(staff, paper, add_zebra)
    response = staff.get("/admin/papers/paper/", {"topics__id__exact": zebra.pk})
    assert changelist_pks(response) == [paper.pk]
    # The search reads the paper's own words: the topic's name is not among them.
    assert changelist_pks(staff.get("/admin/papers/paper/", {"q": "zebrafish"})) == []


# Editing a paper --------------------------------------------------------------------------


def test_changing_a_paper_records_curated_fields_and_topic_sources(staff, seeded):
    paper = Paper.objects.get(title=LARF)
    assert topics_of(paper) == {"LLM Fine-Tuning": "dump", "LLM Safety": "dump"}
    alignment = Topic.objects.get(name="Alignment and Preference Learning")

    def edit(data):
        data["country"] = ["Singapore"]
        data[f"topic_links-{inline_row(data, 'topic_links', 'LLM Safety')}-DELETE"] = ["on"]
        index = int(data["topic_links-TOTAL_FORMS"][0]) - 1
        data[f"topic_links-{index}-topic"] = [str(alignment.pk)]

    before = links()
    post_change_form(staff, paper, edit)
    paper.refresh_from_db()
    assert paper.country == "Singapore"
    assert paper.title == LARF
    assert paper.curated_fields == ["country", "topics"]
    assert topics_of(paper) == {
        "LLM Fine-Tuning": "dump",
        "Alignment and Preference Learning": "curator",
    }
    assert list(RemovedTopic.objects.values_list("paper_id", "topic__name")) == [
        (paper.pk, "LLM Safety")
    ]
    assert paper.topic_names == "Alignment and Preference Learning, LLM Fine-Tuning"
    assert links() ^ before == {
        (paper.pk, "LLM Safety", "dump"),
        (paper.pk, "Alignment and Preference Learning", "curator"),
    }


def test_adding_back_a_removed_topic_clears_the_removal(staff, seeded):
    paper = Paper.objects.get(title=LARF)
    safety = Topic.objects.get(name="LLM Safety")
    PaperTopic.objects.filter(paper=paper, topic=safety).delete()
    RemovedTopic.objects.create(paper=paper, topic=safety)

    def add_safety(data):
        index = int(data["topic_links-TOTAL_FORMS"][0]) - 1
        data[f"topic_links-{index}-topic"] = [str(safety.pk)]

    post_change_form(staff, paper, add_safety)
    assert topics_of(paper)["LLM Safety"] == "curator"
    assert not RemovedTopic.objects.exists()


def test_saving_an_unchanged_paper_curates_nothing(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    before = links()
    post_change_form(staff, paper, lambda data: None)
    paper.refresh_from_db()
    assert paper.curated_fields == []
    assert links() == before
    assert not RemovedTopic.objects.exists()


def test_the_change_page_keeps_provenance_read_only_and_leaves_out_the_search_vector(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    page = staff.get(reverse("admin:papers_paper_change", args=[paper.pk]))
    data = form_data(page, "paper_form")
    for hidden in ("search_vector", "topic_names", "author_names", "abstract_key"):
        assert hidden not in data
        assert parse(page).find_all(name=hidden) == []
    for read_only in ("source_file", "source_position", "first_loaded", "last_loaded"):
        assert read_only not in data
    assert "fixtures/003_ca14163f21a50126.txt" in page.content.decode()
    # A forged post cannot rewrite provenance either.
    data.update(source_file=["forged.txt"], source_position=["1"], _save=["Save"])
    staff.post(reverse("admin:papers_paper_change", args=[paper.pk]), data)
    paper.refresh_from_db()
    assert paper.source_file == "fixtures/003_ca14163f21a50126.txt"
    assert paper.curated_fields == []


def test_topic_inline_uses_autocomplete(staff, seeded):
    paper = Paper.objects.get(title=LARF)
    page = staff.get(reverse("admin:papers_paper_change", args=[paper.pk])).content.decode()
    assert parse(page).find_all(data_ajax__url="/admin/autocomplete/")
    found = staff.get(
        "/admin/autocomplete/",
        {"term": "safe", "app_label": "papers", "model_name": "papertopic", "field_name": "topic"},
    )
    assert [item["text"] for item in found.json()["results"]] == ["LLM Safety"]
    # The topics named so first: "Reasoning" typed listed Knowledge Graphs, whose description
    # says reasoning, first, and Enter chose it (an outside curator).
    found = staff.get(
        "/admin/autocomplete/",
        {
            "term": "reasoning",
            "app_label": "papers",
            "model_name": "papertopic",
            "field_name": "topic",
        },
    )
    named = [item["text"] for item in found.json()["results"]]
    assert named[0] == "Reasoning" and "Knowledge Graphs" in named


# Surviving reloads ------------------------------------------------------------------------


def test_curated_edits_survive_a_reload_of_every_dump(staff, seeded):
    untitled = untitled_acl_paper("Speculative decoding accelerates")
    lecture = Paper.objects.get(title=LARF)
    listed = Paper.objects.get(title=TOKEN_REDUCTION)
    alignment = Topic.objects.get(name="Alignment and Preference Learning")
    speech = Topic.objects.get(name="Speech and Audio")
    emnlp_2024 = Venue.objects.get(name="EMNLP 2024")

    def give_title_and_topic(data):
        data["title"] = ["Speculative Sampling as Channel Simulation"]
        index = int(data["topic_links-TOTAL_FORMS"][0]) - 1
        data[f"topic_links-{index}-topic"] = [str(speech.pk)]

    def fix_lecture(data):
        data["country"] = ["Singapore"]
        data[f"topic_links-{inline_row(data, 'topic_links', 'LLM Safety')}-DELETE"] = ["on"]
        index = int(data["topic_links-TOTAL_FORMS"][0]) - 1
        data[f"topic_links-{index}-topic"] = [str(alignment.pk)]

    def clear_country_and_move(data):
        data["country"] = [""]
        data["title"] = ["Token Reduction for State Space Models, Revisited"]
        data["venue"] = [str(Venue.objects.get(name="EMNLP 2025").pk)]
        row = inline_row(data, "topic_links", "Question Answering")
        data[f"topic_links-{row}-DELETE"] = ["on"]

    post_change_form(staff, untitled, give_title_and_topic)
    post_change_form(staff, lecture, fix_lecture)
    post_change_form(staff, listed, clear_country_and_move)
    edited = links()

    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    call_command("apply_topic_rules", verbosity=0)

    assert Paper.objects.count() == 79
    untitled.refresh_from_db()
    lecture.refresh_from_db()
    listed.refresh_from_db()
    assert untitled.title == "Speculative Sampling as Channel Simulation"
    assert topics_of(untitled)["Speech and Audio"] == "curator"
    assert lecture.country == "Singapore"
    assert "LLM Safety" not in topics_of(lecture)  # the dump and the rule both want it back
    assert topics_of(lecture)["Alignment and Preference Learning"] == "curator"
    assert listed.country == ""
    assert listed.title == "Token Reduction for State Space Models, Revisited"
    assert listed.venue.name == "EMNLP 2025"
    assert listed.venue != emnlp_2024
    assert "Question Answering" not in topics_of(listed)
    assert links() == edited
    assert untitled.curated_fields == ["title", "topics"]
    assert lecture.curated_fields == ["country", "topics"]
    assert listed.curated_fields == ["country", "title", "venue", "topics"]


def test_a_renamed_topic_keeps_its_papers_through_a_reload(staff, seeded):
    topic = Topic.objects.get(name="Speech and Audio")
    papers = set(topic.papers.values_list("pk", flat=True))
    url = reverse("admin:papers_topic_change", args=[topic.pk])
    data = form_data(staff.get(url), "topic_form")
    data.update(name=["spoken language processing"], slug=["spoken-language"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    topic.refresh_from_db()
    assert topic.name == "spoken language processing"
    assert TopicRedirect.objects.get(old_slug="speech-and-audio").topic == topic
    assert all(
        "spoken language processing" in names
        for names in Paper.objects.filter(pk__in=papers).values_list("topic_names", flat=True)
    )
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    assert set(topic.papers.values_list("pk", flat=True)) == papers
    assert not Topic.objects.filter(name="Speech and Audio").exists()


def test_a_renamed_dump_topic_is_not_recreated_by_a_reload(staff, seeded):
    topic = Topic.objects.get(name="Question Answering")
    papers = set(topic.papers.values_list("pk", flat=True))
    url = reverse("admin:papers_topic_change", args=[topic.pk])
    data = form_data(staff.get(url), "topic_form")
    data.update(name=["open-domain question answering"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    assert not Topic.objects.filter(name="Question Answering").exists()
    assert set(topic.papers.values_list("pk", flat=True)) == papers


def test_a_paper_corrected_in_the_admin_is_not_loaded_again_from_its_source(staff, seeded):
    # The source still says the old abstract or title: its reload found no paper by them and
    # loaded the old text as a second paper (an outside tester).
    untitled = untitled_acl_paper("Steering methods")
    post_change_form(
        staff,
        untitled,
        lambda data: data.update(abstract=[data["abstract"][0].replace("have gained", "gained")]),
    )
    titled = Paper.objects.exclude(title="").order_by("pk").first()
    post_change_form(staff, titled, lambda data: data.update(title=["A Title Put Right"]))
    papers = Paper.objects.count()
    summary = load_papers_quietly()
    assert (Paper.objects.count(), summary.count(" 0 new,")) == (papers, 1)
    untitled.refresh_from_db()
    titled.refresh_from_db()
    assert "gained traction" in untitled.abstract and "have gained" not in untitled.abstract
    assert titled.title == "A Title Put Right"


def load_papers_quietly() -> str:
    out = StringIO()
    call_command("load_papers", str(settings.FIXTURES_DIR), stdout=out)
    return out.getvalue()


def test_a_venue_renamed_in_the_admin_is_not_recreated_by_a_reload(staff, seeded):
    venue = Venue.objects.get(name="ACL 2025")
    papers = set(venue.papers.values_list("pk", flat=True))
    url = reverse("admin:papers_venue_change", args=[venue.pk])
    data = form_data(staff.get(url), "venue_form")
    data.update(name=["ACL 2025 (Vienna)"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    venue.refresh_from_db()
    assert (venue.name, venue.former_names, venue.curated_fields) == (
        "ACL 2025 (Vienna)",
        ["ACL 2025"],
        ["name"],
    )
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    assert not Venue.objects.filter(name="ACL 2025").exists()
    assert set(venue.papers.values_list("pk", flat=True)) == papers


def test_an_authors_new_address_keeps_the_old_one_and_a_venues_address_is_fixed(
    staff, seeded, client
):
    # Changed in the admin, the old addresses of a venue and an author answered 404, their
    # feeds too (an outside curator).
    make_paper("We parse.", title="Parsing", authors=["Ada Lovelace"])
    finish()
    author = Author.objects.get(name="Ada Lovelace")
    old = author.slug
    url = reverse("admin:papers_author_change", args=[author.pk])
    data = form_data(staff.get(url), "author_form")
    data.update(slug=["new-address"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    response = client.get(f"/authors/{old}/")
    assert (response.status_code, response["Location"]) == (301, "/authors/new-address/")
    venue = Venue.objects.get(name="ACL 2025")
    url = reverse("admin:papers_venue_change", args=[venue.pk])
    data = form_data(staff.get(url), "venue_form")
    assert "slug" not in data
    data.update(slug=["acl25"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    assert Venue.objects.get(pk=venue.pk).slug == "acl-2025"


def test_an_author_whose_slug_keeps_its_script_s_marks_can_be_saved(staff, db):
    # Django's unicode slugs refuse combining marks: the form said "Enter a valid slug".
    author = make_author("हिन्दी शर्मा")
    url = reverse("admin:papers_author_change", args=[author.pk])
    data = form_data(staff.get(url), "author_form")
    assert data["slug"] == ["हिन्दी-शर्मा"]
    data.update(orcid=["0000-0002-1825-0097"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    assert Author.objects.get(pk=author.pk).orcid == "0000-0002-1825-0097"
    data.update(slug=["हिन्दी शर्मा।"])
    assert "not a valid slug" in staff.post(url, data).content.decode()


def test_a_slug_with_capitals_is_refused(staff, seeded, client):
    # "Micaela-Jantzi" was saved, and her page redirected to "micaela-jantzi" and back for
    # ever; so did a topic's (an outside curator).
    make_paper("We parse.", title="Parsing", authors=["Ada Lovelace"])
    finish()
    author = Author.objects.get(name="Ada Lovelace")
    url = reverse("admin:papers_author_change", args=[author.pk])
    data = form_data(staff.get(url), "author_form")
    data.update(slug=["Ada-Lovelace"], _save=["Save"])
    response = staff.post(url, data)
    assert response.context["adminform"].form.errors["slug"] == [
        "“Ada-Lovelace” is not a valid slug: use small letters (“ada-lovelace”)."
    ]
    assert Author.objects.get(pk=author.pk).slug == "ada-lovelace"
    topic = Topic.objects.get(name="Speech and Audio")
    url = reverse("admin:papers_topic_change", args=[topic.pk])
    data = form_data(staff.get(url), "topic_form")
    data.update(slug=["Speech"], _save=["Save"])
    assert "slug" in staff.post(url, data).context["adminform"].form.errors
    assert client.get(f"/topics/{topic.slug}/").status_code == 200


def test_adding_a_paper_in_the_admin_curates_what_was_filled_in(staff, seeded):
    venue = Venue.objects.get(name="ACL 2025")
    topic = Topic.objects.get(name="Reasoning")
    url = reverse("admin:papers_paper_add")
    data = form_data(staff.get(url), "paper_form")
    data.update(
        title=["A Paper Typed In by Hand"],
        abstract=["We study chain-of-thought reasoning by hand."],
        venue=[str(venue.pk)],
        _save=["Save"],
    )
    data["topic_links-0-topic"] = [str(topic.pk)]
    response = staff.post(url, data)
    assert response.status_code == 302
    paper = Paper.objects.get(title="A Paper Typed In by Hand")
    assert paper.curated_fields == ["abstract", "title", "venue", "topics"]
    assert topics_of(paper) == {"Reasoning": "curator"}
    assert paper.topic_names == "Reasoning"
    assert Paper.objects.count() == 80
    assert paper.abstract_key  # a dump bringing this abstract later merges into it
    # The same abstract again is refused: it is the same paper.
    data["title"] = ["A Second Copy"]
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "abstract" in response.context["adminform"].form.errors
    assert Paper.objects.count() == 80


# Paper actions ----------------------------------------------------------------------------


def test_add_topic_action_asks_then_adds_exactly_that_topic(staff, seeded):
    larf = Paper.objects.get(title=LARF)
    mlwq = Paper.objects.get(title=MLWQ)
    topic = Topic.objects.get(name="LLM Safety")
    page = run_action(staff, "paper", "add_topic", [larf, mlwq])
    assert page.status_code == 200
    assert b"Add a topic" in page.content
    assert parse(page).find_all(name="topic")
    before = links()
    response = run_action(staff, "paper", "add_topic", [larf, mlwq], topic=topic.pk)
    assert response.status_code == 302
    # LARF had it from its dump (kept as it was); MLWQ gains a curator link.
    assert links() - before == {(mlwq.pk, "LLM Safety", "curator")}
    assert before - links() == set()
    mlwq.refresh_from_db()
    larf.refresh_from_db()
    assert mlwq.curated_fields == ["topics"]
    assert larf.curated_fields == []
    assert "LLM Safety" in mlwq.topic_names


def test_add_topic_action_turns_a_rule_link_into_a_curator_link(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    topic = Topic.objects.get(name="Efficient Inference")
    assert topics_of(paper)["Efficient Inference"] == "rule"
    run_action(staff, "paper", "add_topic", [paper], topic=topic.pk)
    assert topics_of(paper)["Efficient Inference"] == "curator"


def test_add_topic_action_turns_a_model_link_into_a_curator_link(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    topic = Topic.objects.get(name="LLM Safety")
    PaperTopic.objects.update_or_create(
        paper=paper, topic=topic, defaults={"source": "model", "confidence": 0.7}
    )
    response = run_action(staff, "paper", "add_topic", [paper], topic=topic.pk)
    assert response.status_code == 302
    link = PaperTopic.objects.get(paper=paper, topic=topic)
    assert (link.source, link.confidence) == ("curator", None)
    paper.refresh_from_db()
    assert "topics" in paper.curated_fields


def test_a_paper_sharing_its_abstract_with_another_stays_editable(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    twin = Paper.objects.exclude(pk=paper.pk).filter(external_id__isnull=True).first()
    # The Anthology gives a paper and its copy one abstract (here of two paragraphs); both
    # have Anthology IDs.
    shared = f"{paper.abstract}\n\nA second paragraph."
    for pk, external_id in ((paper.pk, "2025.acl-long.1"), (twin.pk, "2025.findings-acl.1")):
        Paper.objects.filter(pk=pk).update(
            abstract=shared, abstract_key=abstract_key(shared), external_id=external_id
        )

    def from_a_browser(data):
        # A browser sends the text area's line breaks as CRLF.
        data.update(country=["Peru"], abstract=[data["abstract"][0].replace("\n", "\r\n")])

    post_change_form(staff, paper, from_a_browser)
    paper.refresh_from_db()
    assert (paper.country, paper.curated_fields, paper.abstract) == ("Peru", ["country"], shared)

    # A changed abstract is still checked.
    url, data = open_change_page(staff, twin)
    other = Paper.objects.exclude(pk__in=[paper.pk, twin.pk]).exclude(abstract="").first()
    data.update(abstract=[other.abstract], _save=["Save"])
    refused = staff.post(url, data)
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors["abstract"] == [
        f"Paper {other.pk} (“{other.display_title}”) has this abstract already."
    ]


def authors_in_order(paper: Paper) -> list[str]:
    return list(paper.authorships.order_by("position").values_list("author__name", flat=True))


@pytest.fixture
def authored(seeded) -> Paper:
    """A seed paper with four authors (the seed dumps name none)."""
    paper = Paper.objects.get(title=MLWQ)
    for position, name in enumerate(["Ada Lovelace", "Alan Turing", "Grace Hopper", "Kurt Gödel"]):
        author = Author.objects.create(name=name, slug=name.lower().replace(" ", "-"))
        Authorship.objects.create(paper=paper, author=author, position=position + 1)
    return paper


def test_authors_trade_places_and_one_leaves(staff, authored):
    paper = authored
    first, second, _, *rest = authors_in_order(paper)

    def reorder(data):
        rows = {data[f"authorships-{i}-position"][0]: i for i in range(3)}
        data[f"authorships-{rows['1']}-position"] = ["2"]
        data[f"authorships-{rows['2']}-position"] = ["1"]
        data[f"authorships-{rows['3']}-DELETE"] = ["on"]

    post_change_form(staff, paper, reorder)
    assert authors_in_order(paper) == [second, first, *rest]
    paper.refresh_from_db()
    assert paper.curated_fields == ["authors"]
    assert paper.author_names.startswith(f"{second}, {first}")
    # The author who left, on no paper now, has no page left (it showed nothing).
    assert not Author.objects.filter(name="Grace Hopper").exists()
    assert Author.objects.filter(name__in=[first, second, *rest]).count() == 3


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ("duplicate", "{name} is an author of this paper already."),
        ("zero", "Ensure this value is greater than or equal to 1."),
    ],
)
def test_an_author_list_that_cannot_be_true_is_refused(staff, authored, change, error):
    paper = authored
    before = authors_in_order(paper)
    url, data = open_change_page(staff, paper)
    if change == "duplicate":
        data["authorships-1-author"] = data["authorships-0-author"]
    else:
        data["authorships-1-position"] = ["0"]
    response = staff.post(url, {**data, "_save": ["Save"]})
    assert response.status_code == 200
    authorships = next(
        formset
        for formset in response.context["inline_admin_formsets"]
        if formset.formset.model is Authorship
    )
    assert [form.errors for form in authorships.formset.forms][1] == {
        "author" if change == "duplicate" else "position": [error.format(name=before[0])]
    }
    assert authors_in_order(paper) == before


@pytest.mark.parametrize("meanwhile", ["title", "topic"])
def test_a_save_over_another_curators_later_change_is_refused(staff, seeded, meanwhile):
    paper = Paper.objects.get(title=LARF)
    url, opened = open_change_page(staff, paper)  # curator B opens the page
    if meanwhile == "title":  # curator A saves a new title
        post_change_form(staff, paper, lambda data: data.update(title=["A's title"]))
    else:  # or takes a topic off the paper
        curation.set_topics(paper.pk, add=set(), remove={Topic.objects.get(name="LLM Safety").pk})
    response = staff.post(url, {**opened, "abstract": ["B's abstract."], "_save": ["Save"]})
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [STALE_PAGE]
    paper.refresh_from_db()
    assert paper.abstract != "B's abstract."
    assert paper.title == ("A's title" if meanwhile == "title" else LARF)
    # Opened again, the page saves.
    post_change_form(staff, paper, lambda data: data.update(abstract=["B's abstract."]))
    paper.refresh_from_db()
    assert paper.abstract == "B's abstract."


def test_a_save_that_changed_nothing_leaves_other_open_pages_valid(staff, seeded):
    paper = Paper.objects.get(title=LARF)
    url, opened = open_change_page(staff, paper)
    post_change_form(staff, paper, lambda data: None)  # another curator saves, changing nothing
    response = staff.post(url, {**opened, "country": ["Chile"], "_save": ["Save"]})
    assert response.status_code == 302
    paper.refresh_from_db()
    assert paper.country == "Chile"


def test_a_paper_needs_a_title_or_an_abstract(staff, seeded):
    paper = untitled_acl_paper("Speculative decoding accelerates")
    abstract = paper.abstract
    url, data = open_change_page(staff, paper)
    data.update(abstract=["  "], _save=["Save"])
    refused = staff.post(url, data)
    assert refused.status_code == 200
    form = refused.context["adminform"].form
    assert form.non_field_errors() == ["A paper needs a title or an abstract."]
    paper.refresh_from_db()
    assert paper.abstract == abstract


def test_a_papers_title_is_corrected_never_emptied(staff, seeded):
    # Emptied, the title was lost and kept from every later load as the curator's, the record
    # shown by a fragment of its abstract (an outside curator).
    paper = Paper.objects.get(title=MLWQ)
    url, data = open_change_page(staff, paper)
    data.update(title=["   "], _save=["Save"])
    refused = staff.post(url, data)
    assert refused.context["adminform"].form.errors["title"] == [
        f"A paper's title cannot be emptied: correct it instead (the title it had: “{MLWQ}”)."
    ]
    paper.refresh_from_db()
    assert (paper.title, paper.curated_fields) == (MLWQ, [])


def test_add_topic_action_across_every_page_of_a_filtered_list(staff, seeded):
    venue = Venue.objects.get(name="EMNLP 2024")
    topic = Topic.objects.get(name="Reasoning")
    url = reverse("admin:papers_paper_changelist") + f"?venue__id__exact={venue.pk}"
    first = Paper.objects.filter(venue=venue).order_by("pk").first()
    chosen = {"action": "add_topic", "index": "0", "select_across": "1"}
    page = staff.post(url, {**chosen, ACTION_CHECKBOX_NAME: [str(first.pk)]})
    assert page.status_code == 200
    assert page.context["count"] == 11
    answer = form_data(page, "action-form")
    assert answer["select_across"] == ["1"]
    answer["topic"] = [str(topic.pk)]
    assert staff.post(url, answer).status_code == 302
    assert set(topic.papers.filter(venue=venue).values_list("pk", flat=True)) == set(
        Paper.objects.filter(venue=venue).values_list("pk", flat=True)
    )
    assert not topic.papers.exclude(venue=venue).filter(topic_links__source="curator").exists()


def test_remove_topic_action_removes_and_remembers(staff, seeded):
    larf = Paper.objects.get(title=LARF)
    mlwq = Paper.objects.get(title=MLWQ)
    page = run_action(staff, "paper", "remove_topic", [larf, mlwq])
    assert page.status_code == 200
    offered = [name for _, name in page.context["form"].fields["topic"].choices][1:]
    assert offered == [
        "Compression and Quantization",
        "Efficient Inference",
        "Interpretability",
        "LLM Fine-Tuning",
        "LLM Safety",
    ]
    topic = Topic.objects.get(name="LLM Fine-Tuning")
    before = links()
    response = run_action(staff, "paper", "remove_topic", [larf, mlwq], topic=topic.pk)
    assert response.status_code == 302
    assert before - links() == {(larf.pk, "LLM Fine-Tuning", "dump")}
    assert links() - before == set()
    assert list(RemovedTopic.objects.values_list("paper_id", "topic_id")) == [(larf.pk, topic.pk)]
    larf.refresh_from_db()
    assert larf.topic_names == "LLM Safety"
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    assert "LLM Fine-Tuning" not in topics_of(larf)


def test_removed_rule_topic_stays_removed_through_rule_runs(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    topic = Topic.objects.get(name="Efficient Inference")
    run_action(staff, "paper", "remove_topic", [paper], topic=topic.pk)
    call_command("apply_topic_rules", verbosity=0)
    assert "Efficient Inference" not in topics_of(paper)


def test_merge_papers_moves_topics_links_and_curated_fields(staff, seeded):
    survivor = untitled_acl_paper("Speculative decoding accelerates")
    duplicate = Paper.objects.get(title=MLWQ)
    author = Author.objects.create(name="Ada Lovelace", slug="ada-lovelace")
    Authorship.objects.create(paper=duplicate, author=author, position=1)
    Paper.objects.filter(pk=duplicate.pk).update(
        curated_fields=["title"], related_titles=["A Related Talk"]
    )
    bystanders = {(p, t, s) for p, t, s in links() if p not in {survivor.pk, duplicate.pk}}
    survivor_topics = topics_of(survivor)
    duplicate_topics = topics_of(duplicate)

    page = run_action(staff, "paper", "merge_papers", [survivor, duplicate])
    assert page.status_code == 200
    assert set(page.context["form"].fields["survivor"].queryset) == {survivor, duplicate}
    # Copies of one paper share a title: each choice tells its venue, Anthology ID and id.
    labels = [str(label) for _, label in page.context["form"].fields["survivor"].choices]
    assert labels == [
        f"{paper.display_title} — {paper.venue.name}, no Anthology ID, id {paper.pk}"
        for paper in sorted([survivor, duplicate], key=lambda paper: paper.pk)
    ]
    response = run_action(
        staff, "paper", "merge_papers", [survivor, duplicate], survivor=survivor.pk
    )
    assert response.status_code == 302
    assert not Paper.objects.filter(pk=duplicate.pk).exists()
    assert Paper.objects.count() == 78
    survivor.refresh_from_db()
    assert survivor.title == MLWQ  # curated on the duplicate: taken with its value
    assert survivor.curated_fields == ["title"]
    assert survivor.country == ""  # both had none
    assert survivor.related_titles == ["A Related Talk"]
    assert list(survivor.authors.all()) == [author]
    # Both papers' links but the rules', which run on the merged paper again.
    merged = topics_of(survivor)
    union = {**duplicate_topics, **survivor_topics}
    assert {t: s for t, s in merged.items() if s != "rule"} == {
        t: s for t, s in union.items() if s != "rule"
    }
    assert set(merged) <= set(union)
    apply_topic_rules(paper_ids=[survivor.pk])
    assert topics_of(survivor) == merged
    assert {(p, t, s) for p, t, s in links() if p != survivor.pk} == bystanders
    assert "Efficient Inference" in survivor.topic_names
    assert survivor.author_names == "Ada Lovelace"


def test_merge_needs_two_papers(staff, seeded):
    paper = Paper.objects.first()
    response = run_action(staff, "paper", "merge_papers", [paper])
    assert response.status_code == 302
    assert Paper.objects.count() == 79
    messages = [str(m) for m in staff.get(response["Location"]).context["messages"]]
    assert messages == ["Select at least two papers to merge."]


def test_merge_takes_a_handful_of_papers_not_a_whole_list(staff, seeded):
    papers = list(Paper.objects.order_by("pk")[:21])
    response = run_action(staff, "paper", "merge_papers", papers)
    assert response.status_code == 302
    assert Paper.objects.count() == 79
    messages = [str(m) for m in staff.get(response["Location"]).context["messages"]]
    assert messages == [
        "21 papers are selected: a merge takes at most 20 (the copies of one paper). "
        "Narrow the selection first."
    ]


def test_mark_reviewed_marks_only_the_selected_papers(staff, seeded):
    chosen = list(Paper.objects.order_by("pk")[:3])
    before = links()
    response = run_action(staff, "paper", "mark_reviewed", chosen)
    assert response.status_code == 302
    assert set(Paper.objects.filter(reviewed=True)) == set(chosen)
    assert links() == before
    assert all(not p.curated_fields for p in Paper.objects.all())
    messages = [str(m) for m in staff.get(response["Location"]).context["messages"]]
    assert messages == ["Marked 3 papers as reviewed."]
    response = run_action(staff, "paper", "mark_reviewed", chosen[:1])
    messages = [str(m) for m in staff.get(response["Location"]).context["messages"]]
    assert messages == ["Marked 1 paper as reviewed."]


def test_apply_rules_action_on_papers_touches_only_those_papers(staff, seeded):
    PaperTopic.objects.filter(source="rule").delete()
    chosen = [Paper.objects.get(title=MLWQ), untitled_acl_paper("Speculative decoding accelerates")]
    response = run_action(staff, "paper", "apply_rules_to_papers", chosen)
    assert response.status_code == 302
    assert {(p, t) for p, t, s in links() if s == "rule"} == {
        (chosen[0].pk, "Compression and Quantization"),
        (chosen[0].pk, "Efficient Inference"),
        (chosen[0].pk, "Interpretability"),
        (chosen[1].pk, "Efficient Inference"),
        (chosen[1].pk, "Machine Learning Theory and Optimization"),
    }


def test_action_pages_render(staff, seeded):
    papers = list(Paper.objects.order_by("pk")[:2])
    for action in ("add_topic", "remove_topic", "merge_papers"):
        page = run_action(staff, "paper", action, papers)
        assert page.status_code == 200, action
        inline = [script for script in parse(page).find_all("script") if "src" not in script.attrs]
        assert inline == [], action
        assert page.content.count(b'name="_selected_action"') == 2
    topics = list(Topic.objects.order_by("pk")[:2])
    page = run_action(staff, "topic", "merge_topics", topics)
    assert page.status_code == 200


# Authors ----------------------------------------------------------------------------------


def test_an_author_is_not_renamed_as_a_co_author_of_theirs(staff, db):
    # "Dana Scully" renamed "Fox Mulder" made one paper "Fox Mulder, Fox Mulder" (an outside
    # tester); a namesake elsewhere may keep the name.
    make_paper("We search for truth.", title="X Files", authors=["Dana Scully", "Fox Mulder"])
    make_paper("We hunt.", title="Elsewhere", authors=["Ada Lovelace"])
    refused = {}
    for name in ("Dana Scully", "Ada Lovelace"):
        url = reverse("admin:papers_author_change", args=[Author.objects.get(name=name).pk])
        data = form_data(staff.get(url), "author_form")
        data.update(name=["Fox  Mulder"], _save=["Save"])
        response = staff.post(url, data)
        refused[name] = (
            response.context["adminform"].form.errors.get("name") if response.context else None
        )
    assert refused == {
        "Dana Scully": [
            "“Fox Mulder” is another author of this author's papers; if they are one person, "
            "merge the two authors instead (“Merge the selected authors”)."
        ],
        "Ada Lovelace": None,
    }
    names = sorted(Author.objects.values_list("name", flat=True))
    assert names == ["Dana Scully", "Fox Mulder", "Fox Mulder"]


def test_a_rename_to_another_authors_name_names_them_with_the_way_to_merge(staff, db):
    # "Manning" renamed "C.D. Manning" beside "C. D. Manning": two pages of one name, without
    # a word (an outside curator).
    make_paper("We parse.", title="Parsing", authors=["C. D. Manning"])
    make_paper("We tag.", title="Tagging", authors=["Manning"])
    url = reverse("admin:papers_author_change", args=[Author.objects.get(name="Manning").pk])
    data = form_data(staff.get(url), "author_form")
    data.update(name=["C.D. Manning"], _save=["Save"])
    saved = staff.post(url, data, follow=True)
    assert [m.message for m in saved.context["messages"]] == [
        "Other authors have this name: “C. D. Manning” (1 paper). If one is the same person, "
        "merge them (“Merge the selected authors”).",
        f'The author “<a href="{url}">C.D. Manning</a>” was changed successfully.',
    ]
    assert sorted(Author.objects.values_list("name", flat=True)) == [
        "C. D. Manning",
        "C.D. Manning",
    ]


def test_merge_authors_through_the_admin(staff, db, client):
    make_paper("Parsing the web.", title="Web Parsing", authors=["Ann Lee", "Eva Park"])
    make_paper("Parsing the news.", title="News Parsing", authors=["Ann Lee"])
    paper = make_paper("Tagging the web.", title="Web Tagging", authors=["Ann B. Lee"])
    finish()
    kept, other = Author.objects.get(name="Ann Lee"), Author.objects.get(name="Ann B. Lee")
    page = run_action(staff, "author", "merge_authors", [kept, other])
    assert page.status_code == 200
    # The names to keep, with their papers, the most used first.
    choices = [label.text.strip() for label in parse(page).find_all("label")]
    assert choices == ["Keep:", "Ann Lee (2 papers)", "Ann B. Lee (1 paper)"]
    response = run_action(staff, "author", "merge_authors", [kept, other], survivor=kept.pk)
    assert response.status_code == 302
    kept.refresh_from_db()
    assert kept.variants == ["Ann B. Lee"]
    assert paper.authorships.get().author == kept
    assert client.get(f"/authors/{other.slug}/")["Location"] == kept.get_absolute_url()
    assert client.get(f"/api/papers/?author={kept.slug}").json()["count"] == 3
    # The admin's search finds the author by the old address too.
    listed = staff.get(reverse("admin:papers_author_changelist") + f"?q={other.slug}")
    assert [row.text for row in parse(listed).find_all("th", class_="field-name")] == ["Ann Lee"]


def test_merge_authors_refuses_people_the_anthology_tells_apart(staff, db):
    first = Author.objects.create(name="Yang Liu", key="yang liu", slug="yang-liu-a", person_id="a")
    second = Author.objects.create(
        name="Yang Liu", key="yang liu", slug="yang-liu-b", person_id="b"
    )
    response = run_action(staff, "author", "merge_authors", [first, second], survivor=first.pk)
    assert response.status_code == 302
    assert Author.objects.filter(pk__in=[first.pk, second.pk]).count() == 2
    followed = staff.get(response["Location"])
    assert "The Anthology tells these people apart (a, b)" in followed.content.decode()


# Topics -----------------------------------------------------------------------------------


def test_merge_topics_moves_papers_and_redirects_the_old_slug(staff, seeded, client):
    safety = Topic.objects.get(name="LLM Safety")
    alignment = Topic.objects.get(name="Alignment and Preference Learning")
    safety_papers = set(safety.papers.values_list("pk", flat=True))
    alignment_papers = set(alignment.papers.values_list("pk", flat=True))
    other_links = {(p, t, s) for p, t, s in links() if t not in {safety.name, alignment.name}}
    rule = f"{alignment.rule} or {safety.rule}"

    response = run_action(
        staff, "topic", "merge_topics", [safety, alignment], survivor=alignment.pk
    )
    assert response.status_code == 302
    assert not Topic.objects.filter(name="LLM Safety").exists()
    alignment.refresh_from_db()
    assert set(alignment.papers.values_list("pk", flat=True)) == safety_papers | alignment_papers
    assert alignment.rule == rule
    assert TopicRedirect.objects.get(old_slug="llm-safety").topic == alignment
    assert {(p, t, s) for p, t, s in links() if t != alignment.name} == other_links
    larf = Paper.objects.get(title=LARF)
    assert topics_of(larf)["Alignment and Preference Learning"] == "dump"
    assert larf.topic_names == "Alignment and Preference Learning, LLM Fine-Tuning"
    # Re-running the joined rule keeps the merged papers.
    call_command("apply_topic_rules", verbosity=0)
    assert set(alignment.papers.values_list("pk", flat=True)) == safety_papers | alignment_papers


def test_merged_topics_stay_merged_through_a_reload(staff, seeded):
    safety = Topic.objects.get(name="LLM Safety")
    alignment = Topic.objects.get(name="Alignment and Preference Learning")
    run_action(staff, "topic", "merge_topics", [safety, alignment], survivor=alignment.pk)
    merged = links()
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    assert not Topic.objects.filter(name="LLM Safety").exists()
    assert links() == merged


def test_apply_rules_action_on_topics_applies_only_those_rules(staff, seeded):
    PaperTopic.objects.filter(source="rule").delete()
    speech = Topic.objects.get(name="Speech and Audio")
    response = run_action(staff, "topic", "apply_rules", [speech])
    assert response.status_code == 302
    assert {t for _, t, s in links() if s == "rule"} == {"Speech and Audio"}
    assert speech.papers.count() == 4


def test_topic_rule_of_only_stop_words_is_refused(staff, seeded):
    topic = Topic.objects.get(name="Speech and Audio")
    url = reverse("admin:papers_topic_change", args=[topic.pk])
    data = form_data(staff.get(url), "topic_form")
    data.update(rule=["the and of"], title_rule=["of the"], _save=["Save"])
    response = staff.post(url, data)
    assert response.status_code == 200
    assert set(response.context["adminform"].form.errors) == {"rule", "title_rule"}


@pytest.mark.parametrize("rule", ["-safety", "guard or -safety"])
def test_topic_rule_that_matches_by_a_missing_word_is_refused(staff, seeded, rule):
    topic = Topic.objects.get(name="Speech and Audio")
    url = reverse("admin:papers_topic_change", args=[topic.pk])
    data = form_data(staff.get(url), "topic_form")
    response = staff.post(url, {**data, "rule": [rule], "_save": ["Save"]})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["rule"] == [
        "This rule matches papers by a word they lack, so it would tag nearly every paper: "
        "give the words a paper must have (“safety -guard”, not “-guard”)."
    ]
    kept = staff.post(url, {**data, "rule": ["speech -synthesis"], "_save": ["Save"]})
    assert kept.status_code == 302


def test_topic_names_may_not_clash_ignoring_case(staff, seeded):
    topic = Topic.objects.get(name="Speech and Audio")
    url = reverse("admin:papers_topic_change", args=[topic.pk])
    data = form_data(staff.get(url), "topic_form")
    data.update(name=["LLM Safety"], _save=["Save"])
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "name" in response.context["adminform"].form.errors


def test_a_topic_cannot_take_the_old_address_of_another(staff, seeded):
    speech = Topic.objects.get(name="Speech and Audio")
    safety = Topic.objects.get(name="LLM Safety")
    TopicRedirect.objects.create(old_slug="llm-guardrails", topic=safety)
    url = reverse("admin:papers_topic_change", args=[speech.pk])
    data = form_data(staff.get(url), "topic_form")
    response = staff.post(url, {**data, "slug": ["llm-guardrails"], "_save": ["Save"]})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["slug"] == [
        "/topics/llm-guardrails/ leads to “LLM Safety” (its old address); choose another slug."
    ]
    assert TopicRedirect.objects.get(old_slug="llm-guardrails").topic == safety


def test_topic_list_shows_paper_counts(staff, seeded):
    response = staff.get("/admin/papers/topic/")
    counts = {topic.name: topic.paper_count for topic in response.context["cl"].result_list}
    assert counts["LLM Safety"] == 5
    assert counts["Speech and Audio"] == 4


# Venues -----------------------------------------------------------------------------------


def test_venue_list_shows_paper_counts(staff, seeded):
    response = staff.get("/admin/papers/venue/")
    counts = {venue.name: venue.paper_count for venue in response.context["cl"].result_list}
    assert counts == {"ACL 2025": 57, "EMNLP 2025": 11, "EMNLP 2024": 11}


def test_venue_edits_are_curated_and_survive_a_reload(staff, seeded):
    venue = Venue.objects.get(name="EMNLP 2024")
    url = reverse("admin:papers_venue_change", args=[venue.pk])
    data = form_data(staff.get(url), "venue_form")
    data.update(location=["Miami Beach, Florida, USA"], _save=["Save"])
    assert staff.post(url, data).status_code == 302
    venue.refresh_from_db()
    assert venue.location == "Miami Beach, Florida, USA"
    assert venue.curated_fields == ["location"]
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)
    venue.refresh_from_db()
    assert venue.location == "Miami Beach, Florida, USA"


@pytest.mark.parametrize(
    ("change", "field", "error"),
    [
        ({"year": ["0"]}, "year", "Ensure this value is greater than or equal to 1900."),
        (
            {"start_date": ["2024-11-12"], "end_date": ["2024-11-10"]},
            "end_date",
            "The venue cannot end before it starts.",
        ),
        ("itself", "parent", "A venue cannot belong to itself."),
    ],
)
def test_venue_edits_that_cannot_be_true_are_refused(staff, seeded, change, field, error):
    venue = Venue.objects.get(name="EMNLP 2024")
    url = reverse("admin:papers_venue_change", args=[venue.pk])
    data = form_data(staff.get(url), "venue_form")
    data.update({"parent": [str(venue.pk)]} if change == "itself" else change)
    response = staff.post(url, {**data, "_save": ["Save"]})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors[field] == [error]
    assert Venue.objects.get(pk=venue.pk).year == 2024


@pytest.mark.parametrize("term", ["-" * 40 + "a", "9" * 5000, "nul\x00byte"])
def test_admin_search_survives_hostile_terms(staff, seeded, term):
    response = staff.get(reverse("admin:papers_paper_changelist"), {"q": term})
    assert response.status_code == 200


def test_the_admin_is_named_for_the_site(staff):
    page = parse(staff.get("/admin/"))
    assert page.find("div", id="site-name").text == "Paper browser administration"
    assert page.find("title").text == "Curation | Paper browser admin"


def test_a_paper_deleted_in_the_admin_keeps_its_keys_for_loads(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    url = reverse("admin:papers_paper_delete", args=[paper.pk])
    assert staff.post(url, {"post": "yes"}).status_code == 302
    assert not Paper.objects.filter(pk=paper.pk).exists()
    assert set(DeletedKey.objects.values_list("kind", "title")) == {
        ("abstract", MLWQ),
        ("title", MLWQ),
    }
    # Listed for curators, who may delete the keys (then loads bring it back), not add them.
    listed = staff.get(reverse("admin:papers_deletedkey_changelist"))
    assert listed.status_code == 200
    assert [row.text for row in parse(listed).find_all("th", class_="field-title")] == [MLWQ] * 2
    assert staff.get(reverse("admin:papers_deletedkey_add")).status_code == 403


def test_a_deletion_while_a_load_runs_is_refused_with_a_message(staff, seeded):
    paper = Paper.objects.get(title=MLWQ)
    url = reverse("admin:papers_paper_delete", args=[paper.pk])
    changelist = reverse("admin:papers_topic_changelist")
    topic = paper.topics.order_by("pk").first()
    with load_running():
        refused = staff.post(url, {"post": "yes"}, follow=True)
        selected = {"action": "delete_selected", "_selected_action": [topic.pk], "post": "yes"}
        bulk = staff.post(changelist, selected, follow=True)
    assert refused.redirect_chain == [(url, 302)]
    assert [m.message for m in refused.context["messages"]] == [
        "A load is running: delete the papers when it has ended."
    ]
    assert [m.message for m in bulk.context["messages"]] == [
        "A load is running: delete the topics when it has ended."
    ]
    assert Paper.objects.filter(pk=paper.pk).exists() and not DeletedKey.objects.exists()
    assert Topic.objects.filter(pk=topic.pk).exists()
    assert not LogEntry.objects.filter(action_flag=DELETION).exists()
    assert staff.post(url, {"post": "yes"}).status_code == 302
    assert not Paper.objects.filter(pk=paper.pk).exists()


def test_a_topic_deleted_in_the_admin_is_listed_for_loads_to_leave_out(staff, seeded):
    topic = Topic.objects.get(slug="question-answering")
    url = reverse("admin:papers_topic_delete", args=[topic.pk])
    assert staff.post(url, {"post": "yes"}).status_code == 302
    listed = parse(staff.get(reverse("admin:papers_deletedtopic_changelist")))
    assert [row.text for row in listed.find_all("th", class_="field-name")] == [topic.name]
    assert staff.get(reverse("admin:papers_deletedtopic_add")).status_code == 403
