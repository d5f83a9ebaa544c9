"""Parent selection: fitness-proportional (roulette wheel), tournament, and elitism."""
from __future__ import annotations

import numpy as np

from evoplay.errors import ConfigError
from evoplay.spec import suggest


def roulette(fitness, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` indices drawn with replacement, each with probability fitness / sum(fitness) (Holland; seed 003).

    Fitness must be non-negative; when it sums to zero every individual is equally likely.
    """
    f = np.asarray(fitness, dtype=np.float64)
    if f.ndim != 1 or len(f) == 0:
        raise ConfigError("roulette selection needs a non-empty 1-D fitness array")
    if (f < 0).any() or not np.isfinite(f).all():
        raise ConfigError("roulette selection needs finite, non-negative fitness; shift or clip it first")
    total = f.sum()
    if total <= 0:
        return rng.integers(0, len(f), size=k)
    return rng.choice(len(f), size=k, replace=True, p=f / total)


def tournament(fitness, k: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` winners of tournaments among ``size`` individuals drawn uniformly with replacement (ties: first)."""
    f = np.asarray(fitness, dtype=np.float64)
    if size < 1:
        raise ConfigError(f"tournament size {size}: use at least 1")
    entrants = rng.integers(0, len(f), size=(k, size))
    winners = np.argmax(f[entrants], axis=1)
    return entrants[np.arange(k), winners]


def elite(fitness, k: int) -> np.ndarray:
    """Indices of the ``k`` fittest, best first (ties keep the earlier index first)."""
    f = np.asarray(fitness, dtype=np.float64)
    return np.argsort(-f, kind="stable")[:k]


def select(kind: str, fitness, k: int, rng: np.random.Generator, tournament_size: int = 7) -> np.ndarray:
    """``k`` parents by ``kind``: "roulette" or "tournament" (of ``tournament_size``)."""
    if kind == "roulette":
        return roulette(fitness, k, rng)
    return tournament(fitness, k, tournament_size, rng)


SELECTIONS = ("roulette", "tournament")


def select_parents(fitness, count: int, rng: np.random.Generator, method: str = "roulette",
                   tournament_size: int = 2, distinct: bool = True) -> np.ndarray:
    """``count`` pairs of parent indices, a (count, 2) array.

    ``roulette`` draws each parent with probability proportional to its fitness (which must be non-negative;
    all zero means uniform), ``tournament`` takes the fittest of ``tournament_size`` drawn uniformly. With
    ``distinct`` the two parents of a child are different individuals whenever there are two or more
    (the second is redrawn from the others); a single candidate is paired with itself.
    """
    f = np.asarray(fitness, dtype=np.float64)
    if f.ndim != 1 or len(f) == 0:
        raise ConfigError("parent selection needs at least one candidate")
    if method not in SELECTIONS:
        raise ConfigError(f"unknown selection '{method}'{suggest(method, SELECTIONS)}; known: {', '.join(SELECTIONS)}")

    def draw(candidates: np.ndarray, k: int) -> np.ndarray:
        sub = f[candidates]
        if method == "roulette":
            picked = roulette(sub, k, rng)
        else:
            picked = tournament(sub, k, tournament_size, rng)
        return candidates[np.asarray(picked, dtype=np.int64)]

    everyone = np.arange(len(f))
    pairs = np.empty((count, 2), dtype=np.int64)
    for i in range(count):
        first = int(draw(everyone, 1)[0])
        if distinct and len(f) > 1:
            second = int(draw(everyone[everyone != first], 1)[0])
        else:
            second = int(draw(everyone, 1)[0])
        pairs[i] = (first, second)
    return pairs
