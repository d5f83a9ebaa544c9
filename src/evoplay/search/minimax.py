"""Depth-limited alpha-beta through the game API alone, for any game, with a pluggable leaf evaluation.

``search(state, player, depth, evaluate, rng)`` returns the legal actions of ``player`` at ``state`` and the value
of each from ``player``'s side. How it treats each kind of node:

- **terminal**: the true result, ``returns()[player] * (TERMINAL_SCALE + plies left)``: it outweighs any leaf
  evaluation (those are clipped to +-``EVAL_LIMIT``), and a win sooner (a loss later) is worth more.
- **depth 0, not terminal**: ``evaluate``, from ``player``'s side.
- **chance**: the expectation over ``chance_outcomes()``; chance nodes take no ply of the depth, and one on the
  horizon is not a leaf: its outcomes are (the evaluation is read where a player is to move, as it was learned).
- **turn-based**: ``player`` maximises, every other player minimises ``player``'s value (paranoid search, which is
  plain minimax for two players).
- **simultaneous**: ``player`` maximises over its own actions against one joint action of the others per node,
  drawn uniformly from their legal actions with ``rng`` (unless ``noop_opponents``), or else the no-op: the game's
  ``noop_action`` when it names one, else each opponent's last legal action (NIL in evoplay's grid games). A
  node where ``player`` does not move is a single branch of sampled (or no-op) actions.
- **hidden information**: when ``game.perfect_information`` is false the search runs on ``samples`` states drawn
  by ``state.resample(player, rng)``, each one ``player`` cannot tell from the true one (determinisations), and a
  root action's value is its mean over them (perfect-information Monte Carlo): one determinisation believes the
  hidden cards it drew, and where the whole tree fits in the budget it never reads the evaluation at all. Each
  determinisation's root actions are searched with a full window, so the mean is of exact values.

The root's values are exact for the best action and every action tied with it; a worse action's value is an
upper bound that is still below the best (alpha-beta with the window opened just below the best so far), so the
caller can break ties itself.

**Budgets.** With a :class:`Budget` (a node count, seconds, or an absolute ``time.perf_counter()`` deadline) the
search deepens iteratively, 1, 2, ... up to ``depth`` plies, each iteration trying the root actions best first by
the one before, and returns the values of the last iteration it finished (the first always finishes). A node
budget is counted, so a search under it is reproducible from the seed; a time budget is not. Under a budget the
search keeps a transposition table where the state gives ``transposition_key()`` (the best action of a position
is tried first; a stored value of at least the depth needed, exact or a bound that cuts, is reused) and orders
the other actions by how often each cut off the search before (the history heuristic).

``evaluate(state, player) -> float`` scores one leaf. Wrapped with :func:`batched`, it is instead called with a
list of states, ``evaluate(states, player) -> array``, once for all the leaf children of a node at depth 1 (those
children are then all generated, giving up pruning at the last ply for one interpreter call).

Its Numba kernels over a game's kernels are evoplay.search.minimax_kernel (the same nodes, values and counts), which
the games' own players search with the game's own leaf (evoplay.search.minimax_game; their plain-Python reference is
this search's, evoplay.search.minimax_own).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit

from evoplay.errors import SpecError
from evoplay.games.base import State, search_moves

TERMINAL_SCALE = 1e9
EVAL_LIMIT = 1e8
MAX_DEPTH = 40
#: determinisations a search of a game with hidden information averages over (``search``'s ``samples``)
SAMPLES = 8


#: entries a transposition table holds before it is cleared
TABLE_LIMIT = 400_000
EXACT, LOWER, UPPER = 0, 1, 2
#: the depth a table entry is stored at when the search below its node reached no horizon and took no value from the
#: table that did (a game's own players' search, where the horizon is counted): the whole game below it was searched,
#: so the entry holds at any depth, and taking it is not counted as a hit
FINAL = 1 << 40


@dataclass(frozen=True)
class Budget:
    """How long an iterative-deepening search may run: ``nodes`` (0: no limit), ``seconds`` (0: no limit) from
    its start, measured by ``clock`` ("wall": elapsed time; "cpu": this thread's CPU time, which a busy machine
    does not take from it), and ``deadline``, an absolute ``time.perf_counter()`` (None: none); the earliest limit
    stops it."""

    nodes: int = 0
    seconds: float = 0.0
    deadline: float | None = None
    clock: str = "wall"

    @property
    def timed(self) -> bool:
        return self.seconds > 0 or self.deadline is not None

    def ends(self) -> tuple[float, float]:
        """When a search started now must stop: (a ``time.perf_counter()``, a ``time.thread_time()``), infinity for
        no limit on that clock."""
        wall = self.deadline if self.deadline is not None else math.inf
        cpu = math.inf
        if self.seconds > 0 and self.clock == "cpu":
            cpu = time.thread_time() + self.seconds
        elif self.seconds > 0:
            wall = min(wall, time.perf_counter() + self.seconds)
        return wall, cpu

    def __bool__(self) -> bool:
        return self.nodes > 0 or self.timed


class _OutOfBudget(Exception):
    pass


def transposition_key(state: State):
    """The state's transposition key, or None when its class gives none (then nothing is stored)."""
    hook = getattr(state, "transposition_key", None)
    return hook() if hook is not None else None


def batched(evaluate: Callable) -> Callable:
    """Mark ``evaluate(states: list, player) -> np.ndarray`` as taking many leaf states at once."""
    evaluate.batched = True
    return evaluate


def _apply(state: State, action: int) -> None:
    # The search only applies actions the state listed as legal: no second legality check (search_moves).
    search_moves(type(state))[1](state, int(action))


def _clip(value: float) -> float:
    if value != value:  # NaN: a program's value that means nothing scores as neutral
        return 0.0
    return min(EVAL_LIMIT, max(-EVAL_LIMIT, float(value)))


@njit(cache=True, inline="always")
def clip_value(v):
    """Kernel of ``_clip`` (the scorers' and the kernel search's clipping): NaN to 0, the rest within
    +-EVAL_LIMIT."""
    if v != v:
        return 0.0
    if v > EVAL_LIMIT:
        return EVAL_LIMIT
    if v < -EVAL_LIMIT:
        return -EVAL_LIMIT
    return v


class _Search:
    def __init__(self, player: int, depth: int, evaluate: Callable, rng: np.random.Generator | None,
                 noop_opponents: bool = False, budget: Budget | None = None, table: dict | None = None,
                 history: dict | None = None):
        self.player = player
        self.sample = rng is not None and not noop_opponents
        self.depth = depth
        self.evaluate = evaluate
        self.batched = bool(getattr(evaluate, "batched", False))
        self.rng = rng
        self.nodes = 0
        self.hits = 0  # the values taken from the table
        self.budget = budget
        self.node_limit = budget.nodes if budget and budget.nodes else math.inf
        # the ends on time.perf_counter() and on time.thread_time()
        self.deadline, self.cpu_deadline = budget.ends() if budget else (math.inf, math.inf)
        self.table = table
        self.history = history
        self.completed = 0  # the deepest iteration finished
        self.exact = True  # the root's window opened for ties (see ``iteration``)

    def spend(self, count: int = 1) -> None:
        """Count ``count`` nodes; past the budget, stop the iteration running (never the first)."""
        self.nodes += count
        if self.completed and (self.nodes > self.node_limit
                               or (self.deadline != math.inf and time.perf_counter() > self.deadline)
                               or (self.cpu_deadline != math.inf and time.thread_time() > self.cpu_deadline)):
            raise _OutOfBudget

    # --- leaves ------------------------------------------------------------------------------------------
    def terminal(self, state: State, depth: int) -> float:
        r = float(state.returns()[self.player])
        return r * (TERMINAL_SCALE + depth)

    def leaf(self, state: State) -> float:
        if self.batched:
            return _clip(np.asarray(self.evaluate([state], self.player), dtype=np.float64)[0])
        return _clip(self.evaluate(state, self.player))

    # --- moves -------------------------------------------------------------------------------------------
    def opponent_actions(self, state: State) -> list[int]:
        """One joint action at a simultaneous node with ``player``'s own entry left to fill."""
        game = state.game
        joint = []
        noop = getattr(game, "noop_action", None)
        for q in range(game.num_players):
            legal = state.legal_actions(q)
            if not legal or q == self.player:
                joint.append(legal[0] if legal else 0)
            elif self.sample:
                joint.append(int(legal[int(self.rng.integers(len(legal)))]))
            elif noop is not None and noop in legal:
                joint.append(int(noop))
            else:
                joint.append(int(legal[-1]))
        return joint

    def branches(self, state: State) -> tuple[bool, list[int], Callable[[int], State]]:
        """(maximising, branch labels, child maker) at a decision node."""
        if state.is_simultaneous_node():
            joint = self.opponent_actions(state)
            own = state.legal_actions(self.player)
            if not own:
                def child_of(_):
                    child = state.clone()
                    child.apply_actions(joint)
                    return child
                return True, [joint[self.player]], child_of

            def child(a):
                c = state.clone()
                j = list(joint)
                j[self.player] = int(a)
                c.apply_actions(j)
                return c
            return True, own, child
        mover = state.current_player()

        def step(a):
            c = state.clone()
            _apply(c, a)
            return c
        return mover == self.player, state.legal_actions(), step

    # --- the search ----------------------------------------------------------------------------------------
    def value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self.spend()
        if state.is_terminal():
            return self.terminal(state, depth)
        chance = state.is_chance_node()
        if depth <= 0 and not chance:
            return self.leaf(state)
        if chance:
            total = 0.0
            outcomes = state.chance_outcomes()
            mass = sum(p for _, p in outcomes)
            for action, p in outcomes:
                child = state.clone()
                _apply(child, action)
                total += p * self.value(child, depth, -math.inf, math.inf)
            return total / mass
        maximise, actions, make = self.branches(state)
        if depth == 1 and self.batched:
            return self.frontier(maximise, [make(a) for a in actions])
        key = None
        if self.table is not None:
            key = self.key(state)
            entry = self.table.get(key) if key is not None else None
            if entry is not None:
                stored_depth, stored, flag, best_action = entry
                if stored_depth >= depth and (flag == EXACT or (flag == LOWER and stored >= beta)
                                              or (flag == UPPER and stored <= alpha)):
                    self.hits += stored_depth < FINAL
                    return stored
                actions = self.ordered(actions, best_action, state)
            else:
                actions = self.ordered(actions, None, state)
        alpha0, beta0 = alpha, beta
        mark = self.horizon_mark() if key is not None else None
        best = -math.inf if maximise else math.inf
        best_action = actions[0] if actions else None
        for a in actions:
            v = self.value(make(a), depth - 1, alpha, beta)
            if maximise:
                if v > best:
                    best, best_action = v, a
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best, best_action = v, a
                if best < beta:
                    beta = best
            if alpha >= beta:
                if self.history is not None:
                    self.history[a] = self.history.get(a, 0) + depth * depth
                break
        if key is not None:
            if len(self.table) >= TABLE_LIMIT:
                self.table.clear()
            flag = UPPER if best <= alpha0 else (LOWER if best >= beta0 else EXACT)
            whole = mark is not None and self.horizon_mark() == mark
            self.table[key] = (FINAL if whole else depth, best, flag, best_action)
        return best

    def horizon_mark(self):
        """What the search has valued on its horizon or taken from the table so far, where it counts that (a game's
        own players' search): a node whose mark is the same after its search reached neither (``FINAL``); None
        here."""
        return None

    def key(self, state: State):
        """The transposition table's key of ``state`` (None: not stored)."""
        return transposition_key(state)

    def ordered(self, actions: list[int], first, state: State) -> list[int]:
        """``first`` (a transposition table's best action), then the rest by their history score."""
        history = self.history
        if history:
            actions = sorted(actions, key=lambda a: -history.get(a, 0))
        if first is not None and first in actions and actions[0] != first:
            actions = [first] + [a for a in actions if a != first]
        return actions

    def leaf_values(self, children: list[State]) -> np.ndarray:
        """The values of leaf ``children``: terminal ones exactly, the others in one ``evaluate`` call (clipped)."""
        self.spend(len(children))
        values = np.empty(len(children), dtype=np.float64)
        pending = []
        for i, c in enumerate(children):
            if c.is_terminal():
                values[i] = self.terminal(c, 0)
            elif c.is_chance_node():
                values[i] = self.chance_leaf(c)
            else:
                pending.append(i)
        if len(pending) == len(children):
            values[:] = self.clipped(self.evaluate(children, self.player))
        elif pending:
            values[pending] = self.clipped(self.evaluate([children[i] for i in pending], self.player))
        return values

    def chance_leaf(self, state: State) -> float:
        """A chance node on the horizon (its visit already counted): the expectation over its outcomes, each a leaf."""
        outcomes = state.chance_outcomes()
        mass = sum(p for _, p in outcomes)
        total = 0.0
        for action, p in outcomes:
            self.spend()
            child = state.clone()
            _apply(child, action)
            if child.is_terminal():
                v = self.terminal(child, 0)
            elif child.is_chance_node():
                v = self.chance_leaf(child)
            else:
                v = self.leaf(child)
            total += p * v
        return total / mass

    def clipped(self, scored) -> np.ndarray:
        """Leaf values held within +-EVAL_LIMIT, NaN as 0 (an evaluation marked ``clipped`` does it itself)."""
        scored = np.asarray(scored, dtype=np.float64)
        if getattr(self.evaluate, "clipped", False):
            return scored
        return np.clip(np.nan_to_num(scored, nan=0.0, posinf=EVAL_LIMIT, neginf=-EVAL_LIMIT), -EVAL_LIMIT, EVAL_LIMIT)

    def frontier(self, maximise: bool, children: list[State]) -> float:
        """All the leaf children of a depth-1 node, the non-terminal ones scored in one ``evaluate`` call."""
        values = self.leaf_values(children)
        return float(values.max() if maximise else values.min())

    def root(self, state: State) -> tuple[list[int], np.ndarray]:
        if state.is_simultaneous_node():
            actions = state.legal_actions(self.player)
        else:
            actions = state.legal_actions()
        if not actions:
            return [], np.empty(0, dtype=np.float64)
        _, _, make = self.branches(state)
        children = [make(a) for a in actions]
        if not self.budget:
            return list(actions), self.iteration(children, self.depth)
        # Iterative deepening: each iteration tries the actions best first by the last one; an iteration the
        # budget stops is dropped (the first always finishes).
        order = list(range(len(actions)))
        values = np.empty(len(actions), dtype=np.float64)
        for depth in range(1, self.depth + 1):
            try:
                found = self.iteration([children[i] for i in order], depth)
            except _OutOfBudget:
                break
            values[order] = found
            self.completed = depth
            order = sorted(order, key=lambda i: -values[i])
            if all(abs(v) >= TERMINAL_SCALE for v in values):  # every action's result is known
                break
        return list(actions), values

    def root_sampled(self, states: list[State]) -> tuple[list[int], np.ndarray]:
        """The root over several determinisations of a hidden state: each action's value is its mean over
        ``states`` (each searched with a full window: a bound would not average), deepened as ``root`` deepens."""
        actions = states[0].legal_actions(self.player) if states[0].is_simultaneous_node() else \
            states[0].legal_actions()
        if not actions:
            return [], np.empty(0, dtype=np.float64)
        children = []
        for state in states:
            _, _, make = self.branches(state)
            children.append([make(a) for a in actions])

        def mean_values(depth: int) -> np.ndarray:
            total = np.zeros(len(actions), dtype=np.float64)
            for kids in children:
                if depth == 1 and self.batched:
                    total += self.leaf_values(kids)
                else:
                    total += [self.value(c, depth - 1, -math.inf, math.inf) for c in kids]
            return total / len(children)

        if not self.budget:
            return list(actions), mean_values(self.depth)
        values = np.empty(len(actions), dtype=np.float64)
        for depth in range(1, self.depth + 1):  # an iteration the budget stops is dropped (the first always finishes)
            try:
                values = mean_values(depth)
            except _OutOfBudget:
                break
            self.completed = depth
            if all(abs(v) >= TERMINAL_SCALE for v in values):  # every action's result is known in every sample
                break
        return list(actions), values

    def iteration(self, children: list[State], depth: int) -> np.ndarray:
        """The values of the root's ``children`` searched ``depth`` plies from the root."""
        if depth == 1 and self.batched:
            return self.leaf_values(children)
        values = np.empty(len(children), dtype=np.float64)
        best = -math.inf
        for i, c in enumerate(children):
            # Open the window just below the best so far: a tie comes back exact, a worse move as a bound below it
            # (``exact`` False, a game's own players' search: from the best itself; the first value stands until a
            # strictly better one, NaN included).
            alpha = best if best > -math.inf else -math.inf
            if self.exact and best > -math.inf:
                alpha = float(np.nextafter(best, -math.inf))
            v = self.value(c, depth - 1, alpha, math.inf)
            values[i] = v
            if i == 0 or v > best:
                best = v
        return values


def search(state: State, player: int, depth: int, evaluate: Callable, rng: np.random.Generator | None = None,
           stats: dict | None = None, noop_opponents: bool = False, budget: Budget | None = None,
           table: dict | None = None, history: dict | None = None,
           samples: int | None = None) -> tuple[list[int], np.ndarray]:
    """The legal actions of ``player`` at ``state`` and their values from ``player``'s side after ``depth`` plies
    (see the module's docstring). ``state`` must be ``player``'s turn or a simultaneous node where it moves; it is
    not changed. ``stats``, when given, receives the number of nodes visited under ``"nodes"`` and the deepest
    finished iteration under ``"depth"``; ``noop_opponents`` plays the others' no-op at simultaneous nodes even when
    ``rng`` is given (for resampling). With a ``budget`` the search deepens iteratively up to ``depth`` plies;
    ``table`` (a dict, kept by the caller between moves) and ``history`` are then its transposition table and
    history scores. ``samples``: the determinisations of a game with hidden information (default ``SAMPLES``)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise SpecError(f"search depth {depth} is out of range; use 1..{MAX_DEPTH}")
    if state.is_terminal():
        raise SpecError("search: the game is over; there is no move to search")
    if state.is_chance_node():
        raise SpecError("search: the state is a chance node; sample its outcome before asking a player to move")
    if not state.is_simultaneous_node() and state.current_player() != player:
        raise SpecError(f"search: it is player {state.current_player()}'s turn, not player {player}'s")
    samples = SAMPLES if samples is None else samples
    if samples < 1:
        raise SpecError(f"search: samples={samples}; a game with hidden information needs at least 1 determinisation")
    states = [state]
    if not state.game.perfect_information:
        rng = rng if rng is not None else np.random.default_rng(0)
        states = [state.resample(player, rng) for _ in range(samples)]
        state = states[0]
    if budget and (state.is_simultaneous_node() or not state.game.perfect_information):
        table = None  # sampled joint actions and resampled hidden states make stored values stale
    if not budget:
        table = history = None
    elif history is None:
        history = {}
    s = _Search(player, depth, evaluate, rng, noop_opponents, budget, table, history)
    actions, values = s.root(state) if len(states) == 1 else s.root_sampled(states)
    if stats is not None:
        stats["nodes"] = stats.get("nodes", 0) + s.nodes
        stats["depth"] = s.completed if budget else depth
    return actions, values
