"""``uct(...)``: the player of closed-loop Monte Carlo tree search (evoplay.search.uct, OpenSpiel's MCTSBot, with its
kernels evoplay.search.uct_kernel): its parameters and budget, the games it plays, and the evaluations an evolved
player lends it.

:class:`UctAgent` searches ``simulations`` a move or within ``ms`` of its clock and its ``deadline``, through the
State (``tree_search``) or, where the game hands over kernels and the kernels can compute its evaluator
(:func:`kernel_guide`), inside Numba (``KernelUct``, the evolved players' leaf evoplay.search.leaf_kernel handed
over as its hook); both play the same moves. :class:`EvolvedEvaluation` reads a gp or ga player's evaluation for a
leaf value and a prior (evoplay.agents.evolved_uct builds them from a run's best.json for ``uct(value=FILE)``);
:func:`guided_player` is the player a best.json shipped as uct plays.
"""
from __future__ import annotations

import math
import random
import time

import numpy as np

from evoplay.agents.base import Agent
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import Game, State
from evoplay.games.kernels import kernels_of
from evoplay.search import leaf_kernel
from evoplay.search.uct import (MAX_NODES, SCORE_LIMIT, SELECTIONS, UCT_C, WIN_SCORE, CutRolloutEvaluator, Evaluator,
                                PriorEvaluator, RandomRolloutEvaluator, SearchNode, sample_outcome, tree_search)
from evoplay.search.uct_kernel import Guide, KernelUct

#: random positions whose scores set the scale an evolved evaluation is read on (tanh(score / their spread))
SCALE_POSITIONS = 64


class EvolvedEvaluation:
    """An evolved evaluation (a ``gp`` or ``ga`` run's best.json) as what MCTS asks of a position: each player's
    value in [-1, 1], ``tanh(score / spread)``, the spread the scores' standard deviation over seeded random
    positions (an evolved score has no scale of its own: search only ranks it); and the mover's scores of its
    moves' after-states, on the same scale, for a prior. ``agent`` is the FeatureAgent of the document (its view:
    the game's features, the free features, the board counts, the scales); ``leaf`` its evaluation as the
    kernels read it (leaf_kernel's ``Leaf``), None where the agent has no kernel path. ``spread``: the scale
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

    def describe(self) -> str:
        """The evaluation in a phrase (an evaluator's ``describe`` names it by this)."""
        return self.agent.evaluation_phrase()

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

    def temperature_for(self, game: Game, entropy: float, positions: int = SCALE_POSITIONS, seed: int = 0) -> float:
        """The prior's temperature at which its softmax over the moves' scores (a finished after-state scored
        by its result x WIN_SCORE, as the prior reads it) has, on average over seeded random positions where a player has
        a choice, ``entropy`` (0..1: the entropy over that of a uniform choice). An evaluation's scores differ
        between the moves of one position by a share of their spread over positions that varies from one evolved
        evaluation to the next (0.2 to 0.45 on Kalah's three seeds), so one temperature in units of the spread
        gives one champion a near-uniform prior and another a sharp one; a temperature fitted to the prior's
        entropy gives every champion the same say over the search."""
        from evoplay.agents.feature_view import decisions

        if not 0.0 < entropy < 1.0:
            raise SpecError(f"a prior's entropy must lie strictly between 0 (greedy) and 1 (uniform), not {entropy!r}")
        rows = []
        for d in decisions(game, positions, seed):
            state = d.state
            if state.is_chance_node() or state.current_player() < 0:
                continue
            actions = list(state.legal_actions())
            if len(actions) < 2:
                continue
            scores = np.clip(np.nan_to_num(self.move_scores(state, actions)), -SCORE_LIMIT, SCORE_LIMIT)
            rows.append(scores - scores.max())
        if not rows:
            return 1.0

        def mean_entropy(temperature: float) -> float:
            total = 0.0
            for row in rows:
                p = np.exp(row / temperature)
                p /= p.sum()
                total += float(-(p * np.log(np.maximum(p, 1e-300))).sum() / math.log(len(p)))
            return total / len(rows)

        low, high = 1e-3, 1e3  # log-bisection: the entropy grows with the temperature
        if mean_entropy(low) >= entropy:
            return 1.0  # the scores hardly differ between moves: no temperature sharpens the prior
        if mean_entropy(high) <= entropy:
            return high
        for _ in range(50):
            middle = math.sqrt(low * high)
            low, high = (middle, high) if mean_entropy(middle) < entropy else (low, middle)
        return round(math.sqrt(low * high), 4)


#: what a shipped uct scores its leaves with (``play.leaf``): random rollouts to the end, or the evaluation
LEAVES = ("rollouts", "value")


def guided_player(game: Game, evaluation_agent, play: dict, where: str, spec: str, ms: float = -1, nodes: int = -1,
                  clock: str = "") -> "UctAgent":
    """The player a gp or ga best.json ships as when its ``play`` says ``search = "uct"`` (the run's play check
    found it stronger than alpha-beta over the same evaluation): ``uct`` within ``play.ms`` a move, guided by the
    evaluation of ``evaluation_agent`` (the document's FeatureAgent) as :func:`uct_settings` reads ``play`` and
    :func:`guided_evaluator` builds it. ``ms`` overrides the budget; ``nodes`` > 0 plays that many simulations a
    move instead (reproducible); ``clock`` what ms measures. (evoplay.agents.feature_player.shipped_agent calls it.)"""
    settings = uct_settings(play, where, ms, nodes, clock)
    evaluation = (EvolvedEvaluation(game, evaluation_agent, settings["spread"])
                  if settings["prior"] or settings["leaf"] == "value" else None)
    return UctAgent(game, simulations=settings["simulations"], ms=settings["ms"], clock=settings["clock"],
                    evaluator=guided_evaluator(settings, evaluation), selection=settings["selection"], spec=spec)


def uct_settings(play: dict, where: str, ms: float = -1, nodes: int = -1, clock: str = "") -> dict:
    """A shipped uct's settings from its ``play``, checked: each move's prior the softmax of the evaluation's
    scores of its after-state over ``temperature`` (1 where absent; PUCT, Soemers, Piette and Browne's biased
    MCTS) unless ``prior`` is false; its leaves scored by ``leaf``: random rollouts to the end (the default), or
    ``value``, the evaluation after ``cut`` random plies; the scores read on the scale ``spread`` (measured when
    the run shipped it; None: measured on load, as ``uct(value=...)`` does); its budget ``ms`` of ``clock`` a move, or with ``nodes`` > 0
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
    temperature = play.get("temperature", 1.0)
    if not (isinstance(temperature, (int, float)) and not isinstance(temperature, bool)
            and math.isfinite(temperature) and temperature > 0):
        raise SpecError(f"{where}: play.temperature = {temperature!r}; give the prior's softmax temperature, a "
                        f"positive number (1: the scores as they are; higher: a flatter prior)")
    spread = play.get("spread")
    if spread is not None and not (isinstance(spread, (int, float)) and math.isfinite(spread) and spread > 0):
        raise SpecError(f"{where}: play.spread = {spread!r}; it must be a positive number (the evaluation's scale)")
    return {"simulations": simulations or 1000, "ms": ms, "clock": clock, "leaf": leaf, "prior": prior, "cut": cut,
            "spread": spread, "selection": "puct" if prior else "uct", "prior_visits": prior_visits,
            "temperature": float(temperature)}


def guided_evaluator(settings: dict, evaluation: "EvolvedEvaluation | None") -> Evaluator:
    """What a shipped uct asks of a position (:func:`uct_settings`): random rollouts or the ``evaluation`` at its
    leaves, and with ``prior`` the evaluation's scores of the moves as their prior."""
    inner = (RandomRolloutEvaluator() if settings["leaf"] == "rollouts"
             else CutRolloutEvaluator(evaluation.value, settings["cut"]))
    return (PriorEvaluator(evaluation.move_scores, settings["temperature"], inner,
                           prior_visits=settings["prior_visits"])
            if settings["prior"] else inner)


def _evaluation_of(method) -> EvolvedEvaluation | None:
    """The EvolvedEvaluation a bound ``value`` or ``move_scores`` belongs to, if it is one."""
    owner = getattr(method, "__self__", None)
    return owner if isinstance(owner, EvolvedEvaluation) else None


def kernel_guide(evaluator: Evaluator) -> Guide | None:
    """What the kernel search must compute for ``evaluator`` (evoplay.search.uct_kernel's ``Guide``), or None when
    the kernels cannot compute it: random rollouts, an EvolvedEvaluation's cut rollouts and its prior, where its
    player has a kernel path (kernel_players: a gp program or weights whose view the kernels read). Any other
    evaluator runs through the State."""
    kind = type(evaluator)
    if kind is RandomRolloutEvaluator:
        return Guide(leaf_kernel.make_leaf(leaf_kernel.SCORE), rollouts=int(evaluator.rollouts))
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
        # A game that hands over kernels is searched inside Numba (search/uct_kernel.py's KernelUct: the same tree and
        # moves) when the kernels can compute the evaluator (kernel_guide), else through the State.
        self._guide = kernel_guide(self.evaluator)
        guide = self._guide
        kernel = guide is not None and KernelUct.supports(game) and (
            guide.leaf.kind not in (leaf_kernel.LINEAR, leaf_kernel.PROGRAM) or kernels_of(game).features is not None)
        self._kernel = KernelUct(game, leaf_kernel) if kernel else None
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
    def evaluation(self) -> EvolvedEvaluation | None:
        """The evolved evaluation its prior or its leaves read, None when it reads none."""
        evaluator = self.evaluator
        for method in (getattr(evaluator, "score", None), getattr(evaluator, "value", None),
                       getattr(getattr(evaluator, "inner", None), "value", None)):
            evaluation = _evaluation_of(method)
            if evaluation is not None:
                return evaluation
        return None

    @property
    def evaluation_scale(self) -> float | None:
        """The scale (``EvolvedEvaluation.spread``) its evolved evaluation is read on, None when it reads none: what
        a document shipped as uct records as ``play.spread``, so every later load reads the same scale."""
        evaluation = self.evaluation
        return None if evaluation is None else float(evaluation.spread)

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
        root = kernel.search(state, guide, player._rng, player.evaluator.rollout_rng(), budget, player.uct_c,
                             player.solve, stop_at, player.selection, player.max_utility, MAX_NODES, cpu_stop_at)
    else:
        root = tree_search(state, player.evaluator, player._rng, budget, player.uct_c, player.solve, stop_at,
                      player.selection, player.max_utility, cpu_stop_at=cpu_stop_at)
    if root.children:
        return int(root.best_child().action), root
    return int(sample_outcome(player.evaluator.prior(state), player._rng.random())), root
