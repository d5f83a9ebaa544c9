"""Export a program as Python or Lua source that computes the same value as the interpreter.

The generated function takes the feature row (``features[0]`` is index 0 in Python; a Lua table is 1-based, so
``features[1]`` is index 0) and returns a number. Helpers for protected division, ``value_at``'s wrap-around
and ``if_lt`` are emitted only when the program uses them. A program using ``random`` calls the language's
generator (``random.random()``, ``math.random()``), so its values match the interpreter in distribution only.
"""
from __future__ import annotations

from evoplay.errors import SpecError
from evoplay.gp.notation import _deep, format_number
from evoplay.gp.primitives import (
    ABS, ADD, CONST, DIV, DIV_EPSILON, FEATURE, IF_LT, INDEX_LIMIT, MAX, MIN, MUL, NEG, RANDOM, SUB, VALUE_AT,
    PrimitiveSet,
)
from evoplay.gp.program import Program, to_tree

LANGUAGES = ("python", "lua")


def to_python(program: Program, pset: PrimitiveSet, name: str = "program", doc: str = "") -> str:
    """Python source of ``def <name>(features) -> float``."""
    _deep(program.size)
    used = set(program.opcodes.tolist())
    n = pset.n_features

    def ex(node) -> str:
        op, arg, c, kids = node
        if op == CONST:
            return _py_number(c)
        if op == FEATURE:
            return f"features[{arg}]"
        if op == RANDOM:
            return "random.random()"
        k = [ex(x) for x in kids]
        if op == ADD:
            return f"({k[0]} + {k[1]})"
        if op == SUB:
            return f"({k[0]} - {k[1]})"
        if op == MUL:
            return f"({k[0]} * {k[1]})"
        if op == DIV:
            return f"_div({k[0]}, {k[1]})"
        if op == MIN:
            return f"_min({k[0]}, {k[1]})"
        if op == MAX:
            return f"_max({k[0]}, {k[1]})"
        if op == NEG:
            return f"(-{k[0]})"
        if op == ABS:
            return f"abs({k[0]})"
        if op == IF_LT:
            return f"_if_lt({k[0]}, {k[1]}, {k[2]}, {k[3]})"
        if op == VALUE_AT:
            return f"features[_wrap({k[0]})]"
        raise SpecError(f"cannot export opcode {op}")

    body = ex(to_tree(program))
    lines = [f'"""{doc or "An evolved evoplay program."}"""', "import math", "import random", ""]
    if DIV in used:
        lines += ["", "def _div(a, b):", f"    return a / b if abs(b) >= {DIV_EPSILON!r} else 1.0", ""]
    if MIN in used:
        lines += ["", "def _min(a, b):", "    return a if a < b else b", ""]
    if MAX in used:
        lines += ["", "def _max(a, b):", "    return a if a > b else b", ""]
    if IF_LT in used:
        lines += ["", "def _if_lt(a, b, c, d):", "    return c if a < b else d", ""]
    if VALUE_AT in used:
        lines += ["", "def _wrap(x):", f"    if not abs(x) < {INDEX_LIMIT!r}:", "        return 0",
                  f"    return math.floor(x) % {n}", ""]
    lines += ["", f"def {name}(features):",
              f'    """The program\'s value on a row of {n} feature numbers."""', f"    return {body}", ""]
    return "\n".join(lines)


def to_lua(program: Program, pset: PrimitiveSet, name: str = "program", doc: str = "") -> str:
    """Lua source of ``local function <name>(features)`` (features is a 1-based table), returned by the chunk."""
    _deep(program.size)
    used = set(program.opcodes.tolist())
    n = pset.n_features

    def ex(node) -> str:
        op, arg, c, kids = node
        if op == CONST:
            return _lua_number(c)
        if op == FEATURE:
            return f"features[{arg + 1}]"
        if op == RANDOM:
            return "math.random()"
        k = [ex(x) for x in kids]
        if op == ADD:
            return f"({k[0]} + {k[1]})"
        if op == SUB:
            return f"({k[0]} - {k[1]})"
        if op == MUL:
            return f"({k[0]} * {k[1]})"
        if op == DIV:
            return f"div({k[0]}, {k[1]})"
        if op == MIN:
            return f"min2({k[0]}, {k[1]})"
        if op == MAX:
            return f"max2({k[0]}, {k[1]})"
        if op == NEG:
            return f"(-{k[0]})"
        if op == ABS:
            return f"math.abs({k[0]})"
        if op == IF_LT:
            return f"if_lt({k[0]}, {k[1]}, {k[2]}, {k[3]})"
        if op == VALUE_AT:
            return f"features[wrap({k[0]}) + 1]"
        raise SpecError(f"cannot export opcode {op}")

    body = ex(to_tree(program))
    lines = [f"-- {doc or 'An evolved evoplay program.'}"]
    if DIV in used:
        lines += ["local function div(a, b)", f"  if math.abs(b) >= {DIV_EPSILON!r} then return a / b end",
                  "  return 1.0", "end"]
    if MIN in used:
        lines += ["local function min2(a, b)", "  if a < b then return a end", "  return b", "end"]
    if MAX in used:
        lines += ["local function max2(a, b)", "  if a > b then return a end", "  return b", "end"]
    if IF_LT in used:
        lines += ["local function if_lt(a, b, c, d)", "  if a < b then return c end", "  return d", "end"]
    if VALUE_AT in used:
        lines += ["local function wrap(x)", f"  if not (math.abs(x) < {INDEX_LIMIT!r}) then return 0 end",
                  f"  return math.floor(x) % {n}", "end"]
    lines += [f"-- features[1..{n}]: the row of {n} numbers the program reads (index i in evoplay is i + 1)",
              f"local function {name}(features)", f"  return {body}", "end", f"return {name}", ""]
    return "\n".join(lines)


def export(program: Program, pset: PrimitiveSet, lang: str, name: str = "program", doc: str = "") -> str:
    if lang == "python":
        return to_python(program, pset, name, doc)
    if lang == "lua":
        return to_lua(program, pset, name, doc)
    raise SpecError(f"unknown export language '{lang}'; known: {', '.join(LANGUAGES)}")


def _py_number(c: float) -> str:
    text = format_number(c)
    if "." not in text and "e" not in text:
        text += ".0"
    return f"({text})" if text.startswith("-") else text


def _lua_number(c: float) -> str:
    text = format_number(c)
    if "." not in text and "e" not in text:
        text += ".0"
    return f"({text})" if text.startswith("-") else text
