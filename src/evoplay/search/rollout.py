"""Rollouts, the rollout controllers' binding: each name a Numba kernel over a game's position and its readable
Python reference over a ``State``, drawing the same random numbers.

The controllers (evoplay.search.rs, rhea, mcts, lookahead) write each search once, as a Numba kernel over the names
``mover``, ``legal_moves``, ``settle``, ``random_action``, ``play_step``, ``heuristic`` and ``rollout_copy``
(``BINDING``). Here those names are kernels over a game's position (evoplay.games.kernels: a controller's module is
compiled once per game with that game's kernels, this module among its ``USES``), and each has its reference over a
``State`` with the same arguments, ``reference_NAME``: ``on_states(kernel)`` runs a kernel's own text as plain Python
with the references bound, the same search readable and steppable in a debugger, on a user's game or an OpenSpiel
game, as seed 002's controller plays any GVGAI game: knowing only copy, advance, the legal actions, scores and the
result. The arrays a kernel is given (the game's parameters, a work position, the scratch arrays) are ``None`` over
States; an action of -1 is "no plan" on both. ``evaluate_sequence`` is a text too (``TEXTS``): written once, run over
either binding. Under hidden information each rollout over States plays on ``state.resample(seat, rng)`` -- a
determinisation drawn afresh per rollout -- never on the true state, so a search reads nothing its player cannot see.

``play_step`` plays one step of a rollout with the opponent model of the seed (every other player picks uniformly
at random among its legal actions), ``heuristic`` is the seed's WinScoreHeuristic. A step first samples chance
nodes (with their probabilities). At a simultaneous node every player acts at once, the searching ``seat`` with its
planned action; at a turn-based node only the mover acts: ``seat`` with its planned action when it is the mover (an
action that is not legal there -- an open-loop plan can meet one -- is replaced by a uniformly random legal move),
anyone else at random.

**The stream.** The random numbers come from Numba's generator on both bindings: the searches draw through
``reseed``, ``randint`` and ``uniform`` (``STREAM``: kernels, called as they are over States too), and the
references draw in the kernels' order: one ``randrange(1, 2**31 - 1)`` per rollout where a kernel hides the future
of its copy (over States it seeds the rollout's determinisation), ``randint(n)`` where a kernel draws an action,
``uniform()`` where it samples chance. On a game with kernels a search over States therefore makes exactly the
decisions of its Numba kernel (tests/agents/test_generic_controllers.py holds them equal over whole games).
"""
from __future__ import annotations

import types

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, State, search_moves
from evoplay.games.kernels import uncounted

BINDING = ("mover", "legal_moves", "settle", "random_action", "play_step", "heuristic", "rollout_copy",
           "uncounted_arrays")
TEXTS = ("evaluate_sequence",)
STREAM = ("reseed", "randint", "randrange", "uniform", "discounted")
FUTURE_SEEDS = 2147483647  # hide_future draws from [1, 2**31 - 1)
HUGE_POSITIVE, HUGE_NEGATIVE = 1000.0, -1000.0  # the seed's WinScoreHeuristic: a win, a loss
NO_SCRATCH = (None, None, None)  # the kernels' scratch arrays (legal mask, chance probabilities, scores): over States


# --- the stream -------------------------------------------------------------------------------------------------

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


# --- the kernels ------------------------------------------------------------------------------------------------
# The game's kernels: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = False


@njit(cache=True)
def mover(params, position):
    """Who moves at ``position``: a player, or CHANCE, SIMULTANEOUS, TERMINAL."""
    return game_mover(params, position)


@njit(cache=True)
def legal_moves(params, position, seat, mask, moves):
    """``seat``'s legal actions at ``position`` where it moves, ascending (in ``moves``, through ``mask``)."""
    game_legal(params, position, seat, mask)
    count = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            moves[count] = a
            count += 1
    return moves[:count]


@njit(cache=True)
def settle(params, position, probs):
    """Sample chance nodes with their probabilities until a player is to move (or the game ends)."""
    while game_mover(params, position) == CHANCE:
        game_chance(params, position, probs)
        total = 0.0
        for a in range(probs.shape[0]):
            total += probs[a]
        u = np.random.random() * total
        chosen = -1
        last = -1
        for a in range(probs.shape[0]):
            if probs[a] > 0:
                last = a
                if chosen < 0:
                    if u < probs[a]:
                        chosen = a
                    else:
                        u -= probs[a]
        game_apply(params, position, chosen if chosen >= 0 else last)


@njit(cache=True)
def pick(mask, count):
    """A uniformly random marked action of ``mask`` (``count`` of them are marked)."""
    k = np.random.randint(count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def random_action(params, position, seat, scratch):
    """A uniformly random legal action of ``seat`` (after chance is sampled), -1 when another player moves."""
    mask, probs, scores = scratch
    settle(params, position, probs)
    mover = game_mover(params, position)
    if mover != seat and mover != SIMULTANEOUS:
        return -1
    count = game_legal(params, position, seat, mask)
    return pick(mask, count) if count > 0 else -1


@njit(cache=True)
def play_step(params, position, seat, action, scratch):
    """One rollout step (see the module's docstring); returns the action ``seat`` played, -1 if none."""
    mask, probs, scores = scratch
    settle(params, position, probs)
    mover = game_mover(params, position)
    if mover == TERMINAL:
        return -1
    if mover == SIMULTANEOUS:
        joint = 0
        base = 1
        mine = -1
        for p in range(scores.shape[0]):
            count = game_legal(params, position, p, mask)
            a = action if (p == seat and action >= 0 and mask[action]) else pick(mask, count)
            if p == seat:
                mine = a
            joint += a * base
            base *= mask.shape[0]
        game_apply(params, position, joint)
        return mine
    count = game_legal(params, position, mover, mask)
    if mover == seat:
        mine = action if (action >= 0 and mask[action]) else pick(mask, count)
        game_apply(params, position, mine)
        return mine
    game_apply(params, position, pick(mask, count))
    return -1


@njit(cache=True)
def heuristic(params, position, seat, scores):
    """The seed's WinScoreHeuristic (``reference_heuristic``): +1000 when ``seat`` alone has the best return of a
    finished game, -1000 when some return beats its own, otherwise its own score."""
    if game_mover(params, position) == TERMINAL:
        game_returns(params, position, scores)
        r = scores[seat]
        if scores.shape[0] == 1:  # a puzzle: won with a positive return, lost with a negative one
            if r > 0:
                return HUGE_POSITIVE
            if r < 0:
                return HUGE_NEGATIVE
        else:
            best = scores[0]
            for p in range(1, scores.shape[0]):
                if scores[p] > best:
                    best = scores[p]
            if r < best:
                return HUGE_NEGATIVE
            tied = 0
            for p in range(scores.shape[0]):
                if scores[p] == best:
                    tied += 1
            if tied == 1:
                return HUGE_POSITIVE
    game_scores(params, position, scores)
    return scores[seat]


@njit(cache=True)
def hide_future(params, position):
    """Give a rollout's copy its own randomness (what no player can know yet: gem spawns), from the stream."""
    game_hide(params, position, np.random.randint(1, FUTURE_SEEDS))


@njit(cache=True)
def rollout_copy(params, root, work, seat):
    """A rollout's own copy of ``root`` (in ``work``), its hidden future drawn from the stream."""
    work[:] = root
    hide_future(params, work)
    return work


@njit(cache=True, inline="always")
def uncounted_arrays(params, root, work, scratch):
    """A search's arrays as ``uncounted`` views (evoplay.games.kernels; its caller holds them): Numba otherwise
    counts (atomically) the references to each around every kernel call of a rollout, most of its time. A
    controller's search calls it first; over States (``reference_uncounted_arrays``) they are as they are."""
    mask, probs, scores = scratch
    return uncounted(params), uncounted(root), uncounted(work), (uncounted(mask), uncounted(probs), uncounted(scores))


@njit(cache=True)
def evaluate_sequence(params, root, work, seat, seq, depth, discount, scratch):
    """Play ``seq`` from a copy of ``root`` against random opponents; return heuristic x discount^steps.

    The seed's ``evaluate``: the rollout stops early at the end of the game; the discount's exponent is the
    number of steps actually played.
    """
    work = rollout_copy(params, root, work, seat)
    steps = 0
    for i in range(depth):
        if mover(params, work) == TERMINAL:
            break
        play_step(params, work, seat, seq[i], scratch)
        steps += 1
    return discounted(heuristic(params, work, seat, scratch[2]), discount, steps)


@njit(cache=True)
def random_playouts(params, root, count, seed, work, scratch):
    """Play ``count`` games from ``root`` to the end, every player uniformly at random (chance by its
    probabilities); return the sum of each player's returns."""
    np.random.seed(seed)
    mask, probs, scores = scratch
    totals = np.zeros(scores.shape[0])
    for _ in range(count):
        work[:] = root
        while game_mover(params, work) != TERMINAL:
            play_step(params, work, -1, -1, scratch)
        game_returns(params, work, scores)
        totals += scores
    return totals


# --- over States: each kernel's reference, and a kernel's text run with them --------------------------------------

_TEXTS: dict = {}


def on_states(kernel):
    """``kernel``'s own text (a controller's search, or a text of this module) as plain Python over States: every
    kernel of the binding it calls is replaced by its reference (``reference_NAME``), a text it calls by that text
    over States. The stream's kernels and a controller's own helpers stay as they are: they read no position."""
    made = _TEXTS.get(kernel)
    if made is not None:
        return made
    text = kernel.py_func
    names = dict(text.__globals__)
    for name in text.__code__.co_names:  # the globals the text reads (and attribute names, never dispatchers)
        value = names.get(name)
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == __name__:
            callee = value.py_func.__name__
            if callee in BINDING:
                names[name] = globals()[f"reference_{callee}"]
            elif callee in TEXTS:
                names[name] = on_states(value)
            elif callee not in STREAM:
                raise TypeError(f"{text.__qualname__} calls {__name__}.{callee}, which is neither in its BINDING "
                                f"(with a reference over States) nor in its TEXTS or STREAM")
    made = _TEXTS[kernel] = types.FunctionType(text.__code__, names, text.__name__, text.__defaults__,
                                               text.__closure__)
    made.__doc__, made.__qualname__ = text.__doc__, f"{text.__qualname__} (over States)"
    return made


def apply(state: State, action: int) -> None:
    """Apply an action the caller took from ``legal_actions``: no second legality check (``search_moves``)."""
    search_moves(type(state))[1](state, int(action))


def reference_mover(params, state: State) -> int:
    """Who moves at ``state``: a player, or CHANCE, SIMULTANEOUS, TERMINAL."""
    return state.current_player()


def reference_legal_moves(params, state: State, seat: int, mask, moves) -> list[int]:
    """``seat``'s legal actions at ``state`` where it moves."""
    if state.is_simultaneous_node():
        return state.legal_actions(seat)
    return state.legal_actions()


def reference_settle(params, state: State, probs) -> None:
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


def reference_pick(legal: list[int]) -> int:
    """A uniformly random entry of ``legal`` (the kernels' pick over a legal mask)."""
    return int(legal[randint(len(legal))]) if legal else 0


def reference_random_action(params, state: State, seat: int, scratch) -> int:
    """A uniformly random legal action of ``seat`` (after chance is sampled), -1 when another player moves."""
    reference_settle(params, state, None)
    who = state.current_player()
    if who != seat and who != SIMULTANEOUS:
        return -1
    legal = state.legal_actions(seat) if who == SIMULTANEOUS else state.legal_actions()
    return reference_pick(legal) if legal else -1


def reference_play_step(params, state: State, seat: int, action: int, scratch) -> int:
    """One rollout step: ``seat`` plays ``action``, the others uniformly random legal actions (see the module's
    docstring). Returns the action ``seat`` actually played, -1 when it was not its turn."""
    reference_settle(params, state, None)
    if state.is_terminal():
        return -1
    if state.is_simultaneous_node():
        joint = []
        for p in range(state.game.num_players):
            legal = state.legal_actions(p)
            if p == seat and action >= 0 and action in legal:
                joint.append(int(action))
            else:
                joint.append(reference_pick(legal))
        state.apply_actions(joint)
        return joint[seat]
    legal = state.legal_actions()
    if state.current_player() == seat:
        mine = int(action) if action >= 0 and action in legal else reference_pick(legal)
        apply(state, mine)
        return mine
    apply(state, reference_pick(legal))
    return -1


def reference_heuristic(params, state: State, seat: int, scores) -> float:
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


def reference_uncounted_arrays(params, root, work, scratch):
    """``uncounted_arrays`` over States: nothing is counted there, so the arguments as they are."""
    return params, root, work, scratch


def reference_rollout_copy(params, root: State, work, seat: int) -> State:
    """A rollout's own copy of ``root``: a clone, or under hidden information a determinisation for ``seat``.

    It draws one number from the stream either way, where the kernels draw the copy's hidden future, so the
    draws stay in the kernels' order."""
    seed = randrange(1, FUTURE_SEEDS)
    if root.game.perfect_information:
        return root.clone()
    return root.resample(seat, np.random.default_rng(seed))

