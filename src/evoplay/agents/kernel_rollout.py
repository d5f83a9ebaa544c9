"""Rollouts in Numba over a game's kernels: the kernel binding of the rollout controllers' searches.

The controllers (rs, rhea, mcts, lookahead) write each search once, as a Numba kernel over the names of a binding:
``mover``, ``legal_moves``, ``settle``, ``random_action``, ``play_step``, ``heuristic`` and ``rollout_copy``
(``BINDING``). Here those names are kernels over a game's position (evoplay.games.kernels: each controller's
module is compiled once per game with that game's kernels); evoplay.agents.generic_rollout defines the same names,
with the same arguments, over a ``State``, and runs the same search text as plain Python for a game without kernels
(``on_states``). Both bindings draw from Numba's generator in the same order, so a game searched either way gets the
same moves. ``evaluate_sequence`` is a text too (``TEXTS``): written once here, run over either binding.

``play_step`` plays one step of a rollout with the opponent model of the seed (every other player picks uniformly
at random among its legal actions), ``heuristic`` is the seed's WinScoreHeuristic.

A step first samples chance nodes (with their probabilities). At a simultaneous node every player acts at once,
the searching ``seat`` with its planned action; at a turn-based node only the mover acts: ``seat`` with its
planned action when it is the mover (an action that is not legal there -- an open-loop plan can meet one -- is
replaced by a uniformly random legal move), anyone else at random. An action of -1 is "no plan".
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.agents.generic_rollout import FUTURE_SEEDS, HUGE_NEGATIVE, HUGE_POSITIVE, discounted
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL

BINDING = ("mover", "legal_moves", "settle", "random_action", "play_step", "heuristic", "rollout_copy")
TEXTS = ("evaluate_sequence",)

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
    """The seed's WinScoreHeuristic (generic_rollout.heuristic): +1000 when ``seat`` alone has the best return of a
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
