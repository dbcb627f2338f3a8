"""A tsquery's text as a tree, and that tree evaluated over its words' matches as packed bits
(papers/word_memory.py): what a query means, apart from where its words' matches come from."""

import re

import numpy as np

# tsquery's text: operands (a quoted word, a quote in it doubled), "!", "&", "|", "<->" or
# "<N>" (a phrase), parentheses. A prefix (:*) or weights (:A) are never written by
# websearch_to_tsquery and are not read here.
_TOKEN = re.compile(r"\s*(?:('(?:[^'\\]|'')+')|(<->|<\d+>|[()!&|]))")
_BINARY = {"|": "or", "&": "and"}


def parse_query(query: str):
    """The tree of a tsquery's text: ("word", operand), ("not", x), ("and" | "or" | "phrase",
    x, y); None for an empty query or one this parser does not read."""
    tokens, position = [], 0
    while position < len(query.rstrip()):
        match = _TOKEN.match(query, position)
        if match is None:
            return None
        tokens.append(("word", match[1]) if match[1] else (match[2], None))
        position = match.end()
    if not tokens:
        return None
    tree, rest = _either(tokens)
    return tree if tree is not None and not rest else None


def _either(tokens):
    """An "or" of "and"s (lowest precedence); (tree or None, the tokens left)."""
    return _joined(tokens, "|", _all)


def _all(tokens):
    return _joined(tokens, "&", _phrase)


def _joined(tokens, operator: str, operand):
    tree, tokens = operand(tokens)
    while tree is not None and tokens and tokens[0][0] == operator:
        right, tokens = operand(tokens[1:])
        tree = (_BINARY[operator], tree, right) if right is not None else None
    return tree, tokens


def _phrase(tokens):
    tree, tokens = _unary(tokens)
    while tree is not None and tokens and tokens[0][0].startswith("<"):
        right, tokens = _unary(tokens[1:])
        tree = ("phrase", tree, right) if right is not None else None
        # "!a <-> b" is not "!a and b" in PostgreSQL (websearch_to_tsquery never writes it).
        if tree is not None and _negates(tree):
            tree = None
    return tree, tokens


def _negates(tree) -> bool:
    return tree[0] == "not" or (tree[0] != "word" and any(_negates(part) for part in tree[1:]))


def _unary(tokens):
    if not tokens:
        return None, tokens
    kind, operand = tokens[0]
    if kind == "word":
        return ("word", operand), tokens[1:]
    if kind == "!":
        inner, rest = _unary(tokens[1:])
        return (("not", inner) if inner is not None else None), rest
    if kind == "(":
        inner, rest = _either(tokens[1:])
        if inner is None or not rest or rest[0][0] != ")":
            return None, tokens
        return inner, rest[1:]
    return None, tokens


def operands(tree) -> list[str]:
    """The tree's words (tsquery operands), each once, in order."""
    if tree[0] == "word":
        return [tree[1]]
    return list(dict.fromkeys(word for part in tree[1:] for word in operands(part)))


def wanted_operands(tree) -> list[str]:
    """The tree's words (tsquery operands) that a match may have, each once, in order: all but
    those under a "not"."""
    if tree[0] == "word":
        return [tree[1]]
    if tree[0] == "not":
        return []
    return list(dict.fromkeys(word for part in tree[1:] for word in wanted_operands(part)))


def conjuncts(tree) -> list:
    """The parts of which a match must have every one: the operands of the tree's top "and"s
    (the tree itself when it is not an "and")."""
    if tree[0] != "and":
        return [tree]
    return [part for branch in tree[1:] for part in conjuncts(branch)]


def exact(tree) -> bool:
    """Whether bits match the tree exactly: it has no phrase."""
    return tree[0] == "word" or (tree[0] != "phrase" and all(exact(part) for part in tree[1:]))


def evaluate(tree, bits: dict):
    """(superset, subset) of the tree's matches, as packed bits, from each word's packed bits:
    equal for a tree without a phrase; a phrase's subset is empty (positions unknown)."""
    kind = tree[0]
    if kind == "word":
        return bits[tree[1]], bits[tree[1]]
    if kind == "not":
        superset, subset = evaluate(tree[1], bits)
        return ~subset, ~superset
    (left, left_subset), (right, right_subset) = (evaluate(part, bits) for part in tree[1:])
    if kind == "or":
        return left | right, left_subset | right_subset
    if kind == "and":
        return left & right, left_subset & right_subset
    return left & right, np.zeros_like(left)
