"""``mcts(budget_ms=40,...)``: open-loop UCT, the tree-search peer of seed 002's controller (GVGAI's sample MCTS).

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

from evoplay.agents.generic_rollout import discounted, randint, reseed, uniform
from evoplay.agents.controller import ForwardModelAgent
from evoplay.agents.kernel_rollout import (heuristic, legal_moves, mover, play_step, random_action, rollout_copy,
                                           settle)
from evoplay.errors import SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL

USES = ("evoplay.agents.kernel_rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)

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


class MctsAgent(ForwardModelAgent):
    kind = "mcts"

    def __init__(self, game, budget_ms: float = 40.0, depth: int = 10, k: float = math.sqrt(2),
                 discount: float = 1.0, iterations: int = 0, break_ms: float = 0.0, seed: int = 0,
                 spec: str | None = None, clock: str = "wall", model: str = "auto"):
        if not 1 <= depth <= 1000:
            raise SpecError(f"mcts: depth={depth} (rollout depth from the root) is out of range; use 1..1000")
        if not 0 <= k <= 100:
            raise SpecError(f"mcts: k={k} (UCB exploration) is out of range; use 0..100 (sqrt 2 = 1.414...)")
        self.depth, self.k = int(depth), float(k)
        self._capacity = 4096
        super().__init__(game, budget_ms, iterations, break_ms, discount, seed, spec, clock=clock, model=model)

    def _search(self, root, actions, seat, remaining, iterations):
        search, params, work, scratch = self.search_of("search", root)
        # The tree: arrays on the kernel path; over States a sparse child table and lists (Python's own numbers,
        # not NumPy's, for the search's arithmetic in Python), each with room for ``size`` nodes.
        n_actions = self.kernels.actions if self.fast else 0
        moves = np.empty(n_actions, np.int64) if self.fast else None
        tree = {"child": Children(), "nodes": 1, **({"visits": np.zeros(0, np.int64), "totals": np.zeros(0)}
                                                    if self.fast else {"visits": [], "totals": []})}

        def grow(size: int) -> None:
            nodes, have = tree["nodes"], len(tree["visits"])
            if self.fast:
                grown = np.full((size, n_actions), -1, np.int32)
                if have:
                    grown[:nodes] = tree["child"][:nodes]
                tree["child"] = grown
                tree["visits"] = np.concatenate([tree["visits"], np.zeros(size - have, np.int64)])
                tree["totals"] = np.concatenate([tree["totals"], np.zeros(size - have)])
            else:
                tree["visits"] += [0] * (size - have)
                tree["totals"] += [0.0] * (size - have)
            self._capacity = size

        grow(self._capacity)
        bounds = np.array([np.inf, -np.inf])

        def run(count: int) -> int:
            need = tree["nodes"] + count + 1
            if need > len(tree["visits"]):
                grow(max(need, 2 * len(tree["visits"])))
            tree["nodes"] = search(params, root, seat, count, self.depth, self.k, self.discount, tree["child"],
                                   tree["visits"], tree["totals"], tree["nodes"], bounds, work, scratch, moves,
                                   self._seed())
            return count

        n = self.timed_batches(run, remaining, iterations)
        child, visits, totals = tree["child"], tree["visits"], tree["totals"]
        best, best_key = int(actions[0]), (-1, -np.inf)
        for a in actions:
            c = child[0, a]
            if c >= 0:
                key = (int(visits[c]), float(totals[c] / visits[c]))
                if key > best_key:
                    best, best_key = int(a), key
        self.last_nodes = int(tree["nodes"])
        return best, n
