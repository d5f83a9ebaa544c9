"""Closed-loop Monte Carlo tree search (UCT) through the game API, with the semantics of OpenSpiel's MCTSBot.

``uct`` plays any sequential perfect-information game of any number of players, with or without chance nodes,
knowing only ``current_player``, ``legal_actions``, ``clone``, ``apply_action``, ``chance_outcomes`` and
``returns``. It is OpenSpiel's ``MCTSBot`` (open_spiel/python/algorithms/mcts.py and its C++ twin) over
evoplay's State:

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
player cannot see). The tree's own logic (evoplay.agents.uct_tree: ``expand``, ``select_uct``, ``select_puct``,
``select_chance``, ``backup``, ``SearchNode.best_child``) calls no game method; :func:`tree_search` is the only place
that drives a State, so the same search can be compiled over a game kernel.

Evaluators (``evaluate(state)`` -> each player's value, ``prior(state)`` -> (action, probability) pairs) let an
evolved evaluation help: :class:`CutRolloutEvaluator` stops a random rollout after ``depth`` plies and scores it
with a value callable; :class:`PriorEvaluator` turns a callable that scores the legal moves into a softmax prior
for ``selection="puct"``; :class:`EvolvedEvaluation` reads an evolved player's evaluation for both
(evoplay.agents.evolved_uct builds them from a run's best.json for ``uct(value=FILE)``).
"""
from __future__ import annotations

import math
import random
import time
from typing import Callable, Sequence

import numpy as np

from evoplay.agents.base import Agent
from evoplay.agents.kernel_uct import SCORE_LIMIT, WIN_SCORE, Guide, KernelUct, random_rollouts
from evoplay.agents.uct_tree import (SearchNode, backup, expand, sample_outcome, select_chance, select_puct,
                                     select_uct, tree_root)
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, Game, State, search_moves

#: the tree stops growing at this many nodes (about 150 bytes each): a time budget on a fast game cannot exhaust
#: memory (OpenSpiel's bots stop at a memory limit in the same way)
MAX_NODES = 3_000_000
SELECTIONS = ("uct", "puct")
#: the exploration constant (OpenSpiel's MCTSBot's default)
UCT_C = 2.0


# --- the game API ---------------------------------------------------------------------------------------------


def _no_moves(state: State) -> SpecError:
    return SpecError(f"{state.game.spec}: player {state.current_player()} has no legal action in a position that "
                     f"is not over; its State must list at least one action (a pass) or end the game")


def _simultaneous(state: State) -> SpecError:
    return SpecError(f"uct reached a simultaneous move in {state.game.spec}; it searches games where one player "
                     f"moves at a time")


def play_randomly(state: State, random_float: Callable[[], float], plies: int = -1) -> None:
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
            play_randomly(work, random_float)
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
            play_randomly(work, self.rng.random, self.depth)
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
        return (f"{self.inner.describe()}, each move's prior a softmax over its after-state's score by "
                f"{_what(self.score)}{when}")

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
            child = select_chance(node, random_float()) if player == CHANCE else select(node, uct_c)
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
        backup(path, values, solved, max_utility)
        done += 1
        if root.outcome is not None or len(root.children) == 1 or nodes >= max_nodes:
            break
    return root


# --- the agent ------------------------------------------------------------------------------------------------
#: random positions whose scores set the scale an evolved evaluation is read on (tanh(score / their spread))
SCALE_POSITIONS = 64


class EvolvedEvaluation:
    """An evolved evaluation (a ``gp`` or ``ga`` run's best.json) as what MCTS asks of a position: each player's
    value in [-1, 1], ``tanh(score / spread)``, the spread the scores' standard deviation over seeded random
    positions (an evolved score has no scale of its own: search only ranks it); and the mover's scores of its
    moves' after-states, on the same scale, for a prior. ``agent`` is the FeatureAgent of the document (its view:
    the game's features, the free features, the board counts, the scales); ``leaf`` its evaluation as the
    kernels read it (kernel_leaf's ``Leaf``), None where the agent has no kernel path. ``spread``: the scale
    already measured (a shipped player records it), else it is measured here."""

    def __init__(self, game: Game, agent, spread: float | None = None):
        self.agent, self.num_players = agent, game.num_players
        kernel = getattr(agent, "kernel", None)
        self.leaf = kernel.leaf if kernel is not None else None
        if spread is not None:
            if not (math.isfinite(spread) and spread > 0):
                raise SpecError(f"an evolved evaluation's spread must be a positive number, not {spread!r}")
            self.spread = float(spread)
            return
        from evoplay.agents.feature_view import decisions

        samples = decisions(game, SCALE_POSITIONS, 0)
        scores = np.concatenate([self.scores([d.state], d.mover) for d in samples]) if samples else np.zeros(1)
        spread = float(np.std(scores))
        self.spread = spread if np.isfinite(spread) and spread > 0 else 1.0

    def scores(self, states: list[State], player: int) -> np.ndarray:
        return np.asarray(self.agent.score_rows(self.agent.rows(states, player)), dtype=np.float64)

    def value(self, state: State) -> np.ndarray:
        # math.tanh (the C library's, as the kernels call it): NumPy's vectorised tanh differs in the last bit.
        return np.array([math.tanh(self.scores([state], p)[0] / self.spread) for p in range(self.num_players)])

    def move_scores(self, state: State, actions: list[int]) -> np.ndarray:
        mover = state.current_player()
        children = self.agent.after_states(state, mover, actions)
        values = np.empty(len(actions))
        for i, child in enumerate(children):
            values[i] = (float(np.asarray(child.returns(), dtype=np.float64)[mover]) * WIN_SCORE
                         if child.is_terminal() else self.scores([child], mover)[0] / self.spread)
        return values


def _what(method) -> str:
    """A callable an evaluator reads, named for a report: an evolved evaluation by what it is."""
    evaluation = _evaluation_of(method)
    return "a given function" if evaluation is None else evaluation.agent.evaluation_phrase()


#: what a shipped uct scores its leaves with (``play.leaf``): random rollouts to the end, or the evaluation
LEAVES = ("rollouts", "value")


def guided_player(game: Game, evaluation_agent, play: dict, where: str, spec: str, ms: float = -1, nodes: int = -1,
                  clock: str = "") -> "UctAgent":
    """The player a gp or ga best.json ships as when its ``play`` says ``search = "uct"`` (the run's play check
    found it stronger than alpha-beta over the same evaluation): ``uct`` within ``play.ms`` a move, guided by the
    evaluation of ``evaluation_agent`` (the document's FeatureAgent) as :func:`uct_settings` reads ``play`` and
    :func:`guided_evaluator` builds it. ``ms`` overrides the budget; ``nodes`` > 0 plays that many simulations a
    move instead (reproducible); ``clock`` what ms measures. (evoplay.agents.program.shipped_agent calls it.)"""
    settings = uct_settings(play, where, ms, nodes, clock)
    evaluation = (EvolvedEvaluation(game, evaluation_agent, settings["spread"])
                  if settings["prior"] or settings["leaf"] == "value" else None)
    return UctAgent(game, simulations=settings["simulations"], ms=settings["ms"], clock=settings["clock"],
                    evaluator=guided_evaluator(settings, evaluation), selection=settings["selection"], spec=spec)


def uct_settings(play: dict, where: str, ms: float = -1, nodes: int = -1, clock: str = "") -> dict:
    """A shipped uct's settings from its ``play``, checked: each move's prior the softmax of the evaluation's
    scores of its after-state (PUCT; Soemers, Piette and Browne's biased MCTS) unless ``prior`` is false; its
    leaves scored by ``leaf``: random rollouts to the end (the default), or ``value``, the evaluation after
    ``cut`` random plies; the scores read on the scale ``spread`` (measured when the run shipped it; None:
    measured on load, as ``uct(value=...)`` does); its budget ``ms`` of ``clock`` a move, or with ``nodes`` > 0
    that many simulations (``ms``, ``nodes`` and ``clock`` override the recorded ones)."""
    if ms < -1 or nodes < -1:
        raise SpecError(f"{where}: ms={ms}, nodes={nodes}: give a budget >= 0")
    ms = float(play.get("ms", 0)) if ms == -1 else float(ms)
    simulations = max(int(nodes), 0)
    if simulations:
        ms = 0.0  # a simulation budget is the reproducible one: it wins over the recorded time
    if not (ms > 0 or simulations):
        raise SpecError(f"{where} plays as uct, which needs a budget a move: give ms= (time) or nodes= (simulations)")
    clock = clock or str(play.get("clock", "wall"))
    if clock not in ("wall", "cpu"):
        raise SpecError(f"{where}: clock={clock!r}; use wall (elapsed time) or cpu (this thread's CPU time)")
    leaf, prior, cut = play.get("leaf", "rollouts"), bool(play.get("prior", True)), int(play.get("cut", 0))
    prior_visits = play.get("prior_visits", 1)
    if not (isinstance(prior_visits, int) and not isinstance(prior_visits, bool) and prior_visits >= 1):
        raise SpecError(f"{where}: play.prior_visits = {prior_visits!r}; give the visits a position has before its "
                        f"moves' prior is computed, an integer >= 1 (1: when it is expanded)")
    if leaf not in LEAVES:
        raise SpecError(f"{where}: play.leaf = {leaf!r}; give one of {', '.join(LEAVES)}")
    if cut < 0:
        raise SpecError(f"{where}: play.cut = {cut}; give the random plies before the evaluation scores a leaf, >= 0")
    spread = play.get("spread")
    if spread is not None and not (isinstance(spread, (int, float)) and math.isfinite(spread) and spread > 0):
        raise SpecError(f"{where}: play.spread = {spread!r}; it must be a positive number (the evaluation's scale)")
    return {"simulations": simulations or 1000, "ms": ms, "clock": clock, "leaf": leaf, "prior": prior, "cut": cut,
            "spread": spread, "selection": "puct" if prior else "uct", "prior_visits": prior_visits}


def guided_evaluator(settings: dict, evaluation: "EvolvedEvaluation | None") -> Evaluator:
    """What a shipped uct asks of a position (:func:`uct_settings`): random rollouts or the ``evaluation`` at its
    leaves, and with ``prior`` the evaluation's scores of the moves as their prior."""
    inner = (RandomRolloutEvaluator() if settings["leaf"] == "rollouts"
             else CutRolloutEvaluator(evaluation.value, settings["cut"]))
    return (PriorEvaluator(evaluation.move_scores, 1.0, inner, prior_visits=settings["prior_visits"])
            if settings["prior"] else inner)


def _evaluation_of(method) -> EvolvedEvaluation | None:
    """The EvolvedEvaluation a bound ``value`` or ``move_scores`` belongs to, if it is one."""
    owner = getattr(method, "__self__", None)
    return owner if isinstance(owner, EvolvedEvaluation) else None


def kernel_guide(evaluator: Evaluator) -> Guide | None:
    """What the kernel search must compute for ``evaluator`` (kernel_uct's ``Guide``), or None when the kernels
    cannot compute it: random rollouts, an EvolvedEvaluation's cut rollouts and its prior, where its player has a
    kernel path (kernel_players: a gp program or weights whose view the kernels read). Any other evaluator runs
    through the State."""
    kind = type(evaluator)
    if kind is RandomRolloutEvaluator:
        return random_rollouts(evaluator.rollouts)
    if kind is CutRolloutEvaluator:
        evaluation = _evaluation_of(evaluator.value)
        if evaluation is None or evaluation.leaf is None or evaluator.value.__func__ is not EvolvedEvaluation.value:
            return None
        return Guide(evaluation.leaf, float(evaluation.spread), True, int(evaluator.depth), int(evaluator.rollouts))
    if kind is PriorEvaluator:
        evaluation = _evaluation_of(evaluator.score)
        inner = kernel_guide(evaluator.inner)
        if (evaluation is None or evaluation.leaf is None or inner is None
                or evaluator.score.__func__ is not EvolvedEvaluation.move_scores):
            return None
        if inner.value and (inner.leaf is not evaluation.leaf or inner.spread != evaluation.spread):
            return None  # the prior and the leaf value read two evaluations: one leaf a guide
        return inner._replace(leaf=evaluation.leaf, spread=float(evaluation.spread), prior=True,
                              temperature=float(evaluator.temperature), prior_visits=int(evaluator.prior_visits))
    return None


def supports(game: Game) -> str | None:
    """Can ``uct`` play ``game``? None when it can, else the reason."""
    if not game.perfect_information:
        return ("it hides information, and a tree over the true state would read what its player cannot see "
                "(uct searches perfect-information games)")
    if getattr(game, "simultaneous", False) or game.new_initial_state(0).is_simultaneous_node():
        return "its players move at the same time, and uct searches games where one player moves at a time"
    return None


class UctAgent(Agent):
    """Monte Carlo tree search with OpenSpiel's MCTSBot semantics (see the module's docstring).

    ``simulations`` per move, or with ``ms`` > 0 a wall-clock budget per move instead; the attribute ``deadline``
    (a ``time.perf_counter()`` value, or None) stops any search that is still running when it passes, and the
    best move so far is played. ``evaluator`` defaults to ``rollouts`` random rollouts per leaf. With a simulation
    budget every move is reproducible from the seed the arena gives ``restart``."""

    state_api_only = True

    def __init__(self, game: Game, simulations: int = 1000, ms: float = 0.0, uct_c: float = UCT_C, rollouts: int = 1,
                 solve: bool = True, seed: int = 0, evaluator: Evaluator | None = None, selection: str = "uct",
                 spec: str | None = None, clock: str = "wall"):
        super().__init__(game)
        why = supports(game)
        if why:
            raise SpecError(f"uct cannot play {game.spec}: {why}")
        if not 1 <= simulations <= 10_000_000:
            raise SpecError(f"uct: simulations={simulations} is out of range; give 1..10000000")
        if not 0 <= ms <= 3_600_000:
            raise SpecError(f"uct: ms={ms} is out of range; give 0 (use simulations) up to 3600000 (an hour)")
        if not 0 <= uct_c <= 100:
            raise SpecError(f"uct: uct_c={uct_c} is out of range; give 0..100 (OpenSpiel's default: 2)")
        if clock not in ("wall", "cpu"):
            raise SpecError(f"uct: clock={clock!r}; use wall (elapsed time) or cpu (this thread's CPU time)")
        self.clock = clock
        if selection not in SELECTIONS:
            raise SpecError(f"uct: selection={selection!r} is unknown; give one of {', '.join(SELECTIONS)}")
        self.simulations, self.ms, self.uct_c = int(simulations), float(ms), float(uct_c)
        self.solve, self.selection = bool(solve), selection
        self.evaluator = evaluator if evaluator is not None else RandomRolloutEvaluator(rollouts)
        best = game.max_utility()
        self.max_utility = None if best is None else float(best)
        self.spec = spec or "uct"
        self.deadline: float | None = None
        self.last_root: SearchNode | None = None
        # A game that hands over kernels is searched inside Numba (agents/kernel_uct.py: the same tree and moves)
        # when the kernels can compute the evaluator (kernel_guide), else through the State.
        self._guide = kernel_guide(self.evaluator)
        kernel = self._guide is not None and KernelUct.supports(game, self._guide)
        self._kernel = KernelUct(game) if kernel else None
        self.restart(seed, self.seat)

    def restart(self, seed: int, seat: int = 0) -> None:
        super().restart(seed, seat)
        self._rng = restart_search(seed, self.evaluator)
        self.last_root = None

    def __getstate__(self):
        d = dict(self.__dict__)
        d["last_root"] = None  # the last tree is for inspection, not worth sending to a worker
        return d

    @property
    def on_kernels(self) -> bool:
        """Does it search inside Numba (the game's kernels compute its evaluator), not through the State?"""
        return self._kernel is not None

    @property
    def evaluation_scale(self) -> float | None:
        """The scale (``EvolvedEvaluation.spread``) its evolved evaluation is read on, None when it reads none: what
        a document shipped as uct records as ``play.spread``, so every later load reads the same scale."""
        evaluator = self.evaluator
        for method in (getattr(evaluator, "score", None), getattr(evaluator, "value", None),
                       getattr(getattr(evaluator, "inner", None), "value", None)):
            evaluation = _evaluation_of(method)
            if evaluation is not None:
                return float(evaluation.spread)
        return None

    def describe(self) -> str:
        """How it thinks, in one phrase (a report prints it beside the figures it measured)."""
        budget = (f"{self.ms:g} ms ({getattr(self, 'clock', 'wall')} clock)" if self.ms > 0
                  else f"{self.simulations} simulations")
        return (f"Monte Carlo tree search ({self.selection.upper()}) within {budget} a move, "
                f"{self.evaluator.describe()}")

    def step(self, state: State) -> int:
        if state.current_player() < 0:
            raise IllegalActionError(f"{self.spec}: asked to move where no player moves (current player "
                                     f"{state.current_player()})")
        action, self.last_root = uct_move(self, state, self._kernel, self._guide)
        return action


def restart_search(seed: int, evaluator: Evaluator) -> random.Random:
    """A game's start for a searching player seeded ``seed``: its evaluator reseeded and the search's generator
    (two seeds drawn from ``seed``, so both are reproducible and independent)."""
    search_seed, evaluator_seed = (int(x) for x in np.random.SeedSequence(seed).generate_state(2))
    evaluator.reseed(evaluator_seed)
    return random.Random(search_seed)


def uct_move(player, state: State, kernel=None, guide=None) -> tuple[int, SearchNode]:
    """``player``'s move at ``state`` and the tree that chose it: a search within its budget (``simulations``, or
    ``ms`` of its ``clock`` a move, and its ``deadline``), inside Numba when ``kernel`` (a KernelUct) and ``guide``
    are given, else through the State; the root's best child, or when the search stopped before the root was
    expanded, a move drawn from the evaluator's prior (the C++ bot's answer to one simulation). ``player`` is a
    UctAgent or an exported uct player (the same attributes)."""
    stop_at, cpu_stop_at = player.deadline, None
    if player.ms > 0 and player.clock == "cpu":
        cpu_stop_at = time.thread_time() + player.ms / 1000.0
    elif player.ms > 0:
        own = time.perf_counter() + player.ms / 1000.0
        stop_at = own if stop_at is None else min(stop_at, own)
    budget = math.inf if player.ms > 0 else player.simulations
    if kernel is not None:
        root = tree_root(*kernel.search(state, guide, player._rng, player.evaluator.rollout_rng(), budget,
                                        player.uct_c, player.solve, stop_at, player.selection, player.max_utility,
                                        MAX_NODES, cpu_stop_at))
    else:
        root = tree_search(state, player.evaluator, player._rng, budget, player.uct_c, player.solve, stop_at,
                      player.selection, player.max_utility, cpu_stop_at=cpu_stop_at)
    if root.children:
        return int(root.best_child().action), root
    return int(sample_outcome(player.evaluator.prior(state), player._rng.random())), root
