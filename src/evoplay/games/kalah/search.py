"""Alpha-beta search for Kalah: a Numba kernel and the plain-Python reference it must match node for node.

Minimax (not negamax) because an extra move keeps the same player on move; every sowing is a ply. Without
weights (None, the default) the value of a position is the root player's store minus the opponent's:
at a terminal position that is the true final margin, at the depth horizon the current store difference. With
weights it is ``search_kalah_weights``' evaluation: the weighted feature differences at the horizon, and
``WIN`` plus the margin at a finished game. Children are visited in pit order and only a strictly better value
replaces the best, so ties go to the lowest pit.
"""
from __future__ import annotations

import numpy as np
from numba import boolean, int8, int64, njit, types

from evoplay.agents.interrupt import run_interruptibly
from evoplay.games.kalah.search_weights import evaluate, reference_evaluate, reference_terminal, terminal_value
from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import reference_sow, sow

INF = 1 << 40
INTERRUPTIBLE_DEPTH = 12

# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_leaf(board, root: int, pits: int, weights, terminal: bool) -> int:
    """The value of a finished position or one at the depth horizon (see the module docstring)."""
    if weights is None:
        return _margin(board, root, pits)
    return reference_terminal(board, root, pits) if terminal else reference_evaluate(board, root, pits, weights)


def reference_value(
    board: list[int], player: int, root: int, depth: int, alpha: int, beta: int, pits: int, empty_capture: bool,
    nodes: list[int], weights=None,
) -> int:
    """Fail-soft alpha-beta value of a non-terminal ``board`` with ``player`` to move, seen from ``root``."""
    nodes[0] += 1
    maximizing = player == root
    best = -INF if maximizing else INF
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            nodes[0] += 1
            value = reference_leaf(child, root, pits, weights, nxt == TERMINAL)
        else:
            value = reference_value(child, nxt, root, depth - 1, alpha, beta, pits, empty_capture, nodes, weights)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def reference_root_values(
    board: list[int], player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool, weights=None
) -> tuple[list[int], int, int]:
    """Values of the legal pits at the root (exact for the best and, with ``exact_ties``, for every pit tied
    with it; upper bounds for the others), the first best pit and the node count."""
    nodes = [1]
    values = [-INF] * pits
    alpha, best_pit = -INF, -1
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            nodes[0] += 1
            value = reference_leaf(child, player, pits, weights, nxt == TERMINAL)
        else:
            low = alpha - 1 if exact_ties and alpha > -INF else alpha
            value = reference_value(child, nxt, player, depth - 1, low, INF, pits, empty_capture, nodes, weights)
        values[pit] = value
        if value > alpha:
            alpha, best_pit = value, pit
    return values, best_pit, nodes[0]


def _margin(board, root: int, pits: int) -> int:
    own, opp = (pits, 2 * pits + 1) if root == 0 else (2 * pits + 1, pits)
    return int(board[own]) - int(board[opp])


# --------------------------------------------------------------------------------------------------------------
# Kernels. The recursive kernel has an explicit signature: without one, cache=True breaks on reload.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def margin(board, root, pits):
    if root == 0:
        return np.int64(board[pits]) - np.int64(board[2 * pits + 1])
    return np.int64(board[2 * pits + 1]) - np.int64(board[pits])


@njit(cache=True, inline="always")
def leaf(board, root, pits, weights, terminal):
    """Kernel of ``reference_leaf``. ``weights`` None compiles to the plain store difference (Numba prunes the
    other branch), so the unweighted search pays nothing for the weighted one."""
    if weights is None:
        return margin(board, root, pits)
    if terminal:
        return terminal_value(board, root, pits)
    return evaluate(board, root, pits, weights)


_VALUE_ARGS = (int8[:, ::1], int64, int64, int64, int64, int64, int64, int64, boolean, int64[::1])


@njit([int64(*_VALUE_ARGS, types.none), int64(*_VALUE_ARGS, int64[::1])], cache=True)
def search_value(boards, ply, player, root, depth, alpha, beta, pits, empty_capture, nodes, weights):
    """Kernel of ``reference_value``; ``boards[ply]`` holds the position, deeper rows are scratch space."""
    nodes[0] += 1
    board = boards[ply]
    child = boards[ply + 1]
    size = 2 * pits + 2
    maximizing = player == root
    best = -INF if maximizing else INF
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        for i in range(size):
            child[i] = board[i]
        nxt = sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            nodes[0] += 1
            value = leaf(child, root, pits, weights, nxt == TERMINAL)
        else:
            value = search_value(boards, ply + 1, nxt, root, depth - 1, alpha, beta, pits, empty_capture, nodes,
                                 weights)
        if maximizing:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


_ROOT_ARGS = (int8[::1], int64, int64, int64, boolean, boolean, int64[::1], int8[:, ::1])


@njit(
    [types.Tuple((int64, int64))(*_ROOT_ARGS, types.none), types.Tuple((int64, int64))(*_ROOT_ARGS, int64[::1])],
    cache=True, nogil=True,
)
def root_values(board, player, depth, pits, empty_capture, exact_ties, values, boards, weights):
    """Kernel of ``reference_root_values``: fills ``values`` per pit; returns (first best pit, nodes)."""
    nodes = np.zeros(1, np.int64)
    nodes[0] = 1
    size = 2 * pits + 2
    for i in range(pits):
        values[i] = -INF
    alpha = -INF
    best_pit = -1
    base = 0 if player == 0 else pits + 1
    child = boards[1]
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        for i in range(size):
            child[i] = board[i]
        nxt = sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            nodes[0] += 1
            value = leaf(child, player, pits, weights, nxt == TERMINAL)
        else:
            low = alpha - 1 if exact_ties and alpha > -INF else alpha
            value = search_value(boards, 1, nxt, player, depth - 1, low, INF, pits, empty_capture, nodes, weights)
        values[pit] = value
        if value > alpha:
            alpha = value
            best_pit = pit
    return best_pit, nodes[0]


def search(board: np.ndarray, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool = False,
           weights=None):
    """Run the kernel from a position: returns (values per pit, first best pit, nodes searched)."""
    values = np.empty(pits, np.int64)
    boards = np.empty((depth + 2, 2 * pits + 2), np.int8)
    w = None if weights is None else np.ascontiguousarray(weights, dtype=np.int64)
    args = (np.ascontiguousarray(board, dtype=np.int8), player, depth, pits, empty_capture, exact_ties, values,
            boards, w)
    # From depth 12 one search takes a quarter of a second or more: run it where Ctrl-C can stop the wait.
    best, nodes = run_interruptibly(root_values, *args) if depth >= INTERRUPTIBLE_DEPTH else root_values(*args)
    return values, int(best), int(nodes)
