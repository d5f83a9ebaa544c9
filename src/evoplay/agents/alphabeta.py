"""``alphabeta(depth=D)``: minimax with alpha-beta pruning, in Numba for Kalah and m,n,k, through the game API for
any other game (evoplay.agents.generic_search: the true result at terminal positions, below the horizon the
score difference or a named feature)."""
from __future__ import annotations

import numpy as np

from evoplay.agents import generic_search, kernel_search
from evoplay.agents.kernel_search import KernelSearch

from evoplay.games.kalah import search as search_kalah

from evoplay.games.mnk import search as search_mnk
from evoplay.agents.base import Agent
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


def numba_search(game, state, depth: int, exact_ties: bool, weights=None, mnk_eval=None):
    """The Numba alpha-beta of Kalah (the weights leaf with ``weights``, else material) or m,n,k (``mnk_eval``:
    eval_kind, params, windows) from ``state``: (values per action, first best action, nodes)."""
    player = state.current_player()
    if isinstance(game, KalahGame):
        return search_kalah.search(state._board, player, depth, game.pits, game.empty_capture, exact_ties, weights)
    return search_mnk.search(state._board, player, depth, game.m, game.n, game.k, *mnk_eval, exact_ties)


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
        self.state_api_only = not self.fast  # the game's own search reads its State's board
        # A game that hands over kernels is searched inside Numba (agents/kernel_search.py, the same values).
        self._kernel = KernelSearch(game) if not self.fast and kernel_search.supports(game) else None
        if self._kernel is not None:
            self._leaf = (kernel_search.make_leaf(kernel_search.FEATURE, index=self._evaluate.index)
                          if isinstance(self._evaluate, FeatureValue) else kernel_search.make_leaf(kernel_search.SCORE))
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
                                           mnk_eval=mnk_eval)
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
        if self._kernel is not None:
            actions, values = self._kernel.search(state, player, self.depth_for(state), self._leaf, stats=stats)
        else:
            actions, values = generic_search.search(state, player, self.depth_for(state), self._evaluate, self._rng,
                                                     stats=stats)
        self.nodes += stats.get("nodes", 0)
        if not actions:
            raise IllegalActionError(f"{self.spec}: player {player} has no legal action here")
        top = np.flatnonzero(values == values.max())
        if self.random_ties and len(top) > 1:
            return int(actions[int(top[int(self._rng.integers(len(top)))])])
        return int(actions[int(top[0])])
