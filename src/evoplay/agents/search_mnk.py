"""Alpha-beta search for the m,n,k-game: a Numba kernel, its plain-Python reference, and the evaluations.

Values are seen from the root player. A won position is worth ``WIN`` plus the number of empty cells left (a
quicker win is better), a lost one the negative of that, a full board 0. At the depth horizon the position is
scored by an evaluation chosen by ``eval_kind`` with its integer ``params``:

- ``EVAL_LINES`` (0): line counts. Every window of k cells in a row, column or diagonal that holds stones of
  one player only scores ``params[c]`` for that player, c being its number of stones (default 10^(c-1)).

Further evaluations (the GA genome of seed 001) add a kind here and a branch in ``evaluate``.
Cells are visited in index order and only a strictly better value replaces the best: ties go to the lowest cell.
"""
from __future__ import annotations

import numpy as np
from numba import int8, int64, njit, types

from evoplay.games.base import TERMINAL
from evoplay.games.mnk import play, reference_play

INF = 1 << 40
WIN = 1 << 30
EVAL_LINES = 0

SEED001_SCHEDULE = ((20, 2), (13, 3), (10, 4), (9, 5), (0, 7))  # (at least this many empty cells, depth)


def schedule_depth(empties: int, schedule=SEED001_SCHEDULE) -> int:
    """The seed's depth schedule: 20-25 empty squares depth 2, 13-19: 3, 10-12: 4, 9: 5, 8 or fewer: 7."""
    for threshold, depth in schedule:
        if empties >= threshold:
            return depth
    return schedule[-1][1]


def line_windows(m: int, n: int, k: int) -> np.ndarray:
    """All windows of k cells in a line, as a (windows, k) int64 array of cell indices."""
    out = []
    for r in range(n):
        for c in range(m):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < n and 0 <= cc < m for rr, cc in cells):
                    out.append([rr * m + cc for rr, cc in cells])
    return np.array(out, dtype=np.int64).reshape(-1, k)


def default_line_weights(k: int) -> np.ndarray:
    return np.array([0] + [10 ** (c - 1) for c in range(1, k + 1)], dtype=np.int64)


# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_evaluate(board, root: int, eval_kind: int, params, windows) -> int:
    if eval_kind != EVAL_LINES:
        raise ValueError(f"the reference has no evaluation kind {eval_kind}")
    total = 0
    own, opp = root + 1, 2 - root
    for window in windows:
        a = sum(1 for cell in window if board[cell] == own)
        b = sum(1 for cell in window if board[cell] == opp)
        if b == 0 and a > 0:
            total += int(params[a])
        elif a == 0 and b > 0:
            total -= int(params[b])
    return total


def reference_value(board, player, root, depth, alpha, beta, empties, m, n, k, eval_kind, params, windows, nodes):
    nodes[0] += 1
    maximizing = player == root
    best = -INF if maximizing else INF
    for cell in range(m * n):
        if board[cell] != 0:
            continue
        child = list(board)
        nxt, winner = reference_play(child, player, cell, m, n, k)
        if nxt == TERMINAL:
            nodes[0] += 1
            value = _terminal_value(winner, root, empties - 1)
        elif depth == 1:
            nodes[0] += 1
            value = reference_evaluate(child, root, eval_kind, params, windows)
        else:
            value = reference_value(
                child, nxt, root, depth - 1, alpha, beta, empties - 1, m, n, k, eval_kind, params, windows, nodes
            )
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def reference_root_values(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties):
    nodes = [1]
    empties = sum(1 for v in board if v == 0)
    values = [-INF] * (m * n)
    alpha, best_cell = -INF, -1
    for cell in range(m * n):
        if board[cell] != 0:
            continue
        child = list(board)
        nxt, winner = reference_play(child, player, cell, m, n, k)
        if nxt == TERMINAL:
            nodes[0] += 1
            value = _terminal_value(winner, player, empties - 1)
        elif depth == 1:
            nodes[0] += 1
            value = reference_evaluate(child, player, eval_kind, params, windows)
        else:
            low = alpha - 1 if exact_ties and alpha > -INF else alpha
            value = reference_value(
                child, nxt, player, depth - 1, low, INF, empties - 1, m, n, k, eval_kind, params, windows, nodes
            )
        values[cell] = value
        if value > alpha:
            alpha, best_cell = value, cell
    return values, best_cell, nodes[0]


def _terminal_value(winner: int, root: int, empties_left: int) -> int:
    if winner < 0:
        return 0
    return WIN + empties_left if winner == root else -(WIN + empties_left)


# --------------------------------------------------------------------------------------------------------------
# Kernels.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def evaluate(board, root, eval_kind, params, windows):
    """Kernel of ``reference_evaluate`` (and of the evaluations the reference does not have)."""
    total = np.int64(0)
    own = root + 1
    opp = 2 - root
    nwin, k = windows.shape
    for w in range(nwin):
        a = 0
        b = 0
        for i in range(k):
            v = board[windows[w, i]]
            if v == own:
                a += 1
            elif v == opp:
                b += 1
        if b == 0 and a > 0:
            total += params[a]
        elif a == 0 and b > 0:
            total -= params[b]
    return total


@njit(cache=True, inline="always")
def terminal_value(winner, root, empties_left):
    if winner < 0:
        return np.int64(0)
    if winner == root:
        return np.int64(WIN + empties_left)
    return -np.int64(WIN + empties_left)


@njit(
    int64(
        int8[:, ::1], int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64,
        int64[::1], int64[:, ::1], int64[::1],
    ),
    cache=True,
)
def search_value(boards, ply, player, root, depth, alpha, beta, empties, m, n, k, eval_kind, params, windows, nodes):
    """Kernel of ``reference_value``; ``boards[ply]`` is the position, deeper rows scratch space."""
    nodes[0] += 1
    board = boards[ply]
    child = boards[ply + 1]
    size = m * n
    maximizing = player == root
    best = -INF if maximizing else INF
    for cell in range(size):
        if board[cell] != 0:
            continue
        for i in range(size):
            child[i] = board[i]
        nxt, winner = play(child, player, cell, m, n, k, empties)
        if nxt == TERMINAL:
            nodes[0] += 1
            value = terminal_value(winner, root, empties - 1)
        elif depth == 1:
            nodes[0] += 1
            value = evaluate(child, root, eval_kind, params, windows)
        else:
            value = search_value(
                boards, ply + 1, nxt, root, depth - 1, alpha, beta, empties - 1, m, n, k, eval_kind, params,
                windows, nodes,
            )
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


@njit(
    types.Tuple((int64, int64))(
        int8[::1], int64, int64, int64, int64, int64, int64, int64[::1], int64[:, ::1], types.boolean,
        int64[::1], int8[:, ::1],
    ),
    cache=True,
)
def root_values(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties, values, boards):
    """Kernel of ``reference_root_values``: fills ``values`` per cell; returns (first best cell, nodes)."""
    nodes = np.zeros(1, np.int64)
    nodes[0] = 1
    size = m * n
    empties = 0
    for i in range(size):
        values[i] = -INF
        if board[i] == 0:
            empties += 1
    alpha = -INF
    best_cell = -1
    child = boards[1]
    for cell in range(size):
        if board[cell] != 0:
            continue
        for i in range(size):
            child[i] = board[i]
        nxt, winner = play(child, player, cell, m, n, k, empties)
        if nxt == TERMINAL:
            nodes[0] += 1
            value = terminal_value(winner, player, empties - 1)
        elif depth == 1:
            nodes[0] += 1
            value = evaluate(child, player, eval_kind, params, windows)
        else:
            low = alpha - 1 if exact_ties and alpha > -INF else alpha
            value = search_value(
                boards, 1, nxt, player, depth - 1, low, INF, empties - 1, m, n, k, eval_kind, params, windows, nodes
            )
        values[cell] = value
        if value > alpha:
            alpha = value
            best_cell = cell
    return best_cell, nodes[0]


def search(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties=False):
    """Run the kernel from a position: returns (values per cell, first best cell, nodes searched)."""
    size = m * n
    values = np.empty(size, np.int64)
    boards = np.empty((depth + 2, size), np.int8)
    best, nodes = root_values(
        np.ascontiguousarray(board, dtype=np.int8), player, depth, m, n, k, eval_kind,
        np.ascontiguousarray(params, dtype=np.int64), np.ascontiguousarray(windows, dtype=np.int64),
        exact_ties, values, boards,
    )
    return values, int(best), int(nodes)
