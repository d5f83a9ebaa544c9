"""OpenSpiel's mancala (the standard Kalah rules), ported: its rules in plain Python beside the same rules as Numba
kernels. (evoplay's own ``kalah`` is another game: its capture rule is the seed's.)

As open_spiel/games/mancala/mancala.cc (no parameters). The board is 14 pits of 4 beans: pit 7 is player 0's store
and pits 1..6 its pits, pit 0 is player 1's store and pits 8..13 its pits. A move (the pit's number, written as the
number) sows the pit's beans one a pit counterclockwise, skipping the opponent's store. A last bean in the mover's
own store gives it another move; a last bean in an empty pit of its own, facing beans, takes both into its store.
The game ends when either row is empty, or after 1,000 moves (OpenSpiel's ``MaxGameLength``: the state is terminal
once its move number passes it); more beans on one's side (pits and store) wins (returns 1 and -1), equal counts
draw. The observation tensor is the 14 pits, the player to move as OpenSpiel keeps it (also when the game is over)
and the move number, the same for both players. The kernels' position is the pits, the player OpenSpiel keeps, the
move number and the player to move (or TERMINAL).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, PortGame, PortState, cells_hash, encode_state, seat_features,
                                     totals_returned, totals_returns)

PITS = 6  # a player's pits
TOTAL = 2 * (PITS + 1)  # the pits and the two stores
STORE = (PITS + 1, 0)  # each player's store
MAX_GAME_LENGTH = 1000  # OpenSpiel's MaxGameLength: a state whose move number passes it is terminal
KEPT, MOVES, MOVER = TOTAL, TOTAL + 1, TOTAL + 2  # the position's numbers after the pits
SIZE = TOTAL + 3


# --- the rules, plain Python ---------------------------------------------------------------------------------
def own_pit(player: int, pit: int) -> bool:
    return 0 < pit < STORE[0] if player == 0 else pit > STORE[0]


def next_pit(player: int, pit: int) -> int:
    """The pit after ``pit`` in sowing order for ``player``: the opponent's store is skipped."""
    pit = (pit + 1) % TOTAL
    return pit + 1 if pit == STORE[1 - player] else pit


class MancalaState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = [4] * TOTAL
        self.board[0] = self.board[STORE[0]] = 0
        self.player = 0  # OpenSpiel's current_player_, kept after the game ends
        self.moves = 0

    def over(self) -> bool:
        b = self.board
        return self.moves > MAX_GAME_LENGTH or not any(b[1:STORE[0]]) or not any(b[STORE[0] + 1:])

    def current_player(self) -> int:
        return TERMINAL if self.over() else self.player

    def _legal_actions(self) -> list[int]:
        first = 1 if self.player == 0 else STORE[0] + 1
        return [pit for pit in range(first, first + PITS) if self.board[pit] > 0]

    def _do_apply_action(self, action: int) -> None:
        board, player = self.board, self.player
        beans, board[action] = board[action], 0
        pit = action
        for _ in range(beans):
            pit = next_pit(player, pit)
            board[pit] += 1
        opposite = TOTAL - pit
        if board[pit] == 1 and own_pit(player, pit) and board[opposite] > 0:  # a capture
            board[STORE[player]] += 1 + board[opposite]
            board[pit] = board[opposite] = 0
        if pit != STORE[player]:
            self.player = 1 - player
        self.moves += 1

    def returns(self) -> list[float]:
        if not self.over():
            return [0.0, 0.0]
        first = sum(self.board[1:STORE[0] + 1])
        second = sum(self.board[STORE[0] + 1:]) + self.board[0]
        return totals_returns(first, second)

    def observation(self, player: int) -> list[float]:
        return [float(beans) for beans in self.board] + [float(self.player), float(self.moves)]

    def action_string(self, player: int, action: int) -> str:
        return str(action)

    def transposition_key(self):
        return self.current_player(), self.player, tuple(self.board), self.moves

    def encode(self) -> np.ndarray:
        return np.array(self.board + [self.player, self.moves, self.current_player()], np.int16)

    def __str__(self) -> str:
        b = self.board
        top = "-" + "".join(f"{b[TOTAL - 1 - i]}-" for i in range(PITS))
        middle = f"{b[0]}{'-' * (2 * PITS - 1)}{b[STORE[0]]}"
        bottom = "-" + "".join(f"{b[i + 1]}-" for i in range(PITS))
        return f"{top}\n{middle}\n{bottom}\nCurrent player: {self.player}\nMove number: {self.moves}"


# --- the same rules as kernels -----------------------------------------------------------------------------------
@njit(cache=True)
def initial(params, state, seed):
    state[:] = 4
    state[0] = 0
    state[PITS + 1] = 0
    state[KEPT] = 0
    state[MOVES] = 0
    state[MOVER] = 0


@njit(cache=True)
def mover(params, state):
    return np.int64(state[MOVER])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[MOVER] != player:
        return 0
    first = 1 if player == 0 else PITS + 2
    n = 0
    for pit in range(first, first + PITS):
        if state[pit] > 0:
            mask[pit] = 1
            n += 1
    return n


@njit(cache=True)
def moves(params, state, out):
    player = state[MOVER]
    if player < 0:
        return 0
    first = 1 if player == 0 else PITS + 2
    n = 0
    for pit in range(first, first + PITS):
        if state[pit] > 0:
            out[n] = pit
            n += 1
    return n


@njit(cache=True)
def apply(params, state, action):
    player = state[KEPT]
    skipped = 0 if player == 0 else PITS + 1  # the opponent's store
    beans = state[action]
    state[action] = 0
    pit = action
    for _ in range(beans):
        pit += 1
        if pit == TOTAL:
            pit = 0
        if pit == skipped:
            pit += 1
        state[pit] += 1
    store = PITS + 1 if player == 0 else 0
    own = (0 < pit < PITS + 1) if player == 0 else pit > PITS + 1
    opposite = TOTAL - pit
    if state[pit] == 1 and own and state[opposite] > 0:
        state[store] += 1 + state[opposite]
        state[pit] = 0
        state[opposite] = 0
    if pit != store:
        state[KEPT] = 1 - player
    state[MOVES] += 1
    first_empty = True
    second_empty = True
    for i in range(PITS):
        if state[1 + i] > 0:
            first_empty = False
        if state[PITS + 2 + i] > 0:
            second_empty = False
    over = state[MOVES] > MAX_GAME_LENGTH or first_empty or second_empty
    state[MOVER] = TERMINAL if over else state[KEPT]


@njit(cache=True)
def returns(params, state, out):
    out[0] = 0.0
    out[1] = 0.0
    if state[MOVER] != TERMINAL:
        return
    first = 0
    second = state[0]
    for i in range(PITS + 1):
        first += state[1 + i]
    for i in range(PITS):
        second += state[PITS + 2 + i]
    totals_returned(first, second, out)


@njit(cache=True)
def observation(params, state, player, out):
    for i in range(TOTAL + 2):
        out[i] = state[i]


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    return cells_hash(state[:TOTAL], state[MOVER], state[KEPT] * 2048 + state[MOVES])


# --- the game ----------------------------------------------------------------------------------------------------
class Mancala(PortGame):
    """OpenSpiel's mancala (Kalah), ported (no parameters)."""

    openspiel_name = "mancala"
    plays = "the game (it has no parameters: six pits of four beans)"

    def new_initial_state(self, seed: int | None = None) -> MancalaState:
        return MancalaState(self)

    def kernels(self):
        return self.port_kernels(size=SIZE, encode=encode_state, legal=legal, apply=apply, mover=mover,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash,
                                 moves=moves, dtype=np.int16)
