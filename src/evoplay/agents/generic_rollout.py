"""Rollouts over a ``State``: the game API binding of the controllers' searches, for games without kernels.

The controllers (rs, rhea, mcts, lookahead) write each search once, as a Numba kernel over the names of a binding
(evoplay.agents.kernel_rollout's ``BINDING``: ``mover``, ``legal_moves``, ``settle``, ``random_action``, ``play_step``,
``heuristic``, ``rollout_copy``). This module defines those names, with the same arguments, over a ``State``, and
``on_states(kernel)`` runs the kernel's own text as plain Python with them bound: the same search, readable and
steppable in a debugger, on a user's game or an OpenSpiel game, as seed 002's controller plays any GVGAI game:
knowing only copy, advance, the legal actions, scores and the result. The arrays a kernel is given (the game's
parameters, a work position, the scratch arrays) are ``None`` here; an action of -1 is "no plan" on both. What a
step and the heuristic do is said in evoplay.agents.kernel_rollout; under hidden information each rollout plays
on ``state.resample(seat, rng)`` -- a determinisation drawn afresh per rollout -- never on the true state, so a
search reads nothing its player cannot see.

The random numbers come from Numba's generator (the one the kernels use): the searches draw through ``reseed``,
``randint`` and ``uniform`` (kernels themselves, so the same calls in Numba and in Python), and the binding draws
in the kernels' order: one ``randrange(1, 2**31 - 1)`` per rollout where a kernel hides the future of its copy
(here it seeds the rollout's determinisation), ``randint(n)`` where a kernel draws an action, ``uniform()`` where
it samples chance. On a game with kernels a search over States therefore makes exactly the decisions of its Numba
kernel (tests/agents/test_generic_controllers.py holds them equal over whole games).
"""
from __future__ import annotations

import types

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from evoplay.games.base import SIMULTANEOUS, State, search_moves

FUTURE_SEEDS = 2147483647  # the kernels' hide_future draws from [1, 2**31 - 1)
HUGE_POSITIVE, HUGE_NEGATIVE = 1000.0, -1000.0  # the seed's WinScoreHeuristic: a win, a loss
NO_SCRATCH = (None, None, None)  # the kernels' scratch arrays (legal mask, chance probabilities, scores): unused
KERNELS = "evoplay.agents.kernel_rollout"  # the kernel binding, whose names this module binds over States


@njit(cache=True)
def reseed(seed):
    """Seed Numba's generator (a search's first call)."""
    np.random.seed(seed)


@njit(cache=True)
def randint(n):
    """A uniform integer in [0, n), from Numba's generator (n == 1 draws nothing)."""
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
    """value x discount^steps computed as Numba computes it (its power, to the last bit, on both bindings)."""
    return value * discount**steps


def warm() -> None:
    """Compile (or load from Numba's cache) the generator's entry points before the first timed decision."""
    reseed(1)
    randint(2)
    randrange(1, 3)
    uniform()
    discounted(1.0, 1.0, 1)


_TEXTS: dict = {}


def on_states(kernel):
    """``kernel``'s own text (a controller's search, or a text of the kernel binding) as plain Python over States:
    every kernel of the binding it calls is replaced by this module's function of the same name (a text it calls,
    by that text over States). Its other callees (``randint``, a controller's own helpers) stay as they are: they
    read no position."""
    made = _TEXTS.get(kernel)
    if made is not None:
        return made
    import importlib

    kernels = importlib.import_module(KERNELS)
    text = kernel.py_func
    names = dict(text.__globals__)
    for name in text.__code__.co_names:  # the globals the text reads (and attribute names, never dispatchers)
        value = names.get(name)
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == KERNELS:
            callee = value.py_func.__name__
            if callee in kernels.BINDING:
                names[name] = globals()[callee]
            elif callee in kernels.TEXTS:
                names[name] = on_states(value)
            else:
                raise TypeError(f"{text.__qualname__} calls {KERNELS}.{callee}, which is neither in its BINDING "
                                f"(defined again over States in {__name__}) nor in its TEXTS")
    made = _TEXTS[kernel] = types.FunctionType(text.__code__, names, text.__name__, text.__defaults__,
                                               text.__closure__)
    made.__doc__, made.__qualname__ = text.__doc__, f"{text.__qualname__} (over States)"
    return made


# --- the binding: the kernels' names and arguments, over a State ---------------------------------------------------

def apply(state: State, action: int) -> None:
    """Apply an action the caller took from ``legal_actions``: no second legality check (``search_moves``)."""
    search_moves(type(state))[1](state, int(action))


def mover(params, state: State) -> int:
    """Who moves at ``state``: a player, or CHANCE, SIMULTANEOUS, TERMINAL."""
    return state.current_player()


def legal_moves(params, state: State, seat: int, mask, moves) -> list[int]:
    """``seat``'s legal actions at ``state`` where it moves."""
    if state.is_simultaneous_node():
        return state.legal_actions(seat)
    return state.legal_actions()


def settle(params, state: State, probs) -> None:
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
    """A uniformly random entry of ``legal`` (the kernels' pick over a legal mask)."""
    return int(legal[randint(len(legal))]) if legal else 0


def random_action(params, state: State, seat: int, scratch) -> int:
    """A uniformly random legal action of ``seat`` (after chance is sampled), -1 when another player moves."""
    settle(params, state, None)
    who = state.current_player()
    if who != seat and who != SIMULTANEOUS:
        return -1
    legal = state.legal_actions(seat) if who == SIMULTANEOUS else state.legal_actions()
    return pick(legal) if legal else -1


def play_step(params, state: State, seat: int, action: int, scratch) -> int:
    """One rollout step: ``seat`` plays ``action``, the others uniformly random legal actions (see the module's
    docstring). Returns the action ``seat`` actually played, -1 when it was not its turn."""
    settle(params, state, None)
    if state.is_terminal():
        return -1
    if state.is_simultaneous_node():
        joint = []
        for p in range(state.game.num_players):
            legal = state.legal_actions(p)
            if p == seat and action >= 0 and action in legal:
                joint.append(int(action))
            else:
                joint.append(pick(legal))
        state.apply_actions(joint)
        return joint[seat]
    legal = state.legal_actions()
    if state.current_player() == seat:
        mine = int(action) if action >= 0 and action in legal else pick(legal)
        apply(state, mine)
        return mine
    apply(state, pick(legal))
    return -1


def heuristic(params, state: State, seat: int, scores) -> float:
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


def rollout_copy(params, root: State, work, seat: int) -> State:
    """A rollout's own copy of ``root``: a clone, or under hidden information a determinisation for ``seat``.

    It draws one number from the stream either way, where the kernels draw the copy's hidden future, so the
    draws stay in the kernels' order."""
    seed = randrange(1, FUTURE_SEEDS)
    if root.game.perfect_information:
        return root.clone()
    return root.resample(seat, np.random.default_rng(seed))

