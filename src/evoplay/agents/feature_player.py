"""Players for any game that reads features: a GP program or a linear weight vector, as a move scorer or search.

Both read ``state.features(player)``, the numbers ``game.feature_names()`` names, from the player's own view.

- policy ``move``: the state after each legal action is seen by the player who moves (all after-states' features
  stacked into one array, one interpreter call per move); the highest value wins. A finished game after the move
  takes its true result instead (a win always first, a loss last). Ties go to a move drawn with the agent's
  generator, which the arena reseeds before every game, so a game replays exactly from its seed.
- policy ``search``: the leaf evaluation of ``evoplay.search.minimax`` ``depth`` plies deep (all leaves
  under one node in one call); ties as above.

At a simultaneous node the others play their no-op (``opponents = "noop"``, the grid games' NIL) or an action
drawn at random (``"sample"``) in the after-states and the search. A player of a game with hidden information
searches a state resampled from its own view.

The JSON documents (``best.json`` of the ``gp`` and ``ga`` recipes) record the game spec and the feature names;
``check_features`` turns any mismatch into a SpecError that names the first difference.
"""
from __future__ import annotations

import re

import numpy as np
from numba import njit

from evoplay.agents.base import Agent
from evoplay.agents.feature_view import FeatureView
from evoplay.agents.kernel_players import kernel_path
from evoplay.search.leaf_kernel import program_value
from evoplay.search.minimax import EVAL_LIMIT, MAX_DEPTH as SEARCH_DEPTH_LIMIT, SAMPLES, TERMINAL_SCALE, Budget, search
from evoplay.search.minimax import clip_value
from evoplay.errors import SpecError, warn  # noqa: F401 - warn: the players' warnings (program.warn)
from evoplay.games.base import search_moves
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import Program

POLICIES = ("move", "search")
OPPONENTS = ("noop", "sample")
MAX_DEPTH = 12


# --------------------------------------------------------------------------------------------------------------
# Features and their names.
# --------------------------------------------------------------------------------------------------------------


def feature_identifiers(names: list[str]) -> list[str]:
    """Identifiers for the feature names (GP terminals and genome fields must be identifiers): other characters
    become ``_``, a leading digit gets ``f_``, a repeated name a numeric suffix."""
    out, seen = [], set()
    for i, name in enumerate(names):
        ident = re.sub(r"\W", "_", str(name)) or f"f{i}"
        if not ident.isidentifier():
            ident = f"f_{ident}"
        base, k = ident, 1
        while ident in seen or ident in ("random",):
            ident = f"{base}_{k}"
            k += 1
        seen.add(ident)
        out.append(ident)
    return out


def game_primitive_set(game, functions=("add", "sub", "mul", "min", "max", "if_lt"), constants=(-1.0, 1.0),
                       integers: tuple[int, int] | None = None, names: list[str] | None = None) -> PrimitiveSet:
    """The primitive set of a game: one terminal per feature (``names``, default the game's own feature names),
    the ``functions``, an ephemeral constant drawn in ``constants`` (None: none) and optionally fixed integers
    ``integers`` = (low, high)."""
    names = list(names) if names is not None else game.feature_names()
    pset = PrimitiveSet(game.name if str(game.name).isidentifier() else "game", n_features=len(names))
    pset.add_functions(*functions)
    for i, ident in enumerate(feature_identifiers(names)):
        pset.add_feature(ident, i)
    if constants is not None:
        pset.add_ephemeral("c", float(constants[0]), float(constants[1]))
    if integers is not None:
        pset.add_integers(int(integers[0]), int(integers[1]))
    return pset.validate()


def check_features(where: str, recorded: list[str], game, names: list[str] | None = None) -> None:
    """SpecError unless ``game`` gives exactly the features a file was evolved on (same names, same order);
    ``names`` are the names the player reads (default: the game's own)."""
    names = list(names) if names is not None else list(game.feature_names())
    recorded = list(recorded)
    if names == recorded:
        return
    if len(names) != len(recorded):
        raise SpecError(f"{where} reads {len(recorded)} features but {game.spec} gives {len(names)}; play it on the "
                        f"game it was evolved for")
    i = next(k for k, (a, b) in enumerate(zip(recorded, names)) if a != b)
    raise SpecError(f"{where} reads feature {i} as {recorded[i]!r} but {game.spec} names it {names[i]!r}; play it "
                    f"on the game it was evolved for")


def check_game(where: str, recorded_spec: str, game) -> str:
    """'' when ``game`` is the one a file was evolved for; a warning when only its parameters differ (the features
    matched); SpecError when it is another game."""
    if recorded_spec == game.spec:
        return ""
    from evoplay.games import load_game

    try:
        made_for = load_game(recorded_spec)
    except SpecError:
        made_for = None
    if made_for is not None and _rules(made_for) == _rules(game):
        return ""  # the same game (or the same rules on another engine: an OpenSpiel game and evoplay's port of it)
    if _family(recorded_spec) != _family(game.spec):
        raise SpecError(f"{where} was evolved for {recorded_spec}, not {game.spec}; play it on that game")
    return f"{where} was evolved under {recorded_spec}; playing {game.spec}, whose rules differ"


def _family(spec: str) -> str:
    return spec.split("(", 1)[0].strip()


def _rules(game) -> str:
    """What names a game's rules: its spec, or an OpenSpiel game's spec without its engine (``rules_spec``)."""
    return getattr(game, "rules_spec", game.spec)


# --------------------------------------------------------------------------------------------------------------
# Scorers: a program or a weight vector over a matrix of feature rows.
# --------------------------------------------------------------------------------------------------------------


def clip_values(values: np.ndarray) -> np.ndarray:
    """Reference of the scorers' clipping: NaN scores 0 (neutral), the rest is held within +-EVAL_LIMIT."""
    return np.clip(np.nan_to_num(values, nan=0.0, posinf=EVAL_LIMIT, neginf=-EVAL_LIMIT), -EVAL_LIMIT, EVAL_LIMIT)


@njit(cache=True)
def program_rows(opcodes, args, consts, size, rows, out, base):
    """The program (over ``base`` weights, when not empty) on every row of ``rows`` (float64[:, ::1]) into ``out``:
    one call per move, so a move costs one dispatch however many legal actions it has."""
    stack = np.empty(size, np.float64)
    for r in range(rows.shape[0]):
        out[r] = program_value(opcodes, args, consts, size, rows[r], stack, base)


@njit(cache=True)
def linear_rows(weights, rows, out):
    """Every row's dot product with ``weights``, clipped as ``clip_values``."""
    for r in range(rows.shape[0]):
        v = 0.0
        for j in range(weights.shape[0]):
            v += weights[j] * rows[r, j]
        out[r] = clip_value(v)


class ProgramScorer:
    """A GP program's clipped value on every row of a feature matrix, in one interpreter call; with ``base`` weights
    (a linear evaluation fitted before evolution: the gp recipe's ``program.base``) the program's value is added
    to the base's."""

    kernel_leaf = "program"  # what the kernel path evaluates (evoplay.agents.kernel_players)

    def __init__(self, program: Program, base=None):
        self.program = program
        self.base = np.zeros(0) if base is None else np.ascontiguousarray(base, dtype=np.float64)

    @property
    def size(self) -> int:
        return self.program.size

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        p = self.program
        out = np.empty(rows.shape[0], np.float64)
        program_rows(p.opcodes, p.args, p.consts, p.size, rows, out, self.base)
        return out

    def reference(self, rows: np.ndarray) -> np.ndarray:
        from evoplay.gp.interpreter import reference_evaluate

        values = np.array([reference_evaluate(self.program, list(r)) for r in rows], dtype=np.float64)
        if len(self.base):
            values = np.nan_to_num(values, nan=0.0) + rows @ self.base
        return clip_values(values)


class LinearScorer:
    """A weight vector's dot product with every row."""

    kernel_leaf = "linear"  # what the kernel path evaluates (evoplay.agents.kernel_players)

    def __init__(self, weights):
        self.weights = np.ascontiguousarray(weights, dtype=np.float64)

    @property
    def size(self) -> int:
        return len(self.weights)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        out = np.empty(rows.shape[0], np.float64)
        linear_rows(self.weights, rows, out)
        return out

    def reference(self, rows: np.ndarray) -> np.ndarray:
        return clip_values(rows @ self.weights)


def choose_best(values: np.ndarray, rng: np.random.Generator) -> int:
    """The index of the highest value; ties drawn uniformly with ``rng`` (which is only drawn from on a tie).
    Python lists here: for a handful of moves they are several times faster than NumPy's small-array calls."""
    vals = values.tolist()
    best = max(vals)
    top = [i for i, v in enumerate(vals) if v == best]
    return top[0] if len(top) == 1 else top[int(rng.integers(len(top)))]


class _Leaves:
    """The batched leaf evaluation ``minimax.search`` calls: all the states' features, one scorer call (whose
    values come clipped)."""

    batched = True
    clipped = True

    def __init__(self, agent: "FeatureAgent"):
        self.agent = agent

    def __call__(self, states, player):
        return self.agent.score_rows(self.agent.rows(states, player))


# --------------------------------------------------------------------------------------------------------------
# The agent.
# --------------------------------------------------------------------------------------------------------------


class FeatureAgent(Agent):
    """Chooses moves by a scorer over ``state.features(player)`` (see the module docstring)."""

    state_api_only = True

    def __init__(self, game, scorer, policy: str = "move", depth: int = 1, opponents: str = "noop",
                 spec: str = "program", seed: int = 0, note: str = "", view: FeatureView | None = None,
                 budget: Budget | None = None):
        super().__init__(game)
        if policy not in POLICIES:
            raise SpecError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        if opponents not in OPPONENTS:
            raise SpecError(f"unknown simultaneous opponents {opponents!r}; known: {', '.join(OPPONENTS)}")
        limit = SEARCH_DEPTH_LIMIT if budget else MAX_DEPTH
        if not 1 <= int(depth) <= limit:
            raise SpecError(f"search depth {depth} is out of range; use 1..{limit}")
        self.view = view if view is not None else FeatureView(game)
        self.n_features = len(self.view)
        self.scorer = scorer
        self.policy = policy
        self.depth = int(depth)
        self.opponents = opponents
        self.spec = spec
        self.note = note  # e.g. the rules differ from the ones it was evolved under
        self._rng = np.random.default_rng(seed)
        self._leaves = _Leaves(self)
        # With a budget the player deepens iteratively (``depth`` caps it) and keeps a transposition table
        # for the game it plays.
        self.budget = budget if budget else None
        self._table: dict = {}
        self.last_depth = 0  # the deepest search iteration finished at the last move
        self.kernel = kernel_path(self)  # the game's kernels where it gives them (None: through the State)

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self._rng = np.random.default_rng(seed)
        self._table = {}
        if self.kernel is not None:
            self.kernel.restart()

    # --- features ---------------------------------------------------------------------------------------------
    def rows(self, states, player: int) -> np.ndarray:
        return self.view.rows(states, player)

    def score_rows(self, rows: np.ndarray) -> np.ndarray:
        return self.scorer(rows)

    # --- moves ---------------------------------------------------------------------------------------------
    def step(self, state) -> int:
        if state.is_simultaneous_node():
            player = self.seat
            actions = state.legal_actions(player)
        else:
            player = state.current_player()
            actions = state.legal_actions()
        if len(actions) == 1:
            return int(actions[0])
        actions, values = self.root_values(state, player, actions)
        return int(actions[choose_best(values, self._rng)])

    def root_values(self, state, player: int, actions) -> tuple[list[int], np.ndarray]:
        """The actions ``step`` chooses among at ``state`` and the value of each for ``player`` (the search's root
        values, or the after-states' scores of a move scorer), as ``step`` computes them."""
        deadline = getattr(self, "deadline", None)
        if self.budget or deadline is not None:
            b = self.budget or Budget()
            budget = Budget(b.nodes, b.seconds, deadline if b.deadline is None else b.deadline, b.clock)
            stats: dict = {}
            if self.kernel is not None:
                actions, values = self.kernel.search(state, player, self.depth, budget, stats)
            else:
                actions, values = search(state, player, self.depth, self._leaves, self._rng, stats,
                                         noop_opponents=self.opponents == "noop", budget=budget, table=self._table)
            self.last_depth = stats["depth"]
        elif self.kernel is not None:
            actions, values = (self.kernel.search(state, player, self.depth) if self.policy == "search"
                               else self.kernel.move_values(state, player))
        elif self.policy == "search":
            actions, values = search(state, player, self.depth, self._leaves, self._rng,
                                     noop_opponents=self.opponents == "noop")
        else:
            values = self.move_values(state, player, actions)
        return actions, values

    def after_states(self, state, player: int, actions) -> list:
        children = []
        if state.is_simultaneous_node():
            joint = self._joint(state, player)
            for a in actions:
                c = state.clone()
                joint[player] = int(a)
                c.apply_actions(joint)
                children.append(c)
        else:
            apply = search_moves(type(state))[1]
            for a in actions:
                c = state.clone()
                apply(c, int(a))
                children.append(c)
        return children

    def move_values(self, state, player: int, actions) -> np.ndarray:
        """Each action's after-state scored in one call; an after-state with dice pending is the expectation over
        its outcomes (as the search values a chance node on its horizon), a finished game its true result. Under
        hidden information the after-states are those of ``SAMPLES`` determinisations and the values their mean, as
        the search does: the true state's would tell a finished game's result from cards the player cannot see."""
        if not state.game.perfect_information:
            return np.mean([self._after_values(state.resample(player, self._rng), player, actions)
                            for _ in range(SAMPLES)], axis=0)
        return self._after_values(state, player, actions)

    def _after_values(self, state, player: int, actions) -> np.ndarray:
        leaves: list = []

        def gather(s):  # a leaf's index, or [(subtree, probability)] under a chance node
            if not s.is_chance_node():
                leaves.append(s)
                return len(leaves) - 1
            out = []
            for a, p in s.chance_outcomes():
                c = s.clone()
                c.apply_action(int(a))
                out.append((gather(c), p))
            return out

        trees = [gather(c) for c in self.after_states(state, player, actions)]
        scored = self.score_rows(self.rows(leaves, player))
        for i, c in enumerate(leaves):
            if c.is_terminal():
                scored[i] = float(c.returns()[player]) * TERMINAL_SCALE

        def value(t):
            if not isinstance(t, list):
                return scored[t]
            total = 0.0
            for sub, p in t:
                total += p * value(sub)
            return total / sum(p for _, p in t)

        return np.array([value(t) for t in trees], dtype=np.float64)

    def _joint(self, state, player: int) -> list[int]:
        joint = []
        noop = getattr(state.game, "noop_action", None)
        for q in range(state.game.num_players):
            legal = state.legal_actions(q)
            if q == player or not legal:
                joint.append(legal[0] if legal else 0)
            elif self.opponents == "sample":
                joint.append(int(legal[int(self._rng.integers(len(legal)))]))
            else:
                joint.append(int(noop) if noop is not None and noop in legal else int(legal[-1]))
        return joint

    def evaluation_phrase(self) -> str:
        """What its evaluation is, in a phrase ("an evolved program of 9 nodes", "40 evolved weights")."""
        if isinstance(self.scorer, ProgramScorer):
            return f"an evolved program of {self.scorer.size} nodes" + (
                f" added to {len(self.scorer.base)} fitted weights" if len(self.scorer.base) else "")
        return f"{self.scorer.size} evolved weights"

    def describe(self) -> str:
        """How it thinks, in one phrase (a report prints it beside the figures it measured)."""
        what = self.evaluation_phrase()
        if self.budget:
            limits = ([f"{self.budget.nodes} nodes"] if self.budget.nodes else []) + (
                [f"{1000 * self.budget.seconds:g} ms ({self.budget.clock} clock)"] if self.budget.seconds else [])
            how = f"alpha-beta by iterative deepening within {' and '.join(limits)} a move, its leaves scored by {what}"
        elif self.policy == "move":
            how = f"1-ply player: each legal move's after-state scored by {what}, the best played"
        else:
            how = f"alpha-beta {self.depth} plies deep, its leaves scored by {what}"
        return f"{how} ({self.note})" if self.note else how


# --------------------------------------------------------------------------------------------------------------
# Files: the program and weights documents of the generic recipes.
# --------------------------------------------------------------------------------------------------------------


def program_agent(game, program: Program, policy="move", depth=1, opponents="noop", spec="program",
                  note="", view: FeatureView | None = None, budget: Budget | None = None,
                  base=None) -> FeatureAgent:
    view = view if view is not None else FeatureView(game)
    if program.size and program.args[program.opcodes == 1].max(initial=-1) >= len(view):
        raise SpecError(f"the program reads feature {int(program.args[program.opcodes == 1].max())} but "
                        f"{game.spec} has {len(view)} features")
    if base is not None and (len(base) != len(view) or not np.all(np.isfinite(base))):
        raise SpecError(f"the program's base evaluation must be {len(view)} finite weights, one per feature")
    return FeatureAgent(game, ProgramScorer(program, base), policy, depth, opponents, spec, note=note, view=view,
                        budget=budget)


def linear_agent(game, weights, policy="search", depth=1, opponents="noop", spec="weights",
                 note="", view: FeatureView | None = None, budget: Budget | None = None) -> FeatureAgent:
    view = view if view is not None else FeatureView(game)
    weights = np.asarray(weights, dtype=np.float64)
    if len(weights) != len(view):
        raise SpecError(f"{len(weights)} weights for the {len(view)} features of {game.spec}")
    return FeatureAgent(game, LinearScorer(weights), policy, depth, opponents, spec, note=note, view=view,
                        budget=budget)


def _played_depth(where: str, policy: str, recorded: int, depth: int, budget: Budget | None = None) -> int:
    """The search depth to play: ``depth`` when given (> 0), else the one the file records; under a budget the
    deepest iteration allowed (``depth``, else no cap below the search's own)."""
    if depth < 0:
        raise SpecError(f"{where}: depth={depth}; give the plies to search (0: the file's own, {recorded})")
    if budget:
        return depth or SEARCH_DEPTH_LIMIT
    if depth and policy != "search":
        raise SpecError(f"{where}: depth={depth} is for a searching player; this file's policy is {policy!r} "
                        f"(it scores each move's after-state), so leave depth out, or give it a budget (ms=, "
                        f"nodes=) to search with its evaluation")
    return depth or recorded


CLOCKS = ("wall", "cpu")


def play_budget(doc: dict, ms: float = -1, nodes: int = -1, clock: str = "") -> Budget | None:
    """The budget a champion plays with: ``ms`` and ``nodes`` when given (>= 0; 0 turns that limit off), else
    the document's own ``play`` budget, else the node budget it was evolved with (None: it plays its evolved
    policy and depth); ``clock`` what ``ms`` measures ("wall" or "cpu"; "": the document's, else wall)."""
    if ms < -1 or nodes < -1:
        raise SpecError(f"ms={ms}, nodes={nodes}: give a budget >= 0 (0: none)")
    recorded = doc.get("play") or ({"nodes": doc["nodes"]} if doc.get("nodes") else {})
    ms = float(recorded.get("ms", 0)) if ms == -1 else float(ms)
    nodes = int(recorded.get("nodes", 0)) if nodes == -1 else int(nodes)
    clock = clock or str(recorded.get("clock", "wall"))
    if clock not in CLOCKS:
        raise SpecError(f"clock={clock!r}; use wall (elapsed time) or cpu (this thread's CPU time)")
    budget = Budget(nodes=nodes, seconds=ms / 1000.0, clock=clock)
    return budget if budget else None


def agent_from_program_document(game, doc: dict, where: str, spec: str, depth: int = 0, ms: float = -1,
                                nodes: int = -1, clock: str = "") -> FeatureAgent:
    """The agent of a generic ``gp`` document (policy move or search), checked against ``game``; ``depth`` > 0
    searches that many plies instead of the file's; ``ms`` / ``nodes`` a budget per move instead of the file's
    (see :func:`play_budget`)."""
    note = check_game(where, doc["game"], game)
    view = FeatureView.from_document(game, doc)
    check_features(where, doc.get("features", []), game, view.names())
    warn(note)
    program = Program.from_dict(doc["program"])
    budget = play_budget(doc, ms, nodes, clock)
    depth = _played_depth(where, doc["policy"], int(doc.get("depth", 1)), depth, budget)
    base = doc.get("base_weights")
    if base is not None:
        base = np.asarray(base, dtype=np.float64)
        if base.shape != (len(view),) or not np.all(np.isfinite(base)):
            raise SpecError(f"{where}: 'base_weights' must be {len(view)} finite numbers, one per feature")
    return program_agent(game, program, doc["policy"], depth, doc.get("opponents", "noop"), spec, note, view,
                         budget, base)


def agent_from_weights_document(game, doc: dict, where: str, spec: str, depth: int = 0, ms: float = -1,
                                nodes: int = -1, clock: str = "") -> FeatureAgent:
    """The agent of a generic ``weights`` document (a genome of one weight per feature, or real weights),
    checked against ``game``."""
    note = check_game(where, doc["game"], game)
    view = FeatureView.from_document(game, doc)
    check_features(where, doc["features"], game, view.names())
    warn(note)
    if "weights" in doc:
        weights = np.asarray(doc["weights"], dtype=np.float64)
        if weights.shape != (len(view),) or not np.all(np.isfinite(weights)):
            raise SpecError(f"{where}: 'weights' must be {len(view)} finite numbers, one per feature")
        recorded = int(doc.get("depth", 1))
    else:
        params = doc["params"]
        weights = decode_weights(params, len(doc["features"]), float(doc.get("weight_scale", 1.0)))
        # a genome's depth field holds plies - 1 (0 plays one ply); without one the document's depth
        recorded = int(params["depth"]) + 1 if "depth" in params else int(doc.get("depth", 1))
    policy = doc.get("policy", "search")
    budget = play_budget(doc, ms, nodes, clock)
    depth = _played_depth(where, policy, recorded, depth, budget)
    return linear_agent(game, weights, policy, depth, doc.get("opponents", "noop"), spec, note, view, budget)


def plays_uct(doc: dict) -> bool:
    """Does the document ship as ``uct`` guided by its evaluation (``play.search = "uct"``), not as alpha-beta?"""
    return isinstance(doc.get("play"), dict) and doc["play"].get("search") == "uct"


def shipped_agent(game, doc: dict, where: str, spec: str, depth: int = 0, ms: float = -1, nodes: int = -1,
                  clock: str = ""):
    """The player a gp or ga document ships as: alpha-beta (or the 1-ply player) over its evaluation, or where its
    ``play`` says ``search = "uct"``, Monte Carlo tree search guided by it (evoplay.agents.uct.guided_player:
    ``nodes`` there counts simulations). ``depth``, ``ms``, ``nodes`` and ``clock`` override the recorded ones."""
    if plays_uct(doc):
        if depth:
            raise SpecError(f"{where} plays as uct (Monte Carlo tree search), which has no depth; give ms= (time a "
                            f"move) or nodes= (simulations a move)")
        from evoplay.agents.uct import guided_player

        make = agent_from_program_document if "program" in doc else agent_from_weights_document
        evaluation = make(game, doc, where, "evaluation", ms=0, nodes=0)  # read for its evaluation only
        return guided_player(game, evaluation, doc["play"], where, spec, ms, nodes, clock)
    make = agent_from_program_document if "program" in doc else agent_from_weights_document
    return make(game, doc, where, spec, depth, ms, nodes, clock)


def document_agent(game, doc: dict, spec: str, depth: int = 0):
    """The agent of an in-memory gp or ga best.json document (what ``gp(FILE)`` and ``weights(FILE)`` play)."""
    return shipped_agent(game, doc, spec, spec, depth)


def weight_field(i: int) -> str:
    return f"w{i}"


def decode_weights(params: dict, n: int, scale: float = 1.0) -> np.ndarray:
    """The weight vector of a decoded genome record (fields ``w0``..``w{n-1}``) times ``scale``."""
    try:
        return np.array([params[weight_field(i)] for i in range(n)], dtype=np.float64) * scale
    except KeyError as err:
        raise SpecError(f"the genome lacks weight field {err}; it does not match the game's {n} features") from None
