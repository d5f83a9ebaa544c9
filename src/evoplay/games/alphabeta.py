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

**Compiled per game and leaf.** The kernel text (``value``) is written once against the names ``hook_*`` and
``INFINITY``; ``compiled(hooks)`` loads a copy of this module with them bound to a game's :class:`Hooks`
(``evoplay.games.kernels.specialise``), so Numba compiles the search with the game's rules and leaf inlined, as if
written for it. Used by ``games/kalah/search.py`` (material, weights and program leaves) and
``games/mnk/search.py`` (line counts, seed 001's evaluation); ``games/kalah/deepening.py`` shares the backup step.
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
hook_moves = hook_open = hook_play = hook_leaf = None
INFINITY = 0


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


@dataclass(frozen=True, eq=False)
class Hooks:
    """What a game's own search hands the one alpha-beta (see the module docstring): the kernels ``moves(rules)``,
    ``open(board, player, move, rules)``, ``play(child, player, move, rules, ply) -> (next, outcome)`` and
    ``leaf(child, next, outcome, root, ply, rules, leaf)``, their plain-Python references ``reference_play`` and
    ``reference_leaf`` (``moves`` and ``open`` are read as plain Python through their ``py_func``), ``infinity``
    (beyond every value: an int for int64 values, ``math.inf`` for float64), and the Numba types of ``rules``,
    of the ``leaf`` argument, of the values and of ``nodes`` (``types.none`` where nodes are not counted).
    ``name`` names the compiled copy (the game and the leaf), ``key`` adds a hash of the files the hooks are
    written in (an edited leaf compiles afresh)."""

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

    @property
    def key(self) -> str:
        cached = self.__dict__.get("_key")
        if cached:
            return cached
        digest = hashlib.sha256()
        for fn in (self.moves, self.open, self.play, self.leaf):
            digest.update(fn.py_func.__qualname__.encode())
            digest.update(open(inspect.getsourcefile(fn.py_func), "rb").read())
        key = f"{self.name}_{digest.hexdigest()[:12]}"
        object.__setattr__(self, "_key", key)
        return key

    def bindings(self) -> dict:
        return {"hook_moves": self.moves, "hook_open": self.open, "hook_play": self.play, "hook_leaf": self.leaf,
                "INFINITY": self.infinity}


# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_value(board, player: int, root: int, depth: int, alpha, beta, rules, leaf, nodes: list, hooks: Hooks,
                    ply: int = 0, values=None, exact_ties: bool = False):
    """Fail-soft alpha-beta value of a non-terminal ``board`` (a list) with ``player`` to move, ``ply`` plies
    below the root, seen from ``root``.

    With ``values`` (a list with a place for every move) ``board`` is the root itself (``player`` is ``root``, the
    window unbounded): every open move's value is written there and the first best move is returned instead of
    the value (see the module docstring). ``nodes`` is [count] or [count, budget]."""
    nodes[0] += 1
    inf = hooks.infinity
    maximizing = player == root
    best = -inf if maximizing else inf
    best_move = -1
    for move in range(hooks.moves.py_func(rules)):
        if len(nodes) > 1 and nodes[0] > nodes[1]:
            break  # the budget is spent: the caller drops this search
        if not hooks.open.py_func(board, player, move, rules):
            continue
        child = list(board)
        nxt, outcome = hooks.reference_play(child, player, move, rules, ply)
        if nxt == TERMINAL or depth == 1:
            nodes[0] += 1
            value = hooks.reference_leaf(child, nxt, outcome, root, ply + 1, rules, leaf)
        else:
            low = reference_child_alpha(values is not None, exact_ties, alpha, inf)
            value = reference_value(child, nxt, root, depth - 1, low, beta, rules, leaf, nodes, hooks, ply + 1)
        if values is not None:
            values[move] = value
            if best_move < 0 or value > best:  # the root's first open move stands until a strictly better one
                best, best_move = value, move
        best, alpha, beta = reference_backup(maximizing, value, best, alpha, beta)
        if alpha >= beta:
            break
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


def value(boards, ply, player, root, depth, alpha, beta, rules, leaf, nodes, values, exact_ties):
    """Kernel of ``reference_value``; ``boards[ply]`` holds the position, deeper rows are scratch space. Compiled
    twice: ``value`` for the inner nodes (``values`` None), from which Numba prunes the root's bookkeeping, and
    ``root_value`` for the root, which calls ``value`` (a specialisation calling another of its own dispatcher
    would not load back from the cache)."""
    if nodes is not None:
        nodes[0] += 1
    board = boards[ply]
    child = boards[ply + 1]
    maximizing = player == root
    best = -INFINITY if maximizing else INFINITY
    best_move = -1
    for move in range(hook_moves(rules)):
        if nodes is not None and nodes[0] > nodes[1]:
            break  # the node budget is spent: the caller drops this search
        if not hook_open(board, player, move, rules):
            continue
        for i in range(board.shape[0]):
            child[i] = board[i]
        nxt, outcome = hook_play(child, player, move, rules, ply)
        if nxt == TERMINAL or depth == 1:
            if nodes is not None:
                nodes[0] += 1
            v = hook_leaf(child, nxt, outcome, root, ply + 1, rules, leaf)
        else:
            low = child_alpha(values is not None, exact_ties, alpha, INFINITY)
            v = value(boards, ply + 1, nxt, root, depth - 1, low, beta, rules, leaf, nodes, None, exact_ties)
        if values is not None:
            values[move] = v
            if best_move < 0 or v > best:
                best = v
                best_move = move
        best, alpha, beta = backup(maximizing, v, best, alpha, beta)
        if alpha >= beta:
            break
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
                  hooks.leaf_type, hooks.nodes_type, values, types.boolean)


#: the recursive kernels, compiled per game and leaf with these signatures (evoplay.games.kernels.specialise)
RECURSIVE = {"value": lambda hooks: _signature(hooks, False), "root_value": lambda hooks: _signature(hooks, True)}


@njit(cache=True, inline="always")
def search_root(board, player, depth, rules, leaf, boards, nodes, values, exact_ties):
    """Kernel of ``reference_root_values``: fills ``values`` per move (minus ``INFINITY`` where not open), adds
    the nodes to ``nodes[0]`` (unless None; ``nodes[1]`` is the budget) and returns the first best move.
    ``boards``: at least depth + 2 rows of scratch."""
    for i in range(boards.shape[1]):
        boards[0, i] = board[i]
    for i in range(values.shape[0]):
        values[i] = -INFINITY
    return root_value(boards, 0, player, player, depth, -INFINITY, INFINITY, rules, leaf, nodes, values, exact_ties)


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

