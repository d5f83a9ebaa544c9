"""Genetic programming: primitive sets, flat prefix programs, one Numba interpreter, generation and variation.

Defining a primitive set (every call validates and raises SpecError with what would be right)::

    from evoplay import gp
    pset = gp.PrimitiveSet("sevens", n_features=5)          # rows of 5 numbers per candidate card
    pset.add_functions("add", "mul", "sub", "min", "max")    # built-in operations of the interpreter
    pset.add_feature("rank", 0)                              # terminal reading features[0] ...
    pset.add_feature("suit_count", 1)
    pset.add_random()                                        # a uniform [0, 1) number per evaluation
    pset.add_ephemeral("c", -1.0, 1.0)                       # ephemeral random constants (mutable)
    kalah = gp.kalah_primitive_set()                         # the Mancala GP's: if_lt, add, sub, value_at, 0..13

Operations known to the interpreter (``gp.FUNCTIONS``): add, sub, mul, div (protected), min, max, neg, abs,
if_lt (4 children: c if a < b else d), value_at (1 child: features[floor(a) mod n]).

Programs (``gp.Program``) are three equal-length arrays in prefix order: ``opcodes`` int32, ``args`` int32
(the feature index of a ``feature`` leaf; 0/1 = fixed/ephemeral for a ``const``), ``consts`` float64.
Make them with ``gp.grow / gp.full / gp.ramped / gp.population``, change them with ``gp.crossover``,
``gp.subtree_mutation``, ``gp.point_mutation``, ``gp.constant_mutation`` (seed 000: magnitude x 2**U(-1,1),
sign kept), ``gp.clone``; breed with ``gp.split_breed`` (seed 000) or ``gp.koza_breed`` (seed 003). Print with
``gp.to_notation`` (seed 003's ``((9) - (8)) + (value at [(3)])``), parse with ``gp.parse_notation``,
simplify with ``gp.simplify``, export with ``gp.to_python`` / ``gp.to_lua``. Store with ``program.to_dict()``
/ ``gp.Program.from_dict`` and ``pset.to_dict()`` / ``gp.PrimitiveSet.from_dict``.

Evaluating inside your own Numba kernel (no per-tree compilation; all are ``@njit(cache=True)``)::

    from numba import njit
    from evoplay.gp import interpreter as gpi

    @njit(cache=True)
    def choose_card(opcodes, args, consts, start, end, features, stack):
        # features: float64[:, ::1], one row per legal card; stack: float64[::1] of >= end - start numbers
        return gpi.best_row(opcodes, args, consts, start, end, features, stack)

    ops, args, consts, starts, ends = gp.pack(programs)      # a whole population as one pool

Kernel functions in ``evoplay.gp.interpreter`` (opcodes/args int32[::1], consts float64[::1]):

- ``evaluate(opcodes, args, consts, start, end, row) -> float64``: program ``[start, end)`` on one
  float64[::1] row (allocates its stack);
- ``evaluate_with_stack(opcodes, args, consts, start, end, row, stack) -> float64``: the same without
  allocation (``stack``: float64[::1] of at least ``end - start``);
- ``evaluate_rows(opcodes, args, consts, start, end, rows, out)``: every row of a float64[:, ::1] matrix
  (all legal moves of a position at once) into ``out[r]``;
- ``best_row(opcodes, args, consts, start, end, rows, stack) -> int64``: the row with the highest value
  (first on ties; NaN ranks as -inf in every row);
- ``evaluate_pool(opcodes, args, consts, starts, ends, rows, out)``: every program of a packed pool on every
  row, ``out[k, r]``;
- ``seed_random(seed)``: seed the generator behind ``random`` (Numba's, per process).

``reference_evaluate(program, row, draw=None)`` is the plain-Python meaning the kernels are tested against.
"""
from evoplay.gp.breeding import SEED000_SPLITS, koza_breed, split_breed, split_counts
from evoplay.gp.export import LANGUAGES, export, to_lua, to_python
from evoplay.gp.generate import full, grow, population, ramped
from evoplay.gp.interpreter import (
    best_row, evaluate, evaluate_pool, evaluate_rows, evaluate_with_stack, program_value, program_values,
    reference_evaluate, seed_random,
)
from evoplay.gp.notation import parse_notation, to_notation
from evoplay.gp.primitives import ARITY, FUNCTIONS, PrimitiveSet, kalah_primitive_set, seed003_primitive_set
from evoplay.gp.program import Program, pack, unpack
from evoplay.gp.simplify import simplify
from evoplay.gp.variation import (
    clone, constant_mutation, crossover, crossover_pair, pick_node, point_mutation, subtree_mutation,
)

__all__ = [
    "ARITY", "FUNCTIONS", "LANGUAGES", "SEED000_SPLITS", "PrimitiveSet", "Program", "best_row", "clone",
    "constant_mutation", "crossover", "crossover_pair", "evaluate", "evaluate_pool", "evaluate_rows",
    "evaluate_with_stack", "export", "full", "grow", "koza_breed", "pack", "parse_notation", "pick_node",
    "point_mutation", "population", "program_value", "program_values", "ramped", "reference_evaluate",
    "kalah_primitive_set", "seed003_primitive_set", "seed_random", "simplify", "split_breed", "split_counts",
    "subtree_mutation",
    "to_lua", "to_notation", "to_python", "unpack",
]
