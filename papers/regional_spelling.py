"""A word's other regional spelling, British or American ("summarisation", "summarization").

The English stemmer keeps them apart (summaris, summar; judgement, judgment; dialogu, dialog):
"summarisation" found 52 papers where "summarization" finds 1,623. The query searches both
(papers/understanding.py join_compounds, as an acronym's two numbers). Only patterns that name
a regional spelling are rewritten: "-isation" always, the "-ise" verbs by stems that are
verbs in "-ise" ("optimise", "tokenise"; not "promise", "exercise"), "-yse" ("analyse"), and
a list of words of their own ("behaviour", "judgement", "dialogue", "centre").
"""

import re

# The endings of the "-ise"/"-ize" verbs and their nouns, after the letters that make them one
# (two letters or more before them: "arise", "revised", "promise" and "supervised" are not).
_VERB_ENDINGS = "e|ed|es|ing|er|ers|able"
_ISE = re.compile(
    r"(?P<stem>\w{2,}(?:al|ar|ard|ogn|im|en|at|or|er|it|ic|an|on|il|hes|has)|random)(?P<s>is|iz)"
    rf"(?P<end>{_VERB_ENDINGS})",
    re.IGNORECASE,
)
# "-isation" is British whatever comes before it ("organisation").
_ISATION = re.compile(r"(?P<stem>\w{3,})(?P<s>is|iz)(?P<end>ations?)", re.IGNORECASE)
_YSE = re.compile(
    r"(?P<stem>\w*(?:anal|paral|catal|dial|hydrol|electrol))(?P<s>ys|yz)(?P<end>e|ed|es|ing|er|ers)",
    re.IGNORECASE,
)
# Words whose spellings differ otherwise: British, American.
_PAIRS = {
    "behaviour": "behavior",
    "behavioural": "behavioral",
    "colour": "color",
    "favour": "favor",
    "favourable": "favorable",
    "humour": "humor",
    "neighbour": "neighbor",
    "neighbourhood": "neighborhood",
    "labour": "labor",
    "rumour": "rumor",
    "endeavour": "endeavor",
    "flavour": "flavor",
    "honour": "honor",
    "judgement": "judgment",
    "acknowledgement": "acknowledgment",
    "dialogue": "dialog",
    "catalogue": "catalog",
    "analogue": "analog",
    "centre": "center",
    "licence": "license",
    "defence": "defense",
    "offence": "offense",
    "ageing": "aging",
    "artefact": "artifact",
}
# Words the patterns would take for a regional spelling, and are not one.
_NOT_REGIONAL = frozenset(["treatise", "treatises", "improvisation", "improvisations"])
_OTHER = {
    **{british + end: american + end for british, american in _PAIRS.items() for end in ("", "s")},
    **{american + end: british + end for british, american in _PAIRS.items() for end in ("", "s")},
}
_SWAPPED = {"is": "iz", "iz": "is", "ys": "yz", "yz": "ys"}


def other_spelling(word: str) -> str | None:
    """The word in the other regional spelling, its capitals kept; None when it has none."""
    if other := _OTHER.get(word.lower()):
        return _cased(word, other)
    if word.lower() in _NOT_REGIONAL:
        return None
    for pattern in (_ISATION, _YSE, _ISE):
        if match := pattern.fullmatch(word):
            swapped = _SWAPPED[match["s"].lower()]
            if match["s"].isupper():
                swapped = swapped.upper()
            return match["stem"] + swapped + match["end"]
    return None


def _cased(typed: str, other: str) -> str:
    if typed.isupper() and len(typed) > 1:
        return other.upper()
    return other.capitalize() if typed[:1].isupper() else other
