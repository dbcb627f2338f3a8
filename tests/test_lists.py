"""Reading lists: /list/?ids=… rendered by the server, and the save toggles on the pages."""

import pytest

from papers.merging import merge_papers
from papers.reading_lists import MAX_IDS
from tests.support import parse

BAD_IDS = "ids must be paper numbers or Anthology IDs separated by commas,"


def ids_of(corpus, *names) -> str:
    return ",".join(str(corpus[name].pk) for name in names)


def test_list_shows_papers_in_the_given_order(client, corpus, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get(f"/list/?ids={ids_of(corpus, 'translation', 'kv', 'speech')}")
    assert response.status_code == 200
    page = parse(response)
    rows = page.find("ol", class_="reading-list").find_all("li", class_="card")
    assert [row.attrs["data_paper_id"] for row in rows] == [
        str(corpus[name].pk) for name in ("translation", "kv", "speech")
    ]
    assert [row.find("h2").text for row in rows] == [
        "Parallel Data for Yoruba Translation",
        "Evicting the KV Cache for Long-Context Inference",
        "Speech recognition systems struggle with accented speech derived title",
    ]
    assert [row.find("p", class_="meta").text for row in rows] == [
        # The venue's name says its year; no "· 2025" after it.
        "EMNLP 2024",
        "ACL 2025",
        "ACL 2025",
    ]
    assert [row.find("p", class_="authors").text for row in rows] == [
        "Grace Hopper",
        "Ada Lovelace, Alan Turing",
        "Alan Turing",
    ]
    assert [link.attrs["href"] for link in rows[1].find("p", class_="authors").find_all("a")] == [
        "/authors/ada-lovelace/",
        "/authors/alan-turing/",
    ]
    expected = ids_of(corpus, "translation", "kv", "speech")
    assert page.find("input", id="share-url").attrs["value"] == (
        f"http://testserver/list/?ids={expected}"
    )
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == expected
    # Each row's save toggle and edit buttons wait for the script.
    toggle = rows[0].find("button", class_="save-toggle")
    assert toggle.attrs["data_save"] == str(corpus["translation"].pk)
    assert "hidden" in toggle.attrs
    assert "hidden" in rows[0].find("span", class_="list-edit").attrs


def test_unknown_and_repeated_ids_are_left_out_with_a_note(client, corpus):
    kv = corpus["kv"].pk
    page = parse(client.get(f"/list/?ids={kv},999999,{kv},888888"))
    assert page.find("p", class_="notice").text == (
        "2 of the ids in this link name no paper in the collection and were left out."
    )
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == str(kv)
    assert len(page.find_all("li", class_="card")) == 1


def test_a_mistyped_id_is_left_out_with_a_note_not_the_whole_list(client, corpus):
    kv, speech = corpus["kv"].pk, corpus["speech"].pk
    page = parse(client.get(f"/list/?ids={kv},foo,{speech},-1,foo"))
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == f"{kv},{speech}"
    assert page.find("p", class_="notice").text == (
        "2 of the ids in this link name no paper in the collection and were left out."
    )
    assert client.get(f"/list/?ids={kv},foo&format=bibtex").status_code == 200


def test_a_merged_away_paper_is_listed_as_the_paper_it_went_into(client, corpus):
    kv, cache2, speech = (corpus[name].pk for name in ("kv", "cache2", "speech"))
    merge_papers(corpus["kv"], [corpus["cache2"]])
    page = parse(client.get(f"/list/?ids={speech},{cache2},999999,{kv}"))
    # cache2 is kv now: at cache2's place, once; only 999999 names no paper.
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == f"{speech},{kv}"
    assert page.find("p", class_="notice").text == (
        "1 of the ids in this link names no paper in the collection and was left out."
    )


def test_a_list_may_name_papers_by_their_anthology_ids(client, corpus):
    kv, cache2, speech = (corpus[name] for name in ("kv", "cache2", "speech"))
    kv.external_id, cache2.external_id = "2025.acl-long.7", "2025.acl-long.8"
    kv.save(update_fields=["external_id"])
    cache2.save(update_fields=["external_id"])
    # In any case, beside numbers, repeats once; one naming no paper is counted as missing.
    ids = f"2025.ACL-long.7,{speech.pk},2099.acl-long.1,{kv.pk},2025.acl-long.8"
    page = parse(client.get(f"/list/?ids={ids}"))
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == (
        f"{kv.pk},{speech.pk},{cache2.pk}"
    )
    assert page.find("p", class_="notice").text == (
        "1 of the ids in this link names no paper in the collection and was left out."
    )
    # A paper merged away is found by its Anthology ID too: as the paper it went into.
    merge_papers(kv, [cache2])
    page = parse(client.get("/list/?ids=2025.acl-long.8"))
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == str(kv.pk)


def test_empty_list_explains_saving(client, corpus):
    page = parse(client.get("/list/"))
    assert page.find("h1").text == "My list"
    assert page.find("p", class_="list-empty").text.startswith("No papers in this list yet.")
    assert page.find("div", class_="list-page").attrs["data_list_ids"] == ""
    assert not page.find_all("ol", class_="reading-list")


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ("abc", f"{BAD_IDS} not “abc”."),
        ("-1", f"{BAD_IDS} not “-1”."),
        ("1" * 19, f"{BAD_IDS} not “{'1' * 19}”."),
        (
            ",".join(str(n) for n in range(1, MAX_IDS + 2)),
            f"A list holds at most {MAX_IDS} papers; this one has {MAX_IDS + 1}.",
        ),
    ],
)
def test_bad_ids_are_a_400(client, corpus, ids, message):
    response = client.get("/list/", {"ids": ids})
    assert response.status_code == 400
    assert parse(response).find("p", class_="notice").text == message


def test_save_toggles_on_result_rows_paper_and_similar_pages(client, corpus):
    kv = corpus["kv"]
    rows = parse(client.get("/?q=cache")).find_all("li", class_="card")
    assert [row.find("button", class_="save-toggle").attrs["data_save"] for row in rows] == [
        row.attrs["data_paper_id"] for row in rows
    ]
    paper = parse(client.get(f"/papers/{kv.pk}/")).find("article", class_="paper")
    assert paper.find("button", class_="save-toggle").attrs["data_save"] == str(kv.pk)
    similar_rows = parse(client.get(f"/papers/{kv.pk}/similar/")).find_all("li", class_="card")
    assert similar_rows
    for row in similar_rows:
        button = row.find("button", class_="save-toggle")
        assert button.attrs["data_save"] == row.attrs["data_paper_id"]
        assert button.attrs["aria_pressed"] == "false"


def test_header_links_my_list_and_loads_the_scripts(client, corpus):
    page = parse(client.get("/"))
    assert page.find("a", class_="my-list-link").attrs["href"] == "/list/"
    scripts = [script.attrs["src"] for script in page.find_all("script")]
    assert scripts == ["/static/js/site.js", "/static/js/lists.js", "/static/js/keys.js"]
    assert page.find("div", id="announcer").attrs["aria_live"] == "polite"
    assert page.find("dialog", id="shortcuts").find("h2").text == "Keyboard shortcuts"
