"""OpenSpiel's tic_tac_toe, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/tic_tac_toe/tic_tac_toe.cc: cells 0..8 row by row are the actions; x (player 0) moves first;
a cell holds OpenSpiel's ``CellState`` (0 empty, 1 nought ``o``, 2 cross ``x``), which is also the cell's plane of
the observation tensor (3 planes of 9 cells, the same for both players); a line of three wins (returns 1 and -1),
a full board without one is a draw. The kernels' position is the 9 cells, the player to move (or TERMINAL), the
winner plus one (0: none yet), the number of moves and each player's cells as a bitboard (bit ``cell``: a line is
found by comparing the board with the masks of the lines through the cell just played).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, PortGame, PortState, cells_hash, drawn_from, encode_state,
                                     outcome_returns, seat_features)

CELLS = 9
EMPTY, NOUGHT, CROSS = 0, 1, 2
MARK = (CROSS, NOUGHT)  # the cell state each player writes
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
PLAYER, WINNER, MOVES, BITS = 9, 10, 11, 12  # the position's numbers after the cells (BITS: x's, then o's)
SIZE = 14


# --- the rules, plain Python ---------------------------------------------------------------------------------
def has_line(board: list[int], mark: int) -> bool:
    return any(board[a] == mark and board[b] == mark and board[c] == mark for a, b, c in LINES)


class TicTacToeState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = [EMPTY] * CELLS
        self.player = 0
        self.winner = -1
        self.moves = 0

    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 or self.moves == CELLS else self.player

    def _legal_actions(self) -> list[int]:
        return [c for c in range(CELLS) if self.board[c] == EMPTY]

    def _do_apply_action(self, action: int) -> None:
        self.board[action] = MARK[self.player]
        if has_line(self.board, MARK[self.player]):
            self.winner = self.player
        self.player = 1 - self.player
        self.moves += 1

    def returns(self) -> list[float]:
        if has_line(self.board, CROSS):
            return [1.0, -1.0]
        if has_line(self.board, NOUGHT):
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def observation(self, player: int) -> list[float]:
        tensor = [0.0] * (3 * CELLS)
        for cell, state in enumerate(self.board):
            tensor[state * CELLS + cell] = 1.0
        return tensor

    def action_string(self, player: int, action: int) -> str:
        return f"{'x' if player == 0 else 'o'}({action // 3},{action % 3})"

    def transposition_key(self):
        return self.current_player(), tuple(self.board)

    def encode(self) -> np.ndarray:
        bits = [sum(1 << c for c in range(CELLS) if self.board[c] == mark) for mark in MARK]
        return np.array(self.board + [self.current_player(), self.winner + 1, self.moves] + bits, np.int16)

    def __str__(self) -> str:
        return "\n".join("".join(".ox"[s] for s in self.board[r * 3:r * 3 + 3]) for r in range(3))


# --- the same rules as kernels --------------------------------------------------------------------------------
LINE_BITS = np.array([sum(1 << c for c in line) for line in LINES], np.int64)
# per cell, the lines through it (-1 after the last)
THROUGH = np.array([[i for i, line in enumerate(LINES) if c in line] + [-1] * (4 - sum(c in line for line in LINES))
                    for c in range(CELLS)], np.int64)


@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0


@njit(cache=True)
def mover(params, state):
    return np.int64(state[PLAYER])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[PLAYER] != player:
        return 0
    n = 0
    for c in range(CELLS):
        if state[c] == EMPTY:
            mask[c] = 1
            n += 1
    return n


@njit(cache=True)
def moves(params, state, out):
    if state[PLAYER] < 0:
        return 0
    n = 0
    for c in range(CELLS):  # without a branch: every cell is written, only the empty ones are kept
        out[n] = c
        n += state[c] == EMPTY
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random empty cell, drawn from the list of them (on nine cells, listing is cheaper than drawing
    cells until one is empty)."""
    return drawn_from(out, moves(params, state, out), rng)


@njit(cache=True)
def apply(params, state, action):
    player = state[PLAYER]
    state[action] = CROSS if player == 0 else NOUGHT
    state[MOVES] += 1
    bits = state[BITS + player] | (1 << action)
    state[BITS + player] = bits
    for k in range(THROUGH.shape[1]):  # only the lines through the cell just played can be new
        line = THROUGH[action, k]
        if line < 0:
            break
        if bits & LINE_BITS[line] == LINE_BITS[line]:
            state[WINNER] = player + 1
            break
    state[PLAYER] = TERMINAL if state[WINNER] or state[MOVES] == CELLS else 1 - player


@njit(cache=True)
def returns(params, state, out):
    outcome_returns(state[WINNER], out)  # the winner plus one


@njit(cache=True)
def observation(params, state, player, out):
    out[:] = 0.0
    for c in range(CELLS):
        out[state[c] * CELLS + c] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    return cells_hash(state[:CELLS], state[PLAYER], 0)


# --- the game ----------------------------------------------------------------------------------------------------
class TicTacToe(PortGame):
    """OpenSpiel's tic_tac_toe, ported (no parameters)."""

    openspiel_name = "tic_tac_toe"
    plays = "the game (it has no parameters)"

    def new_initial_state(self, seed: int | None = None) -> TicTacToeState:
        return TicTacToeState(self)

    def kernels(self):
        return self.port_kernels(size=SIZE, encode=encode_state, legal=legal, apply=apply, mover=mover, dtype=np.int16,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash,
                                 moves=moves, random_move=random_move)
