"""How many of the capitals the ACL Anthology protects in its titles our BibTeX keeps.

    python bench/fixed_case.py [--anthology FOLDER]

The Anthology's XML marks the letters a title must keep in capitals (``<fixed-case>``); the
ACL style lowercases every other one. For each title of the folder's XML files without maths,
the plain words holding such a mark (not those with a capital past their first letter, which
papers/bibtex.py braces anyway) are looked for in ``bib_title`` of the flattened title, as
the loader stores it: braced whole, or each of their capitals braced ("{U}.{S}."). Reported:
the words braced, the titles right throughout, and the words of one capital braced that the
title does not mark (a brace too many). Pure: no database.
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.environment import DEFAULT_ANTHOLOGY
from papers.anthology_metadata import fold
from papers.bibtex import bib_title

_PLAIN_WORD = re.compile(r"[A-Za-z’'.-]+")


def marked_title(title) -> str:
    """The title's text with each <fixed-case> span between \\x01 and \\x02."""
    pieces = []

    def walk(element):
        if element.tag == "fixed-case":
            pieces.append("\x01" + "".join(element.itertext()) + "\x02")
            return
        pieces.append(element.text or "")
        for child in element:
            walk(child)
            pieces.append(child.tail or "")

    walk(title)
    return fold("".join(pieces))


def marked_words(marked: str) -> list[str]:
    words = (w for w in re.findall(r"\S+", marked) if "\x01" in w)
    cleaned = (re.sub("[\x01\x02]", "", w).strip(":,;()?!\"'") for w in words)
    return [w for w in cleaned if _PLAIN_WORD.fullmatch(w) and not any(c.isupper() for c in w[1:])]


def needless(braced: str, wanted: list[str]) -> list[str]:
    """The words of one capital braced whole that the title does not mark (a style would have
    lowercased them, and the Anthology lets it)."""
    return [word for word in re.findall(r"\{([A-Z][a-z]+)\}", braced) if word not in wanted]


def kept(word: str, braced: str) -> bool:
    capitals = [c for c in word if c.isupper()]
    return "{" + word + "}" in braced or all("{" + c + "}" in braced for c in capitals)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anthology", type=Path, default=DEFAULT_ANTHOLOGY)
    folder = parser.parse_args().anthology
    titles = right = words = braced_words = extra = 0
    missed = Counter()
    for path in sorted(folder.glob("*.xml")):
        for title in ET.parse(path).getroot().iter("title"):
            marked = marked_title(title)
            plain = re.sub("[\x01\x02]", "", marked)
            wanted = marked_words(marked)
            if "$" in plain or "\\" in plain:
                continue
            braced = bib_title(plain)
            extra += len(needless(braced, wanted))
            if not wanted:
                continue
            lost = [word for word in wanted if not kept(word, braced)]
            titles, right = titles + 1, right + (not lost)
            words, braced_words = words + len(wanted), braced_words + len(wanted) - len(lost)
            missed.update(lost)
    if not titles:
        print(f"no titles with <fixed-case> in {folder}", file=sys.stderr)
        return 1
    print(
        f"{titles:,} titles with {words:,} plain words marked <fixed-case>: {braced_words:,} "
        f"braced ({braced_words / words:.1%}); titles right throughout: {right:,} "
        f"({right / titles:.1%})"
    )
    print(f"braced though the Anthology leaves them unmarked (capitalised words only): {extra:,}")
    print("most often missed:", ", ".join(f"{w} ({n})" for w, n in missed.most_common(12)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
