"""Names in every script: each person and topic stays distinct, with a slug and a page that works."""

import json
import re
from urllib.parse import unquote

import pytest

from papers.loading import load_files
from papers.models import Author, Paper, Topic

pytestmark = pytest.mark.django_db

AUTHORS = {
    "王小明": "王小明",
    "Иван Петров": "иван-петров",
    "山田太郎": "山田太郎",
    "محمد علي": "محمد-علي",
    "김철수": "김철수",
    "Κώστας": "κώστας",
    "José Pérez": "jose-perez",
    # Vowel signs and viramas are combining marks: the slug keeps them ("हनद-शरम" was unreadable).
    "हिन्दी शर्मा": "हिन्दी-शर्मा",
    "தமிழ் செல்வன்": "தமிழ்-செல்வன்",
}
TOPICS = {"机器翻译": "机器翻译", "语音识别": "语音识别", "对话系统": "对话系统"}


def export_line(number: int, authors: list[str], topics: list[str]) -> str:
    return json.dumps(
        {
            "title": f"Paper {number} in many scripts",
            "abstract": f"Abstract {number} about names written in many scripts.",
            "venue": "ACL 2025",
            "authors": authors,
            "topics": topics,
        },
        ensure_ascii=False,
    )


@pytest.fixture
def scripts(write_dump):
    names = list(AUTHORS)
    lines = [
        export_line(0, names[:4], ["机器翻译"]),
        export_line(1, names[4:], ["语音识别"]),
        export_line(2, [names[0], "王小明 ", "ИВАН  ПЕТРОВ"], ["对话系统", "机器翻译"]),
    ]
    load_files([write_dump("scripts.jsonl", "\n".join(lines) + "\n")])
    return {paper.title: paper for paper in Paper.objects.all()}


def test_each_name_is_its_own_author_with_a_slug_in_its_script(scripts):
    assert dict(Author.objects.values_list("name", "slug")) == AUTHORS
    assert dict(Topic.objects.values_list("name", "slug")) == TOPICS


def test_spellings_of_one_name_are_one_author(scripts):
    third = scripts["Paper 2 in many scripts"]
    assert [a.name for a in third.authors.order_by("authorships__position")] == [
        "王小明",
        "Иван Петров",
    ]


def test_papers_keep_their_own_topics(scripts):
    topics = {
        title: sorted(paper.topics.values_list("name", flat=True))
        for title, paper in scripts.items()
    }
    assert topics == {
        "Paper 0 in many scripts": ["机器翻译"],
        "Paper 1 in many scripts": ["语音识别"],
        "Paper 2 in many scripts": ["对话系统", "机器翻译"],
    }


def test_every_author_and_topic_page_works_and_the_paper_links_to_it(client, scripts):
    first = scripts["Paper 0 in many scripts"]
    html = client.get(first.get_absolute_url()).content.decode()
    links = [unquote(href) for href in re.findall(r'href="(/(?:authors|topics)/[^"]+)"', html)]
    assert links == [
        "/authors/王小明/",
        "/authors/иван-петров/",
        "/authors/山田太郎/",
        "/authors/محمد-علي/",
        "/topics/机器翻译/",
    ]
    for author in Author.objects.all():
        page = client.get(author.get_absolute_url())
        assert page.status_code == 200, author.name
        assert f"<h1>{author.name}</h1>" in page.content.decode()
    for topic in Topic.objects.all():
        page = client.get(topic.get_absolute_url())
        assert page.status_code == 200, topic.name
        assert topic.name in page.content.decode()
    for facet, slug in (("topic", "语音识别"), ("author", "हिन्दी-शर्मा")):
        listed = client.get("/", {facet: slug}).content.decode()
        titles = re.findall(r'<h3 class="card-title"><a href="/papers/\d+/">([^<]+)</a>', listed)
        assert titles == ["Paper 1 in many scripts"], facet
