"""The rollout controllers as players: ``rs``, ``rhea``, ``mcts`` and ``lookahead``, their parameters and budget
(time or iterations), the seat, and which binding searches.

A controller is a ``ForwardModelAgent`` whose ``_search`` calls its one search text (evoplay.search.rs, rhea, mcts,
lookahead): its Numba kernel compiled for the game's kernels over evoplay.search.rollout, or the same text run as
plain Python over States (``rollout.on_states``) for a game without kernels; ``search_of`` hands it either.
"""
from __future__ import annotations

import math
import time

import numpy as np

from evoplay.agents.base import Agent
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL, first_decision
from evoplay.games.kernels import kernels_of, specialise
from evoplay.search import lookahead, mcts, rhea, rollout, rs

BATCH_SECONDS = 0.0005  # a kernel call lasts about this long, so the clock is read every half millisecond
ITERATION_SLICE = 1 << 20  # rollout steps (iterations x depth) of one kernel call with a fixed iteration count
DEADLINE_SLICE = 1 << 14  # the same under a deadline (Agent.deadline): a few milliseconds, then the clock is read
CLOCKS = ("wall", "cpu")
MODELS = ("auto", "api")


def fast_kernels(game):
    """The kernels a controller searches ``game`` with, or None (then through the game API): a game that gives
    them and hides nothing (a rollout on the true position would read what its player cannot see)."""
    kernels = kernels_of(game)
    return kernels if kernels is not None and game.perfect_information else None


class ForwardModelAgent(Agent):
    """A controller that plays rollouts from the position within a budget per decision.

    ``budget_ms`` is the time of one decision, measured from the call of ``step``; the search stops, as the
    seed's controller does, when the time left is less than the average cost of another evaluation or less
    than ``break_ms`` (the seed's BREAK_MS: 10 ms of the 40 ms budget; 0 means a quarter of ``budget_ms``).
    A time budget makes a game depend on the machine and its load, so it is not reproducible from the seed;
    ``iterations`` > 0 replaces it with a fixed number of rollouts (evaluations) per decision,
    and then a seeded game is reproducible exactly.

    The clock is read between calls of a Numba kernel that each evaluate about ``BATCH_SECONDS`` of rollouts,
    so the seed's per-evaluation stopping rule is applied per batch of evaluations.

    ``clock="wall"`` (the default, the competition's) measures elapsed time; ``clock="cpu"`` measures this
    thread's CPU time, like GVGAI's ElapsedCpuTimer in its CPU_TIME mode: on a machine shared with other work a
    decision then gets the search a dedicated core would give it, and takes longer in elapsed time.

    A game that hands over kernels (``Game.kernels()``: the built-ins tron, gems, kalah and m,n,k, a user's game
    made fast) is searched inside Numba, each controller's kernel compiled for it; any other game (an OpenSpiel
    game, Sevens, a plain Python file) is searched through the game API alone (evoplay.search.rollout's references),
    as is any game with ``model="api"``. Each controller's search is one text: its kernel, run over States
    (``search_of``) on the game API path, where it draws the same random numbers in the same order.

    In a turn-based position the controller moves for the player to move, whatever seat ``restart`` gave it; at
    a simultaneous node it moves for its seat.

    A ``deadline`` (``Agent.deadline``) ends the search early, whichever budget it has: a time budget ends at the
    earlier of its own end (with its break) and the deadline, and a fixed iteration count runs in slices of
    ``DEADLINE_SLICE`` rollout steps with the clock read between them (the first slice always runs), so under a
    deadline a count above that differs from the same decision without one.
    """

    state_api_only = True
    kind = "controller"
    search = None  # the module of its search text (evoplay.search.rs, ...)

    def __init__(self, game, budget_ms: float = 40.0, iterations: int = 0, break_ms: float = 0.0,
                 discount: float = 1.0, seed: int = 0, spec: str | None = None, clock: str = "wall",
                 model: str = "auto"):
        super().__init__(game)
        if model not in MODELS:
            raise SpecError(f"{self.kind}: model={model!r} is not one of {', '.join(MODELS)} (auto: the game's Numba "
                            f"kernels where it gives them, else the game API; api: always the game API)")
        if clock not in CLOCKS:
            raise SpecError(f"{self.kind}: clock={clock!r} is not one of {', '.join(CLOCKS)} "
                            f"(wall: elapsed time, the competition's; cpu: this thread's CPU time)")
        self.clock = clock
        self._now = time.perf_counter if clock == "wall" else time.thread_time
        if not 0.1 <= budget_ms <= 600_000:
            raise SpecError(f"{self.kind}: budget_ms={budget_ms} is out of range; use 0.1..600000 (milliseconds)")
        if iterations < 0:
            raise SpecError(f"{self.kind}: iterations={iterations} must be >= 0 (0: use the time budget)")
        if break_ms < 0 or break_ms >= budget_ms:
            raise SpecError(f"{self.kind}: break_ms={break_ms} must be in 0..budget_ms ({budget_ms}); "
                            f"0 means a quarter of the budget")
        if not 0.0 < discount <= 1.0:
            raise SpecError(f"{self.kind}: discount={discount} must be in (0, 1]")
        self.budget_ms = float(budget_ms)
        self.iterations = int(iterations)
        self.break_ms = float(break_ms) if break_ms > 0 else self.budget_ms / 4
        self.discount = float(discount)
        self.spec = spec or self.kind
        self._rng = np.random.default_rng(seed)
        self.fast = model == "auto" and fast_kernels(game) is not None  # False: the game API alone (over States)
        self.model = "numba" if self.fast else "api"
        self.decisions = 0
        self.evaluations = 0  # rollouts in all decisions since construction
        self.last_evaluations = 0
        self.last_seconds = 0.0
        if self.fast:
            self._warm()
        else:
            rollout.warm()

    @property
    def compiled(self):
        """This controller's search module compiled for the game's kernels (evoplay.games.kernels.specialise)."""
        made = self.__dict__.get("_compiled")
        if made is None:
            made = self.__dict__["_compiled"] = specialise(self.search.__name__, self.kernels)
        return made

    @property
    def kernels(self):
        """The game's kernels (on the kernel path)."""
        return kernels_of(self.game)

    @property
    def params(self) -> np.ndarray:
        return self.kernels.params

    def scratch(self) -> tuple:
        """The rollout kernels' scratch arrays: a legal mask, chance probabilities, one number per player."""
        k = self.kernels
        return np.zeros(k.actions, np.int8), np.zeros(k.actions), np.zeros(k.players)

    def search_of(self, name: str, root) -> tuple:
        """(search, params, work, scratch): this controller's search ``name`` and the arrays it is given -- its Numba
        kernel compiled for the game, or on the game API path the same text run over States (``on_states``),
        which is given none."""
        if self.fast:
            return getattr(self.compiled, name), self.params, np.empty_like(root), self.scratch()
        return rollout.on_states(getattr(self.search, name)), None, None, rollout.NO_SCRATCH

    def __getstate__(self):
        d = dict(self.__dict__)
        d.pop("_compiled", None)  # a module: a worker compiles (or loads) its own
        return d

    def simultaneous(self, root) -> bool:
        """Is ``root`` (the position on the kernel path, else the State) a simultaneous node?"""
        if self.fast:
            return self.kernels.mover(self.kernels.params, root) == SIMULTANEOUS
        return root.is_simultaneous_node()

    def _warm(self) -> None:
        """Compile (or load from Numba's cache) the kernels before the first timed decision (on a generator of
        its own: the agent's seeds are left for its decisions, as on the game API path, which needs no warming)."""
        state = first_decision(self.game.new_initial_state(0), np.random.default_rng(0))
        player = self.player_for(state)
        root = self.kernels.position(state)
        actions = self.kernels.legal_actions(root, player)
        seeds, self._rng = self._rng, np.random.default_rng(0)
        self._search(root, np.array(actions, np.int64), player, lambda: 0.0, 1)
        self._rng = seeds

    def player_for(self, state) -> int:
        """Whom to move for: the mover of a turn-based position (whatever the seat given to ``restart``), the
        seat at a simultaneous one."""
        player = state.current_player()
        if player >= 0:
            return player
        if player == SIMULTANEOUS:
            return self.seat
        what = "the game is over" if player == TERMINAL else "it is a chance node (sample its outcome first)"
        raise IllegalActionError(f"{self.spec}: asked to move where no player moves: {what}")

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self._rng = np.random.default_rng(seed)

    def _seed(self) -> int:
        return int(self._rng.integers(1, 2**31 - 1))

    def step(self, state) -> int:
        start = self._now()
        wall = time.perf_counter()
        player = self.player_for(state)
        if self.fast:
            root = self.kernels.position(state)
            actions = self.kernels.legal_actions(root, player)
        else:
            root, actions = state, rollout.reference_legal_moves(None, state, player, None, None)
        if not actions:
            raise IllegalActionError(f"{self.spec}: player {player} has no action here")
        if len(actions) == 1:
            action, n = actions[0], 0
        else:
            deadline = start + self.budget_ms / 1000.0
            action, n = self._search(root, np.array(actions, np.int64), player,
                                     lambda: deadline - self._now(), self.iterations)
        self.decisions += 1
        self.evaluations += n
        self.last_evaluations = n
        self.last_seconds = time.perf_counter() - wall
        return int(action)

    def _search(self, root, actions, seat, remaining, iterations) -> tuple[int, int]:
        """Return (action, evaluations). ``root`` is the game's position (its kernels' array) when ``self.fast``,
        else the State itself. ``remaining()`` is the time left in seconds; ``iterations`` > 0 is a fixed number of
        evaluations instead."""
        raise NotImplementedError

    def slice_iterations(self, steps: int) -> int:
        """Iterations of one kernel call of a fixed-iteration search whose rollouts take ``steps`` steps."""
        return max(1, (ITERATION_SLICE if self.deadline is None else DEADLINE_SLICE) // max(1, steps))

    def timed_batches(self, run, remaining, iterations: int, granule: int = 1, done: int = 0,
                      spent: float = 0.0) -> int:
        """Call ``run(n)`` (which evaluates n rollouts, rounded to ``granule``) until the budget is spent.

        Fixed ``iterations``: exactly that many, in one call. Time: the seed's rule -- go on while the time left
        exceeds the average cost of an evaluation and BREAK_MS; each call is sized to about BATCH_SECONDS and
        never past the break. ``done`` evaluations that took ``spent`` seconds already count towards the
        average (then the first call is checked too); the return value counts only the calls made here.
        """
        if iterations > 0:
            # One call up to ITERATION_SLICE steps of rollouts (about a second at most); more are run in slices so
            # Ctrl-C (and a deadline) is seen between them (and a tree grows slice by slice, not allocated for all
            # at once).
            per_call = self.slice_iterations(getattr(self, "depth", 10))
            if iterations <= per_call:
                return run(iterations)
            per_call = max(granule, per_call - per_call % granule)
            done = 0
            while done < iterations:
                ran = run(min(per_call, iterations - done))
                if ran <= 0:
                    break
                done += ran
                if self.out_of_time():
                    break
            return done
        brk = self.break_ms / 1000.0
        batch = granule
        first = done
        while True:
            if done:  # the seed's do-while: the first evaluation always runs
                avg = spent / done
                left = remaining()
                hard = self.time_left()  # the caller's deadline, if any
                if not (left > avg and left > brk) or (hard is not None and hard <= avg):
                    return done - first
                fits = int((left - brk) / avg)
                if hard is not None:
                    fits = min(fits, int(hard / avg))
                batch = max(granule, min(int(BATCH_SECONDS / avg) + 1, fits, 1 << 16))
                batch = max(granule, batch - batch % granule)
            t = self._now()
            done += run(batch)
            spent += self._now() - t


class RandomSearchAgent(ForwardModelAgent):
    """``rs(budget_ms=40,depth=10)``: seed 002's random search (evoplay.search.rs) within the budget."""

    kind = "rs"
    search = rs

    def __init__(self, game, budget_ms: float = 40.0, depth: int = 10, discount: float = 1.0,
                 iterations: int = 0, break_ms: float = 0.0, seed: int = 0, spec: str | None = None,
                 clock: str = "wall", model: str = "auto"):
        if not 1 <= depth <= 1000:
            raise SpecError(f"rs: depth={depth} is out of range; use 1..1000 (the seed's SIMULATION_DEPTH is 10)")
        self.depth = int(depth)
        super().__init__(game, budget_ms, iterations, break_ms, discount, seed, spec, clock=clock, model=model)

    def _search(self, root, actions, seat, remaining, iterations):
        best_seq = np.empty(self.depth, np.int64)
        best_value = np.array([-np.inf])
        search, params, work, scratch = self.search_of("random_search", root)

        def run(count: int) -> int:
            return search(params, root, seat, actions, self.depth, self.discount, count, self._seed(), best_seq,
                          best_value, work, scratch)

        n = self.timed_batches(run, remaining, iterations)
        self.last_value = float(best_value[0])
        return int(best_seq[0]), n


class RheaAgent(ForwardModelAgent):
    """``rhea(budget_ms=40,...)``: the rolling horizon evolutionary algorithm (evoplay.search.rhea) within the budget:
    an iteration budget counts rollouts, the first population, then whole generations while they fit."""

    kind = "rhea"
    search = rhea

    def __init__(self, game, budget_ms: float = 40.0, depth: int = 10, population: int = 10, elitism: int = 1,
                 tournament: int = 2, mutation: int = 1, discount: float = 1.0, iterations: int = 0,
                 break_ms: float = 0.0, seed: int = 0, spec: str | None = None, clock: str = "wall",
                 model: str = "auto"):
        if not 1 <= depth <= 1000:
            raise SpecError(f"rhea: depth={depth} is out of range; use 1..1000")
        if not 2 <= population <= 10_000:
            raise SpecError(f"rhea: population={population} is out of range; use 2..10000")
        if not 0 <= elitism < population:
            raise SpecError(f"rhea: elitism={elitism} must be in 0..population-1 ({population - 1})")
        if not 1 <= tournament <= population:
            raise SpecError(f"rhea: tournament={tournament} must be in 1..population ({population})")
        if not 0 <= mutation <= depth:
            raise SpecError(f"rhea: mutation={mutation} (genes mutated per child) must be in 0..depth ({depth})")
        self.depth, self.population, self.elitism = int(depth), int(population), int(elitism)
        self.tournament, self.mutation = int(tournament), int(mutation)
        super().__init__(game, budget_ms, iterations, break_ms, discount, seed, spec, clock=clock, model=model)

    def _search(self, root, actions, seat, remaining, iterations):
        pop = np.empty((self.population, self.depth), np.int64)
        values = np.empty(self.population)
        search, params, work, scratch = self.search_of("evolve", root)
        per_gen = self.population - self.elitism
        state = {"init": True}

        def run(count: int) -> int:
            init = state["init"]
            budget = count - (self.population if init else 0)
            gens = max(0, budget // per_gen) if per_gen else 0
            state["init"] = False
            return search(params, root, seat, actions, self.depth, self.discount, pop, values, init, gens,
                          self.elitism, self.tournament, self.mutation, self._seed(), work, scratch)

        if iterations > 0:
            total = max(iterations, self.population)
            per_call = max(self.population + per_gen, self.slice_iterations(self.depth))
            n = run(min(total, per_call))
            while n < total and per_gen and not self.out_of_time():  # in slices: Ctrl-C is seen between them
                more = run(min(total - n, per_call - per_call % per_gen))
                if more <= 0:
                    break
                n += more
        else:
            # The first call creates the population; later calls breed whole generations.
            t = self._now()
            n = run(self.population)
            n += self.timed_batches(run, remaining, 0, per_gen, done=n, spent=self._now() - t)
        self.last_value = float(values[0])
        return int(actions[pop[0, 0]]), n


class MctsAgent(ForwardModelAgent):
    """``mcts(budget_ms=40,...)``: open-loop UCT (evoplay.search.mcts) within the budget; an iteration budget counts
    iterations (one rollout each)."""

    kind = "mcts"
    search = mcts

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
        tree = {"child": mcts.Children(), "nodes": 1, **({"visits": np.zeros(0, np.int64), "totals": np.zeros(0)}
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


class LookaheadAgent(ForwardModelAgent):
    """``lookahead(budget_ms=40)``: one-step lookahead (evoplay.search.lookahead) within the budget; an iteration
    budget counts evaluations (whole rounds)."""

    kind = "lookahead"
    search = lookahead

    def _search(self, root, actions, seat, remaining, iterations):
        sums = np.zeros(len(actions))
        search, params, work, scratch = self.search_of("lookahead", root)
        n_act = len(actions)
        rounds = {"n": 0}

        def run(count: int) -> int:
            r = max(1, count // n_act)
            rounds["n"] += r
            return search(params, root, seat, actions, r, self.discount, sums, work, scratch, self._seed())

        # A turn-based step of perfect information has no random part (chance is sampled only before it).
        exact = not self.simultaneous(root) and self.game.perfect_information
        if exact:
            n = run(n_act)
        else:
            n = self.timed_batches(run, remaining, iterations, granule=n_act)
        means = sums / rounds["n"]
        best = np.flatnonzero(means == means.max())
        choice = int(best[int(self._rng.integers(len(best)))]) if len(best) > 1 else int(best[0])
        return int(actions[choice]), n
