"""How a misspelt word is served, through a running site's API.

    python bench/typo_queries.py --site URL [--database-url URL] [--seed N] [--edits K]

Title words of six letters or more that at least twenty titles have are drawn (WORDS of them,
with the seed), each misspelt by K random edits (a letter deleted, inserted, replaced, or two
swapped; never the first or the last), and searched as typed (``/api/papers/?q=<typo>``).
Reported: how often the word is given back at once (``corrected_query``), offered
(``suggestion``), replaced by another word, or not respelled at all (a typo may make another
word of the collection, or match papers as typed). Seed 1 is the tuning draw, seed 2 the test
draw. The site must serve the database named.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.site_api import list_answer, site_options

WORDS = 150
WORDS_SQL = r"""
SELECT w FROM (
    SELECT lower(w) AS w, count(*) AS titles FROM papers_paper,
    regexp_split_to_table(title, '[^A-Za-z]+') AS w WHERE length(w) >= 6 GROUP BY 1
) AS words WHERE titles >= 20 ORDER BY w
"""
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def title_words(database_url: str) -> list[str]:
    import psycopg

    with psycopg.connect(database_url) as connection:
        return [row[0] for row in connection.execute(WORDS_SQL)]


def misspelt(word: str, rng: random.Random) -> str:
    """The word with one random edit inside it (not its first nor its last letter)."""
    i = rng.randrange(1, len(word) - 1)
    kind = rng.choice("dist")
    if kind == "d":
        return word[:i] + word[i + 1 :]
    if kind == "i":
        return word[:i] + rng.choice(LETTERS) + word[i:]
    if kind == "s":
        return word[:i] + rng.choice(LETTERS.replace(word[i], "")) + word[i + 1 :]
    i = min(i, len(word) - 3)  # the letter swapped with the next one, neither the last
    if word[i] == word[i + 1]:
        return word[:i] + word[i + 1 :]
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def outcome(word: str, answer: dict) -> str:
    """What the site made of the word misspelt."""
    if answer["corrected_query"] == word:
        return "given back at once"
    if answer["suggestion"] == word:
        return "offered"
    if answer["corrected_query"] or answer["suggestion"]:
        return "another word"
    return "not respelled"


def _draw_options(parser) -> None:
    parser.add_argument("--seed", type=int, default=2, help="1: the tuning draw; 2: the test draw")
    parser.add_argument("--edits", type=int, default=1, help="edits per word (default 1)")


def main(argv: list[str] | None = None) -> int:
    options = site_options(__doc__.split("\n\n")[0], _draw_options, argv)
    rng = random.Random(options.seed)
    outcomes = Counter()
    for word in rng.sample(title_words(options.database_url), WORDS):
        typo = word
        for _ in range(options.edits):
            typo = misspelt(typo, rng)
        outcomes[outcome(word, list_answer(options.site, typo))] += 1
    kinds = ("given back at once", "offered", "another word", "not respelled")
    print(
        f"seed {options.seed}, {options.edits} edit(s), {WORDS} words: "
        + "; ".join(f"{kind} {outcomes[kind]}" for kind in kinds)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
