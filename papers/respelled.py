"""A misspelt query's respelling, shown in its place when it is sure (papers/spelling.py finds
it): the page's results, and the query its exports and feed search (``sure_respelling``)."""

from .filtering import PaperFilterSet
from .models import Paper
from .name_respelling import name_respelling
from .page_matches import page_matches
from .results import Results
from .spelling import FEW_MATCHES, RARE_WORD, SHOWN_AT_ONCE_EDITS, Respelling, respelling
from .understanding import join_compounds


def sure_respelling(filterset: PaperFilterSet, facets) -> str | None:
    """The respelling a ranked list shows in place of its query (``facets``: the query's, as
    its page counts them), for its exports and feed to search: "nueral" exported and fed
    nothing where the page listed "neural"'s 3,517 papers (an outside tester). None where the
    page shows the query as typed."""
    if facets.total > RARE_WORD:
        return None
    typed = filterset.searched
    results = Results(facets=facets, count=facets.total)
    papers = Paper.objects.filter(*filterset.fixed_conditions(), *filterset.conditions().values())
    text = join_compounds(typed)[0]
    found = respelled_results(results, filterset, (typed, papers.matching(text)), None)
    return results.corrected_query if found is not None else None


def respelled_results(results: Results, filterset: PaperFilterSet, asked, request):
    """For a query matching RARE_WORD papers at most: its respelling as ``join_compounds``
    gives it, and its matches matched in memory (query, words, matches), when the respelling
    is sure (SHOWN_AT_ONCE_EDITS at most for a query matching nothing, none of its words
    replaced in more than RARE_WORD papers; for one matching a
    few, one edit, and no paper it matched naming a respelled word in its title: "taging",
    one paper's "tagE", is respelled, "SAPIENT", a paper's name, is not) and matches more: the
    results then count its matches and show it as typed. Otherwise None, and the respelling
    (if any) is offered as a suggestion. ``asked``: (the query as typed, its matches)."""
    typed, matches = asked
    respelled = _respelled(filterset, typed, as_name=not results.count)
    if respelled is None:
        return None
    results.suggestion = respelled.text
    if respelled.edits > (1 if results.count else SHOWN_AT_ONCE_EDITS):
        return None
    # A query matching nothing has a word of more than RARE_WORD papers replaced only on
    # request: "mentor" (four papers) in "mentor role llm" is a word, not "mention" misspelt.
    if not results.count and respelled.known > RARE_WORD:
        return None
    if results.count and _titles_name(matches, respelled.replaced):
        return None
    query, words = join_compounds(respelled.text)
    facets, matched = page_matches(filterset, query, request)
    if facets.total <= results.count:
        return None
    results.facets, results.count = facets, facets.total
    results.corrected_query, results.suggestion = respelled.text, None
    return query, words, matched


def _titles_name(papers, words: tuple[str, ...]) -> bool:
    """Whether one of ``papers`` (a query's few matches) has one of ``words`` (letters a to
    z) in its title as a whole word, in any case: a name it goes by, not a misspelling."""
    pattern = r"\m(" + "|".join(words) + r")\M"
    return papers.filter(title__iregex=pattern).exists()


def offered_respelling(filterset: PaperFilterSet, typed: str) -> str | None:
    """The respelling offered beside the few results of ``typed`` ("Did you mean"), or None."""
    respelled = _respelled(filterset, typed, as_name=False)
    return respelled.text if respelled is not None else None


def _respelled(filterset: PaperFilterSet, typed: str, as_name: bool) -> Respelling | None:
    """``typed`` respelled: where ``as_name`` (the query as typed matches nothing), a name as
    the author nearest it, else its words. None for a query naming an author: "Yann LeCun" was
    offered "Yang LeCun", a word of more abstracts. A query with matches is about its words:
    "min max" was offered "Min Ma", "sha lab" shown as Sha Lai's papers (a reviewer)."""
    if filterset.searched_authors:
        return None
    if as_name and (name := name_respelling(typed)) is not None:
        return name
    # A word of up to FEW_MATCHES papers beside a far commoner one is respelled, as for a
    # query matching up to FEW_MATCHES: "transfomer" (four papers) stayed in "transfomer
    # language modles", whose "modles" alone was respelled, to two papers; now the whole
    # respelling is offered.
    return respelling(typed, FEW_MATCHES)
