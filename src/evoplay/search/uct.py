"""Closed-loop Monte Carlo tree search (UCT) with the semantics of OpenSpiel's MCTSBot: the readable search through
the game API (its Numba kernels, drawing the same random numbers, are evoplay.search.uct_kernel).

The search (the player ``uct``, evoplay.agents.uct) plays any sequential perfect-information game of any number of
players, with or without chance nodes, knowing only ``current_player``, ``legal_actions``, ``clone``,
``apply_action``, ``chance_outcomes`` and ``returns``. It is OpenSpiel's ``MCTSBot``
(open_spiel/python/algorithms/mcts.py and its C++ twin) over evoplay's State:

- **The tree**: a :class:`SearchNode` per position reached, holding the action that led to it, the player who
  made that action, the evaluator's prior for it, its visit count, its total reward and, once known, its proven
  outcome (the returns of every player).
- **A simulation** starts at the root and descends while the node has been visited before and the game is not
  over. A node visited for the second time is expanded: one child per legal action, with the evaluator's prior,
  in a shuffled order (OpenSpiel's remedy for move-generation order). At a decision node the child with the
  highest UCT value is chosen, ``Q/N + uct_c * sqrt(ln(N_parent) / N)``, an unvisited child first (or with
  ``selection="puct"``, ``Q/N + uct_c * prior * sqrt(N_parent) / (N + 1)``); a proven child's value is its
  outcome for its mover. At a chance node the outcome is drawn with its probability.
- **The leaf** is scored by the evaluator (per player: random rollouts to the end of the game by default, the
  mean of ``rollouts`` of them), or by the game's returns when it is over.
- **The backup** adds to each node on the path the value of the player who moved into it (max^n: in a game of
  any number of players each player maximises its own return); a chance outcome's node counts for the player
  who moved into the chance node.
- **The solver** (``solve``): a terminal leaf is proven. A decision node is proven when one child is proven
  to give its mover the game's best return (``Game.max_utility()``, where the game declares one) or when all its
  children are proven (it takes the best of them for its mover); a chance node when all its outcomes are proven
  equal. The search stops when the root is proven or has a single legal move.
- **The move**: the root's child with the best proven outcome for the mover (unproven counting as 0), then the
  most visits, then the highest total reward (OpenSpiel's ``SearchNode.sort_key``). A search stopped by its
  deadline before the root had children plays a move drawn from the evaluator's prior, as the C++ bot does.

Games with simultaneous moves or hidden information are refused (a tree over the true state would read what the
player cannot see).

**The reference** is the search through the State: the tree's own logic (``expand``, ``select_uct``, ``select_puct``,
``reference_select_chance``, ``reference_backup``, ``SearchNode.best_child``) calls no game method, and
:func:`tree_search` is the only place that drives a State. Evaluators (``evaluate(state)`` -> each player's value,
``prior(state)`` -> (action, probability) pairs) let an evaluation help: :class:`CutRolloutEvaluator` stops a random
rollout after ``depth`` plies and scores it with a value callable; :class:`PriorEvaluator` turns a callable that
scores the legal moves into a softmax prior for ``selection="puct"`` (evoplay.agents.uct's ``EvolvedEvaluation``
gives both from an evolved player's evaluation).

**The kernels** are evoplay.search.uct_kernel (``KernelUct``): the same search inside Numba over a game's
kernels, the tree a set of arrays, returning exactly the tree this reference grows.
"""
from __future__ import annotations

import math
import random
import time
from typing import Callable, Sequence

import numpy as np

from evoplay.errors import SpecError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, State, search_moves

#: the tree stops growing at this many nodes (about 150 bytes each): a time budget on a fast game cannot exhaust
#: memory (OpenSpiel's bots stop at a memory limit in the same way)
MAX_NODES = 3_000_000
SELECTIONS = ("uct", "puct")
#: the exploration constant (OpenSpiel's MCTSBot's default)
UCT_C = 2.0
#: a move's score before the prior's softmax is clipped here (an infinite score would give NaN)
SCORE_LIMIT = 1e8
#: a move that ends the game scores its return times this in the prior (a win first, a loss last)
WIN_SCORE = 10.0


# --- the tree -------------------------------------------------------------------------------------------------

class SearchNode:
    """A position in the tree: ``action`` (what ``player`` played to reach it), the ``prior`` of that action,
    ``explore_count`` visits, ``total_reward`` (the sum of ``player``'s values over those visits), ``outcome``
    (every player's return once the position is proven, else None) and ``children``."""

    __slots__ = ("action", "player", "prior", "explore_count", "total_reward", "outcome", "children")

    def __init__(self, action: int | None, player: int, prior: float):
        self.action = action
        self.player = player
        self.prior = prior
        self.explore_count = 0
        self.total_reward = 0.0
        self.outcome: list[float] | None = None
        self.children: list[SearchNode] = []

    def uct_value(self, parent_explore_count: int, uct_c: float) -> float:
        """UCT: the mean reward plus ``uct_c * sqrt(ln(parent visits) / visits)``; infinite when unvisited."""
        if self.outcome is not None:
            return self.outcome[self.player]
        if self.explore_count == 0:
            return math.inf
        return self.total_reward / self.explore_count + uct_c * math.sqrt(
            math.log(parent_explore_count) / self.explore_count)

    def puct_value(self, parent_explore_count: int, uct_c: float) -> float:
        """PUCT (AlphaZero's): the mean reward plus ``uct_c * prior * sqrt(parent visits) / (visits + 1)``."""
        if self.outcome is not None:
            return self.outcome[self.player]
        return ((self.total_reward / self.explore_count if self.explore_count else 0.0)
                + uct_c * self.prior * math.sqrt(parent_explore_count) / (self.explore_count + 1))

    def sort_key(self) -> tuple[float, int, float]:
        """How the final move is chosen: a proven outcome for the mover (0 when unproven), then visits, then
        total reward. A proven win beats everything, a proven loss comes after every unproven move."""
        return (0.0 if self.outcome is None else self.outcome[self.player], self.explore_count, self.total_reward)

    def best_child(self) -> "SearchNode":
        """The child to play: the highest ``sort_key``, the first of equals."""
        return max(self.children, key=SearchNode.sort_key)

    def __repr__(self) -> str:
        mean = self.total_reward / self.explore_count if self.explore_count else 0.0
        return (f"SearchNode(action={self.action}, player={self.player}, prior={self.prior:.3f}, "
                f"visits={self.explore_count}, mean={mean:.3f}, outcome={self.outcome}, "
                f"children={len(self.children)})")


def expand(node: SearchNode, priors: Sequence[tuple[int, float]], player: int, rng: random.Random) -> None:
    """Give ``node`` one child per (action, prior) pair, moved by ``player``, in a shuffled order."""
    pairs = list(priors)
    rng.shuffle(pairs)
    node.children = [SearchNode(a, player, p) for a, p in pairs]


def select_uct(node: SearchNode, uct_c: float) -> SearchNode:
    """The child of ``node`` with the highest UCT value (``SearchNode.uct_value``), the first of equals: the first
    unvisited child when there is one."""
    sqrt = math.sqrt
    scale = uct_c * sqrt(math.log(node.explore_count))
    best, best_value = None, -math.inf
    for child in node.children:
        outcome = child.outcome
        if outcome is None:
            visits = child.explore_count
            if not visits:
                return child  # infinite value: no later child can beat it
            value = child.total_reward / visits + scale / sqrt(visits)
        else:
            value = outcome[child.player]
        if value > best_value:
            best, best_value = child, value
    return best


def select_puct(node: SearchNode, uct_c: float) -> SearchNode:
    """The child of ``node`` with the highest PUCT value (``SearchNode.puct_value``), the first of equals."""
    scale = uct_c * math.sqrt(node.explore_count)
    best, best_value = None, -math.inf
    for child in node.children:
        outcome = child.outcome
        if outcome is None:
            visits = child.explore_count
            value = (child.total_reward / visits if visits else 0.0) + scale * child.prior / (visits + 1)
        else:
            value = outcome[child.player]
        if value > best_value:
            best, best_value = child, value
    return best


def reference_select_chance(node: SearchNode, u: float) -> SearchNode:
    """The chance outcome that a uniform draw ``u`` in [0, 1) picks, each child with its probability (prior)."""
    return sample_outcome([(child, child.prior) for child in node.children], u)


def sample_outcome(outcomes: Sequence[tuple], u: float):
    """The outcome a uniform draw ``u`` in [0, 1) picks from (outcome, probability) pairs."""
    u *= sum(p for _, p in outcomes)
    for outcome, p in outcomes:
        if u < p:
            return outcome
        u -= p
    return outcomes[-1][0]


def reference_backup(path: list[SearchNode], values: list[float], solved: bool, max_utility: float | None) -> None:
    """Add one visit and ``values`` (every player's value of the leaf) to the nodes of ``path`` (root first),
    each node taking the value of the player who moved into it; with ``solved`` (the leaf is a proven outcome),
    carry proofs upwards while they hold (see the module's docstring)."""
    for i in range(len(path) - 1, -1, -1):
        node = path[i]
        who = node.player
        if who == CHANCE:  # a chance outcome counts for the player who moved into the chance node
            j = i - 1
            while path[j].player == CHANCE:
                j -= 1
            who = path[j].player
        node.total_reward += values[who]
        node.explore_count += 1
        if solved and node.children:
            children = node.children
            mover = children[0].player
            if mover == CHANCE:
                outcome = children[0].outcome
                if outcome is not None and all(c.outcome == outcome for c in children):
                    node.outcome = outcome
                else:
                    solved = False
            else:
                best, all_solved = None, True
                for child in children:
                    outcome = child.outcome
                    if outcome is None:
                        all_solved = False
                    elif best is None or outcome[mover] > best[mover]:
                        best = outcome
                if best is not None and (all_solved or best[mover] == max_utility):
                    node.outcome = best
                else:
                    solved = False


# --- the reference: the search through the game API ---------------------------------------------------------


def _no_moves(state: State) -> SpecError:
    return SpecError(f"{state.game.spec}: player {state.current_player()} has no legal action in a position that "
                     f"is not over; its State must list at least one action (a pass) or end the game")


def _simultaneous(state: State) -> SpecError:
    return SpecError(f"uct reached a simultaneous move in {state.game.spec}; it searches games where one player "
                     f"moves at a time")


def reference_play_randomly(state: State, random_float: Callable[[], float], plies: int = -1) -> None:
    """Play ``state`` on with uniformly random legal moves (chance outcomes by their probabilities) until the game
    ends or, when ``plies`` >= 0, after that many moves of the players (chance outcomes take no ply)."""
    legal_of, apply = search_moves(type(state))
    while True:
        player = state.current_player()
        if player >= 0:
            if plies == 0:
                return
            legal = legal_of(state)
            if not legal:
                raise _no_moves(state)
            apply(state, legal[int(random_float() * len(legal))])
            plies -= 1
        elif player == CHANCE:
            apply(state, sample_outcome(state.chance_outcomes(), random_float()))
        elif player == TERMINAL:
            return
        else:
            raise _simultaneous(state)


class Evaluator:
    """What the search asks of a position: ``evaluate(state)``, each player's value of a position that is not
    over (on the scale of ``returns()``), and ``prior(state)``, (action, probability) pairs over the mover's legal
    actions (uniform here; only ``selection="puct"`` reads it). ``reseed(seed)`` restarts its random numbers.
    ``prior_visits``: the visits a position has when the search asks its prior (1: when it is expanded; more: a
    uniform prior until then, so a prior that costs an evaluation a move is paid only where the search returns)."""

    prior_visits = 1

    def __init__(self, seed: int = 0):
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def rollout_rng(self) -> random.Random:
        """The generator its rollouts draw from (the kernel path advances it as ``evaluate`` would)."""
        return self.rng

    def evaluate(self, state: State) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__}.evaluate(state) must return every player's value")

    def describe(self) -> str:
        """What scores a leaf and steers the choice of moves, in a phrase (``UctAgent.describe`` prints it)."""
        return f"its leaves scored by {type(self).__name__}"

    def prior(self, state: State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        p = 1.0 / len(legal) if legal else 0.0
        return [(a, p) for a in legal]


class RandomRolloutEvaluator(Evaluator):
    """The mean of the returns of ``rollouts`` uniformly random playouts to the end of the game (OpenSpiel's)."""

    def __init__(self, rollouts: int = 1, seed: int = 0):
        if rollouts < 1:
            raise SpecError(f"RandomRolloutEvaluator: rollouts={rollouts}; give at least 1")
        self.rollouts = int(rollouts)
        super().__init__(seed)

    def evaluate(self, state: State) -> np.ndarray:
        random_float = self.rng.random
        total = None
        for _ in range(self.rollouts):
            work = state.clone()
            reference_play_randomly(work, random_float)
            r = np.asarray(work.returns(), dtype=np.float64)
            total = r if total is None else total + r
        return total / self.rollouts if self.rollouts > 1 else total

    def describe(self) -> str:
        return "random rollouts to the end" + (f" ({self.rollouts} a leaf)" if self.rollouts > 1 else "")


def clipped_values(values, state: State, what: str) -> np.ndarray:
    """``values`` as one float per player of ``state``'s game, clipped to [-1, 1], NaN read as 0; a wrong count
    raises SpecError naming ``what`` produced them."""
    out = np.asarray(values, dtype=np.float64).reshape(-1)
    n = state.game.num_players
    if out.shape[0] != n:
        raise SpecError(f"{what} gave {out.shape[0]} values for {state.game.spec}; it must give one per player ({n})")
    return np.clip(np.nan_to_num(out, nan=0.0), -1.0, 1.0)


class CutRolloutEvaluator(Evaluator):
    """Random rollouts cut short after ``depth`` plies and scored by ``value(state)``, each player's value in
    [-1, 1] (clipped there; NaN counts as 0). A rollout that reaches the end of the game scores its returns;
    ``depth=0`` scores the leaf itself. The mean over ``rollouts`` rollouts."""

    def __init__(self, value: Callable[[State], Sequence[float]], depth: int = 0, rollouts: int = 1, seed: int = 0):
        if depth < 0:
            raise SpecError(f"CutRolloutEvaluator: depth={depth}; give 0 (score the leaf) or more random plies")
        if rollouts < 1:
            raise SpecError(f"CutRolloutEvaluator: rollouts={rollouts}; give at least 1")
        self.value, self.depth, self.rollouts = value, int(depth), int(rollouts)
        super().__init__(seed)

    def evaluate(self, state: State) -> np.ndarray:
        total = None
        for _ in range(self.rollouts):
            work = state.clone()
            reference_play_randomly(work, self.rng.random, self.depth)
            if work.is_terminal():
                r = np.asarray(work.returns(), dtype=np.float64)
            else:
                r = clipped_values(self.value(work), work, "CutRolloutEvaluator's value(state)")
            total = r if total is None else total + r
        return total / self.rollouts

    def describe(self) -> str:
        what = _what(self.value)
        return (f"its leaves scored by {what}" if self.depth == 0 else
                f"random rollouts cut after {self.depth} plies and scored by {what}")


class PriorEvaluator(Evaluator):
    """A prior from ``score(state, actions)``, one number per legal action (higher is better for the mover):
    ``softmax(score / temperature)``; chance nodes keep their outcomes' probabilities. Positions are evaluated by
    ``inner`` (random rollouts by default). The prior steers the search only with ``selection="puct"``."""

    def __init__(self, score: Callable[[State, list[int]], Sequence[float]], temperature: float = 1.0,
                 inner: Evaluator | None = None, seed: int = 0, prior_visits: int = 1):
        if not temperature > 0:
            raise SpecError(f"PriorEvaluator: temperature={temperature}; give a positive number (small: greedy)")
        if not (isinstance(prior_visits, int) and prior_visits >= 1):
            raise SpecError(f"PriorEvaluator: prior_visits={prior_visits!r}; give the visits before a position's "
                            f"prior is computed, an integer >= 1 (1: when it is expanded)")
        self.score, self.temperature, self.prior_visits = score, float(temperature), prior_visits
        self.inner = inner if inner is not None else RandomRolloutEvaluator()
        super().__init__(seed)

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self.inner.reseed(seed)

    def rollout_rng(self) -> random.Random:
        return self.inner.rollout_rng()

    def evaluate(self, state: State) -> np.ndarray:
        return self.inner.evaluate(state)

    def describe(self) -> str:
        when = f" (from a position's {self.prior_visits}th visit)" if self.prior_visits > 1 else ""
        over = f" at temperature {self.temperature:g}" if self.temperature != 1.0 else ""
        return (f"{self.inner.describe()}, each move's prior a softmax over its after-state's score by "
                f"{_what(self.score)}{over}{when}")

    def prior(self, state: State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = list(state.legal_actions())
        scores = np.asarray(self.score(state, legal), dtype=np.float64).reshape(-1)
        if scores.shape[0] != len(legal):
            raise SpecError(f"PriorEvaluator's score(state, actions) gave {scores.shape[0]} scores for "
                            f"{len(legal)} legal actions; it must give one per action")
        # One number at a time, the C library's exp and a running sum: the kernel path's arithmetic to the bit.
        logits = [min(max(0.0 if s != s else s, -SCORE_LIMIT), SCORE_LIMIT) / self.temperature
                  for s in scores.tolist()]
        top = max(logits)
        weights = [math.exp(x - top) for x in logits]
        total = 0.0
        for w in weights:
            total += w
        return [(a, w / total) for a, w in zip(legal, weights)]


def tree_search(state: State, evaluator: Evaluator, rng: random.Random, simulations: float = 1000, uct_c: float = 2.0,
           solve: bool = True, stop_at: float | None = None, selection: str = "uct",
           max_utility: float | None = None, max_nodes: int = MAX_NODES,
           cpu_stop_at: float | None = None) -> SearchNode:
    """Search from ``state`` (a player to move) and return the root: at most ``simulations`` simulations, none
    started once ``time.perf_counter()`` passes ``stop_at`` or ``time.thread_time()`` passes ``cpu_stop_at``; it
    stops early when the root is proven, has a single move, or the tree holds ``max_nodes`` nodes.
    ``root.explore_count`` is the number of simulations run."""
    root = SearchNode(None, state.current_player(), 1.0)
    select = select_uct if selection == "uct" else select_puct
    evaluate, prior = evaluator.evaluate, evaluator.prior
    late = evaluator.prior_visits if evaluator.prior_visits > 1 else 0  # the visit a lazy prior is computed at
    random_float = rng.random
    clock = time.perf_counter
    n_players = state.game.num_players
    apply = None
    nodes, done = 1, 0
    while done < simulations:
        if stop_at is not None and clock() >= stop_at:
            break
        if cpu_stop_at is not None and time.thread_time() >= cpu_stop_at:
            break
        work = state.clone()
        if apply is None:
            apply = search_moves(type(work))[1]
        node, path = root, [root]
        player = work.current_player()
        while player != TERMINAL and node.explore_count:
            children = node.children
            if not children:
                if player == CHANCE:
                    expand(node, work.chance_outcomes(), CHANCE, rng)
                elif player == SIMULTANEOUS:
                    raise _simultaneous(work)
                else:
                    expand(node, Evaluator.prior(evaluator, work) if late else prior(work), player, rng)
                    if not node.children:
                        raise _no_moves(work)
                nodes += len(node.children)
            elif node.explore_count == late and player >= 0:
                priors = dict(prior(work))
                for child in children:
                    child.prior = priors[child.action]
            child = reference_select_chance(node, random_float()) if player == CHANCE else select(node, uct_c)
            apply(work, child.action)
            node = child
            path.append(node)
            player = work.current_player()
        if player == TERMINAL:
            values = [float(v) for v in work.returns()]
            node.outcome = values
            solved = solve
        else:
            raw = evaluate(work)
            values = raw.tolist() if isinstance(raw, np.ndarray) else [float(v) for v in raw]
            solved = False
            if len(values) != n_players or any(v != v for v in values):
                raise SpecError(f"{type(evaluator).__name__}.evaluate gave {values} for {state.game.spec}; it must "
                                f"give one number per player ({n_players}), none NaN")
        reference_backup(path, values, solved, max_utility)
        done += 1
        if root.outcome is not None or len(root.children) == 1 or nodes >= max_nodes:
            break
    return root


def _what(method) -> str:
    """A callable an evaluator reads, named for a report: by its owner's ``describe()`` where it is a method of an
    evaluation that describes itself (an evolved evaluation), else "a given function"."""
    describe = getattr(getattr(method, "__self__", None), "describe", None)
    return describe() if callable(describe) else "a given function"
