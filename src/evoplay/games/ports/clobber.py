"""OpenSpiel's clobber, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/clobber/clobber.cc, with its parameters ``rows`` and ``columns``: the board starts full, in a
checkerboard of white (player 0, ``o``, on the bottom-left cell) and black (player 1, ``x``); row 0 is the top. A
move takes one of the mover's pieces onto an orthogonally adjacent piece of the opponent's, which leaves the board.
When after a move no piece touches an opponent's piece, the player who made it wins (returns 1 and -1). Action
``(row * columns + column) * 4 + direction`` moves the piece on (row, column) up, right, down or left (0..3);
OpenSpiel writes it ``a3b3``. Cells hold OpenSpiel's ``CellState`` (0 empty, 1 white, 2 black); the observation
tensor has 3 planes of rows x columns: the viewer's pieces, the opponent's, the empty cells. The kernels' position is
the cells row by row, the player to move (or TERMINAL), the winner plus one (0: none yet), the contacts (the pairs
of orthogonally adjacent pieces of opposite colours) and, on a board of 64 cells or fewer, each colour's pieces as a
bitboard (bit ``cell``; 0 on a larger board). Each contact is one move for either player (its piece onto the
other), so the game ends when a move leaves none; the contacts are the bitboards' pairs shifted against each other
(on a larger board, a move changes their count only around its two cells), and a random move is the k-th of them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, PortGame, PortState, cells_hash, draw, encode_state, nth_bit, ones,
                                     outcome_returns, seat_features, winner_returns)

EMPTY, WHITE, BLACK = 0, 1, 2
PIECE = (WHITE, BLACK)  # each player's pieces
ROW_STEP = (-1, 0, 1, 0)  # OpenSpiel's kDirRowOffsets and kDirColumnOffsets: up, right, down, left
COLUMN_STEP = (0, 1, 0, -1)


# --- the rules, plain Python ---------------------------------------------------------------------------------
def starting_board(rows: int, columns: int) -> list[int]:
    return [WHITE if (r + rows - 1 + c) % 2 == 0 else BLACK for r in range(rows) for c in range(columns)]


class ClobberState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = starting_board(game.rows, game.columns)
        self.player = 0
        self.winner = -1

    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.player

    def _legal_actions(self) -> list[int]:
        mine, theirs = PIECE[self.player], PIECE[1 - self.player]
        board = self.board
        return [action for i, state in enumerate(board) if state == mine
                for action, target in self.game.steps[i] if board[target] == theirs]

    def _do_apply_action(self, action: int) -> None:
        g = self.game
        (r, c), d = divmod(action // 4, g.columns), action % 4
        target = (r + ROW_STEP[d]) * g.columns + c + COLUMN_STEP[d]
        self.board[target] = self.board[r * g.columns + c]
        self.board[r * g.columns + c] = EMPTY
        if not self.moves_remain():
            self.winner = self.player
        self.player = 1 - self.player

    def moves_remain(self) -> bool:
        """Does any piece touch a piece of the other colour?"""
        board = self.board
        return any(state != EMPTY and board[target] == 3 - state
                   for i, state in enumerate(board) for _, target in self.game.steps[i])

    def returns(self) -> list[float]:
        return winner_returns(self.winner)

    def observation(self, player: int) -> list[float]:
        cells = len(self.board)
        tensor = [0.0] * (3 * cells)
        for i, state in enumerate(self.board):
            plane = 2 if state == EMPTY else (state - 1 + player) % 2  # the viewer's pieces first
            tensor[plane * cells + i] = 1.0
        return tensor

    def action_string(self, player: int, action: int) -> str:
        g = self.game
        (r, c), d = divmod(action // 4, g.columns), action % 4
        r2, c2 = r + ROW_STEP[d], c + COLUMN_STEP[d]
        return f"{chr(ord('a') + c)}{g.rows - r}{chr(ord('a') + c2)}{g.rows - r2}"

    def transposition_key(self):
        return self.current_player(), tuple(self.board)

    def contacts(self) -> int:
        """The pairs of orthogonally adjacent pieces of opposite colours (each counted once)."""
        board = self.board
        return sum(state != EMPTY and board[target] == 3 - state
                   for i, state in enumerate(board) for _, target in self.game.steps[i]) // 2

    def encode(self) -> np.ndarray:
        bits = [0, 0]
        if len(self.board) <= 64:
            for i, state in enumerate(self.board):
                if state != EMPTY:
                    bits[state - 1] |= 1 << i
        signed = [b - (1 << 64) if b >= 1 << 63 else b for b in bits]  # the same 64 bits as an int64
        return np.array(self.board + [self.current_player(), self.winner + 1, self.contacts()] + signed, np.int64)

    def __str__(self) -> str:
        g = self.game
        wide = g.rows >= 10
        lines = [(" " if wide and g.rows - r < 10 else "") + str(g.rows - r)
                 + "".join(".ox"[self.board[r * g.columns + c]] for c in range(g.columns)) for r in range(g.rows)]
        return "\n".join(lines) + "\n" + (" " if wide else "") + " " + "".join(
            chr(ord("a") + c) for c in range(g.columns)) + "\n"


# --- the same rules as kernels (params: rows, columns, the bitboards' mask of every column but the last) ----------
ROW_STEPS = np.array(ROW_STEP, np.int64)
COLUMN_STEPS = np.array(COLUMN_STEP, np.int64)


def not_last(rows: int, columns: int) -> int:
    """The bitboard (bit ``cell``) of every cell but those of the last column, as an int64 (0 on a board of more
    than 64 cells, where random_move walks the cells instead)."""
    if rows * columns > 64:
        return 0
    mask = sum(1 << (r * columns + c) for r in range(rows) for c in range(columns - 1))
    return mask - (1 << 64) if mask >= 1 << 63 else mask


@njit(cache=True, inline="always")
def layout(params):
    """(cells, the index of the player to move, of the winner, of the contacts); white's and black's bitboards
    follow the contacts."""
    cells = params[0] * params[1]
    return cells, cells, cells + 1, cells + 2


@njit(cache=True, inline="always")
def contacts_of(white, black, columns, not_last):
    """The contacts of two bitboards: (pairs with the right neighbour, pairs with the lower neighbour), as bitboards
    of the pairs' first cells."""
    across = ((white & (black >> np.uint64(1))) | (black & (white >> np.uint64(1)))) & not_last
    down = (white & (black >> columns)) | (black & (white >> columns))
    return across, down


@njit(cache=True)
def initial(params, state, seed):
    rows, columns = params[0], params[1]
    cells, at_player, at_winner, at_contacts = layout(params)
    for r in range(rows):
        for c in range(columns):
            state[r * columns + c] = WHITE if (r + rows - 1 + c) % 2 == 0 else BLACK
    state[at_player] = 0
    state[at_winner] = 0
    state[at_contacts] = rows * (columns - 1) + (rows - 1) * columns  # a full checkerboard: every pair
    state[at_contacts + 1] = 0
    state[at_contacts + 2] = 0
    if cells <= 64:
        for i in range(cells):
            state[at_contacts + state[i]] |= np.int64(1) << i


@njit(cache=True)
def mover(params, state):
    return np.int64(state[layout(params)[1]])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[layout(params)[1]] != player:
        return 0
    return captures(params, state, mask, mask, False)


@njit(cache=True)
def moves(params, state, out):
    return captures(params, state, out, out, True)


@njit(cache=True, inline="always")
def captures(params, state, out, mask, listing):
    """The mover's moves in increasing action order, listed in ``out`` (``listing``) or marked in ``mask``: for each
    of its pieces row by row, the opponent's pieces above, right, below and left of it; how many."""
    rows, columns = params[0], params[1]
    player = state[layout(params)[1]]
    if player < 0:
        return 0
    mine = WHITE if player == 0 else BLACK
    n = 0
    for r in range(rows):
        for c in range(columns):
            i = r * columns + c
            if state[i] != mine:
                continue
            for d in range(4):
                if capture(state, rows, columns, r, c, d, 3 - mine):
                    if listing:
                        out[n] = i * 4 + d
                    else:
                        mask[i * 4 + d] = 1
                    n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random move: each contact is one move of the mover (its piece onto the other), so the k-th
    contact, k drawn below their number: on a board of 64 cells or fewer found from bitboards of the pairs of a
    cell and its right or lower neighbour, on a larger board by walking those pairs (counted without a branch on
    what the cells hold: an empty cell's other colour, 3, is on no cell)."""
    rows, columns = params[0], params[1]
    cells, at_player, _, at_contacts = layout(params)
    player = state[at_player]
    if player < 0 or state[at_contacts] == 0:
        return -1
    mine = WHITE if player == 0 else BLACK
    if cells <= 64:
        across, down = contacts_of(np.uint64(state[at_contacts + WHITE]), np.uint64(state[at_contacts + BLACK]),
                                   np.uint64(columns), np.uint64(params[2]))
        n_across = ones(across)
        k = draw(rng, n_across + ones(down))
        if k < n_across:
            i = nth_bit(across, k)
            return i * 4 + 1 if state[i] == mine else (i + 1) * 4 + 3  # right, or the other piece left
        i = nth_bit(down, k - n_across)
        return i * 4 + 2 if state[i] == mine else (i + columns) * 4  # down, or the other piece up
    k = draw(rng, state[at_contacts])
    for r in range(rows):
        for c in range(columns):
            i = r * columns + c
            other = 3 - state[i]
            right = c < columns - 1 and state[i + 1] == other
            below = r < rows - 1 and state[i + columns] == other
            if k < right + below:
                if right and k == 0:
                    return i * 4 + 1 if state[i] == mine else (i + 1) * 4 + 3
                return i * 4 + 2 if state[i] == mine else (i + columns) * 4
            k -= right + below
    return -1


@njit(cache=True, inline="always")
def capture(state, rows, columns, r, c, d, theirs):
    """Is a piece of ``theirs`` next to (r, c) in direction ``d`` (0 up, 1 right, 2 down, 3 left)?"""
    i = r * columns + c
    if d == 0:
        return r > 0 and state[i - columns] == theirs
    if d == 1:
        return c < columns - 1 and state[i + 1] == theirs
    if d == 2:
        return r < rows - 1 and state[i + columns] == theirs
    return c > 0 and state[i - 1] == theirs


@njit(cache=True, inline="always")
def around(state, rows, columns, r, c, colour):
    """How many pieces of ``colour`` are orthogonally next to (r, c)."""
    i = r * columns + c
    n = 0
    if r > 0 and state[i - columns] == colour:
        n += 1
    if c < columns - 1 and state[i + 1] == colour:
        n += 1
    if r < rows - 1 and state[i + columns] == colour:
        n += 1
    if c > 0 and state[i - 1] == colour:
        n += 1
    return n


@njit(cache=True)
def apply(params, state, action):
    rows, columns = params[0], params[1]
    cells, at_player, at_winner, at_contacts = layout(params)
    player = state[at_player]
    mine = WHITE if player == 0 else BLACK
    i = action // 4
    d = action % 4
    r = i // columns
    c = i - r * columns
    r2 = r + ROW_STEPS[d]
    c2 = c + COLUMN_STEPS[d]
    j = r2 * columns + c2
    if cells <= 64:
        ours, theirs = at_contacts + mine, at_contacts + 3 - mine
        state[ours] = (state[ours] & ~(np.int64(1) << i)) | (np.int64(1) << j)
        state[theirs] &= ~(np.int64(1) << j)
        across, down = contacts_of(np.uint64(state[at_contacts + WHITE]), np.uint64(state[at_contacts + BLACK]),
                                   np.uint64(columns), np.uint64(params[2]))
        state[at_contacts] = ones(across) + ones(down)
    else:
        # the contacts of the two cells before the move (the pair of them in both), then of the taken cell, now
        # the mover's
        lost = around(state, rows, columns, r, c, 3 - mine) + around(state, rows, columns, r2, c2, mine) - 1
        state[at_contacts] += around(state, rows, columns, r2, c2, 3 - mine) - lost
    state[j] = mine
    state[i] = EMPTY
    if state[at_contacts] == 0:
        state[at_winner] = player + 1
        state[at_player] = TERMINAL
    else:
        state[at_player] = 1 - player


@njit(cache=True)
def returns(params, state, out):
    outcome_returns(state[layout(params)[2]], out)  # the winner plus one


@njit(cache=True)
def observation(params, state, player, out):
    cells = layout(params)[0]
    out[:] = 0.0
    for i in range(cells):
        s = state[i]
        plane = 2 if s == EMPTY else (s - 1 + player) % 2
        out[plane * cells + i] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    cells, at_player, _, _ = layout(params)
    return cells_hash(state[:cells], state[at_player], 0)


# --- the game ----------------------------------------------------------------------------------------------------
class Clobber(PortGame):
    """OpenSpiel's clobber, ported (any rows and columns OpenSpiel plays)."""

    openspiel_name = "clobber"
    plays = "rows (2..99) and columns (2..26)"

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        rows, columns = settings["rows"], settings["columns"]
        if not (2 <= rows <= 99 and 2 <= columns <= 26):
            return (f"rows={rows}, columns={columns}: the port plays 2..99 rows and 2..26 columns (OpenSpiel numbers "
                    f"no move on a board of one row or column)")
        return None

    def setup(self, settings: dict) -> None:
        self.rows, self.columns = int(settings["rows"]), int(settings["columns"])
        # per cell, the orthogonal steps that stay on the board: (the move's action, the cell reached)
        self.steps = [[((r * self.columns + c) * 4 + d, (r + ROW_STEP[d]) * self.columns + c + COLUMN_STEP[d])
                       for d in range(4)
                       if 0 <= r + ROW_STEP[d] < self.rows and 0 <= c + COLUMN_STEP[d] < self.columns]
                      for r in range(self.rows) for c in range(self.columns)]

    def new_initial_state(self, seed: int | None = None) -> ClobberState:
        return ClobberState(self)

    def kernels(self):
        return self.port_kernels(size=self.rows * self.columns + 5, encode=encode_state, legal=legal, apply=apply,
                                 mover=mover, returns=returns, features=features, initial=initial,
                                 state_hash=state_hash, moves=moves, random_move=random_move,
                                 params=[self.rows, self.columns, not_last(self.rows, self.columns)], dtype=np.int64)
