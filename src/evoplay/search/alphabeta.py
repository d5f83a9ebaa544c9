"""What the games' own players share (Kalah's and m,n,k's, whose searches are the one alpha-beta,
evoplay.search.minimax_kernel, entered by evoplay.search.minimax_game): the move a search's root values choose
(``pick``, ``SearchPlayer``, which deepens under a deadline) and the fixed-size transposition table of m,n,k's
threat search (``probe``, ``store``).

**The table** is ``size`` entries (a power of two) of five integers, [key, depth, flag, value, move]: the slot of
a key is ``key & (size - 1)``, every store replaces the slot, and key 0 marks an empty entry; the flag says what
the value is: ``EXACT``, a ``LOWER`` bound (the search failed high) or an ``UPPER`` bound (it failed low). An entry
searched at least as deep settles a node when its value is exact or its bound falls outside the window (a hit), and
its move is tried first otherwise.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from evoplay.games.agent import Agent
from evoplay.interrupt import NO_BUDGET

DEFAULT_DEPTH = 4  # plies an ``alphabeta`` agent searches when given no depth

#: an iteration after one shorter than this runs directly, cut off by a node budget from the time left at the
#: speed measured so far; a longer one runs in a helper thread that watches the deadline (a thread costs about
#: 0.1 ms, which the quick iterations of a shallow search would feel)
QUICK_ITERATION_SECONDS = 0.005

EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is
KEY, DEPTH, FLAG, VALUE, MOVE = range(5)  # the columns of an entry


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

