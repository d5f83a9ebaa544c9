"""The two-player grid duels' position (tron, gems): one integer buffer, GVGAI's forward model, handed to every
search as kernels.

A position is one int32 array ``buf``: a header -- ``buf[PHASE]`` (SIMULTANEOUS while the game runs, TERMINAL at
its end), ``buf[WINNER]`` (-1 while running, 0 or 1 the winner, DRAW), ``buf[SCORE:SCORE+2]`` each player's score,
``buf[TICK]`` steps played, ``buf[RNG]`` the game's own random state (gem spawns) -- then the board from ``BODY``
on. A game's ``step(params, buf, a0, a1)`` kernel plays one joint action in place; ``params`` (int64) holds what
does not change during a game (the grid's width and height, ...).

Both players pick one of up, down, left, right, nil (do nothing) each tick. ``grid_kernels`` turns a game's
``step`` into the kernels of evoplay's kernel protocol (evoplay.games.kernels), so rs, rhea, mcts and lookahead
search it inside Numba; ``GridDuelState`` is the Python State over the same buffer.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL, State

# The header of ``buf``.
PHASE, WINNER, SCORE, TICK, RNG = 0, 1, 2, 4, 5
BODY = 8
DRAW = 2  # buf[WINNER] of a drawn game; -1 while running


def new_buffer(body: int) -> np.ndarray:
    """An empty position with ``body`` board numbers after the header."""
    return np.zeros(BODY + body, dtype=np.int32)


def xorshift32(x: int) -> int:
    """One step of Marsaglia's xorshift32 (the games' own seeded randomness; never returns 0 for x != 0)."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x & 0xFFFFFFFF


def seed_word(seed: int | None) -> int:
    """A non-zero 31-bit xorshift state from a game seed."""
    s = int(np.random.SeedSequence(0 if seed is None else int(seed) & 0xFFFFFFFFFFFFFFFF).generate_state(1)[0])
    return (s & 0x7FFFFFFF) or 1


# --------------------------------------------------------------------------------------------------------------
# The kernels every grid duel shares (its own are ``step`` and, for a game with hidden dice, ``hide``).
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def grid_mover(params, buf):
    return np.int64(buf[PHASE])


@njit(cache=True)
def grid_legal(params, buf, player, mask):
    """Every one of the five actions for either player while the game runs."""
    mask[:] = 0
    if buf[PHASE] == TERMINAL or player < 0 or player > 1:
        return 0
    mask[:5] = 1
    return 5


@njit(cache=True)
def grid_returns(params, buf, out):
    out[0] = 0.0
    out[1] = 0.0
    if buf[PHASE] == TERMINAL and buf[WINNER] != DRAW:
        out[0] = 1.0 if buf[WINNER] == 0 else -1.0
        out[1] = -out[0]


@njit(cache=True)
def grid_scores(params, buf, out):
    out[0] = buf[SCORE]
    out[1] = buf[SCORE + 1]


def grid_kernels(game, apply, hide=None):
    """The kernels of a grid duel whose ``apply(params, buf, joint)`` plays ``step`` on the joint action
    ``a0 + 5 * a1``; ``hide(params, buf, seed)`` where its random state must be drawn afresh in a rollout."""
    from evoplay.games.kernels import Kernels

    return Kernels(size=len(game.new_initial_state(0).buf), actions=len(GRID_ACTIONS), encode=grid_encode, legal=grid_legal, apply=apply,
                   mover=grid_mover, returns=grid_returns, scores=grid_scores, hide=hide, params=game.params_array,
                   dtype=np.int32, simultaneous=True)


def grid_encode(state) -> np.ndarray:
    return state.buf.copy()


# --------------------------------------------------------------------------------------------------------------
# The state of a two-player grid duel (tron, gems): what the common Game/State API adds to the buffer.
# --------------------------------------------------------------------------------------------------------------

UP, DOWN, LEFT, RIGHT, NIL = 0, 1, 2, 3, 4
GRID_ACTIONS = ("up", "down", "left", "right", "nil")
GRID_ALIASES = {"u": UP, "w": UP, "up": UP, "d": DOWN, "s": DOWN, "down": DOWN, "l": LEFT, "a": LEFT,
                "left": LEFT, "r": RIGHT, "right": RIGHT, "n": NIL, "nil": NIL, "stay": NIL, ".": NIL, "": NIL}


#: the opponents a person meets on a grid duel (the rollout controllers within a tick's 40 ms), the first by default
GRID_OPPONENTS = ("rs(budget_ms=40,depth=10)", "rhea(budget_ms=40)", "mcts(budget_ms=40)", "lookahead(budget_ms=40)",
                  "random")


class GridDuelState(State):
    """A simultaneous-move position on a grid: both players pick one of up, down, left, right, nil each tick.

    Subclasses set ``step`` (the game's Numba kernel ``step(params, buf, a0, a1)``) and ``marks`` (the character of
    each cell code in ``rows()``).
    """

    __slots__ = ("game", "buf", "history")
    step = None  # set by the subclass: the game's kernel
    marks = ".#"  # set by the subclass: the character of each cell code

    def __init__(self, game, buf: np.ndarray):
        self.game = game
        self.buf = buf
        self.history: list[tuple[int, int]] = []

    def current_player(self) -> int:
        return int(self.buf[PHASE])

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal() or (player is not None and player not in (0, 1)):
            return []
        return list(range(len(GRID_ACTIONS)))  # the same five actions for both players, NIL last

    def _legal_actions(self) -> list[int]:
        return list(range(len(GRID_ACTIONS)))

    def apply_action(self, action: int) -> None:
        raise IllegalActionError(f"{self.game.name} is a simultaneous game: use apply_actions([first, second])")

    def apply_actions(self, actions) -> None:
        name = self.game.name
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; no action can be applied ({name})")
        if len(actions) != 2 or any(int(a) not in range(len(GRID_ACTIONS)) for a in actions):
            raise IllegalActionError(f"{name} needs one action per player, each 0..4 (up, down, left, right, nil); "
                                     f"got {list(actions)!r}")
        type(self).step(self.game.params_array, self.buf, int(actions[0]), int(actions[1]))
        self.history.append((int(actions[0]), int(actions[1])))

    def _action_to_string(self, action: int) -> str:
        return GRID_ACTIONS[action]

    def _string_to_action(self, text: str) -> int:
        key = text.lower()
        if key in GRID_ALIASES:
            return GRID_ALIASES[key]
        raise IllegalActionError(
            f"{text!r} is not a {self.game.name} action; type up, down, left, right or nil (or w a s d)"
        )

    def returns(self) -> list[float]:
        w = int(self.buf[WINNER])
        if self.current_player() != TERMINAL or w == DRAW:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def scores(self) -> list[float]:
        return [float(self.buf[SCORE]), float(self.buf[SCORE + 1])]

    def clone(self):
        s = type(self)(self.game, self.buf.copy())
        s.history = list(self.history)
        return s

    def positions(self) -> tuple[int, int]:
        """The two players' cells (the cycles' heads in tron)."""
        cells = self.game.width * self.game.height
        return int(self.buf[BODY + cells]), int(self.buf[BODY + cells + 1])

    def rows(self) -> list[str]:
        """The board as text: each cell's character (``marks``), 'A' and 'B' where the players are."""
        g = self.game
        chars = [self.marks[int(v)] for v in self.buf[BODY : BODY + g.width * g.height]]
        a, b = self.positions()
        chars[a], chars[b] = "A", "B"
        return ["".join(chars[r * g.width : (r + 1) * g.width]) for r in range(g.height)]

    def view_fields(self, player: int) -> dict:
        """The web app's grid drawing (``Game.view = "grid"``, played in real time): the rows, the scores, the tick
        (of ``ticks`` where the game has a length), ``player``'s letter and the state's last line."""
        return {"rows": self.rows(), "scores": self.scores(), "tick": int(self.buf[TICK]),
                "ticks": getattr(self.game, "ticks", None), "your_mark": "AB"[player],
                "text": str(self).splitlines()[-1]}

    def interior(self, player: int) -> np.ndarray:
        """The cell codes inside the walls as an (h, w) array seen from ``player``'s side: turned half round for
        player 1, so that both players see themselves starting in the same corner (the features' view)."""
        if player not in (0, 1):
            raise SpecError(f"{self.game.name} has players 0 and 1, not {player}")
        g = self.game
        grid = self.buf[BODY : BODY + g.width * g.height].reshape(g.height, g.width)[1:-1, 1:-1]
        return grid[::-1, ::-1] if player == 1 else grid

    def seen_from(self, player: int, cell: int) -> tuple[int, int]:
        """(row, column) inside the walls of board ``cell``, from ``player``'s side (see ``interior``)."""
        g = self.game
        row, col = divmod(cell, g.width)
        row, col = row - 1, col - 1
        return (g.h - 1 - row, g.w - 1 - col) if player == 1 else (row, col)
