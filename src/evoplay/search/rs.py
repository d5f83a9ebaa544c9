"""Seed 002's random search (GVGAI's two-player sample RS agent), the search of ``rs(budget_ms=40,depth=10)``.

At every decision a fresh population of random action sequences of length SIMULATION_DEPTH (``depth``) is
sampled, each gene uniformly over the controller's available actions (NIL, "do nothing", included), and each
sequence is evaluated as long as time allows: it is played out from a copy of the position with the opponent
choosing uniformly at random among its actions, and valued by the win/score heuristic (+1000 won, -1000 lost,
otherwise the controller's own score) times DISCOUNT to the power of the steps played (1.0 by default, as in the
framework's code). No evolution happens. The first action of the best sequence is played; between equal values
the first sequence evaluated wins (the sample sorts with a stable sort).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.search.rollout import evaluate_sequence, randint, reseed, uncounted_arrays

USES = ("evoplay.search.rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)


@njit(cache=True)
def random_search(params, root, seat, actions, depth, discount, count, seed, best_seq, best_value, work, scratch):
    """Evaluate ``count`` random sequences; keep the best in ``best_seq`` / ``best_value[0]`` (strictly better
    replaces, so the first of equal sequences stays). A kernel per game, or over States (``on_states``)."""
    params, root, work, scratch = uncounted_arrays(params, root, work, scratch)
    reseed(seed)
    n = actions.shape[0]
    seq = np.empty(depth, np.int64)
    for _ in range(count):
        for i in range(depth):
            seq[i] = actions[randint(n)]
        value = evaluate_sequence(params, root, work, seat, seq, depth, discount, scratch)
        if value > best_value[0]:
            best_value[0] = value
            best_seq[:] = seq
    return count
