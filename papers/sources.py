"""Find the source files a load names and hand each to the parser its content calls for.

Hostile files get a clear DumpError rather than unbounded memory: text dumps (whole pages)
are capped in size and line length, exports and XML are streamed, links inside folders are
skipped, and a file that changes while it is read is refused. What a parser reads is then
checked (papers.validation) before anything is written.
"""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .anthology import looks_like_anthology, parse_anthology
from .dumps import parse_dump
from .exports import parse_export
from .records import DumpError, ParsedFile
from .validation import clean_file

SOURCE_SUFFIXES = {".txt", ".jsonl", ".xml"}
MAX_DUMP_BYTES = 32 * 1024 * 1024
MAX_LINE_CHARACTERS = 1_000_000
_SNIFF_BYTES = 4096


def collect_files(paths: list[Path], skipped: list[str] | None = None) -> list[tuple[Path, str]]:
    """Files named, and the dump, export and XML files inside folders named, sorted, each with
    its source name (see ``source_name``).

    Inside folders, symbolic links are skipped (and noted in `skipped`): a link can loop or
    lead out of the folder. A file named on the command line is read even through a link. A
    file named twice (itself and in its folder, or twice over) is read once: it was counted
    twice in the summary.
    """
    files: list[tuple[Path, str]] = []
    for path in paths:
        if path.is_dir():
            found = _files_in_folder(path, skipped if skipped is not None else [])
            if not found:
                suffixes = ", ".join(sorted(SOURCE_SUFFIXES))
                raise DumpError(str(path), f"no file to load in this folder ({suffixes})")
            files.extend((file, source_name(file, path)) for file in found)
        elif path.is_file():
            files.append((path, source_name(path)))
        elif path.is_symlink():
            raise DumpError(str(path), "a symbolic link that leads nowhere (broken or looping)")
        else:
            raise DumpError(str(path), "no such file or folder")
    once = {pair[0].resolve(): pair for pair in reversed(files)}
    return [pair for pair in files if once[pair[0].resolve()] is pair]


def _files_in_folder(folder: Path, skipped: list[str]) -> list[Path]:
    found = []
    for parent, subfolders, names in os.walk(folder, followlinks=False):
        for name in [*subfolders, *names]:
            if (Path(parent) / name).is_symlink():
                skipped.append(f"{Path(parent) / name}: a symbolic link, skipped")
        subfolders[:] = sorted(
            name
            for name in subfolders
            if not name.startswith(".") and not (Path(parent) / name).is_symlink()
        )
        for name in names:
            path = Path(parent) / name
            if (
                path.suffix.lower() in SOURCE_SUFFIXES
                and not name.startswith(".")
                and not path.is_symlink()
            ):
                found.append(path)
    return sorted(found)


def source_name(path: Path, folder: Path | None = None) -> str:
    """The file as provenance, the same on every machine and from every working folder: the
    folder given and the path inside it ("anthology/2024.acl.xml"), or for a file given
    alone its folder's name and its own ("fixtures/003_x.txt"). Never an absolute path."""
    if folder is None:
        folder = path.parent
    # abspath, not resolve: "." names the working folder, and a link keeps the name it was given.
    folder_name = Path(os.path.abspath(folder)).name
    inside = Path(os.path.abspath(path)).relative_to(os.path.abspath(folder)).as_posix()
    return f"{folder_name}/{inside}" if folder_name else inside


# A file saved as UTF-16 (a Windows editor's "Unicode") opens with one of these: told as such,
# where its zero bytes called it a binary file (an outside tester).
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def _decode(data: bytes, source: str, first_line: int = 1) -> str:
    if first_line == 1 and data.startswith(_UTF16_MARKS):
        raise DumpError(source, "UTF-16 text, not UTF-8: save the file as UTF-8 and load that")
    if b"\x00" in data:
        raise DumpError(source, "a binary file, not a text dump")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        raise DumpError(source, f"not UTF-8 text (byte 0x{data[error.start]:02x})", line) from None


def _check_line_lengths(text: str, source: str) -> None:
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE_CHARACTERS:
            raise DumpError(
                source,
                f"a line of {len(line):,} characters (at most {MAX_LINE_CHARACTERS:,}): "
                "not a page dump",
                number,
            )


def _export_lines(stream: BinaryIO, source: str) -> Iterator[str]:
    for number, raw in enumerate(stream, start=1):
        if len(raw) > MAX_LINE_CHARACTERS * 4:
            raise DumpError(source, f"a line of {len(raw):,} bytes: not an export", number)
        yield _decode(raw, source, number)


def _fingerprint(stream: BinaryIO) -> tuple[int, int]:
    status = os.fstat(stream.fileno())
    return status.st_size, status.st_mtime_ns


def _parse_stream(stream: BinaryIO, source: str) -> ParsedFile:
    head = stream.read(_SNIFF_BYTES)
    stream.seek(0)
    if not head.strip(b" \t\r\n\xef\xbb\xbf"):
        size = _fingerprint(stream)[0]
        if size <= len(head) or not stream.read().strip():
            raise DumpError(source, "the file is empty")
        stream.seek(0)
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    # A file declaring itself XML is told what its root is, not that it lacks a page header.
    if looks_like_anthology(head) or start.startswith(b"<?xml"):
        return parse_anthology(stream, source)
    if start[:14].lower().startswith((b"<!doctype html", b"<html")):
        raise DumpError(
            source,
            "an HTML page: save the conference page as text (the browser's Save as, Text) "
            "and load that file",
        )
    if start.startswith(b"{"):
        return parse_export(_export_lines(stream, source), source)
    if start.startswith(b"[") and source.lower().endswith(".jsonl"):
        # JSON Lines holds an object per line: told so, not that the file is no page.
        line = head[: head.index(b"[")].count(b"\n") + 1
        raise DumpError(source, "each line must be a JSON object, not an array", line)
    size = _fingerprint(stream)[0]
    if size > MAX_DUMP_BYTES:
        raise DumpError(
            source,
            f"{size / 2**20:.0f} MiB is too large for a page dump "
            f"(at most {MAX_DUMP_BYTES // 2**20} MiB); split it",
        )
    text = _decode(stream.read(MAX_DUMP_BYTES + 1), source)
    _check_line_lengths(text, source)
    return parse_dump(text, source)


def read_source(path: Path, source: str | None = None) -> ParsedFile:
    """Parse one file; ``source`` is its name as provenance (by default ``source_name``).
    A DumpError names the file as it was given, so that its reader can find it."""
    try:
        parsed = _read_checked(path, source or source_name(path))
        clean_file(parsed)
    except DumpError as error:
        raise DumpError(str(path), error.reason, error.line) from None
    return parsed


def _read_checked(path: Path, source: str) -> ParsedFile:
    try:
        with path.open("rb") as stream:
            before = _fingerprint(stream)
            parsed = _parse_stream(stream, source)
            if _fingerprint(stream) != before or os.stat(path).st_mtime_ns != before[1]:
                raise DumpError(
                    source,
                    "the file changed while it was being read; load it again once it is complete",
                )
    except OSError as error:
        raise DumpError(source, f"cannot be read ({error.strerror or error})") from None
    return parsed
