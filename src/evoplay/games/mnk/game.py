"""The m,n,k-game (5,5,4 of seed 001; 3,3,3 is tic-tac-toe): a Python reference and Numba kernels.

The board is an int8 array of m x n cells in row-major order (m columns, n rows): 0 empty, 1 the first player
(X), 2 the second (O). The first player to own k cells in a row, column or diagonal wins; a full board without
that is a draw. Action = row * m + column; written as a column letter and a row number, e.g. ``c3``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.spec import Param
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL, Game, State

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (d_row, d_col): row, column, diagonal, anti-diagonal
_MARKS = ".XO"
# Cell code (0 empty, 1 X, 2 O) -> feature value from each player's side.
_VIEW = (np.array([0.0, 1.0, -1.0]), np.array([0.0, -1.0, 1.0]))

# --------------------------------------------------------------------------------------------------------------
# Plain-Python reference.
# --------------------------------------------------------------------------------------------------------------


def reference_wins(board: list[int], m: int, n: int, k: int, cell: int) -> bool:
    """Does the stone on ``cell`` complete k in a line?"""
    mark = board[cell]
    row, col = divmod(cell, m)
    for dr, dc in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < n and 0 <= c < m and board[r * m + c] == mark:
                run += 1
                r += sign * dr
                c += sign * dc
        if run >= k:
            return True
    return False


def reference_play(board: list[int], player: int, cell: int, m: int, n: int, k: int) -> tuple[int, int]:
    """Place ``player``'s stone on ``cell`` in place; return (next player or TERMINAL, winner or -1)."""
    board[cell] = player + 1
    if reference_wins(board, m, n, k, cell):
        return TERMINAL, player
    if all(v != 0 for v in board):
        return TERMINAL, -1
    return 1 - player, -1


# --------------------------------------------------------------------------------------------------------------
# Numba kernels.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def direction(d):
    """The step (row, column) of line direction ``d``: 0 a row, 1 a column, 2 a diagonal, 3 an anti-diagonal."""
    if d == 0:
        return 0, 1
    if d == 1:
        return 1, 0
    if d == 2:
        return 1, 1
    return 1, -1


@njit(cache=True, inline="always")
def wins(board, m, n, k, cell):
    """Kernel of ``reference_wins``."""
    mark = board[cell]
    row = cell // m
    col = cell - row * m
    for d in range(4):
        dr, dc = direction(d)
        run = 1
        r, c = row + dr, col + dc
        while 0 <= r < n and 0 <= c < m and board[r * m + c] == mark:
            run += 1
            r += dr
            c += dc
        r, c = row - dr, col - dc
        while 0 <= r < n and 0 <= c < m and board[r * m + c] == mark:
            run += 1
            r -= dr
            c -= dc
        if run >= k:
            return True
    return False


@njit(cache=True, inline="always")
def play(board, player, cell, m, n, k, empties):
    """Kernel of ``reference_play`` given the number of empty cells before the move; returns (next, winner)."""
    board[cell] = player + 1
    if wins(board, m, n, k, cell):
        return TERMINAL, player
    if empties - 1 == 0:
        return TERMINAL, -1
    return 1 - player, -1


@njit(cache=True)
def random_playouts(board, player, m, n, k, count, seed):
    """Play ``count`` uniformly random games from (board, player); return first-player wins, draws, losses."""
    np.random.seed(seed)
    size = m * n
    free = np.empty(size, np.int64)
    work = np.empty_like(board)
    won = 0
    drawn = 0
    lost = 0
    for _ in range(count):
        work[:] = board
        nfree = 0
        for i in range(size):
            if work[i] == 0:
                free[nfree] = i
                nfree += 1
        p = player
        winner = -1
        while p != TERMINAL:
            j = np.random.randint(nfree)
            cell = free[j]
            free[j] = free[nfree - 1]
            p, winner = play(work, p, cell, m, n, k, nfree)
            nfree -= 1
        if winner == 0:
            won += 1
        elif winner == 1:
            lost += 1
        else:
            drawn += 1
    return won, drawn, lost


# --------------------------------------------------------------------------------------------------------------
# The kernel protocol (evoplay.games.kernels): a position is the m*n cells, then the player to move (or
# TERMINAL), the empty cells and the winner (-1: none), int16 (a board may have more cells than int8 counts);
# params are [m, n, k].
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def k_initial(params, position, seed):
    size = params[0] * params[1]
    position[:] = 0
    position[size + 1] = size
    position[size + 2] = -1


@njit(cache=True)
def k_mover(params, position):
    return np.int64(position[params[0] * params[1]])


@njit(cache=True)
def k_legal(params, position, player, mask):
    mask[:] = 0
    size = params[0] * params[1]
    if position[size] != player:
        return 0
    count = 0
    for c in range(size):
        if position[c] == 0:
            mask[c] = 1
            count += 1
    return count


@njit(cache=True)
def k_apply(params, position, action):
    m, n, k = params[0], params[1], params[2]
    size = m * n
    nxt, winner = play(position[:size], position[size], action, m, n, k, position[size + 1])
    position[size] = nxt
    position[size + 1] -= 1
    position[size + 2] = winner


@njit(cache=True)
def k_returns(params, position, out):
    winner = position[params[0] * params[1] + 2]
    out[0] = 0.0
    out[1] = 0.0
    if winner >= 0:
        out[winner] = 1.0
        out[1 - winner] = -1.0


@njit(cache=True)
def k_features(params, position, player, out):
    """``MnkState.features``: +1 own stone, -1 the opponent's, 0 empty."""
    for c in range(params[0] * params[1]):
        v = position[c]
        out[c] = 0.0 if v == 0 else (1.0 if v == player + 1 else -1.0)


def k_encode(state) -> np.ndarray:
    return np.append(state._board, [state._player, state._empties, state._winner]).astype(np.int16)


# --------------------------------------------------------------------------------------------------------------
# The game and its state.
# --------------------------------------------------------------------------------------------------------------


class MnkGame(Game):
    name = "mnk"
    players = {"alphabeta": "evoplay.games.mnk.players:alphabeta", "genome": "evoplay.games.mnk.genome",
               "champion": "evoplay.games.mnk.players:CHAMPION"}
    view = "mnk"
    default_opponent = "alphabeta(depth=4)"
    suggested_opponents = ("alphabeta(depth=2)", "alphabeta(depth=4)", "alphabeta(schedule=empty_cells)", "random")
    tournament_agents = ("random", "alphabeta(depth=2)", "alphabeta(schedule=empty_cells)")
    summary = "m,n,k-game: k in a row on an m x n board (5,5,4 by default; mnk(m=3,n=3,k=3) is tic-tac-toe)"
    parameters = (
        Param("m", int, 5, "columns", min=1, max=26, why="columns are named a to z"),
        Param("n", int, 5, "rows", min=1, max=99, why="rows are numbered 1 to 99"),
        Param("k", int, 4, "stones in a line to win", min=1, why="a line has stones"),
    )
    num_players = 2

    def __init__(self, spec: str | None = None, params: dict | None = None, **values):
        super().__init__(spec, params, **values)  # a plain call builds the default game
        params = self.params
        self.m, self.n, self.k = int(params["m"]), int(params["n"]), int(params["k"])
        if not 1 <= self.k <= max(self.m, self.n):
            raise SpecError(f"mnk: k={self.k} cannot fit a {self.m}x{self.n} board; use 1..{max(self.m, self.n)}")

    def num_distinct_actions(self) -> int:
        return self.m * self.n

    def max_utility(self) -> float:
        return 1.0  # a win

    def openspiel_twin(self):
        """OpenSpiel's ``mnk(m,n,k)``: the same cells (row * m + column), X moving first in both."""
        return f"mnk(m={self.m},n={self.n},k={self.k})", lambda a, p: a, lambda a, p: a

    def kernels(self):
        """The rules as kernels over [cells, player to move, empty cells, winner]: every search runs in Numba."""
        from evoplay.games.kernels import Kernels

        size = self.m * self.n
        return Kernels(size=size + 3, actions=size, encode=k_encode, legal=k_legal, apply=k_apply, mover=k_mover,
                       returns=k_returns, scores=k_returns, features=k_features, n_features=size, initial=k_initial,
                       params=np.array([self.m, self.n, self.k]), dtype=np.int16)

    def new_initial_state(self, seed: int | None = None) -> "MnkState":
        return MnkState(self, np.zeros(self.m * self.n, dtype=np.int8), 0, -1)

    def state_from_board(self, board, player: int | None = None) -> "MnkState":
        """A state from m*n cells (0 empty, 1 X, 2 O); the mover follows from the stone counts if not given."""
        b = np.asarray(board, dtype=np.int8).reshape(-1).copy()
        if b.shape != (self.m * self.n,) or not np.isin(b, (0, 1, 2)).all():
            raise SpecError(f"mnk board must have {self.m * self.n} cells of 0, 1 or 2")
        if player is None:
            player = int((b == 1).sum() > (b == 2).sum())
        winner = -1
        for cell in np.flatnonzero(b):
            if reference_wins(list(b), self.m, self.n, self.k, int(cell)):
                winner = int(b[cell]) - 1
                break
        p = TERMINAL if winner >= 0 or (b != 0).all() else player
        return MnkState(self, b, p, winner)

    def feature_names(self) -> list[str]:
        """One number per cell, named like the moves (``a1``, ``b1``, ...): +1 own stone, -1 opponent's, 0 empty."""
        return [self.cell_name(c) for c in range(self.m * self.n)]

    def cell_name(self, cell: int) -> str:
        row, col = divmod(cell, self.m)
        return f"{chr(ord('a') + col)}{row + 1}"


class MnkState(State):
    __slots__ = ("game", "_board", "_player", "_winner", "_empties", "history")

    def __init__(self, game: MnkGame, board: np.ndarray, player: int, winner: int):
        self.game = game
        self._board = board
        self._player = player
        self._winner = winner
        self._empties = int((board == 0).sum())
        self.history: list[int] = []

    def current_player(self) -> int:
        return self._player

    def board(self) -> np.ndarray:
        return self._board.copy()

    def empties(self) -> int:
        return self._empties

    def features(self, player: int) -> np.ndarray:
        """The cells from ``player``'s side (``MnkGame.feature_names``): +1 own stone, -1 opponent's, 0 empty."""
        if player not in (0, 1):
            raise SpecError(f"mnk has players 0 and 1, not {player}")
        return _VIEW[player][self._board]

    def _legal_actions(self) -> list[int]:
        return [int(c) for c in np.flatnonzero(self._board == 0)]

    def _apply_action(self, action: int) -> None:
        g = self.game
        p, w = play(self._board, self._player, action, g.m, g.n, g.k, self._empties)
        self._player, self._winner = int(p), int(w)
        self._empties -= 1
        self.history.append(action)

    def apply_action_unchecked(self, action: int) -> None:
        self._apply_action(action)

    def _action_to_string(self, action: int) -> str:
        return self.game.cell_name(action)

    def why_illegal(self, action: int, player: int) -> str:
        if 0 <= action < self.game.m * self.game.n:
            return f"{self.action_to_string(action)} is taken; place your stone on an empty cell"
        return super().why_illegal(action, player)

    def view_fields(self, player: int) -> dict:
        """The web app's m,n,k drawing: the cells (0 empty, 1 X, 2 O), their names, ``player``'s mark, the last move."""
        g = self.game
        return {"m": g.m, "n": g.n, "k": g.k, "cells": [int(x) for x in self._board], "marks": ".XO",
                "your_mark": "XO"[player], "names": [g.cell_name(c) for c in range(g.m * g.n)],
                "last": self.history[-1] if self.history else None, "text": str(self)}

    def _string_to_action(self, text: str) -> int:
        g = self.game
        t = text.lower().replace(" ", "")
        if len(t) >= 2 and t[0].isascii() and t[0].isalpha() and t[1:].isascii() and t[1:].isdigit():
            col, row = ord(t[0]) - ord("a"), int(t[1:]) - 1
            if 0 <= col < g.m and 0 <= row < g.n:
                return row * g.m + col
        last = g.cell_name(g.m * g.n - 1)
        raise IllegalActionError(f"{text!r} is not a cell; type a column letter and a row number, a1..{last}")

    def returns(self) -> list[float]:
        if self._winner == 0:
            return [1.0, -1.0]
        if self._winner == 1:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def clone(self) -> "MnkState":
        s = MnkState.__new__(MnkState)
        s.game, s._board, s._player, s._winner = self.game, self._board.copy(), self._player, self._winner
        s._empties, s.history = self._empties, list(self.history)
        return s

    def __str__(self) -> str:
        g = self.game
        lines = ["   " + " ".join(chr(ord("a") + c) for c in range(g.m))]
        for r in reversed(range(g.n)):
            cells = " ".join(_MARKS[self._board[r * g.m + c]] for c in range(g.m))
            lines.append(f"{r + 1:2d} {cells}")
        if self._player == TERMINAL:
            lines.append("game over: " + ("draw" if self._winner < 0 else f"{_MARKS[self._winner + 1]} wins"))
        else:
            lines.append(f"{_MARKS[self._player + 1]} (player {self._player}) to move")
        return "\n".join(lines)
