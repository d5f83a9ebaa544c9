"""Export a program as Python or Lua source that computes the same value as the interpreter.

The generated function takes the feature row (``features[0]`` is index 0 in Python; a Lua table is 1-based, so
``features[1]`` is index 0) and returns a number. Helpers for protected division, ``value_at``'s wrap-around
and ``if_lt`` are emitted only when the program uses them. A program using ``random`` calls the language's
generator (``random.random()``, ``math.random()``), so its values match the interpreter in distribution only.
"""
from __future__ import annotations

from evoplay.errors import SpecError
from evoplay.gp.notation import format_number
from evoplay.gp.primitives import (
    ABS, ADD, DIV, DIV_EPSILON, IF_LT, INDEX_LIMIT, MAX, MIN, MUL, NEG, SUB, VALUE_AT, PrimitiveSet,
)
from evoplay.gp.program import Program, render

LANGUAGES = ("python", "lua")


# How each function is written in each language; {0}, {1}... are the children's expressions.
_PYTHON_OPS = {
    ADD: "({0} + {1})", SUB: "({0} - {1})", MUL: "({0} * {1})", DIV: "_div({0}, {1})", MIN: "_min({0}, {1})",
    MAX: "_max({0}, {1})", NEG: "(-{0})", ABS: "abs({0})", IF_LT: "_if_lt({0}, {1}, {2}, {3})",
    VALUE_AT: "features[_wrap({0})]",
}
_LUA_OPS = {
    ADD: "({0} + {1})", SUB: "({0} - {1})", MUL: "({0} * {1})", DIV: "div({0}, {1})", MIN: "min2({0}, {1})",
    MAX: "max2({0}, {1})", NEG: "(-{0})", ABS: "math.abs({0})", IF_LT: "if_lt({0}, {1}, {2}, {3})",
    VALUE_AT: "features[wrap({0}) + 1]",
}


def _expression(program: Program, ops: dict, first_index: int, random_call: str) -> str:
    """The program as one expression over ``features`` (indexed from ``first_index``); ``ops`` writes the
    functions."""

    def call(op: int, kids: list[str]) -> str:
        if op not in ops:
            raise SpecError(f"cannot export opcode {op}")
        return ops[op].format(*kids)

    return render(program, _number, lambda i: f"features[{i + first_index}]", random_call, call)


def _helpers(n: int, lang: str) -> dict[int, list[str]]:
    """Source lines of the helper function each opcode needs, in ``lang`` (``n``: the row's length)."""
    if lang == "python":
        return {
            DIV: ["", "def _div(a, b):", f"    return a / b if abs(b) >= {DIV_EPSILON!r} else 1.0", ""],
            MIN: ["", "def _min(a, b):", "    return a if a < b else b", ""],
            MAX: ["", "def _max(a, b):", "    return a if a > b else b", ""],
            IF_LT: ["", "def _if_lt(a, b, c, d):", "    return c if a < b else d", ""],
            VALUE_AT: ["", "def _wrap(x):", f"    if not abs(x) < {INDEX_LIMIT!r}:", "        return 0",
                       f"    return math.floor(x) % {n}", ""],
        }
    return {
        DIV: ["local function div(a, b)", f"  if math.abs(b) >= {DIV_EPSILON!r} then return a / b end",
              "  return 1.0", "end"],
        MIN: ["local function min2(a, b)", "  if a < b then return a end", "  return b", "end"],
        MAX: ["local function max2(a, b)", "  if a > b then return a end", "  return b", "end"],
        IF_LT: ["local function if_lt(a, b, c, d)", "  if a < b then return c end", "  return d", "end"],
        VALUE_AT: ["local function wrap(x)", f"  if not (math.abs(x) < {INDEX_LIMIT!r}) then return 0 end",
                   f"  return math.floor(x) % {n}", "end"],
    }


def _used_helpers(program: Program, n: int, lang: str) -> list[str]:
    """The helper functions ``program`` calls, in a fixed order."""
    used = set(program.opcodes.tolist())
    return [line for op, lines in _helpers(n, lang).items() if op in used for line in lines]


def to_python(program: Program, pset: PrimitiveSet, name: str = "program", doc: str = "") -> str:
    """Python source of ``def <name>(features) -> float``."""
    n = pset.n_features
    body = _expression(program, _PYTHON_OPS, 0, "random.random()")
    lines = [f'"""{doc or "An evolved evoplay program."}"""', "import math", "import random", ""]
    lines += _used_helpers(program, n, "python")
    lines += ["", f"def {name}(features):",
              f'    """The program\'s value on a row of {n} feature numbers."""', f"    return {body}", ""]
    return "\n".join(lines)


def to_lua(program: Program, pset: PrimitiveSet, name: str = "program", doc: str = "") -> str:
    """Lua source of ``local function <name>(features)`` (features is a 1-based table), returned by the chunk."""
    n = pset.n_features
    body = _expression(program, _LUA_OPS, 1, "math.random()")
    lines = [f"-- {doc or 'An evolved evoplay program.'}"]
    lines += _used_helpers(program, n, "lua")
    lines += [f"-- features[1..{n}]: the row of {n} numbers the program reads (index i in evoplay is i + 1)",
              f"local function {name}(features)", f"  return {body}", "end", f"return {name}", ""]
    return "\n".join(lines)


def export(program: Program, pset: PrimitiveSet, lang: str, name: str = "program", doc: str = "") -> str:
    if lang == "python":
        return to_python(program, pset, name, doc)
    if lang == "lua":
        return to_lua(program, pset, name, doc)
    raise SpecError(f"unknown export language '{lang}'; known: {', '.join(LANGUAGES)}")


def _number(c: float) -> str:
    """A constant as a float literal both languages read the same way (negative ones in brackets)."""
    text = format_number(c)
    if "." not in text and "e" not in text:
        text += ".0"
    return f"({text})" if text.startswith("-") else text
