"""The uniformly random agent: the baseline every tournament includes."""
from __future__ import annotations

import numpy as np

from evoplay.agents.base import Agent


class RandomAgent(Agent):
    spec = "random"
    state_api_only = True

    def __init__(self, game, seed: int = 0):
        super().__init__(game)
        self._rng = np.random.default_rng(seed)

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self._rng = np.random.default_rng(seed)

    def step(self, state) -> int:
        # At a simultaneous move every player has its own legal actions.
        legal = state.legal_actions(self.seat) if state.is_simultaneous_node() else state.legal_actions()
        return int(legal[int(self._rng.integers(len(legal)))])
