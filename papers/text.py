"""Small pure text helpers shared by the parser, the loader and the models."""

import hashlib
import re
import unicodedata

from django.utils.text import slugify

from .slugs import script_slug

DERIVED_TITLE_LIMIT = 90
# websearch_to_tsquery fails ("tsquery stack too small") on 33 or more "-" in a row, even
# with spaces or operators between them; a single "-" excludes just the same.
_STACKED_NEGATIONS = re.compile(r"-(?:[^\w\"']*-)+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.")
# Explicit bidi formatting: embeddings and overrides (LRE … RLO, PDF) and isolates (LRI … PDI).
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
_ISOLATE_OPENERS = "\u2066\u2067\u2068"
FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2068", "\u2069"


def collapse_negations(text: str) -> str:
    """A query PostgreSQL's websearch parser accepts: stacked negations collapsed to one."""
    return _STACKED_NEGATIONS.sub("-", text)


# A quoted phrase of a query, its closing quote optional (papers/understanding.py too).
QUOTED = re.compile(r'"[^"]*"?')
# The words a query reads as operators, never as words of a name or a compound.
OPERATORS = {"or", "and", "not"}
_NEGATED = re.compile(r"(?:^|[\s(])-$")


def plain_matches(pattern: re.Pattern, text: str) -> list[re.Match]:
    """The pattern's matches in a query outside its quoted phrases and not excluded ("-word"):
    the words another form may be searched for (papers/numbered_names.py, papers/accents.py)."""
    return plain(pattern.finditer(text), text)


def plain(matches, text: str) -> list[re.Match]:
    """The ``matches`` in the query ``text`` outside its quoted phrases and not excluded."""
    return [
        match
        for match in unquoted(matches, text)
        if not _NEGATED.search(text[max(0, match.start() - 2) : match.start()])
    ]


def unquoted(matches, text: str) -> list[re.Match]:
    """The ``matches`` in the query ``text`` outside its quoted phrases."""
    quoted = [match.span() for match in QUOTED.finditer(text)]
    return [match for match in matches if not any(a <= match.start() < b for a, b in quoted)]


# Negative contractions typed without their apostrophe. The search vectors parse "don't" as
# stop words and "doesn't" as doesn; "dont" is a word no paper has: "LLMs dont know" found
# nothing, and was respelled "LLMs dong know" (a name).
_CONTRACTED = "are ca could did does do had has have is must need should was were wo would"
_CONTRACTIONS = {f"{word}nt": f"{word}n't" for word in _CONTRACTED.split()}
# A word of its own: not part of an address, a path, a hyphenated compound or a name's
# longer spelling ("dont-stop-pretraining", "github.com/x/dont").
_CONTRACTION = re.compile(rf"(?<![\w/.'-])(?:{'|'.join(_CONTRACTIONS)})(?![\w/.'-])", re.IGNORECASE)


def spelled_contractions(text: str) -> str:
    """The query with "dont", "doesnt"… written "don't", "doesn't" (the first letter's case
    kept)."""

    def spelled(match: re.Match) -> str:
        word = _CONTRACTIONS[match[0].lower()]
        return word.upper() if match[0].isupper() else match[0][0] + word[1:]

    return _CONTRACTION.sub(spelled, text)


# "NOT" in capitals before a word or a phrase, outside a phrase: the exclusion of search
# engines, which websearch_to_tsquery reads as the stop word "not" ("hallucination NOT vision"
# found the papers on vision). A phrase matches as itself, and is kept. Not in a query typed
# as a title ("Attention is NOT Explanation", or all in capitals): there NOT is a word.
_SPELLED_NOT = re.compile(rf'{QUOTED.pattern}|(?<![\w"-])NOT\s+(?=[\w"])')
_LONGER_WORD = re.compile(r"[^\W\d_]{4,}")


def _typed_as_title(text: str) -> bool:
    """Whether most of the text's longer words open with a capital letter."""
    words = [word for word in _LONGER_WORD.findall(text) if word != "NOT"]
    return bool(words) and 2 * sum(word[0].isupper() for word in words) > len(words)


def spelled_exclusions(text: str) -> str:
    """The query with each "NOT word" written as websearch_to_tsquery's "-word", unless the
    query is typed as a title."""
    if "NOT" not in text or _typed_as_title(text):
        return text
    return _SPELLED_NOT.sub(lambda match: match[0] if match[0].startswith('"') else "-", text)


def typed_intent(text: str) -> str:
    """A typed query as it is searched: "dont" as "don't", "NOT x" as "-x", stacked
    negations collapsed."""
    return collapse_negations(spelled_exclusions(spelled_contractions(text)))


# Two sentences the source glued together ("tasks.However"): a sentence's end after a word of
# two small letters or more, then a capital and a small letter (a highlight's mark may come
# between, papers/headlines.py). Initials ("J.R.R."), "e.g.", decimals, "U.S.A." and
# "ChatGPT.The" do not match. 1,210 of the Anthology folder's abstracts had one. The pattern
# starts at the stop and the word before it is checked apart: a look-behind first made the
# pattern try every position of every snippet (19 µs an abstract, against 4 µs).
_GLUED_SENTENCES = re.compile(r"[.!?](?=[\ue000\ue001]?[A-Z][a-z])")
# A web address, left as written: "github.com/org/Some.Repo" is not two sentences.
_WEB_ADDRESS = re.compile(r"\b(?:https?://|www\.)\S+")


def _spaced(text: str) -> str:
    def space(stop: re.Match) -> str:
        before = text[max(0, stop.start() - 2) : stop.start()]
        ends_a_word = len(before) == 2 and before.isascii() and before.isalpha()
        return stop[0] + " " if ends_a_word and before.islower() else stop[0]

    return _GLUED_SENTENCES.sub(space, text)


def spaced_sentences(text: str) -> str:
    """The text with a space between sentences the source glued together, web addresses
    untouched."""
    if not _GLUED_SENTENCES.search(text):
        return text  # most texts: one scan, no address sought
    pieces, start = [], 0
    for address in _WEB_ADDRESS.finditer(text):
        pieces += [_spaced(text[start : address.start()]), address[0]]
        start = address.end()
    return "".join(pieces) + _spaced(text[start:])


# What no parameter keeps: control characters (NUL, which PostgreSQL's text refuses, among them),
# the private-use characters ts_headline's marks are made of (papers/headlines.py), and the
# noncharacters XML refuses (U+FFFE in a query made the search feed's title ill-formed).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ue000\ue001\ufffe\uffff]")
# A word ending in symbols the parser drops ("C++", "C#", "F#"): it is searched as its letters
# alone, and "C++" found the papers naming "C^2LEVA" or "Vitamin C", so the page says so.
SYMBOL_WORD = re.compile(r"(?<![\w+#])([^\W\d_][\w]*?)([+#]+)(?![\w+#])")
# A field's name before a query's words, as other search engines take them ("author:jurafsky",
# "title:bert"): searched as a word, "author:jurafsky" found one paper saying "author" (an
# outside tester). The words are searched without it (a name is searched in the authors'
# names too), and the page says so.
FIELD_PREFIX = re.compile(
    r"(?<![\w:/.-])(author|title|abstract|venue|topic|year)s?:(?=[\w\"])", re.I
)


# A query's words past this many are dropped: ts_headline's and the ranking's work grow faster
# than its number of words (250 one-letter words took 9 s and held a worker), and a title's
# words fit. Each repeated term is kept once: "m m m" asks what "m" asks.
MAX_QUERY_WORDS = 32
# A term of a query: a quoted phrase (its closing quote optional, excluded by a "-" before it),
# or a run of non-spaces.
_QUERY_TERM = re.compile(r'-?"[^"]*"?|[^\s"]+')


def bounded_query(text: str) -> tuple[str, bool]:
    """The query with each repeated term once (a quoted phrase is a term, "or" is not) and its
    words past MAX_QUERY_WORDS left out (a phrase cut at the limit keeps its first words);
    whether words were left out."""
    seen, kept, room = set(), [], MAX_QUERY_WORDS
    for term in _QUERY_TERM.findall(text):
        key = term.lower()
        if key in seen:
            continue
        if key != "or":
            seen.add(key)
        words = term.strip('"').split()
        if len(words) > room:
            if term.startswith('"') and room:
                kept.append('"' + " ".join(words[:room]) + '"')
            return " ".join(kept), True
        kept.append(term)
        room -= len(words)
    return " ".join(kept), False


def whole_words(text: str, length: int) -> str:
    """The text's first ``length`` characters, without the part of a word the cut splits (a
    single word longer than that is cut)."""
    if len(text) <= length or text[length].isspace() or text[length - 1].isspace():
        return text[:length].rstrip()
    kept = text[:length].rsplit(None, 1)
    return kept[0] if len(kept) > 1 else text[:length]


# Characters that are not seen but split a word: the zero-width space, the word joiner, the
# byte order mark, the soft hyphen ("trans\u200bformer" found nothing).
_INVISIBLE = re.compile("[\u00ad\u200b\u2060\ufeff]")


# Hyphens and dashes a keyboard or a pasted title writes for "-", and curly double quotes for
# '"' (a phone writes “chain of thought”, which is a phrase).
_TYPED_MARKS = str.maketrans(
    {"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2212": "-"}
    | {"“": '"', "”": '"', "„": '"', "‟": '"'}
)


# Superscript digits as the titles write them in LaTeX: "M³CoT" (copied from a page showing
# the Anthology's "M^3CoT") is searched as that, not as "M3CoT", which NFKC would make of it.
_SUPERSCRIPT_DIGITS = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SUPERSCRIPT_VALUES = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def typed_query(text: str) -> str:
    """A query as it is searched, whatever the keyboard wrote: superscript digits as LaTeX
    writes them ("M³CoT": "M^3CoT"), compatibility forms folded (NFKC: full-width
    "ｔｒａｎｓｆｏｒｍｅｒ", the ligature "ﬁ", "naı̈ve" decomposed), hyphens, dashes and curly quotes
    as the ASCII ones, invisible characters dropped, control characters as spaces."""
    text = _SUPERSCRIPT_DIGITS.sub(lambda m: "^" + m[0].translate(_SUPERSCRIPT_VALUES), text)
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text)).translate(_TYPED_MARKS)
    return CONTROL_CHARACTERS.sub(" ", text)


def fold_whitespace(text: str) -> str:
    return " ".join(text.split())


# Marks that set a text's direction (embeddings, overrides, isolates, LRM/RLM): invisible, they
# come with names pasted from web pages ("\u202aPere-Lluís Huguet Cabot") and make one name two.
DIRECTION_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean_name(name: str) -> str:
    """A person's name as it is kept: composed (NFC: "Nguyễn" of 6 letters, not of the 9
    code points a decomposed source writes), whitespace folded, without direction marks or
    invisible characters (a zero-width space made "Seán O'Brien" a second author)."""
    name = unicodedata.normalize("NFC", _INVISIBLE.sub("", name or ""))
    return fold_whitespace(DIRECTION_MARKS.sub("", name))


# "Abstract" as a label before the text, glued ("AbstractMachine translation (MT) …", from a
# TACL record) or with a colon ("Abstract: The …"); not the word opening "Abstract Meaning
# Representation (AMR) is …".
_ABSTRACT_LABEL = re.compile(r"^\s*Abstract(?:(?=[A-Z][a-z])|\s*:\s*)")


def without_label(abstract: str) -> str:
    """The abstract without an "Abstract" label opening it."""
    return _ABSTRACT_LABEL.sub("", abstract, count=1)


# What copies of one abstract write differently, as the page or the editor that saved them
# typed it: curly or straight quotes, a dash as "—", "–", "--" or " - " (a lecture page saved
# with straight apostrophes loaded 7 of its 19 papers again: an outside tester). Folded with
# str methods: a regular expression or a translate table over every abstract cost a load of
# 26,000 papers 1.5 to 3 s.
_FOLDS = {**dict.fromkeys("‘’‚‛′", "'"), **dict.fromkeys("“”„‟″", '"')}
_FOLDS |= dict.fromkeys("‐‑‒–—―−", "-")


def _typography(text: str) -> bool:
    return "--" in text or " -" in text or "- " in text or any(c in text for c in _FOLDS)


# Characters nothing shows, which a page's copy may carry and another not (a soft hyphen, a
# zero-width space or joiner, a word joiner, a byte order mark): a copy with one was loaded as
# a second paper (an outside tester). Removed with str methods, as the folds are.
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"


def normalise_abstract(abstract: str) -> str:
    """The form two copies of one abstract share: nothing invisible, NFKC, case-folded,
    whitespace folded, quotes straight, each dash one hyphen without spaces around it."""
    for char in INVISIBLE:
        if char in abstract:
            abstract = abstract.replace(char, "")
    return _folded(legacy_normalised(abstract))


def _folded(normalised: str) -> str:
    """The normalised text with its quotes straight and each dash one hyphen."""
    if not _typography(normalised):
        return normalised
    for char, folded in _FOLDS.items():
        if char in normalised:
            normalised = normalised.replace(char, folded)
    while "--" in normalised:
        normalised = normalised.replace("--", "-")
    return normalised.replace(" -", "-").replace("- ", "-")


def legacy_normalised(abstract: str) -> str:
    """The form abstract keys had before quotes and dashes were folded (migration 0034): the
    keys a curator's merge or deletion kept then (MergedKey, DeletedKey) are of this form."""
    return fold_whitespace(unicodedata.normalize("NFKC", abstract).casefold())


def abstract_key(abstract: str) -> str:
    """A fixed-size key for an abstract (empty for none), so a unique index can hold it."""
    return _hashed(normalise_abstract(abstract))


def former_abstract_keys(abstract: str) -> list[str]:
    """The abstract's keys of before migrations 0034 (quotes and dashes as written) and 0038
    (the characters nothing shows kept), where they differ from ``abstract_key``: the keys a
    curator's merge or deletion kept then (MergedKey, DeletedKey) are of those forms."""
    abstract = abstract or ""
    legacy = legacy_normalised(abstract)
    now = normalise_abstract(abstract)
    # _typography reads the normalised text: NFKC makes "－" a dash.
    forms = [legacy] if _typography(legacy) else []
    forms += [_folded(legacy)] if any(char in abstract for char in INVISIBLE) else []
    return list(dict.fromkeys(_hashed(form) for form in forms if form != now))


def _hashed(normalised: str) -> str:
    return hashlib.sha256(normalised.encode("utf-8")).hexdigest() if normalised else ""


def normalise_title(title: str) -> str:
    return fold_whitespace(unicodedata.normalize("NFKC", title).casefold())


def first_sentence(text: str) -> str:
    paragraph = fold_whitespace(text.strip().split("\n\n", 1)[0])
    start = 0
    for match in _SENTENCE_END.finditer(paragraph):
        candidate = paragraph[: match.start()]
        if not candidate.endswith(_ABBREVIATIONS):
            return candidate[start:]
    return paragraph


def derive_title(abstract: str, limit: int = DERIVED_TITLE_LIMIT) -> str:
    """A stand-in title for an untitled paper: its abstract's first sentence, cut at a word."""
    sentence = first_sentence(abstract).rstrip(".")
    if len(sentence) <= limit:
        return sentence
    cut = sentence[: limit + 1].rsplit(" ", 1)[0].rstrip(",;:—-(")
    return cut + "…"


# Latin letters with a stroke, which no decomposition takes apart; and the apostrophes a
# name is typed with ("O’Brien" and "O'Brien" are one name).
_LATIN_FOLDS = str.maketrans("ĐđĦħıŁłØøŦŧ’‘ʼ", "DdHhiLlOoTt'''")


def latin_unaccented(text: str) -> str:
    """The text with the accents of its Latin letters dropped ("Köksal" → "Koksal", "Lưu" →
    "Luu", "Łukasz" → "Lukasz") and its apostrophes straight; a mark on a letter of another
    script stays (a Devanagari virama is part of its word)."""
    if text.isascii():
        return text
    kept: list[str] = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char) and kept and kept[-1].isascii():
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept)).translate(_LATIN_FOLDS)


def make_slug(name: str, fallback: str = "item") -> str:
    """A URL slug for any script: Latin letters lose their accents ("José" → "jose", "Łukasz"
    → "lukasz"), other scripts stay as written, their marks too ("王小明", "иван-петров",
    "हिन्दी-शर्मा"); the fallback when nothing is left."""
    unaccented = latin_unaccented(name)
    if unaccented.isascii():
        return slugify(unaccented) or fallback
    return script_slug(name) or fallback


def has_bidi_controls(text: str) -> bool:
    return bool(_BIDI_CONTROLS.search(text or ""))


def isolate_bidi(text: str) -> str:
    """The text in a first-strong isolate, so no bidi control in it reorders what surrounds it
    (for plain text such as <title>, where <bdi> cannot go): a stray PDI that would close the
    isolate early is dropped, and isolates left open are closed. The closing PDI also ends any
    embedding or override opened inside."""
    kept, depth = [], 0
    for char in text:
        if char in _ISOLATE_OPENERS:
            depth += 1
        elif char == POP_ISOLATE:
            if not depth:
                continue
            depth -= 1
        kept.append(char)
    return FIRST_STRONG_ISOLATE + "".join(kept) + POP_ISOLATE * (depth + 1)
