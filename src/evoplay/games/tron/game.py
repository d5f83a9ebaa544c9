"""Tron light cycles, a two-player simultaneous-move game: a Python reference and Numba kernels.

Both cycles move one cell every tick and leave a trail. Running into a wall, a trail (either player's) or the
other cycle's head crashes; if one cycle crashes the other wins, if both crash in the same tick (head-on, or
swapping cells) the game is a draw. A cycle cannot turn back on itself: the reverse of its heading, like NIL,
keeps it going straight. A player's score is the length of its trail.

The position lives in a forward-model buffer (evoplay.games.forward): the board of (w+2) x (h+2) cells in
row-major order with a border of walls (0 empty, 1 wall, 2 the first player's trail, 3 the second's), then each
cycle's cell and heading. Actions: 0 up, 1 down, 2 left, 3 right, 4 nil (keep going). Optional obstacles are
placed point-symmetrically from the game seed, so neither seat is favoured.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.spec import Param
from evoplay.errors import SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL, Game
from evoplay.games.forward import (
    BODY, DRAW, GRID_ACTIONS, GRID_OPPONENTS, PHASE, SCORE, TICK, WINNER, GridDuelState, grid_kernels, new_buffer,
)
from evoplay.games.forward import DOWN, LEFT, NIL, RIGHT, UP  # noqa: F401 - this game's actions

ACTION_NAMES = GRID_ACTIONS
EMPTY, WALL, TRAIL0, TRAIL1 = 0, 1, 2, 3
P_W, P_H = 0, 1  # params: the board's width and height including the border


def _offsets(width: int) -> tuple[int, int, int, int]:
    return (-width, width, -1, 1)


# --------------------------------------------------------------------------------------------------------------
# Plain-Python reference.
# --------------------------------------------------------------------------------------------------------------


def reference_step(params, buf, a0: int, a1: int) -> None:
    """One tick of both cycles on ``buf`` (a list or array) in place."""
    width, height = int(params[P_W]), int(params[P_H])
    cells = width * height
    pos = [int(buf[BODY + cells]), int(buf[BODY + cells + 1])]
    heading = [int(buf[BODY + cells + 2]), int(buf[BODY + cells + 3])]
    offsets = _offsets(width)
    targets = []
    for p, a in enumerate((int(a0), int(a1))):
        if a != NIL and a != (heading[p] ^ 1):  # the reverse of a heading is heading ^ 1
            heading[p] = a
        targets.append(pos[p] + offsets[heading[p]])
    crashed = [buf[BODY + t] != EMPTY for t in targets]
    if targets[0] == targets[1]:
        crashed = [True, True]
    for p in range(2):
        buf[BODY + cells + 2 + p] = heading[p]
        if not crashed[p]:
            buf[BODY + targets[p]] = TRAIL0 + p
            buf[BODY + cells + p] = targets[p]
            buf[SCORE + p] += 1
    buf[TICK] += 1
    if crashed[0] or crashed[1]:
        buf[PHASE] = TERMINAL
        buf[WINNER] = DRAW if crashed[0] and crashed[1] else (1 if crashed[0] else 0)


# --------------------------------------------------------------------------------------------------------------
# Numba kernel.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def step(params, buf, a0, a1):
    """Kernel of ``reference_step``."""
    width = params[P_W]
    cells = width * params[P_H]
    h0 = buf[BODY + cells + 2]
    h1 = buf[BODY + cells + 3]
    if a0 != NIL and a0 != (h0 ^ 1):
        h0 = a0
    if a1 != NIL and a1 != (h1 ^ 1):
        h1 = a1
    t0 = buf[BODY + cells] + (-width if h0 == 0 else (width if h0 == 1 else (-1 if h0 == 2 else 1)))
    t1 = buf[BODY + cells + 1] + (-width if h1 == 0 else (width if h1 == 1 else (-1 if h1 == 2 else 1)))
    c0 = buf[BODY + t0] != EMPTY or t0 == t1
    c1 = buf[BODY + t1] != EMPTY or t0 == t1
    buf[BODY + cells + 2] = h0
    buf[BODY + cells + 3] = h1
    if not c0:
        buf[BODY + t0] = TRAIL0
        buf[BODY + cells] = t0
        buf[SCORE] += 1
    if not c1:
        buf[BODY + t1] = TRAIL1
        buf[BODY + cells + 1] = t1
        buf[SCORE + 1] += 1
    buf[TICK] += 1
    if c0 or c1:
        buf[PHASE] = TERMINAL
        if c0 and c1:
            buf[WINNER] = DRAW
        elif c0:
            buf[WINNER] = 1
        else:
            buf[WINNER] = 0


@njit(cache=True)
def apply(params, buf, joint):
    """The kernel protocol's ``apply``: the joint action ``a0 + 5 * a1``."""
    step(params, buf, joint % 5, joint // 5)


# --------------------------------------------------------------------------------------------------------------
# The game and its state.
# --------------------------------------------------------------------------------------------------------------


class TronGame(Game):
    name = "tron"
    view = "grid"
    default_opponent = GRID_OPPONENTS[0]
    suggested_opponents = GRID_OPPONENTS
    summary = "Tron light cycles, simultaneous moves: leave a trail, hit a wall or trail and lose"
    parameters = (
        Param("w", int, 12, "grid columns inside the walls", min=4, max=60, why="the grid"),
        Param("h", int, 12, "grid rows inside the walls", min=3, max=40, why="the grid"),
        Param("obstacles", int, 0, "wall cells placed point-symmetrically from the game seed"),
    )
    num_players = 2

    def __init__(self, spec: str | None = None, params: dict | None = None, **values):
        super().__init__(spec, params, **values)  # a plain call builds the default game
        params = self.params
        self.w, self.h, self.obstacles = int(params["w"]), int(params["h"]), int(params["obstacles"])
        if not 0 <= self.obstacles <= self.w * self.h // 4:
            raise SpecError(f"tron: obstacles={self.obstacles} is out of range; use 0..{self.w * self.h // 4}")
        self.width, self.height = self.w + 2, self.h + 2
        self.params_array = np.zeros(2, dtype=np.int64)
        self.params_array[P_W], self.params_array[P_H] = self.width, self.height

    def num_distinct_actions(self) -> int:
        return len(ACTION_NAMES)

    def kernels(self):
        """The rules as kernels over the buffer (evoplay.games.forward.grid_kernels): searches run in Numba."""
        return grid_kernels(self, apply)

    def feature_names(self) -> list[str]:
        """What a player sees, turned so both seats see alike (player 1's view is the board rotated 180 degrees):
        each inner cell (``cell_r_c``, row r and column c from the top left, 1 wall or trail, 0 free), then its
        own head (row, column, heading 0 up 1 down 2 left 3 right) and free neighbours, the same for the
        opponent, both trail lengths and the tick."""
        cells = [f"cell_{r}_{c}" for r in range(self.h) for c in range(self.w)]
        return cells + ["my_row", "my_col", "my_heading", "my_free", "opp_row", "opp_col", "opp_heading", "opp_free",
                        "my_length", "opp_length", "tick"]

    def start_cells(self) -> tuple[int, int]:
        row = (self.height - 1) // 2
        first = row * self.width + 1 + (self.w - 1) // 4
        return first, self.width * self.height - 1 - first

    def new_initial_state(self, seed: int | None = None) -> "TronState":
        width, height = self.width, self.height
        cells = width * height
        buf = new_buffer(cells + 4)
        board = buf[BODY : BODY + cells].reshape(height, width)
        board[0, :] = board[-1, :] = board[:, 0] = board[:, -1] = WALL
        s0, s1 = self.start_cells()
        if self.obstacles:
            rng = np.random.default_rng(seed)
            # Point-symmetric pairs of obstacles, never on the starting rows (each cycle has room to start).
            start_rows = (s0 // width, s1 // width)
            free = [c for c in range(cells) if board.flat[c] == EMPTY and c // width not in start_rows
                    and c < cells - 1 - c]
            for c in rng.choice(free, size=min(len(free), (self.obstacles + 1) // 2), replace=False):
                board.flat[c] = board.flat[cells - 1 - c] = WALL
        board.flat[s0], board.flat[s1] = TRAIL0, TRAIL1
        buf[BODY + cells], buf[BODY + cells + 1] = s0, s1
        buf[BODY + cells + 2], buf[BODY + cells + 3] = RIGHT, LEFT
        buf[SCORE], buf[SCORE + 1] = 1, 1
        buf[PHASE], buf[WINNER] = SIMULTANEOUS, -1
        return TronState(self, buf)


class TronState(GridDuelState):
    """A tron position; the shared simultaneous-move API lives in ``GridDuelState``."""

    step = staticmethod(step)
    marks = ".#ab"  # rows(): '#' wall, '.' empty, 'a'/'b' trails; 'A'/'B' the cycles

    def features(self, player: int) -> np.ndarray:
        """``TronGame.feature_names`` from ``player``'s side (the whole board is public)."""
        g = self.game
        width, cells = g.width, g.width * g.height
        board = self.buf[BODY : BODY + cells]
        blocked = (self.interior(player) != EMPTY).astype(np.float64)
        out = np.empty(g.w * g.h + 11, np.float64)
        out[: g.w * g.h] = blocked.reshape(-1)
        k = g.w * g.h
        for who in (player, 1 - player):
            cell = int(self.buf[BODY + cells + who])
            heading = int(self.buf[BODY + cells + 2 + who])
            row, col = self.seen_from(player, cell)
            if player == 1:
                heading ^= 1
            free = sum(1 for d in (-width, width, -1, 1) if board[cell + d] == EMPTY)
            out[k : k + 4] = row, col, heading, free
            k += 4
        out[k] = self.buf[SCORE + player]
        out[k + 1] = self.buf[SCORE + 1 - player]
        out[k + 2] = self.buf[TICK]
        return out

    def heads(self) -> tuple[int, int]:
        """The cells of the two cycles' heads."""
        return self.positions()

    def __str__(self) -> str:
        lines = self.rows()
        if self.is_terminal():
            w = int(self.buf[WINNER])
            lines.append("game over: " + ("draw (both crashed)" if w == DRAW else f"player {w} ({'AB'[w]}) wins"))
        else:
            lines.append(f"tick {int(self.buf[TICK])}: A = player 0, B = player 1")
        return "\n".join(lines)
