"""Open-loop UCT, the tree-search peer of seed 002's controller (GVGAI's sample MCTS): the search of ``mcts(...)``.

The tree holds the controller's own actions; the opponent is the same uniformly random model as in the random
search, drawn afresh in every iteration (open loop: a node is a sequence of own actions, not a position, so the
positions behind it are re-simulated from the root each time). An iteration selects children by UCB1 on values
normalised to [0, 1] by the smallest and largest rollout values seen (``k`` = sqrt 2 by default), expands one
untried action, plays random actions to ``depth`` (10) steps from the root or the end of the game, and backs up
the win/score heuristic times discount^steps. The most visited root action is played (ties: the higher mean).

In a turn-based game the tree branches only where the controller is to move; the opponent's moves in between
are random. An action of the tree that is not legal in a re-simulated position is replaced by a random legal
move. An iteration budget counts iterations (one rollout each).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from evoplay.games.base import SIMULTANEOUS, TERMINAL
from evoplay.search.rollout import (discounted, heuristic, legal_moves, mover, play_step, randint, random_action,
                                    reseed, rollout_copy, settle, uncounted_arrays, uniform)

USES = ("evoplay.search.rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)

_EPSILON = 1e-6


@njit(cache=True)
def search(params, root, seat, iterations, depth, k, discount, child, visits, totals, n_nodes, bounds, work, scratch,
           moves, seed):
    """Run ``iterations`` UCT iterations on the tree in (child, visits, totals); return the node count. A kernel
    per game, or over States (``on_states``).

    ``child[node, a]`` is the node reached by action a (-1: untried; an array, or a ``Children`` table over
    States); node 0 is the root. The caller keeps at least ``iterations`` free places in ``visits`` and ``totals``
    (each iteration adds at most one node). ``moves`` is room for a position's legal actions (None over States).
    """
    params, root, work, scratch = uncounted_arrays(params, root, work, scratch)
    reseed(seed)
    mask, probs, scores = scratch
    path = np.empty(depth + 2, np.int64)
    for _ in range(iterations):
        work = rollout_copy(params, root, work, seat)
        node = 0
        path[0] = 0
        length = 1
        steps = 0
        while True:
            settle(params, work, probs)
            who = mover(params, work)
            if who == TERMINAL or steps >= depth:
                break
            if who != seat and who != SIMULTANEOUS:  # another player's turn: it moves at random
                play_step(params, work, seat, -1, scratch)
                steps += 1
                continue
            legal = legal_moves(params, work, seat, mask, moves)
            if len(legal) == 0:  # nothing for this seat to do here
                play_step(params, work, seat, -1, scratch)
                steps += 1
                continue
            untried = 0
            for a in legal:
                if child[node, a] < 0:
                    untried += 1
            if untried > 0:
                pick = randint(untried)
                chosen = -1
                for a in legal:
                    if child[node, a] < 0:
                        if pick == 0:
                            chosen = a
                            break
                        pick -= 1
                new = n_nodes
                n_nodes += 1
                visits[new] = 0
                totals[new] = 0.0
                child[node, chosen] = new
                play_step(params, work, seat, chosen, scratch)
                steps += 1
                path[length] = new
                length += 1
                break
            # UCB1 over the tried actions available here.
            span = bounds[1] - bounds[0]
            log_n = math.log(visits[node] + 1)
            best = -np.inf
            chosen = -1
            for a in legal:
                c = child[node, a]
                q = totals[c] / visits[c]
                if span > 0:
                    q = (q - bounds[0]) / span
                ucb = q + k * math.sqrt(log_n / (visits[c] + _EPSILON)) + _EPSILON * uniform()
                if ucb > best:
                    best = ucb
                    chosen = a
            node = child[node, chosen]
            play_step(params, work, seat, chosen, scratch)
            steps += 1
            path[length] = node
            length += 1
        while mover(params, work) != TERMINAL and steps < depth:
            play_step(params, work, seat, random_action(params, work, seat, scratch), scratch)
            steps += 1
        value = discounted(heuristic(params, work, seat, scores), discount, steps)
        if value < bounds[0]:
            bounds[0] = value
        if value > bounds[1]:
            bounds[1] = value
        for i in range(length):
            visits[path[i]] += 1
            totals[path[i]] += value
    return n_nodes


class Children(dict):
    """The tree's children over States: ``child[node, action]``, -1 where untried (the kernels' array, sparse: a
    game without kernels may have many more actions than any node tries)."""

    def __missing__(self, key):
        return -1
