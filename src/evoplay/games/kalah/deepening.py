"""Iterative-deepening alpha-beta for Kalah under a node budget: as deep as a fixed number of nodes allows.

The search is ``search``'s: the one alpha-beta of ``evoplay.search.alphabeta`` over Kalah's pits and sowing (every
sowing a ply, an extra move keeps the mover) with the weights leaf of ``search_weights`` (a finished game is worth
``WIN`` plus the margin), given what lets it go deeper for the same nodes:

- a transposition table of ``TT_SIZE`` entries (Zobrist keys of the board and the player to move, one entry a
  slot, always replaced): an entry searched at least as deep ends the search of a node when its value is exact
  or its bound falls outside the window, and its best pit is searched first otherwise; the table lives for one
  move (every iteration of it), since values are seen from the root player;
- move ordering: the table's pit, then the pits whose sowing ends in the mover's store (an extra move), then the
  others, each group from the pit nearest the store; at the root the previous iteration's best pit first.

Only a strictly better value replaces the best, so ties go to the pit searched first. Iterations run at depth 1,
2, 3, ... After an iteration of ``n`` nodes, the previous one having cost ``p``, the next is predicted to cost
``n * n / p``; it runs only when the nodes spent so far plus that prediction stay within ``budget``. The search
stops early when the result is proven (the best pit wins for sure, or every pit loses for sure) or when an
iteration evaluated no position at its horizon and took nothing from the table (the whole game below the root
was searched). A node budget, not a clock, makes the player the same on every machine.
"""
from __future__ import annotations

import numpy as np
from numba import boolean, int8, int64, njit, types

from evoplay.games.kalah.search import INF, WEIGHTS, has_seeds, pit_count, play, reference_play, weights_leaf
from evoplay.games.kalah.search_weights import WIN
from evoplay.games.kernels import specialise
from evoplay.games.kalah import search as search_kalah
from evoplay.interrupt import NO_BUDGET
from evoplay.search import alphabeta

MAX_DEPTH = 64
PROVEN = WIN // 2  # a value beyond this is a finished game's
TT_BITS = 14
TT_SIZE = 1 << TT_BITS
# Zobrist keys: one per (cell, seeds) of a board of up to 42 cells and 127 seeds, and one for the second player.
ZOBRIST = np.random.default_rng(15_2026).integers(1, 1 << 62, size=(43, 128), dtype=np.int64)
SECOND_TO_MOVE = 42
NODES, HORIZON, HITS = alphabeta.NODES, alphabeta.HORIZON, alphabeta.HITS  # the counters of one iteration


# --------------------------------------------------------------------------------------------------------------
# The table's key and the move order: the hooks this search adds to Kalah's (rules: pits, empty_capture, ZOBRIST).
# --------------------------------------------------------------------------------------------------------------


def reference_key(board, player: int, rules=None) -> int:
    key = 0
    for cell, seeds in enumerate(board):
        key ^= int(ZOBRIST[cell, seeds])
    if player == 1:
        key ^= int(ZOBRIST[SECOND_TO_MOVE, 0])
    return key


def reference_order(board, player: int, rules, first: int = -1) -> list[int]:
    """The legal pits of ``player`` in search order: ``first`` (when legal), then extra moves, then the others,
    each group from the store's end."""
    pits = rules[0]
    base = 0 if player == 0 else pits + 1
    cycle = 2 * pits + 1
    extra, other = [], []
    for pit in range(pits - 1, -1, -1):
        seeds = board[base + pit]
        if seeds == 0:
            continue
        (extra if seeds % cycle == (pits - pit) % cycle else other).append(pit)
    order = extra + other
    if first in order:
        order.remove(first)
        order.insert(0, first)
    return order


@njit(cache=True, inline="always")
def board_key(board, player, rules):
    """Kernel of ``reference_key`` (the keys are the rules' third entry: an argument, as a global constant they
    halved the search's speed)."""
    key = np.int64(0)
    zobrist = rules[2]
    for cell in range(board.shape[0]):
        key ^= zobrist[cell, board[cell]]
    if player == 1:
        key ^= zobrist[SECOND_TO_MOVE, 0]
    return key


@njit(cache=True, inline="always")
def order(board, player, rules, first, out):
    """Kernel of ``reference_order``: writes the pits into ``out`` (2 * pits long), returns how many."""
    pits = rules[0]
    base = 0 if player == 0 else pits + 1
    cycle = 2 * pits + 1
    count = 0
    if first >= 0 and board[base + first] > 0:
        out[0] = first
        count = 1
    others = 0
    for pit in range(pits - 1, -1, -1):
        seeds = np.int64(board[base + pit])
        if pit == first or seeds == 0:
            continue
        while seeds >= cycle:
            seeds -= cycle
        if seeds == pits - pit:
            out[count] = pit
            count += 1
        else:
            out[pits + others] = pit  # held in the second half of ``out`` until the extra moves are placed
            others += 1
    for i in range(others):
        out[count + i] = out[pits + i]
    return count + others


HOOKS = alphabeta.Hooks("kalah_deepening", pit_count, has_seeds, play, weights_leaf, reference_play,
                        WEIGHTS.reference_leaf, INF, types.Tuple((int64, boolean, int64[:, ::1])), int64[::1],
                        order=order, key_of=board_key,
                        reference_order=reference_order, reference_key=reference_key, table_type=int64[:, ::1],
                        moves_type=int64[:, ::1])
search_root = alphabeta.compiled(HOOKS).search_root


# --------------------------------------------------------------------------------------------------------------
# Iterative deepening: reference and kernel.
# --------------------------------------------------------------------------------------------------------------


def _next_fits(spent: int, nodes: int, previous: int, budget: int) -> bool:
    """Does the next iteration, predicted to cost ``nodes * nodes / previous``, fit the budget?"""
    return spent + nodes * nodes // max(previous, 1) <= budget


def reference_deepen(board, player: int, pits: int, empty_capture: bool, weights, budget: int,
                     max_depth: int = MAX_DEPTH) -> tuple[int, int, int]:
    """The readable iterative deepening: returns (pit, depth of the last iteration, nodes spent)."""
    weights = [int(w) for w in weights]
    board = [int(x) for x in board]
    table = [[0, 0, 0, 0, 0] for _ in range(TT_SIZE)]
    spent = previous = 0
    best = depth = -1
    for d in range(1, max_depth + 1):
        counts = [0, NO_BUDGET, 0, 0]
        values = [-INF] * pits
        best = alphabeta.reference_value(board, player, player, d, -INF, INF, (pits, empty_capture, ZOBRIST), weights,
                                         counts, HOOKS, 0, values, False, table, best)
        top = values[best]
        spent += counts[NODES]
        depth = d
        if top >= PROVEN or top <= -PROVEN or (counts[HORIZON] == 0 and counts[HITS] == 0):
            break
        if not _next_fits(spent, counts[NODES], previous if d > 1 else 1, budget):
            break
        previous = counts[NODES]
    return best, depth, spent


@njit(types.UniTuple(int64, 3)(int8[::1], int64, int64, boolean, int64[::1], int64, int64, int64[:, ::1]), cache=True,
      nogil=True)
def deepen(board, player, pits, empty_capture, weights, budget, max_depth, zobrist):
    """Kernel of ``reference_deepen``: returns (pit, depth, nodes)."""
    boards = np.empty((max_depth + 2, 2 * pits + 2), np.int8)
    moves = np.empty((max_depth + 2, 2 * pits), np.int64)
    table = np.zeros((TT_SIZE, 5), np.int64)
    counts = np.zeros(4, np.int64)
    values = np.empty(pits, np.int64)
    spent = np.int64(0)
    previous = np.int64(0)
    best = np.int64(-1)
    depth = np.int64(-1)
    for d in range(1, max_depth + 1):
        counts[:] = 0
        counts[1] = NO_BUDGET
        best = search_root(board, player, d, (pits, empty_capture, zobrist), weights, boards, counts, values, False,
                           table, moves, best)
        top = values[best]
        spent += counts[NODES]
        depth = d
        if top >= PROVEN or top <= -PROVEN or (counts[HORIZON] == 0 and counts[HITS] == 0):
            break
        prev = previous if d > 1 else np.int64(1)
        if prev < 1:
            prev = np.int64(1)
        if spent + counts[NODES] * counts[NODES] // prev > budget:
            break
        previous = counts[NODES]
    return best, depth, spent


_deepen = specialise("evoplay.search.minimax_game", search_kalah.KERNELS).deepen


@njit(cache=True, nogil=True)
def deepen_kernel(board, player, pits, empty_capture, weights, budget, max_depth):
    """The weights leaf's iterative deepening (``minimax_game.deepen``) from (``board``, ``player``)."""
    size = 2 * pits + 2
    position = np.empty(size + 1, np.int8)
    position[:size] = board[:size]
    position[size] = player
    params = np.array([pits, 1 if empty_capture else 0, 0], np.int64)
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    leaf = search_kalah._leaf(search_kalah.LEAF_WEIGHTS, weights, empty_i, empty_i, empty_f, 0)
    return _deepen(params, position, player, max_depth, leaf, budget, np.float64(PROVEN), pits, 2, size + 2)


def search_new(board, player: int, pits: int, empty_capture: bool, weights, budget: int,
               max_depth: int = MAX_DEPTH) -> tuple[int, int, int]:
    if not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth={max_depth}; use 1..{MAX_DEPTH}")
    pit, depth, nodes = deepen_kernel(np.ascontiguousarray(board, dtype=np.int8), int(player), int(pits),
                                      bool(empty_capture), np.ascontiguousarray(weights, dtype=np.float64),
                                      int(budget), int(max_depth))
    return int(pit), int(depth), int(nodes)


def search(board, player: int, pits: int, empty_capture: bool, weights, budget: int,
           max_depth: int = MAX_DEPTH) -> tuple[int, int, int]:
    """Run the kernel from a position: (pit, depth of the last iteration, nodes spent)."""
    if not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth={max_depth}; use 1..{MAX_DEPTH}")
    pit, depth, nodes = deepen(np.ascontiguousarray(board, dtype=np.int8), int(player), int(pits),
                               bool(empty_capture), np.ascontiguousarray(weights, dtype=np.int64), int(budget),
                               int(max_depth), ZOBRIST)
    return int(pit), int(depth), int(nodes)
