"""The genetic-algorithm engine: bit-string genomes of named integer fields, crossover, mutation, selection.

It knows nothing about games: a recipe gives it a ``Schema`` and fitness values and gets genomes and their
decoded parameter records back.
"""
from evoplay.ga.operators import (
    CROSSOVERS,
    SELECTIONS,
    crossover,
    flip_mutation,
    one_point_crossover,
    select_parents,
    two_point_crossover,
    uniform_crossover,
)
from evoplay.ga.schema import Field, Schema

__all__ = [
    "CROSSOVERS", "SELECTIONS", "Field", "Schema", "crossover", "flip_mutation", "one_point_crossover",
    "select_parents", "two_point_crossover", "uniform_crossover",
]
