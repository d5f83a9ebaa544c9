"""``alphabeta(depth=D)``: minimax with alpha-beta pruning in Numba for Kalah and the m,n,k-game."""
from __future__ import annotations

import numpy as np

from evoplay.agents import search_kalah, search_mnk
from evoplay.agents.base import Agent
from evoplay.errors import SpecError
from evoplay.games.kalah import KalahGame
from evoplay.games.mnk import MnkGame

SCHEDULES = ("none", "seed001")
DEFAULT_DEPTH = 4


class AlphaBetaAgent(Agent):
    """Searches ``depth`` plies (a Kalah extra move is a ply of its own) and plays the best move.

    Ties go to the lowest action unless ``random_ties`` is set, then to a uniformly drawn one of the tied best
    moves (the root searches tied moves exactly for that). For m,n,k ``schedule=seed001`` takes the depth from
    the number of empty cells as seed 001 did; an explicit depth then caps it.
    """

    def __init__(self, game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
                 spec: str | None = None):
        super().__init__(game)
        if not isinstance(game, (KalahGame, MnkGame)):
            raise SpecError(f"alphabeta has no evaluation for game '{game.name}'; it plays: kalah, mnk")
        if depth < 0 or depth > 40:
            raise SpecError(f"alphabeta: depth={depth} is out of range; use 1..40 (0 = default)")
        if schedule not in SCHEDULES:
            raise SpecError(f"alphabeta: unknown schedule '{schedule}'; known: {', '.join(SCHEDULES)}")
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
        if self.schedule == "seed001":
            d = search_mnk.schedule_depth(state.empties())
            return min(d, self.depth) if self.depth else d
        return self.depth or DEFAULT_DEPTH

    def root_values(self, state) -> tuple[np.ndarray, int]:
        """Values of every action at the root (see the search modules) and the first best action."""
        g = self.game
        depth = self.depth_for(state)
        player = state.current_player()
        if isinstance(g, KalahGame):
            values, best, nodes = search_kalah.search(
                state._board, player, depth, g.pits, g.empty_capture, self.random_ties
            )
        else:
            values, best, nodes = search_mnk.search(
                state._board, player, depth, g.m, g.n, g.k, self._eval_kind, self._params, self._windows,
                self.random_ties,
            )
        self.nodes += nodes
        return values, best

    def step(self, state) -> int:
        values, best = self.root_values(state)
        if not self.random_ties:
            return best
        top = np.flatnonzero(values == values[best])
        return int(top[int(self._rng.integers(len(top)))]) if len(top) > 1 else best
