"""Breeding plans: seed 000's sorted split plan and seed 003's Koza generational step.

Seed 000 sorts the population by fitness and, for each operation O with share ``split_O`` (10 % clone, 45 %
constant mutation, 22.5 % subtree mutation, 22.5 % crossover), emits ``O(population[i])`` for the best
``split_O * N`` individuals. Seed 003 keeps the best program (elitism) and fills the rest by fitness-proportional
selection, 90 % crossover, 0.5 % mutation. Selection itself is passed in (``select(k) -> indices``), so these
plans work with any scheme (``evoplay.evolve.selection``).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from evoplay.errors import SpecError
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import Program
from evoplay.gp.variation import clone, constant_mutation, crossover, point_mutation, subtree_mutation

SEED000_SPLITS = {"clone": 0.10, "constant": 0.45, "subtree": 0.225, "crossover": 0.225}
OPERATIONS = ("clone", "constant", "subtree", "crossover", "point")
# Seed 000's own names for the operations (the Sevens recipe's config keys).
ALIASES = {"constant_mutation": "constant", "tree_mutation": "subtree"}


def split_counts(n: int, splits: dict[str, float]) -> dict[str, int]:
    """How many of ``n`` offspring each operation makes: shares rounded by largest remainder to sum to ``n``
    (a remainder tie goes to the operation named first)."""
    if not splits:
        raise SpecError("a split plan needs at least one operation share")
    total = sum(splits.values())
    if any(v < 0 for v in splits.values()) or abs(total - 1.0) > 1e-6:
        raise SpecError(f"split shares must be >= 0 and add up to 1, got {splits} (sum {total:g})")
    raw = {k: v * n for k, v in splits.items()}
    counts = {k: int(np.floor(v)) for k, v in raw.items()}
    rest = n - sum(counts.values())
    for k in sorted(raw, key=lambda k: (counts[k] - raw[k], list(raw).index(k)))[:rest]:
        counts[k] += 1
    return counts


Specimen = Program | tuple[Program, ...]


def split_breed(ranked: Sequence[Specimen], pset: PrimitiveSet, rng: np.random.Generator,
                splits: dict[str, float] | None = None, mutation_depth: int = 2) -> list[Specimen]:
    """Seed 000's plan on a population sorted best first: operation O is applied to ``ranked[0..count_O)``,
    the operations in the order ``splits`` names them.

    An individual is a program or a tuple of programs (seed 000's play and send trees). A tuple changes in one
    tree per operation: constant mutation picks the tree with probability proportional to its mutable
    constants (a specimen without any is cloned), subtree mutation and crossover pick a tree uniformly, and
    crossover's donor -- drawn uniformly from the same best ``count_O`` before the tree is picked -- gives the
    same tree. ``point`` is also accepted as a share; ``constant_mutation`` and ``tree_mutation`` are the
    seed's names for ``constant`` and ``subtree``.
    """
    splits = SEED000_SPLITS if splits is None else splits
    unknown = {k for k in splits if ALIASES.get(k, k) not in OPERATIONS}
    if unknown:
        raise SpecError(f"unknown split operation(s) {sorted(unknown)}; known: {', '.join(OPERATIONS + tuple(ALIASES))}")
    counts = split_counts(len(ranked), splits)
    out: list[Specimen] = []
    for name, count in counts.items():
        op = ALIASES.get(name, name)
        for i in range(count):
            src = ranked[i]
            if isinstance(src, Program):
                out.append(_vary(op, src, ranked[int(rng.integers(count))] if op == "crossover" else None,
                                 pset, rng, mutation_depth))
            else:
                out.append(_vary_one_tree(op, tuple(src), ranked, count, pset, rng, mutation_depth))
    return out


def _vary(op: str, program: Program, donor: Program | None, pset: PrimitiveSet, rng: np.random.Generator,
          mutation_depth: int) -> Program:
    if op == "clone":
        return clone(program)
    if op == "constant":
        return constant_mutation(program, rng)
    if op == "subtree":
        return subtree_mutation(program, pset, rng, mutation_depth)
    if op == "crossover":
        return crossover(program, donor, rng)
    return point_mutation(program, pset, rng)


def _vary_one_tree(op: str, trees: tuple[Program, ...], ranked, count: int, pset: PrimitiveSet,
                   rng: np.random.Generator, mutation_depth: int) -> tuple[Program, ...]:
    out = [t.copy() for t in trees]
    if op == "clone":
        return tuple(out)
    donor = None
    if op == "constant":
        sizes = [len(t.mutable_constants()) for t in trees]
        if sum(sizes) == 0:
            return tuple(out)
        k = int(np.searchsorted(np.cumsum(sizes), int(rng.integers(sum(sizes))), side="right"))
    else:
        if op == "crossover":
            donor = ranked[int(rng.integers(count))]
        k = int(rng.integers(len(trees)))
    out[k] = _vary(op, trees[k], donor[k] if donor is not None else None, pset, rng, mutation_depth)
    return tuple(out)


def koza_breed(population: Sequence[Program], fitness: np.ndarray, pset: PrimitiveSet, rng: np.random.Generator,
               select: Callable[[np.ndarray, int, np.random.Generator], np.ndarray], crossover_rate: float = 0.9,
               mutation_rate: float = 0.005, mutation_depth: int = 20, elites: int = 1,
               keep_node: bool = True, accept: Callable[[Program], bool] | None = None) -> list[Program]:
    """Seed 003's generation: the ``elites`` best are copied; every other child is a selected program that
    takes a subtree from a second selected program with ``crossover_rate`` and is then mutated with
    ``mutation_rate`` (children regrown, at most ``mutation_depth`` deep). ``select(fitness, k, rng)`` returns
    k indices. A child failing ``accept`` (a size or depth limit) is replaced by a copy of its first parent."""
    n = len(population)
    fitness = np.asarray(fitness, dtype=np.float64)
    if len(fitness) != n:
        raise SpecError(f"{len(fitness)} fitness values for {n} programs")
    order = np.argsort(-fitness, kind="stable")
    out = [population[int(i)].copy() for i in order[:elites]]
    need = n - len(out)
    parents = select(fitness, need, rng)
    donors = select(fitness, need, rng)
    for p, d in zip(parents, donors):
        parent = population[int(p)]
        child = parent
        if rng.random() < crossover_rate:
            child = crossover(child, population[int(d)], rng)
        if rng.random() < mutation_rate:
            child = subtree_mutation(child, pset, rng, mutation_depth, keep_node=keep_node)
        if accept is not None and child is not parent and not accept(child):
            child = parent
        out.append(child.copy() if child is parent else child)
    return out
