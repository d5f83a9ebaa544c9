"""Uniformly random playouts over a port's kernels, compiled once per port (``evoplay.games.kernels.specialise``).

Each move is drawn uniformly from the mover's legal actions (``base.draw``'s generator, seeded from the seed), by the port's ``random_move`` kernel where it gives
one, else from the list its ``moves`` kernel writes, else from the mask of its ``legal`` kernel (``PortKernels``),
and played by its ``apply``; a game ends when ``mover`` says TERMINAL, or when a player to move has no legal action
(OpenSpiel's game stops there too).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.base import TERMINAL
from evoplay.games.ports.base import draw, seeded

# The game's kernels: bound per port by evoplay.games.kernels.specialise (PortKernels.bindings).
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = game_moves = game_random_move = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = HAS_MOVES = HAS_RANDOM_MOVE = RANDOM_MOVE_TAKES_RNG = False


@njit(cache=True, inline="always")
def listed(params, state, found, mask):
    """The mover's legal actions into ``found``; how many."""
    if HAS_MOVES:
        return game_moves(params, state, found)
    n = game_legal(params, state, game_mover(params, state), mask)
    k = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            found[k] = a
            k += 1
    return n


@njit(cache=True, inline="always")
def random_move(params, state, found, mask, rng):
    """A uniformly random legal action of the mover (drawn by ``draw(rng, n)``), -1 when it has none."""
    if HAS_RANDOM_MOVE:
        if RANDOM_MOVE_TAKES_RNG:
            return game_random_move(params, state, found, rng)
        return game_random_move(params, state, found)
    n = listed(params, state, found, mask)
    return found[draw(rng, n)] if n > 0 else -1


@njit(cache=True)
def random_playouts(params, root, count, seed, found, mask, totals):
    """Play ``count`` uniformly random games from ``root``; add each player's returns to ``totals``."""
    rng = seeded(seed)
    np.random.seed(seed)  # a random_move of three arguments draws from Numba's generator
    work = np.empty_like(root)
    scores = np.zeros(totals.shape[0])
    for _ in range(count):
        work[:] = root
        while game_mover(params, work) != TERMINAL:
            action = random_move(params, work, found, mask, rng)
            if action < 0:
                break
            game_apply(params, work, action)
        game_returns(params, work, scores)
        for p in range(totals.shape[0]):
            totals[p] += scores[p]


@njit(cache=True)
def draws(params, state, count, seed, found, mask, counts):
    """``count`` draws of ``random_move`` at ``state``, counted by action in ``counts`` (a test of uniformity)."""
    rng = seeded(seed)
    np.random.seed(seed)
    for _ in range(count):
        a = random_move(params, state, found, mask, rng)
        if a >= 0:
            counts[a] += 1
