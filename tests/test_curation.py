"""Curation called directly, on PostgreSQL: merges, topic links, recorded edits, filling.

The admin's pages drive the same functions (tests/test_admin.py); here each one is checked on
its own, on small collections built with the factories.
"""

from types import SimpleNamespace

import pytest

from papers import curation, merging
from papers.models import Author, Paper, PaperTopic, RemovedTopic, Topic, TopicRedirect
from papers.text import abstract_key
from papers.topic_rules import apply_topic_rules
from tests.factories import finish, make_paper, make_topic, make_venue

DUMP, RULE, CURATOR, MODEL = "dump", "rule", "curator", "model"


def paper(abstract: str = "", links=None, **fields) -> Paper:
    """A paper whose abstract key is the real one; ``links`` maps topic names to sources."""
    made = make_paper(abstract, **fields)
    made.abstract_key = abstract_key(abstract)
    made.save(update_fields=["abstract_key"])
    for name, source in (links or {}).items():
        PaperTopic.objects.create(paper=made, topic=make_topic(name), source=source)
    return made


def removed(made: Paper, *names: str) -> None:
    for name in names:
        RemovedTopic.objects.create(paper=made, topic=make_topic(name))


def topics_of(made: Paper) -> dict[str, str]:
    return dict(made.topic_links.values_list("topic__name", "source"))


def removals_of(made: Paper) -> set[str]:
    return set(made.removed_topics.values_list("topic__name", flat=True))


def fresh(made):
    made.refresh_from_db()
    return made


# Filling empty fields ----------------------------------------------------------------------


def test_fill_empty_fills_only_empty_unprotected_fields_from_non_empty_values():
    target = SimpleNamespace(title="", country="", doi="", pages="kept", url="")
    source = SimpleNamespace(title="T", country="Peru", doi="10.1/x", pages="1-9", url="")
    filled = curation.fill_empty(
        target, source, ("title", "country", "doi", "pages", "url"), protected=["country"]
    )
    assert filled == ["title", "doi"]
    assert vars(target) == {
        "title": "T",
        "country": "",
        "doi": "10.1/x",
        "pages": "kept",
        "url": "",
    }


def test_merge_papers_keeps_the_stronger_link_of_each_topic(db):
    survivor = paper("Survivor.", links={"alpha": RULE, "beta": CURATOR, "delta": DUMP})
    duplicate = paper("Duplicate.", links={"alpha": DUMP, "beta": RULE, "gamma": DUMP})
    finish()
    merging.merge_papers(survivor, [duplicate])
    assert topics_of(survivor) == {"alpha": DUMP, "beta": CURATOR, "gamma": DUMP, "delta": DUMP}
    assert not Paper.objects.filter(pk=duplicate.pk).exists()
    assert PaperTopic.objects.count() == 4
    assert fresh(survivor).topic_names == "alpha, beta, delta, gamma"


def test_merge_papers_moves_removals_unless_the_survivors_curator_chose_the_topic(db):
    survivor = paper("Survivor.", links={"chosen": CURATOR, "loaded": DUMP})
    removed(survivor, "unwanted")
    duplicate = paper("Duplicate.", links={"unwanted": DUMP})
    removed(duplicate, "chosen", "loaded", "elsewhere")
    finish()
    merging.merge_papers(survivor, [duplicate])
    assert topics_of(survivor) == {"chosen": CURATOR}
    assert removals_of(survivor) == {"unwanted", "loaded", "elsewhere"}
    assert RemovedTopic.objects.count() == 3
    assert fresh(survivor).topic_names == "chosen"


def test_merge_papers_appends_the_authors_the_survivor_lacks_in_order(db):
    survivor = paper("Survivor.", authors=["Ada Lovelace", "Alan Turing"])
    first = paper("First.", authors=["Alan Turing", "Grace Hopper"])
    second = paper("Second.", authors=["Grace Hopper", "Barbara Liskov"])
    finish()
    merging.merge_papers(survivor, [first, second])
    assert list(
        survivor.authorships.order_by("position").values_list("position", "author__name")
    ) == [(1, "Ada Lovelace"), (2, "Alan Turing"), (3, "Grace Hopper"), (4, "Barbara Liskov")]
    assert fresh(survivor).author_names == "Ada Lovelace, Alan Turing, Grace Hopper, Barbara Liskov"


def test_merge_papers_takes_curated_fields_and_fills_empty_ones(db):
    survivor = paper(
        "Survivor.",
        title="Survivor Title",
        doi="10.1/survivor",
        curated_fields=["doi"],
        related_titles=["Talk A"],
    )
    first = paper(
        "First.",
        title="First Title",
        country="Peru",
        pages="1-9",
        doi="10.1/first",
        external_id="ext-1",
        curated_fields=["title", "doi"],
        related_titles=["Talk B", "Talk A"],
        reviewed=True,
    )
    second = paper(
        "Second.",
        country="Chile",
        bibkey="second-2025",
        curated_fields=["country", "topics"],
        related_titles=["Talk C"],
    )
    merging.merge_papers(survivor, [first, second])
    survivor = fresh(survivor)
    assert survivor.title == "First Title"  # curated on a duplicate: taken with its value
    assert survivor.doi == "10.1/survivor"  # curated on the survivor: kept
    assert survivor.country == "Chile"  # filled from the first, then curated on the second
    assert (survivor.pages, survivor.external_id, survivor.bibkey) == (
        "1-9",
        "ext-1",
        "second-2025",
    )
    assert survivor.abstract == "Survivor."
    # Its abstract chosen over that of the duplicate whose ID it took: a curator's, which that
    # ID's source loaded again must not correct back.
    assert survivor.curated_fields == ["doi", "title", "abstract", "country", "topics"]
    assert survivor.related_titles == ["Talk A", "Talk B", "Talk C"]
    assert survivor.reviewed is True
    assert list(Paper.objects.values_list("pk", flat=True)) == [survivor.pk]


def test_merge_papers_gives_a_filled_abstract_its_key(db):
    survivor = paper("", title="A Title Without Abstract")
    duplicate = paper("The duplicate carries the abstract.")
    merging.merge_papers(survivor, [duplicate])
    survivor = fresh(survivor)
    assert survivor.abstract == "The duplicate carries the abstract."
    assert survivor.abstract_key == abstract_key("The duplicate carries the abstract.")
    assert survivor.curated_fields == []


def test_merge_papers_gives_a_taken_curated_abstract_its_key(db):
    survivor = paper("The survivor's loaded abstract.")
    duplicate = paper("The duplicate's curated abstract.", curated_fields=["abstract"])
    merging.merge_papers(survivor, [duplicate])
    survivor = fresh(survivor)
    assert survivor.abstract == "The duplicate's curated abstract."
    assert survivor.abstract_key == abstract_key("The duplicate's curated abstract.")
    assert survivor.curated_fields == ["abstract"]


def model_link(made: Paper, name: str, confidence: float) -> None:
    PaperTopic.objects.create(
        paper=made, topic=make_topic(name), source=MODEL, confidence=confidence
    )


def test_merge_papers_with_the_topic_models_links(db):
    make_topic("beta", rule="beta")  # the rules run again on the survivor: its title has it
    survivor = paper("Survivor.", links={"beta": RULE}, title="Beta Survivor")
    duplicate = paper("Duplicate.")
    model_link(survivor, "alpha", 0.6)
    model_link(duplicate, "alpha", 0.9)
    model_link(duplicate, "beta", 0.8)
    model_link(duplicate, "gamma", 0.7)
    finish()
    merging.merge_papers(survivor, [duplicate])
    links = survivor.topic_links.values_list("topic__name", "source", "confidence")
    # Both had alpha from the model: the survivor's link stays; a rule outranks the model.
    assert sorted(links) == [("alpha", MODEL, 0.6), ("beta", RULE, None), ("gamma", MODEL, 0.7)]


# Merging topics ----------------------------------------------------------------------------


@pytest.fixture
def three_topics(db):
    """A survivor topic and two others, with rules, descriptions and one older redirect."""
    survivor = make_topic("survivor topic", rule="alpha")
    second = make_topic("second topic", rule="beta", description="About beta.")
    third = make_topic("third topic", rule=" alpha ", description="About the third.")
    Topic.objects.filter(pk=third.pk).update(title_rule="gamma")
    third.title_rule = "gamma"
    TopicRedirect.objects.create(old_slug="second-older", topic=second)
    return survivor, second, third


def test_merge_topics_moves_links_keeping_the_stronger_source(three_topics):
    survivor, second, third = three_topics
    both = paper("Both.", links={"survivor topic": RULE, "second topic": CURATOR})
    moved = paper("Moved.", links={"second topic": DUMP, "third topic": RULE})
    refused = paper("Refused.", links={"third topic": DUMP})
    removed(refused, "survivor topic")
    finish()
    merging.merge_topics(survivor, [second, third])
    assert topics_of(both) == {"survivor topic": CURATOR}
    assert topics_of(moved) == {"survivor topic": DUMP}
    assert topics_of(refused) == {}
    assert removals_of(refused) == {"survivor topic"}
    assert [fresh(p).topic_names for p in (both, moved, refused)] == [
        "survivor topic",
        "survivor topic",
        "",
    ]
    assert list(Topic.objects.values_list("name", flat=True)) == ["survivor topic"]


def test_merge_topics_where_the_model_linked_both(three_topics):
    survivor, second, _ = three_topics
    both = paper("Both.")
    model_link(both, "survivor topic", 0.55)
    model_link(both, "second topic", 0.95)
    upgraded = paper("Upgraded.", links={"second topic": DUMP})
    model_link(upgraded, "survivor topic", 0.5)
    finish()
    merging.merge_topics(survivor, [second])
    assert list(both.topic_links.values_list("source", "confidence")) == [(MODEL, 0.55)]
    # A dump's link outranks the model's, and a dump's link has no confidence.
    assert list(upgraded.topic_links.values_list("source", "confidence")) == [(DUMP, None)]


def test_merge_topics_moves_removals_where_the_survivor_is_not_on_the_paper(three_topics):
    survivor, second, third = three_topics
    untagged = paper("Untagged.")
    removed(untagged, "second topic", "third topic")
    tagged = paper("Tagged.", links={"survivor topic": DUMP})
    removed(tagged, "third topic")
    finish()
    merging.merge_topics(survivor, [second, third])
    assert list(untagged.removed_topics.values_list("topic__name", flat=True)) == ["survivor topic"]
    assert removals_of(tagged) == set()
    assert topics_of(tagged) == {"survivor topic": DUMP}


def test_merge_topics_joins_rules_fills_the_description_and_redirects(three_topics):
    survivor, second, third = three_topics
    merging.merge_topics(survivor, [second, third])
    survivor = fresh(survivor)
    assert (survivor.rule, survivor.title_rule) == ("alpha or beta", "gamma")
    assert survivor.description == "About beta."
    assert dict(TopicRedirect.objects.values_list("old_slug", "topic__name")) == {
        "second-older": "survivor topic",
        "second-topic": "survivor topic",
        "third-topic": "survivor topic",
    }


# Adding and removing topics ----------------------------------------------------------------


def test_add_topic_makes_curator_links_and_clears_removals(db):
    topic = make_topic("parsing")
    ruled = paper("Ruled.", links={"parsing": RULE}, curated_fields=["country"])
    loaded = paper("Loaded.", links={"parsing": DUMP})
    refused = paper("Refused.")
    removed(refused, "parsing")
    finish()
    count = curation.add_topic_to_papers(topic, [ruled.pk, loaded.pk, refused.pk])
    assert count == 2
    assert [topics_of(p) for p in (ruled, loaded, refused)] == [
        {"parsing": CURATOR},
        {"parsing": DUMP},
        {"parsing": CURATOR},
    ]
    assert not RemovedTopic.objects.exists()
    assert [fresh(p).curated_fields for p in (ruled, loaded, refused)] == [
        ["country", "topics"],
        [],
        ["topics"],
    ]
    assert refused.topic_names == "parsing"


def test_remove_topic_removes_remembers_and_curates(db):
    topic = make_topic("parsing")
    make_topic("syntax", rule="tagged")
    tagged = paper("Tagged.", links={"parsing": DUMP, "syntax": RULE})
    untagged = paper("Untagged.", links={"syntax": DUMP})
    finish()
    count = curation.remove_topic_from_papers(topic, [tagged.pk, untagged.pk])
    assert count == 1
    assert topics_of(tagged) == {"syntax": RULE}
    assert list(RemovedTopic.objects.values_list("paper_id", "topic__name")) == [
        (tagged.pk, "parsing")
    ]
    assert fresh(tagged).curated_fields == ["topics"]
    assert tagged.topic_names == "syntax"
    assert fresh(untagged).curated_fields == []


def test_set_topics_adds_curator_links_and_remembers_removals(db):
    kept, dropped, restored = make_topic("kept"), make_topic("dropped"), make_topic("restored")
    made = paper("Edited.", links={"kept": DUMP, "dropped": DUMP})
    removed(made, "restored")
    curation.set_topics(made.pk, add=[restored.pk, kept.pk], remove=[dropped.pk, kept.pk])
    assert topics_of(made) == {"kept": CURATOR, "restored": CURATOR}
    assert removals_of(made) == {"dropped"}


# Recording a curator's edits ---------------------------------------------------------------


def test_record_paper_edit_curates_changed_fields_and_rekeys_the_abstract(db):
    made = paper("Old abstract.", curated_fields=["title"])
    made.abstract = "New abstract."
    curation.record_paper_edit(made, ["abstract", "country", "reviewed", "curated_fields", "x"])
    assert made.curated_fields == ["title", "abstract", "country"]
    assert made.abstract_key == abstract_key("New abstract.")


def test_record_paper_edit_of_nothing_curates_nothing(db):
    made = paper("Unchanged.")
    curation.record_paper_edit(made, ["reviewed"])
    assert made.curated_fields == []
    assert made.abstract_key == abstract_key("Unchanged.")


def test_record_paper_links_edit_stores_the_curation_and_refreshes_names(db):
    made = paper("Edited.", links={"parsing": DUMP}, authors=["Ada Lovelace"])
    Paper.objects.filter(pk=made.pk).update(topic_names="", author_names="")
    curation.record_paper_links_edit(made, {"topics", "authors"})
    made = fresh(made)
    assert made.curated_fields == ["authors", "topics"]
    assert (made.topic_names, made.author_names) == ("parsing", "Ada Lovelace")


def test_record_venue_edit_curates_all_but_the_slug(db):
    venue = make_venue("EMNLP 2024", 2024, curated_fields=["year"])
    curation.record_venue_edit(venue, ["slug", "location", "name", "curated_fields"])
    assert venue.curated_fields == ["year", "location", "name"]


def test_a_renamed_topic_redirects_its_old_slug_and_renames_its_papers(db):
    topic = make_topic("parsing")
    TopicRedirect.objects.create(old_slug="syntactic-parsing", topic=make_topic("other"))
    made = paper("Tagged.", links={"parsing": DUMP})
    finish()
    topic.name, topic.slug = "syntactic parsing", "syntactic-parsing"
    topic.save()
    curation.record_topic_edit(topic, old_slug="parsing", renamed=True)
    assert dict(TopicRedirect.objects.values_list("old_slug", "topic__name")) == {
        "parsing": "syntactic parsing"
    }
    assert fresh(made).topic_names == "syntactic parsing"


def test_a_renamed_author_renames_their_papers(db):
    made = paper("Written.", authors=["Ada Lovelace", "Alan Turing"])
    finish()
    author = Author.objects.get(name="Alan Turing")
    author.name = "A. M. Turing"
    author.save()
    curation.record_author_edit(author, ["name"])
    assert fresh(made).author_names == "Ada Lovelace, A. M. Turing"


def test_delete_topics_refreshes_the_names_of_their_papers(db):
    made = paper("Tagged.", links={"parsing": DUMP, "syntax": DUMP, "semantics": DUMP})
    finish()
    curation.delete_topics(Topic.objects.filter(name__in=["parsing", "semantics"]))
    assert fresh(made).topic_names == "syntax"
    assert list(Topic.objects.values_list("name", flat=True)) == ["syntax"]


def test_deleting_papers_deletes_their_authors_left_on_no_paper(db):
    # Their pages stayed, with no paper, and the search offered them (an outside curator).
    gone = paper("To delete.", authors=["Solo Author", "Shared Author", "Merged Author"])
    paper("To keep.", authors=["Shared Author"])
    finish()
    Author.objects.filter(name="Merged Author").update(variants=["M. Author"])
    curation.delete_papers(Paper.objects.filter(pk=gone.pk))
    assert sorted(Author.objects.values_list("name", flat=True)) == [
        "Merged Author",  # a curator's merge keeps it: its old addresses lead to it
        "Shared Author",
    ]


def test_mark_reviewed_marks_only_the_given_papers(db):
    chosen, other = paper("Chosen."), paper("Other.")
    assert curation.mark_reviewed(Paper.objects.filter(pk=chosen.pk)) == 1
    assert (fresh(chosen).reviewed, fresh(other).reviewed) == (True, False)


def test_add_curated_appends_new_names_sorted():
    assert curation.add_curated(["title"], {"doi", "title", "country"}) == [
        "title",
        "country",
        "doi",
    ]


def test_a_curators_topic_takes_a_passing_mentions_place_and_gives_it_back(db):
    # A rule's passing mention tags only a paper without another topic (papers/topic_rules.py):
    # a curator's topic added or taken away decides it as a load would.
    make_topic("privacy", rule="privacy")
    parsing = make_topic("parsing")
    mentioned = paper("Parsers. Privacy is future work.")
    finish()
    apply_topic_rules()
    assert topics_of(mentioned) == {"privacy": RULE}
    curation.add_topic_to_papers(parsing, [mentioned.pk])
    assert topics_of(mentioned) == {"parsing": CURATOR}
    assert fresh(mentioned).topic_names == "parsing"
    curation.remove_topic_from_papers(parsing, [mentioned.pk])
    assert topics_of(mentioned) == {"privacy": RULE}
    curation.set_topics(mentioned.pk, add=[parsing.pk])
    assert topics_of(mentioned) == {"parsing": CURATOR}
    curation.delete_topics(Topic.objects.filter(pk=parsing.pk))
    assert topics_of(mentioned) == {"privacy": RULE}
    # A merge brings the duplicate's topics: the passing mention goes (a reviewer).
    duplicate = paper("Parsers.", links={"syntax": CURATOR})
    merging.merge_papers(mentioned, [duplicate])
    assert topics_of(mentioned) == {"syntax": CURATOR}
