"""Topic rules and the shipped vocabulary (fixtures/topics.json), on PostgreSQL."""

import importlib
import io
import json
from collections import Counter

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.text import slugify

from papers.models import Paper, PaperTopic, RemovedTopic, Topic, TopicRedirect, Venue
from papers.topic_rules import apply_topic_rules, rule_matches_nothing, run_topic_rules

TOPICS_FIXTURE = settings.FIXTURES_DIR / "topics.json"
DUMP_TOPICS = {
    "llm fine-tuning",
    "llm safety",
    "information retrieval and text mining",
    "language modeling",
    "question answering",
}
AREA_NAMES = [
    "Machine Translation",
    "Information Extraction",
    "Summarization",
    "Dialogue and Interactive Systems",
    "Question Answering",
    "Sentiment Analysis and Argument Mining",
    "Natural Language Generation",
    "Speech and Audio",
    "Syntax and Parsing",
    "Semantics",
    "Discourse and Pragmatics",
    "Interpretability",
    "Ethics in NLP",
    "Vision-Language and Multimodality",
]


def load_topics():
    call_command("loaddata", str(TOPICS_FIXTURE), verbosity=0)


def load_dumps():
    call_command("load_papers", str(settings.FIXTURES_DIR), verbosity=0)


def rule_links() -> set[tuple[int, str]]:
    return set(PaperTopic.objects.filter(source="rule").values_list("paper_id", "topic__name"))


def all_links() -> set[tuple[int, str, str]]:
    return set(PaperTopic.objects.values_list("paper_id", "topic__name", "source"))


@pytest.fixture
def venue(db):
    return Venue.objects.create(name="TEST 2025", slug="test-2025", acronym="TEST", year=2025)


def make_paper(venue, abstract, title=""):
    return Paper.objects.create(venue=venue, abstract=abstract, title=title)


# The vocabulary -------------------------------------------------------------------------


def test_the_fixture_is_keyed_by_name_without_primary_keys():
    items = json.loads(TOPICS_FIXTURE.read_text(encoding="utf-8"))
    assert len(items) == 47
    names = [item["fields"]["name"] for item in items]
    assert len(set(names)) == len(names)
    for item in items:
        assert item["model"] == "papers.topic"
        assert "pk" not in item
        assert set(item["fields"]) == {"name", "slug", "description", "rule", "title_rule"}
        assert item["fields"]["rule"] and item["fields"]["description"]
        assert item["fields"]["name"][0].isupper()
    # The dumps' topics are the fixture's, under the same slugs, capitalised for readers.
    by_slug = {item["fields"]["slug"]: item["fields"]["name"] for item in items}
    assert {slugify(name): by_slug[slugify(name)].casefold() for name in DUMP_TOPICS} == {
        slugify(name): name for name in DUMP_TOPICS
    }
    assert set(by_slug) >= {slugify(name) for name in AREA_NAMES}


@pytest.mark.django_db
def test_every_shipped_rule_is_a_real_query():
    load_topics()
    for topic in Topic.objects.all():
        assert not rule_matches_nothing(topic.rule), topic.name
        assert not topic.title_rule or not rule_matches_nothing(topic.title_rule), topic.name


@pytest.mark.django_db
def test_loaddata_before_the_dumps_is_reused_by_them():
    load_topics()
    ids = dict(Topic.objects.values_list("name", "pk"))
    load_dumps()
    assert dict(Topic.objects.values_list("name", "pk")) == ids
    assert Topic.objects.count() == len(ids)
    load_topics()  # and again, as every `make run` does
    assert dict(Topic.objects.values_list("name", "pk")) == ids


@pytest.mark.django_db
def test_loaddata_after_the_dumps_updates_their_topics_in_place():
    load_dumps()
    dump_topics = dict(Topic.objects.values_list("name", "pk"))
    assert set(dump_topics) == DUMP_TOPICS
    dump_links = {(paper, name.casefold(), source) for paper, name, source in all_links()}
    load_topics()  # finds the dumps' topics ignoring case, and capitalises their names
    assert {
        name.casefold(): pk
        for name, pk in Topic.objects.values_list("name", "pk")
        if name.casefold() in DUMP_TOPICS
    } == (dump_topics)
    assert Topic.objects.count() == len(json.loads(TOPICS_FIXTURE.read_text(encoding="utf-8")))
    assert Topic.objects.get(name="LLM Safety").rule
    # The links stay (rules run at the next load or command); their topics are capitalised.
    assert {(paper, name.casefold(), source) for paper, name, source in all_links()} == dump_links
    assert {name for _, name, _ in all_links()} == {
        "LLM Fine-Tuning",
        "LLM Safety",
        "Information Retrieval and Text Mining",
        "Language Modeling",
        "Question Answering",
    }


@pytest.mark.django_db
def test_the_rules_tag_the_seed_papers_precisely():
    load_topics()
    load_dumps()  # the loader applies the rules at the end of its transaction
    total = Paper.objects.count()
    assert total == 79
    tagged = Paper.objects.filter(topic_links__isnull=False).distinct().count()
    assert tagged / total >= 0.9
    assert tagged == 79
    per_topic = Counter(PaperTopic.objects.values_list("topic__name", flat=True))
    largest = max(per_topic.values())
    assert largest / total <= 0.5
    assert {name for name, count in per_topic.items() if count == largest} == {
        "Efficient Inference",
        "LLM Fine-Tuning",
    }
    assert largest == 10
    # The seeds (recent LLM papers) say the words of these topics in passing at most ("detects
    # hallucinations in LLM_Voice" in a speech paper): a passing mention tags only a paper
    # without another topic.
    assert set(Topic.objects.exclude(name__in=per_topic).values_list("name", flat=True)) == {
        "Cognitive Modeling and Psycholinguistics",
        "Datasets and Annotation",
        "Discourse and Pragmatics",
        "Domain Adaptation and Transfer Learning",
        "Education and Writing Assistance",
        "Ethics in NLP",
        "Hallucination and Factuality",
        "Information Extraction",
        "Knowledge Graphs",
        "Machine Translation",
        "Robustness and Adversarial Attacks",
        "Summarization",
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("title_or_abstract", "expected"),
    [
        (
            "MLWQ: Efficient Small Language Model Deployment via Multi-Level Weight Quantization",
            {"Compression and Quantization", "Efficient Inference", "Interpretability"},
        ),
        (
            "Layer-Aware Representation Filtering: Purifying Finetuning Data to Preserve LLM "
            "Safety Alignment",
            {"LLM Fine-Tuning", "LLM Safety"},
        ),
        (
            "Speculative decoding accelerates",
            {"Efficient Inference", "Machine Learning Theory and Optimization"},
        ),
        ("Semantic Role Labeling (SRL)", {"Semantics", "Syntax and Parsing"}),
        # Speech deepfake detection; "multilingual support" and dialogue said once, in passing.
        ("As speech generation technology advances", {"Privacy and Security", "Speech and Audio"}),
        ("Post-earnings volatility prediction", {"Finance and Legal NLP"}),
        (
            "Direct Preference Optimization (DPO) is",
            {"Alignment and Preference Learning", "Semantics"},
        ),
        ("Large Language Models (LLMs) are vulnerable to jailbreak", {"LLM Safety"}),
        (
            "Retrieval-Augmented Generation (RAG) enhances",
            {
                "Information Retrieval and Text Mining",
                "Privacy and Security",
                "Retrieval-Augmented Generation",
            },
        ),
        # "The source code can be found here" no longer makes it a code generation paper, nor
        # its one "Image" a vision-language one.
        ("Image mass cytometry", {"Clinical and Biomedical NLP"}),
    ],
)
def test_sample_papers_get_the_topics_a_reader_would_give(title_or_abstract, expected):
    load_topics()
    load_dumps()
    paper = Paper.objects.filter(title=title_or_abstract).first() or Paper.objects.get(
        abstract__startswith=title_or_abstract
    )
    assert set(paper.topics.values_list("name", flat=True)) == expected


# Applying rules -------------------------------------------------------------------------


def test_one_statement_for_all_topics_and_none_per_paper(venue):
    for number in range(30):
        make_paper(venue, f"Paper {number} studies speech recognition and quantization.")
    topics = [
        Topic.objects.create(name="speech", slug="speech", rule="speech"),
        Topic.objects.create(name="quantization", slug="quantization", rule="quantization"),
        Topic.objects.create(name="no rule", slug="no-rule"),
    ]
    PaperTopic.objects.create(paper=Paper.objects.first(), topic=topics[2], source="rule")
    with CaptureQueriesContext(connection) as queries:
        count = apply_topic_rules(topics)
    assert count == 60
    assert not PaperTopic.objects.filter(topic=topics[2]).exists()  # its stale rule link went
    writes = [q for q in queries if "papers_papertopic" in q["sql"] and "DELETE" in q["sql"]]
    assert len(writes) == 1  # matching, deleting and inserting for every topic at once
    # Plus every topic's rule and its terms parsed (a passing mention tags only a paper without
    # another topic), the timeout lifted for the transaction, the topic-name refresh, the count,
    # the savepoint, and the facet counts' refresh of the papers changed (a fixed 10
    # statements, papers/counts.py).
    assert len(queries) <= 2 + 1 + 6 + 10


def test_rules_replace_only_rule_links(venue):
    speech = Topic.objects.create(name="speech", slug="speech", rule="speech")
    on_topic = make_paper(venue, "Speech recognition for many languages.")
    curated = make_paper(venue, "Speech synthesis with small models.")
    from_dump = make_paper(venue, "Parsing with graphs.")
    PaperTopic.objects.create(paper=curated, topic=speech, source="curator")
    PaperTopic.objects.create(paper=from_dump, topic=speech, source="dump")
    run = run_topic_rules()
    assert str(run) == "1 topic rules applied: 1 rule links (1 added, 0 removed), 1 papers changed"
    assert all_links() == {
        (on_topic.pk, "speech", "rule"),
        (curated.pk, "speech", "curator"),
        (from_dump.pk, "speech", "dump"),
    }
    # The rule changes: its old matches go, the dump and curator links stay.
    speech.rule = "parsing"
    speech.save()
    run = run_topic_rules()
    assert (run.added, run.removed) == (0, 1)
    assert all_links() == {(curated.pk, "speech", "curator"), (from_dump.pk, "speech", "dump")}
    # The rule is cleared: no rule links remain.
    speech.rule = "speech"
    speech.save()
    apply_topic_rules()
    speech.rule = ""
    speech.save()
    assert apply_topic_rules() == 0
    assert rule_links() == set()


def test_rules_never_re_add_a_removed_topic(venue):
    speech = Topic.objects.create(name="speech", slug="speech", rule="speech")
    paper = make_paper(venue, "Speech recognition for many languages.")
    RemovedTopic.objects.create(paper=paper, topic=speech)
    assert apply_topic_rules() == 0
    assert not PaperTopic.objects.exists()


def test_rules_are_idempotent_and_keep_topic_names_in_step(venue):
    Topic.objects.create(name="speech and audio", slug="speech-and-audio", rule="speech or audio")
    paper = make_paper(venue, "Audio tokenizers for speech models.")
    first = run_topic_rules()
    assert (first.added, first.removed, first.papers_changed) == (1, 0, 1)
    paper.refresh_from_db()
    assert paper.topic_names == "speech and audio"
    second = run_topic_rules()
    assert (second.added, second.removed, second.papers_changed) == (0, 0, 0)


def test_rules_match_titles_and_abstracts_but_not_topic_names(venue):
    """A topic a rule adds cannot make another rule match: the order of rules never matters."""
    Topic.objects.create(name="speech", slug="speech", rule="speech")
    Topic.objects.create(name="spoken", slug="spoken", rule="speech")
    titled = make_paper(venue, "We study tokenizers.", title="Speech Tokenizers")
    other = make_paper(venue, "We study parsing.")
    curated = Topic.objects.create(name="speech curated", slug="speech-curated")
    PaperTopic.objects.create(paper=other, topic=curated, source="curator")
    from papers.denormalise import refresh_topic_names

    refresh_topic_names()
    apply_topic_rules()
    assert rule_links() == {(titled.pk, "speech"), (titled.pk, "spoken")}


def test_a_title_rule_matches_titles_alone(venue):
    """A word an abstract uses in passing says little of a paper's subject: the title rule
    tags the paper whose title has it, not the one whose abstract does; the rule and the title
    rule are either-or, and a topic may have a title rule alone."""
    Topic.objects.create(name="fairness", slug="fairness", rule="", title_rule="bias -inductive")
    Topic.objects.create(name="kv", slug="kv", rule='"kv cache"', title_rule="eviction")
    biased = make_paper(venue, "We measure it in hiring.", title="Gender Bias in Hiring Models")
    make_paper(venue, "Judges show a position bias.", title="Parsing Judges")
    make_paper(venue, "Models.", title="An Inductive Bias for Parsers")
    cached = make_paper(venue, "We shrink the KV cache.", title="Smaller Caches")
    evicted = make_paper(venue, "Tokens go.", title="Token Eviction")
    apply_topic_rules()
    assert rule_links() == {(biased.pk, "fairness"), (cached.pk, "kv"), (evicted.pk, "kv")}


def test_a_passing_mention_tags_only_a_paper_without_another_topic(venue):
    # "knowledge distillation" used to make data tagged Compression, "privacy" said once
    # Privacy and Security (an outside researcher's wrong tags).
    privacy = Topic.objects.create(name="privacy", slug="privacy", rule='privacy or "data leaks"')
    speech = Topic.objects.create(name="speech", slug="speech", rule="speech")
    parsing = Topic.objects.create(name="parsing", slug="parsing", rule="", title_rule="parsing")
    in_passing = make_paper(venue, "Speech models, speech data. Privacy is future work.")
    alone = make_paper(venue, "We recognise speech. Privacy is future work.")
    curated = make_paper(venue, "Privacy is future work.")
    PaperTopic.objects.create(paper=curated, topic=parsing, source="curator")
    by_model = make_paper(venue, "Privacy is future work.")
    PaperTopic.objects.create(paper=by_model, topic=parsing, source="model", confidence=0.9)
    titled = make_paper(venue, "Speech models, speech data.", title="Privacy of Speech")
    twice = make_paper(venue, "Speech models, speech data. Privacy, and data leaks.")
    named = make_paper(venue, "Privacy is future work.", title="Parsing Trees")
    apply_topic_rules()
    assert rule_links() == {
        (in_passing.pk, "speech"),
        # Said once each, nothing else: both tag it rather than none.
        (alone.pk, "speech"),
        (alone.pk, "privacy"),
        (titled.pk, "speech"),
        (titled.pk, "privacy"),
        (twice.pk, "speech"),
        (twice.pk, "privacy"),
        (named.pk, "parsing"),
    }

    def tagged_by(rule: str, said_once: str, said_twice: str) -> set[str]:
        """Which of two papers with another topic a rule tags: "once", "twice" or both."""
        topic = Topic.objects.create(name="mentioned", slug="mentioned", rule=rule)
        once = make_paper(venue, f"Speech models, speech data. {said_once}")
        twice = make_paper(venue, f"Speech models, speech data. {said_twice}")
        apply_topic_rules()
        names = {once.pk: "once", twice.pk: "twice"}
        tagged = {names[paper] for paper, name in rule_links() if name == "mentioned"}
        topic.delete()
        Paper.objects.filter(pk__in=names).delete()
        return tagged

    # A phrase said twice is said twice, whatever the stop words inside it ("theory of mind"
    # said three times counted 1.5 in ts_rank_cd, a reviewer).
    rule = '"theory of mind" or tom'
    assert tagged_by(rule, "A theory of mind.", "A theory of mind; theory of mind.") == {"twice"}
    # Nor is one mention two because two of the rule's alternatives make it: "text-to-SQL" is
    # "text-to-sql" and "sql" (a reviewer).
    rule = '"text-to-sql" or sql'
    assert tagged_by(rule, "On a text-to-SQL benchmark.", "Text-to-SQL; SQL.") == {"twice"}
    # Rules run for one topic read the others: the same links.
    assert apply_topic_rules([privacy]) == 3
    assert run_topic_rules([speech, privacy]).removed == 0
    assert len(rule_links()) == 8
    # The other topic goes: the passing mention tags the paper again.
    PaperTopic.objects.filter(paper=curated).delete()
    apply_topic_rules([privacy])
    assert (curated.pk, "privacy") in rule_links()


def test_the_shipped_code_rule_tags_programming_not_code_switching(venue):
    # "coding" is parsed to the lexeme of "code": as an alternative of its own it undid the
    # exclusions, and 106 papers on code-switching were about code generation.
    load_topics()
    code = "Code Generation and Software Engineering"
    switching = make_paper(venue, "Bilingual text.", title="Surprisal Predicts Code-Switching")
    switchers = make_paper(venue, "LLMs.", title="Multilingual LLMs Are Not (Yet) Code-Switchers")
    mixed = make_paper(venue, "Tweets.", title="Creation of Corpus in Code-Mixed Kannada-English")
    coding = make_paper(venue, "Assistants.", title="Coding Assistants in the Classroom")
    generating = make_paper(venue, "Programs.", title="Generating Code from Docstrings")
    apply_topic_rules()
    tagged = {paper for paper, name in rule_links() if name == code}
    assert tagged == {coding.pk, generating.pk}
    assert not {switching.pk, switchers.pk, mixed.pk} & tagged


def test_the_shipped_finance_rule_tags_stock_markets_not_taking_stock(venue):
    load_topics()
    finance = "Finance and Legal NLP"
    # "judicious" is parsed to the lexeme of "judicial" (an outside researcher).
    make_paper(venue, "We choose judicious samples.", title="Self-Training")
    judged = make_paper(venue, "Predicting judicial outcomes of cases.", title="Verdicts")
    make_paper(
        venue, "Speech.", title="End-to-End Speech Translation: Taking Stock of Where We Are"
    )
    market = make_paper(venue, "Prices.", title="Stock Movement Prediction from Tweets")
    stocks = make_paper(venue, "Returns.", title="Taking Positions in Stocks with News")
    apply_topic_rules()
    tagged = {paper for paper, name in rule_links() if name == finance}
    assert tagged == {market.pk, stocks.pk, judged.pk}


def test_rules_can_be_limited_to_some_papers(venue):
    Topic.objects.create(name="speech", slug="speech", rule="speech")
    first = make_paper(venue, "Speech one.")
    second = make_paper(venue, "Speech two.")
    assert apply_topic_rules(paper_ids=[first.pk]) == 1
    assert rule_links() == {(first.pk, "speech")}
    assert apply_topic_rules() == 2
    assert {paper for paper, _ in rule_links()} == {first.pk, second.pk}


def test_websearch_syntax_in_rules(venue):
    Topic.objects.create(name="kv", slug="kv", rule='"kv cache" or "attention sparsity" -survey')
    cache = make_paper(venue, "We compress the KV cache of long prompts.")
    make_paper(venue, "A cache of KV pairs.")  # not the phrase
    sparse = make_paper(venue, "Attention sparsity at scale.")
    make_paper(venue, "A survey of attention sparsity.")
    apply_topic_rules()
    assert rule_links() == {(cache.pk, "kv"), (sparse.pk, "kv")}


# The command ----------------------------------------------------------------------------


def test_command_applies_every_rule_and_reports(venue, capsys):
    Topic.objects.create(name="speech", slug="speech", rule="speech")
    Topic.objects.create(name="parsing", slug="parsing", rule="parsing")
    make_paper(venue, "Speech recognition.")
    call_command("apply_topic_rules")
    out = capsys.readouterr().out
    assert out == "2 topic rules applied: 1 rule links (1 added, 0 removed), 1 papers changed\n"
    call_command("apply_topic_rules", "-v", "2")
    assert capsys.readouterr().out.splitlines() == [
        "  parsing: 0 papers match (+0 / -0 rule links)",
        "  speech: 1 papers match (+0 / -0 rule links)",
        "2 topic rules applied: 1 rule links (0 added, 0 removed), 0 papers changed",
    ]
    call_command("apply_topic_rules", "-v", "0")
    assert capsys.readouterr().out == ""


def test_command_takes_topic_names_or_slugs(venue, capsys):
    Topic.objects.create(name="Speech Processing", slug="speech-processing", rule="speech")
    Topic.objects.create(name="parsing", slug="parsing", rule="parsing")
    make_paper(venue, "Speech and parsing.")
    call_command("apply_topic_rules", "speech-processing")
    assert rule_links() == {(Paper.objects.get().pk, "Speech Processing")}
    call_command("apply_topic_rules", "PARSING")
    assert len(rule_links()) == 2


def test_command_names_a_topic_it_cannot_find(venue):
    Topic.objects.create(name="speech", slug="speech", rule="speech")
    make_paper(venue, "Speech.")
    with pytest.raises(CommandError, match="no topic named 'nope'"):
        call_command("apply_topic_rules", "speech", "nope")
    assert not PaperTopic.objects.exists()


def test_command_has_help():
    from papers.management.commands.apply_topic_rules import Command

    parser = Command().create_parser("manage.py", "apply_topic_rules")
    text = parser.format_help()
    assert "websearch query" in text
    assert "Names or slugs of the topics" in text


@pytest.mark.django_db
def test_load_topics_creates_only_missing_topics_and_keeps_curators_edits():
    call_command("load_topics", verbosity=0)
    vocabulary = Topic.objects.count()
    assert vocabulary >= 20
    speech = Topic.objects.get(name="Speech and Audio")
    speech.name, speech.rule = "spoken language", '"speech recognition"'
    speech.save()
    evaluation = Topic.objects.get(name="Evaluation and Benchmarking")
    TopicRedirect.objects.create(old_slug=evaluation.slug, topic=speech)
    evaluation.delete()
    out = io.StringIO()
    call_command("load_topics", stdout=out)
    assert out.getvalue() == f"0 new topics, {vocabulary} already present\n"
    assert Topic.objects.count() == vocabulary - 1
    assert Topic.objects.get(slug=speech.slug).rule == '"speech recognition"'
    shipped = {
        item["fields"]["slug"]: item["fields"] for item in json.loads(TOPICS_FIXTURE.read_text())
    }
    bias = Topic.objects.get(slug="bias-and-fairness")
    assert (bias.rule, bias.title_rule) == (
        shipped[bias.slug]["rule"],
        shipped[bias.slug]["title_rule"],
    )


@pytest.mark.django_db
def test_load_topics_refuses_a_file_that_is_not_a_topic_fixture(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"model": "papers.paper", "fields": {}}]', encoding="utf-8")
    with pytest.raises(CommandError, match=r"object 1 is not a papers\.topic with a name"):
        call_command("load_topics", str(bad))


@pytest.mark.django_db
def test_migration_0010_gives_an_unedited_extraction_topic_the_vocabulary_s_rule():
    """The data migration moves the rule and description the vocabulary gave before it to the
    fixture's current ones, each only where a curator has not changed it, and back."""
    from django.apps import apps

    migration = importlib.import_module("papers.migrations.0010_information_extraction_rule")
    shipped = {
        item["fields"]["slug"]: item["fields"] for item in json.loads(TOPICS_FIXTURE.read_text())
    }
    extraction = shipped[migration.SLUG]
    current = (migration.CURRENT, migration.CURRENT_DESCRIPTION)
    assert (extraction["rule"], extraction["description"]) == current
    Topic.objects.create(
        name="Information Extraction",
        slug=migration.SLUG,
        rule=migration.PREVIOUS,
        description="A curator's own words.",
    )
    forward = migration.replace(
        (migration.PREVIOUS, migration.CURRENT),
        (migration.PREVIOUS_DESCRIPTION, migration.CURRENT_DESCRIPTION),
    )
    forward(apps, None)
    topic = Topic.objects.get(slug=migration.SLUG)
    assert (topic.rule, topic.description) == (migration.CURRENT, "A curator's own words.")
    backward = migration.replace(
        (migration.CURRENT, migration.PREVIOUS),
        (migration.CURRENT_DESCRIPTION, migration.PREVIOUS_DESCRIPTION),
    )
    Topic.objects.filter(pk=topic.pk).update(description=migration.CURRENT_DESCRIPTION)
    backward(apps, None)
    topic.refresh_from_db()
    assert (topic.rule, topic.description) == (migration.PREVIOUS, migration.PREVIOUS_DESCRIPTION)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("module", "field", "dropped", "added", "curated"),
    [
        (
            "0033_code_title_rule_without_coding",
            "title_rule",
            " or coding or ",
            ' -"code-switchers"',
            "code or coding",
        ),
        (
            "0048_finance_title_rule_without_taking_stock",
            "title_rule",
            " or stock or stocks or ",
            ' or stock -"taking stock" or ',
            "stock",
        ),
        (
            "0050_finance_rule_without_judicious",
            "rule",
            " or judicial or ",
            ' or "judicial process" or ',
            "judicial",
        ),
    ],
)
def test_rule_migrations_change_only_an_unedited_rule(module, field, dropped, added, curated):
    """0033 takes "coding" from Code Generation's title rule, 0048 "stocks" (and "taking
    stock") from Finance's, 0050 "judicial" alone from Finance's rule: a topic with the
    previous rule gets the new one, a curator's stays."""
    from django.apps import apps

    migration = importlib.import_module(f"papers.migrations.{module}")
    assert dropped in migration.PREVIOUS and dropped not in migration.CURRENT
    assert migration.CURRENT.count(added) > migration.PREVIOUS.count(added)
    topic = Topic.objects.create(name="Topic", slug=migration.SLUG, **{field: migration.PREVIOUS})
    migration.replace(migration.PREVIOUS, migration.CURRENT)(apps, None)
    topic.refresh_from_db()
    assert getattr(topic, field) == migration.CURRENT
    Topic.objects.filter(pk=topic.pk).update(**{field: curated})  # a curator's
    migration.replace(migration.PREVIOUS, migration.CURRENT)(apps, None)
    topic.refresh_from_db()
    assert getattr(topic, field) == curated


@pytest.mark.django_db
def test_migration_0016_moves_an_unedited_topic_s_broad_words_to_its_title_rule():
    """A topic with the vocabulary's previous rule and no title rule gets the fixture's rule and
    title rule; one a curator changed keeps it; back again, the previous rule."""
    from django.apps import apps

    migration = importlib.import_module("papers.migrations.0016_topic_title_rules")
    shipped = {
        item["fields"]["slug"]: item["fields"] for item in json.loads(TOPICS_FIXTURE.read_text())
    }
    # The vocabulary's rules are the migration's but where a later one changed them.
    # The later migrations changing a topic's rule or title rule, each (module, field).
    later = [
        ("0033_code_title_rule_without_coding", "title_rule"),
        ("0048_finance_title_rule_without_taking_stock", "title_rule"),
        ("0050_finance_rule_without_judicious", "rule"),
    ]
    for slug, (_, rule, title_rule) in migration.CHANGES.items():
        rules = {"rule": rule, "title_rule": title_rule}
        for name, field in later:
            changed = importlib.import_module(f"papers.migrations.{name}")
            if slug == changed.SLUG:
                assert rules[field] == changed.PREVIOUS
                rules[field] = changed.CURRENT
        assert (shipped[slug]["rule"], shipped[slug]["title_rule"]) == tuple(rules.values())
    previous, rule, title_rule = migration.CHANGES["finance-and-legal-nlp"]
    assert " or law or " in previous and " or law or " not in rule
    legal = Topic.objects.create(name="Finance and Legal NLP", slug="finance-and-legal-nlp")
    Topic.objects.filter(pk=legal.pk).update(rule=previous)
    edited = Topic.objects.create(name="Bias and Fairness", slug="bias-and-fairness", rule="bias")
    migration.forward(apps, None)
    legal.refresh_from_db()
    edited.refresh_from_db()
    assert (legal.rule, legal.title_rule) == (rule, title_rule)
    assert (edited.rule, edited.title_rule) == ("bias", "")
    migration.backward(apps, None)
    legal.refresh_from_db()
    assert legal.rule == previous
