"""OpenSpiel's breakthrough, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/breakthrough/breakthrough.cc, with its parameters ``rows`` and ``columns``: row 0 is the top
(printed as the highest rank); black (player 0, ``b``) starts on row 0, and on row 1 too when there are 6 rows or
more, and moves down; white (player 1, ``w``) starts on the bottom row(s) and moves up. A piece moves one row
forward, straight onto an empty cell or diagonally onto an empty cell or an opponent's piece (a capture). Reaching
the far row, or taking the opponent's last piece, wins (returns 1 and -1). Action ``((row * columns + column) * 6 +
direction) * 2 + capture`` moves the piece on (row, column) in direction 0..2 (black: down-left, down, down-right)
or 3..5 (white: up-left, up, up-right); OpenSpiel writes it ``a8a7`` (a ``*`` after a capture). Cells hold OpenSpiel's
``CellState`` (0 empty, 1 black, 2 white); the observation tensor has 3 planes of rows x columns: black, white,
empty (the same for both players). A player who cannot move is neither terminal nor given a move, as in OpenSpiel.
The kernels' position is the cells row by row, each player's pieces, the player to move (or TERMINAL) and the
winner plus one (0: none yet).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, TRIES, PortGame, PortState, cells_hash, draw, drawn_from, encode_state,
                                     nth_bit, ones, seat_features)

EMPTY, BLACK, WHITE = 0, 1, 2
PIECE = (BLACK, WHITE)  # each player's pieces
ROW_STEP = (1, 1, 1, -1, -1, -1)  # OpenSpiel's kDirRowOffsets and kDirColOffsets
COLUMN_STEP = (-1, 0, 1, -1, 0, 1)
FULL_PIECES = 6  # boards of this many rows or more start with two rows of pieces a side


# --- the rules, plain Python ---------------------------------------------------------------------------------
def starting_board(rows: int, columns: int) -> list[int]:
    board = [EMPTY] * (rows * columns)
    two = rows >= FULL_PIECES
    for r in range(rows):
        for c in range(columns):
            if r == 0 or (two and r == 1):
                board[r * columns + c] = BLACK
            elif r == rows - 1 or (two and r == rows - 2):
                board[r * columns + c] = WHITE
    return board


def rank(rows: int, row: int) -> str:
    return chr(ord("1") + rows - 1 - row)


class BreakthroughState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = starting_board(game.rows, game.columns)
        self.pieces = [game.columns * (2 if game.rows >= FULL_PIECES else 1)] * 2
        self.player = 0
        self.winner = -1

    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 or 0 in self.pieces else self.player

    def _legal_actions(self) -> list[int]:
        mine, theirs = PIECE[self.player], PIECE[1 - self.player]
        board = self.board
        moves = []
        for i, state in enumerate(board):
            if state == mine:
                for o, action, target in self.game.steps[self.player][i]:
                    if board[target] == EMPTY:
                        moves.append(action)
                    elif o != 1 and board[target] == theirs:  # captures are diagonal only
                        moves.append(action + 1)
        return moves

    def _do_apply_action(self, action: int) -> None:
        g = self.game
        (r, c), d = divmod(action // 12, g.columns), action // 2 % 6
        r2, c2 = r + ROW_STEP[d], c + COLUMN_STEP[d]
        target = self.board[r2 * g.columns + c2]
        if target != EMPTY:
            self.pieces[target - 1] -= 1
        self.board[r2 * g.columns + c2] = self.board[r * g.columns + c]
        self.board[r * g.columns + c] = EMPTY
        if (self.player == 0 and r2 == g.rows - 1) or (self.player == 1 and r2 == 0):
            self.winner = self.player
        self.player = 1 - self.player

    def returns(self) -> list[float]:
        if self.winner == 0 or self.pieces[1] == 0:
            return [1.0, -1.0]
        if self.winner == 1 or self.pieces[0] == 0:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def observation(self, player: int) -> list[float]:
        cells = len(self.board)
        tensor = [0.0] * (3 * cells)
        for i, state in enumerate(self.board):
            tensor[((state + 2) % 3) * cells + i] = 1.0  # planes: black, white, empty
        return tensor

    def action_string(self, player: int, action: int) -> str:
        g = self.game
        (r, c), d = divmod(action // 12, g.columns), action // 2 % 6
        r2, c2 = r + ROW_STEP[d], c + COLUMN_STEP[d]
        text = f"{chr(ord('a') + c)}{rank(g.rows, r)}{chr(ord('a') + c2)}{rank(g.rows, r2)}"
        return text + "*" if action % 2 else text

    def transposition_key(self):
        return self.current_player(), tuple(self.board)

    def encode(self) -> np.ndarray:
        return np.array(self.board + self.pieces + [self.current_player(), self.winner + 1], np.int8)

    def __str__(self) -> str:
        g = self.game
        lines = [rank(g.rows, r) + "".join(".bw"[self.board[r * g.columns + c]] for c in range(g.columns))
                 for r in range(g.rows)]
        return "\n".join(lines) + "\n " + "".join(chr(ord("a") + c) for c in range(g.columns)) + "\n"


# --- the same rules as kernels (params: rows, columns, then three bit masks for random_move's bitboards) ----------
ROW_STEPS = np.array(ROW_STEP, np.int64)
COLUMN_STEPS = np.array(COLUMN_STEP, np.int64)


def edges(rows: int, columns: int) -> list[int]:
    """The bitboards' masks of a board of at most 64 cells (bit ``cell``), as int64: the first column, the last
    column, every cell (zeros on a larger board)."""
    if rows * columns > 64:
        return [0, 0, 0]
    signed = lambda x: x - (1 << 64) if x >= 1 << 63 else x  # noqa: E731 - the same 64 bits as an int64
    first = sum(1 << (r * columns) for r in range(rows))
    return [signed(first), signed(first << (columns - 1)), signed((1 << (rows * columns)) - 1)]


@njit(cache=True, inline="always")
def layout(params):
    """(cells, the index of the first player's pieces, of the player to move, of the winner)."""
    cells = params[0] * params[1]
    return cells, cells, cells + 2, cells + 3


@njit(cache=True)
def initial(params, state, seed):
    rows, columns = params[0], params[1]
    cells, at_pieces, at_player, at_winner = layout(params)
    state[:] = 0
    lines = 2 if rows >= FULL_PIECES else 1
    for c in range(columns):
        for r in range(lines):
            state[r * columns + c] = BLACK
            state[(rows - 1 - r) * columns + c] = WHITE
    state[at_pieces] = columns * lines
    state[at_pieces + 1] = columns * lines


@njit(cache=True)
def mover(params, state):
    return np.int64(state[layout(params)[2]])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[layout(params)[2]] != player:
        return 0
    return steps(params, state, mask, mask, False)


@njit(cache=True)
def moves(params, state, out):
    return steps(params, state, out, out, True)


@njit(cache=True, inline="always")
def steps(params, state, out, mask, listing):
    """The mover's moves in increasing action order, listed in ``out`` (``listing``) or marked in ``mask``: for each
    of its pieces row by row, its forward steps to the left, straight and to the right (a step to the side is a
    capture when an opponent's piece is there); how many."""
    rows, columns = params[0], params[1]
    player = state[layout(params)[2]]
    if player < 0:
        return 0
    mine = BLACK if player == 0 else WHITE
    step = 1 if player == 0 else -1
    n = 0
    for r in range(rows):
        r2 = r + step
        if r2 < 0 or r2 >= rows:
            continue
        for c in range(columns):
            i = r * columns + c
            if state[i] != mine:
                continue
            for side in range(3):  # left, straight, right
                a = step_action(state, columns, player, i, r2 * columns + c, c, side)
                if a >= 0:
                    if listing:
                        out[n] = a
                    else:
                        mask[a] = 1
                    n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random move. On a board of 64 cells or fewer, from bitboards: the cells each side's pieces can
    step to (straight onto an empty cell, diagonally onto an empty cell or an opponent's piece: one move each),
    counted, and the k-th of them, k drawn below their number. On a larger board, a random one of the mover's
    pieces and a random side until that step is a move (``TRIES`` at most), else one of the list."""
    rows, columns = params[0], params[1]
    cells, _, at_player, _ = layout(params)
    player = state[at_player]
    if player < 0:
        return -1
    mine = BLACK if player == 0 else WHITE
    if cells <= 64:
        return bit_move(params, state, player, mine, rng)
    pieces = 0
    for i in range(cells):  # the mover's pieces, listed without a branch
        out[pieces] = i
        pieces += state[i] == mine
    step = 1 if player == 0 else -1
    for _ in range(TRIES):
        j = draw(rng, 3 * pieces)
        i = out[j // 3]
        r2 = i // columns + step
        if 0 <= r2 < rows:
            c = i % columns
            a = step_action(state, columns, player, i, r2 * columns + c, c, j % 3)
            if a >= 0:
                return a
    return drawn_from(out, moves(params, state, out), rng)


@njit(cache=True, inline="always")
def bit_move(params, state, player, mine, rng):
    """random_move on a board of at most 64 cells (bit ``cell``), its edge columns' masks in ``params``."""
    columns = np.uint64(params[1])
    cells = params[0] * params[1]
    own = np.uint64(0)
    free = np.uint64(0)  # empty, or the opponent's: where a diagonal step goes
    empty = np.uint64(0)
    for i in range(cells):
        bit = np.uint64(1) << np.uint64(i)
        s = state[i]
        own |= bit * np.uint64(s == mine)
        free |= bit * np.uint64(s != mine)
        empty |= bit * np.uint64(s == EMPTY)
    first, last, board = np.uint64(params[2]), np.uint64(params[3]), np.uint64(params[4])
    if player == 0:  # down the board: to higher cells
        left = ((own & ~first) << (columns - np.uint64(1))) & free & board
        ahead = (own << columns) & empty & board
        right = ((own & ~last) << (columns + np.uint64(1))) & free & board
    else:
        left = ((own & ~first) >> (columns + np.uint64(1))) & free
        ahead = (own >> columns) & empty
        right = ((own & ~last) >> (columns - np.uint64(1))) & free
    n_left, n_ahead = ones(left), ones(ahead)
    total = n_left + n_ahead + ones(right)
    if total == 0:
        return -1
    k = draw(rng, total)
    step = np.int64(columns) if player == 0 else -np.int64(columns)
    if k < n_left:
        side, target = 0, nth_bit(left, k)
    elif k < n_left + n_ahead:
        side, target = 1, nth_bit(ahead, k - n_left)
    else:
        side, target = 2, nth_bit(right, k - n_left - n_ahead)
    source = target - step - (side - 1)
    return ((source * 6 + 3 * player + side) * 2) + (state[target] != EMPTY)


@njit(cache=True, inline="always")
def step_action(state, columns, player, i, ahead, c, side):
    """The action of the piece on cell ``i`` (column ``c``) stepping to the ``side`` (0 left, 1 straight, 2 right)
    of the cell ``ahead`` of it, or -1 when that is no move."""
    if (side == 0 and c == 0) or (side == 2 and c == columns - 1):
        return -1
    target = state[ahead + side - 1]
    base = (i * 6 + 3 * player + side) * 2
    if target == EMPTY:
        return base
    if side != 1 and target == (WHITE if player == 0 else BLACK):
        return base + 1
    return -1


@njit(cache=True)
def apply(params, state, action):
    rows, columns = params[0], params[1]
    cells, at_pieces, at_player, at_winner = layout(params)
    player = state[at_player]
    i = action // 12
    d = action // 2 % 6
    r2 = i // columns + ROW_STEPS[d]
    j = r2 * columns + i % columns + COLUMN_STEPS[d]
    if state[j] != EMPTY:
        state[at_pieces + state[j] - 1] -= 1
    state[j] = state[i]
    state[i] = EMPTY
    if (player == 0 and r2 == rows - 1) or (player == 1 and r2 == 0):
        state[at_winner] = player + 1
    if state[at_winner] or state[at_pieces] == 0 or state[at_pieces + 1] == 0:
        state[at_player] = TERMINAL
    else:
        state[at_player] = 1 - player


@njit(cache=True)
def returns(params, state, out):
    cells, at_pieces, at_player, at_winner = layout(params)
    out[0] = 0.0
    out[1] = 0.0
    if state[at_winner] == 1 or state[at_pieces + 1] == 0:
        out[0] = 1.0
        out[1] = -1.0
    elif state[at_winner] == 2 or state[at_pieces] == 0:
        out[0] = -1.0
        out[1] = 1.0


@njit(cache=True)
def observation(params, state, player, out):
    cells = layout(params)[0]
    out[:] = 0.0
    for i in range(cells):
        out[((state[i] + 2) % 3) * cells + i] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    cells, _, at_player, _ = layout(params)
    return cells_hash(state[:cells], state[at_player], 0)


# --- the game ----------------------------------------------------------------------------------------------------
class Breakthrough(PortGame):
    """OpenSpiel's breakthrough, ported (any rows and columns OpenSpiel plays, up to 26 each)."""

    openspiel_name = "breakthrough"
    plays = "rows and columns, 2..26 each"

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        if not (2 <= settings["rows"] <= 26 and 2 <= settings["columns"] <= 26):
            return f"rows={settings['rows']}, columns={settings['columns']}: the port plays 2..26 of each"
        return None

    def setup(self, settings: dict) -> None:
        self.rows, self.columns = int(settings["rows"]), int(settings["columns"])
        # per player and cell, the forward steps that stay on the board: (o, the move's action, the cell reached)
        self.steps = [[[(o, ((r * self.columns + c) * 6 + d) * 2, (r + ROW_STEP[d]) * self.columns + c + COLUMN_STEP[d])
                        for o, d in enumerate(range(3 * player, 3 * player + 3))
                        if 0 <= r + ROW_STEP[d] < self.rows and 0 <= c + COLUMN_STEP[d] < self.columns]
                       for r in range(self.rows) for c in range(self.columns)] for player in (0, 1)]

    def new_initial_state(self, seed: int | None = None) -> BreakthroughState:
        return BreakthroughState(self)

    def kernels(self):
        return self.port_kernels(size=self.rows * self.columns + 4, encode=encode_state, legal=legal, apply=apply,
                                 mover=mover, returns=returns, features=features, initial=initial,
                                 state_hash=state_hash, moves=moves, random_move=random_move,
                                 params=[self.rows, self.columns] + edges(self.rows, self.columns))
