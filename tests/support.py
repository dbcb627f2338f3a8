"""Helpers several test modules share: running a command, a load running elsewhere, a snapshot
of the paper rows, an independent count of an Anthology file, pages read as parsed HTML rather
than as text, and the browser tests' session and axe check."""

import io
import xml.etree.ElementTree as StdET
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import psycopg
from django.core.management import call_command
from django.db import connection

from papers.load_guard import LOAD_LOCK_ID
from papers.models import Paper


def run(*args) -> tuple[str, str]:
    """Call a management command; return what it wrote to stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@contextmanager
def load_running():
    """For the block, the load lock held by another connection, as a load running holds it."""
    db = connection.settings_dict
    with psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"],
        host=db["HOST"],
        port=db["PORT"],
    ) as load:
        load.execute("SELECT pg_advisory_lock(%s)", [LOAD_LOCK_ID])
        try:
            yield
        finally:
            # Released here, not by the connection's end: the server ends a closed session's
            # backend (and its locks) a moment later, and a test taking the lock right after
            # the block found it still held (seen on a busy machine).
            load.execute("SELECT pg_advisory_unlock(%s)", [LOAD_LOCK_ID])


def snapshot() -> list[tuple]:
    """The paper rows as a load would change them, to compare before and after."""
    return list(
        Paper.objects.order_by("id").values_list(
            "id", "title", "abstract", "venue__name", "country", "related_titles", "updated"
        )
    )


def independent_counts(path: Path) -> tuple[int, int, set[str]]:
    """<paper> elements, those with a non-empty <abstract>, and their IDs, by a plain full parse."""
    root = StdET.parse(path).getroot()  # trusted local test data
    papers = with_abstract = 0
    ids = set()
    for volume_element in root.iter("volume"):
        for paper_element in volume_element.iter("paper"):
            papers += 1
            abstract = paper_element.find("abstract")
            if abstract is not None and "".join(abstract.itertext()).strip():
                with_abstract += 1
            ids.add(f"{root.get('id')}-{volume_element.get('id')}.{paper_element.get('id')}")
    return papers, with_abstract, ids


# Pages as HTML ---------------------------------------------------------------------------

_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "wbr",
}


@dataclass
class Node:
    """An element of a parsed page: its tag, attributes (class as a set of names) and children."""

    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def text(self) -> str:
        """The text inside, as a reader sees it: whitespace folded, markup left out."""
        parts = [c if isinstance(c, str) else c.text_raw() for c in self.children]
        return " ".join("".join(parts).split())

    def text_raw(self) -> str:
        return "".join(c if isinstance(c, str) else c.text_raw() for c in self.children)

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, class_: str | None = None, **attrs) -> list["Node"]:
        """Descendants in document order with this tag (any if None), this class among their
        classes, and these attribute values (None: the attribute is present, any value)."""
        return [
            node
            for node in self.iter()
            if (tag is None or node.tag == tag)
            and (class_ is None or class_ in node.classes)
            and all(
                name in node.attrs and (value is None or node.attrs[name] == value)
                for name, value in attrs.items()
            )
        ]

    def find(self, tag: str | None = None, class_: str | None = None, **attrs) -> "Node":
        """The first match; fails the test when there is none."""
        found = self.find_all(tag, class_, **attrs)
        assert found, f"no <{tag or '*'}> with class={class_!r} {attrs}"
        return found[0]


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {name.replace("-", "_"): value for name, value in attrs})
        self.open[-1].children.append(node)
        if tag not in _VOID:
            self.open.append(node)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Node(tag, {n.replace("-", "_"): v for n, v in attrs}))

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(content) -> Node:
    """A response, or HTML text, as a tree of Nodes; attribute names with "-" are spelled
    with "_" (aria_current, data_copy_target) so they can be keyword arguments."""
    content = getattr(content, "content", content)
    if isinstance(content, bytes):
        content = content.decode()
    builder = _TreeBuilder()
    builder.feed(content)
    builder.close()
    return builder.root


def assert_accessible(page):
    """axe finds no serious or critical violation on the page."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    serious = [
        (violation["id"], [node["target"] for node in violation["nodes"]][:3])
        for violation in results.response["violations"]
        if violation["impact"] in {"serious", "critical"}
    ]
    assert serious == [], page.url


class Browsing:
    """Pages in fresh browser contexts; every script error or alert fails the test."""

    def __init__(self, browser, live_server):
        self.browser, self.url = browser, live_server.url
        self.contexts, self.errors = [], []

    def context(self, **options):
        context = self.browser.new_context(
            base_url=self.url, extra_http_headers={"X-Forwarded-Proto": "https"}, **options
        )
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.url)
        self.contexts.append(context)
        return context

    def page(self, context=None):
        page = (context or self.context()).new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", lambda dialog: (self.errors.append(dialog.message), dialog.dismiss()))
        return page

    def close(self):
        for context in self.contexts:
            context.close()
