"""Rollouts for the controllers (rs, rhea, mcts, lookahead) on any game, through the game API alone (no kernels).

This is the plain-Python counterpart of evoplay.agents.rollout: the same step, the same opponent model and the
same heuristic, on a ``State`` instead of a game's kernel position, so rs, rhea, mcts and lookahead play a user's
game or an OpenSpiel game as seed 002's controller plays any GVGAI game: knowing only copy, advance, the legal
actions, scores and the result.

- **A step** (``play_step``): chance nodes are sampled first (with their probabilities; they take no step);
  then at a simultaneous node every player acts at once, the searching ``seat`` with its planned action and each
  other player uniformly at random among its legal actions; at a turn-based node the mover acts -- ``seat`` with
  its planned action (a random legal one when the plan's action is not legal there), anyone else at random.
- **The heuristic** (``heuristic``): seed 002's WinScoreHeuristic, +1000 when ``seat`` won (its return is the
  only highest; alone in a one-player game, a positive return), -1000 when it lost (some return is higher; a
  negative return), otherwise its own ``scores()`` entry.
- **Hidden information**: each rollout plays on ``state.resample(seat, rng)`` -- a determinisation drawn afresh
  per rollout -- never on the true state, so a search reads nothing its player cannot see.

The random numbers come from Numba's generator (the one the kernels use), seeded and drawn in the kernels'
order: ``reseed`` where a kernel calls ``np.random.seed``, one ``randrange(1, 2**31 - 1)`` per rollout where a
kernel hides the future of its copy (here it seeds the rollout's determinisation), ``randint(n)`` where a kernel
draws an action. On a game with kernels a generic search therefore makes exactly the decisions of its Numba kernel
(tests/agents/test_generic_controllers.py holds them equal over whole games).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.base import State, search_moves

FUTURE_SEEDS = 2147483647  # the kernels' hide_future draws from [1, 2**31 - 1)
HUGE_POSITIVE, HUGE_NEGATIVE = 1000.0, -1000.0  # the seed's WinScoreHeuristic: a win, a loss


@njit(cache=True)
def reseed(seed):
    """Seed Numba's generator, as a kernel does at its start."""
    np.random.seed(seed)


@njit(cache=True)
def randint(n):
    """A uniform integer in [0, n), from Numba's generator (n == 1 draws nothing, as in the kernels)."""
    return np.random.randint(n)


@njit(cache=True)
def randrange(low, high):
    return np.random.randint(low, high)


@njit(cache=True)
def uniform():
    """A uniform float in [0, 1) from Numba's generator."""
    return np.random.random()


@njit(cache=True)
def discounted(value, discount, steps):
    """value x discount^steps computed as the kernels compute it (Numba's power, to the last bit)."""
    return value * discount**steps


def warm() -> None:
    """Compile (or load from Numba's cache) the generator's entry points before the first timed decision."""
    reseed(1)
    randint(2)
    randrange(1, 3)
    uniform()
    discounted(1.0, 1.0, 1)


def apply(state: State, action: int) -> None:
    """Apply an action the caller took from ``legal_actions``: no second legality check (``search_moves``)."""
    search_moves(type(state))[1](state, int(action))


def settle(state: State) -> None:
    """Sample chance nodes until a player is to move (or the game ends)."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        total = sum(p for _, p in outcomes)
        u = uniform() * total
        chosen = outcomes[-1][0]
        for action, p in outcomes:
            if u < p:
                chosen = action
                break
            u -= p
        apply(state, chosen)


def pick(legal: list[int]) -> int:
    """A uniformly random entry of ``legal`` (the kernels' random_action over a legal mask)."""
    return int(legal[randint(len(legal))]) if legal else 0


def available(state: State, player: int) -> list:
    """What ``player`` can do here (the kernels' legal mask): its legal actions when it moves, else only
    ``None``, doing nothing while another player moves a turn-based game (the kernels' -1)."""
    if state.is_simultaneous_node():
        return state.legal_actions(player)
    if state.current_player() == player:
        return state.legal_actions()
    return [None]


def random_action(state: State, player: int):
    """A uniformly random available action of ``player`` (None when another player is to move)."""
    settle(state)
    options = available(state, player)
    return options[randint(len(options))] if options else None


def play_step(state: State, seat: int, action) -> int | None:
    """One rollout step: ``seat`` plays ``action``, the others uniformly random legal actions (see the module's
    docstring). Returns the action ``seat`` actually played, None when it was not its turn."""
    settle(state)
    if state.is_terminal():
        return None
    if state.is_simultaneous_node():
        joint = []
        for p in range(state.game.num_players):
            legal = state.legal_actions(p)
            if p == seat and action is not None and action in legal:
                joint.append(int(action))
            else:
                joint.append(pick(legal))
        state.apply_actions(joint)
        return joint[seat]
    legal = state.legal_actions()
    if state.current_player() == seat:
        mine = int(action) if action is not None and action in legal else pick(legal)
        apply(state, mine)
        return mine
    apply(state, pick(legal))
    return None


def heuristic(state: State, seat: int) -> float:
    """Seed 002's WinScoreHeuristic: -1000 if ``seat`` lost, +1000 if it won, otherwise its own score."""
    if state.is_terminal():
        r = state.returns()
        if len(r) == 1:  # a puzzle: won with a positive return, lost with a negative one
            return HUGE_POSITIVE if r[0] > 0 else (HUGE_NEGATIVE if r[0] < 0 else float(state.scores()[0]))
        best = max(r)
        if r[seat] < best:
            return HUGE_NEGATIVE
        if sum(1 for v in r if v == best) == 1:
            return HUGE_POSITIVE
    return float(state.scores()[seat])


def rollout_state(root: State, seat: int) -> State:
    """A rollout's own copy of ``root``: a clone, or under hidden information a determinisation for ``seat``.

    It draws one number from the stream either way, where the kernels draw the copy's hidden future, so the
    draws stay in the kernels' order."""
    seed = randrange(1, FUTURE_SEEDS)
    if root.game.perfect_information:
        return root.clone()
    return root.resample(seat, np.random.default_rng(seed))


def evaluate_sequence(root: State, seat: int, seq, depth: int, discount: float) -> float:
    """Play ``seq`` from a copy of ``root`` against random opponents; return heuristic x discount^steps (the
    kernels' evaluate_sequence: the rollout stops early at the end of the game)."""
    work = rollout_state(root, seat)
    steps = 0
    for i in range(depth):
        if work.is_terminal():
            break
        play_step(work, seat, seq[i])
        steps += 1
    return discounted(heuristic(work, seat), discount, steps)


def root_actions(state: State, player: int) -> list[int]:
    """The actions ``player`` chooses among at ``state``."""
    if state.is_simultaneous_node():
        return state.legal_actions(player)
    return state.legal_actions()
