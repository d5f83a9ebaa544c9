"""The target-number game of seed 004 (Slagalica's "Moj broj", Countdown's numbers round): draws and rules.

A draw is six numbers and a target. In Moj broj the numbers are four from 1..9, one from {10, 15, 20} and one from
{25, 50, 75, 100}; in Countdown they are six of the 24 cards (1..10 twice, 25, 50, 75, 100) with 0..4 large ones.
The target is drawn from 100..999. An expression combines drawn numbers with + - * /, each drawn number at most
once, and every intermediate result and the result must be a positive integer. The closest value wins.

Expressions are trees (an int, or a tuple (op, left, right)); ``evaluate`` and ``format_expr`` read them under
the real rules. The exact solver is ``solver``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evoplay.errors import SpecError

SMALL = tuple(range(1, 10))
MEDIUM = (10, 15, 20)
LARGE = (25, 50, 75, 100)
COUNTDOWN_SMALL = tuple(n for n in range(1, 11) for _ in range(2))
COUNTDOWN_LARGE = (25, 50, 75, 100)
TARGET_RANGE = (100, 999)
MODES = ("mojbroj", "countdown")

# Operation codes shared by the solver, the GA and the parser: 0 is a number leaf.
NUMBER, ADD, SUB, MUL, DIV = 0, 1, 2, 3, 4
OP_SYMBOL = {ADD: "+", SUB: "-", MUL: "*", DIV: "/"}
SYMBOL_OP = {v: k for k, v in OP_SYMBOL.items()}
PRECEDENCE = {ADD: 1, SUB: 1, MUL: 2, DIV: 2}

# An expression tree: an int (a number's value) or a tuple (op, left, right).
Expr = "int | tuple[int, Expr, Expr]"


# --------------------------------------------------------------------------------------------------------------
# Draws.
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Six numbers and a target: one puzzle."""

    numbers: tuple[int, ...]
    target: int
    mode: str = "mojbroj"

    def __str__(self) -> str:
        return f"{' '.join(map(str, self.numbers))} -> {self.target}"


def draw_mojbroj(rng: np.random.Generator) -> Draw:
    """Moj broj: four numbers from 1..9, one of 10/15/20, one of 25/50/75/100, a target in 100..999."""
    small = [int(x) for x in rng.integers(1, 10, size=4)]
    numbers = tuple(small + [MEDIUM[int(rng.integers(3))], LARGE[int(rng.integers(4))]])
    return Draw(numbers, int(rng.integers(TARGET_RANGE[0], TARGET_RANGE[1] + 1)), "mojbroj")


def draw_countdown(rng: np.random.Generator, large: int | None = None) -> Draw:
    """Countdown: ``large`` cards (0..4, random when None) from 25/50/75/100, the rest from 1..10 twice each."""
    if large is None:
        large = int(rng.integers(0, 5))
    if not 0 <= large <= 4:
        raise SpecError(f"large={large}: a Countdown draw takes 0..4 large numbers")
    big = [COUNTDOWN_LARGE[i] for i in rng.choice(4, size=large, replace=False)]
    small = [COUNTDOWN_SMALL[i] for i in rng.choice(20, size=6 - large, replace=False)]
    return Draw(tuple(int(x) for x in big + small), int(rng.integers(TARGET_RANGE[0], TARGET_RANGE[1] + 1)), "countdown")


def make_draw(seed: int, mode: str = "mojbroj", large: int | None = None) -> Draw:
    """The draw of ``seed`` (reproducible): ``mode`` is ``mojbroj`` (the seed's game) or ``countdown``."""
    rng = np.random.default_rng(seed)
    if mode == "mojbroj":
        if large is not None:
            raise SpecError("--large applies to Countdown draws only (--mode countdown)")
        return draw_mojbroj(rng)
    if mode == "countdown":
        return draw_countdown(rng, large)
    raise SpecError(f"unknown draw mode '{mode}'; known: {', '.join(MODES)}")


def check_draw(numbers, target: int) -> tuple[tuple[int, ...], int]:
    """Validate a user's draw (1..6 positive numbers, a positive target); return it as ints."""
    numbers = tuple(int(n) for n in numbers)
    if not 1 <= len(numbers) <= 6:
        raise SpecError(f"a draw has 1 to 6 numbers, got {len(numbers)}")
    for n in numbers:
        if not 1 <= n <= 1000:
            raise SpecError(f"number {n}: the numbers of a draw are 1..1000")
    if not 1 <= int(target) <= 1_000_000:
        raise SpecError(f"target {target}: the target is a positive integer up to 1,000,000")
    return numbers, int(target)


# --------------------------------------------------------------------------------------------------------------
# Expressions under the real rules.
# --------------------------------------------------------------------------------------------------------------


def apply_op(op: int, a: int, b: int) -> int | None:
    """``a op b`` under the real rules, or None when the result is not a positive integer."""
    if op == ADD:
        return a + b
    if op == SUB:
        return a - b if a > b else None
    if op == MUL:
        return a * b
    if op == DIV:
        return a // b if b > 0 and a % b == 0 else None
    raise ValueError(f"unknown operation {op}")


def evaluate(expr) -> int | None:
    """Value of an expression tree under the real rules (every intermediate a positive integer), or None."""
    if isinstance(expr, int):
        return expr if expr > 0 else None
    op, left, right = expr
    a = evaluate(left)
    b = evaluate(right)
    if a is None or b is None:
        return None
    return apply_op(op, a, b)


def leaves(expr) -> list[int]:
    """The numbers an expression uses, left to right."""
    if isinstance(expr, int):
        return [expr]
    return leaves(expr[1]) + leaves(expr[2])


def uses_only(expr, numbers) -> bool:
    """Does ``expr`` use each drawn number at most as often as it was drawn?"""
    pool = list(numbers)
    for n in leaves(expr):
        if n not in pool:
            return False
        pool.remove(n)
    return True


def format_expr(expr) -> str:
    """The expression with the fewest brackets that keeps its meaning and its steps (``-`` and ``/`` group left)."""
    if isinstance(expr, int):
        return str(expr)
    op, left, right = expr
    p = PRECEDENCE[op]
    ls = format_expr(left)
    if not isinstance(left, int) and PRECEDENCE[left[0]] < p:
        ls = f"({ls})"
    rs = format_expr(right)
    # a right operand of equal precedence keeps its brackets, even under + or *: "a * (b / c)" is not
    # "a * b / c" under the rules (b / c must be exact on its own), nor "a + (b - c + d)" "a + b - c + d"
    if not isinstance(right, int) and PRECEDENCE[right[0]] <= p:
        rs = f"({rs})"
    return f"{ls} {OP_SYMBOL[op]} {rs}"
