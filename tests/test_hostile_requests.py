"""Hostile query strings and paths on every page and API endpoint: never a 500.

Hypothesis builds raw query strings (NUL bytes, 10,000-character q, unbalanced quotes, only
operators, SQL metacharacters, broken percent-escapes, negative, enormous and non-numeric page
numbers, unknown and repeated filter values) and hostile ids and slugs in paths, and sends
them through the test client with the seeds loaded. Every answer must be a 200, a redirect,
a 400 that says what was wrong (a JSON {"error"} from the API) or a 404 — never a 500 (the
test client re-raises a view's exception, so a crash fails the example that caused it).

The seeds are loaded once for the module inside a transaction rolled back at its end; each
test then runs in its own savepoint (the ``db`` fixture), and GET requests write nothing.
"""

import os
import re
from dataclasses import dataclass
from urllib.parse import quote, quote_plus, unquote

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from papers.filtering import MAX_QUERY_LENGTH
from papers.loading import load_files
from papers.models import Author, Authorship, Paper, Topic, TopicRedirect, Venue
from tests import factories
from tests.support import parse

pytestmark = pytest.mark.django_db

OK_STATUSES = {200, 301, 302, 400, 404}
# About 2,300 requests by default; HOSTILE_REQUESTS_SCALE=10 for a deeper run.
SCALE = float(os.environ.get("HOSTILE_REQUESTS_SCALE", "1"))


def examples(count: int) -> int:
    return max(1, round(count * SCALE))


HYPOTHESIS = {
    "deadline": None,
    "database": None,  # no .hypothesis/ example database written into the tree
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@dataclass
class Known:
    paper_ids: list[int]
    venue_slugs: list[str]
    topic_slugs: list[str]
    author_slugs: list[str]
    old_topic_slug: str


@pytest.fixture(scope="module")
def known(django_db_setup, django_db_blocker):
    """The seeds (plus an author and a renamed topic, which the seeds lack), loaded once."""
    with django_db_blocker.unblock(), transaction.atomic():
        load_files([django_settings.FIXTURES_DIR])
        papers = list(Paper.objects.order_by("pk")[:3])
        for position, name in enumerate(["Ada Lovelace", "Grace O'Hopper"], 1):
            author = factories.make_author(name)
            for paper in papers:
                Authorship.objects.create(paper=paper, author=author, position=position)
        factories.finish()
        topic = Topic.objects.order_by("pk").first()
        TopicRedirect.objects.create(old_slug="old-topic-name", topic=topic)
        yield Known(
            paper_ids=list(Paper.objects.values_list("pk", flat=True)),
            venue_slugs=list(Venue.objects.values_list("slug", flat=True)),
            topic_slugs=list(Topic.objects.values_list("slug", flat=True)),
            author_slugs=list(Author.objects.values_list("slug", flat=True)),
            old_topic_slug="old-topic-name",
        )
        transaction.set_rollback(True)


# --- strategies -------------------------------------------------------------------------------

NASTY = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x00" * 50,
    '"',
    "'",
    '"unbalanced quote',
    "it's",
    "'' \"\" '\"",
    "-",
    "|",
    "&",
    "!",
    ":",
    "*",
    "(",
    ")",
    "- | & ! : * ( )",
    "!!! ((( ::: *** |||",
    "<->",
    "a <-> b",
    "a:* & !b",
    "!(a | b)",
    "or",
    "OR OR OR",
    "-a -b -c",
    "'; DROP TABLE papers_paper; --",
    "1 OR 1=1",
    "1' OR '1'='1",
    "%' AND 1=1 --",
    "\\",
    "\\x00",
    "$$",
    "E'\\\\'",
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1",
    "0",
    "00",
    "-0",
    "+1",
    "1.5",
    "2025.0",
    "1_000",
    "9" * 30,
    "9" * 5000,
    "１２",  # fullwidth digits
    "٣",  # an Arabic-Indic digit
    "²",
    "\ue000mark\ue001",
    "<script>alert(1)</script>",
    "${jndi:ldap://x}",
    "{{7*7}}",
    "{% debug %}",
    "../../etc/passwd",
    "\r\nSet-Cookie: x=1",
    "\t",
    "\u202e",
    "\ufeff",
    "🙂" * 20,
    "é" * 300,
    "relevance",
    "newest",
    "title",
    "acl-2025",
]
OPERATORS = "-|&!:*()<>'\" "
BROKEN_ESCAPES = [
    "%",
    "%%",
    "%G1",
    "%1",
    "%zz",
    "%e2%82",
    "%ff",
    "%c0%af",
    "%ed%a0%80",
    "%00",
    "%u0041",
]
KEYS = ["q", "page", "venue", "topic", "author", "year", "country", "sort", "limit"]

hostile_text = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=40),  # any code point but lone surrogates
    st.text(alphabet=OPERATORS, min_size=1, max_size=25),
    st.builds(
        lambda unit, count: unit * count,
        st.sampled_from(["a", "word ", "\x00", "'", '"', "%", "-", "é", "🙂", "(", "1"]),
        st.integers(min_value=1, max_value=10_000),
    ),
)
numberish = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(["1", "2", "3", "2025", "2024", "1899", "2101", "0", "-1", "10" * 40]),
)
value = st.one_of(hostile_text, numberish)
key = st.one_of(st.sampled_from(KEYS), st.sampled_from(KEYS).map(lambda k: k + "[]"), hostile_text)


@st.composite
def pair(draw, keys=key, values=value):
    """One key=value of the raw query string, encoded well, raw or with broken escapes."""
    name, text = draw(keys), draw(values)
    mode = draw(st.sampled_from(["encoded", "raw", "broken", "bare"]))
    if mode == "encoded":
        return quote_plus(name) + "=" + quote_plus(text)
    if mode == "raw":  # unencoded: spaces, quotes, NUL and non-ASCII reach the parser as they are
        return name + "=" + text
    if mode == "broken":
        encoded = quote_plus(text)
        at = draw(st.integers(min_value=0, max_value=len(encoded)))
        escape = draw(st.sampled_from(BROKEN_ESCAPES))
        return quote_plus(name) + "=" + encoded[:at] + escape + encoded[at:]
    return quote_plus(name)


def raw_query(keys=key, values=value):
    return st.lists(pair(keys, values), max_size=8).map("&".join)


filter_query = raw_query(keys=st.sampled_from(KEYS))


def hostile_segment(known_values):
    """A path segment: a known value, an unknown one, or hostile text percent-encoded."""
    return st.one_of(
        st.sampled_from(known_values),
        st.sampled_from(["0", "-1", "999999999", "9" * 19, "9" * 20, "9" * 5000, "00001", "1e3"]),
        st.from_regex(r"[-a-z0-9_]{1,60}", fullmatch=True),
        hostile_text.map(lambda text: quote(text, safe="")),
        st.sampled_from(BROKEN_ESCAPES),
    )


# --- checks -----------------------------------------------------------------------------------


def check(response, path: str):
    """The status is allowed, and a 400 or 404 says what went wrong in the endpoint's format."""
    status = response.status_code
    assert status in OK_STATUSES, (status, path[:300])
    body = response.content.decode("utf-8", "replace")
    assert "Traceback" not in body
    route = unquote(path.split("?", 1)[0])
    api_route = re.fullmatch(r"/api/papers/(?:[^/]+/(?:similar/)?)?", route)
    if path.startswith("/api/") and api_route and status in (400, 404):
        error = response.json()["error"]
        assert isinstance(error, str)
        assert len(error) > 10
    elif status == 400:
        # The site's own 400 ("That request could not be understood" + the message), or
        # Django's for a request it refused before any view (400.html).
        notices = [notice.text for notice in parse(body).find_all("p", class_="notice")]
        assert (notices and notices[0]) or "could not be understood" in body, body
    elif status == 404 and not path.startswith(("/healthz", "/api/")):
        assert "Not found" in body
    if status == 200 and path.startswith(("/api/", "/healthz")):
        response.json()
    return response


# One client for the module: each new Client builds the middleware again, and WhiteNoise's
# scan of the static files would cost more than the request. GET requests set no cookies.
CLIENT = Client()


def get(path: str, query: str = ""):
    """GET inside a savepoint, so a failed query cannot poison the examples after it."""
    url = path + ("?" + query if query else "")
    with transaction.atomic():
        response = CLIENT.get(url)
    return check(response, url)


# --- the properties ---------------------------------------------------------------------------


@settings(max_examples=examples(300), **HYPOTHESIS)
@given(data=st.data(), query=raw_query())
@example(data=None, query="q=" + "a" * 10_000)
@example(data=None, query="q=%00%00&page=-1")
@example(data=None, query="q=%22unbalanced&page=" + "9" * 5000)
@example(data=None, query="q=-+%7C+%26+%21+%3A+%2A+%28+%29")
@example(data=None, query="q=" + "-" * 40 + "&q=" + "-+" * 40 + "cache")
@example(data=None, query="page=%&venue=%zz&topic=%e2%82")
def test_list_pages_answer_hostile_queries(known, data, query):
    """The API list, and one of /, a venue, a topic or an author page (each runs the search)."""
    get("/api/papers/", query)
    pages = [
        "/",
        f"/venues/{known.venue_slugs[0]}/",
        f"/topics/{known.topic_slugs[0]}/",
        f"/authors/{known.author_slugs[0]}/",
    ]
    get(data.draw(st.sampled_from(pages), label="page") if data is not None else "/", query)


@settings(max_examples=examples(300), **HYPOTHESIS)
@given(query=filter_query)
def test_list_filters_answer_hostile_values(known, query):
    """Only the list's own parameters, repeated and hostile, on the page and the API."""
    get("/", query)
    get("/api/papers/", query)


@settings(max_examples=examples(600), **HYPOTHESIS)
@given(data=st.data(), query=raw_query())
def test_detail_pages_answer_hostile_ids_and_queries(known, data, query):
    ids = data.draw(hostile_segment([str(pk) for pk in known.paper_ids]), label="id")
    slug = data.draw(hostile_segment(known.venue_slugs + known.topic_slugs), label="slug")
    template = data.draw(
        st.sampled_from(
            [
                "/papers/{id}/",
                "/papers/{id}/similar/",
                "/papers/{id}-{slug}/",
                "/papers/{id}/{slug}/",
                "/api/papers/{id}/",
                "/api/papers/{id}/similar/",
                "/venues/{slug}/",
                "/topics/{slug}/",
                "/authors/{slug}/",
                "/venues/",
                "/topics/",
                "/healthz",
            ]
        ),
        label="route",
    )
    get(template.format(id=ids, slug=slug), query)


@settings(max_examples=examples(400), **HYPOTHESIS)
@given(limit=value, encoding=st.sampled_from(["encoded", "raw"]), repeat=st.booleans())
def test_similar_api_limit(known, limit, encoding, repeat):
    raw = quote_plus(limit) if encoding == "encoded" else limit
    query = f"limit={raw}" + (f"&limit={raw}" if repeat else "")
    response = get(f"/api/papers/{known.paper_ids[0]}/similar/", query)
    if response.status_code == 200:
        assert len(response.json()["results"]) <= 100


# --- the cases the issue names, with the answers they get ---------------------------------------


def test_long_q_is_cut_with_a_message_on_the_page_and_refused_by_the_api(known):
    page = get("/", "q=" + "a" * 10_000)
    assert page.status_code == 200
    assert f"longer than {MAX_QUERY_LENGTH} characters" in page.content.decode()
    # A repeated word is asked once: no cut, no notice.
    page = get("/", "q=" + "language+" * 1200)
    assert f"longer than {MAX_QUERY_LENGTH} characters" not in page.content.decode()
    api = get("/api/papers/", "q=" + "a" * 10_000)
    assert api.status_code == 400
    assert api.json()["error"] == "q is at most 500 characters."


@pytest.mark.parametrize(
    "query",
    [
        "q=%00",
        "q=a%00b",
        'q="unbalanced',
        "q='",
        "q=-+|+%26+!+:+*+(+)",
        "q=!!!",
        "q=%27%3B+DROP+TABLE+papers_paper%3B+--",
        "q=%",
        "q=%e2%82",
        "q=%ff%fe",
        "q=\ue000",
        "venue=nowhere-2099",
        "venue=acl-2025&venue=acl-2025&venue=nowhere",
        "topic=no-such-topic",
        "country=Atlantis",
        "author=nobody-at-all",
        "sort=relevance&sort=newest",
        "page=99999999999999999999",
        # 33 or more exclusions in a row overflowed websearch_to_tsquery's stack (a 500).
        "q=" + "-" * 40,
        "q=" + "-+" * 40 + "cache",
        "q=" + "-%26" * 40 + "a",
        "q=a+" + "-|" * 40 + "b",
    ],
)
def test_odd_but_valid_queries_get_200(known, query):
    assert get("/", query).status_code == 200
    assert get("/api/papers/", query).status_code in (200, 400)


@pytest.mark.parametrize(
    "query, message",
    [
        ("page=-1", "page must be a positive whole number"),
        ("page=0", "page must be 1 or more"),
        ("page=abc", "page must be a positive whole number"),
        ("page=1.5", "page must be a positive whole number"),
        ("page=%00", "page must be a positive whole number"),
        ("year=abc", "year"),
        ("year=1e999", "year"),
        ("year=NaN", "year"),
        ("sort=sideways", "sort"),
        ("venue=%3Cscript%3E", "not a valid slug"),
        ("venue=" + "&venue=".join(f"v{n}" for n in range(30)), "At most 20 values"),
    ],
)
def test_bad_values_get_400_with_a_message(known, query, message):
    page = get("/", query)
    assert page.status_code == 400
    assert message in page.content.decode()
    api = get("/api/papers/", query)
    assert api.status_code == 400
    body = api.json()
    assert message in body["error"] + str(body.get("details", ""))


@pytest.mark.parametrize(
    "path",
    ["/papers/abc/", "/papers/-1/", "/papers/99999999999999999999/", "/papers/1e3/similar/"],
)
def test_non_numeric_or_unknown_ids_in_pages_get_404(known, path):
    assert get(path).status_code == 404


@pytest.mark.parametrize(
    "segment", ["abc", "-1", "0", "1.0", "9" * 19, "9" * 5000, "%00", "%ff", "1%20"]
)
def test_non_numeric_or_unknown_ids_in_the_api_get_a_json_404(known, segment):
    for path in (f"/api/papers/{segment}/", f"/api/papers/{segment}/similar/"):
        response = get(path)
        assert response.status_code == 404
        assert response.json()["error"].startswith("No paper with id")


@pytest.mark.parametrize(
    "limit", ["0", "-1", "101", "abc", "1e2", "00000100000", "0" * 5000 + "1" * 5000]
)
def test_similar_limit_out_of_range_gets_400(known, limit):
    response = get(f"/api/papers/{known.paper_ids[0]}/similar/", f"limit={limit}")
    assert response.status_code == 400
    assert response.json()["error"] == "limit must be a whole number from 1 to 100."


def test_leading_zeros_are_still_the_number(known):
    pk = known.paper_ids[0]
    assert get(f"/api/papers/{pk:08d}/").json()["id"] == pk
    body = get(f"/api/papers/{pk}/similar/", "limit=003").json()
    assert len(body["results"]) <= 3


def test_an_old_topic_slug_redirects(known):
    response = get(f"/topics/{known.old_topic_slug}/")
    assert response.status_code == 301


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/"),
        ("POST", "/api/papers/"),
        ("PUT", "/papers/1/"),
        ("DELETE", "/healthz"),
        ("PATCH", "/topics/"),
        ("OPTIONS", "/feeds/search/?q=cache"),
        ("TRACE", "/feeds/search/?q=cache"),
    ],
)
def test_a_method_a_page_does_not_answer_gets_405_with_the_methods_it_does(known, method, path):
    # A POST was refused by the CSRF check first (403, "enable cookies"), and a feed answered
    # TRACE and OPTIONS with itself.
    client = Client(enforce_csrf_checks=True)
    response = client.generic(method, path)
    assert (response.status_code, response["Allow"]) == (405, "GET, HEAD")
