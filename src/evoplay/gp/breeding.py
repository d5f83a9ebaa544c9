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
from evoplay.gp.variation import clone, constant_mutation, crossover, subtree_mutation

SEED000_SPLITS = {"clone": 0.10, "constant": 0.45, "subtree": 0.225, "crossover": 0.225}
OPERATIONS = ("clone", "constant", "subtree", "crossover", "point")


def split_counts(n: int, splits: dict[str, float]) -> dict[str, int]:
    """How many of ``n`` offspring each operation makes: shares rounded by largest remainder to sum to ``n``."""
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


def split_breed(ranked: Sequence[Program], pset: PrimitiveSet, rng: np.random.Generator,
                splits: dict[str, float] | None = None, mutation_depth: int = 2) -> list[Program]:
    """Seed 000's plan on a population sorted best first: operation O is applied to ``ranked[0..count_O)``.

    Crossover's donor is drawn uniformly from the same best ``count_O``; ``point`` is also accepted as a share.
    """
    splits = SEED000_SPLITS if splits is None else splits
    unknown = set(splits) - set(OPERATIONS)
    if unknown:
        raise SpecError(f"unknown split operation(s) {sorted(unknown)}; known: {', '.join(OPERATIONS)}")
    counts = split_counts(len(ranked), splits)
    out: list[Program] = []
    for op, count in counts.items():
        for i in range(count):
            src = ranked[i]
            if op == "clone":
                out.append(clone(src))
            elif op == "constant":
                out.append(constant_mutation(src, rng))
            elif op == "subtree":
                out.append(subtree_mutation(src, pset, rng, mutation_depth))
            elif op == "crossover":
                out.append(crossover(src, ranked[int(rng.integers(count))], rng))
            else:
                from evoplay.gp.variation import point_mutation

                out.append(point_mutation(src, pset, rng))
    return out


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
