"""OpenSpiel's hex, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/hex/hex.cc, with its parameters ``board_size`` (or ``num_cols`` and ``num_rows``), ``swap``,
``string_rep`` and ``plain_obs_tensor``. Cell ``c`` of the board is the action ``c``, counted along each row of
``num_cols`` cells (OpenSpiel writes it as a letter for ``c % num_cols`` and a number for ``c // num_cols + 1``:
action 1 is ``b1``); each row is shifted half a cell further right than the one above, so cell ``c`` touches
``c - num_cols``, ``c - num_cols + 1``, ``c + 1``, ``c + num_cols``, ``c + num_cols - 1`` and ``c - 1`` where they are on
the board. Black (player 0, ``x``) joins the top and bottom rows, white (player 1, ``o``) the left and right
columns; whoever joins their two edges wins (returns 1 and -1). A cell holds OpenSpiel's ``CellState``: 0 empty;
1 black, 3 black joined to the top (north), 2 black joined to the bottom (south), 4 the winning black stone; -1 white,
-3 joined to the left (west), -2 to the right (east), -4 the winning white stone. A stone placed next to its edge
or a joined stone of its colour takes that edge's state, and a flood fill passes it on to the plain stones of its
colour it touches. The observation tensor has a plane per cell state (state + 4: plane 0 is -4), the same for both
players; with ``plain_obs_tensor`` 3 planes: black, white, empty. With ``swap``, white's first move may be action
``num_cols * num_rows`` (``swap``): black's stone is taken off and white's put on its mirror image. The kernels'
position is the cells, the player to move (or TERMINAL), the result for black (1, -1, 0), the plies played, up to 2,
and as many zeros: the flood fill's stack while a move is played (an allocation a move would cost more).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, TRIES, PortGame, PortState, cells_hash, draw, drawn_from, encode_state,
                                     seat_features)

EMPTY, BLACK, BLACK_SOUTH, BLACK_NORTH, BLACK_WIN = 0, 1, 2, 3, 4
WHITE, WHITE_EAST, WHITE_WEST, WHITE_WIN = -1, -2, -3, -4
STANDARD = {0: ".", 1: "x", 2: "x", 3: "x", 4: "x", -1: "o", -2: "o", -3: "o", -4: "o"}
EXPLICIT = {0: ".", 1: "x", 2: "z", 3: "y", 4: "X", -1: "o", -2: "q", -3: "p", -4: "O"}


# --- the rules, plain Python ---------------------------------------------------------------------------------
def neighbours(cell: int, columns: int, cells: int) -> list[int]:
    """OpenSpiel's ``AdjacentCells``, in its order."""
    north, south = cell < columns, cell >= cells - columns
    west, east = cell % columns == 0, cell % columns == columns - 1
    out = []
    if not north:
        out.append(cell - columns)
    if not north and not east:
        out.append(cell - columns + 1)
    if not east:
        out.append(cell + 1)
    if not south:
        out.append(cell + columns)
    if not south and not west:
        out.append(cell + columns - 1)
    if not west:
        out.append(cell - 1)
    return out


class HexState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = [EMPTY] * game.cells
        self.player = 0
        self.result = 0  # for black: 1 won, -1 lost
        self.plies = 0

    def current_player(self) -> int:
        return TERMINAL if self.result else self.player

    def _legal_actions(self) -> list[int]:
        moves = [c for c, state in enumerate(self.board) if state == EMPTY]
        if self.game.swap and self.plies == 1 and self.player == 1:
            moves.append(self.game.cells)
        return moves

    def stone(self, player: int, cell: int) -> int:
        """OpenSpiel's ``PlayerAndActionToState``: the state of a stone of ``player`` placed on ``cell``."""
        g = self.game
        if player == 0:
            north, south = cell < g.columns, False
            if not north:
                south = cell >= g.cells - g.columns
            for n in neighbours(cell, g.columns, g.cells):
                north = north or self.board[n] == BLACK_NORTH
                south = south or self.board[n] == BLACK_SOUTH
            return BLACK_WIN if north and south else BLACK_NORTH if north else BLACK_SOUTH if south else BLACK
        west, east = cell % g.columns == 0, False
        if not west:
            east = cell % g.columns == g.columns - 1
        for n in neighbours(cell, g.columns, g.cells):
            west = west or self.board[n] == WHITE_WEST
            east = east or self.board[n] == WHITE_EAST
        return WHITE_WIN if west and east else WHITE_WEST if west else WHITE_EAST if east else WHITE

    def _do_apply_action(self, action: int) -> None:
        g = self.game
        self.plies += 1
        if g.swap and action == g.cells:  # white takes black's first stone onto its mirror image
            first = self.history[0]
            self.board[first] = EMPTY
            mirrored = (first % g.columns) * g.columns + first // g.columns
            self.board[mirrored] = self.stone(1, mirrored)
            self.player = 0
            return
        state = self.stone(self.player, action)
        self.board[action] = state
        if state == BLACK_WIN:
            self.result = 1
        elif state == WHITE_WIN:
            self.result = -1
        elif state not in (BLACK, WHITE):  # joined to an edge: so is every plain stone of its group
            plain = BLACK if self.player == 0 else WHITE
            stack = [action]
            while stack:
                for n in neighbours(stack.pop(), g.columns, g.cells):
                    if self.board[n] == plain:
                        self.board[n] = state
                        stack.append(n)
        self.player = 1 - self.player

    def returns(self) -> list[float]:
        return [float(self.result), float(-self.result)]

    def observation(self, player: int) -> list[float]:
        g = self.game
        if g.plain_obs:
            tensor = [0.0] * (3 * g.cells)
            for c, state in enumerate(self.board):
                tensor[(2 if state == EMPTY else 0 if state > 0 else 1) * g.cells + c] = 1.0
            return tensor
        tensor = [0.0] * (9 * g.cells)
        for c, state in enumerate(self.board):
            tensor[(state + 4) * g.cells + c] = 1.0
        return tensor

    def action_string(self, player: int, action: int) -> str:
        g = self.game
        if g.swap and action == g.cells:
            return "swap"
        return f"{chr(ord('a') + action % g.columns)}{action // g.columns + 1}"

    def transposition_key(self):
        return self.current_player(), tuple(self.board), min(self.plies, 2)

    def encode(self) -> np.ndarray:
        return np.array(self.board + [self.current_player(), self.result, min(self.plies, 2)] + [0] * len(self.board),
                        np.int16)

    def __str__(self) -> str:
        g = self.game
        symbols = EXPLICIT if g.explicit else STANDARD
        rows = [" " * r + "".join(symbols[s] + " " for s in self.board[r * g.columns:(r + 1) * g.columns])
                for r in range(g.rows)]
        return "\n".join(rows)


# --- the same rules as kernels ---------------------------------------------------------------------------------
# params: num_cols, num_rows, swap, plain_obs_tensor, then the six cells around each cell (-1: off the board) and
# each cell's edges (NORTH | SOUTH | WEST | EAST bits)
AROUND = 4
NORTH, SOUTH, WEST, EAST = 1, 2, 4, 8


def tables(columns: int, rows: int) -> list[int]:
    """The kernels' tables of a board: the six cells around each cell (OpenSpiel's neighbours, -1 for those off
    the board), then each cell's edges."""
    cells = columns * rows
    around, edges = [], []
    for c in range(cells):
        near = neighbours(c, columns, cells)
        around += near + [-1] * (6 - len(near))
        edges.append((NORTH if c < columns else 0) | (SOUTH if c >= cells - columns else 0)
                     | (WEST if c % columns == 0 else 0) | (EAST if c % columns == columns - 1 else 0))
    return around + edges


@njit(cache=True, inline="always")
def layout(params):
    """(cells, the index of the player to move, of the result, of the plies)."""
    cells = params[0] * params[1]
    return cells, cells, cells + 1, cells + 2


@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0


@njit(cache=True)
def mover(params, state):
    return np.int64(state[layout(params)[1]])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    cells, at_player, _, at_plies = layout(params)
    if state[at_player] != player:
        return 0
    n = 0
    for c in range(cells):
        if state[c] == EMPTY:
            mask[c] = 1
            n += 1
    if params[2] and state[at_plies] == 1 and player == 1:
        mask[cells] = 1
        n += 1
    return n


@njit(cache=True)
def moves(params, state, out):
    cells, at_player, _, at_plies = layout(params)
    player = state[at_player]
    if player < 0:
        return 0
    n = 0
    for c in range(cells):  # without a branch: every cell is written, only the empty ones are kept
        out[n] = c
        n += state[c] == EMPTY
    if params[2] and state[at_plies] == 1 and player == 1:
        out[n] = cells
        n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random move: a random cell (or the swap, where it is a move) until one is a move (``TRIES`` at
    most), else one of the list."""
    cells, at_player, _, at_plies = layout(params)
    player = state[at_player]
    if player < 0:
        return -1
    choices = cells + 1 if params[2] and state[at_plies] == 1 and player == 1 else cells
    for _ in range(TRIES):
        c = draw(rng, choices)
        if c == cells or state[c] == EMPTY:
            return c
    return drawn_from(out, moves(params, state, out), rng)


@njit(cache=True, inline="always")
def stone(params, state, player, cell):
    """HexState.stone: the state of a stone of ``player`` placed on ``cell`` (its edges and the six cells around it
    read from the tables in ``params``)."""
    cells = layout(params)[0]
    edges = params[AROUND + 6 * cells + cell]
    if player == 0:
        first = edges & NORTH != 0
        second = (not first) and edges & SOUTH != 0
        joins_first, joins_second = BLACK_NORTH, BLACK_SOUTH
    else:
        first = edges & WEST != 0
        second = (not first) and edges & EAST != 0
        joins_first, joins_second = WHITE_WEST, WHITE_EAST
    for k in range(6):
        n = params[AROUND + 6 * cell + k]
        if n >= 0:
            if state[n] == joins_first:
                first = True
            elif state[n] == joins_second:
                second = True
    if player == 0:
        return BLACK_WIN if first and second else BLACK_NORTH if first else BLACK_SOUTH if second else BLACK
    return WHITE_WIN if first and second else WHITE_WEST if first else WHITE_EAST if second else WHITE


@njit(cache=True, inline="always")
def touches(params, state, cell, plain):
    """Is a stone ``plain`` next to ``cell``?"""
    for k in range(6):
        n = params[AROUND + 6 * cell + k]
        if n >= 0 and state[n] == plain:
            return True
    return False


@njit(cache=True)
def apply(params, state, action):
    columns = params[0]
    cells, at_player, at_result, at_plies = layout(params)
    player = state[at_player]
    if state[at_plies] < 2:
        state[at_plies] += 1
    if params[2] and action == cells:  # the swap: black's only stone, mirrored, becomes white's
        for c in range(cells):
            if state[c] != EMPTY:
                state[c] = EMPTY
                mirrored = (c % columns) * columns + c // columns
                state[mirrored] = stone(params, state, 1, mirrored)
                break
        state[at_player] = 0
        return
    s = stone(params, state, player, action)
    state[action] = s
    if s == BLACK_WIN:
        state[at_result] = 1
    elif s == WHITE_WIN:
        state[at_result] = -1
    elif s != BLACK and s != WHITE and touches(params, state, action, BLACK if player == 0 else WHITE):
        # joined to an edge: so is every plain stone of its group
        plain = BLACK if player == 0 else WHITE
        stack = at_plies + 1  # the flood fill's stack: scratch at the end of the position, left as zeros
        state[stack] = action
        top = 1
        deepest = 1
        while top > 0:
            top -= 1
            cell = state[stack + top]
            for k in range(6):
                n = params[AROUND + 6 * cell + k]
                if n >= 0 and state[n] == plain:
                    state[n] = s
                    state[stack + top] = n
                    top += 1
                    deepest = max(deepest, top)
        state[stack:stack + deepest] = 0
    state[at_player] = TERMINAL if state[at_result] != 0 else 1 - player


@njit(cache=True)
def returns(params, state, out):
    result = state[layout(params)[2]]
    out[0] = result
    out[1] = -result


@njit(cache=True)
def observation(params, state, player, out):
    cells = layout(params)[0]
    out[:] = 0.0
    for c in range(cells):
        s = state[c]
        if params[3]:
            out[(2 if s == EMPTY else 0 if s > 0 else 1) * cells + c] = 1.0
        else:
            out[(s + 4) * cells + c] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    cells, at_player, _, at_plies = layout(params)
    return cells_hash(state[:cells], state[at_player], state[at_plies])


# --- the game ----------------------------------------------------------------------------------------------------
class Hex(PortGame):
    """OpenSpiel's hex, ported (any board_size, or num_cols x num_rows; swap, string_rep, plain_obs_tensor)."""

    openspiel_name = "hex"
    plays = ("board_size (or num_cols and num_rows), 2..26 each; swap and plain_obs_tensor on square boards; "
             "string_rep")

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        columns, rows = settings["num_cols"], settings["num_rows"]
        if not (2 <= columns <= 26 and 2 <= rows <= 26):
            return (f"num_cols={columns}, num_rows={rows}: the port plays 2..26 of each (on a board of one row or "
                    f"column OpenSpiel's game can stop with no move and no winner)")
        if columns != rows and (settings["swap"] or settings["plain_obs_tensor"]):
            return (f"swap and plain_obs_tensor on a board of {columns} columns and {rows} rows: OpenSpiel mirrors "
                    f"and shapes them for square boards only; the port plays them on square boards")
        return None

    def setup(self, settings: dict) -> None:
        self.columns, self.rows = int(settings["num_cols"]), int(settings["num_rows"])
        self.cells = self.columns * self.rows
        self.swap, self.plain_obs = bool(settings["swap"]), bool(settings["plain_obs_tensor"])
        self.explicit = settings["string_rep"] == "explicit"

    def new_initial_state(self, seed: int | None = None) -> HexState:
        return HexState(self)

    def kernels(self):
        return self.port_kernels(size=2 * self.cells + 3, encode=encode_state, legal=legal, apply=apply, mover=mover,
                                 dtype=np.int16,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash,
                                 moves=moves, random_move=random_move,
                                 params=[self.columns, self.rows, int(self.swap), int(self.plain_obs)]
                                 + tables(self.columns, self.rows))
