"""The rollout controllers' shared driver: the budget (time or iterations), the seat, and which binding searches.

A controller (rs, rhea, mcts, lookahead) is a ``ForwardModelAgent`` whose ``_search`` calls its one search text:
its Numba kernel compiled for the game's kernels (evoplay.agents.kernel_rollout), or the same text run as plain
Python over States (evoplay.agents.generic_rollout) for a game without kernels; ``search_of`` hands it either.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from evoplay.agents import generic_rollout
from evoplay.agents.generic_rollout import on_states
from evoplay.agents.base import Agent
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL
from evoplay.games.kernels import kernels_of, specialise

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
    game, Sevens, a plain Python file) is searched through the game API alone (evoplay.agents.generic_rollout),
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
        self.fast = model == "auto" and fast_kernels(game) is not None  # False: the game API alone (generic_rollout)
        self.model = "numba" if self.fast else "api"
        self.decisions = 0
        self.evaluations = 0  # rollouts in all decisions since construction
        self.last_evaluations = 0
        self.last_seconds = 0.0
        if self.fast:
            self._warm()
        else:
            generic_rollout.warm()

    @property
    def compiled(self):
        """This controller's module compiled for the game's kernels (evoplay.games.kernels.specialise)."""
        made = self.__dict__.get("_compiled")
        if made is None:
            made = self.__dict__["_compiled"] = specialise(type(self).__module__, self.kernels)
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
        return on_states(getattr(sys.modules[type(self).__module__], name)), None, None, generic_rollout.NO_SCRATCH

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
        state = self.game.new_initial_state(0)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
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
            root, actions = state, generic_rollout.legal_moves(None, state, player, None, None)
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
