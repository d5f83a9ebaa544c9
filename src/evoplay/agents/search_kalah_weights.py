"""Alpha-beta for Kalah with a weighted evaluation of board features, for Kalah genomes of the GA.

The evaluation at the depth horizon is the sum of ``weight[f] * feature[f]``, each feature the root player's
count minus the opponent's:

- ``store``: seeds in the store;
- ``seeds``: seeds in the pits of the player's side;
- ``empty``: empty pits on the player's side;
- ``extra``: pits whose sowing would end in the player's own store (an extra move);
- ``capture``: pits whose sowing would end in an empty pit of the player's side facing a non-empty pit.

A finished game is worth ``WIN`` plus the final store margin (minus for a loss), beyond any horizon value.
A genome's schema names the features it weighs (fields named as above, others ignored by the search; a
``search_depth`` field sets the depth); features it does not name weigh 0.
"""
from __future__ import annotations

import numpy as np
from numba import boolean, int8, int64, njit, types

from evoplay.games.base import TERMINAL
from evoplay.games.kalah import reference_sow, sow

INF = 1 << 40
WIN = 1 << 30
FEATURES = ("store", "seeds", "empty", "extra", "capture")


def feature_weights(record: dict) -> np.ndarray:
    """The weight of every feature of ``FEATURES`` in a decoded genome (0 where the genome has none)."""
    return np.array([int(record.get(name, 0)) for name in FEATURES], dtype=np.int64)


# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_features(board, player: int, pits: int) -> list[int]:
    """The features of ``FEATURES`` for ``player`` alone (not yet minus the opponent's)."""
    base = 0 if player == 0 else pits + 1
    opp_base = pits + 1 if player == 0 else 0
    store = board[pits] if player == 0 else board[2 * pits + 1]
    seeds = empty = extra = capture = 0
    cycle = 2 * pits + 1  # a sowing lap skips the opponent's store
    for pit in range(pits):
        s = board[base + pit]
        seeds += s
        if s == 0:
            empty += 1
            continue
        to_store = pits - pit
        if s % cycle == to_store % cycle:
            extra += 1
        elif s < to_store:
            land = pit + s
            if board[base + land] == 0 and board[opp_base + pits - 1 - land] > 0:
                capture += 1
    return [int(store), int(seeds), empty, extra, capture]


def reference_evaluate(board, root: int, pits: int, weights) -> int:
    mine = reference_features(board, root, pits)
    theirs = reference_features(board, 1 - root, pits)
    return sum(int(w) * (a - b) for w, a, b in zip(weights, mine, theirs))


def _terminal(board, root: int, pits: int) -> int:
    own, opp = (pits, 2 * pits + 1) if root == 0 else (2 * pits + 1, pits)
    margin = int(board[own]) - int(board[opp])
    return 0 if margin == 0 else (WIN + margin if margin > 0 else -WIN + margin)


def reference_value(board, player, root, depth, alpha, beta, pits, empty_capture, weights, nodes) -> int:
    nodes[0] += 1
    maximizing = player == root
    best = -INF if maximizing else INF
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL:
            nodes[0] += 1
            value = _terminal(child, root, pits)
        elif depth == 1:
            nodes[0] += 1
            value = reference_evaluate(child, root, pits, weights)
        else:
            value = reference_value(child, nxt, root, depth - 1, alpha, beta, pits, empty_capture, weights, nodes)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def reference_root_values(board, player, depth, pits, empty_capture, weights, exact_ties):
    """Values per pit (exact for the best and, with ``exact_ties``, its ties), the first best pit, nodes."""
    nodes = [1]
    values = [-INF] * pits
    alpha, best_pit = -INF, -1
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL:
            nodes[0] += 1
            value = _terminal(child, player, pits)
        elif depth == 1:
            nodes[0] += 1
            value = reference_evaluate(child, player, pits, weights)
        else:
            low = alpha - 1 if exact_ties and alpha > -INF else alpha
            value = reference_value(child, nxt, player, depth - 1, low, INF, pits, empty_capture, weights, nodes)
        values[pit] = value
        if value > alpha:
            alpha, best_pit = value, pit
    return values, best_pit, nodes[0]


# --------------------------------------------------------------------------------------------------------------
# Kernels.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def side_features(board, player, pits, out):
    """Kernel of ``reference_features``: writes the five features of ``player`` into ``out``."""
    base = 0 if player == 0 else pits + 1
    opp_base = pits + 1 if player == 0 else 0
    out[0] = board[pits] if player == 0 else board[2 * pits + 1]
    seeds = 0
    empty = 0
    extra = 0
    capture = 0
    cycle = 2 * pits + 1
    for pit in range(pits):
        s = np.int64(board[base + pit])
        seeds += s
        if s == 0:
            empty += 1
            continue
        to_store = pits - pit
        if s % cycle == to_store % cycle:
            extra += 1
        elif s < to_store:
            land = pit + s
            if board[base + land] == 0 and board[opp_base + pits - 1 - land] > 0:
                capture += 1
    out[1] = seeds
    out[2] = empty
    out[3] = extra
    out[4] = capture


@njit(cache=True)
def evaluate(board, root, pits, weights):
    """Kernel of ``reference_evaluate``."""
    mine = np.empty(5, np.int64)
    theirs = np.empty(5, np.int64)
    side_features(board, root, pits, mine)
    side_features(board, 1 - root, pits, theirs)
    total = np.int64(0)
    for f in range(5):
        total += weights[f] * (mine[f] - theirs[f])
    return total


@njit(cache=True, inline="always")
def terminal_value(board, root, pits):
    if root == 0:
        margin = np.int64(board[pits]) - np.int64(board[2 * pits + 1])
    else:
        margin = np.int64(board[2 * pits + 1]) - np.int64(board[pits])
    if margin == 0:
        return np.int64(0)
    if margin > 0:
        return WIN + margin
    return -WIN + margin


@njit(
    int64(int8[:, ::1], int64, int64, int64, int64, int64, int64, int64, boolean, int64[::1], int64[::1]),
    cache=True,
)
def search_value(boards, ply, player, root, depth, alpha, beta, pits, empty_capture, weights, nodes):
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
        if nxt == TERMINAL:
            nodes[0] += 1
            value = terminal_value(child, root, pits)
        elif depth == 1:
            nodes[0] += 1
            value = evaluate(child, root, pits, weights)
        else:
            value = search_value(boards, ply + 1, nxt, root, depth - 1, alpha, beta, pits, empty_capture, weights,
                                 nodes)
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
        int8[::1], int64, int64, int64, boolean, int64[::1], boolean, int64[::1], int8[:, ::1]
    ),
    cache=True,
)
def root_values(board, player, depth, pits, empty_capture, weights, exact_ties, values, boards):
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
        if nxt == TERMINAL:
            nodes[0] += 1
            value = terminal_value(child, player, pits)
        elif depth == 1:
            nodes[0] += 1
            value = evaluate(child, player, pits, weights)
        else:
            low = alpha - 1 if exact_ties and alpha > -INF else alpha
            value = search_value(boards, 1, nxt, player, depth - 1, low, INF, pits, empty_capture, weights, nodes)
        values[pit] = value
        if value > alpha:
            alpha = value
            best_pit = pit
    return best_pit, nodes[0]


def search(board, player: int, depth: int, pits: int, empty_capture: bool, weights, exact_ties: bool = False):
    """Run the kernel from a position: returns (values per pit, first best pit, nodes searched)."""
    values = np.empty(pits, np.int64)
    boards = np.empty((depth + 2, 2 * pits + 2), np.int8)
    best, nodes = root_values(
        np.ascontiguousarray(board, dtype=np.int8), player, depth, pits, empty_capture,
        np.ascontiguousarray(weights, dtype=np.int64), exact_ties, values, boards,
    )
    return values, int(best), int(nodes)
