"""The LaTeX that titles carry, read as text (pure): as HTML markup or as plain text.

The Anthology's titles keep their ``<tex-math>`` as LaTeX source ("\\texttt{ModSCAN}: …",
"A Simple and Effective L\\_2 Norm-Based Strategy", "\\inftyBench"). ``convert`` reads the
few constructs titles and abstracts use — font commands and their old-style switches,
symbols, fractions and roots, super- and subscripts, escaped characters, math dollars and
grouping braces — and writes each through a
``Style``: HTML tags (papers/rendering.py escapes the text first) or nothing but text (for
citations, <title> and meta tags). Anything else is left as written.
"""

import re
from dataclasses import dataclass

# \texttt{X} and friends: the tag each is shown with ("" for text without markup).
_FONT_COMMANDS = {
    "texttt": "code",
    "mathtt": "code",
    "textit": "em",
    "emph": "em",
    "mathit": "em",
    "textbf": "strong",
    "mathbf": "strong",
    "boldsymbol": "strong",
    "underline": "u",
    "textrm": "",
    "text": "",
    "mathrm": "",
    "mathcal": "",
    "mathbb": "",
    "mathsf": "",
    "textsf": "",
    "textsc": "",
    "mbox": "",
    "operatorname": "",
    "url": "",  # an abstract's snippet: the address as text (the page links it)
}
# {\it X}: the old switches, inside their group.
_SWITCHES = {"it": "em", "em": "em", "bf": "strong", "tt": "code", "rm": "", "sc": "", "sf": ""}
_SYMBOLS = {
    "infty": "∞",
    "approx": "≈",
    "sharp": "♯",
    "ell": "ℓ",
    "times": "×",
    "sim": "~",
    "pm": "±",
    "leq": "≤",
    "geq": "≥",
    "le": "≤",
    "ge": "≥",
    "rightarrow": "→",
    "to": "→",
    "cdot": "·",
    "circ": "∘",
    "dagger": "†",
    "checkmark": "✓",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "psi": "ψ",
    "omega": "ω",
    "eta": "η",
    "zeta": "ζ",
    "kappa": "κ",
    "nu": "ν",
    "xi": "ξ",
    "rho": "ρ",
    "chi": "χ",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
    "neq": "≠",
    "propto": "∝",
    "equiv": "≡",
    "neg": "¬",
    "wedge": "∧",
    "vee": "∨",
    "oplus": "⊕",
    "otimes": "⊗",
    "ll": "≪",
    "gg": "≫",
    "mapsto": "↦",
    "notin": "∉",
    "emptyset": "∅",
    "varphi": "φ",
    "in": "∈",
    "sum": "∑",
    "ldots": "…",
    "cdots": "⋯",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "uparrow": "↑",
    "downarrow": "↓",
    # Operator names are written upright, as words.
    "varepsilon": "ε",
    "langle": "⟨",
    "rangle": "⟩",
    "lVert": "‖",
    "rVert": "‖",
    "Vert": "‖",
    "lvert": "|",
    "rvert": "|",
    "vert": "|",
    "mid": "|",
    "leftrightarrow": "↔",
    "Leftrightarrow": "⇔",
    "cup": "∪",
    "cap": "∩",
    "subset": "⊂",
    "subseteq": "⊆",
    "forall": "∀",
    "exists": "∃",
    "partial": "∂",
    "nabla": "∇",
    "prod": "∏",
    "int": "∫",
    "log": "log",
    "exp": "exp",
    "max": "max",
    "min": "min",
    "arg": "arg",
}
# The command of each symbol pdflatex cannot set from UTF-8 text (Greek letters, operators,
# arrows), for BibTeX: "SOTOPIA-π" is written "SOTOPIA-$\pi$" (papers/bibtex.py). Not those
# it sets (×, ±, ·, …) nor ✓, whose command needs a package.
_SET_AS_TEXT = {"×", "±", "·", "…", "✓"}
SYMBOL_COMMANDS = {
    symbol: name
    for name, symbol in reversed(_SYMBOLS.items())
    if len(symbol) == 1 and not symbol.isascii() and symbol not in _SET_AS_TEXT
}
# A symbol written as a character, as its maths command ("π": "\\pi"), braces ending the
# command before a letter or a digit ("πBench": "\\pi{}Bench").
_SYMBOL_CHARACTER = re.compile("([" + "".join(SYMBOL_COMMANDS) + "])([A-Za-z0-9]?)")
_NAME_SYMBOLS = "".join(symbol for symbol in SYMBOL_COMMANDS if symbol.isalpha() or symbol == "∞")
_NAME_CHARACTER = re.compile("([" + _NAME_SYMBOLS + "])([A-Za-z0-9]?)")


# The micro sign a keyboard types for the Greek letter mu.
_SAME_SYMBOLS = str.maketrans({"µ": "μ"})


def symbols_as_commands(text: str, names_only: bool = False) -> str:
    """The text with its symbols written as the Anthology writes them, LaTeX commands: "μPLAN"
    as "\\mu{}PLAN", which BibTeX sets and the search index holds as its words ("mu plan").
    ``names_only``: only the symbols names are made of (letters and ∞: "πBench", "∞Bench"),
    for a query; an operator or an arrow is no word of a title that writes it as a character,
    and "A ∧ B ⇔ B ∧ A", typed as its page shows it, found nothing searched as "wedge" and
    "leftrightarrow" (an outside researcher)."""
    pattern = _NAME_CHARACTER if names_only else _SYMBOL_CHARACTER
    return pattern.sub(
        lambda m: "\\" + SYMBOL_COMMANDS[m[1]] + ("{}" if m[2] else "") + m[2],
        text.translate(_SAME_SYMBOLS),
    )


# The commands written as one symbol ("\\infty": ∞), which a highlight may mark whole.
SYMBOL_NAMES = frozenset(_SYMBOLS)
# The commands a title's maths may keep as LaTeX (BibTeX, papers/bibtex.py): symbols and
# maths fonts, fractions and roots. Any other command is read as text: a title must not bring
# \input or \def into a reader's document.
MATH_COMMANDS = frozenset(_SYMBOLS) | {
    *("mathcal", "mathbf", "mathrm", "mathit", "mathbb", "mathsf", "mathtt", "boldsymbol"),
    *("operatorname", "frac", "sqrt", "textrm", "text", "prime"),
}
_SUPERSCRIPTS = str.maketrans("0123456789+-=()n∘", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ°")
_SUBSCRIPTS = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")

_GROUP = r"\{([^{}]*)\}"
# \mathcal{P}, and \mathcal P: a font command's argument may be one letter, unbraced.
_FONT = re.compile(r"\\(" + "|".join(_FONT_COMMANDS) + r")(?:\s*" + _GROUP + r"|\s+([A-Za-z0-9]))")
_SWITCH = re.compile(r"\{\\(" + "|".join(_SWITCHES) + r")\s+([^{}]*)\}")
# \bf{RE^2}: a switch written as a command, as abstracts often do.
_SWITCH_COMMAND = re.compile(r"\\(it|em|bf|tt)\s*" + _GROUP)
_BARE_SWITCH = re.compile(r"\\(?:rm|it|bf|tt|sc|sf)(?![A-Za-z])\s*")
# Size switches change no word: "G\smallE\normalsizeAR" is GEAR (a capital may follow them).
_SIZE = re.compile(
    r"\\(?:tiny|scriptsize|footnotesize|small|normalsize|large|Large|LARGE|huge|Huge)(?![a-z])\s*"
)
# A symbol's name may run into the next word ("\inftyBench", "\muPLAN") but not into more
# lowercase letters ("\left" is not "\le" + "ft").
_SYMBOL = re.compile(r"\\(" + "|".join(sorted(_SYMBOLS, key=len, reverse=True)) + r")(?![a-z])")
# x^2, x^{FM}, 360^∘ and x_{1}, x_2, F_\beta (its symbol written already); an escaped \_ is
# an underscore, and "_" before a letter is a word's own ("snake_case").
_SCRIPT = re.compile(
    r"(?<!\\)(?:(\^)(?:" + _GROUP + r"|([0-9A-Za-z∘+]))|(_)(?:" + _GROUP + r"|([0-9α-ωΑ-Ω])))"
)
# A letter standing alone with a one-character subscript, the underscore escaped or not:
# "\mathcal{S}_t", the Anthology's "L\_2" (maths it writes without dollars); never inside a
# word, an address or a parameter ("snake_case", "lemma\_ce", "github.com/a\_b", "?id=a_1",
# "a_b@example.org").
_LETTER_SCRIPT = re.compile(r"(?<![\w\\/.=?&#:@-])([A-Za-z])(?:_([a-z0-9])|\\_([0-9]))(?![\w@])")
_ESCAPED = re.compile(r"\\([_%#${}]|&amp;|&)")
_MATH = re.compile(r"(?<!\\)\$([^$]+)(?<!\\)\$")
# In an abstract, whose dollars may be prices ("$5 and $10"), a pair holding a command or a
# script and not opening on a figure: "$\rho \in (0.3, 2)$" showed its dollars (an outside
# researcher).
_ABSTRACT_MATH = re.compile(r"(?<!\\)\$(?![\d\s])(?=[^$]*(?:\\[A-Za-z]|[\^_]))([^$]+)(?<!\\)\$")
# \frac{a}{b} → a/b, \sqrt{x} → √x (innermost first, as the groups are).
_FRACTION = re.compile(r"\\frac\s*" + _GROUP + r"\s*" + _GROUP)
_ROOT = re.compile(r"\\sqrt\s*" + _GROUP)
_BRACES = re.compile(r"(?<!\\)" + _GROUP)
# An abstract's link, footnote and unbreakable space, on its page (papers/rendering.py links
# \href first), in a card's snippet and in a feed: \href's text, a footnote in brackets, ~ as
# a space after a letter ("translation~(NAT)", "on~9"; "1~2" is a range).
_HREF = re.compile(r"\\href\s*" + _GROUP + r"\s*" + _GROUP)
_FOOTNOTE = re.compile(r" ?\\footnote\s*" + _GROUP)
_TIE = re.compile(r"(?<=[A-Za-z.,])~(?=[\w(\[\\])")


@dataclass(frozen=True)
class Style:
    """How converted pieces are written: ``tag`` wraps text in markup, ``script`` writes a
    superscript ("^") or subscript ("_")."""

    html: bool

    def tag(self, name: str, text: str) -> str:
        return f"<{name}>{text}</{name}>" if self.html and name else text

    def script(self, kind: str, text: str) -> str:
        if self.html:
            return self.tag("sup" if kind == "^" else "sub", text.replace("∘", "°"))
        converted = text.translate(_SUPERSCRIPTS if kind == "^" else _SUBSCRIPTS)
        if all(char != old for char, old in zip(converted, text, strict=True)):
            return converted
        return kind + text.replace("∘", "°")


HTML = Style(html=True)
PLAIN = Style(html=False)


def _script(style: Style):
    def write(match: re.Match) -> str:
        if match[1]:
            return style.script("^", match[2] if match[2] is not None else match[3])
        return style.script("_", match[5] if match[5] is not None else match[6])

    return write


def _argument(match: re.Match) -> str:
    """A command's braced argument, maybe empty ("\\textbf{}" wrote "None"), else its letter."""
    return match[2] if match[2] is not None else match[3]


# Operator names set apart from their operands as LaTeX sets them: "L\log L" is "L log L".
_OPERATORS = {"log", "exp", "max", "min", "arg"}


def _symbol(match: re.Match) -> str:
    name, text = match[1], match.string
    symbol = _SYMBOLS[name]
    if name not in _OPERATORS:
        return symbol
    before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
    space_before = " " if before.isalnum() or (before and before in ")]}") else ""
    return space_before + symbol + (" " if after.isalnum() else "")


def untied(text: str, style: Style) -> str:
    """The text with its unbreakable spaces (~ after a letter) as spaces."""
    return _TIE.sub("\u00a0" if style.html else " ", text)


def has_latex(text: str) -> bool:
    return "\\" in text or "$" in text or "^" in text or "_{" in text


def convert(text: str, style: Style, dollars: bool = True) -> str:
    """The title's LaTeX bits written in ``style`` (for HTML, ``text`` is escaped already);
    ``dollars``: whether any pair of dollars delimits maths (an abstract's may be prices: there,
    only a pair holding maths does)."""
    text = untied(text, style)
    if not has_latex(text):
        # Braces and the rest are the text's own here ("labels in {0, 1}").
        return _LETTER_SCRIPT.sub(lambda m: m[1] + style.script("_", m[2] or m[3]), text)
    text = (_MATH if dollars else _ABSTRACT_MATH).sub(r"\1", text)
    text = _FOOTNOTE.sub(r" (\1)", _HREF.sub(r"\2", text))
    text = _SYMBOL.sub(_symbol, text)
    for _ in range(8):  # nested groups, innermost first: RED^{\textrm{FM}}
        before = text
        text = _FRACTION.sub(r"\1/\2", text)
        text = _ROOT.sub(r"√\1", text)
        text = _FONT.sub(lambda m: style.tag(_FONT_COMMANDS[m[1]], _argument(m)), text)
        text = _SWITCH.sub(lambda m: style.tag(_SWITCHES[m[1]], m[2]), text)
        text = _SWITCH_COMMAND.sub(lambda m: style.tag(_SWITCHES[m[1]], m[2]), text)
        text = _LETTER_SCRIPT.sub(lambda m: f"{m[1]}_{{{m[2] or m[3]}}}", text)
        text = _SCRIPT.sub(_script(style), text)
        # Bare groups only once the commands are read: "\text{\emph{in-}}" lost its outer
        # braces with the inner command's turn and showed "\text<em>in-</em>".
        if text == before:
            text = _BRACES.sub(r"\1", text)
        if text == before:
            break
    text = _SIZE.sub("", _BARE_SWITCH.sub("", text))
    return _ESCAPED.sub(lambda m: m[1], text)


def plain_text(text: str) -> str:
    """The title as plain text: "\\texttt{ModSCAN}: …" → "ModSCAN: …", "\\inftyBench" → "∞Bench"."""
    return convert(text or "", PLAIN)
