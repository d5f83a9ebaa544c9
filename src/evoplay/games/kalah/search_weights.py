"""The weights leaf of the Kalah searches: a weighted evaluation of board features, the one the GA's Kalah genomes
tune (Python and Numba).

``search`` (given weights) and ``deepening`` value their leaves with it. The evaluation at the depth horizon is
the sum of ``weight[f] * feature[f]``, each feature the root player's count minus the opponent's:

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


def reference_margin(board, root: int, pits: int) -> int:
    """The root player's store minus the opponent's."""
    own, opp = (pits, 2 * pits + 1) if root == 0 else (2 * pits + 1, pits)
    return int(board[own]) - int(board[opp])


def reference_terminal(board, root: int, pits: int) -> int:
    """A finished game: ``WIN`` plus the root player's final margin (minus for a loss), 0 for a draw."""
    margin = reference_margin(board, root, pits)
    return 0 if margin == 0 else (WIN + margin if margin > 0 else -WIN + margin)


def reference_leaf(board, root: int, pits: int, weights, terminal: bool) -> int:
    """The value of a finished position (``terminal``) or of one at the depth horizon, seen from ``root``."""
    return reference_terminal(board, root, pits) if terminal else reference_evaluate(board, root, pits, weights)


# --------------------------------------------------------------------------------------------------------------
# Kernels.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def evaluate(board, root, pits, weights):
    """Kernel of ``reference_evaluate`` that allocates nothing (a leaf is visited millions of times a second):
    each side's five features are summed with the root's sign as they are counted."""
    total = np.int64(0)
    cycle = 2 * pits + 1
    for side in range(2):
        sign = np.int64(1) if side == root else np.int64(-1)
        base = 0 if side == 0 else pits + 1
        opp_base = pits + 1 if side == 0 else 0
        store = np.int64(board[pits]) if side == 0 else np.int64(board[2 * pits + 1])
        seeds = np.int64(0)
        empty = np.int64(0)
        extra = np.int64(0)
        capture = np.int64(0)
        for pit in range(pits):
            s = np.int64(board[base + pit])
            seeds += s
            if s == 0:
                empty += 1
                continue
            to_store = pits - pit
            lap = s
            while lap >= cycle:  # s % cycle without a division (s is rarely a lap)
                lap -= cycle
            if lap == to_store:
                extra += 1
            elif s < to_store:
                land = pit + s
                if board[base + land] == 0 and board[opp_base + pits - 1 - land] > 0:
                    capture += 1
        total += sign * (weights[0] * store + weights[1] * seeds + weights[2] * empty + weights[3] * extra
                         + weights[4] * capture)
    return total


@njit(cache=True, inline="always")
def margin(board, root, pits):
    """Kernel of ``reference_margin``."""
    if root == 0:
        return np.int64(board[pits]) - np.int64(board[2 * pits + 1])
    return np.int64(board[2 * pits + 1]) - np.int64(board[pits])


@njit(cache=True, inline="always")
def terminal_value(board, root, pits):
    """Kernel of ``reference_terminal``."""
    diff = margin(board, root, pits)
    if diff == 0:
        return np.int64(0)
    if diff > 0:
        return WIN + diff
    return -WIN + diff


@njit(cache=True, inline="always")
def leaf(board, root, pits, weights, terminal):
    """Kernel of ``reference_leaf``."""
    if terminal:
        return terminal_value(board, root, pits)
    return evaluate(board, root, pits, weights)


def genome_schema(fields: list):
    """The GA genome of a Kalah run from its config's ``[[genome.fields]]`` tables: weights of ``FEATURES`` and,
    optionally, the search depth (``search_depth``, 0..20), each checked."""
    from evoplay.errors import ConfigError
    from evoplay.ga import DEPTH_FIELD, Schema

    if not fields:
        raise ConfigError(
            "a Kalah run needs a genome: [[genome.fields]] tables with name (one of "
            f"{', '.join(FEATURES)}, {DEPTH_FIELD}), bits and low; see src/evoplay/recipes/mnk_kalah.toml"
        )
    schema = Schema.from_list(fields, "genome.fields")
    unknown = [n for n in schema.names if n not in FEATURES and n != DEPTH_FIELD]
    if unknown:
        raise ConfigError(
            f"genome.fields: {', '.join(unknown)} is not a Kalah feature; known: {', '.join(FEATURES)} and {DEPTH_FIELD}"
        )
    if DEPTH_FIELD in schema.names:
        f = schema.field(DEPTH_FIELD)
        if f.low < 0 or f.high > 20:
            raise ConfigError(f"genome field {DEPTH_FIELD}: range {f.low}..{f.high}; keep it within 0..20")
    return schema
