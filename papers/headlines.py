"""Snippets of a query's matches: ts_headline over a title or an abstract, with marks that can
only be its own (papers/rendering.py turns them into <mark>)."""

import re

from django.db import models
from django.db.models import F

from .expressions import SEARCH_CONFIG

# Private-use characters that never occur in the data (they are stripped from it before
# ts_headline runs), so only ts_headline's own marks can become <mark> after escaping.
MARK_START = "\ue000"
MARK_STOP = "\ue001"
FRAGMENT_DELIMITER = " … "
HEADLINE_OPTIONS = (
    f"StartSel={MARK_START}, StopSel={MARK_STOP}, MaxWords=40, MinWords=18, ShortWord=2, "
    f'MaxFragments=2, FragmentDelimiter="{FRAGMENT_DELIMITER}"'
)
TITLE_HEADLINE_OPTIONS = f"StartSel={MARK_START}, StopSel={MARK_STOP}, HighlightAll=true"


class Headline(models.Func):
    """ts_headline over a column whose mark sentinels were removed first."""

    output_field = models.TextField()

    def __init__(self, column: str, text: str, options: str):
        super().__init__(F(column))
        self.text = text
        self.options = options

    def as_sql(self, compiler, connection, **extra):
        column_sql, column_params = compiler.compile(self.source_expressions[0])
        sql = (
            f"ts_headline(%s::regconfig, translate({column_sql}, %s, ''), "
            "websearch_to_tsquery(%s::regconfig, %s), %s)"
        )
        params = [SEARCH_CONFIG, *column_params, MARK_START + MARK_STOP, SEARCH_CONFIG]
        return sql, [*params, self.text, self.options]


# Words ts_headline may leave out at a fragment's edge: stop words, words of two letters.
EDGE_WORDS = 2
_TOKEN = re.compile(r"\S+")


def elided(headline: str, abstract: str) -> str:
    """The abstract's headline with "…" where it leaves out words of the abstract's beginning
    or end: ts_headline marks the cuts between its fragments, not before the first or after the
    last, so a snippet began and ended mid-sentence as if it were the whole abstract. The stop
    words and short words it drops at a fragment's edges ("We" of "We propose …", a full stop)
    are put back: a snippet beginning "propose a …" read as cut without saying so."""
    marked = headline.split(FRAGMENT_DELIMITER)
    fragments = [_plain(fragment) for fragment in marked]
    whole = " ".join(abstract.split())
    first, last = whole.find(fragments[0]), whole.rfind(fragments[-1])
    if not fragments[0] or first < 0 or last < 0:
        return headline
    before, after = whole[:first], whole[last + len(fragments[-1]) :]
    start = "… " if _more_words(before) else before
    end = " …" if _more_words(after) else after
    return start + _joined(marked, fragments, whole, first).strip() + end


def _joined(marked: list[str], fragments: list[str], whole: str, at: int) -> str:
    """The marked fragments joined by "…" only where they leave words out: two fragments a
    word or two apart ("lost … the middle" of "lost in the middle") take the words between."""
    out, position = [marked[0]], at + len(fragments[0])
    for fragment, plain in zip(marked[1:], fragments[1:], strict=True):
        found = whole.find(plain, position) if plain else -1
        gap = whole[position:found] if found >= 0 else ""
        out.append(gap if found >= 0 and not _more_words(gap) else FRAGMENT_DELIMITER)
        out.append(fragment)
        position = found + len(plain) if found >= 0 else position
    return "".join(out)


def _plain(fragment: str) -> str:
    return " ".join(fragment.translate({ord(MARK_START): None, ord(MARK_STOP): None}).split())


def _more_words(text: str) -> bool:
    """Whether ``text`` holds more than EDGE_WORDS words, read only as far as that takes (the
    rest of an abstract can be hundreds of words)."""
    words = 0
    for part in _TOKEN.finditer(text):
        words += any(character.isalnum() for character in part[0])
        if words > EDGE_WORDS:
            return True
    return False


# ts_headline marks every word of a query's phrases wherever it stands: "language models"
# quoted lit each lone "language" and "models" of a snippet as brightly as the phrase (and a
# word of an excluded phrase, -"neural nets", in papers that cannot have the phrase). A
# phrase's words keep their marks only where the whole phrase stands, read off the tsquery's
# text (websearch_to_tsquery's: 'languag' <-> 'model', 'a' <2> 'b' past a stop word).
_OPERAND = r"'(?:[^']|'')+'"
_PHRASE = re.compile(rf"(!\s*\(\s*)?{_OPERAND}(?:\s*<(?:-|\d+)>\s*{_OPERAND})+")
_PHRASE_PART = re.compile(rf"({_OPERAND})|<(-|\d+)>")
_QUERY_WORD = re.compile(_OPERAND)
# Words as PostgreSQL's parser counts positions: a hyphenated word takes one, then each of its
# parts one more ("fine-tuning": fine-tun, fine, tune).
_TEXT_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_PART = re.compile(r"[^\W_]+")
_HYPHENATED = re.compile(r"[^\W_]-")
# The phrases whose words this counting follows: words of letters, maybe hyphenated. A number
# ("3.5", "-3.5") or an address is one word to PostgreSQL and several here, so a phrase with
# one keeps every mark ts_headline gave, as does a headline marked where no word starts here.
_COUNTED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_MARKED = re.compile(f"{MARK_START}([^{MARK_START}{MARK_STOP}]*){MARK_STOP}")
# A snippet's fragments are not adjacent: no phrase runs across the cut.
_FRAGMENT_GAP = 1000


def phrase_marks(headline: str, query: str) -> str:
    """``headline`` (ts_headline's, for the tsquery whose text is ``query``) with the marks
    of a phrase's words left only where the whole phrase stands. A marked word is known by the
    longest of the query's lexemes it begins with (a stem begins its words: languag, model);
    one that begins with none keeps its mark. Where the words cannot be counted as PostgreSQL
    counts them (_COUNTED), the headline is left as it is."""
    phrases, in_phrases, alone = _query_phrases(query)
    if not in_phrases or MARK_START not in headline:
        return headline
    if not all(_COUNTED.fullmatch(lexeme) for lexeme in in_phrases):
        return headline
    text, marked = _unmarked(headline)
    lexemes = sorted(in_phrases | alone, key=len, reverse=True)
    spans, compounds = _positions(text)
    at = {start: position for position, (start, _) in spans.items()}
    if any(start not in at for start, _ in marked):
        return headline
    found = {}
    for start, end in marked:
        word = text[start:end].lower()
        found[start] = next((lexeme for lexeme in lexemes if word.startswith(lexeme)), None)
    lexeme_at = {at[s]: lexeme for s, lexeme in found.items() if s in at}
    kept = _phrase_words(phrases, lexeme_at, compounds)
    out, done = [], 0
    for start, end in marked:
        lexeme = found[start]
        keep = lexeme is None or lexeme in alone or at.get(start) in kept
        out.append(text[done:start])
        out.append(f"{MARK_START}{text[start:end]}{MARK_STOP}" if keep else text[start:end])
        done = end
    return "".join(out) + text[done:]


def _query_phrases(query: str) -> tuple[list[list[tuple[str, int]]], set[str], set[str]]:
    """(each phrase the query asks for, as its lexemes at their offsets; every phrase's
    lexemes, an excluded phrase's too; the lexemes asked for outside any phrase)."""
    wanted, in_phrases = [], set()
    for match in _PHRASE.finditer(query):
        phrase, offset = [], 0
        for part in _PHRASE_PART.finditer(match[0]):
            if part[1]:
                phrase.append((_lexeme(part[1]), offset))
            else:
                offset += 1 if part[2] == "-" else int(part[2])
        in_phrases.update(lexeme for lexeme, _ in phrase)
        if not match[1]:
            wanted.append(phrase)
    alone = {_lexeme(operand) for operand in _QUERY_WORD.findall(_PHRASE.sub(" ", query))}
    return wanted, in_phrases, alone


def _lexeme(operand: str) -> str:
    return operand[1:-1].replace("''", "'")


def _unmarked(headline: str) -> tuple[str, list[tuple[int, int]]]:
    """(the headline without its marks, the (start, end) of each marked word in it)."""
    text, marked, done = [], [], 0
    length = 0
    for match in _MARKED.finditer(headline):
        before = headline[done : match.start()]
        text.append(before)
        length += len(before)
        marked.append((length, length + len(match[1])))
        text.append(match[1])
        length += len(match[1])
        done = match.end()
    text.append(headline[done:])
    return "".join(text), marked


def _positions(text: str) -> tuple[dict[int, tuple[int, int]], dict[int, str]]:
    """(each word's (start, end) in ``text`` by its position, as PostgreSQL counts them; each
    hyphenated word, in small letters, by its own position, before its parts')."""
    spans, compounds, position, fragment_start = {}, {}, 0, 0
    for fragment in text.split(FRAGMENT_DELIMITER):
        position += _FRAGMENT_GAP
        for word in _TEXT_WORD.finditer(fragment):
            parts = list(_PART.finditer(word[0]))
            if len(parts) > 1:
                position += 1
                compounds[position] = word[0].lower()
            for part in parts:
                position += 1
                start = fragment_start + word.start() + part.start()
                spans[position] = (start, start + len(part[0]))
        fragment_start += len(fragment) + len(FRAGMENT_DELIMITER)
    return spans, compounds


def _phrase_words(phrases, lexeme_at: dict[int, str | None], compounds: dict[int, str]) -> set[int]:
    """The positions of the marked words that stand in a whole phrase (a marked word not
    known, None, may be any of the phrase's); a hyphenated word of the phrase must stand at its
    offset, one of ``compounds`` (the hyphenated words by position) of its parts."""
    kept = set()
    for phrase in phrases:
        # A hyphenated word's own lexeme (fine-tun) is never marked: its parts are. Where a
        # phrase's only marked part is one ("out-of-distribut" <3> "distribut"), the hyphenated
        # word tells the compound's "distribution" from a lone one, and "few-shot" from
        # "zero-shot" (a reviewer).
        parts = [(lexeme, offset) for lexeme, offset in phrase if not _HYPHENATED.search(lexeme)]
        whole = [(lexeme, offset) for lexeme, offset in phrase if _HYPHENATED.search(lexeme)]
        if not parts:
            continue
        for position in lexeme_at:
            start = position - parts[0][1]
            words = [start + offset for _, offset in parts]
            if all(
                p in lexeme_at and lexeme_at[p] in (lexeme, None)
                for p, (lexeme, _) in zip(words, parts, strict=True)
            ) and all(_same_compound(compounds.get(start + o, ""), w) for w, o in whole):
                kept.update(words)
    return kept


def _same_compound(word: str, stem: str) -> bool:
    """Whether the hyphenated ``word`` is the one ``stem`` stems: the same parts but the last,
    which the stemmer may have rewritten ("multi-party": multi-parti; not "zero-shot" for
    few-shot)."""
    parts, stemmed = word.split("-"), stem.split("-")
    return len(parts) == len(stemmed) and parts[:-1] == stemmed[:-1]
