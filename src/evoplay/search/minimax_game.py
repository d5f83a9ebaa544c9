"""A game's own players' fixed-depth alpha-beta (Kalah's, m,n,k's): evoplay.search.minimax_kernel's ``search``
with the game's own leaf, entered from the game's package with plain arrays.

``root_values`` values every action of the root at a fixed depth (the root's window opened for ties only when
asked, the first legal action standing until a strictly better one, the root counted among the nodes) and
``run_game_search`` runs it from Python within a node budget or a deadline; ``deepen`` deepens iteratively within a
node budget, its iterations sharing one transposition table (Kalah's champion's search). Compiled per game beside
minimax_kernel (``USES``): a game's package calls ``specialise("evoplay.search.minimax_game", kernels)``.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, types
from numba.typed import Dict

from evoplay.search.minimax_budget import (COMPLETED, COUNTERS, HITS, HORIZON, LIMIT, NO_LIMIT, NODES, list_actions,
                                           sort_descending)
from evoplay.search.minimax_kernel import CHANCE_ROWS, ENTRY, iteration, search

# The game's kernels and what it gives: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = game_leaf = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = HAS_GAME_LEAF = False
USES = ("evoplay.search.minimax_kernel",)  # its search, compiled for the same game


@njit(cache=True, nogil=True)
def scratch(root, depth, actions, players, width, leaf):
    """The ``work`` arrays of minimax_kernel's ``search`` ``depth`` plies deep from ``root``."""
    rows = depth + 2 + (CHANCE_ROWS if HAS_CHANCE else 0)
    return (np.empty((rows, root.shape[0]), root.dtype), np.zeros((rows, actions), np.int8),
            np.zeros((rows, actions), np.int64), np.zeros((rows, actions), np.float64), np.zeros(players, np.float64),
            np.zeros(width, np.float64), np.zeros(max(leaf.size, 1), np.float64))


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
    work = scratch(root, depth, actions, players, width, leaf)
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
    counters = np.zeros(COUNTERS, np.int64)
    counters[LIMIT] = NO_LIMIT
    return root_values_within(params, root, player, depth, leaf, exact_ties, values, closed, players, width, table,
                              counters)


@njit(cache=True, nogil=True)
def deepen(params, root, player, max_depth, leaf, budget, proven, actions, players, width):
    """Iterative deepening within a node budget (Kalah's champion's search): fixed-depth searches of 1, 2, ...
    plies from ``root`` with the game's own leaf (as ``root_values_within``, the root's window not opened for ties),
    sharing one transposition table (keyed by the game's ``state_hash``) and the history scores (the move order:
    the table's action, then the game's own ``Kernels.order`` where it gives one, else by history), each trying the
    root's actions best first by the one before (``actions``, ``players``, ``width``: the game's action count,
    players and ``leaf_width``). After an iteration of ``n`` nodes (the root counted), the one before having cost
    ``p``, the next is predicted to cost ``n * n / p`` and runs only when the nodes spent so far plus that
    prediction stay within ``budget``; none is cut off. The deepening stops early when the best value is proven
    (beyond +-``proven``: a finished game's) or when an iteration valued no position on its horizon and took no
    value from the table but a ``FINAL`` one (the whole game below the root searched: a deeper iteration finds the
    same). Returns (the best action, the depth of the last iteration, the nodes spent)."""
    size = root.shape[0]
    work = scratch(root, max_depth, actions, players, width, leaf)
    legal = np.empty(actions, np.int64)
    n = game_legal(params, root, player, work[1][0])
    list_actions(work[1][0], legal)
    children = np.empty((n, size), root.dtype)
    for i in range(n):
        children[i, :] = root
        game_apply(params, children[i], legal[i])
    counters = np.zeros(COUNTERS, np.int64)
    counters[LIMIT] = NO_LIMIT
    deadline = np.full(2, math.inf)
    table = Dict.empty(types.int64, ENTRY)
    history = np.zeros(actions, np.int64)
    order = np.arange(n)
    found = np.zeros(n, np.float64)
    values = np.zeros(n, np.float64)
    spent = previous = np.int64(0)
    depth = np.int64(0)
    for d in range(1, max_depth + 1):
        before = counters[NODES]
        counters[HORIZON] = counters[HITS] = 0
        iteration(params, player, children, order, n, d, found, work, leaf, counters, deadline, table, True,
                  history, False)
        for i in range(n):
            values[order[i]] = found[i]
        sort_descending(order, n, values)
        nodes = counters[NODES] - before + 1  # the root counted
        spent += nodes
        depth = d
        top = values[order[0]]
        if top >= proven or top <= -proven or (counters[HORIZON] == 0 and counters[HITS] == 0):
            break
        if spent + nodes * nodes // max(previous, np.int64(1)) > budget:
            break
        previous = nodes
    return legal[order[0]], depth, spent


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
    counters = np.zeros(COUNTERS, np.int64)
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
