"""Gems, a scored two-player simultaneous-move game: collect more gems than the other player in a fixed number of ticks.

Two players walk a grid with pillars; gems appear at random (seeded) empty cells so that ``gems`` of them lie on
the board at every tick. Each tick both players move at once (up, down, left, right, or nil: stay). A move into
a wall or pillar stays put; two players cannot share a cell: a move onto the cell the other player held at the
start of the tick, or onto the cell the other player moves to, is blocked. Stepping onto a gem scores a point.
After ``ticks`` ticks the higher score wins; equal scores draw. Points matter, not survival: the seed's
win/score heuristic sees the score at every step.

The position lives in a forward-model buffer (evoplay.games.forward): the board of (w+2) x (h+2) cells in
row-major order with a border of walls (0 empty, 1 wall, 2 gem), then each player's cell. Gem spawns use the
xorshift32 state in ``buf[RNG]``, seeded from the game seed. Controllers replace that state in their rollouts
with their own random numbers: where the next gem appears is not known to them in advance.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.spec import Param
from evoplay.errors import SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL, Game
from evoplay.games.forward import (
    BODY, DRAW, GRID_ACTIONS, GRID_OPPONENTS, PHASE, RNG, SCORE, TICK, WINNER, GridDuelState, grid_kernels, new_buffer,
    seed_word, xorshift32,
)
from evoplay.games.forward import DOWN, LEFT, NIL, RIGHT, UP  # noqa: F401 - this game's actions

ACTION_NAMES = GRID_ACTIONS
EMPTY, WALL, GEM = 0, 1, 2
P_W, P_H, P_TICKS, P_GEMS = 0, 1, 2, 3  # params: width and height with the border, ticks, gems


# --------------------------------------------------------------------------------------------------------------
# Plain-Python reference.
# --------------------------------------------------------------------------------------------------------------


def reference_spawn(params, buf) -> None:
    """Top the board up to ``gems`` gems, each on the k-th free cell, k drawn from the xorshift state."""
    width, height = int(params[P_W]), int(params[P_H])
    cells = width * height
    occupied = {int(buf[BODY + cells]), int(buf[BODY + cells + 1])}
    count = sum(1 for c in range(cells) if buf[BODY + c] == GEM)
    while count < int(params[P_GEMS]):
        free = [c for c in range(cells) if buf[BODY + c] == EMPTY and c not in occupied]
        if not free:
            return
        x = xorshift32(int(buf[RNG]))
        buf[RNG] = x & 0x7FFFFFFF
        buf[BODY + free[(x & 0x7FFFFFFF) % len(free)]] = GEM
        count += 1


def reference_step(params, buf, a0: int, a1: int) -> None:
    """One tick of both players on ``buf`` (a list or array) in place."""
    width, height = int(params[P_W]), int(params[P_H])
    cells = width * height
    offsets = (-width, width, -1, 1, 0)
    pos = [int(buf[BODY + cells]), int(buf[BODY + cells + 1])]
    targets = []
    for p, a in enumerate((int(a0), int(a1))):
        t = pos[p] + offsets[a]
        targets.append(pos[p] if buf[BODY + t] == WALL else t)
    moved = list(targets)
    if targets[0] == targets[1]:
        moved = list(pos)
    else:
        if targets[0] == pos[1]:
            moved[0] = pos[0]
        if targets[1] == pos[0]:
            moved[1] = pos[1]
    for p in range(2):
        buf[BODY + cells + p] = moved[p]
        if buf[BODY + moved[p]] == GEM:
            buf[BODY + moved[p]] = EMPTY
            buf[SCORE + p] += 1
    reference_spawn(params, buf)
    buf[TICK] += 1
    if buf[TICK] >= int(params[P_TICKS]):
        buf[PHASE] = TERMINAL
        s0, s1 = buf[SCORE], buf[SCORE + 1]
        buf[WINNER] = 0 if s0 > s1 else (1 if s1 > s0 else DRAW)


# --------------------------------------------------------------------------------------------------------------
# Numba kernels.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _xorshift(x):
    x = x & 0xFFFFFFFF
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x & 0xFFFFFFFF


@njit(cache=True)
def spawn(params, buf):
    """Kernel of ``reference_spawn``."""
    cells = params[P_W] * params[P_H]
    p0 = buf[BODY + cells]
    p1 = buf[BODY + cells + 1]
    count = 0
    free = 0
    for c in range(cells):
        v = buf[BODY + c]
        if v == GEM:
            count += 1
        elif v == EMPTY and c != p0 and c != p1:
            free += 1
    while count < params[P_GEMS] and free > 0:
        x = _xorshift(np.int64(buf[RNG])) & 0x7FFFFFFF
        buf[RNG] = x
        k = x % free
        for c in range(cells):
            if buf[BODY + c] == EMPTY and c != p0 and c != p1:
                if k == 0:
                    buf[BODY + c] = GEM
                    break
                k -= 1
        count += 1
        free -= 1


@njit(cache=True)
def step(params, buf, a0, a1):
    """Kernel of ``reference_step``."""
    width = params[P_W]
    cells = width * params[P_H]
    p0 = buf[BODY + cells]
    p1 = buf[BODY + cells + 1]
    t0 = p0 + (-width if a0 == 0 else (width if a0 == 1 else (-1 if a0 == 2 else (1 if a0 == 3 else 0))))
    t1 = p1 + (-width if a1 == 0 else (width if a1 == 1 else (-1 if a1 == 2 else (1 if a1 == 3 else 0))))
    if buf[BODY + t0] == WALL:
        t0 = p0
    if buf[BODY + t1] == WALL:
        t1 = p1
    m0 = t0
    m1 = t1
    if t0 == t1:
        m0 = p0
        m1 = p1
    else:
        if t0 == p1:
            m0 = p0
        if t1 == p0:
            m1 = p1
    buf[BODY + cells] = m0
    buf[BODY + cells + 1] = m1
    if buf[BODY + m0] == GEM:
        buf[BODY + m0] = EMPTY
        buf[SCORE] += 1
    if buf[BODY + m1] == GEM:
        buf[BODY + m1] = EMPTY
        buf[SCORE + 1] += 1
    spawn(params, buf)
    buf[TICK] += 1
    if buf[TICK] >= params[P_TICKS]:
        buf[PHASE] = TERMINAL
        if buf[SCORE] > buf[SCORE + 1]:
            buf[WINNER] = 0
        elif buf[SCORE + 1] > buf[SCORE]:
            buf[WINNER] = 1
        else:
            buf[WINNER] = DRAW


@njit(cache=True)
def apply(params, buf, joint):
    """The kernel protocol's ``apply``: the joint action ``a0 + 5 * a1``."""
    step(params, buf, joint % 5, joint // 5)


@njit(cache=True)
def hide(params, buf, seed):
    """A search's copy gets its own gem spawns: where the next gems appear is not known in advance."""
    buf[RNG] = seed


# --------------------------------------------------------------------------------------------------------------
# The game and its state.
# --------------------------------------------------------------------------------------------------------------


class GemsGame(Game):
    name = "gems"
    view = "grid"
    default_opponent = GRID_OPPONENTS[0]
    suggested_opponents = GRID_OPPONENTS
    summary = "Gems, simultaneous moves: collect more gems than the other player in a fixed number of ticks"
    parameters = (
        Param("w", int, 9, "grid columns inside the walls", min=3, max=60, why="the grid"),
        Param("h", int, 9, "grid rows inside the walls", min=3, max=40, why="the grid"),
        Param("ticks", int, 60, "ticks (simultaneous moves) in a game", min=1, max=100_000, why="a game's length"),
        Param("gems", int, 4, "gems on the board at every tick (they reappear at random, seeded)"),
        Param("pillars", int, 50, "percent of the pillar sites (odd interior cells) that hold a pillar",
              min=0, max=100, why="a percentage"),
    )
    num_players = 2

    def __init__(self, spec: str | None = None, params: dict | None = None, **values):
        super().__init__(spec, params, **values)  # a plain call builds the default game
        params = self.params
        self.w, self.h = int(params["w"]), int(params["h"])
        self.ticks, self.gems, self.pillars = int(params["ticks"]), int(params["gems"]), int(params["pillars"])
        if not 1 <= self.gems <= self.w * self.h // 2:
            raise SpecError(f"gems: gems={self.gems} is out of range; use 1..{self.w * self.h // 2}")
        self.width, self.height = self.w + 2, self.h + 2
        p = np.zeros(4, dtype=np.int64)
        p[P_W], p[P_H], p[P_TICKS], p[P_GEMS] = self.width, self.height, self.ticks, self.gems
        self.params_array = p

    def num_distinct_actions(self) -> int:
        return len(ACTION_NAMES)

    def kernels(self):
        """The rules as kernels over the buffer (evoplay.games.forward.grid_kernels); a rollout's copy draws where
        the next gems appear from its own seed (``hide``)."""
        return grid_kernels(self, apply, hide)

    def feature_names(self) -> list[str]:
        """What a player sees, turned so both seats see alike (player 1's view is the board rotated 180 degrees):
        each inner cell (``cell_r_c``, row r and column c from the top left: 1 gem, -1 pillar, 0 empty), then its
        own row, column and distance (steps, ignoring pillars) to the nearest gem, the same for the opponent,
        both scores and the ticks left."""
        cells = [f"cell_{r}_{c}" for r in range(self.h) for c in range(self.w)]
        return cells + ["my_row", "my_col", "my_gem_distance", "opp_row", "opp_col", "opp_gem_distance",
                        "my_score", "opp_score", "ticks_left"]

    def new_initial_state(self, seed: int | None = None) -> "GemsState":
        width, height = self.width, self.height
        cells = width * height
        buf = new_buffer(cells + 2)
        board = buf[BODY : BODY + cells].reshape(height, width)
        board[0, :] = board[-1, :] = board[:, 0] = board[:, -1] = WALL
        # Pillars stand on cells with both interior coordinates odd (as in Bomberman), so they never cut the
        # board in two; a point-symmetric choice of them keeps the seats fair.
        rng = np.random.default_rng(seed)
        sites = [r * width + c for r in range(2, height - 2, 2) for c in range(2, width - 2, 2)]
        for c in sites:
            mirror = cells - 1 - c
            if c <= mirror and rng.random() * 100 < self.pillars:
                board.flat[c] = board.flat[mirror] = WALL
        s0 = width + 1
        buf[BODY + cells], buf[BODY + cells + 1] = s0, cells - 1 - s0
        buf[RNG] = seed_word(seed)
        buf[PHASE], buf[WINNER] = SIMULTANEOUS, -1
        spawn(self.params_array, buf)
        return GemsState(self, buf)


class GemsState(GridDuelState):
    """A gems position; the shared simultaneous-move API lives in ``GridDuelState``."""

    step = staticmethod(step)
    marks = ".#*"  # rows(): '#' wall or pillar, '.' empty, '*' gem; 'A'/'B' the players

    def features(self, player: int) -> np.ndarray:
        """``GemsGame.feature_names`` from ``player``'s side (the whole board is public; future gems are not)."""
        g = self.game
        cells = g.width * g.height
        grid = self.interior(player)
        view = np.where(grid == GEM, 1.0, np.where(grid == WALL, -1.0, 0.0))
        gem_rows, gem_cols = np.nonzero(grid == GEM)
        out = np.empty(g.w * g.h + 9, np.float64)
        out[: g.w * g.h] = view.reshape(-1)
        k = g.w * g.h
        for who in (player, 1 - player):
            row, col = self.seen_from(player, int(self.buf[BODY + cells + who]))
            dist = int((np.abs(gem_rows - row) + np.abs(gem_cols - col)).min()) if len(gem_rows) else g.w + g.h
            out[k : k + 3] = row, col, dist
            k += 3
        out[k] = self.buf[SCORE + player]
        out[k + 1] = self.buf[SCORE + 1 - player]
        out[k + 2] = g.ticks - int(self.buf[TICK])
        return out

    def __str__(self) -> str:
        lines = self.rows()
        s0, s1 = int(self.buf[SCORE]), int(self.buf[SCORE + 1])
        if self.is_terminal():
            w = int(self.buf[WINNER])
            verdict = "draw" if w == DRAW else f"player {w} ({'AB'[w]}) wins"
            lines.append(f"game over after {self.game.ticks} ticks: A {s0}, B {s1}: {verdict}")
        else:
            lines.append(f"tick {int(self.buf[TICK])}/{self.game.ticks}: A (player 0) {s0}, B (player 1) {s1}")
        return "\n".join(lines)
