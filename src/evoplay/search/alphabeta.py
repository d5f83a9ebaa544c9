"""The one alpha-beta of the games' own searches, compiled per game and leaf: a readable reference and its Numba
kernel over a board, the game handing over its moves, its rules and its leaf as hooks; and what every search shares:
the backup step, the root's window and the move a search's root values choose (``pick``, ``SearchPlayer``).

**The search.** Minimax (not negamax: a game may keep the mover, as Kalah's extra move does) with fail-soft
alpha-beta, ``depth`` plies from a root ``player`` to move, every value seen from the root player. A node tries the
moves ``0 .. hooks.moves(rules) - 1`` in order, skipping those ``hooks.open`` refuses; a child is played on a copy
of the board by ``hooks.play`` (which returns the next mover, TERMINAL for a finished game, and an outcome the leaf
may read, such as m,n,k's winner). A finished child or one at the depth horizon is valued by ``hooks.leaf`` (from
the root's side, ``ply`` plies below the root, with the search's ``leaf`` argument handed over untouched: weights,
a program, an evaluation's parameters); the others are searched. ``rules`` is the game's tuple of numbers its hooks
read (Kalah's pits and capture rule, m,n,k's m, n, k and the empty cells at the root).

A maximizing node keeps the highest value as its best and raises ``alpha`` to it, a minimizing node the lowest,
lowering ``beta``; only a strictly better value replaces the best, so ties go to the move tried first. The node
stops searching its children once ``alpha >= beta``. At the root every open move's value is written to
``values`` (exact for the best and, with ``exact_ties``, for every move tied with it: their window is opened by
one; upper bounds for the others), the first open move stands until a strictly better one comes (so a leaf
valuing every position NaN still moves), and the first best move is returned.

**Nodes.** Every node is counted, the root and each leaf included (``nodes`` = [count, budget], or None where
nothing reads the count); with a budget no child is searched once the count has passed it, and the caller, seeing
``count > budget``, drops the search's values. A deadline sets the budget to 0 from another thread while the
kernel runs (``evoplay.interrupt.run_search``).

**The transposition table and the move order** (a search given a ``table``; Kalah's iterative deepening). The
table is ``size`` entries (a power of two) of five integers, [key, depth, flag, value, move]: the slot of a key is
``key & (size - 1)``, every store replaces the slot, and key 0 marks an empty entry; the flag says what the value
is: ``EXACT``, a ``LOWER`` bound (the search failed high) or an ``UPPER`` bound (it failed low). Below the root a
node looks up its key (``hooks.key_of``): an entry searched at least as deep ends the search of the node when its
value is exact or its bound falls outside the window (a hit), and its move is tried first otherwise; the node stores
its best value and move when done. The moves are then tried in the order ``hooks.order`` gives (the table's move,
at the root the caller's ``first``, then the game's order), and ``nodes`` = [count, budget, leaves at the horizon,
hits] counts the last two as well. The root is neither looked up nor stored.

**Compiled per game and leaf.** The kernel text (``value``) is written once against the names ``hook_*`` and
``INFINITY``; ``compiled(hooks)`` loads a copy of this module with them bound to a game's :class:`Hooks`
(``evoplay.games.kernels.specialise``), so Numba compiles the search with the game's rules and leaf inlined, as if
written for it. Its kernel is used by ``games/kalah/deepening.py`` (the weights leaf with a table and Kalah's move
order); its reference is also the plain-Python reference of Kalah's and m,n,k's own searches
(``games/kalah/search.py``, ``games/mnk/search.py``), whose kernels are now the one alpha-beta,
``evoplay.search.minimax_kernel``, given the game's own leaf (issue 38: this module's search goes once
``deepening.py`` runs there too and the references move beside ``minimax.py``).
"""
from __future__ import annotations

import hashlib
import inspect
import time
from dataclasses import dataclass
from types import FunctionType
from typing import Callable

import numpy as np
from numba import njit, types

from evoplay.games.agent import Agent
from evoplay.games.base import TERMINAL
from evoplay.interrupt import NO_BUDGET

DEFAULT_DEPTH = 4  # plies an ``alphabeta`` agent searches when given no depth

#: an iteration after one shorter than this runs directly, cut off by a node budget from the time left at the
#: speed measured so far; a longer one runs in a helper thread that watches the deadline (a thread costs about
#: 0.1 ms, which the quick iterations of a shallow search would feel)
QUICK_ITERATION_SECONDS = 0.005

# A game's hooks and the bound beyond every value: bound per game and leaf by ``compiled`` (see the docstring).
hook_moves = hook_open = hook_play = hook_leaf = hook_order = hook_key = None
INFINITY = 0

EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is
KEY, DEPTH, FLAG, VALUE, MOVE = range(5)  # the columns of an entry
NODES, BUDGET, HORIZON, HITS = range(4)  # the counters of ``nodes``
NO_MOVE = np.int64(-1)


def reference_better(maximizing: bool, value, best) -> bool:
    """Does ``value`` replace ``best``?"""
    return value > best if maximizing else value < best


better = njit(cache=True, inline="always")(reference_better)


def reference_backup(maximizing: bool, value, best, alpha, beta):
    """(best, alpha, beta) after a child worth ``value``. A caller that keeps the best move compares ``value``
    with ``best`` itself (``better``)."""
    if reference_better(maximizing, value, best):
        best = value
    if maximizing:
        alpha = max(alpha, best)
    else:
        beta = min(beta, best)
    return best, alpha, beta


@njit(cache=True, inline="always")
def backup(maximizing, value, best, alpha, beta):
    """Kernel of ``reference_backup``. (Returning whether the value became the best as well cost the Kalah
    search a sixth of its speed: callers that need it use ``better``.)"""
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
    return best, alpha, beta


def reference_child_alpha(at_root: bool, exact_ties: bool, alpha, inf):
    """The alpha a child is searched with: one below the node's at a root that wants exact ties (a child that
    ties the best so far then comes back with its exact value, not as a bound), else the node's own."""
    return alpha - 1 if at_root and exact_ties and alpha > -inf else alpha


child_alpha = njit(cache=True, inline="always")(reference_child_alpha)


def reference_probe(table: list, key: int, depth: int, alpha: int, beta: int) -> tuple[int, bool, int]:
    """(the entry's move or -1, whether its value settles the node, that value) for a node searched to ``depth``
    within (``alpha``, ``beta``); ``table`` a list of [key, depth, flag, value, move] lists."""
    entry = table[key & (len(table) - 1)]
    if entry[KEY] != key:
        return -1, False, 0
    v, flag = entry[VALUE], entry[FLAG]
    hit = entry[DEPTH] >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha))
    return entry[MOVE], hit, v if hit else 0


def reference_store(table: list, key: int, depth: int, best: int, alpha0: int, beta0: int, move: int) -> None:
    """Store a node's ``best`` value found within the window (``alpha0``, ``beta0``) it was searched in."""
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta0 else EXACT)
    table[key & (len(table) - 1)] = [key, depth, flag, best, move]


@njit(cache=True, inline="always")
def probe(table, key, depth, alpha, beta):
    """Kernel of ``reference_probe`` (``table`` an int64 array of entries)."""
    slot = key & (table.shape[0] - 1)
    if table[slot, KEY] != key:
        return np.int64(-1), False, np.int64(0)
    v = table[slot, VALUE]
    flag = table[slot, FLAG]
    settles = flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)
    if table[slot, DEPTH] >= depth and settles:
        return table[slot, MOVE], True, v
    return table[slot, MOVE], False, np.int64(0)


@njit(cache=True, inline="always")
def store(table, key, depth, best, alpha0, beta0, move):
    """Kernel of ``reference_store``."""
    slot = key & (table.shape[0] - 1)
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta0:
        flag = LOWER
    table[slot, KEY] = key
    table[slot, DEPTH] = depth
    table[slot, FLAG] = flag
    table[slot, VALUE] = best
    table[slot, MOVE] = move


@dataclass(frozen=True, eq=False)
class Hooks:
    """What a game's own search hands the one alpha-beta (see the module docstring): the kernels ``moves(rules)``,
    ``open(board, player, move, rules)``, ``play(child, player, move, rules, ply) -> (next, outcome)`` and
    ``leaf(child, next, outcome, root, ply, rules, leaf)``, their plain-Python references ``reference_play`` and
    ``reference_leaf`` (``moves`` and ``open`` are read as plain Python through their ``py_func``), ``infinity``
    (beyond every value: an int for int64 values, ``math.inf`` for float64), and the Numba types of ``rules``,
    of the ``leaf`` argument, of the values and of ``nodes`` (``types.none`` where nodes are not counted). A search
    with a transposition table adds ``order(board, player, rules, first, out) -> count`` (the moves to try, into
    ``out``), ``key_of(board, player, rules)``, their references ``reference_order(board, player, rules, first) ->
    list`` and ``reference_key``, and the types of the table and of the moves' scratch rows. ``name`` names the
    compiled copy (the game and the leaf), ``key`` adds a hash of the files the hooks are written in (an edited
    leaf compiles afresh)."""

    name: str
    moves: Callable
    open: Callable
    play: Callable
    leaf: Callable
    reference_play: Callable
    reference_leaf: Callable
    infinity: int | float
    rules_type: types.Type
    leaf_type: types.Type
    value_type: types.Type = types.int64
    nodes_type: types.Type = types.int64[::1]
    order: Callable | None = None
    key_of: Callable | None = None
    reference_order: Callable | None = None
    reference_key: Callable | None = None
    table_type: types.Type = types.none
    moves_type: types.Type = types.none

    @property
    def key(self) -> str:
        cached = self.__dict__.get("_key")
        if cached:
            return cached
        digest = hashlib.sha256()
        for fn in (self.moves, self.open, self.play, self.leaf, self.order, self.key_of):
            if fn is None:
                continue
            digest.update(fn.py_func.__qualname__.encode())
            digest.update(open(inspect.getsourcefile(fn.py_func), "rb").read())
        key = f"{self.name}_{digest.hexdigest()[:12]}"
        object.__setattr__(self, "_key", key)
        return key

    def bindings(self) -> dict:
        return {"hook_moves": self.moves, "hook_open": self.open, "hook_play": self.play, "hook_leaf": self.leaf,
                "hook_order": self.order, "hook_key": self.key_of, "INFINITY": self.infinity}


# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_value(board, player: int, root: int, depth: int, alpha, beta, rules, leaf, nodes: list, hooks: Hooks,
                    ply: int = 0, values=None, exact_ties: bool = False, table: list | None = None, first: int = -1):
    """Fail-soft alpha-beta value of a non-terminal ``board`` (a list) with ``player`` to move, ``ply`` plies
    below the root, seen from ``root``.

    With ``values`` (a list with a place for every move) ``board`` is the root itself (``player`` is ``root``, the
    window unbounded): every open move's value is written there and the first best move is returned instead of
    the value (see the module docstring). ``nodes`` is [count] or [count, budget], with a ``table`` (a list of
    entries) [count, budget, horizon, hits]; ``first`` is the root's move to try first then."""
    nodes[NODES] += 1
    if table is not None and values is None:
        key = hooks.reference_key(board, player, rules)
        first, hit, v = reference_probe(table, key, depth, alpha, beta)
        if hit:
            nodes[HITS] += 1
            return v
    alpha0, beta0 = alpha, beta
    inf = hooks.infinity
    maximizing = player == root
    best = -inf if maximizing else inf
    best_move = -1
    if table is not None:
        moves = hooks.reference_order(board, player, rules, first)
    else:
        moves = [m for m in range(hooks.moves.py_func(rules)) if hooks.open.py_func(board, player, m, rules)]
    for move in moves:
        if len(nodes) > 1 and nodes[NODES] > nodes[BUDGET]:
            break  # the budget is spent: the caller drops this search
        child = list(board)
        nxt, outcome = hooks.reference_play(child, player, move, rules, ply)
        if nxt == TERMINAL or depth == 1:
            nodes[NODES] += 1
            if table is not None and nxt != TERMINAL:
                nodes[HORIZON] += 1
            value = hooks.reference_leaf(child, nxt, outcome, root, ply + 1, rules, leaf)
        else:
            low = reference_child_alpha(values is not None, exact_ties, alpha, inf)
            value = reference_value(child, nxt, root, depth - 1, low, beta, rules, leaf, nodes, hooks, ply + 1,
                                    table=table)
        if values is not None:
            values[move] = value
            if best_move < 0 or value > best:  # the root's first open move stands until a strictly better one
                best, best_move = value, move
        elif reference_better(maximizing, value, best):
            best_move = move
        best, alpha, beta = reference_backup(maximizing, value, best, alpha, beta)
        if alpha >= beta:
            break
    if table is not None and values is None:
        reference_store(table, key, depth, best, alpha0, beta0, best_move)
    return best if values is None else best_move


def reference_root_values(board, player: int, depth: int, rules, leaf, hooks: Hooks, exact_ties: bool = False,
                          budget: int = NO_BUDGET) -> tuple[list, int, int]:
    """The root's ``reference_value``: the values of the moves (minus infinity for those not open), the first
    best move and the node count (past ``budget`` when the budget cut the search off)."""
    inf = hooks.infinity
    values = [-inf] * hooks.moves.py_func(rules)
    nodes = [0, budget]
    best = reference_value([int(x) for x in board], player, player, depth, -inf, inf, rules, leaf, nodes, hooks, 0,
                           values, exact_ties)
    return values, best, nodes[0]


# --------------------------------------------------------------------------------------------------------------
# Kernel: compiled per game and leaf (``compiled``), ``value`` for the inner nodes and ``root_value`` for the root.
# --------------------------------------------------------------------------------------------------------------


def value(boards, ply, player, root, depth, alpha, beta, rules, leaf, nodes, values, exact_ties, table, moves, first):
    """Kernel of ``reference_value``; ``boards[ply]`` holds the position, deeper rows (and ``moves``, with a
    ``table``) are scratch space. Compiled twice: ``value`` for the inner nodes (``values`` None), from which
    Numba prunes the root's bookkeeping, and ``root_value`` for the root, which calls ``value`` (a specialisation
    calling another of its own dispatcher would not load back from the cache); Numba prunes the table's code from
    a search given none."""
    if nodes is not None:
        nodes[NODES] += 1
    board = boards[ply]
    if table is not None and values is None:
        key = hook_key(board, player, rules)
        first, hit, stored = probe(table, key, depth, alpha, beta)
        if hit:
            nodes[HITS] += 1
            return stored
    alpha0 = alpha
    beta0 = beta
    child = boards[ply + 1]
    maximizing = player == root
    best = -INFINITY if maximizing else INFINITY
    best_move = -1
    count = hook_moves(rules)
    if table is not None:
        count = hook_order(board, player, rules, first, moves[ply])
    for i in range(count):
        if nodes is not None and nodes[NODES] > nodes[BUDGET]:
            break  # the node budget is spent: the caller drops this search
        if table is not None:
            move = moves[ply, i]
        else:
            move = i
            if not hook_open(board, player, move, rules):
                continue
        for j in range(board.shape[0]):
            child[j] = board[j]
        nxt, outcome = hook_play(child, player, move, rules, ply)
        if nxt == TERMINAL or depth == 1:
            if nodes is not None:
                nodes[NODES] += 1
                if table is not None and nxt != TERMINAL:
                    nodes[HORIZON] += 1
            v = hook_leaf(child, nxt, outcome, root, ply + 1, rules, leaf)
        else:
            low = child_alpha(values is not None, exact_ties, alpha, INFINITY)
            v = value(boards, ply + 1, nxt, root, depth - 1, low, beta, rules, leaf, nodes, None, exact_ties, table,
                      moves, NO_MOVE)
        if values is not None:
            values[move] = v
            if best_move < 0 or v > best:
                best = v
                best_move = move
        elif table is not None and better(maximizing, v, best):
            best_move = move
        best, alpha, beta = backup(maximizing, v, best, alpha, beta)
        if alpha >= beta:
            break
    if table is not None and values is None:
        store(table, key, depth, best, alpha0, beta0, best_move)
    if values is not None:
        return best_move
    return best


root_value = FunctionType(value.__code__, globals(), "root_value")
root_value.__qualname__ = "root_value"


def _signature(hooks: Hooks, root: bool):
    """``value`` (``root`` False: returns the node's value) or ``root_value`` (returns the best move)."""
    v = hooks.value_type
    values, result = (v[::1], types.int64) if root else (types.none, v)
    return result(types.int8[:, ::1], types.int64, types.int64, types.int64, types.int64, v, v, hooks.rules_type,
                  hooks.leaf_type, hooks.nodes_type, values, types.boolean, hooks.table_type, hooks.moves_type,
                  types.int64)


#: the recursive kernels, compiled per game and leaf with these signatures (evoplay.games.kernels.specialise)
RECURSIVE = {"value": lambda hooks: _signature(hooks, False), "root_value": lambda hooks: _signature(hooks, True)}


@njit(cache=True, inline="always")
def search_root(board, player, depth, rules, leaf, boards, nodes, values, exact_ties, table, moves, first):
    """Kernel of ``reference_root_values``: fills ``values`` per move (minus ``INFINITY`` where not open), adds
    the nodes to ``nodes[0]`` (unless None; ``nodes[1]`` is the budget) and returns the first best move.
    ``boards``: at least depth + 2 rows of scratch; ``table``, ``moves`` (as many rows) and ``first``: see
    ``value``."""
    for i in range(boards.shape[1]):
        boards[0, i] = board[i]
    for i in range(values.shape[0]):
        values[i] = -INFINITY
    return root_value(boards, 0, player, player, depth, -INFINITY, INFINITY, rules, leaf, nodes, values, exact_ties,
                      table, moves, np.int64(first))


def compiled(hooks: Hooks):
    """This module compiled for ``hooks`` (a game and its leaf): ``compiled(hooks).search_root`` is its search."""
    from evoplay.games.kernels import specialise

    return specialise(__name__, hooks)


def pick(values: np.ndarray, best: int, random_ties: bool, rng) -> int:
    """The move a search plays: ``best`` (its first best action), or with ``random_ties`` an action drawn uniformly
    with ``rng`` from those whose value equals its."""
    if not random_ties:
        return best
    top = np.flatnonzero(values == values[best])
    return int(top[int(rng.integers(len(top)))]) if len(top) > 1 else best


class SearchPlayer(Agent):
    """A player that plays the first best of the values its search gives each action at the root
    (``root_values(state)`` -> (values, first best action)), or with ``random_ties`` one of the tied best drawn
    from its seed (``pick``); ``nodes`` counts the nodes its searches visited (the games' own alpha-beta agents
    and genome players share this)."""

    def __init__(self, game, random_ties: bool = False, seed: int = 0, spec: str = "agent"):
        super().__init__(game)
        self.random_ties = random_ties
        self.spec = spec
        self._rng = np.random.default_rng(seed)
        self.nodes = 0  # nodes searched since construction, for benchmarks

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self._rng = np.random.default_rng(seed)

    def root_values(self, state) -> tuple[np.ndarray, int]:
        raise NotImplementedError

    def searched(self, search, depth: int) -> tuple[np.ndarray, int]:
        """(values per action, first best action) of ``search(depth, nodes, deadline)`` -> (values, best, count), a
        game's Numba search (``nodes``: an int64 array [count, budget] it counts into and is cut off by;
        ``deadline``: a function giving the deadline, read while it runs), counted into ``nodes``.

        With a deadline (``self.deadline``, see ``Agent``) the search deepens iteratively, 1, 2, ... up to
        ``depth`` plies: each iteration after the first is cut off at the deadline (a long one by a helper thread
        that reads the deadline while it runs, so a deadline moved earlier from another thread stops it at once; a
        quick one by a node budget, see QUICK_ITERATION_SECONDS), an iteration cut off is dropped, and the deepest
        complete one decides (depth 1 always completes). Without a deadline it is one search of ``depth`` plies."""
        if self.deadline is None:
            values, best, count = search(depth, None, None)
            self.nodes += count
            return values, best
        done = None
        took, rate = 0.0, 0.0  # the last iteration's seconds and nodes per second
        for d in range(1, depth + 1):
            if done is not None and self.out_of_time():
                break
            nodes = np.array([0, NO_BUDGET], np.int64)
            deadline = None
            if done is not None and took < QUICK_ITERATION_SECONDS:
                nodes[1] = max(1, int((self.time_left() or 0.0) * rate))
            elif done is not None:
                deadline = lambda: self.deadline  # noqa: E731
            start = time.perf_counter()
            values, best, count = search(d, nodes, deadline)
            took = time.perf_counter() - start
            self.nodes += count
            if nodes[0] > nodes[1]:
                break  # cut off at the deadline: the previous iteration decides
            done = (values, best)
            rate = count / max(took, 1e-7)
        return done

    def step(self, state) -> int:
        values, best = self.root_values(state)
        return pick(values, best, self.random_ties, self._rng)

