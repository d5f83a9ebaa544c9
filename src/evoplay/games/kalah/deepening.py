"""Iterative-deepening alpha-beta for Kalah under a node budget: as deep as a fixed number of nodes allows.

The search is the one alpha-beta's (``evoplay.search.minimax_kernel``, entered by ``minimax_game.deepen``) over
Kalah's own kernels (``search.kernels()``: every sowing a ply, an extra move keeps the mover) with the weights leaf
of ``search_weights`` (a finished game is worth ``WIN`` plus the margin), given what lets it go deeper for the same
nodes:

- a transposition table keyed by the position's hash (``search.k_hash``), kept for one move (every iteration of
  it), since values are seen from the root player: an entry searched at least as deep ends the search of a node
  when its value is exact or its bound falls outside the window, and its best pit is searched first otherwise;
- Kalah's move order (``search.k_order``): the table's pit, then the pits whose sowing ends in the mover's store
  (an extra move), then the others, each group from the pit nearest the store; at the root the pits best first by
  the previous iteration.

Only a strictly better value replaces the best, so ties go to the pit searched first. Iterations run at depth 1,
2, 3, ... After an iteration of ``n`` nodes (the root counted), the previous one having cost ``p``, the next is
predicted to cost ``n * n / p``; it runs only when the nodes spent so far plus that prediction stay within
``budget``. The search stops early when the result is proven (the best pit wins for sure, or every pit loses for
sure) or when an iteration valued no position on its horizon and took no value from the table but one of a subtree
searched to its end (the whole game below the root searched: a drawn end game too). A node budget, not a clock, makes the player the same on every machine. ``reference_search`` is its
plain-Python reference (``evoplay.search.minimax_own``), equal pit, depth and nodes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.kalah import search as search_kalah
from evoplay.games.kalah.search import INF  # noqa: F401 (the genome player's value of a pit not searched)
from evoplay.games.kalah.search import reference_leaf, reference_order, reference_state
from evoplay.games.kalah.search_weights import WIN
from evoplay.games.kernels import specialise
from evoplay.search import minimax_own

MAX_DEPTH = 64
PROVEN = WIN // 2  # a value beyond this is a finished game's

_deepen = specialise("evoplay.search.minimax_game", search_kalah.KERNELS).deepen


@njit(cache=True, nogil=True)
def deepen(board, player, pits, empty_capture, weights, budget, max_depth):
    """The weights leaf's iterative deepening (``minimax_game.deepen``) from (``board``, ``player``): (pit, depth,
    nodes)."""
    size = 2 * pits + 2
    position = np.empty(size + 1, np.int8)
    position[:size] = board[:size]
    position[size] = player
    params = np.array([pits, 1 if empty_capture else 0, 0], np.int64)
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    leaf = search_kalah._leaf(search_kalah.LEAF_WEIGHTS, weights, empty_i, empty_i, empty_f, 0)
    return _deepen(params, position, player, max_depth, leaf, budget, np.float64(PROVEN), pits, 2, size + 2)


def search(board, player: int, pits: int, empty_capture: bool, weights, budget: int,
           max_depth: int = MAX_DEPTH) -> tuple[int, int, int]:
    """Run the kernel from a position: (pit, depth of the last iteration, nodes spent)."""
    if not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth={max_depth}; use 1..{MAX_DEPTH}")
    pit, depth, nodes = deepen(np.ascontiguousarray(board, dtype=np.int8), int(player), int(pits),
                               bool(empty_capture), np.ascontiguousarray(weights, dtype=np.float64), int(budget),
                               int(max_depth))
    return int(pit), int(depth), int(nodes)


def reference_search(board, player: int, pits: int, empty_capture: bool, weights, budget: int,
                     max_depth: int = MAX_DEPTH) -> tuple[int, int, int]:
    """``search`` in plain Python: (pit, depth of the last iteration, nodes spent)."""
    weights = [int(w) for w in weights]
    return minimax_own.deepen(
        reference_state(board, player, pits, empty_capture), max_depth,
        lambda s, root, ply: reference_leaf(s._board, s.current_player(), root, ply, pits, weights), budget, PROVEN,
        key=lambda s: (s._board.tobytes(), s.current_player()),
        order=lambda s, actions, first: reference_order(s._board, s.current_player(), pits, first))
