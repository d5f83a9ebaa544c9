"""``alphabeta(depth=D)``: minimax with alpha-beta pruning, in Numba for Kalah and m,n,k, through the game API for
any other game (evoplay.agents.generic_search: the true result at terminal positions, below the horizon the
score difference or a named feature)."""
from __future__ import annotations

import time

import numpy as np

from evoplay.agents import generic_search

from evoplay.games.kalah import search as search_kalah

from evoplay.games.mnk import search as search_mnk
from evoplay.agents.base import Agent
from evoplay.agents.interrupt import NO_BUDGET
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import SIMULTANEOUS
from evoplay.games.kalah.game import KalahGame
from evoplay.games.mnk.game import MnkGame
from evoplay.spec import suggest

SCHEDULES = ("none", "empty_cells")
#: the old names of the schedules, still read: "seed001" was the empty-cells schedule's name
SCHEDULE_ALIASES = (("seed001", "empty_cells"),)


def schedule_name(name: str, who: str) -> str:
    """The schedule ``name`` stands for (an old name gives the new one); SpecError naming ``who`` if unknown."""
    name = dict(SCHEDULE_ALIASES).get(name, name)
    if name not in SCHEDULES:
        raise SpecError(f"{who}: unknown schedule '{name}'; known: {', '.join(SCHEDULES)}")
    return name
DEFAULT_DEPTH = 4
FEATURE_PREFIX = "feature:"


def score_difference(state, player: int) -> float:
    """The leaf value of any game: ``player``'s score minus the best score of the others."""
    scores = state.scores()
    others = [v for q, v in enumerate(scores) if q != player]
    return float(scores[player]) - (max(others) if others else 0.0)


class FeatureValue:
    """The leaf value ``state.features(player)[index]``: one named feature, seen from the player's side."""

    def __init__(self, game, name: str):
        names = game.feature_names()
        if name not in names:
            shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
            raise SpecError(f"alphabeta: eval=feature:{name}: {game.spec} has no feature {name!r}{suggest(name, names)}"
                            f"; its features: {shown}")
        self.name, self.index = name, names.index(name)

    def __call__(self, state, player: int) -> float:
        return float(state.features(player)[self.index])


#: an iteration after one shorter than this runs directly, cut off by a node budget from the time left at the
#: speed measured so far; a longer one runs in a helper thread that watches the deadline (a thread costs about
#: 0.1 ms, which the quick iterations of a shallow search would feel)
QUICK_ITERATION_SECONDS = 0.005


def numba_search(game, state, depth: int, exact_ties: bool, weights=None, mnk_eval=None, agent=None):
    """The Numba alpha-beta of Kalah (the weights leaf with ``weights``, else material) or m,n,k (``mnk_eval``:
    eval_kind, params, windows) from ``state``: (values per action, first best action, nodes).

    With a deadline (``agent.deadline``, see ``Agent``) the search deepens iteratively, 1, 2, ... up to ``depth``
    plies: each iteration after the first is cut off at the deadline (a long one by a helper thread that reads the
    deadline while it runs, so a deadline moved earlier from another thread stops it at once; a quick one by a
    node budget, see QUICK_ITERATION_SECONDS), an iteration cut off is dropped, and the deepest complete one
    decides (depth 1 always completes). Without a deadline it is one search of ``depth`` plies."""
    if agent is None or agent.deadline is None:
        return _numba_search(game, state, depth, exact_ties, weights, mnk_eval, None, None)
    spent = 0
    done = None
    took, rate = 0.0, 0.0  # the last iteration's seconds and nodes per second
    for d in range(1, depth + 1):
        if done is not None and agent.out_of_time():
            break
        nodes = np.array([0, NO_BUDGET], np.int64)
        deadline = None
        if done is not None and took < QUICK_ITERATION_SECONDS:
            nodes[1] = max(1, int((agent.time_left() or 0.0) * rate))
        elif done is not None:
            deadline = lambda: agent.deadline  # noqa: E731
        start = time.perf_counter()
        values, best, count = _numba_search(game, state, d, exact_ties, weights, mnk_eval, nodes, deadline)
        took = time.perf_counter() - start
        spent += count
        if nodes[0] > nodes[1]:
            break  # cut off at the deadline: the previous iteration decides
        done = (values, best)
        rate = count / max(took, 1e-7)
    return done[0], done[1], spent


def _numba_search(game, state, depth, exact_ties, weights, mnk_eval, nodes, deadline):
    player = state.current_player()
    if isinstance(game, KalahGame):
        return search_kalah.search(state._board, player, depth, game.pits, game.empty_capture, exact_ties, weights,
                                   nodes, deadline)
    return search_mnk.search(state._board, player, depth, game.m, game.n, game.k, *mnk_eval, exact_ties, nodes,
                             deadline)


def pick(values: np.ndarray, best: int, random_ties: bool, rng) -> int:
    """``best``, or with ``random_ties`` an action drawn uniformly from those whose value equals its."""
    if not random_ties:
        return best
    top = np.flatnonzero(values == values[best])
    return int(top[int(rng.integers(len(top)))]) if len(top) > 1 else best


def leaf_evaluation(game, eval: str):
    """The generic search's leaf value named by ``eval`` (``auto``/``score`` or ``feature:NAME``)."""
    if eval in ("auto", "score"):
        return score_difference
    if eval.startswith(FEATURE_PREFIX):
        return FeatureValue(game, eval[len(FEATURE_PREFIX):])
    raise SpecError(f"alphabeta: eval={eval!r} is not a leaf value; use auto, score or feature:NAME")


class AlphaBetaAgent(Agent):
    """Searches ``depth`` plies (a Kalah extra move is a ply of its own) and plays the best move.

    Ties go to the lowest action unless ``random_ties`` is set, then to a uniformly drawn one of the tied best
    moves (the root searches tied moves exactly for that). For m,n,k ``schedule=empty_cells`` takes the depth from
    the number of empty cells as seed 001 did; an explicit depth then caps it.
    """

    def __init__(self, game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
                 spec: str | None = None, eval: str = "auto"):
        super().__init__(game)
        # Kalah and m,n,k with their own evaluation run in Numba; anything else searches the game API.
        self.fast = isinstance(game, (KalahGame, MnkGame)) and eval == "auto"
        self._evaluate = None if self.fast else leaf_evaluation(game, eval)
        self.eval = eval
        if depth < 0 or depth > 40:
            raise SpecError(f"alphabeta: depth={depth} is out of range; use 1..40 (0 = default)")
        schedule = schedule_name(schedule, "alphabeta")
        if schedule != "none" and not isinstance(game, MnkGame):
            raise SpecError("alphabeta: a depth schedule is for the m,n,k-game only")
        self.depth = depth
        self.schedule = schedule
        self.random_ties = random_ties
        self.spec = spec or f"alphabeta(depth={depth or DEFAULT_DEPTH})"
        self._rng = np.random.default_rng(seed)
        self.nodes = 0  # nodes searched since construction, for benchmarks
        if isinstance(game, MnkGame):
            self._windows = search_mnk.line_windows(game.m, game.n, game.k)
            self._params = search_mnk.default_line_weights(game.k)
            self._eval_kind = search_mnk.EVAL_LINES

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self._rng = np.random.default_rng(seed)

    def depth_for(self, state) -> int:
        if self.schedule == "empty_cells":
            d = search_mnk.schedule_depth(state.empties())
            return min(d, self.depth) if self.depth else d
        return self.depth or DEFAULT_DEPTH

    def root_values(self, state) -> tuple[np.ndarray, int]:
        """Values of every action at the root (see the search modules) and the first best action."""
        mnk_eval = None if isinstance(self.game, KalahGame) else (self._eval_kind, self._params, self._windows)
        values, best, nodes = numba_search(self.game, state, self.depth_for(state), self.random_ties,
                                           mnk_eval=mnk_eval, agent=self)
        self.nodes += nodes
        return values, best

    def step(self, state) -> int:
        if not self.fast:
            return self.step_api(state)
        values, best = self.root_values(state)
        return pick(values, best, self.random_ties, self._rng)

    def step_api(self, state) -> int:
        """The generic search (evoplay.agents.generic_search) for the player to move, or this seat at a
        simultaneous node; opponents' simultaneous moves and hidden cards are drawn from the agent's seed."""
        player = state.current_player()
        if player == SIMULTANEOUS:
            player = self.seat
        elif player < 0:
            raise IllegalActionError(f"{self.spec}: asked to move where no player moves (current player {player})")
        stats = {}
        # A deadline (evoplay serve's move time) makes the search deepen iteratively up to its depth and stop there.
        budget = generic_search.Budget(deadline=self.deadline) if self.deadline is not None else None
        actions, values = generic_search.search(state, player, self.depth_for(state), self._evaluate, self._rng,
                                                 stats=stats, budget=budget, table={} if budget else None)
        self.nodes += stats.get("nodes", 0)
        if not actions:
            raise IllegalActionError(f"{self.spec}: player {player} has no legal action here")
        top = np.flatnonzero(values == values.max())
        if self.random_ties and len(top) > 1:
            return int(actions[int(top[int(self._rng.integers(len(top)))])])
        return int(actions[int(top[0])])
