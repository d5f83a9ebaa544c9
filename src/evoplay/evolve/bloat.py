"""Bloat control: static size and depth limits on offspring, and parsimony terms added to a fitness.

A limit is a separate, composable step (DEAP's ``staticLimit`` idea): breeding asks ``limit.accepts(child)``
and keeps a parent when the child is too big. Parsimony changes the fitness itself:

- seed 003 (run 2): ``max(1, 100 x score - nodes)``: score first, then fewer nodes, never below 1 so roulette
  selection still sees every program;
- seed 000 (Sevens): ``win ratio - 0.0004 x max(0, size - 20)``: the first 20 nodes are free.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evoplay.errors import ConfigError


@dataclass(frozen=True)
class SizeDepthLimit:
    """Offspring larger than ``max_size`` nodes or deeper than ``max_depth`` are refused (0 = no limit)."""

    max_size: int = 0
    max_depth: int = 0

    def __post_init__(self):
        if self.max_size < 0 or self.max_depth < 0:
            raise ConfigError(f"size/depth limits must be >= 0 (0 = unlimited), got {self.max_size}/{self.max_depth}")

    @property
    def active(self) -> bool:
        return bool(self.max_size or self.max_depth)

    def accepts(self, program) -> bool:
        if self.max_size and program.size > self.max_size:
            return False
        if self.max_depth and program.depth() > self.max_depth:
            return False
        return True

    def __call__(self, program) -> bool:
        return self.accepts(program)


def seed003_parsimony(score, size, factor: float = 100.0, floor: float = 1.0):
    """Seed 003's run-2 fitness: ``max(floor, factor x score - size)`` (arrays or numbers)."""
    return np.maximum(floor, factor * np.asarray(score, dtype=np.float64) - np.asarray(size, dtype=np.float64))


def seed000_parsimony(win_ratio, size, free: int = 20, coefficient: float = 0.0004):
    """Seed 000's Sevens fitness: ``win_ratio - coefficient x max(0, size - free)``."""
    return np.asarray(win_ratio, dtype=np.float64) - coefficient * np.maximum(0, np.asarray(size) - free)


PARSIMONY = ("none", "seed003", "seed000")


def apply_parsimony(kind: str, score, size, **params):
    """``kind`` 'none' (score unchanged), 'seed003' or 'seed000'."""
    if kind == "none":
        return np.asarray(score, dtype=np.float64)
    if kind == "seed003":
        return seed003_parsimony(score, size, **params)
    if kind == "seed000":
        return seed000_parsimony(score, size, **params)
    raise ConfigError(f"unknown parsimony '{kind}'; known: {', '.join(PARSIMONY)}")
