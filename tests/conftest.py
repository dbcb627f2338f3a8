"""Shared fixtures: the seed dumps loaded, a small known corpus, a headless browser, paths to
the project and ../shared."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test.utils import override_settings

from papers.loading import load_files
from tests.factories import finish, make_paper, make_venue
from tests.support import Browsing

PROJECT_DIR = Path(__file__).resolve().parent.parent
SHARED_DIR = PROJECT_DIR.parent / "shared"
SEED_FILES = sorted(settings.FIXTURES_DIR.glob("*.txt"))
CHROMIUM = Path("/usr/bin/chromium")


def pytest_sessionstart(session):
    """Without DATABASE_URL the suite runs on the embedded server: start it (`make test` has)."""
    from database import start_embedded_database

    embedded = start_embedded_database()
    if embedded:
        # pytest-django read the settings before the server ran; use the socket it really has.
        settings.DATABASES["default"].update(embedded)


@pytest.fixture(autouse=True)
def no_response_cache(settings):
    """Every page computed afresh: a test changes data in ways no curator does (the tests of
    the cache, tests/test_counts.py, turn it on)."""
    settings.RESPONSE_CACHE = False


def anthology_dir() -> Path:
    """ANTHOLOGY_DIR, else ../shared/data/anthology beside the project."""
    configured = os.environ.get("ANTHOLOGY_DIR", "").strip()
    return Path(configured) if configured else SHARED_DIR / "data" / "anthology"


@pytest.fixture(scope="module")
def anthology_files():
    """The Anthology XML files; tests using them skip where ../shared/data is absent."""
    folder = anthology_dir()
    files = sorted(folder.glob("*.xml")) if folder.is_dir() else []
    if not files:
        pytest.skip(f"no Anthology XML at {folder} (set ANTHOLOGY_DIR or provide ../shared/data)")
    return files


@pytest.fixture(scope="session")
def sample_records():
    """The committed sample of Anthology records (tests/data), for generated pages."""
    from tests.pagegen import read_sample

    return read_sample()


@pytest.fixture(scope="session")
def anthology_records():
    """A few hundred records read from ../shared's Anthology with the project's own parser,
    for generated pages; skips where ../shared/data is absent."""
    from tests.pagegen import read_anthology

    folder = anthology_dir()
    files = sorted(folder.glob("*.xml")) if folder.is_dir() else []
    if not files:
        pytest.skip(f"no Anthology XML at {folder} (set ANTHOLOGY_DIR or provide ../shared/data)")
    return read_anthology(files[::6], 50)


@pytest.fixture
def seeds(db):
    """The five seed dumps, loaded as `make run` loads them."""
    return load_files([settings.FIXTURES_DIR])


@pytest.fixture
def corpus(db):
    """A small collection with known subjects, titles, topics, authors and countries."""
    acl = make_venue("ACL 2025", 2025, full_name="Annual Meeting of the ACL", location="Vienna")
    emnlp = make_venue("EMNLP 2024", 2024, location="Miami")
    papers = {
        "kv": make_paper(
            "Long contexts make the key-value cache of attention large. We propose an eviction "
            "policy for the KV cache that keeps the tokens attention needs, cutting memory by "
            "half with no loss on long-context benchmarks.",
            title="Evicting the KV Cache for Long-Context Inference",
            venue=acl,
            topics=["efficiency", "attention"],
            authors=["Ada Lovelace", "Alan Turing"],
            country="United Kingdom",
        ),
        "translation": make_paper(
            "Machine translation for low-resource languages remains hard. We collect a parallel "
            "corpus of Yoruba and English sentences and train a multilingual translation model.",
            title="Parallel Data for Yoruba Translation",
            venue=emnlp,
            topics=["machine translation"],
            authors=["Grace Hopper"],
            country="Nigeria",
        ),
        "speech": make_paper(
            "Speech recognition systems struggle with accented speech. We propose an adapter that "
            "conditions the acoustic model on accent embeddings, cutting word error rate by 12%.",
            venue=acl,
            topics=["speech"],
            authors=["Alan Turing"],
            country="United Kingdom",
        ),
        "retrieval": make_paper(
            "Retrieval-augmented generation grounds answers in retrieved documents. We study how "
            "retrieval noise affects faithfulness and filter irrelevant passages before attention.",
            title="Noisy Retrieval Hurts Faithfulness",
            venue=emnlp,
            topics=["attention"],
            authors=["Grace Hopper", "Ada Lovelace"],
            country="United States",
        ),
        "cache2": make_paper(
            "We compress the KV cache of long-context models by quantising keys and values, and "
            "show eviction and quantisation combine well for attention at long context.",
            title="Quantised KV Cache Compression",
            venue=acl,
            topics=["efficiency"],
            authors=["Ada Lovelace"],
            country="China",
        ),
    }
    finish()
    return papers


@pytest.fixture
def findings_only(db):
    """A conference whose only papers are in its Findings (the folder's ACL 2025)."""
    acl = make_venue("ACL 2024", 2024, month="August")
    findings = make_venue("Findings of ACL 2024", 2024, month="August", parent=acl)
    make_paper("An abstract about zebras.", title="Zebras", venue=findings)
    finish()
    return findings


@pytest.fixture
def write_dump(tmp_path):
    """Write a dump into tmp_path and return its path: write_dump("name.txt", text)."""

    def write(name: str, text: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8", newline="")
        return path

    return write


@pytest.fixture(scope="session", autouse=True)
def plain_http():
    """Tests talk plain HTTP, as `make run` does (DJANGO_HTTPS=0): no redirect to HTTPS, for
    the whole session, since the live server's middleware is built once, before any test's
    settings apply. (A browser sends the pages' requests with the proxy header, tests/support.py
    Browsing, but not its downloads, Chromium 156, which were redirected to an HTTPS the test
    server does not speak.)"""
    with override_settings(SECURE_SSL_REDIRECT=False):
        yield


@pytest.fixture(autouse=True)
def static_without_manifest(settings):
    """{% static %} served without the manifest that collectstatic writes."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, headless (browser tests skip without it)."""
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop in this thread; the fixtures' ORM calls are
    # still synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def standby(django_db_setup, django_db_blocker):
    """A hot standby of the test server (pg_basebackup, streaming) as the "replica" alias, a
    mirror of the test database as DATABASE_REPLICA_URL makes it; set up before the tests'
    own database fixtures, which must know every alias they may touch."""
    from django.db import connections

    from tests.standby import StandbyUnavailable, standby_of

    primary = connections["default"].settings_dict
    try:
        with django_db_blocker.unblock(), standby_of(primary) as port:
            connections.settings["replica"] = {
                **primary,
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "TEST": {**primary["TEST"], "MIRROR": "default"},
            }
            yield port
            connections["replica"].close()
    except StandbyUnavailable as reason:
        pytest.skip(f"no replica of the test server: {reason}")
    finally:
        connections.settings.pop("replica", None)
        if hasattr(connections._connections, "replica"):
            delattr(connections._connections, "replica")


@pytest.fixture
def replica(standby, settings):
    """The replica's connection, with ReplicaRouter on as DATABASE_REPLICA_URL turns it on."""
    from django.db import connections

    settings.DATABASE_ROUTERS = ["replica.ReplicaRouter"]
    return connections["replica"]


@pytest.fixture
def browsing(browser, live_server):
    """Pages in fresh contexts of the browser; a script error or an alert fails the test."""
    session = Browsing(browser, live_server)
    yield session
    session.close()
    assert session.errors == []
