"""The GP interpreter: one Numba kernel that evaluates any program, callable from other kernels, and its reference.

Every function here except ``reference_evaluate`` is ``@njit(cache=True)``, so a game's own kernel (a whole
game played in Numba, a Sevens hand, a Mancala match) calls them directly. Argument types:

- ``opcodes``: int32[::1], ``args``: int32[::1], ``consts``: float64[::1] -- one program or a packed pool
  (``evoplay.gp.pack``); the program is the slice ``[start, end)``.
- ``features``: float64[::1] (one row) or float64[:, ::1] (a matrix, one row per candidate: e.g. every legal
  move of a position).
- ``stack``: float64[::1] scratch of at least ``end - start`` numbers (``evaluate`` allocates its own).

The stack scan runs from the last node to the first: leaves push, a function pops its children (its first child
is on top) and pushes its value. Every node is evaluated, including both branches of ``if_lt``, so a program
draws the same count of ``random`` numbers whatever its inputs.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from evoplay.gp.primitives import (
    ABS, ADD, CONST, DIV, DIV_EPSILON, FEATURE, IF_LT, INDEX_LIMIT, MIN, MUL, NEG, RANDOM, SUB, VALUE_AT,
)


@njit(cache=True, inline="always")
def wrap_index(x, n):
    """``floor(x) mod n`` (never negative); 0 for a value that is NaN, infinite or beyond 2**53."""
    if not (abs(x) < INDEX_LIMIT):
        return 0
    k = np.int64(math.floor(x)) % n
    if k < 0:
        k += n
    return k


@njit(cache=True)
def evaluate_with_stack(opcodes, args, consts, start, end, features, stack):
    """Value of program ``[start, end)`` on one feature row, using ``stack`` as scratch (no allocation)."""
    n = features.shape[0]
    sp = 0
    for i in range(end - 1, start - 1, -1):
        op = opcodes[i]
        if op == CONST:
            stack[sp] = consts[i]
            sp += 1
        elif op == FEATURE:
            stack[sp] = features[args[i]]
            sp += 1
        elif op == RANDOM:
            stack[sp] = np.random.random()
            sp += 1
        elif op == VALUE_AT:
            stack[sp - 1] = features[wrap_index(stack[sp - 1], n)]
        elif op == NEG:
            stack[sp - 1] = -stack[sp - 1]
        elif op == ABS:
            stack[sp - 1] = abs(stack[sp - 1])
        elif op == IF_LT:
            a = stack[sp - 1]
            b = stack[sp - 2]
            if a < b:
                stack[sp - 4] = stack[sp - 3]
            sp -= 3
        else:
            a = stack[sp - 1]
            b = stack[sp - 2]
            sp -= 1
            if op == ADD:
                stack[sp - 1] = a + b
            elif op == SUB:
                stack[sp - 1] = a - b
            elif op == MUL:
                stack[sp - 1] = a * b
            elif op == DIV:
                stack[sp - 1] = a / b if abs(b) >= DIV_EPSILON else 1.0
            elif op == MIN:
                stack[sp - 1] = a if a < b else b
            else:  # MAX
                stack[sp - 1] = a if a > b else b
    return stack[0]


@njit(cache=True)
def evaluate(opcodes, args, consts, start, end, features):
    """Value (float64) of program ``[start, end)`` on one feature row (float64[::1])."""
    stack = np.empty(end - start, np.float64)
    return evaluate_with_stack(opcodes, args, consts, start, end, features, stack)


@njit(cache=True)
def evaluate_rows(opcodes, args, consts, start, end, features, out):
    """One program on every row of ``features`` (float64[:, ::1]): ``out[r]`` = its value on row r.

    The batched form: score all legal moves of a position (one row per move) in one call.
    """
    stack = np.empty(end - start, np.float64)
    for r in range(features.shape[0]):
        out[r] = evaluate_with_stack(opcodes, args, consts, start, end, features[r], stack)


def reference_best_row(program, rows) -> int:
    """The readable rule ``best_row`` runs: the first row of the highest value, NaN ranking as -inf."""
    values = [reference_evaluate(program, [float(x) for x in row]) for row in rows]
    values = [-math.inf if v != v else v for v in values]
    return values.index(max(values))


@njit(cache=True)
def best_row(opcodes, args, consts, start, end, features, stack):
    """Index of the row with the highest value (the first on ties): the move a program picks among
    candidates. A NaN value ranks as -inf in every row, so a number always beats it and all-NaN rows give row 0.
    ``stack`` is scratch of at least ``end - start`` numbers."""
    best = 0
    best_value = -np.inf
    for r in range(features.shape[0]):
        v = evaluate_with_stack(opcodes, args, consts, start, end, features[r], stack)
        if v != v:
            v = -np.inf
        if v > best_value or r == 0:
            best = r
            best_value = v
    return best


@njit(cache=True)
def evaluate_pool(opcodes, args, consts, starts, ends, features, out):
    """Every program k of a packed pool on every row r: ``out[k, r]`` (out: float64[:, ::1])."""
    longest = 1
    for k in range(starts.shape[0]):
        if ends[k] - starts[k] > longest:
            longest = ends[k] - starts[k]
    stack = np.empty(longest, np.float64)
    for k in range(starts.shape[0]):
        for r in range(features.shape[0]):
            out[k, r] = evaluate_with_stack(opcodes, args, consts, starts[k], ends[k], features[r], stack)


@njit(cache=True)
def seed_random(seed):
    """Seed Numba's generator behind the ``random`` terminal (per thread/process; call inside your kernel's
    process before evaluating programs that use ``random``)."""
    np.random.seed(seed)


# --------------------------------------------------------------------------------------------------------------
# Reference: the plain-Python meaning of a program, recursive over the prefix arrays.
# --------------------------------------------------------------------------------------------------------------


def reference_evaluate(program, features, draw=None) -> float:
    """Evaluate ``program`` (a Program) on a sequence of numbers in plain Python. ``draw()`` supplies the
    ``random`` terminal's values in the interpreter's order (from the last node to the first)."""
    ops, args, consts = program.opcodes, program.args, program.consts
    n = len(features)
    randoms: dict[int, float] = {}
    if draw is not None:
        for i in range(len(ops) - 1, -1, -1):
            if ops[i] == RANDOM:
                randoms[i] = float(draw())

    def node(i: int) -> tuple[float, int]:
        op = int(ops[i])
        if op == CONST:
            return float(consts[i]), i + 1
        if op == FEATURE:
            return float(features[int(args[i])]), i + 1
        if op == RANDOM:
            if draw is None:
                raise ValueError("program uses 'random'; pass draw=")
            return randoms[i], i + 1
        a, j = node(i + 1)
        if op == VALUE_AT:
            return float(features[reference_wrap_index(a, n)]), j
        if op == NEG:
            return -a, j
        if op == ABS:
            return abs(a), j
        b, j = node(j)
        if op == IF_LT:
            c, j = node(j)
            d, j = node(j)
            return (c if a < b else d), j
        if op == ADD:
            return a + b, j
        if op == SUB:
            return a - b, j
        if op == MUL:
            return a * b, j
        if op == DIV:
            return (a / b if abs(b) >= DIV_EPSILON else 1.0), j
        if op == MIN:
            return (a if a < b else b), j
        return (a if a > b else b), j

    return node(0)[0]


def reference_wrap_index(x: float, n: int) -> int:
    if not abs(x) < INDEX_LIMIT:
        return 0
    return math.floor(x) % n


def program_value(program, features) -> float:
    """Convenience: the interpreter's value of one Program on one row (any sequence of numbers)."""
    row = np.ascontiguousarray(features, dtype=np.float64)
    return float(evaluate(program.opcodes, program.args, program.consts, 0, program.size, row))


def program_values(program, rows) -> np.ndarray:
    """Convenience: the interpreter's values of one Program on each row of a 2-D array."""
    m = np.ascontiguousarray(rows, dtype=np.float64)
    out = np.empty(m.shape[0], np.float64)
    evaluate_rows(program.opcodes, program.args, program.consts, 0, program.size, m, out)
    return out
