"""A weighted evaluation of Kalah board features, the one the GA's Kalah genomes tune (Python and Numba).

``search_kalah`` searches with it when given weights. The evaluation at the depth horizon is the sum of ``weight[f] * feature[f]``, each feature the root player's
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
from numba import njit

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


def reference_terminal(board, root: int, pits: int) -> int:
    """A finished game: ``WIN`` plus the root player's final margin (minus for a loss), 0 for a draw."""
    own, opp = (pits, 2 * pits + 1) if root == 0 else (2 * pits + 1, pits)
    margin = int(board[own]) - int(board[opp])
    return 0 if margin == 0 else (WIN + margin if margin > 0 else -WIN + margin)


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
