"""The players only Kalah has (``KalahGame.players``): its own alpha-beta and its shipped champion.

``alphabeta`` on Kalah (its evaluation ``auto``) is the game's Numba search (``search.py``) with the material leaf
(the store difference), ``depth`` plies deep (an extra move is a ply of its own). ``champion`` is the Kalah
champion: the genome of ``evoplay evolve mnk --config kalah_champion`` (``champion.json``: feature weights of
``search_weights``), searched by iterative deepening within the file's node budget (``deepening.py``); it plays
any Kalah, its weights having been evolved on standard Kalah.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.agent import AgentEntry
from evoplay.search.alphabeta import DEFAULT_DEPTH, SearchPlayer
from evoplay.games.tools.champions import shipped_champion
from evoplay.games.kalah import search as search_kalah


class KalahAlphaBeta(SearchPlayer):
    """Alpha-beta over the store difference (see the module docstring); ties go to the lowest pit unless
    ``random_ties`` (then to one of the tied pits drawn from the agent's seed: the root searches ties exactly)."""

    def __init__(self, game, depth: int = 0, random_ties: bool = False, seed: int = 0, spec: str | None = None):
        self.depth = int(depth) or DEFAULT_DEPTH
        super().__init__(game, random_ties, seed, spec or f"alphabeta(depth={self.depth})")

    def depth_for(self, state) -> int:
        return self.depth

    def root_values(self, state) -> tuple[np.ndarray, int]:
        """Values of every pit at the root (``search.search``) and the first best pit."""
        g = self.game
        player = state.current_player()
        if player < 0:
            raise IllegalActionError(f"{self.spec}: asked to move where no player moves (current player {player})")
        return self.searched(lambda d, nodes, deadline: search_kalah.search(
            state._board, player, d, g.pits, g.empty_capture, self.random_ties, None, nodes, deadline), self.depth)


def alphabeta(game, depth: int = 0, schedule: str = "none", random_ties: bool = False, seed: int = 0,
              spec: str | None = None) -> KalahAlphaBeta:
    """``alphabeta`` with its evaluation ``auto`` on Kalah (which searches to a fixed depth: no schedule)."""
    if schedule != "none":
        raise SpecError(f"alphabeta: schedule={schedule} is a depth by empty cells, for m,n,k; Kalah searches a "
                        f"fixed depth (leave schedule out)")
    return KalahAlphaBeta(game, depth, random_ties, seed, spec)


def _champion(game, spec: str = "champion", nodes: int = 0):
    return shipped_champion(game, "evoplay.games.kalah", spec, nodes)


CHAMPION = AgentEntry(_champion)
