"""``alphabeta(depth=D)``: minimax with alpha-beta pruning for any game: the game's own search where it has one
(``Game.players["alphabeta"]``, with the evaluation ``auto``), else evoplay.search.minimax -- inside Numba
when the game hands over kernels (evoplay.search.minimax_kernel, the same values) -- with the true result at
terminal positions and, below the horizon, the score difference or a named feature."""
from __future__ import annotations

import numpy as np

from evoplay.agents.base import Agent
from evoplay.search import leaf_kernel, minimax, minimax_kernel
from evoplay.search.minimax_kernel import KernelSearch
from evoplay.errors import IllegalActionError, SpecError
from evoplay.search.alphabeta import DEFAULT_DEPTH, SearchPlayer
from evoplay.games.base import SIMULTANEOUS
from evoplay.spec import suggest

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


def leaf_evaluation(game, eval: str):
    """The generic search's leaf value named by ``eval`` (``auto``/``score`` or ``feature:NAME``)."""
    if eval in ("auto", "score"):
        return score_difference
    if eval.startswith(FEATURE_PREFIX):
        return FeatureValue(game, eval[len(FEATURE_PREFIX):])
    raise SpecError(f"alphabeta: eval={eval!r} is not a leaf value; use auto, score or feature:NAME")


def make_alphabeta(game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
                   spec: str | None = None, eval: str = "auto") -> Agent:
    """The ``alphabeta`` agent of ``game``: its own search (evaluation ``auto``) where it has one, else the search of
    any game (``AlphaBetaAgent``)."""
    if depth < 0 or depth > 40:
        raise SpecError(f"alphabeta: depth={depth} is out of range; use 1..40 (0 = default)")
    own = game.player("alphabeta") if eval == "auto" else None
    if own is not None:
        return own(game, depth=depth, schedule=schedule, random_ties=random_ties, seed=seed, spec=spec)
    return AlphaBetaAgent(game, depth, schedule, random_ties, seed, spec, eval)


class AlphaBetaAgent(SearchPlayer):
    """Searches ``depth`` plies of any game through its State (or its kernels) and plays the best move.

    Ties go to the lowest action unless ``random_ties`` is set, then to a uniformly drawn one of the tied best
    moves (the root searches tied moves exactly for that). A depth schedule belongs to a game's own search.
    """

    def __init__(self, game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
                 spec: str | None = None, eval: str = "auto"):
        super().__init__(game, random_ties, seed, spec or f"alphabeta(depth={depth or DEFAULT_DEPTH})")
        self._evaluate = leaf_evaluation(game, eval)
        self.state_api_only = True
        # A game that hands over kernels is searched inside Numba (search/minimax_kernel.py, the same values).
        self._kernel = KernelSearch(game) if minimax_kernel.supports(game) else None
        if self._kernel is not None:
            self._leaf = (leaf_kernel.make_leaf(leaf_kernel.FEATURE, index=self._evaluate.index)
                          if isinstance(self._evaluate, FeatureValue) else leaf_kernel.make_leaf(leaf_kernel.SCORE))
        self.eval = eval
        if depth < 0 or depth > 40:
            raise SpecError(f"alphabeta: depth={depth} is out of range; use 1..40 (0 = default)")
        if schedule != "none":
            raise SpecError(f"alphabeta: schedule={schedule} is a depth schedule of a game's own search; "
                            f"{game.spec} has none (leave schedule out)")
        self.depth = depth

    def depth_for(self, state) -> int:
        return self.depth or DEFAULT_DEPTH

    def step(self, state) -> int:
        """The generic search (evoplay.search.minimax) for the player to move, or this seat at a
        simultaneous node; opponents' simultaneous moves and hidden cards are drawn from the agent's seed."""
        player = state.current_player()
        if player == SIMULTANEOUS:
            player = self.seat
        elif player < 0:
            raise IllegalActionError(f"{self.spec}: asked to move where no player moves (current player {player})")
        stats = {}
        # A deadline (evoplay serve's move time) makes the search deepen iteratively up to its depth and stop there.
        budget = minimax.Budget(deadline=self.deadline) if self.deadline is not None else None
        if self._kernel is not None:
            table = minimax_kernel.new_table() if budget else None
            actions, values = self._kernel.search(state, player, self.depth_for(state), self._leaf, budget=budget,
                                                  table=table, stats=stats)
        else:
            actions, values = minimax.search(state, player, self.depth_for(state), self._evaluate, self._rng,
                                                     stats=stats, budget=budget, table={} if budget else None)
        self.nodes += stats.get("nodes", 0)
        if not actions:
            raise IllegalActionError(f"{self.spec}: player {player} has no legal action here")
        top = np.flatnonzero(values == values.max())
        if self.random_ties and len(top) > 1:
            return int(actions[int(top[int(self._rng.integers(len(top)))])])
        return int(actions[int(top[0])])
