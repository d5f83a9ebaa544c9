"""Rollouts in Numba over a game's kernels: the kernel binding of the controllers' searches, and their budget.

The controllers (rs, rhea, mcts, lookahead) write each search once, as a Numba kernel over the names of a binding:
``mover``, ``legal_moves``, ``settle``, ``random_action``, ``play_step``, ``heuristic`` and ``rollout_copy``
(``BINDING``). Here those names are kernels over a game's position (evoplay.games.kernels: each controller's
module is compiled once per game with that game's kernels); evoplay.agents.generic_rollout defines the same names,
with the same arguments, over a ``State``, and runs the same search text as plain Python for a game without kernels
(``on_states``). Both bindings draw from Numba's generator in the same order, so a game searched either way gets the
same moves. ``evaluate_sequence`` is a text too (``TEXTS``): written once here, run over either binding.

``play_step`` plays one step of a rollout with the opponent model of the seed (every other player picks uniformly
at random among its legal actions), ``heuristic`` is the seed's WinScoreHeuristic.

A step first samples chance nodes (with their probabilities). At a simultaneous node every player acts at once,
the searching ``seat`` with its planned action; at a turn-based node only the mover acts: ``seat`` with its
planned action when it is the mover (an action that is not legal there -- an open-loop plan can meet one -- is
replaced by a uniformly random legal move), anyone else at random. An action of -1 is "no plan".
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.agents.generic_rollout import FUTURE_SEEDS, HUGE_NEGATIVE, HUGE_POSITIVE, discounted, on_states
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL

BINDING = ("mover", "legal_moves", "settle", "random_action", "play_step", "heuristic", "rollout_copy")
TEXTS = ("evaluate_sequence",)

# The game's kernels: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = False


@njit(cache=True)
def mover(params, position):
    """Who moves at ``position``: a player, or CHANCE, SIMULTANEOUS, TERMINAL."""
    return game_mover(params, position)


@njit(cache=True)
def legal_moves(params, position, seat, mask, moves):
    """``seat``'s legal actions at ``position`` where it moves, ascending (in ``moves``, through ``mask``)."""
    game_legal(params, position, seat, mask)
    count = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            moves[count] = a
            count += 1
    return moves[:count]


@njit(cache=True)
def settle(params, position, probs):
    """Sample chance nodes with their probabilities until a player is to move (or the game ends)."""
    while game_mover(params, position) == CHANCE:
        game_chance(params, position, probs)
        total = 0.0
        for a in range(probs.shape[0]):
            total += probs[a]
        u = np.random.random() * total
        chosen = -1
        last = -1
        for a in range(probs.shape[0]):
            if probs[a] > 0:
                last = a
                if chosen < 0:
                    if u < probs[a]:
                        chosen = a
                    else:
                        u -= probs[a]
        game_apply(params, position, chosen if chosen >= 0 else last)


@njit(cache=True)
def pick(mask, count):
    """A uniformly random marked action of ``mask`` (``count`` of them are marked)."""
    k = np.random.randint(count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def random_action(params, position, seat, scratch):
    """A uniformly random legal action of ``seat`` (after chance is sampled), -1 when another player moves."""
    mask, probs, scores = scratch
    settle(params, position, probs)
    mover = game_mover(params, position)
    if mover != seat and mover != SIMULTANEOUS:
        return -1
    count = game_legal(params, position, seat, mask)
    return pick(mask, count) if count > 0 else -1


@njit(cache=True)
def play_step(params, position, seat, action, scratch):
    """One rollout step (see the module's docstring); returns the action ``seat`` played, -1 if none."""
    mask, probs, scores = scratch
    settle(params, position, probs)
    mover = game_mover(params, position)
    if mover == TERMINAL:
        return -1
    if mover == SIMULTANEOUS:
        joint = 0
        base = 1
        mine = -1
        for p in range(scores.shape[0]):
            count = game_legal(params, position, p, mask)
            a = action if (p == seat and action >= 0 and mask[action]) else pick(mask, count)
            if p == seat:
                mine = a
            joint += a * base
            base *= mask.shape[0]
        game_apply(params, position, joint)
        return mine
    count = game_legal(params, position, mover, mask)
    if mover == seat:
        mine = action if (action >= 0 and mask[action]) else pick(mask, count)
        game_apply(params, position, mine)
        return mine
    game_apply(params, position, pick(mask, count))
    return -1


@njit(cache=True)
def heuristic(params, position, seat, scores):
    """The seed's WinScoreHeuristic (generic_rollout.heuristic): +1000 when ``seat`` alone has the best return of a
    finished game, -1000 when some return beats its own, otherwise its own score."""
    if game_mover(params, position) == TERMINAL:
        game_returns(params, position, scores)
        r = scores[seat]
        if scores.shape[0] == 1:  # a puzzle: won with a positive return, lost with a negative one
            if r > 0:
                return HUGE_POSITIVE
            if r < 0:
                return HUGE_NEGATIVE
        else:
            best = scores[0]
            for p in range(1, scores.shape[0]):
                if scores[p] > best:
                    best = scores[p]
            if r < best:
                return HUGE_NEGATIVE
            tied = 0
            for p in range(scores.shape[0]):
                if scores[p] == best:
                    tied += 1
            if tied == 1:
                return HUGE_POSITIVE
    game_scores(params, position, scores)
    return scores[seat]


@njit(cache=True)
def hide_future(params, position):
    """Give a rollout's copy its own randomness (what no player can know yet: gem spawns), from the stream."""
    game_hide(params, position, np.random.randint(1, FUTURE_SEEDS))


@njit(cache=True)
def rollout_copy(params, root, work, seat):
    """A rollout's own copy of ``root`` (in ``work``), its hidden future drawn from the stream."""
    work[:] = root
    hide_future(params, work)
    return work


@njit(cache=True)
def evaluate_sequence(params, root, work, seat, seq, depth, discount, scratch):
    """Play ``seq`` from a copy of ``root`` against random opponents; return heuristic x discount^steps.

    The seed's ``evaluate``: the rollout stops early at the end of the game; the discount's exponent is the
    number of steps actually played.
    """
    work = rollout_copy(params, root, work, seat)
    steps = 0
    for i in range(depth):
        if mover(params, work) == TERMINAL:
            break
        play_step(params, work, seat, seq[i], scratch)
        steps += 1
    return discounted(heuristic(params, work, seat, scratch[2]), discount, steps)


@njit(cache=True)
def random_playouts(params, root, count, seed, work, scratch):
    """Play ``count`` games from ``root`` to the end, every player uniformly at random (chance by its
    probabilities); return the sum of each player's returns."""
    np.random.seed(seed)
    mask, probs, scores = scratch
    totals = np.zeros(scores.shape[0])
    for _ in range(count):
        work[:] = root
        while game_mover(params, work) != TERMINAL:
            play_step(params, work, -1, -1, scratch)
        game_returns(params, work, scores)
        totals += scores
    return totals


# ----------------------------------------------------------------------------------------------------------------
# The budget every controller shares: a time budget (the competition's) or an iteration budget (reproducible).
# ----------------------------------------------------------------------------------------------------------------

import sys  # noqa: E402
import time  # noqa: E402

from evoplay.agents import generic_rollout  # noqa: E402
from evoplay.agents.base import Agent  # noqa: E402
from evoplay.errors import IllegalActionError, SpecError  # noqa: E402
from evoplay.games.kernels import kernels_of, specialise  # noqa: E402

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
    earlier of its own end (with its break) and the deadline, and a fixed iteration count runs in slices of ``DEADLINE_SLICE``
    rollout steps with the clock read between them (the first slice always runs), so under a deadline a count
    above that differs from the same decision without one.
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
            root, actions = state, generic_rollout.root_actions(state, player)
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
        else the State itself. ``remaining()`` is the time left in seconds; ``iterations`` > 0 is a fixed number of evaluations
        instead."""
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
