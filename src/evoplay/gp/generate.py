"""Random programs: Koza's grow and full methods and ramped half-and-half, with depth limits.

Depth counts edges from the root (a lone terminal has depth 0). ``grow`` picks each node uniformly among all
primitive entries (functions and terminals alike; an integer range 0..13 is fourteen entries) until the depth
limit forces terminals; ``full`` uses functions down to the limit and terminals exactly there.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import SpecError
from evoplay.gp.primitives import ARITY, FUNCTIONS, PrimitiveSet
from evoplay.gp.program import Program

METHODS = ("grow", "full", "ramped")


def grow(pset: PrimitiveSet, rng: np.random.Generator, max_depth: int, min_depth: int = 0,
         function_probability: float | None = None) -> Program:
    """A tree no deeper than ``max_depth``; above ``min_depth`` only functions are chosen. Between the two a
    node is a function with ``function_probability`` (default: functions' share of all primitive entries)."""
    return _build(pset, rng, max_depth, min_depth, full=False, p_function=function_probability)


def full(pset: PrimitiveSet, rng: np.random.Generator, depth: int) -> Program:
    """A tree whose every leaf is at exactly ``depth`` (functions above it)."""
    return _build(pset, rng, depth, depth, full=True)


def ramped(pset: PrimitiveSet, rng: np.random.Generator, n: int, min_depth: int, max_depth: int) -> list[Program]:
    """Ramped half-and-half: ``n`` programs, depths cycling min_depth..max_depth, alternately grow and full."""
    _check_depths(min_depth, max_depth)
    out = []
    span = max_depth - min_depth + 1
    for k in range(n):
        d = min_depth + (k // 2) % span
        out.append(grow(pset, rng, d, min(d, 1)) if k % 2 == 0 else full(pset, rng, d))
    return out


def population(pset: PrimitiveSet, rng: np.random.Generator, n: int, method: str = "ramped", min_depth: int = 1,
               max_depth: int = 6, function_probability: float | None = None) -> list[Program]:
    """``n`` new programs by ``method`` ('grow', 'full' or 'ramped'); grow trees have at least ``min_depth``."""
    _check_depths(min_depth, max_depth)
    if method == "grow":
        return [grow(pset, rng, max_depth, min_depth, function_probability) for _ in range(n)]
    if method == "full":
        return [full(pset, rng, int(rng.integers(min_depth, max_depth + 1))) for _ in range(n)]
    if method == "ramped":
        return ramped(pset, rng, n, min_depth, max_depth)
    raise SpecError(f"unknown generation method '{method}'; known: {', '.join(METHODS)}")


def _check_depths(min_depth: int, max_depth: int) -> None:
    if not (0 <= min_depth <= max_depth <= 64):
        raise SpecError(f"depths {min_depth}..{max_depth}: use 0 <= min_depth <= max_depth <= 64")


def _build(pset: PrimitiveSet, rng: np.random.Generator, max_depth: int, min_depth: int, full: bool,
           p_function: float | None = None) -> Program:
    pset.validate()
    if p_function is not None and not 0.0 <= p_function <= 1.0:
        raise SpecError(f"function_probability={p_function} must be in [0, 1]")
    if max_depth < 0:
        raise SpecError(f"max_depth={max_depth} must be >= 0")
    funcs = pset.function_opcodes
    n_terms = len(pset.terminals)
    n_funcs = len(funcs)
    if not funcs:
        min_depth = 0
        full = False
    ops: list[int] = []
    args: list[int] = []
    consts: list[float] = []
    todo = [0]  # depths of the nodes still to create, in prefix order (a stack)
    while todo:
        d = todo.pop()
        if d >= max_depth or not funcs:
            use_function = False
        elif d < min_depth or full:
            use_function = True
        else:
            use_function = (rng.integers(n_funcs + n_terms) < n_funcs if p_function is None
                            else rng.random() < p_function)
        if use_function:
            op = funcs[int(rng.integers(n_funcs))]
            ops.append(op)
            args.append(0)
            consts.append(0.0)
            todo.extend([d + 1] * int(ARITY[op]))
        else:
            op, arg, c = pset.terminal_node(int(rng.integers(n_terms)), rng)
            ops.append(op)
            args.append(arg)
            consts.append(c)
    return Program(ops, args, consts, check=False)


__all__ = ["METHODS", "FUNCTIONS", "full", "grow", "population", "ramped"]
