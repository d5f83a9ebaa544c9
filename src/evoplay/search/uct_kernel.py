"""Closed-loop Monte Carlo tree search (UCT) inside Numba: the kernels of evoplay.search.uct's reference search,
compiled once per game over its kernels, drawing the same random numbers.

:class:`KernelUct` (for a turn-based game of perfect information that hands over kernels, compiled once per game
by evoplay.games.kernels.specialise) is evoplay.search.uct's ``tree_search``, the tree a set of arrays, for the
evaluators a :class:`Guide` describes: random rollouts to the end of the game, the mean of ``rollouts`` of them; a
leaf value, ``rollouts`` random rollouts cut after ``cut`` plies, each scored ``tanh(score / spread)`` for every
player where the game is not over; the mover's after-states' scores as PUCT's prior, ``softmax(score / spread /
temperature)``, a finished game scoring its return x ``WIN_SCORE``, computed when a position is expanded or, with
``prior_visits`` > 1, uniform until its ``prior_visits``-th visit. The score is the player's hook (:class:`Hooks`:
a leaf module compiled for the same game, whose kernel ``evaluate`` the search calls as ``hook_leaf``; the evolved
players' is evoplay.search.leaf_kernel, exactly the numbers alpha-beta reads). The random numbers come from the
player's own ``random.Random`` generators, advanced inside the kernel by evoplay.search.mt19937 (Python's Mersenne
Twister, to the bit); ``tanh`` and ``exp`` are the C library's on both paths and sums run in the same order, so with
a simulation budget the kernels return exactly the tree the reference grows (tests/agents/test_kernel_uct.py).
A search runs in calls of a batch of simulations each (the clock is read between them under a time budget); the
tree grows between calls when it could fill up. ``KernelUct.search`` returns the root and its children as
``SearchNode``s (the levels below stay in the arrays).

Where its time went: Numba counts (atomically) the references to every array a kernel is handed (the position
rows, the tree, the generators' states, the scratch, the guide's leaf) around each call, more than half of a
simulation's time on connect four (perf). ``simulate`` therefore works on ``uncounted`` views of its arguments
(evoplay.games.kernels; ``KernelUct.search`` holds the arrays), the leaf's through the leaf module's
``uncounted_leaf``; the rollout loop and the per-node bookkeeping are inlined, and a search grows its tree in the
arrays of the one before (fresh pages cost page faults). Simulations a CPU second with random rollouts went from
389k to 1.02 M on connect four, 212k to 378k on Kalah, 271k to 441k on hex 5x5 (20000 a move, four positions;
guided by an evolved prior much the same); the game's own kernels in the random rollouts are now most of it.
"""
from __future__ import annotations

import hashlib
import importlib.util
import math
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from evoplay.errors import SpecError
from evoplay.games.base import CHANCE, TERMINAL
from evoplay.games.kernels import Kernels, kernels_of, specialise, uncounted
from evoplay.search import mt19937 as mt
from evoplay.search.uct import SCORE_LIMIT, WIN_SCORE, SearchNode

# --- the kernels ----------------------------------------------------------------------------------------------
# The game's kernels and the player's leaf: bound per game and leaf by ``KernelUct`` (specialise, over ``Hooks``).
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = False
hook_leaf = hook_uncounted = None

# Columns of the tree's integer array and the first columns of its float array.
ACTION, PLAYER, VISITS, FIRST, COUNT, PROVEN = 0, 1, 2, 3, 4, 5
PRIOR, TOTAL, OUTCOME = 0, 1, 2
NO_MOVES = 1  # the error a search reports to Python: a player to move without a legal action


class Guide(NamedTuple):
    """How the kernels value a leaf and a move (see the module docstring): ``leaf`` what the leaf hook reads (the
    player's evaluation, handed to ``hook_leaf`` untouched; read by none with random rollouts), ``spread`` its
    scores' scale, ``value`` (leaves scored by it after ``cut`` random plies; else random rollouts to the end),
    ``rollouts`` a leaf, ``prior`` (PUCT's prior from its move scores; else uniform), the prior's ``temperature``
    and ``prior_visits``, the visit of a position its prior is computed at (1: its expansion)."""

    leaf: tuple
    spread: float = 1.0
    value: bool = False
    cut: int = 0
    rollouts: int = 1
    prior: bool = False
    temperature: float = 1.0
    prior_visits: int = 1


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def sample(actions, priors, n, u):
    """``sample_outcome``: the outcome a uniform draw ``u`` picks from (action, probability) pairs."""
    total = 0.0
    for i in range(n):
        total += priors[i]
    u *= total
    for i in range(n):
        if u < priors[i]:
            return actions[i]
        u -= priors[i]
    return actions[n - 1]


@njit(cache=True, inline="always")
def play_randomly(params, position, rng, mask, probs, actions, priors, plies):
    """``reference_play_randomly``: uniformly random legal moves (chance by its probabilities) to the end of the
    game or, with ``plies`` >= 0, after that many moves of the players; False if a player who is to move has no
    legal action."""
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


@njit(cache=True, inline="always")
def unit(v):
    """``clipped_values`` on one number: NaN to 0, the rest within [-1, 1]."""
    if v != v:
        return 0.0
    return min(max(v, -1.0), 1.0)


@njit(cache=True)
def leaf_values(params, position, guide, rng, values, scratch):
    """The evaluator's value of ``position`` for every player into ``values`` (RandomRolloutEvaluator or
    CutRolloutEvaluator over the leaf hook); False if a rollout met a player without a legal action."""
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
                score = hook_leaf(params, rollout, p, guide.leaf, vmask, scores, row, stack)
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
    """PriorEvaluator.prior over the leaf hook's move scores: ``priors[:n]`` for ``actions[:n]`` (legal, in
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
            score = hook_leaf(params, child, player, guide.leaf, vmask, scores, row, stack) / guide.spread
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
    """The lazy prior of ``tree_search``: ``node``'s children (in their shuffled order) get the priors
    ``move_priors`` gives its legal actions, computed in action order as at an expansion."""
    work, rollout, mask, by_action, actions, priors = scratch[:6]
    n = outcomes_of(params, position, player, mask, by_action, actions, priors)
    move_priors(params, position, player, n, actions, priors, guide, scratch)
    for i in range(n):
        by_action[actions[i]] = priors[i]
    first = ints[node, FIRST]
    for c in range(first, first + ints[node, COUNT]):
        floats[c, PRIOR] = by_action[ints[c, ACTION]]


@njit(cache=True, inline="always")
def select(ints, floats, node, uct_c, puct):
    """``select_uct`` (or ``select_puct``): the child with the highest value, the first of equals."""
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


@njit(cache=True, inline="always")
def select_chance(ints, floats, node, u):
    """``reference_select_chance``: the chance child a uniform draw ``u`` picks, each with its probability."""
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


@njit(cache=True, inline="always")
def same_outcome(floats, a, b, players):
    for p in range(players):
        if floats[a, OUTCOME + p] != floats[b, OUTCOME + p]:
            return False
    return True


@njit(cache=True, inline="always")
def backup(ints, floats, path, length, values, solved, max_utility, has_max):
    """``reference_backup``: a visit and each node's mover's value along the path; proofs carried up while they hold."""
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


@njit(cache=True, inline="always")
def uncounted_scratch(scratch):
    """``scratch`` as ``uncounted`` views (evoplay.games.kernels), its caller holding the arrays."""
    work, rollout, mask, probs, actions, priors, order, path, values, total, child, row, stack, scores, vmask = \
        scratch
    return (uncounted(work), uncounted(rollout), uncounted(mask), uncounted(probs), uncounted(actions),
            uncounted(priors), uncounted(order), uncounted(path), uncounted(values), uncounted(total),
            uncounted(child), uncounted(row), uncounted(stack), uncounted(scores), uncounted(vmask))


@njit(cache=True, inline="always")
def uncounted_guide(guide):
    """``guide`` with its leaf's arrays as ``uncounted`` views (the leaf module's ``uncounted_leaf``)."""
    return Guide(hook_uncounted(guide.leaf), guide.spread, guide.value, guide.cut, guide.rollouts, guide.prior,
                 guide.temperature, guide.prior_visits)


@njit(cache=True)
def simulate(params, root, ints, floats, n_nodes, simulations, uct_c, puct, solve, max_utility, has_max, max_nodes,
             guide, search_rng, evaluator_rng, scratch):
    """Run up to ``simulations`` simulations of ``tree_search`` on the tree (``n_nodes`` nodes used), the leaves and
    priors as ``guide`` says; returns (nodes used, simulations run, stopped: the root proven, a single move or the
    node limit reached, error code)."""
    params, root, ints, floats = uncounted(params), uncounted(root), uncounted(ints), uncounted(floats)
    search_rng, evaluator_rng = uncounted(search_rng), uncounted(evaluator_rng)
    scratch, guide = uncounted_scratch(scratch), uncounted_guide(guide)
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


@njit(cache=True, inline="always")
def same_leaf(leaf):
    """``hook_uncounted`` for a leaf module without ``uncounted_leaf``: its leaf as it is."""
    return leaf


# --- Python's side of the kernels -----------------------------------------------------------------------------
BATCH_SECONDS = 0.001  # under a time budget, the clock is read about this often
KEPT_ROWS = 1 << 20  # a search's tree arrays up to this many nodes (~80 MB) are kept for the next search
#: the tree arrays the last search of this thread grew, for the next one of any agent in the thread (one spare a
#: thread, not one an agent: the browser app holds an agent a session and plays them on a few threads)
_kept = threading.local()


@dataclass(frozen=True, eq=False)
class Hooks:
    """What the kernel search is compiled over for one game and leaf: the game's ``kernels`` and ``leaf``, the dotted
    name of a module compiled per game too (evoplay.games.kernels) whose kernel ``evaluate(params, position, player,
    leaf, mask, scores, row, stack)`` is ``player``'s score of ``position`` under a guide's ``leaf`` (bound as
    ``hook_leaf``) and whose ``room(kernels, leaf)`` gives the sizes of the row and stack it works in; its kernel
    ``uncounted_leaf(leaf)``, where it has one, is the leaf with ``uncounted`` views of its arrays (``hook_uncounted``)."""

    kernels: Kernels
    leaf: str

    def bindings(self) -> dict:
        leaf = specialise(self.leaf, self.kernels)
        return {**self.kernels.bindings(), "hook_leaf": leaf.evaluate,
                "hook_uncounted": getattr(leaf, "uncounted_leaf", same_leaf)}

    @property
    def key(self) -> str:
        """The game's key and a hash of the leaf module's file (an edited leaf compiles afresh)."""
        cached = self.__dict__.get("_key")
        if cached:
            return cached
        digest = hashlib.sha256(self.leaf.encode() + open(importlib.util.find_spec(self.leaf).origin, "rb").read())
        key = f"{self.kernels.key}_{digest.hexdigest()[:8]}"
        object.__setattr__(self, "_key", key)
        return key


class KernelUct:
    """``tree_search`` for one game through its kernels, its evaluator described by a ``Guide`` and scored by the
    leaf module ``leaf`` (see ``Hooks``) a player hands over."""

    def __init__(self, game, leaf):
        self.game, self.leaf = game, leaf
        self.kernels = kernels_of(game)
        self.compiled = specialise(__name__, Hooks(self.kernels, leaf.__name__))

    @staticmethod
    def supports(game) -> bool:
        """Does this search cover ``game``: kernels, one player at a time, nothing hidden?"""
        k = kernels_of(game)
        return k is not None and not k.simultaneous and game.perfect_information

    def __getstate__(self):
        return {"game": self.game, "leaf": self.leaf.__name__}

    def __setstate__(self, state):
        self.__init__(state["game"], importlib.import_module(state["leaf"]))

    def scratch(self, guide: Guide, players: int):
        """The arrays a search works in: positions, the move lists, the path, the values and the leaf's room."""
        k = self.kernels
        width = k.actions
        row, stack = self.leaf.room(k, guide.leaf)
        return (k.new_position(), k.new_position(), np.zeros(width, np.int8), np.zeros(width),
                np.zeros(width, np.int64), np.zeros(width), np.zeros(width, np.int64), np.zeros(1 << 16, np.int64),
                np.zeros(players), np.zeros(players), k.new_position(), np.zeros(row), np.zeros(stack),
                np.zeros(players), np.zeros(width, np.int8))

    def search(self, state, guide: Guide, rng, evaluator_rng, simulations: float, uct_c: float, solve: bool,
               stop_at: float | None, selection: str, max_utility: float | None, max_nodes: int,
               cpu_stop_at: float | None = None) -> SearchNode:
        """``tree_search(state, evaluator, rng, ...)`` through the kernels, the evaluator described by ``guide`` and
        drawing its rollouts from ``evaluator_rng``: the root and its children; ``rng`` and ``evaluator_rng``
        advance as they would."""
        k = self.kernels
        players = k.players
        root = k.position(state)
        ints, floats = _spare_tree(2 + players) or (np.zeros((1 + 64 * k.actions, 6), np.int64),
                                                     np.zeros((1 + 64 * k.actions, 2 + players)))
        capacity = ints.shape[0]
        ints[0], floats[0] = 0, 0.0
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
        if ints.shape[0] <= KEPT_ROWS:  # the next search grows its tree in these: fresh pages cost page faults
            _kept.tree = ints, floats
        return _root_node(ints, floats, players)


def _spare_tree(columns: int):
    """This thread's kept tree arrays when their float rows have ``columns`` columns (taken: a search owns them
    until it keeps them again), else None."""
    tree = getattr(_kept, "tree", None)
    if tree is None or tree[1].shape[1] != columns:
        return None
    _kept.tree = None
    return tree


def _grown(ints, floats, used: int):
    capacity = 2 * ints.shape[0]
    more_ints = np.zeros((capacity, ints.shape[1]), np.int64)
    more_floats = np.zeros((capacity, floats.shape[1]))
    more_ints[:used] = ints[:used]
    more_floats[:used] = floats[:used]
    return more_ints, more_floats, capacity


def _root_node(ints, floats, players: int) -> SearchNode:
    """The root and its children as ``SearchNode``s (the levels below stay in the arrays)."""
    def node(i: int) -> SearchNode:
        made = SearchNode(int(ints[i, ACTION]) if i else None, int(ints[i, PLAYER]), float(floats[i, PRIOR]))
        made.explore_count, made.total_reward = int(ints[i, VISITS]), float(floats[i, TOTAL])
        made.outcome = [float(v) for v in floats[i, OUTCOME:OUTCOME + players]] if ints[i, PROVEN] else None
        return made

    root = node(0)
    first = int(ints[0, FIRST])
    root.children = [node(c) for c in range(first, first + int(ints[0, COUNT]))]
    return root
