"""``rs(budget_ms=40,depth=10)``: seed 002's random-search controller (GVGAI's two-player sample RS agent).

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

from evoplay.agents.generic_rollout import randint, reseed
from evoplay.agents.controller import ForwardModelAgent
from evoplay.agents.kernel_rollout import evaluate_sequence
from evoplay.errors import SpecError

USES = ("evoplay.agents.kernel_rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)

SIMULATION_DEPTH = 10
BREAK_MS = 10.0  # of the 40 ms budget: ForwardModelAgent's default break is budget_ms / 4


@njit(cache=True)
def random_search(params, root, seat, actions, depth, discount, count, seed, best_seq, best_value, work, scratch):
    """Evaluate ``count`` random sequences; keep the best in ``best_seq`` / ``best_value[0]`` (strictly better
    replaces, so the first of equal sequences stays). A kernel per game, or over States (``on_states``)."""
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


class RandomSearchAgent(ForwardModelAgent):
    kind = "rs"

    def __init__(self, game, budget_ms: float = 40.0, depth: int = SIMULATION_DEPTH, discount: float = 1.0,
                 iterations: int = 0, break_ms: float = 0.0, seed: int = 0, spec: str | None = None,
                 clock: str = "wall", model: str = "auto"):
        if not 1 <= depth <= 1000:
            raise SpecError(f"rs: depth={depth} is out of range; use 1..1000 (the seed's SIMULATION_DEPTH is 10)")
        self.depth = int(depth)
        super().__init__(game, budget_ms, iterations, break_ms, discount, seed, spec, clock=clock, model=model)

    def _search(self, root, actions, seat, remaining, iterations):
        best_seq = np.empty(self.depth, np.int64)
        best_value = np.array([-np.inf])
        search, params, work, scratch = self.search_of("random_search", root)

        def run(count: int) -> int:
            return search(params, root, seat, actions, self.depth, self.discount, count, self._seed(), best_seq,
                          best_value, work, scratch)

        n = self.timed_batches(run, remaining, iterations)
        self.last_value = float(best_value[0])
        return int(best_seq[0]), n
