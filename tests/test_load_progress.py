"""A loader that talks: bars on a terminal, a line per file otherwise, each block's role and
evidence at -v 2, and warnings in a warning's style."""

import io

import pytest
from django.core.management.base import CommandError, OutputWrapper
from django.core.management.color import color_style

from papers.management.commands import load_papers
from papers.progress import LineProgress, TerminalProgress
from papers.records import Decision, PaperRecord, ParsedFile
from tests.conftest import SEED_FILES
from tests.factories import lecture_page
from tests.support import run


def final_lines(text: str) -> list[str]:
    """What a terminal shows: each line as its last redraw left it."""
    return [line.split("\r")[-1].rstrip() for line in text.split("\n")[:-1]]


def test_terminal_progress_shows_each_phase_with_counts_rates_and_time():
    out, now = io.StringIO(), [0.0]
    progress = TerminalProgress(OutputWrapper(out), clock=lambda: now[0])
    progress.phase("reading files", 4, "files")
    assert "reading files    [........................] 0/4 files" in out.getvalue()
    for name in ("a/1.txt", "a/2.txt"):
        now[0] += 1.0
        progress.file_read(ParsedFile(source=name))
    assert out.getvalue().split("\r")[-1].rstrip().endswith("a/2.txt")
    progress.phase("writing papers", 2000, "papers")
    now[0] += 4.0
    progress.advance(1000)
    progress.phase("similarity fit")
    now[0] += 2.5
    progress.finish()
    progress.finish()  # nothing left to end
    assert final_lines(out.getvalue()) == [
        "reading files    [############............] 2/4 files     1 files/s     2.0s",
        "writing papers   [############............] 1,000/2,000 papers  250 papers/s     4.0s",
        "similarity fit      2.5s",
    ]


def test_line_progress_writes_one_line_per_file_and_the_evidence_at_verbosity_2():
    parsed = ParsedFile(
        source="dumps/a.txt",
        papers=[PaperRecord(abstract="x", venue="ACL 2025")],
        decisions=[Decision(3, "event prose", "EACL 2024 will take…", "names the event")],
        warnings=["dumps/a.txt, line 9: footer names ACL 2024"],
    )
    for verbosity, expected in [
        (0, ""),
        (1, "dumps/a.txt: 1 papers, 1 warnings\n"),
        (
            2,
            "dumps/a.txt: 1 papers, 1 warnings\n"
            "  line     3  event prose   EACL 2024 will take…  (names the event)\n",
        ),
    ]:
        out = io.StringIO()
        LineProgress(OutputWrapper(out), verbosity).file_read(parsed)
        assert out.getvalue() == expected


@pytest.mark.django_db
def test_verbosity_2_shows_each_blocks_role_and_evidence():
    out, _ = run("load_papers", str(SEED_FILES[4]), "--verbosity", "2", "--dry-run")
    assert (
        "  line    42  event prose   EMNLP 2024 will take place in Miami, Florida from Nov 12th "
        "to Nov 16t…  (names the event (EMNLP 2024); dates (Nov 12th); the event itself "
        "(Underline); place or format (take place))"
    ) in out
    assert "  line    62  abstract      In this paper, we propose the Self-refine" in out
    assert "(paragraph 2 of 2; a title follows)" in out


@pytest.mark.django_db
def test_warnings_are_written_in_a_warnings_style_not_an_errors(write_dump):
    text = lecture_page().replace("Next from NAACL 2025", "Next from ACL 2025")
    path = write_dump("page.txt", text)
    _, err = run("load_papers", str(path), "--force-color")
    style = color_style(force_color=True)
    warning = (
        f"warning: {path.parent.name}/page.txt, line 42: footer names ACL 2025, "
        "the page's venue line NAACL 2025"
    )
    assert err == style.WARNING(warning + "\n")


@pytest.mark.django_db
def test_a_failed_load_ends_its_bar_before_the_error(tmp_path, monkeypatch):
    # The error was printed on the bar's line ("… mixed/z_bad.jsonl CommandError: …").
    out = io.StringIO()
    monkeypatch.setattr(
        load_papers.Command,
        "progress",
        lambda self, verbosity: TerminalProgress(OutputWrapper(out)),
    )
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.txt").write_text(lecture_page(), encoding="utf-8")
    (folder / "z_bad.jsonl").write_text('{"title": \n', encoding="utf-8")
    with pytest.raises(CommandError, match=r"z_bad\.jsonl, line 1: not valid JSON"):
        run("load_papers", str(folder))
    assert "reading files" in out.getvalue()
    assert out.getvalue().endswith("\n")
