"""6x6 Othello made fast: the rules of examples/othello6.py (its Python State, unchanged) plus Numba kernels of the
same rules, so every search evoplay runs on it runs inside Numba (docs/your-game.md, "Make it fast").

Try it:  evoplay check-game examples/othello6_kernel.py:Othello     (compares the kernels with the State)
         evoplay evolve ga --game examples/othello6_kernel.py:Othello
         evoplay bench kernel                                         (against examples/othello6.py)

A position is three int64 numbers: the black discs and the white discs as 36-bit boards (bit ``cell`` set when
the disc is there), then the player to move (0, 1, or TERMINAL). The moves and flips of a side are found for all
cells at once by shifting its board in the 8 directions (a bit that leaves the board through a side column is
masked off), the standard technique of fast Othello programs. The kernels answer what othello6.py's State
answers: ``legal`` its ``legal_actions``, ``apply`` its ``_apply_action``, ``features`` its ``features``,
``state_hash`` its ``transposition_key`` as one number (the board in base 3 and the player: equal keys, equal
numbers, and no two keys share one); ``evoplay check-game`` holds them to it move by move.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from evoplay.games import TERMINAL
from evoplay.games.kernels import Kernels
from evoplay.games.tools.sources import import_game_file

# The plain-Python game this file accelerates: its Game, State and tables.
plain = import_game_file(Path(__file__).resolve().with_name("othello6.py"))
SIZE, CELLS, PASS, CORNERS = plain.SIZE, plain.CELLS, plain.PASS, plain.CORNERS
BLACK, WHITE, MOVER = 0, 1, 2  # the position's three numbers

FULL = (1 << CELLS) - 1
LEFT_COLUMN = sum(1 << (r * SIZE) for r in range(SIZE))
RIGHT_COLUMN = LEFT_COLUMN << (SIZE - 1)
# The 8 directions as a shift of the cell index and the cells a disc may land on (not across a side edge):
# east, west, north, south, north-east, north-west, south-east, south-west.
SHIFTS = np.array([1, -1, SIZE, -SIZE, SIZE + 1, SIZE - 1, -SIZE + 1, -SIZE - 1], np.int64)
LANDING = np.array([FULL & ~LEFT_COLUMN, FULL & ~RIGHT_COLUMN, FULL, FULL, FULL & ~LEFT_COLUMN,
                    FULL & ~RIGHT_COLUMN, FULL & ~LEFT_COLUMN, FULL & ~RIGHT_COLUMN], np.int64)
CORNER_BITS = sum(1 << c for c in CORNERS)
BIT = np.array([1 << c for c in range(CELLS)], np.int64)


@njit(cache=True, inline="always")
def shift(board, d):
    s = SHIFTS[d]
    return ((board << s) if s > 0 else (board >> -s)) & LANDING[d]


@njit(cache=True)
def count(board):
    n = 0
    while board:
        board &= board - 1
        n += 1
    return n


@njit(cache=True)
def moves(me, opp):
    """The empty cells where ``me`` outflanks a line of ``opp`` (othello6.py's ``moves``), as a board."""
    empty = FULL & ~(me | opp)
    found = np.int64(0)
    for d in range(8):
        run = shift(me, d) & opp
        for _ in range(SIZE - 3):  # a line of 6 holds at most 4 discs to turn
            run |= shift(run, d) & opp
        found |= shift(run, d) & empty
    return found


@njit(cache=True)
def flips(me, opp, cell):
    """The discs of ``opp`` a disc of ``me`` on ``cell`` turns (othello6.py's ``flips``), as a board."""
    turned = np.int64(0)
    for d in range(8):
        line = np.int64(0)
        x = shift(BIT[cell], d)
        while x & opp:
            line |= x
            x = shift(x, d)
        if x & me:
            turned |= line
    return turned


@njit(cache=True, inline="always")
def sides(state, player):
    """(the player's discs, the opponent's)."""
    return (state[BLACK], state[WHITE]) if player == 0 else (state[WHITE], state[BLACK])


@njit(cache=True)
def initial(params, state, seed):
    mid = SIZE // 2
    state[WHITE] = BIT[(mid - 1) * SIZE + mid - 1] | BIT[mid * SIZE + mid]
    state[BLACK] = BIT[(mid - 1) * SIZE + mid] | BIT[mid * SIZE + mid - 1]
    state[MOVER] = 0


@njit(cache=True)
def mover(params, state):
    return state[MOVER]


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[MOVER] != player:
        return 0
    me, opp = sides(state, player)
    found = moves(me, opp)
    if found == 0:
        mask[PASS] = 1
        return 1
    n = 0
    for c in range(CELLS):
        if found & BIT[c]:
            mask[c] = 1
            n += 1
    return n


@njit(cache=True)
def apply(params, state, action):
    player = state[MOVER]
    me, opp = sides(state, player)
    if action != PASS:
        turned = flips(me, opp, action)
        me |= turned | BIT[action]
        opp &= ~turned
    if player == 0:
        state[BLACK], state[WHITE] = me, opp
    else:
        state[WHITE], state[BLACK] = me, opp
    if moves(opp, me) == 0 and (action == PASS or moves(me, opp) == 0):
        state[MOVER] = TERMINAL  # neither player can move
    else:
        state[MOVER] = 1 - player


@njit(cache=True)
def scores(params, state, out):
    out[0] = count(state[BLACK])
    out[1] = count(state[WHITE])


@njit(cache=True)
def returns(params, state, out):
    out[0] = 0.0
    out[1] = 0.0
    if state[MOVER] == TERMINAL:
        margin = np.sign(count(state[BLACK]) - count(state[WHITE]))
        out[0] = margin
        out[1] = -margin


@njit(cache=True)
def features(params, state, player, out):
    me, opp = sides(state, player)
    for c in range(CELLS):
        out[c] = 1.0 if me & BIT[c] else (-1.0 if opp & BIT[c] else 0.0)
    to_move = state[MOVER]
    mobility = 0
    if to_move >= 0:
        mover_discs, other = sides(state, to_move)
        mobility = count(moves(mover_discs, other))
    out[CELLS] = count(me)
    out[CELLS + 1] = count(opp)
    out[CELLS + 2] = count(me & CORNER_BITS)
    out[CELLS + 3] = count(opp & CORNER_BITS)
    out[CELLS + 4] = 1.0 if to_move == player else 0.0
    out[CELLS + 5] = mobility


@njit(cache=True)
def state_hash(params, state):
    key = np.int64(0)
    for c in range(CELLS):
        key = key * 3 + (1 if state[BLACK] & BIT[c] else (2 if state[WHITE] & BIT[c] else 0))
    return key * 8 + (state[MOVER] + 4)  # the player to move: 0 (TERMINAL) .. 5


def encode(state) -> np.ndarray:
    """The position of an OthelloState."""
    black = white = 0
    for c, v in enumerate(state.board):
        if v == 1:
            black |= 1 << c
        elif v == 2:
            white |= 1 << c
    return np.array([black, white, state.player], np.int64)


class Othello(plain.Othello):
    """6x6 Othello (Reversi) with its rules also as Numba kernels: searches on it run inside Numba."""

    def kernels(self) -> Kernels:
        return Kernels(size=3, actions=CELLS + 1, encode=encode, legal=legal, apply=apply, mover=mover,
                       returns=returns, scores=scores, features=features, n_features=CELLS + 6, initial=initial,
                       state_hash=state_hash, dtype=np.int64)
