"""``uct`` over a game's kernels: evoplay.agents.uct's search inside Numba, compiled once per game.

The same closed-loop MCTS as ``uct.tree_search`` (read uct's docstring for the rules: expansion in a shuffled order, UCT
or PUCT selection, chance outcomes drawn with their probabilities, the max^n backup and the solver), for a
turn-based game of perfect information that hands over kernels (evoplay.games.kernels), with the evaluators a
``Guide`` describes:

- random rollouts to the end of the game (``RandomRolloutEvaluator``), the mean of ``rollouts`` of them;
- an evolved evaluation (``uct.EvolvedEvaluation``: a gp program or ga weights over the game's features, the free
  features, the board counts -- pairs or line patterns -- and the per-run scales) as the leaf value: ``rollouts``
  random rollouts cut after ``cut`` plies, each scored ``tanh(score / spread)`` for every player where the game
  is not over (``CutRolloutEvaluator``);
- its scores of the mover's after-states as PUCT's prior, ``softmax(score / spread / temperature)``, a finished
  game scoring its return x ``WIN_SCORE`` (``PriorEvaluator``), computed when a position is expanded or, with
  ``prior_visits`` > 1, uniform until the position's ``prior_visits``-th visit.

The evaluation is the feature players' leaf (evoplay.agents.kernel_leaf's ``Leaf``, ``evaluate`` and
``view_row``): exactly the numbers alpha-beta reads. The tree is a set of arrays instead of ``SearchNode``
objects, and the random numbers come from the agent's own ``random.Random`` generators, advanced inside the kernel
by evoplay.agents.mt19937 (Python's Mersenne Twister, to the bit); ``tanh`` and ``exp`` are the C library's on both
paths and sums run in the same order, so with a simulation budget the search returns exactly the tree the Python
search grows and the agent plays the same moves on either path.

A search runs in calls of a batch of simulations each (the clock is read between them under a time budget);
the tree grows between calls when it could fill up. ``KernelUct.search`` returns the root and its children as
``Visit`` records (the levels below stay in the arrays), from which the agent makes its ``SearchNode``s.
"""
from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np
from numba import njit

from evoplay.agents import mt19937 as mt
from evoplay.agents.kernel_leaf import LINEAR, PROGRAM, SCORE, Leaf, evaluate, make_leaf
from evoplay.errors import SpecError
from evoplay.games.base import CHANCE, TERMINAL
from evoplay.games.kernels import kernels_of, specialise

# The game's kernels: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = False
USES = ("evoplay.agents.kernel_leaf",)  # the feature players' leaf, compiled for the same game

# Columns of the tree's integer array and the first columns of its float array.
ACTION, PLAYER, VISITS, FIRST, COUNT, PROVEN = 0, 1, 2, 3, 4, 5
PRIOR, TOTAL, OUTCOME = 0, 1, 2
NO_MOVES = 1  # the error a search reports to Python: a player to move without a legal action
#: a move's score before the prior's softmax is clipped here (an infinite score would give NaN)
SCORE_LIMIT = 1e8
#: a move that ends the game scores its return times this in the prior (a win first, a loss last)
WIN_SCORE = 10.0


class Guide(NamedTuple):
    """How the kernels value a leaf and a move (see the module docstring): ``leaf`` the evolved evaluation
    (kernel_leaf's ``Leaf``; ``SCORE`` where none is read), ``spread`` its scores' scale, ``value`` (leaves scored
    by it after ``cut`` random plies; else random rollouts to the end), ``rollouts`` a leaf, ``prior`` (PUCT's prior
    from its move scores; else uniform), the prior's ``temperature`` and ``prior_visits``, the visit of a position
    its prior is computed at (1: its expansion)."""

    leaf: Leaf
    spread: float = 1.0
    value: bool = False
    cut: int = 0
    rollouts: int = 1
    prior: bool = False
    temperature: float = 1.0
    prior_visits: int = 1


def random_rollouts(rollouts: int) -> Guide:
    """The guide of ``rollouts`` random rollouts to the end of the game and a uniform prior."""
    return Guide(make_leaf(SCORE), rollouts=int(rollouts))


@njit(cache=True)
def outcomes_of(params, position, player, mask, probs, actions, priors):
    """The children a node gets: (action, prior) pairs in action order, the mover's legal actions with a uniform
    prior or the chance outcomes with their probabilities; how many."""
    n = 0
    if player == CHANCE:
        game_chance(params, position, probs)
        for a in range(probs.shape[0]):
            if probs[a] > 0:
                actions[n] = a
                priors[n] = probs[a]
                n += 1
        return n
    count = game_legal(params, position, player, mask)
    for a in range(mask.shape[0]):
        if mask[a]:
            actions[n] = a
            priors[n] = 1.0 / count
            n += 1
    return n


@njit(cache=True)
def sample(actions, priors, n, u):
    """uct.sample_outcome: the outcome a uniform draw ``u`` picks from (action, probability) pairs."""
    total = 0.0
    for i in range(n):
        total += priors[i]
    u *= total
    for i in range(n):
        if u < priors[i]:
            return actions[i]
        u -= priors[i]
    return actions[n - 1]


@njit(cache=True)
def play_randomly(params, position, rng, mask, probs, actions, priors, plies):
    """uct.play_randomly: uniformly random legal moves (chance by its probabilities) to the end of the game or,
    with ``plies`` >= 0, after that many moves of the players; False if a player who is to move has no legal
    action."""
    while True:
        player = game_mover(params, position)
        if player == TERMINAL or (player >= 0 and plies == 0):
            return True
        n = outcomes_of(params, position, player, mask, probs, actions, priors)
        if n == 0:
            return False
        if player == CHANCE:
            game_apply(params, position, sample(actions, priors, n, mt.random(rng)))
        else:
            game_apply(params, position, actions[int(mt.random(rng) * n)])
            plies -= 1


@njit(cache=True)
def unit(v):
    """uct.clipped_values on one number: NaN to 0, the rest within [-1, 1]."""
    if v != v:
        return 0.0
    return min(max(v, -1.0), 1.0)


@njit(cache=True)
def leaf_values(params, position, guide, rng, values, scratch):
    """The evaluator's value of ``position`` for every player into ``values`` (RandomRolloutEvaluator or
    CutRolloutEvaluator over EvolvedEvaluation.value); False if a rollout met a player without a legal action."""
    work, rollout, mask, probs, actions, priors, order, path, root_values, total, child, row, stack, scores, vmask = \
        scratch
    plies = guide.cut if guide.value else -1
    for r in range(guide.rollouts):
        rollout[:] = position
        if not play_randomly(params, rollout, rng, mask, probs, actions, priors, plies):
            return False
        if game_mover(params, rollout) == TERMINAL:
            game_returns(params, rollout, total)
        else:
            for p in range(total.shape[0]):
                score = evaluate(params, rollout, p, guide.leaf, vmask, scores, row, stack)
                total[p] = unit(math.tanh(score / guide.spread))
        if r == 0:
            values[:] = total
        else:
            values += total
    if guide.rollouts > 1:
        values /= guide.rollouts
    return True


@njit(cache=True)
def move_priors(params, position, player, n, actions, priors, guide, scratch):
    """PriorEvaluator.prior over EvolvedEvaluation.move_scores: ``priors[:n]`` for ``actions[:n]`` (legal, in
    action order), the softmax of each after-state's score for ``player`` over the spread (a finished game: its
    return x WIN_SCORE), clipped to +-SCORE_LIMIT, over the temperature."""
    work, rollout, mask, probs, acts, prs, order, path, root_values, total, child, row, stack, scores, vmask = \
        scratch
    top = -math.inf
    for i in range(n):
        child[:] = position
        game_apply(params, child, actions[i])
        if game_mover(params, child) == TERMINAL:
            game_returns(params, child, scores)
            score = scores[player] * WIN_SCORE
        else:
            score = evaluate(params, child, player, guide.leaf, vmask, scores, row, stack) / guide.spread
        if score != score:
            score = 0.0
        logit = min(max(score, -SCORE_LIMIT), SCORE_LIMIT) / guide.temperature
        priors[i] = logit
        if logit > top:
            top = logit
    total = 0.0
    for i in range(n):
        priors[i] = math.exp(priors[i] - top)
        total += priors[i]
    for i in range(n):
        priors[i] /= total


@njit(cache=True)
def late_priors(params, position, player, node, ints, floats, guide, scratch):
    """The lazy prior of uct.tree_search: ``node``'s children (in their shuffled order) get the priors
    ``move_priors`` gives its legal actions, computed in action order as at an expansion."""
    work, rollout, mask, by_action, actions, priors = scratch[:6]
    n = outcomes_of(params, position, player, mask, by_action, actions, priors)
    move_priors(params, position, player, n, actions, priors, guide, scratch)
    for i in range(n):
        by_action[actions[i]] = priors[i]
    first = ints[node, FIRST]
    for c in range(first, first + ints[node, COUNT]):
        floats[c, PRIOR] = by_action[ints[c, ACTION]]


@njit(cache=True)
def select(ints, floats, node, uct_c, puct):
    """uct.select_uct (or select_puct): the child with the highest value, the first of equals."""
    first = ints[node, FIRST]
    parent = ints[node, VISITS]
    scale = uct_c * math.sqrt(parent) if puct else uct_c * math.sqrt(math.log(parent))
    best = -1
    best_value = -math.inf
    for c in range(first, first + ints[node, COUNT]):
        if ints[c, PROVEN]:
            value = floats[c, OUTCOME + ints[c, PLAYER]]
        else:
            visits = ints[c, VISITS]
            if puct:
                value = ((floats[c, TOTAL] / visits if visits else 0.0)
                         + scale * floats[c, PRIOR] / (visits + 1))
            else:
                if not visits:
                    return c
                value = floats[c, TOTAL] / visits + scale / math.sqrt(visits)
        if value > best_value:
            best = c
            best_value = value
    return best


@njit(cache=True)
def select_chance(ints, floats, node, u):
    """uct.select_chance: the chance child a uniform draw ``u`` picks, each with its probability."""
    first = ints[node, FIRST]
    n = ints[node, COUNT]
    total = 0.0
    for c in range(first, first + n):
        total += floats[c, PRIOR]
    u *= total
    for c in range(first, first + n):
        if u < floats[c, PRIOR]:
            return c
        u -= floats[c, PRIOR]
    return first + n - 1


@njit(cache=True)
def same_outcome(floats, a, b, players):
    for p in range(players):
        if floats[a, OUTCOME + p] != floats[b, OUTCOME + p]:
            return False
    return True


@njit(cache=True)
def backup(ints, floats, path, length, values, solved, max_utility, has_max):
    """uct.backup: a visit and each node's mover's value along the path; proofs carried up while they hold."""
    players = values.shape[0]
    for i in range(length - 1, -1, -1):
        node = path[i]
        who = ints[node, PLAYER]
        if who == CHANCE:  # a chance outcome counts for the player who moved into the chance node
            j = i - 1
            while ints[path[j], PLAYER] == CHANCE:
                j -= 1
            who = ints[path[j], PLAYER]
        floats[node, TOTAL] += values[who]
        ints[node, VISITS] += 1
        if solved and ints[node, COUNT] > 0:
            first = ints[node, FIRST]
            last = first + ints[node, COUNT]
            mover = ints[first, PLAYER]
            if mover == CHANCE:
                settled = ints[first, PROVEN] != 0
                for c in range(first + 1, last):
                    if not settled:
                        break
                    settled = ints[c, PROVEN] != 0 and same_outcome(floats, c, first, players)
                if settled:
                    ints[node, PROVEN] = 1
                    floats[node, OUTCOME:] = floats[first, OUTCOME:]
                else:
                    solved = False
            else:
                best = -1
                all_solved = True
                for c in range(first, last):
                    if not ints[c, PROVEN]:
                        all_solved = False
                    elif best < 0 or floats[c, OUTCOME + mover] > floats[best, OUTCOME + mover]:
                        best = c
                if best >= 0 and (all_solved or (has_max and floats[best, OUTCOME + mover] == max_utility)):
                    ints[node, PROVEN] = 1
                    floats[node, OUTCOME:] = floats[best, OUTCOME:]
                else:
                    solved = False


@njit(cache=True)
def simulate(params, root, ints, floats, n_nodes, simulations, uct_c, puct, solve, max_utility, has_max, max_nodes,
             guide, search_rng, evaluator_rng, scratch):
    """Run up to ``simulations`` simulations of uct.tree_search on the tree (``n_nodes`` nodes used), the leaves and
    priors as ``guide`` says; returns (nodes used, simulations run, stopped: the root proven, a single move or the
    node limit reached, error code)."""
    work, rollout, mask, probs, actions, priors, order, path, values, total = scratch[:10]
    done = 0
    while done < simulations:
        work[:] = root
        node = 0
        path[0] = 0
        length = 1
        player = game_mover(params, work)
        while player != TERMINAL and ints[node, VISITS] > 0:
            if ints[node, COUNT] == 0:
                n = outcomes_of(params, work, player, mask, probs, actions, priors)
                if n == 0:
                    return n_nodes, done, True, NO_MOVES
                if guide.prior and player >= 0 and guide.prior_visits <= 1:
                    move_priors(params, work, player, n, actions, priors, guide, scratch)
                if n_nodes + n > ints.shape[0]:
                    raise RuntimeError("kernel uct: the tree is full (the caller sizes it for its simulations)")
                for i in range(n):
                    order[i] = i
                mt.shuffle(search_rng, order, n)
                ints[node, FIRST] = n_nodes
                ints[node, COUNT] = n
                for i in range(n):
                    c = n_nodes + i
                    ints[c, ACTION] = actions[order[i]]
                    ints[c, PLAYER] = player
                    ints[c, VISITS] = 0
                    ints[c, FIRST] = -1
                    ints[c, COUNT] = 0
                    ints[c, PROVEN] = 0
                    floats[c, PRIOR] = priors[order[i]]
                    floats[c, TOTAL] = 0.0
                n_nodes += n
            elif guide.prior and player >= 0 and guide.prior_visits > 1 and ints[node, VISITS] == guide.prior_visits:
                late_priors(params, work, player, node, ints, floats, guide, scratch)
            if player == CHANCE:
                child = select_chance(ints, floats, node, mt.random(search_rng))
            else:
                child = select(ints, floats, node, uct_c, puct)
            game_apply(params, work, ints[child, ACTION])
            node = child
            path[length] = node
            length += 1
            player = game_mover(params, work)
        if player == TERMINAL:
            game_returns(params, work, values)
            ints[node, PROVEN] = 1
            floats[node, OUTCOME:] = values
            solved = solve
        else:
            if not leaf_values(params, work, guide, evaluator_rng, values, scratch):
                return n_nodes, done, True, NO_MOVES
            solved = False
        backup(ints, floats, path, length, values, solved, max_utility, has_max)
        done += 1
        if ints[0, PROVEN] or ints[0, COUNT] == 1 or n_nodes >= max_nodes:
            return n_nodes, done, True, 0
    return n_nodes, done, False, 0


# --- Python's side ----------------------------------------------------------------------------------------------
BATCH_SECONDS = 0.001  # under a time budget, the clock is read about this often


class KernelUct:
    """``uct.tree_search`` for one game through its kernels, its evaluator described by a ``Guide``."""

    def __init__(self, game):
        self.game = game
        self.kernels = kernels_of(game)
        self.compiled = specialise(__name__, self.kernels)

    @staticmethod
    def supports(game, guide: Guide | None = None) -> bool:
        """Does this search cover ``game`` (kernels, one player at a time, nothing hidden), and the features the
        ``guide``'s evaluation reads?"""
        k = kernels_of(game)
        if k is None or k.simultaneous or not game.perfect_information:
            return False
        return guide is None or guide.leaf.kind not in (LINEAR, PROGRAM) or k.features is not None

    def __getstate__(self):
        return {"game": self.game}

    def __setstate__(self, state):
        self.__init__(state["game"])

    def scratch(self, guide: Guide, players: int):
        """The arrays a search works in: positions, the move lists, the path, the values and the leaf's row."""
        k = self.kernels
        width = k.actions
        leaf = guide.leaf
        row = (k.n_features + (6 if leaf.free else 0) + int(leaf.board[7]) if leaf.kind in (LINEAR, PROGRAM)
               else 1)
        return (k.new_position(), k.new_position(), np.zeros(width, np.int8), np.zeros(width),
                np.zeros(width, np.int64), np.zeros(width), np.zeros(width, np.int64), np.zeros(1 << 16, np.int64),
                np.zeros(players), np.zeros(players), k.new_position(), np.zeros(row), np.zeros(max(leaf.size, 1)),
                np.zeros(players), np.zeros(width, np.int8))

    def search(self, state, guide: Guide, rng, evaluator_rng, simulations: float, uct_c: float, solve: bool,
               stop_at: float | None, selection: str, max_utility: float | None, max_nodes: int,
               cpu_stop_at: float | None = None) -> tuple["Visit", list["Visit"]]:
        """uct.tree_search(state, evaluator, rng, ...) through the kernels, the evaluator described by ``guide`` and
        drawing its rollouts from ``evaluator_rng``: the root and its children; ``rng`` and ``evaluator_rng``
        advance as they would."""
        k = self.kernels
        players = k.players
        root = k.position(state)
        capacity = 1 + 64 * k.actions
        ints = np.zeros((capacity, 6), np.int64)
        floats = np.zeros((capacity, 2 + players))
        ints[0, PLAYER], ints[0, FIRST], floats[0, PRIOR] = state.current_player(), -1, 1.0
        scratch = self.scratch(guide, players)
        search_rng, rollout_rng = mt.state_of(rng), mt.state_of(evaluator_rng)
        limit = 0.0 if max_utility is None else float(max_utility)
        n_nodes, done, batch = 1, 0, 16
        clock = time.perf_counter
        try:
            timed = stop_at is not None or cpu_stop_at is not None
            while done < simulations:
                if stop_at is not None and clock() >= stop_at:
                    break
                if cpu_stop_at is not None and time.thread_time() >= cpu_stop_at:
                    break
                # Each simulation adds at most one node's children: the tree must hold them all before a call.
                if capacity - n_nodes < 16 * k.actions:
                    ints, floats, capacity = _grown(ints, floats, n_nodes)
                runs = int(min(simulations - done, batch if timed else 1 << 20,
                               (capacity - n_nodes) // k.actions))
                started = clock()
                n_nodes, ran, stopped, error = self.compiled.simulate(
                    k.params, root, ints, floats, n_nodes, runs, float(uct_c), selection == "puct", bool(solve),
                    limit, max_utility is not None, int(max_nodes), guide, search_rng, rollout_rng, scratch)
                done += ran
                if error == NO_MOVES:
                    raise SpecError(f"{self.game.spec}: a player to move has no legal action in a position that is "
                                    f"not over; its kernels must list at least one action (a pass) or end the game")
                if stopped:
                    break
                if timed and ran:
                    per = (clock() - started) / ran
                    batch = max(1, min(1 << 16, int(BATCH_SECONDS / per) if per > 0 else 1 << 16))
        finally:
            mt.restore(rng, search_rng)
            mt.restore(evaluator_rng, rollout_rng)
        return _root_node(ints, floats, players)


def _grown(ints, floats, used: int):
    capacity = 2 * ints.shape[0]
    more_ints = np.zeros((capacity, ints.shape[1]), np.int64)
    more_floats = np.zeros((capacity, floats.shape[1]))
    more_ints[:used] = ints[:used]
    more_floats[:used] = floats[:used]
    return more_ints, more_floats, capacity


class Visit(NamedTuple):
    """What the tree knows of one node: uct.SearchNode's fields (``outcome`` None while unproven)."""

    action: int | None
    player: int
    prior: float
    explore_count: int
    total_reward: float
    outcome: list[float] | None


def _visit(ints, floats, i: int, players: int) -> Visit:
    outcome = [float(v) for v in floats[i, OUTCOME:OUTCOME + players]] if ints[i, PROVEN] else None
    return Visit(int(ints[i, ACTION]) if i else None, int(ints[i, PLAYER]), float(floats[i, PRIOR]),
                 int(ints[i, VISITS]), float(floats[i, TOTAL]), outcome)


def _root_node(ints, floats, players: int) -> tuple[Visit, list[Visit]]:
    """The root and its children."""
    first = int(ints[0, FIRST])
    return (_visit(ints, floats, 0, players),
            [_visit(ints, floats, c, players) for c in range(first, first + int(ints[0, COUNT]))])
