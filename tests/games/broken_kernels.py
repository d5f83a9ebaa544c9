"""examples/othello6_kernel.py with one kernel broken at a time: check-game must name each difference."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from evoplay.games.sources import import_game_file

fast = import_game_file(Path(__file__).resolve().parents[2] / "examples" / "othello6_kernel.py")


@njit(cache=True)
def features_without_mobility(params, state, player, out):
    fast.features(params, state, player, out)
    out[fast.CELLS + 5] = 0.0


@njit(cache=True)
def apply_without_flips(params, state, action):
    player = state[fast.MOVER]
    if action != fast.PASS:
        state[action] = player + 1
    state[fast.MOVER] = 1 - player


@njit(cache=True)
def hash_of_board_only(params, state):
    key = np.int64(0)
    for c in range(fast.CELLS):
        key = key * 3 + state[c]
    return key


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
HashIgnoresMover = _with(state_hash=hash_of_board_only)
ReturnsBackwards = _with(returns=returns_backwards)
NotNumba = _with(scores=lambda params, state, out: None)
