"""Hostile lines cannot make a pattern backtrack: each case finishes in its own process, well
inside a limit that an exponential or quadratic pattern would overrun by minutes."""

import os
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_DIR

LIMIT_SECONDS = 20  # Django's start-up on a busy machine included; backtracking takes minutes

RUNNER = """
import io, os, sys
sys.path[:0] = ["site", "."]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
import django
django.setup()
from papers.anthology import parse_anthology
from papers.anthology_pages import anthology_page
from papers.dump_blocks import Block, is_markup, venue_in_line
from papers.dump_evidence import evidence
from papers.dumps import parse_dump
from papers.list_entries import author_names
from papers.list_headers import HeaderError, list_header_venue
from papers.records import DumpError
from papers.rendering import render_abstract
from papers.compounds import websearch_text
from papers.text import derive_title

def dump(*blocks):
    try:
        return parse_dump("\\n\\n".join(blocks), "hostile.txt")
    except DumpError:
        return None

def header(line):
    try:
        return list_header_venue(line)
    except HeaderError:
        return None

result = {case}
print("done", result is None)
"""

ABSTRACT = "'We study parsing. It works well on every benchmark we tried.'"
HYPHENS = "'A-' * 36 + 'A 2025x'"  # the 73-character line of the issue

CASES = {
    "venue line of hyphenated capitals": f"venue_in_line({HYPHENS})",
    "papers-first list header of hyphenated capitals": f"header('Papers of ' + {HYPHENS})",
    "list header of hyphenated capitals": f"header({HYPHENS} + ' Papers')",
    "dump whose venue line is hyphenated capitals": f"dump({ABSTRACT}, {HYPHENS}, 'A title')",
    "author lines of spaces before a bracket": "author_names('A' + ' ' * 100_000 + '(')",
    "author lines of spaces before a square bracket": "author_names('A' + ' ' * 100_000 + '[')",
    "a markdown heading over a run of emphasis": (
        "dump('ACL 2025 Papers', '### x\\n*a' + '*' * 100_000 + 'b', 'An abstract.')"
    ),
    "affiliation marks and commas": "author_names('A' + '1,' * 495 + 'x')",
    # A paper's number label over a run of spaces (16 s at 40,000: a reviewer).
    "a paper number's spaces": "dump('ACL 2025 Papers', 'Paper' + ' ' * 100_000 + 'x\\nT\\nA.')",
    # A bibliography's author line whose initials run on and fail at the end (a reviewer: 1 s
    # at 22 initials, doubling with each).
    "family-first initials that fail at the end": (
        "author_names('Müller, ' + 'A. ' * 300 + 'Jr.; Schmidt, B.')"
    ),
    "a header of many words before a year": "header('A a ' * 20_000 + '2024 Papers')",
    "letters with subscripts, escaped or not": "render_abstract('a_b x\\\\_1 ' * 30_000)",
    "unclosed emphasis, addresses and footnotes": (
        "render_abstract(' _a {https://x' * 20_000 + '\\\\footnote{' + ' ' * 100_000)"
    ),
    "an Anthology address of many hyphens": (
        "anthology_page('aclanthology.org/people/a/' + 'a-' * 100_000 + '/?' + 'x' * 9)"
    ),
    "a page of headings over spaced author lines": (
        "dump('ACL 2025 Papers', *(['Some Title Here\\nA' + ' ' * 290 + '(x'] * 15_000))"
    ),
    "venue named in a long hyphenated run": "evidence('A-' * 50_000 + 'x', 'A')",
    "venue named in a long run of capitals": "evidence('A ' * 50_000 + 'x', 'A')",
    "event cues in a long line": "evidence('Please join us online, you ' * 20_000, 'A')",
    "event place of many capitalised words": (
        f"dump({ABSTRACT}, 'ACL 2025', 'A title', "
        "'**ACL 2024 will take place in ' + 'Aa. ' * 30_000 + 'x**')"
    ),
    "event place without dates": (
        f"dump({ABSTRACT}, 'ACL 2025', 'A title', "
        "'**ACL 2024 will be held in ' + 'a ' * 20_000 + 'May 5 x**')"
    ),
    "full name without a venue": (
        f"dump({ABSTRACT}, 'ACL 2025', 'A title', 'The ' + 'conference (' * 20_000)"
    ),
    "markdown link brackets": "is_markup(Block(1, ('[' * 100_000 + '](' * 50_000,)))",
    "url ending in dots": "render_abstract('http://a' + '.' * 50_000 + 'x')",
    "url ending in entities": "render_abstract('www.a' + '.<' * 30_000)",
    "markdown link in an abstract": "render_abstract('[' * 50_000 + '](http://a' * 10_000)",
    "emphasis runs": "render_abstract('**a ' * 20_000 + '*b ' * 20_000)",
    "latex runs": "render_abstract('\\\\textbf{' * 30_000)",
    "sentences of abbreviations": "derive_title('e.g. A. ' * 10_000)",
    "stacked negations": "websearch_text('-' + ' ' * 100_000 + 'a' + '- ' * 50_000)",
    "anthology booktitle": (
        "parse_anthology(io.BytesIO(("
        '\'<collection id="2024.x"><volume id="q"><meta><booktitle>\' '
        "+ '(A-' * 30_000 + ': ' * 30_000 + '</booktitle><year>2024</year></meta>"
        "<paper id=\"1\"><title>T</title></paper></volume></collection>').encode()), 'x.xml')"
    ),
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_hostile_input_is_handled_in_linear_time(case):
    result = subprocess.run(
        [sys.executable, "-c", RUNNER.format(case=case)],
        cwd=PROJECT_DIR,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=LIMIT_SECONDS,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("done"), result.stdout
