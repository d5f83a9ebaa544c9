"""Simplification: constant folding and algebraic identities that keep a program's value on every input.

Rules (applied bottom-up until nothing changes): a subtree without features, ``value_at`` or ``random`` folds to
its value; ``x + 0``, ``0 + x``, ``x - 0``, ``x * 1``, ``1 * x``, ``x / 1`` -> x; ``x - x`` -> 0;
``min(x, x)``, ``max(x, x)`` -> x; ``neg(neg(x))`` -> x; ``value_at(c)`` -> ``value_at(c mod n)`` (with the
primitive set's row length n); ``if a < b`` with both sides constant, or equal sides,
or equal branches, -> the branch taken. Rules that would drop a subtree drawing ``random`` numbers are not used
(``x - x`` with random x is not 0). Values are kept exactly for finite inputs (``x * 0`` is not folded: it is
NaN for infinite x).
"""
from __future__ import annotations

from evoplay.gp.interpreter import reference_evaluate, reference_wrap_index
from evoplay.gp.program import deep_enough as _deep
from evoplay.gp.primitives import (
    ADD, CONST, DIV, EPHEMERAL, FEATURE, FIXED, IF_LT, MAX, MIN, MUL, NEG, RANDOM, SUB, VALUE_AT, PrimitiveSet,
)
from evoplay.gp.program import Program, from_tree, to_tree


def simplify(program: Program, pset: PrimitiveSet | None = None) -> Program:
    """A program with the same value on every input, usually smaller. Folded constants are ephemeral (mutable)
    when ``pset`` has ephemeral terminals, fixed otherwise."""
    _deep(program.size)
    kind = EPHEMERAL if pset is not None and any(t.kind == "ephemeral" for t in pset.terminals) else FIXED
    n = pset.n_features if pset is not None and pset.n_features > 0 else 0
    tree = to_tree(program)
    while True:
        new = _simplify(tree, kind, n)
        if new == tree:
            break
        tree = new
    return from_tree(tree)


def _is_const(node) -> bool:
    return node[0] == CONST


def _const(value: float, kind: int):
    return (CONST, kind, float(value), ())


def _pure(node) -> bool:
    """True when the subtree reads no input and draws no random number."""
    op, _, _, kids = node
    if op in (FEATURE, RANDOM, VALUE_AT):
        return False
    return all(_pure(k) for k in kids)


def _random_free(node) -> bool:
    op, _, _, kids = node
    return op != RANDOM and all(_random_free(k) for k in kids)


def _value(node) -> float:
    return reference_evaluate(from_tree(node), ())


#: x op e == x, and e op x == x: the identities the simplifier removes
RIGHT_IDENTITY = {ADD: 0.0, SUB: 0.0, MUL: 1.0, DIV: 1.0}
LEFT_IDENTITY = {ADD: 0.0, MUL: 1.0}


def _simplify(node, kind, n):
    op, arg, c, kids = node
    if not kids:
        return node
    kids = tuple(_simplify(k, kind, n) for k in kids)
    node = (op, arg, c, kids)
    if all(_is_const(k) for k in kids) and _pure(node):
        return _const(_value(node), kind)
    if op in RIGHT_IDENTITY:
        a, b = kids
        if _is_const(b) and b[2] == RIGHT_IDENTITY[op]:
            return a
        if op in LEFT_IDENTITY and _is_const(a) and a[2] == LEFT_IDENTITY[op]:
            return b
        if op == SUB and a == b and _random_free(a):
            return _const(0.0, kind)
    elif op in (MIN, MAX):
        a, b = kids
        if a == b and _random_free(a):
            return a
    elif op == VALUE_AT:
        (a,) = kids
        if n and _is_const(a) and a[2] != reference_wrap_index(a[2], n):
            return (VALUE_AT, arg, c, (_const(reference_wrap_index(a[2], n), a[1]),))
    elif op == NEG:
        (a,) = kids
        if a[0] == NEG:
            return a[3][0]
    elif op == IF_LT:
        a, b, x, y = kids
        if _is_const(a) and _is_const(b):
            taken, dropped = (x, y) if a[2] < b[2] else (y, x)
            if _random_free(dropped):
                return taken
        if a == b and _random_free(a) and _random_free(x):
            return y
        if x == y and _random_free(x) and _random_free(a) and _random_free(b):
            return x
    return node
