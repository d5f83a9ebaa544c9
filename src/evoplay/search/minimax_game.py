"""A game's own players' fixed-depth alpha-beta (Kalah's, m,n,k's): evoplay.search.minimax_kernel's ``search``
with the game's own leaf, entered from the game's package with plain arrays.

``root_values`` values every action of the root at a fixed depth (the root's window opened for ties only when
asked, the first legal action standing until a strictly better one, the root counted among the nodes) and
``run_game_search`` runs it from Python within a node budget or a deadline. Compiled per game beside
minimax_kernel (``USES``): a game's package calls ``specialise("evoplay.search.minimax_game", kernels)``.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from evoplay.search.minimax_budget import COMPLETED, LIMIT, NO_LIMIT, NODES
from evoplay.search.minimax_kernel import CHANCE_ROWS, search

# The game's kernels and what it gives: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = game_leaf = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = HAS_GAME_LEAF = False
USES = ("evoplay.search.minimax_kernel",)  # its search, compiled for the same game


@njit(cache=True, nogil=True)
def root_values_within(params, root, player, depth, leaf, exact_ties, values, closed, players, width, table,
                       counters):
    """The fixed-depth search a game's own players make (Kalah's, m,n,k's): ``search`` from ``root`` with the
    game's own leaf (a ``Leaf`` of kind GAME: ``Kernels.leaf``, ``width`` its ``leaf_width``), the root's window
    not opened for ties unless ``exact_ties``. Every action's value goes into ``values`` (``closed`` where not
    legal; an int64 ``values`` takes the game's integer values); returns (the first best action: the first legal
    one stands until a strictly better one comes, the nodes searched counting the root). ``table``: an empty
    ``new_table()`` (no table is kept). ``counters`` (minimax_budget's) with ``COMPLETED`` set arm the node limit ``LIMIT``
    (the budget less the root), which another thread may lower while the search runs (``run_game_search``)."""
    actions = values.shape[0]
    rows = depth + 2 + (CHANCE_ROWS if HAS_CHANCE else 0)
    work = (np.empty((rows, root.shape[0]), root.dtype), np.zeros((rows, actions), np.int8),
            np.zeros((rows, actions), np.int64), np.zeros((rows, actions), np.float64), np.zeros(players, np.float64),
            np.zeros(width, np.float64), np.zeros(max(leaf.size, 1), np.float64))
    legal = np.empty(actions, np.int64)
    found = np.empty(actions, np.float64)
    n = search(params, root, player, depth, False, leaf, counters, np.full(2, math.inf), table, False, legal, found,
               work, exact_ties)
    values[:] = closed
    best = np.int64(-1)
    top = 0.0
    for i in range(n):
        values[legal[i]] = found[i]
        if best < 0 or found[i] > top:
            best = legal[i]
            top = found[i]
    return best, counters[NODES] + 1


@njit(cache=True, nogil=True)
def root_values(params, root, player, depth, leaf, exact_ties, values, closed, players, width, table):
    """``root_values_within`` without a budget."""
    counters = np.zeros(5, np.int64)
    counters[LIMIT] = NO_LIMIT
    return root_values_within(params, root, player, depth, leaf, exact_ties, values, closed, players, width, table,
                              counters)


def run_game_search(plain, within, args: tuple, nodes=None, deadline=None, long: bool = False) -> tuple[int, int]:
    """``plain(*args)`` or, with ``nodes`` or ``deadline``, ``within(*args, counters)``: a game's own players'
    search (a game's kernel calling ``root_values_within``: one dispatch of plain arrays, no ``Leaf`` handed in
    from Python, which cost a shallow search half its time), returning (first best action, nodes searched).
    ``nodes``: an int64 array [count, budget] the search counts into and is cut off by; ``deadline``: a function
    giving a ``time.perf_counter()`` deadline (or None), read while the search runs, which cuts it off once
    passed; ``long``: a search that takes a tenth of a second or more, run where Ctrl-C can stop it
    (``evoplay.interrupt.run_search``). A search cut off leaves ``nodes[0] > nodes[1]``, and its values and move
    mean nothing."""
    from evoplay.interrupt import run_search

    if nodes is None and deadline is None:
        return run_search(plain, None, args, long) if long else plain(*args)
    counters = np.zeros(5, np.int64)
    counters[COMPLETED] = 1  # the limit holds from the first node
    counters[LIMIT] = NO_LIMIT
    if nodes is not None and nodes[1] < NO_LIMIT:
        counters[LIMIT] = max(int(nodes[1]) - 1, 0)  # the root is counted apart
    best, count = run_search(plain, within, args, long, counters, deadline)
    if nodes is not None:
        nodes[0] += count
        if counters[NODES] > counters[LIMIT]:
            nodes[1] = min(int(nodes[1]), int(count) - 1)  # cut off (by the budget or the deadline): dropped
    return best, count
