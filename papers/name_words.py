"""Words of names and words never of a person's name, for telling an author line from a title
(papers/author_lines.py) and for a name's spelling (papers/people.py)."""

import re

# The letters of Chinese, Japanese and Korean names (kana, the unified ideographs, hangul).
CJK_LETTERS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
CJK_NAME = re.compile(rf"^[{CJK_LETTERS}·]{{2,8}}$")

# Particles a name writes in lower case or not ("van den Bosch", "Van Den Bosch").
PARTICLES = {"de", "del", "della", "der", "di", "da", "dos", "du", "la", "le", "van", "von"}
PARTICLES |= {"den", "ter", "ten", "bin", "ibn", "al", "el", "y", "e", "do", "das", "zu"}
# Those an author line is told from a title by: not "do", "das", "ten", "zu", "ibn", which
# titles write too ("Corpus do Português", "da Variação do Português" read as a name).
LINE_PARTICLES = PARTICLES - {"do", "das", "ten", "zu", "ibn"}
# Words of titles and programme headings, never of a person's name ("Large Language Models").
NOT_NAME_WORDS = {"models", "model", "language", "languages", "learning", "neural", "network"}
NOT_NAME_WORDS |= {"networks", "translation", "machine", "data", "evaluation", "analysis"}
NOT_NAME_WORDS |= {"generation", "detection", "retrieval", "reasoning", "benchmark", "dataset"}
NOT_NAME_WORDS |= {"revisited", "towards", "survey", "system", "systems", "abstract", "session"}
NOT_NAME_WORDS |= {"available", "track", "oral", "poster", "workshop", "tutorial", "keynote"}
NOT_NAME_WORDS |= {"paper", "papers", "et", "al", "al.", "computational", "science", "social"}
NOT_NAME_WORDS |= {"analytics", "cultural", "processing", "semantics", "syntax", "speech"}
NOT_NAME_WORDS |= {"discourse", "pragmatics", "dialogue", "multimodality", "morphology"}
NOT_NAME_WORDS |= {"phonology", "segmentation", "resources", "ethics", "interpretability"}
NOT_NAME_WORDS |= {"summarization", "extraction", "information", "question", "answering"}
NOT_NAME_WORDS |= {"sentiment", "linguistics", "linguistic", "natural", "lexical", "theory"}
# … nor of an affiliation's ("UMass Amherst" under the authors one per line).
NOT_NAME_WORDS |= {"university", "institute", "lab", "labs", "laboratory", "research"}
NOT_NAME_WORDS |= {"college", "school", "academy", "center", "centre", "department", "inc"}
NOT_NAME_WORDS |= {"inc.", "ltd", "corporation", "umass", "technology", "sciences"}


def one_person(names: list[str], following: str) -> bool:
    """Whether the one name a lecture page's line under its title lists is a person's, not a
    topic's ("Question Answering"): ``_capitalised_words`` (any number of them), and the page's
    next line a topic in lower case, as such pages write them ("Jürgen Müller-Lüdenscheidt",
    "Hans-Jürgen van den Bosch" and "王小明" over "machine translation" were topics: outside
    testers)."""
    if len(names) != 1 or following != following.lower():
        return False
    if not any(c.isalpha() for c in following):
        return False
    return _capitalised_words(names[0]) > 1


# Words of a programme's headings, over which a lone name is a paper's title, not its author.
SESSION_WORDS = {"session", "sessions", "track", "oral", "orals", "poster", "posters", "keynote"}
SESSION_WORDS |= {"plenary", "panel", "spotlight", "break", "lunch", "day", "morning", "afternoon"}


def looks_like_person(name: str) -> bool:
    """Whether a name alone on its line reads as a person's: ``_capitalised_words``, two to
    four ("Alan Turing", not "Robust Parsing" nor "Question Answering")."""
    return 1 < _capitalised_words(name) <= 4


def _capitalised_words(name: str) -> int:
    """How many words a name has beside its particles, all in capitals and none a title's or
    programme's word (0 where one is not; 2 for a CJK name, read as a given and family name)."""
    if CJK_NAME.match(name):
        return 2
    words = [w for w in name.replace("-", " ").split() if w.lower() not in PARTICLES]
    capitalised = all(w[0].isupper() and w.lower() not in NOT_NAME_WORDS for w in words)
    return len(words) if capitalised else 0
