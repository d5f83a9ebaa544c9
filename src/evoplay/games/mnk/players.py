"""The players only the m,n,k-game has (``MnkGame.players``): its own alpha-beta and its shipped champion.

``alphabeta`` on m,n,k (its evaluation ``auto``) is the game's Numba search (``search.py``) with the line-count
evaluation, ``depth`` plies deep or, with ``schedule=empty_cells``, as deep as seed 001's schedule by empty cells
says (an explicit depth then caps it). ``champion`` is the 5,5,4 champion: the genome of ``evoplay evolve mnk
--config threats`` (``champion.json``: seed 001's genome extended by open windows and forks), searched by the
threat search within the file's node budget; it plays 5,5,4 only, its positional weights being the 5x5 board's.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import IllegalActionError
from evoplay.games.agent import AgentEntry
from evoplay.search.alphabeta import DEFAULT_DEPTH, SearchPlayer
from evoplay.games.tools.champions import shipped_champion
from evoplay.games.mnk import search as search_mnk


class MnkAlphaBeta(SearchPlayer):
    """Alpha-beta over the line counts (see the module docstring); ties go to the lowest cell unless
    ``random_ties`` (then to one of the tied cells drawn from the agent's seed: the root searches ties exactly)."""

    def __init__(self, game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
                 spec: str | None = None):
        super().__init__(game, random_ties, seed, spec or f"alphabeta(depth={depth or DEFAULT_DEPTH})")
        self.depth = int(depth)
        self.schedule = search_mnk.schedule_name(schedule, "alphabeta")
        self._windows = search_mnk.line_windows(game.m, game.n, game.k)
        self._params = search_mnk.default_line_weights(game.k)

    def depth_for(self, state) -> int:
        if self.schedule == "empty_cells":
            d = search_mnk.schedule_depth(state.empties())
            return min(d, self.depth) if self.depth else d
        return self.depth or DEFAULT_DEPTH

    def root_values(self, state) -> tuple[np.ndarray, int]:
        """Values of every cell at the root (``search.search``) and the first best cell."""
        g = self.game
        player = state.current_player()
        if player < 0:
            raise IllegalActionError(f"{self.spec}: asked to move where no player moves (current player {player})")
        return self.searched(lambda d, nodes, deadline: search_mnk.search(
            state._board, player, d, g.m, g.n, g.k, search_mnk.EVAL_LINES, self._params, self._windows,
            self.random_ties, nodes, deadline), self.depth_for(state))


def alphabeta(game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
              spec: str | None = None) -> MnkAlphaBeta:
    """``alphabeta`` with its evaluation ``auto`` on m,n,k."""
    return MnkAlphaBeta(game, depth, schedule, random_ties, seed, spec)


def _champion_supports(game) -> str | None:
    return None if (game.m, game.n, game.k) == (5, 5, 4) else "the m,n,k champion plays mnk(m=5,n=5,k=4) only"


def _champion(game, spec: str = "champion", nodes: int = 0):
    return shipped_champion(game, "evoplay.games.mnk", spec, nodes)


CHAMPION = AgentEntry(_champion, supports=_champion_supports)
