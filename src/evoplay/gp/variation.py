"""Genetic operations on programs: clone, subtree crossover, subtree / point / constant mutation.

Each operation is a plain function ``op(program, ..., rng) -> new Program`` that never changes its inputs
(DEAP's style without its deep copies: a prefix subtree is a slice, so a splice is three concatenations).
Size and depth limits are a separate step (``evoplay.evolve.bloat``), so any operator composes with any limit.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import SpecError
from evoplay.gp.generate import full, grow
from evoplay.gp.primitives import ARITY, FEATURE, RANDOM, PrimitiveSet
from evoplay.gp.program import Program


def clone(program: Program) -> Program:
    """An identical copy (seed 000's cloning)."""
    return program.copy()


def pick_node(program: Program, rng: np.random.Generator, internal_bias: float | None = None) -> int:
    """A node index: uniform over all nodes (the seeds' choice), or with ``internal_bias`` (Koza: 0.9) a
    function node with that probability when the tree has one."""
    if internal_bias is not None:
        internal = np.flatnonzero(ARITY[program.opcodes] > 0)
        if len(internal):
            if rng.random() < internal_bias:
                return int(internal[rng.integers(len(internal))])
            leaves = np.flatnonzero(ARITY[program.opcodes] == 0)
            return int(leaves[rng.integers(len(leaves))])
    return int(rng.integers(program.size))


def crossover(receiver: Program, donor: Program, rng: np.random.Generator,
              internal_bias: float | None = None) -> Program:
    """Subtree crossover (seed 003): a random subtree of ``donor`` replaces a random subtree of ``receiver``."""
    i = pick_node(receiver, rng, internal_bias)
    j = pick_node(donor, rng, internal_bias)
    return receiver.replace(i, donor.subtree(j))


def crossover_pair(a: Program, b: Program, rng: np.random.Generator,
                   internal_bias: float | None = None) -> tuple[Program, Program]:
    """Both children of one subtree swap."""
    i = pick_node(a, rng, internal_bias)
    j = pick_node(b, rng, internal_bias)
    return a.replace(i, b.subtree(j)), b.replace(j, a.subtree(i))


def subtree_mutation(program: Program, pset: PrimitiveSet, rng: np.random.Generator, max_depth: int = 2,
                     method: str = "grow", keep_node: bool = False) -> Program:
    """Replace a random node's subtree by a new random tree of depth at most ``max_depth`` (seed 000: 2).

    With ``keep_node`` (seed 003's wording: "a node is selected; all its child nodes are deleted and new
    children are created for it") a chosen function node keeps its operation and each child is regrown with
    depth at most ``max_depth - 1``; a chosen leaf is replaced by a new tree.
    """
    if max_depth < 0:
        raise SpecError(f"subtree mutation max_depth={max_depth} must be >= 0")
    if method not in ("grow", "full"):
        raise SpecError(f"subtree mutation method '{method}': use grow or full")
    i = int(rng.integers(program.size))
    op = int(program.opcodes[i])
    if keep_node and ARITY[op] > 0 and max_depth >= 1:
        parts = [Program([op], [program.args[i]], [program.consts[i]], check=False)]
        for _ in range(int(ARITY[op])):
            parts.append(_new_tree(pset, rng, max_depth - 1, method))
        sub = Program(np.concatenate([p.opcodes for p in parts]), np.concatenate([p.args for p in parts]),
                      np.concatenate([p.consts for p in parts]), check=False)
    else:
        sub = _new_tree(pset, rng, max_depth, method)
    return program.replace(i, sub)


def _new_tree(pset, rng, max_depth, method):
    return grow(pset, rng, max_depth) if method == "grow" else full(pset, rng, max_depth)


def point_mutation(program: Program, pset: PrimitiveSet, rng: np.random.Generator, rate: float | None = None
                   ) -> Program:
    """Replace node(s) by another primitive of the same arity: one random node, or each node with probability
    ``rate``. A leaf becomes a new terminal (an ephemeral draws a fresh value)."""
    pset.validate()
    out = program.copy()
    if rate is None:
        chosen = [int(rng.integers(program.size))]
    else:
        if not 0.0 <= rate <= 1.0:
            raise SpecError(f"point mutation rate={rate} must be in [0, 1]")
        chosen = np.flatnonzero(rng.random(program.size) < rate).tolist()
    by_arity: dict[int, list[int]] = {}
    for op in pset.function_opcodes:
        by_arity.setdefault(int(ARITY[op]), []).append(op)
    for i in chosen:
        a = int(ARITY[out.opcodes[i]])
        if a == 0:
            op, arg, c = pset.terminal_node(int(rng.integers(len(pset.terminals))), rng)
            out.opcodes[i], out.args[i], out.consts[i] = op, arg, c
        else:
            same = by_arity.get(a, [])
            if same:
                out.opcodes[i] = same[int(rng.integers(len(same)))]
    return out


def constant_mutation(program: Program, rng: np.random.Generator, all_constants: bool = False) -> Program:
    """Seed 000's constant update: an ephemeral constant's magnitude is multiplied by ``2**u`` with u uniform
    in [-1, 1] (a factor between 0.5 and 2, drawn exponentially); its sign never changes. One random ephemeral
    constant, or every one with ``all_constants``; a program without ephemerals is returned unchanged."""
    out = program.copy()
    idx = out.mutable_constants()
    if len(idx) == 0:
        return out
    if not all_constants:
        idx = idx[[int(rng.integers(len(idx)))]]
    out.consts[idx] = out.consts[idx] * np.exp2(rng.uniform(-1.0, 1.0, len(idx)))
    return out


def has_randomness(program: Program) -> bool:
    return program.uses(RANDOM)


def reads_features(program: Program) -> bool:
    return program.uses(FEATURE)


__all__ = [
    "clone", "constant_mutation", "crossover", "crossover_pair", "pick_node", "point_mutation", "subtree_mutation",
]
