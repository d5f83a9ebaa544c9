"""Kalah's alpha-beta: the one alpha-beta of the games' own searches (``evoplay.search.alphabeta``, a Numba kernel
and the plain-Python reference it must match node for node) given Kalah's pits, sowing and leaves.

Minimax (not negamax) because an extra move keeps the same player on move; every sowing is a ply. A leaf (a
finished game, or a position at the depth horizon) is valued from the root player's side by the evaluation that
the arguments ``weights`` and ``program`` choose; the alpha-beta is compiled once per leaf (``MATERIAL``,
``WEIGHTS``, ``PROGRAM``), so no search pays for the evaluations it does not use:

- material (both None): the root player's store minus the opponent's: at a finished game the true final margin,
  at the horizon the current store difference;
- weights (``weights`` given, int64): ``search_weights``' evaluation, the weighted feature differences at the
  horizon and ``WIN`` plus the margin at a finished game;
- program (``program`` given): an evolved program (``evoplay.games.kalah.program_player``, policy ``kalah_search``) reads the
  row [the board in the root's view (``mover_view``), 1 if the root is to move else 0, the plies from the root]
  at the horizon; a finished game is worth ``WIN_SCALE`` x the final margin. In the kernels ``program`` is the
  tuple (opcodes, args, consts, start, end, row, stack) of the program and its scratch (``row`` exactly
  2*pits+4 numbers), handed untouched to ``program_leaf`` (a tuple of arrays unpacked or passed through an
  inlined function is reference counted at every leaf; one argument, not seven, keeps the recursive calls
  lean); in the reference a ``Program``. Values are float64 then, int64 otherwise.

Children are visited in pit order and only a strictly better value replaces the best, so ties go to the lowest
pit; at the root the first legal pit stands until a strictly better one comes (so a program valuing every
position NaN still moves).

A node budget (``nodes`` = [count, budget], material and weights leaves) cuts a search off: once the count
passes the budget no further child is searched, and the caller, seeing ``count > budget``, drops the search's
values. A deadline sets the budget to 0 from another thread while the kernel runs (``search(deadline=...)``).
Without a budget it is the largest int64, which no search reaches.
"""
from __future__ import annotations

import math

import numpy as np
from numba import boolean, float64, int32, int64, njit, types

from evoplay.games.base import TERMINAL
from evoplay.games.kalah import search_weights
from evoplay.games.kalah.game import reference_sow, sow
from evoplay.games.kalah.search_weights import margin, reference_margin
from evoplay.gp.interpreter import evaluate_with_stack, reference_evaluate
from evoplay.interrupt import NO_BUDGET
from evoplay.search import alphabeta

INF = 1 << 40
WIN_SCALE = 1e6  # a finished game's store margin x this, so a known result outweighs any program's leaf value
INTERRUPTIBLE_DEPTH = 12

# --------------------------------------------------------------------------------------------------------------
# Kalah's hooks: the rules tuple is (pits, empty_capture); a move is a pit of the mover's side.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def pit_count(rules):
    return rules[0]


@njit(cache=True, inline="always")
def has_seeds(board, player, pit, rules):
    """Is ``pit`` of ``player``'s side a legal move (not empty)?"""
    return board[(0 if player == 0 else rules[0] + 1) + pit] != 0


@njit(cache=True, inline="always")
def play(child, player, pit, rules, ply):
    """Sow ``pit``: (the next mover or TERMINAL, 0)."""
    return sow(child, player, pit, rules[0], rules[1]), 0


def reference_play(child, player: int, pit: int, rules, ply: int):
    return reference_sow(child, player, pit, rules[0], rules[1]), 0


def mover_view(board, player: int, pits: int) -> list[int]:
    """The board turned so ``player`` owns indices 0..pits-1 and the store at ``pits``."""
    b = [int(x) for x in board]
    return b if player == 0 else b[pits + 1:] + b[: pits + 1]


def reference_leaf(board, to_move: int, root: int, ply: int, pits: int, weights=None, program=None):
    """The value of a finished position (``to_move`` TERMINAL) or of one at the depth horizon ``ply`` plies below
    the root (see the module docstring)."""
    if program is not None:
        if to_move == TERMINAL:
            return WIN_SCALE * reference_margin(board, root, pits)
        row = [float(x) for x in mover_view(board, root, pits)] + [1.0 if to_move == root else 0.0, float(ply)]
        return reference_evaluate(program, row)
    if weights is None:
        return reference_margin(board, root, pits)
    return search_weights.reference_leaf(board, root, pits, weights, to_move == TERMINAL)


@njit(cache=True, inline="always")
def view_row(board, player, pits, row):
    """Kernel of ``mover_view``: writes the board turned to ``player`` into ``row[:2*pits+2]``."""
    size = 2 * pits + 2
    shift = 0 if player == 0 else pits + 1
    for i in range(size):
        j = i + shift
        if j >= size:
            j -= size
        row[i] = board[j]


@njit(cache=True, inline="always")
def material_leaf(board, to_move, outcome, root, ply, rules, leaf):
    """Kernel of ``reference_leaf`` with neither weights nor a program: the store difference."""
    return margin(board, root, rules[0])


@njit(cache=True, inline="always")
def weights_leaf(board, to_move, outcome, root, ply, rules, weights):
    """Kernel of ``reference_leaf`` with ``weights``."""
    return search_weights.leaf(board, root, rules[0], weights, to_move == TERMINAL)


@njit(cache=True)
def program_leaf(board, to_move, outcome, root, ply, rules, program):
    """Kernel of ``reference_leaf`` with a program (called, not inlined)."""
    pits = rules[0]
    if to_move == TERMINAL:
        return WIN_SCALE * np.float64(margin(board, root, pits))
    opcodes, args, consts, start, end, row, stack = program
    size = 2 * pits + 2
    view_row(board, root, pits, row)
    row[size] = 1.0 if to_move == root else 0.0
    row[size + 1] = ply
    return evaluate_with_stack(opcodes, args, consts, start, end, row, stack)


_RULES = types.Tuple((int64, boolean))
_PROGRAM = types.Tuple((int32[::1], int32[::1], float64[::1], int64, int64, float64[::1], float64[::1]))


def _hooks(name, leaf, reference, infinity, leaf_type, value_type=int64, nodes_type=int64[::1]):
    return alphabeta.Hooks(f"kalah_{name}", pit_count, has_seeds, play, leaf, reference_play, reference, infinity,
                           _RULES, leaf_type, value_type, nodes_type)


#: the alpha-beta's hooks per leaf; the program search counts no nodes (nothing reads them, and the array cost
#: reference counting at every node)
MATERIAL = _hooks("material", material_leaf, lambda b, t, o, r, p, rules, leaf: reference_leaf(b, t, r, p, rules[0]),
                  INF, types.none)
WEIGHTS = _hooks("weights", weights_leaf,
                 lambda b, t, o, r, p, rules, leaf: reference_leaf(b, t, r, p, rules[0], weights=leaf), INF, int64[::1])
PROGRAM = _hooks("program", program_leaf,
                 lambda b, t, o, r, p, rules, leaf: reference_leaf(b, t, r, p, rules[0], program=leaf), math.inf,
                 _PROGRAM, float64, types.none)
#: the material and weights searches from a position: (board, player, depth, (pits, empty_capture), weights or
#: None, exact_ties, values, boards) -> (first best pit, nodes) (``alphabeta.root_values``)
material_values = alphabeta.compiled(MATERIAL).root_values
weights_values = alphabeta.compiled(WEIGHTS).root_values
program_root = alphabeta.compiled(PROGRAM).search_root

# --------------------------------------------------------------------------------------------------------------
# The searches: reference and kernels.
# --------------------------------------------------------------------------------------------------------------


def reference_root_values(board, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool,
                          weights=None, program=None, budget: int = NO_BUDGET) -> tuple[list, int, int]:
    """The search in plain Python (``alphabeta.reference_root_values``): the values of the pits (minus infinity
    for the empty ones), the first best pit and the node count (past ``budget`` when the budget cut the search
    off)."""
    hooks, leaf = (PROGRAM, program) if program is not None else (MATERIAL, None) if weights is None else (WEIGHTS,
                                                                                                          weights)
    return alphabeta.reference_root_values(board, player, depth, (pits, empty_capture), leaf, hooks, exact_ties,
                                           budget)


@njit(cache=True)
def program_search(opcodes, args, consts, start, end, board, player, pits, empty_capture, depth, boards, row, stack):
    """The pit of the search with the program ``opcodes[start:end]`` at the leaves (``evoplay.games.kalah.program_player``'s
    ``kalah_search``): ``boards`` int8[:, ::1] of at least depth + 1 rows of 2*pits+2 scratch, ``row`` float64[::1]
    of exactly 2*pits+4, ``stack`` float64[::1] of at least ``end - start``."""
    values = np.empty(pits, np.float64)
    program = (opcodes, args, consts, np.int64(start), np.int64(end), row, stack)
    return program_root(board, player, depth, (pits, empty_capture), program, boards, None, values, False, None, None,
                        -1)


def search(board: np.ndarray, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool = False,
           weights=None, nodes: np.ndarray | None = None, deadline=None):
    """Run the material or weights kernel from a position: returns (values per pit, first best pit, nodes
    searched); ``nodes`` and ``deadline`` as ``alphabeta.search`` takes them."""
    leaf = None if weights is None else np.ascontiguousarray(weights, dtype=np.int64)
    # From depth 12 one search takes a quarter of a second or more: run it where Ctrl-C can stop the wait.
    rules = (int(pits), bool(empty_capture))
    return alphabeta.search(MATERIAL if leaf is None else WEIGHTS, board, player, depth, rules, leaf, exact_ties, nodes,
                            deadline, depth >= INTERRUPTIBLE_DEPTH)
