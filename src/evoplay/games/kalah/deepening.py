"""Iterative-deepening alpha-beta for Kalah under a node budget: as deep as a fixed number of nodes allows.

The search is ``search``'s minimax (every sowing a ply, an extra move keeps the mover) with the weights leaf of
``search_weights`` (a finished game is worth ``WIN`` plus the margin), plus what lets it go deeper for the same
nodes:

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

from evoplay.games.alphabeta import backup, better, reference_backup, reference_better
from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import reference_sow, sow
from evoplay.games.kalah.search_weights import WIN, leaf, reference_leaf
from evoplay.games.transposition import probe, reference_probe, reference_store, store

INF = 1 << 40
MAX_DEPTH = 64
PROVEN = WIN // 2  # a value beyond this is a finished game's
TT_BITS = 14
TT_SIZE = 1 << TT_BITS
# Zobrist keys: one per (cell, seeds) of a board of up to 42 cells and 127 seeds, and one for the second player.
ZOBRIST = np.random.default_rng(15_2026).integers(1, 1 << 62, size=(43, 128), dtype=np.int64)
SECOND_TO_MOVE = 42
NODES, HORIZON, HITS = range(3)  # the counters of one iteration


# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_key(board, player: int) -> int:
    key = 0
    for cell, seeds in enumerate(board):
        key ^= int(ZOBRIST[cell, seeds])
    if player == 1:
        key ^= int(ZOBRIST[SECOND_TO_MOVE, 0])
    return key


def reference_order(board, player: int, pits: int, first: int = -1) -> list[int]:
    """The legal pits of ``player`` in search order: ``first`` (when legal), then extra moves, then the others,
    each group from the store's end."""
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


def reference_value(board, player: int, root: int, depth: int, alpha: int, beta: int, pits: int,
                    empty_capture: bool, weights, table: list, counts: list[int], root_first: int | None = None):
    """Fail-soft alpha-beta value of a non-terminal ``board`` with ``player`` to move, seen from ``root``, and
    its best pit (the table's when the table's value ends the search): (value, pit). ``table`` is a list of
    ``TT_SIZE`` entries [key, depth, flag, value, move] (key 0: empty).

    With ``root_first`` (a legal pit, or -1) ``board`` is the root: the table is neither read nor written there
    and ``root_first`` is searched first."""
    counts[NODES] += 1
    first = root_first
    if root_first is None:
        key = reference_key(board, player)
        first, hit, v = reference_probe(table, key, depth, alpha, beta)
        if hit:
            counts[HITS] += 1
            return v, first
    alpha0, beta0 = alpha, beta
    maximizing = player == root
    best = -INF if maximizing else INF
    best_pit = -1
    for pit in reference_order(board, player, pits, first):
        child = list(board)
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            counts[NODES] += 1
            counts[HORIZON] += nxt != TERMINAL
            value = reference_leaf(child, root, pits, weights, nxt == TERMINAL)
        else:
            value = reference_value(child, nxt, root, depth - 1, alpha, beta, pits, empty_capture, weights, table,
                                    counts)[0]
        if reference_better(maximizing, value, best):
            best_pit = pit
        best, alpha, beta = reference_backup(maximizing, value, best, alpha, beta)
        if alpha >= beta:
            break
    if root_first is None:
        reference_store(table, key, depth, best, alpha0, beta0, best_pit)
    return best, best_pit


def reference_root(board, player: int, depth: int, pits: int, empty_capture: bool, weights, first: int,
                   table: list, counts: list[int]) -> tuple[int, int]:
    """One iteration at the root, ``first`` (a legal pit, or -1) searched first: (best pit, its value)."""
    value, pit = reference_value(board, player, player, depth, -INF, INF, pits, empty_capture, weights, table,
                                 counts, first)
    return pit, value


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
        counts = [0, 0, 0]
        best, top = reference_root(board, player, d, pits, empty_capture, weights, best, table, counts)
        spent += counts[NODES]
        depth = d
        if top >= PROVEN or top <= -PROVEN or (counts[HORIZON] == 0 and counts[HITS] == 0):
            break
        if not _next_fits(spent, counts[NODES], previous if d > 1 else 1, budget):
            break
        previous = counts[NODES]
    return best, depth, spent


# --------------------------------------------------------------------------------------------------------------
# Kernels. The recursive kernel has an explicit signature: without one, cache=True breaks on reload.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def board_key(board, player, zobrist):
    """Kernel of ``reference_key``."""
    key = np.int64(0)
    for cell in range(board.shape[0]):
        key ^= zobrist[cell, board[cell]]
    if player == 1:
        key ^= zobrist[SECOND_TO_MOVE, 0]
    return key


@njit(cache=True, inline="always")
def order(board, player, pits, first, out):
    """Kernel of ``reference_order``: writes the pits into ``out``, returns how many."""
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


def _signature(root: bool):
    """The inner nodes (``root_first`` None) or the root (``root_first`` a pit)."""
    args = (int8[:, ::1], int64[:, ::1], int64, int64, int64, int64, int64, int64, int64, boolean, int64[::1],
            int64[:, ::1], int64[:, ::1], int64[::1])
    return types.UniTuple(int64, 2)(*args, int64 if root else types.none)


def search_value(boards, moves, ply, player, root, depth, alpha, beta, pits, empty_capture, weights, table, zobrist,
                 counts, root_first):
    """Kernel of ``reference_value``: (value, pit); ``boards[ply]`` holds the position, deeper rows and ``moves``
    are scratch.
    Compiled twice (Numba prunes the branches of the other): ``search_value`` for the inner nodes and
    ``search_root`` for the root, which calls ``search_value`` (a specialisation calling another of its own
    dispatcher would not load back from the cache)."""
    counts[NODES] += 1
    board = boards[ply]
    if root_first is None:
        key = board_key(board, player, zobrist)
        first, hit, v = probe(table, key, depth, alpha, beta)
        if hit:
            counts[HITS] += 1
            return v, first
    else:
        first = root_first
    alpha0 = alpha
    beta0 = beta
    child = boards[ply + 1]
    pits_here = moves[ply]
    size = 2 * pits + 2
    maximizing = player == root
    best = -INF if maximizing else INF
    best_pit = -1
    count = order(board, player, pits, first, pits_here)
    for i in range(count):
        pit = pits_here[i]
        for j in range(size):
            child[j] = board[j]
        nxt = sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            counts[NODES] += 1
            if nxt != TERMINAL:
                counts[HORIZON] += 1
            value = leaf(child, root, pits, weights, nxt == TERMINAL)
        else:
            value = search_value(boards, moves, ply + 1, nxt, root, depth - 1, alpha, beta, pits, empty_capture,
                                 weights, table, zobrist, counts, None)[0]
        if better(maximizing, value, best):
            best_pit = pit
        best, alpha, beta = backup(maximizing, value, best, alpha, beta)
        if alpha >= beta:
            break
    if root_first is None:
        store(table, key, depth, best, alpha0, beta0, best_pit)
    return best, best_pit


search_value = njit(_signature(root=False), cache=True)(search_value)
search_root = njit(_signature(root=True), cache=True)(search_value.py_func)


@njit(types.UniTuple(int64, 3)(int8[::1], int64, int64, boolean, int64[::1], int64, int64, int64[:, ::1]),
      cache=True, nogil=True)
def deepen(board, player, pits, empty_capture, weights, budget, max_depth, zobrist):
    """Kernel of ``reference_deepen``: returns (pit, depth, nodes)."""
    boards = np.empty((max_depth + 2, 2 * pits + 2), np.int8)
    moves = np.empty((max_depth + 2, 2 * pits), np.int64)
    table = np.zeros((TT_SIZE, 5), np.int64)
    counts = np.zeros(3, np.int64)
    spent = np.int64(0)
    previous = np.int64(0)
    best = np.int64(-1)
    depth = np.int64(-1)
    for j in range(2 * pits + 2):
        boards[0, j] = board[j]
    for d in range(1, max_depth + 1):
        counts[:] = 0
        top, best = search_root(boards, moves, 0, player, player, d, -INF, INF, pits, empty_capture, weights, table,
                                zobrist, counts, best)
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


def search(board, player: int, pits: int, empty_capture: bool, weights, budget: int,
           max_depth: int = MAX_DEPTH) -> tuple[int, int, int]:
    """Run the kernel from a position: (pit, depth of the last iteration, nodes spent)."""
    if not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth={max_depth}; use 1..{MAX_DEPTH}")
    pit, depth, nodes = deepen(np.ascontiguousarray(board, dtype=np.int8), int(player), int(pits),
                               bool(empty_capture), np.ascontiguousarray(weights, dtype=np.int64), int(budget),
                               int(max_depth), ZOBRIST)
    return int(pit), int(depth), int(nodes)
