"""Bidi controls in titles are isolated: they cannot reorder the page or the window title."""

import re

import pytest

from tests.factories import finish, make_paper

pytestmark = pytest.mark.django_db

RLO, PDF, FSI, PDI = "\u202e", "\u202c", "\u2068", "\u2069"


def window_title(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S)[1]


def test_a_title_with_an_override_is_isolated_on_its_page_and_in_lists(client):
    paper = make_paper("An abstract about parsing.", title=f"Safe {RLO}evil{PDF} title")
    plain = make_paper("Another abstract about parsing.", title="Plain title")
    finish()
    html = client.get(paper.get_absolute_url()).content.decode()
    assert window_title(html) == f"{FSI}Safe {RLO}evil{PDF} title{PDI} · Paper browser"
    assert f'<h1 id="paper-title"><bdi>Safe {RLO}evil{PDF} title</bdi></h1>' in html
    listed = client.get("/?sort=newest").content.decode()
    cards = re.findall(r'<h3 class="card-title"><a href="/papers/(\d+)/">(.*?)</a>', listed)
    assert sorted(cards) == sorted(
        [(str(paper.pk), f"<bdi>Safe {RLO}evil{PDF} title</bdi>"), (str(plain.pk), "Plain title")]
    )
    similar = client.get(f"/papers/{paper.pk}/similar/").content.decode()
    assert (
        window_title(similar) == f"Similar to {FSI}Safe {RLO}evil{PDF} title{PDI} · Paper browser"
    )
    assert f"<bdi>Safe {RLO}evil{PDF} title</bdi></a></h1>" in similar


def test_a_stray_pop_cannot_end_the_isolation_early(client):
    paper = make_paper("An abstract.", title=f"{PDI}{RLO}gotcha \u2067open")
    html = client.get(paper.get_absolute_url()).content.decode()
    assert window_title(html) == f"{FSI}{RLO}gotcha \u2067open{PDI}{PDI} · Paper browser"


def test_a_searched_text_with_controls_is_isolated_in_the_window_title(client):
    html = client.get("/", {"q": f"{RLO}parsing"}).content.decode()
    assert window_title(html) == f"{FSI}{RLO}parsing{PDI} – search · Paper browser"
