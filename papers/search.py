"""Searching the collection: the page a list's validated parameters ask for.

``search_page`` turns a valid PaperFilterSet (papers/filtering.py) into one page of results
with bounded work: facets and the total, the page's papers ranked or ordered, notices, and
what to offer when nothing matches; ``ranked_order`` gives a ranked query's papers in the pages'
order for its exports.
"""

import re

from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, F, Func, IntegerField, Q, Value

from .facet_rows import row_conditions
from .facets import kept_venue_counts
from .filtering import PaperFilterSet
from .models import Author, Authorship, Paper
from .named_filters import author_at_either_end, filters_named
from .narrowed import narrowed_list
from .newest_order import matched_page_ids
from .page_matches import page_matches
from .querysets import CANDIDATE_CAP, NEGATION, web_query
from .recall import partial_ids, partial_in_memory
from .respelled import offered_respelling, respelled_results
from .results import PAGE_SIZE, Results
from .search_notices import (
    NAMED,
    NO_PAPER_HAS_THE_FILTER,
    NO_PAPER_IN_EVERY_FILTER,
    count_notices,
    paginate,
    phrase_notices,
    some_unknown,
    unknown_choices,
    why_nothing,
)
from .spelling import FEW_MATCHES, RARE_WORD
from .text import CONTROL_CHARACTERS
from .understanding import join_compounds
from .unsearched import unsearched
from .word_memory import matched_query


def _page_ids(filterset: PaperFilterSet, papers, page: int, query, matched, authors):
    """[(id, score)] of page ``page``'s papers matching ``query`` ((text, words) as
    join_compounds gives them), by the filterset's ordering (bounded work); ranked on the
    words of ``words`` as typed, the papers of the ``authors`` the query names first, among
    the candidates of the query's words' bits when it was matched in memory (``matched``,
    papers/word_memory.py), and placed from the memory in the other orders where ``matched``
    is given."""
    offset = (page - 1) * PAGE_SIZE
    text = query[0]
    if filterset.ordering == "relevance":
        authored = _authored(papers, authors, text)
        window = (PAGE_SIZE, offset, authored)
        return _ranked(filterset, papers, query, matched, window, CANDIDATE_CAP)
    if filterset.ordering == "newest":
        if text and matched:
            return [(pk, None) for pk in matched_page_ids(papers, matched, PAGE_SIZE, offset)]
        kept = None if text else kept_venue_counts(filterset.fixed, filterset.active())
        return [(pk, None) for pk in papers.newest_ids(PAGE_SIZE, offset, text, kept)]
    if matched:
        return [(pk, None) for pk in matched.title_page(PAGE_SIZE, offset)]
    if text:
        papers = papers.matching(text)
    ids = papers.in_order(filterset.ordering).values_list("pk", flat=True)
    return [(pk, None) for pk in ids[offset : offset + PAGE_SIZE]]


def _ranked(filterset: PaperFilterSet, papers, query, matched, window, cap: int):
    """[(id, score)] of the ranked matches in ``window`` (limit, offset, the ids of the matches
    by the authors the query names, ranked first), among ``cap`` candidates; ``query``: (text,
    words) as join_compounds gives them. The candidates are the query's words' bits' when it
    was matched in memory (``matched``, papers/word_memory.py), else found through the
    filters' narrow rows and the vectors together."""
    text, words = query
    limit, offset, authored = window
    candidates = matched.candidates(cap) if matched else None
    narrow = row_conditions(filterset.fixed, filterset.active())
    return papers.ranked_ids(
        text,
        limit,
        offset,
        cap=cap,
        words=words,
        narrow=narrow,
        candidates=candidates,
        authored=authored,
    )


def _authored(papers, authors: list, text: str) -> list[int]:
    """The ids of the matches of ``text`` among ``papers`` that the ``authors`` wrote (one
    query, bounded by their authorships; none without authors)."""
    if not authors:
        return []
    written = Authorship.objects.filter(author__in=authors).values("paper_id")
    return list(papers.matching(text).filter(pk__in=written).values_list("pk", flat=True))


def ranked_order(filterset: PaperFilterSet, limit: int) -> list[int]:
    """The ids of up to ``limit`` of a ranked query's matches in the pages' order (an export's):
    the matches the pages reach (the first CANDIDATE_CAP) as they rank them, then the best of
    the rest ranked the same way among ``limit`` candidates. Bounded as the pages are: ranking
    every match of "language" (15,000 papers) took 1.9 s, in another order past the pages'."""
    query = join_compounds(filterset.searched)
    matched = matched_query(query[0], filterset.active(), filterset.fixed)
    papers = Paper.objects.filter(*filterset.fixed_conditions(), *filterset.conditions().values())

    authored = _authored(papers, filterset.searched_authors, query[0])

    def best(cap: int) -> list[int]:
        return [pk for pk, _ in _ranked(filterset, papers, query, matched, (cap, 0, authored), cap)]

    shown = best(min(CANDIDATE_CAP, limit))
    if len(shown) < CANDIDATE_CAP or limit <= CANDIDATE_CAP:
        return shown
    seen = set(shown)
    return shown + [pk for pk in best(limit) if pk not in seen][: limit - len(shown)]


def search_page(filterset: PaperFilterSet, request=None) -> Results:
    """The page the valid ``filterset`` asks for.

    An identifier names one paper (1 query; the pages redirect to it), an Anthology page's
    address an author or venue (1 or 2; the pages redirect there). A question is searched
    for its subject (``corrected_query``; PaperFilterSet.subject: +1, whether it is a title),
    a name written otherwise for its author's (PaperFilterSet.renamed: "Daniel Jurafsky").
    Otherwise: the authors the query names (1, only for a name-like query; the author card, in
    any order,
    on the first page; when some are found, their papers are ranked first, +1, on every
    page; on the first page of a one-word query, the few authors of that family name, 1, +1
    to count their papers when some are found; for a longer query naming nobody, the authors
    two or three words at either end name, 1 for each end whose last word is an author's family
    word), the venues or year its words name (1, only on
    the first page of a query with a year; a series, from memory), compounds (1, only with two
    plain words in a row or one of six letters or more; +1 for each quoted phrase of one content
    word and stop words), the other forms of its words (1, for a query with words: rare
    numbered names, other spellings, papers/word_lookups.py; +1 for a word typed apart from a
    whole number: whether the collection writes the two as one word), the query's words (1; +1
    for words this process
    does not hold, papers/word_memory.py), facets and the total (counted in memory; +1 for a
    phrase's papers in doubt, tested in SQL; a page without a query: 1, the
    filters' keys), then the page's ids (1; none sorted A–Z where the memory places the
    page: a query matched there, or filters without a query, whose keys are then read even
    when the facets are cached) and cards (1, shared with the partial matches). A
    ranked query that matches at most RARE_WORD papers and names no author is respelled (one
    matching none, shaped as a name: first the nearest author's name, 1,
    papers/name_respelling.py; its words: did-you-mean ≤ 2;
    spelling reads the query as typed; +1 where it matched some: whether one names a word
    respelled) and, when the respelling is sure and matches more, its results are shown
    instead (its compounds and words, as above: papers/respelled.py; the authors the respelling
    names, as above, where the query as typed named none); one
    matching at most FEW_MATCHES papers is offered a respelling beside its results (≤ 2);
    for a query naming one venue, the list of its other words there, where more papers have
    them than have all its words (a year alone: where none has them all; ``narrowed``: the
    pages redirect; +1 for their count, papers/narrowed.py); when all the words match fewer than a page, papers
    matching some of them follow on the first page (scored in memory where the query was
    matched there, papers/recall.py; else +1). Nothing at all shown under filters:
    whether papers outside them match (+1, papers/search_notices.py ``why_nothing``), and
    which of its venues, topics, author or year the collection does not know (+1, with such a
    filter; also on a page with results whose venue or topic facet lacks a value chosen). With
    the response cache on, the data version is read first (+1; ``request`` keeps it) and the
    facets may come from the cache; the first page counted after each change of the data reads
    this process's memory of the papers' facets again (+1, once, papers/facet_memory.py).
    """
    text = filterset.text
    if (answered := unsearched(filterset)) is not None:
        return answered
    fixed = Paper.objects.filter(*filterset.fixed_conditions())
    conditions = filterset.conditions()
    ranked = bool(text) and filterset.ordering == "relevance"
    literal = filterset.value("literal")
    # A question is searched for its subject, and the page says so (papers/questions.py).
    subject = filterset.subject or filterset.renamed
    typed = subject or text
    authors = filterset.searched_authors if ranked else []
    text, words = join_compounds(typed)
    facets, matched = page_matches(filterset, text, request)
    results = Results(facets=facets, count=facets.total, notices=list(filterset.notices))
    # The authors a query names are offered in any order (sorted, their cards went).
    named = authors or (filterset.named_authors if text else [])
    results.authors = _author_cards(filterset, typed, named) if text else []
    results.filters = _named_filters(filterset, typed, matched) if ranked else []
    if text and not results.authors:
        _name_and_words(results, filterset, typed, matched)
    results.named_authors, results.corrected_query = authors, subject
    if ranked and facets.total <= RARE_WORD and not literal:
        matches = fixed.filter(*conditions.values()).matching(text)
        respelled = respelled_results(results, filterset, (typed, matches), request)
        if respelled is not None:
            text, words, matched = respelled
            authors = _respelled_authors(results, filterset, authors)
    elif ranked and facets.total <= FEW_MATCHES and filterset.page_number == 1 and not literal:
        results.suggestion = offered_respelling(filterset, typed)
    if ranked and not literal:
        results.narrowed = narrowed_list(results.filters, request, results.count)
        if results.narrowed is not None:
            return results  # the pages redirect there
    results.notices += phrase_notices(typed)
    papers = fixed.filter(*conditions.values())
    _fill(results, filterset, papers, (text, words, typed), matched, authors)
    _explain_choices(results, filterset, fixed, text)
    return results


def _fill(results: Results, filterset: PaperFilterSet, papers, query, matched, authors) -> None:
    """The results' page of ``papers`` (the list's), its partial matches and their cards, for
    ``query``: (searched, its words, as typed); ``matched``: its matches in memory, if any;
    ``authors``: those whose papers are ranked first."""
    text, words, typed = query
    ranked = bool(filterset.text) and filterset.ordering == "relevance"
    count_notices(results, ranked, matched, CANDIDATE_CAP, len(authors))
    paginate(results, filterset.page_number, ranked, CANDIDATE_CAP)
    scored = (
        _page_ids(filterset, papers, results.page, (text, words), matched, authors)
        if results.count
        else []
    )
    partial = _partial(results, matched, papers, (text, words), typed) if ranked else []
    searched = results.corrected_query or typed
    results.papers, results.partial = _cards(scored, partial, (text, searched))


def _named_filters(filterset: PaperFilterSet, typed: str, matched) -> list:
    """On the first page of the list of every paper, the venues, series or year the query
    names, unless such a filter is on (a venue's, topic's or author's page offers none: its
    links would leave it); series from the venues of the memory the query was matched in."""
    active = filterset.active()
    if filterset.fixed or filterset.page_number != 1 or active.get("venue") or active.get("year"):
        return []
    return filters_named(typed, active, matched.memory.venues if matched is not None else None)


def _respelled_authors(results: Results, filterset: PaperFilterSet, authors: list) -> list:
    """The authors a respelled query names, offered and ranked first as the query typed right
    would have them ("Neubg": Graham Neubig), where the query as typed named none."""
    authors = authors or Author.objects.named(results.corrected_query)
    results.authors = _author_cards(filterset, results.corrected_query, authors)
    results.named_authors = authors
    return authors


def _author_cards(filterset: PaperFilterSet, typed: str, authors: list) -> list:
    """The authors offered above the first page's results: those the query names, else,
    for a single word (after any particles), the few authors of that family name (offered
    only: the word may mean what it says, and their papers are not ranked first)."""
    if filterset.page_number != 1:
        return []
    return authors or Author.objects.of_family_name(typed)


def _name_and_words(results: Results, filterset: PaperFilterSet, typed: str, matched) -> None:
    """The authors whose name opens or ends a longer query ("Percy Liang evaluation"), offered
    above the first page of the list of every paper with the filter of the first one's papers
    (named_filters.author_at_either_end); their papers are not ranked first: the other words
    may be what the query is about."""
    active = filterset.active()
    if filterset.fixed or filterset.page_number != 1 or active.get("author"):
        return
    memory = matched.memory if matched is not None else None
    authors, named = author_at_either_end(typed, active, memory)
    results.authors, results.authors_in_words = authors, bool(authors)
    results.filters += [named] if named else []


def filtered_authors(filterset: PaperFilterSet) -> list:
    """The author the list is filtered to (``author=``), in a list; [] without that filter
    (then no query)."""
    slug = filterset.value("author")
    return list(Author.objects.filter(slug=slug)) if slug else []


_WORD = re.compile(r"\w+")


def _partial(results: Results, matched, papers, query, typed: str) -> list:
    """[(id, score)] of the papers matching some of the words of ``query`` ((text, words) as
    join_compounds gives them), on a ranked query's first page of fewer than a page of full
    matches without exclusions: scored in memory where it was matched there (``matched``; the
    words of ``typed`` naming a venue, year or author offered as a filter, those its rest
    lacks, left out, that author's papers first), else in SQL among ``papers``."""
    text, words = query
    if results.page != 1 or results.count >= PAGE_SIZE or NEGATION.search(text):
        return []
    wanted = PAGE_SIZE - results.count
    if matched is not None:
        naming = frozenset(
            word
            for named in results.filters
            if named.added and named.added[0][0] in ("venue", "year", "author")
            for word in _WORD.findall(typed.lower())
            if word not in _WORD.findall(named.rest.lower())
        )
        author = results.authors[0].pk if results.authors_in_words else None
        return partial_in_memory(matched, wanted, naming, author)
    return partial_ids(papers, words, wanted, text)


def _explain_choices(results: Results, filterset: PaperFilterSet, fixed, text: str) -> None:
    """The notices of filter values the collection does not know (on an empty page, or one
    whose facet lacks a value chosen), of why a query shows nothing at all, and of filters
    known each but with no paper in all of them ("ACL 2024" and 2023)."""
    named = {name: values for name, values in filterset.active().items() if name in NAMED}
    empty = not results.count and not results.partial
    unknown = []
    if named and (empty or some_unknown(results.facets, named)):
        unknown = unknown_choices(named)
        results.notices += unknown
    if text and empty:
        results.notices.append(why_nothing(filterset, fixed, text))
    elif empty and filterset.active() and not unknown:
        results.notices.append(_no_paper_in(filterset))


def _no_paper_in(filterset: PaperFilterSet) -> str:
    """Why known filters show no paper: one value alone has none (a topic just made), or
    none is in all of them together ("ACL 2024" and 2023)."""
    chosen = [(name, value) for name, values in filterset.active().items() for value in values]
    if len(chosen) == 1 and not filterset.fixed:
        return NO_PAPER_HAS_THE_FILTER.format(facet=chosen[0][0])
    return NO_PAPER_IN_EVERY_FILTER


def _cards(scored: list, partial: list, query: tuple[str, str]) -> tuple[list, list]:
    """(the page's cards, the partial matches' cards), each with its ``score``, from one
    query: ``scored`` and ``partial`` are [(id, score)] in their order; ``query``: the query
    searched and as typed (or respelled)."""
    scores = dict(scored + partial)
    cards = Paper.objects.cards([pk for pk, _ in scored + partial], *query)
    for paper in cards:
        paper.score = scores[paper.pk]
    shown = {pk for pk, _ in scored}
    return (
        [paper for paper in cards if paper.pk in shown],
        [paper for paper in cards if paper.pk not in shown],
    )


# The admin's matches placed by relevance: its first four pages of 50.
ADMIN_RANKED = 200


def ranked_matches(queryset, text: str):
    """The papers of ``queryset`` matching ``text`` (the admin's search; a number also finds
    the paper with that id), each with ``rank``: its place among the best ADMIN_RANKED by the
    pages' own bounded ranking (``ranked_ids``), None for the other matches. Every match stays
    in the set (an action on "all" of them reaches each); scoring every match of a common
    word, as before, took 3 to 6 s."""
    text = CONTROL_CHARACTERS.sub(" ", text).strip()
    if not text:
        return queryset
    text = join_compounds(text)[0]
    condition = Q(search_vector=web_query(text))
    if re.fullmatch(r"[0-9]{1,18}", text):
        condition |= Q(pk=int(text))
    # Unfiltered, the candidates are the pages' own (the words' bits in memory): the same
    # best papers as the public list (but for a name's, which the list puts first), where a
    # GIN scan's first 500 would be any 500.
    matched = None if queryset.query.where else matched_query(text, {}, {})
    candidates = matched.candidates(CANDIDATE_CAP) if matched else None
    ranked = queryset.order_by().ranked_ids(text, limit=ADMIN_RANKED, candidates=candidates)
    best = Value([pk for pk, _ in ranked], output_field=ArrayField(BigIntegerField()))
    rank = Func(best, F("pk"), function="array_position", output_field=IntegerField())
    return queryset.filter(condition).annotate(rank=rank)
