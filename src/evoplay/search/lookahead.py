"""One-step lookahead (GVGAI's sample one-step controller) within a budget, the search of ``lookahead(budget_ms=40)``.

Each available action is played for one step against a uniformly random opponent action and valued by the
win/score heuristic. GVGAI's sample draws one opponent action per own action; here the budget is spent on
drawing more, round by round over all own actions, and the mean value decides (ties broken at random, like the
sample's noise). In a turn-based game of perfect information the opponent does nothing in the controller's own
step, so one round is exact and the rest of the budget is left unused (under hidden information every round
plays on a new determinisation). An iteration budget counts evaluations (whole rounds).
"""
from __future__ import annotations

from numba import njit

from evoplay.search.rollout import heuristic, play_step, reseed, rollout_copy, uncounted_arrays

USES = ("evoplay.search.rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)


@njit(cache=True)
def lookahead(params, root, seat, actions, rounds, discount, sums, work, scratch, seed):
    """Add ``rounds`` one-step values of each action to ``sums``; return the evaluations made. A kernel per game,
    or over States (``on_states``)."""
    params, root, work, scratch = uncounted_arrays(params, root, work, scratch)
    reseed(seed)
    for _ in range(rounds):
        for i in range(actions.shape[0]):
            work = rollout_copy(params, root, work, seat)
            play_step(params, work, seat, actions[i], scratch)
            sums[i] += heuristic(params, work, seat, scratch[2]) * discount
    return rounds * actions.shape[0]
