"""examples/othello6_kernel.py with one kernel broken at a time: check-game must name each difference."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from evoplay.games.tools.sources import import_game_file

fast = import_game_file(Path(__file__).resolve().parents[2] / "examples" / "othello6_kernel.py")


@njit(cache=True)
def features_without_mobility(params, state, player, out):
    fast.features(params, state, player, out)
    out[fast.CELLS + 5] = 0.0


@njit(cache=True)
def apply_without_flips(params, state, action):
    player = state[fast.MOVER]
    if action != fast.PASS:
        state[player] |= np.int64(1) << action  # the mover's board (black is number 0, white number 1)
    state[fast.MOVER] = 1 - player


@njit(cache=True)
def hash_of_some_discs(params, state):
    return state[fast.BLACK] % 1000


@njit(cache=True)
def returns_backwards(params, state, out):
    fast.returns(params, state, out)
    out[0], out[1] = out[1], out[0]


def _with(**changed):
    class Broken(fast.Othello):
        def kernels(self):
            made = super().kernels()
            fields = {name: getattr(made, name) for name in made.__dataclass_fields__}
            fields.update(changed)
            return type(made)(**fields)
    return Broken


NoMobility = _with(features=features_without_mobility)
NoFlips = _with(apply=apply_without_flips)
HashCollides = _with(state_hash=hash_of_some_discs)
ReturnsBackwards = _with(returns=returns_backwards)
NotNumba = _with(scores=lambda params, state, out: None)


class ReversedState(fast.plain.OthelloState):
    def _legal_actions(self):
        return list(reversed(super()._legal_actions()))

    def clone(self):
        copy = ReversedState(self.game, list(self.board), self.player, list(self.legal))
        copy.history = list(self.history)
        return copy


class ActionsOutOfOrder(fast.Othello):
    def new_initial_state(self, seed=None):
        start = super().new_initial_state(seed)
        return ReversedState(self, start.board, start.player)
