"""What a query means beyond its words: a paper's identifier, an author's name, a compound.

An Anthology ID (``2021.naacl-main.463``, old style ``P19-1001``), a DOI
(``10.18653/v1/2021.naacl-main.463``, also as a doi.org link) or an Anthology URL (the paper's
page or its PDF) names one paper: ``identified_paper`` finds it (one indexed query, run only
when the text has an identifier's shape). A query that is a person's name offers that author's
pages (``Author.objects.named``), and a single word (after any particles, "van der Goot") that
is a few authors' family name offers them too (``Author.objects.of_family_name``; both in papers/author_queries.py). Two words
typed apart that the collection writes as one compound ("few shot") are searched joined, as
"few-shot" and "fewshot" are (``join_compounds``).
"""

import re
from itertools import pairwise, product
from typing import NamedTuple

from django.db.models import Q
from django.db.models.functions import Lower

from .acronyms import expansion
from .anthology_metadata import ANTHOLOGY_ID, canonical_anthology_id
from .compounds import (
    content_words,
    join_versions_typed_apart,
    version_apart,
    versioned_compounds,
)
from .expressions import SEARCH_CONFIG
from .models import MergedKey, Paper
from .tables import reading_cursor, sql
from .text import OPERATORS, QUOTED, plain
from .word_forms import excluded_in_every_form, other_form
from .word_lookups import other_forms, written_joined

# An Anthology address as people paste it: with or without its scheme, the old aclweb.org
# one too, a version ("v2"), a file ending, a query or fragment (tracking parameters).
_ANTHOLOGY_URL = (
    r"(?:https?://)?(?:www\.)?(?:aclanthology\.org|aclweb\.org/anthology)/"
    rf"(?P<url>{ANTHOLOGY_ID})(?:v\d+)?(?:/|\.pdf|\.bib)?(?:[?#]\S*)?"
)
_IDENTIFIER = re.compile(
    rf"(?:{_ANTHOLOGY_URL}"
    r"|(?:(?:https?://)?(?:dx\.)?doi\.org/|doi:\s*)?(?P<doi>10\.\d{4,9}/\S+)"
    rf"|(?P<id>{ANTHOLOGY_ID})(?:v\d+)?)",
    re.IGNORECASE,
)
_ANTHOLOGY_DOI = re.compile(rf"10\.18653/v1/(?P<id>{ANTHOLOGY_ID})", re.IGNORECASE)


# An arXiv identifier as papers cite it ("arXiv:2307.03172", "2307.03172v2").
_ARXIV_ID = re.compile(r"(?:arxiv\s*:?\s*)?(\d{4}\.\d{4,5})(?:v\d+)?", re.IGNORECASE)


def arxiv_id(text: str) -> str | None:
    """The arXiv identifier the whole text is (without its version), or None."""
    match = _ARXIV_ID.fullmatch(text.strip())
    return match[1] if match else None


def parse_identifier(text: str) -> tuple[str | None, str | None]:
    """(Anthology ID, DOI) the whole text names, either possibly None."""
    match = _IDENTIFIER.fullmatch(text.strip().rstrip("/"))
    if match is None:
        return None, None
    if match["doi"]:
        doi = match["doi"].rstrip(".").lower()
        within = _ANTHOLOGY_DOI.fullmatch(doi)
        return (canonical_anthology_id(within["id"]) if within else None), doi
    return canonical_anthology_id(match["url"] or match["id"]), None


def identified_papers(texts: list[str]) -> list[int]:
    """The ids of the papers several identifiers name (Anthology IDs or DOIs, each read as
    ``identified_paper`` reads it, but for the IDs of papers a curator merged away), in their
    order, each once; one query."""
    parsed = [parse_identifier(text) for text in texts]
    ids = [anthology_id for anthology_id, _ in parsed if anthology_id]
    dois = [doi for _, doi in parsed if doi]
    found = Paper.objects.annotate(doi_lower=Lower("doi")).filter(
        Q(external_id__in=ids) | Q(doi_lower__in=dois)
    )
    by_key = {}
    for pk, external_id, doi in found.values_list("pk", "external_id", "doi_lower"):
        by_key.update({external_id: pk, doi: pk})
    keys = [doi or anthology_id for anthology_id, doi in parsed]
    return list(dict.fromkeys(by_key[key] for key in keys if key in by_key))


def identified_paper(text: str):
    """The paper the text identifies, or None (no query unless the text has the shape): an
    Anthology ID, also of a paper a curator merged into another (that one)."""
    anthology_id, doi = parse_identifier(text)
    if anthology_id is None and doi is None:
        return None
    condition = Q(pk__in=[])
    if anthology_id:
        merged = MergedKey.objects.filter(kind=MergedKey.Kind.EXTERNAL_ID, key=anthology_id)
        condition |= Q(external_id=anthology_id) | Q(pk__in=merged.values("paper_id"))
    if doi:
        condition |= Q(doi_lower=doi)
    found = Paper.objects.annotate(doi_lower=Lower("doi")).filter(condition).order_by("pk")
    return found.first()


# Words typed apart or hyphenated that the collection writes as one compound ("few shot",
# "few-shot" for "few-shot" and "fewshot", which the index holds as the one lexeme fewshot,
# papers_compounds): each run of two to four adjacent words, joined and parsed as the index
# parses it, looked up in the Lexeme table beside its parts (a stop word part, "few", has
# none). The run is joined when the compound is in at least JOIN_SHARE of the papers having
# its rarest part: "zero shot" (1,624 of the 2,683 papers with "shot"), "end to end", not
# "language model" (13 of 15,798 papers write "language-model"), which is searched as its
# words however typed. A run whose joined stem is its first words' ("fewshotability" stems to
# fewshot) is not a compound, nor one with a part the collection lacks; a word typed joined
# is split only where its rarer part is in SPLIT_SHARE of as many papers as the word
# ("realworld", not "lear ning"). A compound typed hyphenated with a stop word part
# ("over-generation", "all-in-one") is joined whenever the collection has it: searched as its
# words it would be its content words alone ('generat', in 10,174 papers, not the 27 of
# overgener), the share then compares two different things. Also: whether the run has two
# content words or more (lexemes), which its words in a row tell apart from its content word
# alone: "mixture of experts", written so by most papers, is also searched as that phrase
# (joined, it found only the 81 papers writing it hyphenated of the 131 that have it); and
# whether every word of it is one. Parameters: the runs joined, their first words joined, the runs
# spaced, whether each is a split word, whether it was typed hyphenated, JOIN_SHARE,
# SPLIT_SHARE.
_RUNS_SQL = f"""
SELECT w.n, w.content >= 2, w.whole, parts.documents
FROM (
    SELECT u.*, c.content, c.content = cardinality(string_to_array(u.spaced, ' ')) AS whole
    FROM unnest(%s::text[], %s::text[], %s::text[], %s::boolean[], %s::boolean[])
         WITH ORDINALITY AS u(joined, shorter, spaced, split, hyphenated, n)
    CROSS JOIN LATERAL (
        SELECT cardinality(tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', u.spaced)))
    ) AS c(content)
) AS w
CROSS JOIN LATERAL (
    SELECT l.documents FROM {{lexeme}} AS l
    WHERE l.word = (tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', w.joined)))[1]
      AND l.word IS DISTINCT FROM (tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', w.shorter)))[1]
) AS joined
CROSS JOIN LATERAL (
    SELECT min(l.documents) AS documents, count(*) AS found FROM {{lexeme}} AS l
    WHERE l.word = ANY(tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', w.spaced)))
) AS parts
WHERE (joined.documents >= %s * parts.documents OR (w.hyphenated AND NOT w.whole))
  AND parts.found = cardinality(tsvector_to_array(to_tsvector('{SEARCH_CONFIG}', w.spaced)))
  AND (NOT w.split OR parts.documents >= %s * joined.documents)
ORDER BY w.n
"""
JOIN_SHARE = 0.1
SPLIT_SHARE = 0.2
LONGEST = 4
# Compounds also searched as their words in a row, at most (each doubles the query).
PHRASED = 2
SPLIT_PART = 3
# A word of letters typed on its own or in a compound (not negated, not inside a quoted
# phrase).
_PLAIN = re.compile(r'(?<![\w"])[^\W\d_]+(?![\w"])')
_NEGATED = re.compile(r"(?:^|[\s(])-$")


def _runs(text: str) -> list[list[re.Match]]:
    """Each stretch of plain words typed one after the other (apart or hyphenated), outside
    quoted phrases; "or" ends a stretch."""
    quoted = [match.span() for match in QUOTED.finditer(text)]
    runs: list[list[re.Match]] = []
    previous = None
    for word in _PLAIN.finditer(text):
        negated = _NEGATED.search(text[max(0, word.start() - 2) : word.start()])
        if (
            negated
            or word.group(0).lower() in OPERATORS
            or any(a <= word.start() < b for a, b in quoted)
        ):
            previous = None
            continue
        between = text[previous.end() : word.start()] if previous else None
        if between is not None and (between == "-" or (between and not between.strip())):
            runs[-1].append(word)
        else:
            runs.append([word])
        previous = word
    return runs


def _candidates(text: str, runs: list[list[re.Match]]) -> list[tuple[int, int, int, int]]:
    """(run, first word, words, 0) of every stretch of two to LONGEST words that keeps each
    hyphenated compound whole (the index holds it joined whole, never a part of it joined),
    and (run, word, 1, at) of each word typed joined split in two parts of SPLIT_PART letters
    or more at ``at``; at most 48."""
    found = []
    for r, run in enumerate(runs):
        for start, word in enumerate(run):
            size = len(word.group(0))
            found += [(r, start, 1, at) for at in range(SPLIT_PART, size - SPLIT_PART + 1)]
        hyphen = [text[a.end() : b.start()] == "-" for a, b in pairwise(run)]
        for start in range(len(run) - 1):
            for size in range(min(LONGEST, len(run) - start), 1, -1):
                end = start + size - 1
                if (start and hyphen[start - 1]) or (end < len(hyphen) and hyphen[end]):
                    continue
                found.append((r, start, size, 0))
    return found[:48]


def _joinable(text: str, runs: list[list[re.Match]]) -> tuple[dict, dict]:
    """({(run, first word, words): (whether it has two content words, whether every word is
    one)} of the compounds typed as words, {(run, word): (at, whether both parts are content
    words)} of those typed joined, the split whose rarer part is commonest)."""
    candidates = _candidates(text, runs)
    if not candidates:
        return {}, {}
    words = [[match.group(0).lower() for match in run] for run in runs]
    joined, shorter, spaced, hyphenated = [], [], [], []
    for r, i, n, at in candidates:
        parts = words[r][i : i + n] if not at else [words[r][i][:at], words[r][i][at:]]
        joined.append("".join(parts))
        shorter.append("".join(parts[:-1]))
        spaced.append(" ".join(parts))
        gaps = [text[a.end() : b.start()] for a, b in pairwise(runs[r][i : i + n])]
        hyphenated.append(not at and all(gap == "-" for gap in gaps))
    with reading_cursor() as cursor:
        split = [bool(at) for *_, at in candidates]
        params = [joined, shorter, spaced, split, hyphenated, JOIN_SHARE, SPLIT_SHARE]
        cursor.execute(sql(_RUNS_SQL), params)
        rows = sorted(cursor.fetchall(), key=lambda row: row[3])
    compounds, splits = {}, {}
    for n, phrased, whole, _ in rows:
        r, i, size, at = candidates[n - 1]
        if at:
            splits[(r, i)] = (at, phrased)
        else:
            compounds[(r, i, size)] = (phrased, whole)
    return compounds, splits


def _edit(text: str, edits: list[tuple[int, int, str]]) -> str:
    pieces, position = [], 0
    for begin, end, replacement in edits:
        pieces += [text[position:begin], replacement]
        position = end
    return "".join(pieces) + text[position:]


def _phrased(edits: list, phrases: list) -> list:
    """The edits with each of ``phrases`` [(edit, phrase)] written as its phrase."""
    variant = list(edits)
    for index, phrase in phrases:
        variant[index] = (*variant[index][:2], phrase)
    return variant


def _variants(text: str, edits: list, phrases: list) -> str:
    """The text edited, once for each choice of the joined word or the phrase of each
    compound in ``phrases`` [(edit, phrase)], the choices joined by "or"."""
    variants = [
        _edit(text, _phrased(edits, [pair for pair, on in zip(phrases, chosen, strict=True) if on]))
        for chosen in product([False, True], repeat=len(phrases))
    ]
    # Two phrases of one word (an acronym's other number and its words) make a variant twice.
    return " or ".join(dict.fromkeys(variants))


class _Group(NamedTuple):
    """A stretch of a run searched as one: a compound, a word split, or a word as typed."""

    span: tuple[int, int]  # where the text has it
    words: list[str]  # its words as searched
    phrased: bool  # whether it is also searched as its words in a row
    whole: bool  # whether every word of it is a content word
    split: bool  # a word typed joined, split
    hyphen: bool  # typed hyphenated
    hyphen_after: tuple[int, int] | None  # a hyphen to the next group, typed as a space


def _groups(text: str, runs: list[list[re.Match]]) -> list[_Group]:
    """Each run cut into groups: the longest compound first, left to right, never
    overlapping."""
    compounds, splits = _joinable(text, runs)
    groups = []
    for r, run in enumerate(runs):
        start = 0
        while start < len(run):
            size = next((n for n in range(LONGEST, 1, -1) if (r, start, n) in compounds), 1)
            group = run[start : start + size]
            phrased, whole = compounds.get((r, start, size), (False, True))
            words = [w.group(0) for w in group]
            split = size == 1 and (r, start) in splits
            if split:
                at, phrased = splits[(r, start)]
                words = [words[0][:at], words[0][at:]]
            gaps = [text[a.end() : b.start()] for a, b in pairwise(group)]
            start += size
            after = (group[-1].end(), run[start].start()) if start < len(run) else None
            hyphen_after = after if after and text[slice(*after)] == "-" else None
            span = (group[0].start(), group[-1].end())
            hyphen = bool(gaps) and all(gap == "-" for gap in gaps)
            groups.append(_Group(span, words, phrased, whole, split, hyphen, hyphen_after))
    return groups


def _phrase_slots(groups: list[_Group]) -> set[int]:
    """The groups also searched as their words in a row, PHRASED at most: compounds typed
    apart first (joined alone they would lose the papers writing them apart), then those
    typed hyphenated, then words typed joined and split."""
    wanted = [index for index, group in enumerate(groups) if group.phrased]
    return set(sorted(wanted, key=lambda i: (groups[i].split, groups[i].hyphen, i))[:PHRASED])


def _quoted_compounds(text: str) -> str:
    """The query with each quoted phrase that is one word but for its stop words typed as
    its compound, where the collection writes that as one word ("few shot" quoted →
    "few-shot", searched as the index holds it, papers/compounds.py phrase_compounds): the
    search vectors hold no stop word, so the phrase was that one word, and "few shot" quoted
    matched every paper with "shot" (2,683 papers, zero-shot ones among them). A phrase of two
    content words or more ("in context learning") is left as typed: it finds the compound's
    papers too, and the papers writing it apart. One statement per such phrase."""
    pieces, start = [], 0
    for quoted in QUOTED.finditer(text):
        body_start = quoted.start() + 1
        body = text[body_start : quoted.end()].rstrip('"')
        if len(re.findall(r"\w+", body)) < 2 or content_words(body) != 1:
            continue
        for group in _groups(body, _runs(body)):
            if len(group.words) > 1 and not group.split:
                begin, end = group.span
                pieces += [text[start : body_start + begin], "-".join(group.words)]
                start = body_start + end
    return "".join(pieces) + text[start:]


def _with_versions(text: str, edits: list, phrases: list) -> tuple[list, list]:
    """(edits, phrases [(edit, phrase)]) with each compound with a version number typed in the
    text ("GPT-3.5", outside quotes, not excluded) an edit of its own, as typed, in place of
    the edits of its words, and the phrases of those left out: its other form is its parts in
    a row (compounds.version_apart); its first word's was none ("GPTs-3.5")."""
    spans = [match.span() for match in plain(versioned_compounds(text), text)]
    if not spans:
        return edits, phrases
    inside = {i for i, (begin, _, _) in enumerate(edits) if any(a <= begin < b for a, b in spans)}
    kept = [(edit, i) for i, edit in enumerate(edits) if i not in inside]
    ordered = sorted(kept + [((a, b, text[a:b]), None) for a, b in spans], key=lambda e: e[0][0])
    moved = {old: new for new, (_, old) in enumerate(ordered) if old is not None}
    phrases = [(moved[index], phrase) for index, phrase in phrases if index in moved]
    return [edit for edit, _ in ordered], phrases


def join_compounds(text: str) -> tuple[str, str]:
    """(query, words): the query with each compound the collection writes as one word
    joined ("few shot", "few-shot" → "fewshot"), and the hyphens of the other compounds typed
    as spaces ("language-model" → "language model"): one indexed statement, only when the
    text has two plain words in a row or one of 2 × SPLIT_PART letters or more. Longest
    first, left to right, never overlapping. A compound of two content words or more, however
    typed, is also searched as its words in a row, for the papers writing it apart: "back
    translation", "backtranslation" → 'backtranslation or "back translation"', "mixture of
    experts" → 'mixtureofexperts or "mixture of experts"' (the query
    repeated for each of up to PHRASED such compounds, or acronyms searched in both numbers:
    "LLM" → 'LLM or LLMs', or words in both regional spellings: "summarisation" →
    'summarisation or summarization', or a compound with a version number as its parts in a
    row too: "GPT-3.5" → 'GPT-3.5 or "GPT 3.5"', or acronyms as their words too: "RAG" → 'RAG or
    "retrieval augmented generation"', papers/acronyms.py; an excluded one is excluded in
    every form: "-LLM" → '-LLM -LLMs -"large language model"'). Compounds typed apart take
    those places first; one typed apart that finds none is searched as typed. A rare name
    with a number is also searched with the number as a superscript: "M3CoT" → 'M3CoT or
    "M^3CoT"' (papers/numbered_names.py), and a word the collection also writes with or without
    accents in that spelling too: "naive bayes" → 'naive bayes or naïv bayes' (papers/accents.py).
    ``words``: the words a title is scored on as typed: a compound with a stop word part
    searched as its words in a row, as those words; any other joined, as a title writing it
    hyphenated or joined has it (papers_compounds)."""
    text = join_versions_typed_apart(text, written_joined(text))
    text = excluded_in_every_form(_quoted_compounds(text))
    groups = _groups(text, _runs(text))
    slots = _phrase_slots(groups)
    edits, phrases = [], []  # (start, end, replacement) in order; (edit, its phrase)
    with_stop_words = []  # the phrases of compounds with a stop word part
    for index, group in enumerate(groups):
        begin, end = group.span
        if index in slots:
            phrases.append((len(edits), '"' + " ".join(group.words) + '"'))
            if not group.whole:
                with_stop_words.append(phrases[-1])
        # A compound typed apart that finds no place as a phrase is searched as typed: joined
        # alone, it lost the papers writing it apart ("question answering": 79 of 89 papers).
        apart = group.phrased and index not in slots and not group.split and not group.hyphen
        edits.append((begin, end, text[begin:end] if apart else "".join(group.words)))
        if group.hyphen_after:
            edits.append((*group.hyphen_after, " "))
    # A compound with a stop word part is scored on its words: a title writing it apart has
    # them, one writing it hyphenated has them too (its parts, papers/title_match.py), where
    # the joined word left "Lost in the Middle" seventh of the fourteen papers matching it.
    # One without is scored joined, as every spelling of it is (few shot, few-shot, fewshot).
    scored = _edit(text, _phrased(edits, with_stop_words))
    edits, phrases = _with_versions(text, edits, phrases)
    as_typed = [replacement == text[begin:end] for begin, end, replacement in edits]
    for form in (other_form, expansion, version_apart):
        for index, (_, _, replacement) in enumerate(edits):
            other = form(replacement) if as_typed[index] else None
            if other and len(phrases) < PHRASED:
                phrases.append((index, other))
    return other_forms(text, _variants(text, edits, phrases)), scored
