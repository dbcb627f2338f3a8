"""A collection loaded before this round's migrations upgrades in place: `manage.py migrate`
on a database at 0001 (as released) gives the papers their search vectors (compounds joined),
exact counts and portable sources."""

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from papers import schema_sql
from papers.counts import refresh_counts
from papers.denormalise import refresh_lexemes, refresh_topic_names
from papers.facets import count_facets
from papers.models import Author, MergedKey, Paper, PaperFacets
from papers.querysets import web_query
from papers.text import abstract_key, legacy_normalised
from tests.factories import finish, make_paper

RELEASED = [("papers", "0001_initial")]


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_a_collection_at_the_released_schema_upgrades_in_place():
    executor = migrate(RELEASED)
    old = executor.loader.project_state(RELEASED).apps
    venue = old.get_model("papers", "Venue").objects.create(
        name="ACL 2020", slug="acl-2020", year=2020
    )
    old_paper = old.get_model("papers", "Paper")
    for n, title in enumerate(["Neural Machine Translation", "Few-Shot Dialogue State Tracking"]):
        old_paper.objects.create(
            title=title,
            abstract=f"We study {title.lower()} with models {n}.",
            abstract_key=f"key-{n}",
            venue=venue,
            external_id=f"2020.acl-main.{n + 1}",
            source_file="/home/someone/shared/data/anthology/2020.acl.xml",
        )
    migrate(executor.loader.graph.leaf_nodes())

    assert PaperFacets.objects.count() == 2
    facets = count_facets({})
    assert (facets.total, [(o.value, o.count) for o in facets.venue]) == (2, [("acl-2020", 2)])
    assert count_facets({}, text="translation").total == 1
    assert set(Paper.objects.values_list("source_file", flat=True)) == {"anthology/2020.acl.xml"}
    assert Paper.objects.filter(search_vector="dialogue").count() == 1
    # The vectors and the title's were parsed again with compounds joined (0008).
    assert count_facets({}, text="fewshot").total == 1
    titled = Paper.objects.filter(title_vector=web_query("fewshot"))
    assert list(titled.values_list("external_id", flat=True)) == ["2020.acl-main.2"]


@pytest.mark.django_db(transaction=True)
def test_authors_keyed_with_their_accents_share_a_key_after_0024():
    before = [("papers", "0023_author_family_name")]
    executor = migrate(before)
    old_author = executor.loader.project_state(before).apps.get_model("papers", "Author")
    for name, key, slug in [
        ("André Martins", "andré martins", "andre-martins-2"),
        ("Andre Martins", "andre martins", "andre-martins"),
        ("王小明", "王小明", "王小明"),
    ]:
        old_author.objects.create(name=name, key=key, slug=slug)
    migrate(executor.loader.graph.leaf_nodes())

    assert dict(Author.objects.values_list("slug", "key")) == {
        "andre-martins": "andre martins",
        "andre-martins-2": "andre martins",
        "王小明": "王小明",
    }
    # Each of the two pages now lists the other among the people of that name.
    plain = Author.objects.get(slug="andre-martins")
    assert [a.slug for a in Author.objects.namesakes_of(plain)] == ["andre-martins-2"]
    # And back: the keys keep their accents again.
    executor = migrate(before)
    old_keys = executor.loader.project_state(before).apps.get_model("papers", "Author").objects
    assert sorted(old_keys.values_list("key", flat=True)) == [
        "andre martins",
        "andré martins",
        "王小明",
    ]
    migrate(executor.loader.graph.leaf_nodes())


def lexeme_count(*words: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM papers_lexeme WHERE word = ANY(%s)", [list(words)])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_topic_names_leave_the_search_vectors_at_0026():
    # The paper is made with today's models, then the schema is taken back to 0025, whose
    # vectors held the topics' names: models of today cannot write to an older schema.
    paper = make_paper("Stance detection in tweets.", title="Stances", topics=["Argument Mining"])
    finish()
    before = [("papers", "0025_merged_key_paper_kind")]
    executor = migrate(before)
    # What a load at 0025 left: the topics' names in the narrow rows and word statistics.
    refresh_topic_names()
    refresh_lexemes()
    refresh_counts()
    assert Paper.objects.filter(search_vector="argument").count() == 1
    assert lexeme_count("argument", "mine") == 2
    migrate([("papers", "0026_search_without_topic_names")])
    assert Paper.objects.filter(search_vector="argument").count() == 0
    assert Paper.objects.filter(search_vector="stance").count() == 1
    # The narrow rows and the word statistics follow.
    assert count_facets({}, text="argument").total == 0
    assert lexeme_count("argument", "mine") == 0
    # And back.
    migrate(before)
    assert Paper.objects.filter(pk=paper.pk, search_vector="argument").count() == 1
    migrate(executor.loader.graph.leaf_nodes())
    assert Paper.objects.filter(pk=paper.pk, search_vector="argument").count() == 0


@pytest.mark.django_db
def test_a_venue_written_by_the_release_before_0031_gets_no_publisher_or_editors():
    # During a deploy the previous release's code still writes venues, without the columns
    # 0031 adds: the database fills them in.
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO papers_venue (name, slug, acronym, full_name, location, month,"
            " welcome_text, booktitle, external_id, curated_fields)"
            " VALUES ('ACL 2020', 'acl-2020', 'ACL', '', '', '', '', '', '', '{}')"
        )
        cursor.execute("SELECT publisher, editors FROM papers_venue WHERE slug = 'acl-2020'")
        assert cursor.fetchone() == ("", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("function", "definition"),
    [
        ("papers_compounds", schema_sql.COMPOUNDS_FUNCTION),
        ("papers_unaccented", schema_sql.UNACCENTED_FUNCTION),
        ("papers_written_out", schema_sql.WRITTEN_OUT_FUNCTION),
        ("papers_paper_search_vector", schema_sql.SEARCH_VECTOR_FUNCTION),
        ("papers_title_matches", schema_sql.TITLE_VECTOR_MATCHES_FUNCTION),
        ("papers_lexeme_match_ids", schema_sql.LEXEME_MATCH_IDS_FUNCTION),
        ("papers_text_match_ids", schema_sql.TEXT_MATCH_IDS_FUNCTION),
        ("papers_title_lexeme_match_ids", schema_sql.TITLE_LEXEME_MATCH_IDS_FUNCTION),
        ("papers_paper_lexemes", schema_sql.LEXEMES_FUNCTION),
    ],
)
def test_the_migrations_make_the_functions_schema_sql_describes(function, definition):
    # The migrations write their SQL out; papers/schema_sql.py describes the schema they
    # make. A change to one without the other shows here.
    body = definition.split("$$")[1]
    with connection.cursor() as cursor:
        cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = %s", [function])
        assert cursor.fetchone()[0].strip() == body.strip()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "function",
    [
        "papers_text_matches",
        "papers_title_matches",
        "papers_lexeme_match_ids",
        "papers_text_match_ids",
    ],
)
def test_the_matching_functions_keep_the_planner_on_their_indexes(function):
    # Their settings are their point: without them a common word is tested row by row.
    with connection.cursor() as cursor:
        cursor.execute("SELECT proconfig FROM pg_proc WHERE proname = %s", [function])
        assert cursor.fetchone()[0] == ["enable_seqscan=off", "enable_indexscan=off"]


@pytest.mark.django_db
def test_the_search_vector_stays_in_the_papers_row():
    # A phrase tests the positions of every paper with its words: fetched back from TOAST, a
    # long paper's vector tripled that test; its abstract goes out of line first.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attstorage FROM pg_attribute "
            "WHERE attrelid = 'papers_paper'::regclass AND attname = 'search_vector'"
        )
        assert cursor.fetchone()[0] == "m"


def lexeme_documents(word: str) -> int | None:
    """The papers the word statistics count for ``word``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT documents FROM papers_lexeme WHERE word = %s", [word])
        row = cursor.fetchone()
    return row[0] if row else None


def old_paper_by(apps, *authors: dict):
    """A paper of ACL 2024 written at an older schema (``apps``) by ``authors`` (each an
    Author's fields), with its names part of the search vector as that schema parsed it."""
    venue = apps.get_model("papers", "Venue").objects.create(
        name="ACL 2024", slug="acl-2024", year=2024
    )
    paper = apps.get_model("papers", "Paper").objects.create(
        title="Glot500", abstract="Many languages.", abstract_key="glot", venue=venue
    )
    for position, fields in enumerate(authors, start=1):
        author = apps.get_model("papers", "Author").objects.create(**fields)
        apps.get_model("papers", "Authorship").objects.create(
            paper=paper, author=author, position=position
        )
    names = ", ".join(fields["name"] for fields in authors)
    Paper.objects.filter(pk=paper.pk).update(author_names=names)
    return paper


@pytest.mark.django_db(transaction=True)
def test_names_with_umlauts_get_their_second_key_at_0027():
    before = [("papers", "0026_search_without_topic_names")]
    executor = migrate(before)
    paper = old_paper_by(
        executor.loader.project_state(before).apps,
        {"name": "Hinrich Schütze", "key": "hinrich schutze", "slug": "hinrich-schutze"},
        {"name": "Ann Lee", "key": "ann lee", "slug": "ann-lee"},
    )
    assert Paper.objects.filter(search_vector="schuetze").count() == 0

    migrate([("papers", "0027_author_umlaut_key")])
    assert dict(Author.objects.values_list("slug", "umlaut_key")) == {
        "hinrich-schutze": "hinrich schuetze",
        "ann-lee": "",
    }
    # The names part of the vector holds the name written out too; the names as shown stay.
    assert Paper.objects.get(pk=paper.pk).author_names == "Hinrich Schütze, Ann Lee"
    assert Paper.objects.filter(search_vector="schuetze").count() == 1
    assert Paper.objects.filter(search_vector="schutze").count() == 1
    assert lexeme_documents("schuetz") == 1
    # And back.
    migrate(before)
    assert Paper.objects.filter(search_vector="schuetze").count() == 0
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_abstract_keys_fold_quotes_and_dashes_at_0034():
    before = [("papers", "0033_code_title_rule_without_coding")]
    finish()  # the tables exist: the papers below come from the model as it stands
    curly = make_paper("We don’t use “quotes” — really.", title="Curly")
    plain = make_paper("No typography here.", title="Plain")
    # A copy, made here (the model as it stands cannot write at 0033) and given its text below.
    copy = make_paper("To be replaced.", title="Straight")
    executor = migrate(before)
    old_paper = executor.loader.project_state(before).apps.get_model("papers", "Paper")
    # Keys as written before 0034, and the copy as loaded then: it differs only in its quotes.
    for paper in (curly, plain):
        old_paper.objects.filter(pk=paper.pk).update(abstract_key=legacy(paper.abstract))
    copy.abstract = 'We don\'t use "quotes" -- really.'
    old_paper.objects.filter(pk=copy.pk).update(
        abstract=copy.abstract, abstract_key=legacy(copy.abstract)
    )
    migrate(executor.loader.graph.leaf_nodes())
    keys = dict(Paper.objects.values_list("title", "abstract_key"))
    assert keys["Curly"] == abstract_key(curly.abstract) == abstract_key(copy.abstract)
    assert keys["Plain"] == abstract_key(plain.abstract) == legacy(plain.abstract)
    # The copy keeps its old key: the two are one paper for a curator to merge.
    assert keys["Straight"] == legacy(copy.abstract)


@pytest.mark.django_db(transaction=True)
def test_abstract_keys_lose_characters_nothing_shows_at_0038():
    before = [("papers", "0037_lexemes_by_unaccented_spelling")]
    finish()
    soft = make_paper("We use soft\u00adhyphens and zero\u200bwidth spaces.", title="Soft")
    plain = make_paper("Nothing hidden here.", title="Plain")
    executor = migrate(before)
    old_paper = executor.loader.project_state(before).apps.get_model("papers", "Paper")
    for paper in (soft, plain):  # keys as written before 0038
        old_paper.objects.filter(pk=paper.pk).update(abstract_key=legacy(paper.abstract))
    migrate(executor.loader.graph.leaf_nodes())
    keys = dict(Paper.objects.values_list("title", "abstract_key"))
    assert keys == {
        "Soft": abstract_key("We use softhyphens and zerowidth spaces."),
        "Plain": legacy("Nothing hidden here."),
    }


@pytest.mark.django_db(transaction=True)
def test_external_ids_are_written_as_the_loader_reads_them_at_0039():
    before = [("papers", "0038_abstract_keys_without_invisible_characters")]
    finish()
    written = {"Spaced": " 2024.TACL-1.3 ", "Old": "p19-1001", "Copy": "2024.TACL-1.4"}
    written |= {"Kept": "2024.tacl-1.4", "Other": "arxiv:2401.00001"}
    papers = {
        title: make_paper(f"The abstract of {title}.", title=title, external_id=external_id)
        for title, external_id in written.items()
    }
    MergedKey.objects.create(kind="id", key="2023.ACL-LONG.9", paper=papers["Kept"])
    migrate(before)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert dict(Paper.objects.values_list("title", "external_id")) == {
        "Spaced": "2024.tacl-1.3",
        "Old": "P19-1001",
        # Its canonical ID is another paper's: it keeps its own, for a curator to merge.
        "Copy": "2024.TACL-1.4",
        "Kept": "2024.tacl-1.4",
        "Other": "arxiv:2401.00001",
    }
    assert list(MergedKey.objects.values_list("key", flat=True)) == ["2023.acl-long.9"]


def legacy(abstract: str) -> str:
    return hashlib.sha256(legacy_normalised(abstract).encode("utf-8")).hexdigest()


@pytest.mark.django_db(transaction=True)
def test_authors_keyed_without_initials_stops_after_0040():
    before = [("papers", "0039_external_ids_as_the_collection_writes_them")]
    executor = migrate(before)
    old_author = executor.loader.project_state(before).apps.get_model("papers", "Author")
    for name, key, spelled, slug in [
        ("Christopher D. Manning", "christopher d. manning", "", "christopher-d-manning"),
        ("Christopher D Manning", "christopher d manning", "", "christopher-d-manning-2"),
        ("Jürgen K. Müller", "jurgen k. muller", "juergen k. mueller", "jurgen-k-muller"),
        ("Wm. Smith", "wm. smith", "", "wm-smith"),
    ]:
        old_author.objects.create(name=name, key=key, umlaut_key=spelled, slug=slug)
    migrate(executor.loader.graph.leaf_nodes())

    assert sorted(Author.objects.values_list("slug", "key", "umlaut_key")) == [
        ("christopher-d-manning", "christopher d manning", ""),
        ("christopher-d-manning-2", "christopher d manning", ""),
        ("jurgen-k-muller", "jurgen k muller", "juergen k mueller"),
        ("wm-smith", "wm. smith", ""),
    ]
    # Each of the two pages now lists the other among the people of that name.
    stopped = Author.objects.get(slug="christopher-d-manning")
    assert [a.slug for a in Author.objects.namesakes_of(stopped)] == ["christopher-d-manning-2"]
    # And back: the keys keep their stops again.
    executor = migrate(before)
    old_keys = executor.loader.project_state(before).apps.get_model("papers", "Author").objects
    assert sorted(old_keys.values_list("key", "umlaut_key")) == [
        ("christopher d manning", ""),
        ("christopher d. manning", ""),
        ("jurgen k. muller", "juergen k. mueller"),
        ("wm. smith", ""),
    ]
    migrate(executor.loader.graph.leaf_nodes())


# "Tolúlọpẹ́ Ògúnrẹ̀mí" as NFC writes it: ẹ and ẹ̀ keep their acute and grave apart.
OGUNREMI = "Tolúl\u1ecdp\u1eb9\u0301 \u00d2g\u00fanr\u1eb9\u0300m\u00ed"


@pytest.mark.django_db(transaction=True)
def test_names_with_combining_marks_are_searched_without_them_at_0042():
    before = [("papers", "0041_deleted_topics")]
    executor = migrate(before)
    paper = old_paper_by(
        executor.loader.project_state(before).apps,
        {"name": OGUNREMI, "key": OGUNREMI.lower(), "slug": "tolulope-ogunremi"},
    )
    Author.objects.update(family_name=OGUNREMI.split()[1])
    assert Paper.objects.filter(search_vector="ogunremi").count() == 0

    migrate([("papers", "0042_unaccented_drops_combining_marks")])
    assert Paper.objects.filter(search_vector="ogunremi").count() == 1
    assert Paper.objects.get(pk=paper.pk).author_names == OGUNREMI
    assert [a.slug for a in Author.objects.of_family_name("Ogunremi")] == ["tolulope-ogunremi"]
    assert lexeme_documents("ogunremi") == 1
    # And back.
    migrate(before)
    assert Paper.objects.filter(search_vector="ogunremi").count() == 0
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_authors_keyed_with_hyphens_as_spaces_after_0043():
    before = [("papers", "0042_unaccented_drops_combining_marks")]
    executor = migrate(before)
    old_author = executor.loader.project_state(before).apps.get_model("papers", "Author")
    for name, key, slug in [
        ("Dilek Hakkani-Tür", "dilek hakkani-tur", "dilek-hakkani-tur"),
        ("Dilek Hakkani Tur", "dilek hakkani tur", "dilek-hakkani-tur-2"),
        ("GPT-3.5 Team", "gpt-3.5 team", "gpt-3-5-team"),
    ]:
        old_author.objects.create(name=name, key=key, slug=slug)
    migrate(executor.loader.graph.leaf_nodes())

    assert sorted(Author.objects.values_list("slug", "key")) == [
        ("dilek-hakkani-tur", "dilek hakkani tur"),
        ("dilek-hakkani-tur-2", "dilek hakkani tur"),
        ("gpt-3-5-team", "gpt-3.5 team"),
    ]
    hyphenated = Author.objects.get(slug="dilek-hakkani-tur")
    assert [a.slug for a in Author.objects.namesakes_of(hyphenated)] == ["dilek-hakkani-tur-2"]
    # And back.
    executor = migrate(before)
    old_keys = executor.loader.project_state(before).apps.get_model("papers", "Author").objects
    assert sorted(old_keys.values_list("key", flat=True)) == [
        "dilek hakkani tur",
        "dilek hakkani-tur",
        "gpt-3.5 team",
    ]
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_compounds_with_a_version_number_are_parsed_again_at_0046():
    before = [("papers", "0045_display_key_from_first_letter")]
    executor = migrate(before)
    paper = old_paper_by(executor.loader.project_state(before).apps)
    Paper.objects.filter(pk=paper.pk).update(abstract="We prompt GPT-3.5 and GPT-4.")
    Paper.objects.filter(pk=paper.pk).update(title="Glot500 with GPT-3.5")  # parsed as then
    assert Paper.objects.filter(search_vector="gpt3.5").count() == 0

    migrate([("papers", "0046_compounds_with_version_numbers")])
    assert Paper.objects.filter(search_vector="gpt3.5").count() == 1
    assert Paper.objects.filter(title_vector="gpt3.5").count() == 1
    assert lexeme_documents("gpt3.5") == 1
    # And back.
    migrate(before)
    assert Paper.objects.filter(search_vector="gpt3.5").count() == 0
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_words_written_with_bold_marks_inside_are_parsed_again_at_0047():
    before = [("papers", "0046_compounds_with_version_numbers")]
    executor = migrate(before)
    paper = old_paper_by(executor.loader.project_state(before).apps)
    Paper.objects.filter(pk=paper.pk).update(abstract="**M**ultiprompt **E**nsembling.")
    assert Paper.objects.filter(search_vector="multiprompt").count() == 0

    migrate([("papers", "0047_compounds_without_bold_marks")])
    assert Paper.objects.filter(search_vector="multiprompt").count() == 1
    assert lexeme_documents("multiprompt") == 1
    # And back.
    migrate(before)
    assert Paper.objects.filter(search_vector="multiprompt").count() == 0
    migrate(executor.loader.graph.leaf_nodes())
