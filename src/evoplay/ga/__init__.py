"""The genetic-algorithm engine: bit-string genomes of named integer fields, crossover and mutation.

It knows nothing about games: a recipe gives it a ``Schema`` and fitness values and gets genomes and their
decoded parameter records back.
"""
from evoplay.ga.operators import (
    CROSSOVERS,
    crossover,
    flip_mutation,
    one_point_crossover,
    two_point_crossover,
    uniform_crossover,
)
from evoplay.ga.schema import DEPTH_FIELD, GENOME_FORMAT, Field, Schema

__all__ = [
    "CROSSOVERS", "DEPTH_FIELD", "GENOME_FORMAT", "Field", "Schema", "crossover", "flip_mutation", "one_point_crossover",
    "two_point_crossover", "uniform_crossover",
]
