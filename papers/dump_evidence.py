"""What a prose block of a page dump is about: the event, or a paper. Pure: no database.

A person tells an event's own prose ("EACL 2024 will take place in St. Julian's, Malta, and
online for remote participants.") from an abstract by what it talks about: it names the event,
its place or its format, its registration or schedule, and it speaks to the attendees ("you",
"please register"); an abstract talks about a method, data and results. Each kind of cue is
evidence; a block is the event's when its event evidence is strong and its research evidence
weak, and site prompts (log in, register) are the event's whatever else they say. No single
surface feature (a date, the word "welcome") decides.

Every pattern is an alternation of words bounded by \\b, so each runs in time linear in the text.
"""

import re
from dataclasses import dataclass

from .dump_blocks import DATE_IN_TEXT, MONTHS, VENUE_IN_TEXT

# Prompts of the event site itself; "registration" or "sign in" alone are only cues (an
# abstract may register agents or sign in front of a webcam).
_SITE_PROMPT = re.compile(
    r"\b(?:log ?in|sign up|event page|registered with|register for|access credentials"
    r"|please register|register here|register now|all rights reserved|cookie settings)\b|©",
    re.IGNORECASE,
)

_PLACE_OR_FORMAT = re.compile(
    r"\b(?:takes? place|took place|taking place|will be held|is being held|was held|held in"
    r"|hybrid|in-person|in person|on-site|onsite|remote participants|remote attendees"
    r"|participate remotely|attend remotely|attend virtually|virtual attendees"
    r"|conference cent(?:re|er)|convention cent(?:re|er)|venue|hotel|city of|located in"
    r"|hosted in|hosted by)\b",
    re.IGNORECASE,
)
# Common in abstracts too ("online reviews", "virtual assistants"): a cue, never alone enough.
_ONLINE = re.compile(r"\b(?:online|virtual|virtually|streamed)\b", re.IGNORECASE)
_SCHEDULE_OR_REGISTRATION = re.compile(
    r"\b(?:registration|register|registered|sign in|schedule|agenda|timetable|deadline"
    r"|badges?|check-in|keynotes?|plenary|opening session|closing session|social event"
    r"|banquet|reception|time ?zone|handbook|livestream|live stream|coffee breaks?|lunch|dinner"
    r"|foyer|lobby|wi-?fi|shuttle|floor plan)\b",
    re.IGNORECASE,
)
_ADDRESSES_ATTENDEES = re.compile(
    r"\b(?:you|your|yours|yourself|attendees|delegates|see you|join us|welcome)\b|欢迎|注册|登录"
    r"|(?:^|[.!?]\s)(?:Please|Join|Visit|Check|Don't|Do not|Remember|Make sure|Download"
    r"|Follow|Come|Book|Explore|Save|Note that|Log|Sign)\b",
    re.IGNORECASE,
)
_RESEARCH = re.compile(
    r"\b(?:propose[sd]?|present|introduce[sd]?|evaluate[sd]?|experiments?|experimental"
    r"|results?|datasets?|benchmarks?|models?|method|methods|approach|approaches|outperforms?"
    r"|accuracy|baselines?|state-of-the-art|tasks?|corpus|corpora|annotat\w*|neural|trained"
    r"|training|fine-tun\w*|achieves?|analy[sz]\w*|framework|performance|this paper|this work"
    r"|our|learning|language|languages|linguistic\w*|semantic\w*|text|sentences?|words?"
    r"|systems?|users?|study|studies|questions?|answer\w*|documents?|information)\b",
    re.IGNORECASE,
)

_THE_EVENT_ITSELF = re.compile(
    r"\b(?:the conference|this conference|main conference|this year's"
    r"|conference website|event website|conference app|accepted papers|Underline|attendance"
    r"|session chairs?|volunteers|organi[sz]ers|organi[sz]ing committee|general chairs?"
    r"|programme chairs?|program chairs?|lecture videos?|recordings|privacy policy"
    r"|terms of use|terms of service|contact us)\b",
    re.IGNORECASE,
)

EVENT_KINDS = (
    ("the event itself", _THE_EVENT_ITSELF),
    ("place or format", _PLACE_OR_FORMAT),
    ("online", _ONLINE),
    ("registration or schedule", _SCHEDULE_OR_REGISTRATION),
    ("addresses attendees", _ADDRESSES_ATTENDEES),
)


@dataclass(frozen=True)
class Evidence:
    """Why a block reads as the event's prose, and why as a paper's."""

    event: tuple[str, ...]
    research: tuple[str, ...]
    site_prompt: bool

    @property
    def is_event(self) -> bool:
        if self.site_prompt:
            return True
        # Two kinds of cue at least (one, such as "online", is common in abstracts too),
        # and more kinds of cue than research words.
        strong = len(self.event)
        return strong >= 2 and len(self.research) < strong

    @property
    def leans_event(self) -> bool:
        """Enough for a paragraph whose place already doubts it belongs to the abstract that
        follows: a cue of the event (other than "online") and at most one research word."""
        cues = [cue for cue in self.event if not cue.startswith("online")]
        return bool(cues) and len(self.research) <= 1

    def describe(self) -> str:
        parts = [*self.event]
        if self.research:
            parts.append("research words: " + ", ".join(self.research[:4]))
        return "; ".join(parts) if parts else "plain prose"


def _first(pattern: re.Pattern, text: str) -> str | None:
    match = pattern.search(text)
    return match.group(0).strip(" .!?") if match else None


def _names_event(text: str, acronym: str) -> str | None:
    for named in VENUE_IN_TEXT.finditer(text):
        if named.group(0).split()[0].lower() not in MONTHS:  # "September 2021" is a date
            return named.group(0)
    if acronym and re.search(rf"\b{re.escape(acronym)}\b", text):
        return acronym
    return None


def evidence(text: str, acronym: str = "") -> Evidence:
    """The cues in a block's text; ``acronym`` is the page's event ("EACL" for "EACL 2024")."""
    research = sorted({match.group(0).lower() for match in _RESEARCH.finditer(text)})
    if (prompt := _SITE_PROMPT.search(text)) and len(research) < 3:
        return Evidence((f"site prompt ({prompt.group(0)})",), tuple(research), True)
    event = []
    if named := _names_event(text, acronym):
        event.append(f"names the event ({named})")
    if "**" in text:
        event.append("bold markdown")
    if DATE_IN_TEXT.search(text):
        event.append(f"dates ({DATE_IN_TEXT.search(text).group(0)})")
    for kind, pattern in EVENT_KINDS:
        if cue := _first(pattern, text):
            event.append(f"{kind} ({cue})")
    return Evidence(tuple(event), tuple(research), False)
