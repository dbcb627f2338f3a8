"""A query asked as a question or a request, read for its subject.

"which papers study gender bias in machine translation?" asks for papers on gender bias in
machine translation; searched word for word it required "papers" and "study" as well, and found
3 papers where the subject has 65. A query that asks (it opens with a question or request word,
or with words asking for papers before one saying what about: "papers on …", "recent work on
…", "I am looking for …") is searched for its subject (``question_subject``): its words
but the asking ones (``ASKING``: "which", "papers", "study", "best", "method"…) and the
function words, in their order; quoted phrases and excluded words are kept whole. The page says
which words it searched for and links to the query as typed (``literal=1``), as it does for a
respelling.
"""

import re

# Words that open a question or a request ("find papers on …", "show me …"); "papers" and
# "studies" open one only before a word saying what about or by whom ("papers on
# code-switching", "papers by Luis Espinosa Anke", not "papers with code").
_OPENING = frozenset(
    [
        "which",
        "what",
        "how",
        "who",
        "where",
        "when",
        "why",
        "whats",
        "is",
        "are",
        "does",
        "do",
        "can",
        "could",
        "find",
        "show",
        "give",
        "any",
        "looking",
        "tell",
        "recommend",
        "suggest",
        "explain",
        "compare",
    ]
)
_ABOUT = frozenset(["on", "about", "that", "which", "using", "for", "by"])
# Words that ask for papers rather than say what they are about ("new" and "state" stay: "new
# york", "state tracking").
ASKING = frozenset(
    [
        "paper",
        "papers",
        "study",
        "studies",
        "studied",
        "studying",
        "work",
        "works",
        "research",
        "article",
        "articles",
        "publication",
        "publications",
        "approach",
        "approaches",
        "method",
        "methods",
        "technique",
        "techniques",
        # "the best way to detect …": the subject is what follows.
        "way",
        "ways",
        "best",
        "good",
        "recent",
        "latest",
        "novel",
        "existing",
        "sota",
        "me",
        "i",
        "we",
        "you",
        "there",
        "that",
        "know",
        "learn",
        "read",
        "recommend",
        "suggest",
        "tell",
        "explain",
        "compare",
        "better",
        "vs",
        "versus",
        # "what methods exist for …", "how to handle …": the subject is what follows ("deal"
        # and "available" stay: "Deal or No Deal", "available data").
        "exist",
        "exists",
        "handle",
        "tackle",
        "state-of-the-art",
    ]
)
# Who asks and when, after the words that make them so ("how do people evaluate …", "what are
# current approaches to …"), not elsewhere ("people with aphasia", "current events"; a
# reviewer): 10 papers for "people evaluate machine translation", 596 without "people" (an
# outside researcher).
_ASKER = frozenset(["people", "researchers"])
_ASKER_AFTER = frozenset(["do", "does", "did", "are", "would", "should"])
_WHEN = frozenset(["current", "currently", "nowadays"])
_WHEN_BEFORE = frozenset(["state", "state-of-the-art", "approaches", "methods", "techniques"])
# "the state of the art in …" in a question asks for the best work on what follows; its "of"
# and "the" may be gone (the search drops a query's repeated words: "state of art").
_STATE_OF_THE_ART = re.compile(r"state (?:of )?(?:the )?art")
# What a query asks for when it opens with it, before a word saying what about.
_ASKED_FOR = frozenset(
    [
        "paper",
        "papers",
        "study",
        "studies",
        "work",
        "works",
        "research",
        "looking",
        "article",
        "articles",
        "publication",
        "publications",
        "literature",
    ]
)
# Function words: the text search configuration drops them anyway, and the subject reads
# better without them ("detecting hallucinations llms", not "is the for detecting …"); "or" is
# the search's own operator and stays.
_FUNCTION = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "for",
        "to",
        "with",
        "by",
        "about",
        "from",
        "at",
        "into",
        "using",
        "use",
        "used",
        "via",
        "and",
        "as",
        "than",
        "it",
        "its",
        "this",
        "these",
        "those",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "was",
        "were",
        "will",
        "would",
        "should",
        "their",
        "they",
        "our",
    ]
)
# A term of the query: a quoted phrase, an excluded word, or a word.
_TERM = re.compile(r'"[^"]*"?|-?[^\s"]+')
_EDGES = re.compile(r"^[^\w\"-]+|[^\w\"]+$")


def question_subject(text: str) -> str | None:
    """The subject of a query that asks for papers, or None when the query does not ask (or
    has nothing but asking words, or nothing to leave out)."""
    terms = [_EDGES.sub("", term) for term in _TERM.findall(text)]
    terms = [term for term in terms if term]
    asking = _asking_words(terms)
    if asking is None:
        return None
    asked = _without_askers(terms[asking:])
    kept = [term for term in _without_state_of_the_art(asked) if _subject_term(term)]
    if len(kept) == len(terms) or not any(not term.startswith("-") for term in kept):
        return None
    return " ".join(kept)


def _without_askers(terms: list[str]) -> list[str]:
    """The terms without who asks and when (_ASKER after _ASKER_AFTER, _WHEN before
    _WHEN_BEFORE)."""
    words = [term.lower() for term in terms]
    return [
        term
        for n, term in enumerate(terms)
        if not (words[n] in _ASKER and n and words[n - 1] in _ASKER_AFTER)
        and not (words[n] in _WHEN and words[n + 1 : n + 2] and words[n + 1] in _WHEN_BEFORE)
    ]


def _without_state_of_the_art(terms: list[str]) -> list[str]:
    """The terms without "state of the art" written as words: "state" alone stays a subject
    word ("state tracking")."""
    for start, term in enumerate(terms):
        for size in (2, 3, 4):
            if term.lower() == "state" and _STATE_OF_THE_ART.fullmatch(
                " ".join(terms[start : start + size]).lower()
            ):
                return terms[:start] + _without_state_of_the_art(terms[start + size :])
    return terms


def _asking_words(terms: list[str]) -> int | None:
    """How many of the query's first terms only ask, when the query opens as a question or a
    request (0 after a question or request word, whose other asking words go as anywhere);
    None when it does not. Words asking for papers before a word saying what about ("papers
    on …", "recent work on …", "latest research about …", "I am looking for …") go with that
    word, and only there: "literature" stays in "which papers study literature review"."""
    words = [term.lower() for term in terms]
    if words and words[0] in _OPENING:
        return 0
    about = next((n for n, word in enumerate(words) if word in _ABOUT), None)
    if not about or about == len(words) - 1:
        return None
    lead = words[:about]
    asking = ASKING | _OPENING | _ASKED_FOR | {"am"}  # "I am looking for …"
    if all(word in asking for word in lead) and any(word in _ASKED_FOR for word in lead):
        return about + 1
    return None


def _subject_term(term: str) -> bool:
    """Whether a term says what the papers are about: a phrase, an exclusion, or a word that
    is neither an asking word nor a function word."""
    if term.startswith(('"', "-")):
        return True
    word = term.lower().replace("’", "'").removesuffix("'s")
    return word not in _OPENING and word not in ASKING and word not in _FUNCTION
