"""Given names and the short forms people go by: "Dan Jurafsky" is how the Anthology names
Daniel Jurafsky, "Chris Manning" how people name Christopher D. Manning. A name query
(AuthorQuerySet.named, papers/author_queries.py) asks for every form of the given name typed.

Each formal name is listed with its usual English short forms, the ones the Anthology's
authors use; the forms of a typed name are those of every group it is in ("Chris": Christopher,
Christian, Christina, Christine and their short forms), which offers a page or two more than
the one meant, never less.
"""

from functools import cache

SHORT_FORMS = {
    "abigail": ["abby"],
    "alexander": ["alex", "sasha"],
    "alexandra": ["alex", "sasha"],
    "andrew": ["andy", "drew"],
    "anthony": ["tony"],
    "benjamin": ["ben"],
    "catherine": ["cathy", "kate", "kathy"],
    "charles": ["charlie", "chuck"],
    "christian": ["chris"],
    "christina": ["chris", "tina"],
    "christine": ["chris"],
    "christopher": ["chris"],
    "daniel": ["dan", "danny"],
    "david": ["dave"],
    "dmitry": ["dima"],
    "donald": ["don"],
    "douglas": ["doug"],
    "eduard": ["ed"],
    "edward": ["ed", "eddie", "ted"],
    "elizabeth": ["beth", "liz"],
    "frederick": ["fred"],
    "gregory": ["greg"],
    "jacob": ["jake"],
    "james": ["jim", "jimmy"],
    "jeffrey": ["jeff"],
    "jennifer": ["jen", "jenny"],
    "jonathan": ["jon"],
    "joseph": ["joe"],
    "joshua": ["josh"],
    "katherine": ["kate", "katie", "kathy"],
    "kathleen": ["kate", "kathy"],
    "kenneth": ["ken"],
    "lawrence": ["larry"],
    "leonard": ["leo"],
    "margaret": ["maggie"],
    "matthew": ["matt"],
    "maximilian": ["max"],
    "michael": ["mike"],
    "mikhail": ["misha"],
    "nathan": ["nate"],
    "nathaniel": ["nate"],
    "nicholas": ["nick"],
    "nicolas": ["nico"],
    "patricia": ["pat"],
    "patrick": ["pat"],
    "pavel": ["pasha"],
    "philip": ["phil"],
    "raymond": ["ray"],
    "rebecca": ["becky"],
    "richard": ["rich", "rick"],
    "robert": ["bob", "rob", "bobby"],
    "ronald": ["ron"],
    "samuel": ["sam"],
    "samantha": ["sam"],
    "stephen": ["steve"],
    "steven": ["steve"],
    "susan": ["sue"],
    "thomas": ["tom"],
    "timothy": ["tim"],
    "victoria": ["vicky"],
    "william": ["bill", "will"],
    "zachary": ["zach"],
}


@cache
def _groups() -> dict[str, frozenset[str]]:
    """{a name, formal or short: every name of the groups it is in, itself included}."""
    groups: dict[str, set[str]] = {}
    for formal, shorts in SHORT_FORMS.items():
        group = {formal, *shorts}
        for name in group:
            groups.setdefault(name, set()).update(group)
    return {name: frozenset(names) for name, names in groups.items()}


def given_name_forms(given: str) -> list[str]:
    """Every form of a given name in small letters, the typed one first ("dan": dan, daniel,
    danny); the typed one alone when it has no other."""
    others = _groups().get(given, frozenset()) - {given}
    return [given, *sorted(others)]
