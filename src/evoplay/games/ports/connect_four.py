"""OpenSpiel's connect_four, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/connect_four/connect_four.cc, with its parameters ``rows``, ``columns``, ``x_in_row`` and
``egocentric_obs_tensor``: the actions are the columns; a stone drops to the lowest empty cell of its column (row 0
is the bottom); x (player 0) moves first; cells hold OpenSpiel's ``CellState`` (0 empty, 1 nought ``o``, 2 cross
``x``); ``x_in_row`` stones in a row, column or diagonal win (returns 1 and -1), a full board without a line is a
draw. The observation tensor has 3 planes of rows x columns: x's stones, o's, the empty cells (the same for both
players), or with ``egocentric_obs_tensor`` the opponent's stones, the player's own, the empty cells. The kernels'
position is the cells row by row from the bottom, each column's height, the player to move (or TERMINAL), the
outcome (0 none yet, 1 x won, 2 o won, 3 a draw) and each player's stones as a bitboard where one fits in 63 bits
(bit ``column * (rows + 1) + row``: a column and an empty bit above it, so a line is found by shifting the board
along it and AND-ing, as fast Connect Four programs do; on larger boards the bitboards stay 0 and a line is
counted stone by stone from the stone just played).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, TRIES, PortGame, PortState, cells_hash, draw, drawn_from, encode_state,
                                     outcome_returns, seat_features, winner_returns)

EMPTY, NOUGHT, CROSS = 0, 1, 2
MARK = (CROSS, NOUGHT)  # the cell state each player drops
UNDECIDED, DRAW = 0, 3  # outcomes besides a player's win (player + 1)
AXES = ((0, 1), (1, 0), (1, 1), (1, -1))  # a line runs along one of these, both ways from a stone


# --- the rules, plain Python ---------------------------------------------------------------------------------
class ConnectFourState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = [EMPTY] * (game.rows * game.columns)
        self.player = 0
        self.outcome = UNDECIDED

    def current_player(self) -> int:
        return TERMINAL if self.outcome != UNDECIDED else self.player

    def _legal_actions(self) -> list[int]:
        g = self.game
        top = (g.rows - 1) * g.columns
        return [c for c in range(g.columns) if self.board[top + c] == EMPTY]

    def _do_apply_action(self, action: int) -> None:
        g = self.game
        row = 0
        while self.board[row * g.columns + action] != EMPTY:
            row += 1
        self.board[row * g.columns + action] = MARK[self.player]
        if self.line_through(row, action):
            self.outcome = self.player + 1
        elif all(self.board[(g.rows - 1) * g.columns + c] != EMPTY for c in range(g.columns)):
            self.outcome = DRAW
        self.player = 1 - self.player

    def line_through(self, row: int, column: int) -> bool:
        """Does the stone on (row, column) make a line of ``x_in_row`` of its colour?"""
        g = self.game
        mark = self.board[row * g.columns + column]
        for dr, dc in AXES:
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, column + sign * dc
                while 0 <= r < g.rows and 0 <= c < g.columns and self.board[r * g.columns + c] == mark:
                    run += 1
                    r, c = r + sign * dr, c + sign * dc
            if run >= g.x_in_row:
                return True
        return False

    def returns(self) -> list[float]:
        return winner_returns(self.outcome - 1)

    def observation(self, player: int) -> list[float]:
        cells = len(self.board)
        tensor = [0.0] * (3 * cells)
        for i, state in enumerate(self.board):
            if state == EMPTY:
                plane = 2
            elif self.game.egocentric:  # the opponent's stones first, then the player's own
                plane = 1 if MARK[player] == state else 0
            else:
                plane = 0 if state == CROSS else 1
            tensor[plane * cells + i] = 1.0
        return tensor

    def action_string(self, player: int, action: int) -> str:
        return f"{'x' if player == 0 else 'o'}{action}"

    def transposition_key(self):
        return self.current_player(), tuple(self.board)

    def encode(self) -> np.ndarray:
        g = self.game
        heights = [sum(self.board[r * g.columns + c] != EMPTY for r in range(g.rows)) for c in range(g.columns)]
        bits = [0, 0]
        if g.bitboards:
            for i, state in enumerate(self.board):
                if state != EMPTY:
                    bits[MARK.index(state)] |= 1 << (i % g.columns * (g.rows + 1) + i // g.columns)
        return np.array(self.board + heights + [self.current_player(), self.outcome] + bits, np.int64)

    def __str__(self) -> str:
        g = self.game
        return "".join("".join(".ox"[self.board[r * g.columns + c]] for c in range(g.columns)) + "\n"
                       for r in reversed(range(g.rows)))


# --- the same rules as kernels (params: rows, columns, x_in_row, egocentric, bitboards) ---------------------------
@njit(cache=True, inline="always")
def layout(params):
    """(cells, the index of the player to move, of the outcome); the bitboards follow the outcome."""
    cells = params[0] * params[1]
    return cells, cells + params[1], cells + params[1] + 1


@njit(cache=True, inline="always")
def line_in(bits, step, x_in_row):
    """Do the stones of ``bits`` hold ``x_in_row`` in a row along ``step`` (1: up a column, rows + 1: along a row,
    rows + 2 and rows: the diagonals)? A line that long in that direction would not fit in 63 bits otherwise."""
    if (x_in_row - 1) * step > 62:
        return False
    line = bits
    for i in range(1, x_in_row):
        line &= bits >> (i * step)
    return line != 0


@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0


@njit(cache=True)
def mover(params, state):
    return np.int64(state[layout(params)[1]])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    rows, columns = params[0], params[1]
    cells, at_player, _ = layout(params)
    if state[at_player] != player:
        return 0
    n = 0
    for c in range(columns):
        if state[cells + c] < rows:
            mask[c] = 1
            n += 1
    return n


@njit(cache=True)
def moves(params, state, out):
    rows, columns = params[0], params[1]
    cells, at_player, _ = layout(params)
    if state[at_player] < 0:
        return 0
    n = 0
    for c in range(columns):
        if state[cells + c] < rows:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random open column: a random column until one is open (``TRIES`` at most), else one of the list."""
    rows, columns = params[0], params[1]
    cells, at_player, _ = layout(params)
    if state[at_player] < 0:
        return -1
    for _ in range(TRIES):
        c = draw(rng, columns)
        if state[cells + c] < rows:
            return c
    return drawn_from(out, moves(params, state, out), rng)


@njit(cache=True, inline="always")
def run_from(state, columns, rows, row, column, dr, dc, mark):
    """How many stones of ``mark`` follow (row, column) along (dr, dc)."""
    n = 0
    r = row + dr
    c = column + dc
    while 0 <= r < rows and 0 <= c < columns and state[r * columns + c] == mark:
        n += 1
        r += dr
        c += dc
    return n


@njit(cache=True)
def apply(params, state, action):
    rows, columns, x_in_row = params[0], params[1], params[2]
    cells, at_player, at_outcome = layout(params)
    player = state[at_player]
    mark = CROSS if player == 0 else NOUGHT
    row = state[cells + action]
    state[row * columns + action] = mark
    state[cells + action] = row + 1
    if params[4]:  # bitboards
        at = at_outcome + 1 + player
        bits = state[at] | (np.int64(1) << (action * (rows + 1) + row))
        state[at] = bits
        won = (line_in(bits, 1, x_in_row) or line_in(bits, rows + 1, x_in_row) or line_in(bits, rows + 2, x_in_row)
               or line_in(bits, rows, x_in_row))
    else:
        won = (run_from(state, columns, rows, row, action, 0, 1, mark)
               + run_from(state, columns, rows, row, action, 0, -1, mark) + 1 >= x_in_row
               or run_from(state, columns, rows, row, action, -1, 0, mark) + 1 >= x_in_row  # nothing lies above it
               or run_from(state, columns, rows, row, action, 1, 1, mark)
               + run_from(state, columns, rows, row, action, -1, -1, mark) + 1 >= x_in_row
               or run_from(state, columns, rows, row, action, 1, -1, mark)
               + run_from(state, columns, rows, row, action, -1, 1, mark) + 1 >= x_in_row)
    if won:
        state[at_outcome] = player + 1
    elif row == rows - 1:  # the column is full now: is the board?
        full = True
        for c in range(columns):
            if state[cells + c] < rows:
                full = False
                break
        if full:
            state[at_outcome] = DRAW
    state[at_player] = TERMINAL if state[at_outcome] != UNDECIDED else 1 - player


@njit(cache=True)
def returns(params, state, out):
    outcome_returns(state[layout(params)[2]], out)


@njit(cache=True)
def observation(params, state, player, out):
    cells = layout(params)[0]
    own = CROSS if player == 0 else NOUGHT
    out[:] = 0.0
    for i in range(cells):
        s = state[i]
        if s == EMPTY:
            plane = 2
        elif params[3]:
            plane = 1 if s == own else 0
        else:
            plane = 0 if s == CROSS else 1
        out[plane * cells + i] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    cells, at_player, _ = layout(params)
    return cells_hash(state[:cells], state[at_player], 0)


# --- the game ----------------------------------------------------------------------------------------------------
class ConnectFour(PortGame):
    """OpenSpiel's connect_four, ported (rows, columns, x_in_row, egocentric_obs_tensor)."""

    openspiel_name = "connect_four"
    plays = "rows, columns (each up to 100), x_in_row (1 or more), egocentric_obs_tensor"

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        if not (1 <= settings["rows"] <= 100 and 1 <= settings["columns"] <= 100):
            return f"rows={settings['rows']}, columns={settings['columns']}: the port plays 1..100 of each"
        if settings["x_in_row"] < 1:
            return f"x_in_row={settings['x_in_row']}: the port plays lines of 1 or more"
        return None

    def setup(self, settings: dict) -> None:
        self.rows, self.columns = int(settings["rows"]), int(settings["columns"])
        self.x_in_row, self.egocentric = int(settings["x_in_row"]), bool(settings["egocentric_obs_tensor"])
        self.bitboards = (self.rows + 1) * self.columns <= 63

    def new_initial_state(self, seed: int | None = None) -> ConnectFourState:
        return ConnectFourState(self)

    def kernels(self):
        size = self.rows * self.columns + self.columns + 4
        return self.port_kernels(size=size, encode=encode_state, legal=legal, apply=apply, mover=mover,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash,
                                 moves=moves, random_move=random_move, dtype=np.int64,
                                 params=[self.rows, self.columns, self.x_in_row, int(self.egocentric),
                                         int(self.bitboards)])
