"""Programs as text: seed 003's notation, ``((9) - (8)) + (value at [(3)])``, printed and parsed back.

Every child is wrapped in parentheses; binary arithmetic is infix (``(a) + (b)``), ``if (a) < (b) do (c) else
do (d)``, ``value at [(a)]``, and the other functions are ``min [(a), (b)]``, ``max [...]``, ``neg [(a)]``,
``abs [(a)]``. Leaves print as numbers, feature names or ``random``. The seed printed its Figure-5 programs with
one more pair of parentheses around the whole program; the parser accepts both.
"""
from __future__ import annotations

import re

from evoplay.errors import SpecError
from evoplay.gp.primitives import (
    ABS, ADD, CONST, DIV, EPHEMERAL, FEATURE, FIXED, FUNCTIONS, IF_LT, MAX, MIN, MUL, NEG, NOTATION, RANDOM, SUB,
    VALUE_AT, PrimitiveSet,
)
from evoplay.gp.program import Program, from_tree, render
from evoplay.gp.program import deep_enough as _deep


def format_number(c: float) -> str:
    if float(c).is_integer() and abs(c) < 1e15:
        return str(int(c))
    return repr(float(c))


def to_notation(program: Program, pset: PrimitiveSet | None = None, wrap: bool = False) -> str:
    """The program in seed 003's notation (``wrap`` adds the outer parentheses of the seed's Figure 5)."""
    text = render(program, format_number, lambda i: pset.feature_name(i) if pset is not None else f"f{i}", "random",
                  lambda op, kids: NOTATION[op].format(*(f"({k})" for k in kids)))
    return f"({text})" if wrap else text


_TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)|(?P<word>[A-Za-z_][A-Za-z_0-9]*)"
                    r"|(?P<sym>[()\[\],<+\-*/]))")
_BINARY = {"+": ADD, "-": SUB, "*": MUL, "/": DIV}
_BRACKETED = {"min": MIN, "max": MAX, "neg": NEG, "abs": ABS}


def parse_notation(text: str, pset: PrimitiveSet | None = None) -> Program:
    """Parse seed-003 notation back into a program. Numbers become fixed constants (ephemeral when ``pset``
    has ephemeral terminals and the number is not one of its fixed constants); names are ``pset``'s features
    (or ``f<index>``) and ``random``."""
    tokens = _tokenize(text)
    pos = 0
    fixed = set()
    has_ephemeral = False
    if pset is not None:
        fixed = {t.value for t in pset.terminals if t.kind == "const"}
        has_ephemeral = any(t.kind == "ephemeral" for t in pset.terminals)

    def peek(k: int = 0):
        return tokens[pos + k] if pos + k < len(tokens) else ("end", "")

    def expect(value: str):
        nonlocal pos
        kind, v = peek()
        if v != value:
            raise SpecError(f"program text: expected '{value}' but found '{v or 'the end'}' at token {pos + 1} "
                            f"of {text[:60]!r}...")
        pos += 1

    def wrapped():
        expect("(")
        node = expr()
        expect(")")
        return node

    def primary():
        nonlocal pos
        kind, v = peek()
        if v == "(":
            return wrapped()
        if kind == "word" and v == "if":
            pos += 1
            a = wrapped()
            expect("<")
            b = wrapped()
            expect("do")
            c = wrapped()
            expect("else")
            expect("do")
            d = wrapped()
            return (IF_LT, 0, 0.0, (a, b, c, d))
        if kind == "word" and v == "value" and peek(1)[1] == "at":
            pos += 2
            expect("[")
            a = wrapped()
            expect("]")
            return (VALUE_AT, 0, 0.0, (a,))
        if kind == "word" and v in _BRACKETED and peek(1)[1] == "[":
            op = _BRACKETED[v]
            pos += 2
            kids = [wrapped()]
            if op in (MIN, MAX):
                expect(",")
                kids.append(wrapped())
            expect("]")
            return (op, 0, 0.0, tuple(kids))
        if kind == "num":
            pos += 1
            c = float(v)
            eph = EPHEMERAL if has_ephemeral and c not in fixed else FIXED
            return (CONST, eph, c, ())
        if kind == "word":
            pos += 1
            if v == "random":
                return (RANDOM, 0, 0.0, ())
            index = pset.feature_index(v) if pset is not None else None
            if index is None and re.fullmatch(r"f\d+", v):
                index = int(v[1:])
            if index is None:
                known = [t.name for t in pset.terminals if t.kind == "feature"] if pset is not None else []
                raise SpecError(f"program text: unknown name '{v}'; known: random, "
                                + (", ".join(known) if known else "f0, f1, ... (feature indices)"))
            return (FEATURE, index, 0.0, ())
        raise SpecError(f"program text: unexpected '{v or 'end of text'}' at token {pos + 1}")

    def expr():
        nonlocal pos
        left = primary()
        kind, v = peek()
        if kind == "sym" and v in _BINARY:
            pos += 1
            right = wrapped()
            return (_BINARY[v], 0, 0.0, (left, right))
        return left

    _deep(len(tokens))
    tree = expr()
    if pos != len(tokens):
        raise SpecError(f"program text: unexpected '{tokens[pos][1]}' after the program (token {pos + 1})")
    program = from_tree(tree)
    if pset is not None:
        _check_against(program, pset)
    return program


def _check_against(program: Program, pset: PrimitiveSet) -> None:
    allowed = set(pset.function_opcodes)
    names = {v: k for k, v in FUNCTIONS.items()}
    for op in set(program.opcodes.tolist()):
        if op in names and op not in allowed:
            raise SpecError(f"program uses '{names[op]}', which primitive set '{pset.name}' does not have "
                            f"(its functions: {', '.join(pset.functions)})")


def _tokenize(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    i = 0
    s = text.strip()
    while i < len(s):
        m = _TOKEN.match(s, i)
        if not m or m.end() == i:
            if s[i:].strip() == "":
                break
            raise SpecError(f"program text: cannot read {s[i:i + 20]!r} at character {i + 1}")
        kind = m.lastgroup
        value = m.group(kind)
        # '-' right after ')' is subtraction, not a sign: "(9) -(8)" never occurs but "(9) - (8)" must split.
        if kind == "num" and value.startswith("-") and out and out[-1][1] in (")", "]"):
            out.append(("sym", "-"))
            value = value[1:]
        out.append((kind, value))
        i = m.end()
        while i < len(s) and s[i].isspace():
            i += 1
    return out
