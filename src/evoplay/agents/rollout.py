"""Rollouts in Numba: the forward model's rules for every game behind one dispatch, and the seed's heuristic.

(Games without a forward model are played by the same controllers through evoplay.agents.generic_rollout.)

The controllers (rs, rhea, mcts, lookahead) run their inner loops in Numba over a forward-model position
(evoplay.games.forward): ``advance`` switches on ``params[P_KIND]`` to the game's kernel, ``legal_mask`` lists
a player's available actions, ``play_step`` plays one step of a rollout with the opponent model of the seed
(the opponent picks uniformly at random among its available actions, NIL included), and ``heuristic`` is the
seed's WinScoreHeuristic.

In a turn-based game a step plays only the mover's action: when the controller itself is the mover its action
is played (an action that is not legal in that position -- an open-loop plan can meet one -- is replaced by a
uniformly random legal move: a pass is not a move in Kalah or m,n,k); otherwise it contributes NIL.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.gems import game as gems

from evoplay.games.kalah import game as kalah

from evoplay.games.mnk import game as mnk

from evoplay.games.tron import game as tron
from evoplay.games.base import TERMINAL
from evoplay.games.forward import (
    BODY, DRAW, HUGE_NEGATIVE, HUGE_POSITIVE, KIND_GEMS, KIND_KALAH, KIND_TRON, P_ACTIONS, P_GAME, P_KIND,
    P_SIMULTANEOUS, PHASE, RNG, SCORE, TICK, WINNER,
)


@njit(cache=True)
def kalah_step(params, buf, a0, a1):
    """Kalah through the forward model: sow the mover's pit (evoplay.games.kalah.game.sow) and keep the header."""
    pits = params[P_GAME]
    mover = buf[PHASE]
    board = buf[BODY : BODY + 2 * pits + 2]
    nxt = kalah.sow(board, mover, a0 if mover == 0 else a1, pits, params[P_GAME + 1] != 0)
    buf[PHASE] = nxt
    buf[SCORE] = board[pits]
    buf[SCORE + 1] = board[2 * pits + 1]
    buf[TICK] += 1
    if nxt == TERMINAL:
        d = board[pits] - board[2 * pits + 1]
        buf[WINNER] = 0 if d > 0 else (1 if d < 0 else DRAW)


@njit(cache=True)
def mnk_step(params, buf, a0, a1):
    """The m,n,k-game through the forward model (evoplay.games.mnk.game.play); the body ends with the empty count."""
    m = params[P_GAME]
    n = params[P_GAME + 1]
    k = params[P_GAME + 2]
    mover = buf[PHASE]
    board = buf[BODY : BODY + m * n]
    empties = buf[BODY + m * n]
    nxt, w = mnk.play(board, mover, a0 if mover == 0 else a1, m, n, k, empties)
    buf[BODY + m * n] = empties - 1
    buf[PHASE] = nxt
    buf[TICK] += 1
    if nxt == TERMINAL:
        if w < 0:
            buf[WINNER] = DRAW
        else:
            buf[WINNER] = w
            buf[SCORE + w] = 1


@njit(cache=True)
def advance(params, buf, a0, a1):
    """Play the joint action (a0, a1) on ``buf`` in place, whatever the game."""
    kind = params[P_KIND]
    if kind == KIND_TRON:
        tron.step(params, buf, a0, a1)
    elif kind == KIND_GEMS:
        gems.step(params, buf, a0, a1)
    elif kind == KIND_KALAH:
        kalah_step(params, buf, a0, a1)
    else:
        mnk_step(params, buf, a0, a1)


@njit(cache=True)
def legal_mask(params, buf, player, mask):
    """Set ``mask[a]`` to 1 for each action available to ``player`` (NIL = A-1 included where it is); count them."""
    n_actions = params[P_ACTIONS]
    nil = n_actions - 1
    mask[:n_actions] = 0
    if buf[PHASE] == TERMINAL:
        return 0
    if params[P_SIMULTANEOUS] != 0:
        mask[:n_actions] = 1
        return n_actions
    if buf[PHASE] != player:
        mask[nil] = 1
        return 1
    count = 0
    if params[P_KIND] == KIND_KALAH:
        pits = params[P_GAME]
        base = BODY + (0 if player == 0 else pits + 1)
        for p in range(pits):
            if buf[base + p] > 0:
                mask[p] = 1
                count += 1
    else:
        size = params[P_GAME] * params[P_GAME + 1]
        for c in range(size):
            if buf[BODY + c] == 0:
                mask[c] = 1
                count += 1
    return count


@njit(cache=True)
def random_action(params, buf, player, mask):
    """A uniformly random available action of ``player`` (np.random's state, seeded by the caller)."""
    count = legal_mask(params, buf, player, mask)
    k = np.random.randint(count)
    for a in range(params[P_ACTIONS]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return params[P_ACTIONS] - 1


@njit(cache=True)
def play_step(params, buf, seat, action, mask):
    """One rollout step: ``seat`` plays ``action``, the opponent a uniformly random available action.

    Returns the action ``seat`` actually played (NIL when it is not its turn, a random legal move when
    ``action`` is not legal for the mover of a turn-based game).
    """
    nil = params[P_ACTIONS] - 1
    if params[P_SIMULTANEOUS] != 0:
        mine = action
        other = np.random.randint(params[P_ACTIONS])
    elif buf[PHASE] == seat:
        legal_mask(params, buf, seat, mask)
        mine = action if (action < nil and mask[action]) else random_action(params, buf, seat, mask)
        other = nil
    else:
        mine = nil
        other = random_action(params, buf, 1 - seat, mask)
    if seat == 0:
        advance(params, buf, mine, other)
    else:
        advance(params, buf, other, mine)
    return mine


@njit(cache=True)
def heuristic(buf, seat):
    """The seed's WinScoreHeuristic: -1000 if ``seat`` lost, +1000 if it won, otherwise its own score."""
    if buf[PHASE] == TERMINAL:
        if buf[WINNER] == 1 - seat:
            return HUGE_NEGATIVE
        if buf[WINNER] == seat:
            return HUGE_POSITIVE
    return np.float64(buf[SCORE + seat])


@njit(cache=True)
def hide_future(buf):
    """Give a rollout's copy its own random game state (gem spawns), so no controller sees the real future."""
    buf[RNG] = np.random.randint(1, 2147483647)


@njit(cache=True)
def evaluate_sequence(params, root, work, seat, seq, depth, discount, mask):
    """Play ``seq`` from a copy of ``root`` against a random opponent; return heuristic x discount^steps.

    The seed's ``evaluate``: the rollout stops early at the end of the game; the discount's exponent is the
    number of steps actually played.
    """
    work[:] = root
    hide_future(work)
    steps = 0
    for i in range(depth):
        if work[PHASE] == TERMINAL:
            break
        play_step(params, work, seat, seq[i], mask)
        steps += 1
    return heuristic(work, seat) * discount**steps


def mask_buffer(params) -> np.ndarray:
    return np.zeros(int(params[P_ACTIONS]), dtype=np.int64)


# ----------------------------------------------------------------------------------------------------------------
# The budget every controller shares: a time budget (the competition's) or an iteration budget (reproducible).
# ----------------------------------------------------------------------------------------------------------------

import time  # noqa: E402

from evoplay.agents import generic_rollout  # noqa: E402
from evoplay.agents.base import Agent  # noqa: E402
from evoplay.errors import IllegalActionError, SpecError  # noqa: E402
from evoplay.games.base import SIMULTANEOUS  # noqa: E402
from evoplay.games.forward import forward_model  # noqa: E402

BATCH_SECONDS = 0.0005  # a kernel call lasts about this long, so the clock is read every half millisecond
ITERATION_SLICE = 1 << 20  # rollout steps (iterations x depth) of one kernel call with a fixed iteration count
DEADLINE_SLICE = 1 << 14  # the same under a deadline (Agent.deadline): a few milliseconds, then the clock is read
CLOCKS = ("wall", "cpu")
MODELS = ("auto", "api")


def fast_model(game):
    """The Numba forward model of ``game``'s first position, or None for a game that has none (tron, gems,
    kalah and m,n,k have one; any other game is searched through the game API)."""
    try:
        return forward_model(game.new_initial_state(0))
    except SpecError:
        return None


class ForwardModelAgent(Agent):
    """A controller that searches the forward model within a budget per decision.

    ``budget_ms`` is the time of one decision, measured from the call of ``step``; the search stops, as the
    seed's controller does, when the time left is less than the average cost of another evaluation or less
    than ``break_ms`` (the seed's BREAK_MS: 10 ms of the 40 ms budget; 0 means a quarter of ``budget_ms``).
    A time budget makes a game depend on the machine and its load, so it is not reproducible from the seed;
    ``iterations`` > 0 replaces it with a fixed number of rollouts (forward-model evaluations) per decision,
    and then a seeded game is reproducible exactly.

    The clock is read between calls of a Numba kernel that each evaluate about ``BATCH_SECONDS`` of rollouts,
    so the seed's per-evaluation stopping rule is applied per batch of evaluations.

    ``clock="wall"`` (the default, the competition's) measures elapsed time; ``clock="cpu"`` measures this
    thread's CPU time, like GVGAI's ElapsedCpuTimer in its CPU_TIME mode: on a machine shared with other work a
    decision then gets the search a dedicated core would give it, and takes longer in elapsed time.

    A game without a Numba forward model (a user's game, an OpenSpiel game, Sevens) is searched through the game
    API alone (evoplay.agents.generic_rollout), as is any game with ``model="api"``; each controller's Python
    search sits beside its kernel and draws the same random numbers in the same order.

    In a turn-based position the controller moves for the player to move, whatever seat ``restart`` gave it; at
    a simultaneous node it moves for its seat.

    A ``deadline`` (``Agent.deadline``) ends the search early, whichever budget it has: a time budget ends at the
    earlier of its own end (with its break) and the deadline, and a fixed iteration count runs in slices of ``DEADLINE_SLICE``
    rollout steps with the clock read between them (the first slice always runs), so under a deadline a count
    above that differs from the same decision without one.
    """

    kind = "controller"

    def __init__(self, game, budget_ms: float = 40.0, iterations: int = 0, break_ms: float = 0.0,
                 discount: float = 1.0, seed: int = 0, spec: str | None = None, clock: str = "wall",
                 model: str = "auto"):
        super().__init__(game)
        if model not in MODELS:
            raise SpecError(f"{self.kind}: model={model!r} is not one of {', '.join(MODELS)} (auto: the Numba "
                            f"forward model where the game has one, else the game API; api: always the game API)")
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
        fm = fast_model(game) if model == "auto" else None
        self.fast = fm is not None  # False: the game API alone (evoplay.agents.generic_rollout)
        self.model = "numba" if self.fast else "api"
        self.decisions = 0
        self.evaluations = 0  # rollouts in all decisions since construction
        self.last_evaluations = 0
        self.last_seconds = 0.0
        if self.fast:
            self.params = fm.params
            self.mask = mask_buffer(self.params)
            self._warm(fm)
        else:
            generic_rollout.warm()

    def _warm(self, fm) -> None:
        """Compile (or load from Numba's cache) the kernels before the first timed decision (on a generator of
        its own: the agent's seeds are left for its decisions, as on the game API path, which needs no warming)."""
        actions = fm.available_actions(0)
        seeds, self._rng = self._rng, np.random.default_rng(0)
        self._search(fm.buf, np.array(actions, np.int64), 0, lambda: 0.0, 1)
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
            fm = forward_model(state)
            root, actions = fm.buf, fm.available_actions(player)
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
        """Return (action, evaluations). ``root`` is a forward-model buffer when ``self.fast``, else the State
        itself. ``remaining()`` is the time left in seconds; ``iterations`` > 0 is a fixed number of evaluations
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
