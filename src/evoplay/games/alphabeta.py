"""The alpha-beta step every game's search shares: one child's value taken into its node (Python and Numba), and
the move a search's root values choose (``pick``).

A maximizing node keeps the highest value as its best and raises ``alpha`` to it, a minimizing node the lowest,
lowering ``beta``; only a strictly better value replaces the best, so ties go to the child searched first. The
node stops searching its children once ``alpha >= beta``. Used by ``games/kalah/search.py``,
``games/kalah/deepening.py`` and ``games/mnk/search.py``.
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

