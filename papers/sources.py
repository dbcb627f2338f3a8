"""Find the source files a load names and hand each to the parser its content calls for."""

import os
from pathlib import Path

from .anthology import looks_like_anthology, parse_anthology
from .dumps import parse_dump
from .exports import parse_export
from .records import DumpError, ParsedFile

SOURCE_SUFFIXES = {".txt", ".jsonl", ".xml"}
_SNIFF_BYTES = 4096


def collect_files(paths: list[Path]) -> list[Path]:
    """Files named, and the dump, export and XML files inside folders named (sorted, no links followed)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = []
            for folder, subfolders, names in os.walk(path, followlinks=False):
                subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
                found.extend(
                    Path(folder) / name
                    for name in names
                    if Path(name).suffix.lower() in SOURCE_SUFFIXES and not name.startswith(".")
                )
            files.extend(sorted(found))
        elif path.exists():
            files.append(path)
        else:
            raise DumpError(str(path), "no such file or folder")
    return files


def _decode(data: bytes, source: str) -> str:
    if b"\x00" in data:
        raise DumpError(source, "a binary file, not a text dump")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise DumpError(source, f"not UTF-8 text (byte 0x{data[error.start]:02x})", line) from None


def source_name(path: Path) -> str:
    """The path as provenance: relative to the working folder when inside it, so clones agree."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_source(path: Path) -> ParsedFile:
    source = source_name(path)
    try:
        with path.open("rb") as stream:
            head = stream.read(_SNIFF_BYTES)
            if not head.strip():
                rest = stream.read()
                if not rest.strip():
                    raise DumpError(source, "the file is empty")
                head += rest
            if looks_like_anthology(head):
                stream.seek(0)
                return parse_anthology(stream, source)
            data = head + stream.read()
    except OSError as error:
        raise DumpError(source, f"cannot be read ({error.strerror or error})") from None
    text = _decode(data, source)
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        return parse_export(text, source)
    return parse_dump(text, source)
