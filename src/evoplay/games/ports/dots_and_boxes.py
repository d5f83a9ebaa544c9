"""OpenSpiel's dots_and_boxes, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/dots_and_boxes/dots_and_boxes.cc, with its parameters ``num_rows`` and ``num_cols`` (boxes) and
``utility_margin``. The lines are the actions: first the horizontal ones, ``row * num_cols + col`` for rows
0..num_rows and columns 0..num_cols-1, then the vertical ones, ``(num_rows + 1) * num_cols + row * (num_cols + 1) +
col``; OpenSpiel writes them ``P1(h,row,col)`` and ``P2(v,row,col)``. Player 0 (``1``) moves first; whoever draws a
box's fourth side takes it (one or two boxes a line) and moves again, else the turn passes. When every line is
drawn the game ends: more boxes win (returns 1 and -1, equal counts draw), or with ``utility_margin`` the returns
are the difference in boxes. OpenSpiel keeps three grids of (num_rows + 1) x (num_cols + 1) cells: who drew the
horizontal line right of each dot, who drew the vertical line below it, who took the box below and right of it
(OpenSpiel's ``CellState``: 0 nobody, 1 player 0, 2 player 1); the observation tensor is (cell state, cell, grid),
the same for both players. The kernels' position is the three grids, the player to move (or TERMINAL), each
player's boxes and the lines drawn.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, TRIES, PortGame, PortState, cells_hash, draw, drawn_from, encode_state,
                                     seat_features, totals_returned, totals_returns)

EMPTY = 0
MAX_SIDE = 100  # the port plays boards of up to this many boxes a side


# --- the rules, plain Python ---------------------------------------------------------------------------------
def corner(state: int, row: int, col: int, rows: int, cols: int) -> str:
    """OpenSpiel's ``StateToStringH``: the dot at (row, col) and the horizontal line right of it."""
    line = "╴ ╶" if state == EMPTY else "───"
    if col == cols:
        return "┐" if row == 0 else "┘" if row == rows else "┤"
    if col == 0:
        return ("┌" if row == 0 else "└" if row == rows else "├") + line
    return ("┬" if row == 0 else "┴" if row == rows else "┼") + line


class DotsAndBoxesState(PortState):
    def __init__(self, game):
        super().__init__(game)
        cells = game.cells
        self.h, self.v, self.p = [EMPTY] * cells, [EMPTY] * cells, [EMPTY] * cells
        self.player = 0
        self.points = [0, 0]
        self.drawn = 0

    def over(self) -> bool:
        return self.drawn == self.game.lines

    def current_player(self) -> int:
        return TERMINAL if self.over() else self.player

    def _legal_actions(self) -> list[int]:
        g = self.game
        stride = g.cols + 1
        return ([r * g.cols + c for r in range(g.rows + 1) for c in range(g.cols) if self.h[r * stride + c] == EMPTY]
                + [g.horizontal + r * stride + c for r in range(g.rows) for c in range(stride)
                   if self.v[r * stride + c] == EMPTY])

    def _do_apply_action(self, action: int) -> None:
        g = self.game
        h, v, p, stride = self.h, self.v, self.p, g.cols + 1
        mark = self.player + 1
        took = False
        if action < g.horizontal:
            row, col = divmod(action, g.cols)
            cell = row * stride + col
            h[cell] = mark
            boxes = [cell - stride] if row > 0 else []  # the box above, then the box below
            if row < g.rows:
                boxes.append(cell)
        else:
            row, col = divmod(action - g.horizontal, stride)
            cell = row * stride + col
            v[cell] = mark
            boxes = [cell - 1] if col > 0 else []  # the box left, then the box right
            if col < g.cols:
                boxes.append(cell)
        for box in boxes:
            if h[box] and h[box + stride] and v[box] and v[box + 1]:
                p[box] = mark
                self.points[self.player] += 1
                took = True
        if not took:
            self.player = 1 - self.player
        self.drawn += 1

    def returns(self) -> list[float]:
        if not self.over():
            return [0.0, 0.0]
        if self.game.margin:
            margin = float(self.points[0] - self.points[1])
            return [margin, -margin]
        return totals_returns(*self.points)

    def observation(self, player: int) -> list[float]:
        cells = self.game.cells
        tensor = [0.0] * (9 * cells)
        for cell in range(cells):
            tensor[self.h[cell] * 3 * cells + cell * 3] = 1.0
            tensor[self.v[cell] * 3 * cells + cell * 3 + 1] = 1.0
            tensor[self.p[cell] * 3 * cells + cell * 3 + 2] = 1.0
        return tensor

    def action_string(self, player: int, action: int) -> str:
        g = self.game
        if action < g.horizontal:
            (row, col), way = divmod(action, g.cols), "h"
        else:
            (row, col), way = divmod(action - g.horizontal, g.cols + 1), "v"
        return f"P{player + 1}({way},{row},{col})"

    def transposition_key(self):
        return self.current_player(), tuple(self.h), tuple(self.v), tuple(self.p)

    def encode(self) -> np.ndarray:
        return np.array(self.h + self.v + self.p + [self.current_player()] + self.points + [self.drawn], np.int16)

    def __str__(self) -> str:
        g = self.game
        rows, cols, stride = g.rows, g.cols, g.cols + 1
        out = []
        for r in range(rows + 1):
            out.append("".join(corner(self.h[r * stride + c], r, c, rows, cols) for c in range(stride)) + "\n")
            if r == rows:
                break
            for c in range(stride):
                out.append(" " if self.v[r * stride + c] == EMPTY else "│")
                if c < cols:
                    out.append(("   ", " 1 ", " 2 ")[self.p[r * stride + c]])
            out.append("\n")
        return "".join(out)


# --- the same rules as kernels (params: num_rows, num_cols, utility_margin, cells, lines, then per line its place in
# the position and the boxes it borders, -1 for none: a table, so no move divides) ---------------------------------
LINE_TABLE = 5  # where the lines' table starts in params


@njit(cache=True, inline="always")
def layout(params):
    """(cells, all lines, the index of the player to move, of player 0's boxes, of the lines drawn); the grids are
    h, v, p at 0, cells, 2 * cells."""
    cells = params[3]
    return cells, params[4], 3 * cells, 3 * cells + 1, 3 * cells + 3


def line_table(rows: int, cols: int) -> list[int]:
    """Per line (OpenSpiel's action order): its number's index in the position (h grid, then v grid) and the boxes
    it borders (the cell of each box's top-left dot; above then below, or left then right; -1 off the board)."""
    stride, cells = cols + 1, (rows + 1) * (cols + 1)
    out = []
    for row in range(rows + 1):
        for col in range(cols):
            cell = row * stride + col
            out += [cell, cell - stride if row > 0 else -1, cell if row < rows else -1]
    for row in range(rows):
        for col in range(cols + 1):
            cell = row * stride + col
            out += [cells + cell, cell - 1 if col > 0 else -1, cell if col < cols else -1]
    return out


@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0


@njit(cache=True)
def mover(params, state):
    return np.int64(state[layout(params)[2]])


@njit(cache=True, inline="always")
def drawn_by(params, state, action):
    """Who drew the line ``action`` (0: nobody yet)."""
    return state[params[LINE_TABLE + 3 * action]]


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    _, lines, at_player, _, _ = layout(params)
    if state[at_player] != player:
        return 0
    n = 0
    for a in range(lines):
        if drawn_by(params, state, a) == EMPTY:
            mask[a] = 1
            n += 1
    return n


@njit(cache=True)
def moves(params, state, out):
    _, lines, at_player, _, _ = layout(params)
    if state[at_player] < 0:
        return 0
    n = 0
    for a in range(lines):
        if drawn_by(params, state, a) == EMPTY:
            out[n] = a
            n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random move: a random line until it is not drawn yet (``TRIES`` at most), else the ``k``-th line
    not drawn yet for a random ``k``; -1 when every line is drawn. (No ``if`` around a draw and no early return:
    either makes Numba count references to the position atomically on every call, which costs more than the move.)"""
    _, lines, at_player, _, at_drawn = layout(params)
    playing = state[at_player] >= 0
    a = draw(rng, lines)
    tries = 1
    while playing and tries < TRIES and drawn_by(params, state, a) != EMPTY:
        a = draw(rng, lines)
        tries += 1
    while playing and drawn_by(params, state, a) != EMPTY:  # at most once: TRIES misses on a crowded board
        k = draw(rng, lines - state[at_drawn])
        a = -1
        while k >= 0:
            a += 1
            k -= drawn_by(params, state, a) == EMPTY
    return a if playing else -1


def python_random_move(state: DotsAndBoxesState, draw) -> int:
    """``random_move`` in plain Python (``draw(n)``: a uniformly random integer in [0, n), the kernel's generator)."""
    lines = state.game.lines
    for _ in range(TRIES):
        line = draw(lines)
        if line in state.legal_actions():
            return line
    legal = state.legal_actions()
    return legal[draw(len(legal))]


@njit(cache=True)
def apply(params, state, action):
    cells, lines, at_player, at_points, at_drawn = layout(params)
    stride = params[1] + 1
    player = state[at_player]
    mark = player + 1
    row = LINE_TABLE + 3 * action
    state[params[row]] = mark
    took = 0
    for k in (1, 2):
        box = params[row + k]
        if box >= 0 and (state[box] != EMPTY and state[box + stride] != EMPTY and state[cells + box] != EMPTY
                         and state[cells + box + 1] != EMPTY):  # its four sides drawn: the box is taken
            state[2 * cells + box] = mark
            took += 1
    state[at_points + player] += took
    state[at_drawn] += 1
    if state[at_drawn] == lines:
        state[at_player] = TERMINAL
    elif took == 0:
        state[at_player] = 1 - player


@njit(cache=True)
def returns(params, state, out):
    _, lines, _, at_points, at_drawn = layout(params)
    out[0] = 0.0
    out[1] = 0.0
    if state[at_drawn] == lines:
        if params[2]:
            margin = np.float64(state[at_points] - state[at_points + 1])
            out[0] = margin
            out[1] = -margin
        else:
            totals_returned(state[at_points], state[at_points + 1], out)


@njit(cache=True)
def observation(params, state, player, out):
    cells = layout(params)[0]
    out[:] = 0.0
    for cell in range(cells):
        for part in range(3):
            out[state[part * cells + cell] * 3 * cells + cell * 3 + part] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    cells, _, at_player, _, _ = layout(params)
    return cells_hash(state[:3 * cells], state[at_player], 0)


# --- the game ----------------------------------------------------------------------------------------------------
class DotsAndBoxes(PortGame):
    """OpenSpiel's dots_and_boxes, ported (num_rows, num_cols, utility_margin)."""

    openspiel_name = "dots_and_boxes"
    plays = f"num_rows and num_cols (1..{MAX_SIDE} each), utility_margin"

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        rows, cols = settings["num_rows"], settings["num_cols"]
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            return f"num_rows={rows}, num_cols={cols}: the port plays 1..{MAX_SIDE} of each"
        return None

    def setup(self, settings: dict) -> None:
        self.rows, self.cols = int(settings["num_rows"]), int(settings["num_cols"])
        self.margin = bool(settings["utility_margin"])
        self.cells = (self.rows + 1) * (self.cols + 1)
        self.horizontal = (self.rows + 1) * self.cols
        self.lines = self.horizontal + self.rows * (self.cols + 1)

    def new_initial_state(self, seed: int | None = None) -> DotsAndBoxesState:
        return DotsAndBoxesState(self)

    def kernels(self):
        return self.port_kernels(size=3 * self.cells + 4, encode=encode_state, legal=legal, apply=apply,
                                 mover=mover, returns=returns, features=features, initial=initial,
                                 state_hash=state_hash, moves=moves, random_move=random_move,
                                 params=[self.rows, self.cols, int(self.margin), self.cells, self.lines]
                                 + line_table(self.rows, self.cols), dtype=np.int16)
