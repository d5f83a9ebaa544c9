"""Variation on bit-string genomes: crossovers and per-bit flip mutation (parent selection, which a GP run shares,
is evoplay.evolve.selection's ``select_parents``).

Each operator is a plain function over uint8 arrays of 0/1 and a ``numpy.random.Generator`` (DEAP's layout:
``cx*`` and ``mut*`` are composed by the caller). Uniform crossover and flip mutation are seed 001's operators
(each bit from either parent with probability 1/2; every bit flips with probability 0.01); one- and two-point
crossover (Holland; De Jong) are the usual alternatives.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from evoplay.errors import ConfigError


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=np.uint8)
    b = np.asarray(b, dtype=np.uint8)
    if a.shape != b.shape or a.ndim != 1:
        raise ConfigError(f"crossover needs two genomes of the same length; got shapes {a.shape} and {b.shape}")
    return a, b


def uniform_crossover(a, b, rng: np.random.Generator) -> np.ndarray:
    """A child whose every bit comes from ``a`` or ``b`` with probability 1/2 each (seed 001's Figure 4)."""
    a, b = _pair(a, b)
    take_b = rng.random(a.shape[0]) < 0.5
    return np.where(take_b, b, a).astype(np.uint8)


def one_point_crossover(a, b, rng: np.random.Generator) -> np.ndarray:
    """``a`` up to a cut point drawn uniformly in 1..length-1, ``b`` after it."""
    a, b = _pair(a, b)
    if len(a) < 2:
        return a.copy()
    cut = int(rng.integers(1, len(a)))
    return np.concatenate([a[:cut], b[cut:]])


def two_point_crossover(a, b, rng: np.random.Generator) -> np.ndarray:
    """``a`` with the segment between two distinct cut points (1..length-1) taken from ``b``."""
    a, b = _pair(a, b)
    if len(a) < 3:
        return one_point_crossover(a, b, rng)
    lo, hi = np.sort(rng.choice(np.arange(1, len(a)), size=2, replace=False))
    child = a.copy()
    child[lo:hi] = b[lo:hi]
    return child


CROSSOVERS: dict[str, Callable] = {
    "uniform": uniform_crossover,
    "one_point": one_point_crossover,
    "two_point": two_point_crossover,
}


def crossover(name: str) -> Callable:
    """The crossover operator called ``name``: uniform, one_point or two_point."""
    if name not in CROSSOVERS:
        from evoplay.spec import suggest

        raise ConfigError(f"unknown crossover '{name}'{suggest(name, CROSSOVERS)}; known: {', '.join(CROSSOVERS)}")
    return CROSSOVERS[name]


def flip_mutation(population, rate: float, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Flip every bit independently with probability ``rate`` (seed 001's Figure 5).

    Works on one genome or a (genomes, length) array; returns the mutated copy and the number of flips.
    """
    if not 0.0 <= rate <= 1.0:
        raise ConfigError(f"mutation rate {rate!r} is a probability per bit; use 0..1 (seed 001: 0.01)")
    pop = np.asarray(population, dtype=np.uint8)
    flips = rng.random(pop.shape) < rate
    return (pop ^ flips.astype(np.uint8)), int(flips.sum())
