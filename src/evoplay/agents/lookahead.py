"""``lookahead(budget_ms=40)``: one-step lookahead (GVGAI's sample one-step controller) within the same budget.

Each available action is played for one step against a uniformly random opponent action and valued by the
win/score heuristic. GVGAI's sample draws one opponent action per own action; here the budget is spent on
drawing more, round by round over all own actions, and the mean value decides (ties broken at random, like the
sample's noise). In a turn-based game of perfect information the opponent does nothing in the controller's own
step, so one round is exact and the rest of the budget is left unused (under hidden information every round
plays on a new determinisation). An iteration budget counts evaluations (whole rounds).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.agents.generic_rollout import reseed
from evoplay.agents.controller import ForwardModelAgent
from evoplay.agents.kernel_rollout import heuristic, play_step, rollout_copy

USES = ("evoplay.agents.kernel_rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)


@njit(cache=True)
def lookahead(params, root, seat, actions, rounds, discount, sums, work, scratch, seed):
    """Add ``rounds`` one-step values of each action to ``sums``; return the evaluations made. A kernel per game,
    or over States (``on_states``)."""
    reseed(seed)
    for _ in range(rounds):
        for i in range(actions.shape[0]):
            work = rollout_copy(params, root, work, seat)
            play_step(params, work, seat, actions[i], scratch)
            sums[i] += heuristic(params, work, seat, scratch[2]) * discount
    return rounds * actions.shape[0]


class LookaheadAgent(ForwardModelAgent):
    kind = "lookahead"

    def _search(self, root, actions, seat, remaining, iterations):
        sums = np.zeros(len(actions))
        search, params, work, scratch = self.search_of("lookahead", root)
        n_act = len(actions)
        rounds = {"n": 0}

        def run(count: int) -> int:
            r = max(1, count // n_act)
            rounds["n"] += r
            return search(params, root, seat, actions, r, self.discount, sums, work, scratch, self._seed())

        # A turn-based step of perfect information has no random part (chance is sampled only before it).
        exact = not self.simultaneous(root) and self.game.perfect_information
        if exact:
            n = run(n_act)
        else:
            n = self.timed_batches(run, remaining, iterations, granule=n_act)
        means = sums / rounds["n"]
        best = np.flatnonzero(means == means.max())
        choice = int(best[int(self._rng.integers(len(best)))]) if len(best) > 1 else int(best[0])
        return int(actions[choice]), n
