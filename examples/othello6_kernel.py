"""6x6 Othello made fast: the rules of examples/othello6.py (its Python State, unchanged) plus Numba kernels of the
same rules, so every search evoplay runs on it runs inside Numba (docs/your-game.md, "Make it fast").

Try it:  evoplay check-game examples/othello6_kernel.py:Othello     (compares the kernels with the State)
         evoplay evolve ga --game examples/othello6_kernel.py:Othello
         evoplay bench kernel                                         (against examples/othello6.py)

A position is 37 int8 numbers: the 36 cells (0 empty, 1 black, 2 white), then the player to move (0, 1, or
TERMINAL). The kernels mirror othello6.py line for line: ``flips`` and ``has_move`` are its ``flips`` and ``moves``,
``apply`` its ``_apply_action``, ``features`` its ``features``; ``state_hash`` is its ``transposition_key`` as one
number (the board in base 3 and the player: equal keys, equal numbers, and no two keys share one).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from evoplay.games import TERMINAL
from evoplay.games.kernels import Kernels
from evoplay.games.sources import import_game_file

# The plain-Python game this file accelerates: its Game, State and tables.
plain = import_game_file(Path(__file__).resolve().with_name("othello6.py"))
SIZE, CELLS, PASS, CORNERS = plain.SIZE, plain.CELLS, plain.PASS, plain.CORNERS
MOVER = CELLS  # where the position keeps the player to move

# RAYS as an array: for each cell and direction, the cells to the edge, padded with -1.
RAY_TABLE = np.full((CELLS, 8, SIZE), -1, np.int64)
for _cell in range(CELLS):
    for _d, (_dr, _dc) in enumerate(plain.DIRECTIONS):
        _ray = plain._ray(_cell, _dr, _dc)
        RAY_TABLE[_cell, _d, : len(_ray)] = _ray
CORNER_CELLS = np.array(CORNERS, np.int64)


@njit(cache=True)
def flips(board, cell, me, turn):
    """How many of the opponent's discs a disc of ``me`` on the empty ``cell`` turns; with ``turn``, turn them."""
    count = 0
    for d in range(8):
        run = 0
        for i in range(SIZE):
            c = RAY_TABLE[cell, d, i]
            if c < 0 or board[c] != 3 - me:
                if c >= 0 and board[c] == me and run > 0:
                    count += run
                    if turn:
                        for j in range(run):
                            board[RAY_TABLE[cell, d, j]] = me
                break
            run += 1
    return count


@njit(cache=True)
def has_move(board, me):
    for c in range(CELLS):
        if board[c] == 0 and flips(board, c, me, False) > 0:
            return True
    return False


@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0
    mid = SIZE // 2
    state[(mid - 1) * SIZE + mid - 1] = 2
    state[mid * SIZE + mid] = 2
    state[(mid - 1) * SIZE + mid] = 1
    state[mid * SIZE + mid - 1] = 1


@njit(cache=True)
def mover(params, state):
    return np.int64(state[MOVER])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[MOVER] != player:
        return 0
    count = 0
    for c in range(CELLS):
        if state[c] == 0 and flips(state, c, player + 1, False) > 0:
            mask[c] = 1
            count += 1
    if count == 0:
        mask[PASS] = 1
        count = 1
    return count


@njit(cache=True)
def apply(params, state, action):
    player = np.int64(state[MOVER])
    me = player + 1
    if action != PASS:
        flips(state, action, me, True)
        state[action] = me
    nxt = 1 - player
    if not has_move(state, nxt + 1) and (action == PASS or not has_move(state, me)):
        state[MOVER] = TERMINAL  # neither player can move
    else:
        state[MOVER] = nxt


@njit(cache=True)
def scores(params, state, out):
    out[0] = 0.0
    out[1] = 0.0
    for c in range(CELLS):
        if state[c] == 1:
            out[0] += 1.0
        elif state[c] == 2:
            out[1] += 1.0


@njit(cache=True)
def returns(params, state, out):
    scores(params, state, out)
    if state[MOVER] != TERMINAL:
        out[0] = 0.0
        out[1] = 0.0
        return
    margin = np.sign(out[0] - out[1])
    out[0] = margin
    out[1] = -margin


@njit(cache=True)
def features(params, state, player, out):
    me = player + 1
    opp = 2 - player
    mine = 0
    theirs = 0
    for c in range(CELLS):
        v = state[c]
        if v == me:
            out[c] = 1.0
            mine += 1
        elif v == opp:
            out[c] = -1.0
            theirs += 1
        else:
            out[c] = 0.0
    my_corners = 0
    opp_corners = 0
    for c in CORNER_CELLS:
        my_corners += state[c] == me
        opp_corners += state[c] == opp
    to_move = state[MOVER]
    mobility = 0
    if to_move >= 0:
        for c in range(CELLS):
            if state[c] == 0 and flips(state, c, to_move + 1, False) > 0:
                mobility += 1
    out[CELLS] = mine
    out[CELLS + 1] = theirs
    out[CELLS + 2] = my_corners
    out[CELLS + 3] = opp_corners
    out[CELLS + 4] = 1.0 if to_move == player else 0.0
    out[CELLS + 5] = mobility


@njit(cache=True)
def state_hash(params, state):
    key = np.int64(0)
    for c in range(CELLS):
        key = key * 3 + state[c]
    return key * 8 + (state[MOVER] + 4)  # the player to move: 0 (TERMINAL) .. 5


def encode(state) -> np.ndarray:
    """The position of an OthelloState."""
    out = np.empty(CELLS + 1, np.int8)
    out[:CELLS] = state.board
    out[MOVER] = state.player
    return out


class Othello(plain.Othello):
    """6x6 Othello (Reversi) with its rules also as Numba kernels: searches on it run inside Numba."""

    def kernels(self) -> Kernels:
        return Kernels(size=CELLS + 1, actions=CELLS + 1, encode=encode, legal=legal, apply=apply, mover=mover,
                       returns=returns, scores=scores, features=features, n_features=CELLS + 6, initial=initial,
                       state_hash=state_hash)
