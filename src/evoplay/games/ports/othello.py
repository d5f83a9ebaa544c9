"""OpenSpiel's othello, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/othello/othello.cc (no parameters; an 8x8 board). Cell ``row * 8 + column`` is the action of
placing a disc there (row 0 is the top, printed ``1``; column 0 is ``a``: action 0 is ``a1``); action 64 is the
pass, legal only when the player has no placing move. Black (player 0, ``x``) moves first from the four centre
discs. A disc must outflank at least one line of the opponent's discs, which all turn; when after a placing move
neither player can place, the game ends and more discs win (returns 1 and -1; equal counts draw). Cells hold
OpenSpiel's ``CellState`` (0 empty, 1 black, 2 white); the observation tensor has 3 planes of 8x8: the empty cells,
the viewer's discs, the opponent's. The kernels' position is four int64 numbers: black's and white's discs as
bitboards (bit ``cell`` of a uint64; moves are found by shifting whole boards a step at a time), the player to move
(or TERMINAL) and the outcome (0 none yet, 1 black won, 2 white won, 3 a draw).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, PortGame, PortState, draw, encode_state, mix, outcome_returns,
                                     seat_features, winner_returns)

SIDE = 8
CELLS = SIDE * SIDE
PASS = CELLS
EMPTY, BLACK, WHITE = 0, 1, 2
DISC = (BLACK, WHITE)  # each player's discs
# OpenSpiel's kDirections: up, down, left, right, up-left, up-right, down-left, down-right
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
UNDECIDED, DRAW = 0, 3  # outcomes besides a player's win (player + 1)
BLACK_BITS, WHITE_BITS, PLAYER, OUTCOME = 0, 1, 2, 3  # the kernels' position
SIZE = 4


# --- the rules, plain Python ---------------------------------------------------------------------------------
def starting_board() -> list[int]:
    board = [EMPTY] * CELLS
    board[3 * SIDE + 3] = board[4 * SIDE + 4] = WHITE
    board[3 * SIDE + 4] = board[4 * SIDE + 3] = BLACK
    return board


def rays(cell: int) -> list[tuple[int, ...]]:
    """The cells along each of OpenSpiel's directions from ``cell`` to the board's edge, in its direction order
    (the rays of two cells or more: a shorter one outflanks nothing)."""
    r0, c0 = divmod(cell, SIDE)
    out = []
    for dr, dc in DIRECTIONS:
        ray = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < SIDE and 0 <= c < SIDE:
            ray.append(r * SIDE + c)
            r, c = r + dr, c + dc
        if len(ray) >= 2:
            out.append(tuple(ray))
    return out


RAYS = [rays(cell) for cell in range(CELLS)]


def outflanked(board: list[int], mine: int, ray: tuple[int, ...]) -> int:
    """OpenSpiel's ``CountSteps``: how many opponent's discs a disc ``mine`` outflanks along ``ray`` (0 unless
    the run ends on a disc of its own)."""
    for count, cell in enumerate(ray):
        state = board[cell]
        if state == mine:
            return count
        if state == EMPTY:
            return 0
    return 0


def can_place(board: list[int], mine: int, cell: int) -> bool:
    """Does a disc ``mine`` on ``cell`` outflank a line (an opponent's disc next to it, a run of them, its own)?"""
    if board[cell] != EMPTY:
        return False
    theirs = 3 - mine
    for ray in RAYS[cell]:
        if board[ray[0]] == theirs:
            for beyond in ray[1:]:
                state = board[beyond]
                if state == mine:
                    return True
                if state == EMPTY:
                    break
    return False


def placing_moves(board: list[int], player: int) -> list[int]:
    mine = DISC[player]
    return [cell for cell in range(CELLS) if can_place(board, mine, cell)]


def can_move(board: list[int], player: int) -> bool:
    mine = DISC[player]
    return any(can_place(board, mine, cell) for cell in range(CELLS))


class OthelloState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = starting_board()
        self.player = 0
        self.outcome = UNDECIDED

    def current_player(self) -> int:
        return TERMINAL if self.outcome != UNDECIDED else self.player

    def _legal_actions(self) -> list[int]:
        return placing_moves(self.board, self.player) or [PASS]

    def _do_apply_action(self, action: int) -> None:
        if action == PASS:
            self.player = 1 - self.player
            return
        board, player, mine = self.board, self.player, DISC[self.player]
        for ray in RAYS[action]:
            for cell in ray[:outflanked(board, mine, ray)]:
                board[cell] = mine
        board[action] = mine
        if not can_move(board, 1 - player) and not can_move(board, player):  # neither can place: the game ends
            black, white = board.count(BLACK), board.count(WHITE)
            self.outcome = 1 if black > white else 2 if white > black else DRAW
        else:
            self.player = 1 - player

    def returns(self) -> list[float]:
        return winner_returns(self.outcome - 1)

    def observation(self, player: int) -> list[float]:
        board, mine, theirs = self.board, DISC[player], DISC[1 - player]
        return ([1.0 if s == EMPTY else 0.0 for s in board] + [1.0 if s == mine else 0.0 for s in board]
                + [1.0 if s == theirs else 0.0 for s in board])

    def action_string(self, player: int, action: int) -> str:
        if action == PASS:
            return "pass"
        return f"{'abcdefgh'[action % SIDE]}{action // SIDE + 1}"

    def transposition_key(self):
        return self.current_player(), tuple(self.board)

    def encode(self) -> np.ndarray:
        black = sum(1 << cell for cell, state in enumerate(self.board) if state == BLACK)
        white = sum(1 << cell for cell, state in enumerate(self.board) if state == WHITE)
        bits = np.array([black, white], np.uint64).view(np.int64)  # the uint64 bitboards, as int64 numbers
        return np.array([bits[0], bits[1], self.current_player(), self.outcome], np.int64)

    def __str__(self) -> str:
        labels = "  a b c d e f g h  "
        if self.outcome != UNDECIDED:
            top = "Terminal State:\n"
        else:
            top = f"{('Black (x)', 'White (o)')[self.player]} to play:\n"
        rows = "".join(f"{r + 1} {' '.join(map('-xo'.__getitem__, self.board[r * SIDE:(r + 1) * SIDE]))} {r + 1}\n"
                       for r in range(SIDE))
        return top + labels + "\n" + rows + labels


# --- the same rules as kernels: bitboards (bit ``cell`` of a uint64 per colour) --------------------------------
NOT_FIRST = np.uint64(0xFEFEFEFEFEFEFEFE)  # every cell but column a's: a step right must not wrap onto them
NOT_LAST = np.uint64(0x7F7F7F7F7F7F7F7F)  # every cell but column h's: a step left must not wrap onto them
ONE = np.uint64(1)


@njit(cache=True, inline="always")
def step(bits, d):
    """Every disc of ``bits`` moved one cell along direction ``d`` (OpenSpiel's order: up, down, left, right,
    up-left, up-right, down-left, down-right); discs that would leave the board are gone."""
    if d == 0:
        return bits >> np.uint64(8)
    if d == 1:
        return bits << np.uint64(8)
    if d == 2:
        return (bits >> ONE) & NOT_LAST
    if d == 3:
        return (bits << ONE) & NOT_FIRST
    if d == 4:
        return (bits >> np.uint64(9)) & NOT_LAST
    if d == 5:
        return (bits >> np.uint64(7)) & NOT_FIRST
    if d == 6:
        return (bits << np.uint64(7)) & NOT_LAST
    return (bits << np.uint64(9)) & NOT_FIRST


@njit(cache=True)
def placing(own, opp):
    """The cells where a disc of ``own`` outflanks a line of ``opp`` (as bits): from each run of the opponent's
    discs next to one of the player's, the empty cell beyond it."""
    empty = ~(own | opp)
    out = np.uint64(0)
    for d in range(8):
        run = step(own, d) & opp
        for _ in range(5):  # a run is at most six discs long
            run |= step(run, d) & opp
        out |= step(run, d) & empty
    return out


@njit(cache=True, inline="always")
def count(bits):
    """How many bits are set."""
    bits = bits - ((bits >> ONE) & np.uint64(0x5555555555555555))
    bits = (bits & np.uint64(0x3333333333333333)) + ((bits >> np.uint64(2)) & np.uint64(0x3333333333333333))
    bits = (bits + (bits >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((bits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest(bits):
    """The cell of the lowest set bit."""
    return count((bits & (~bits + ONE)) - ONE)


@njit(cache=True, inline="always")
def sides(state):
    """(the mover's discs, the opponent's) as bits."""
    black = np.uint64(state[BLACK_BITS])
    white = np.uint64(state[WHITE_BITS])
    return (black, white) if state[PLAYER] == 0 else (white, black)


@njit(cache=True)
def initial(params, state, seed):
    state[BLACK_BITS] = np.int64((ONE << np.uint64(3 * SIDE + 4)) | (ONE << np.uint64(4 * SIDE + 3)))
    state[WHITE_BITS] = np.int64((ONE << np.uint64(3 * SIDE + 3)) | (ONE << np.uint64(4 * SIDE + 4)))
    state[PLAYER] = 0
    state[OUTCOME] = UNDECIDED


@njit(cache=True)
def mover(params, state):
    return np.int64(state[PLAYER])


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[PLAYER] != player:
        return 0
    own, opp = sides(state)
    cells = placing(own, opp)
    if cells == 0:
        mask[PASS] = 1
        return 1
    n = 0
    while cells:
        mask[lowest(cells)] = 1
        cells &= cells - ONE
        n += 1
    return n


@njit(cache=True)
def moves(params, state, out):
    if state[PLAYER] < 0:
        return 0
    own, opp = sides(state)
    cells = placing(own, opp)
    if cells == 0:
        out[0] = PASS
        return 1
    n = 0
    while cells:
        out[n] = lowest(cells)
        cells &= cells - ONE
        n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random move: the k-th of the placing cells for a random k (the pass when there is none)."""
    if state[PLAYER] < 0:
        return -1
    own, opp = sides(state)
    cells = placing(own, opp)
    if cells == 0:
        return PASS
    for _ in range(draw(rng, count(cells))):
        cells &= cells - ONE
    return lowest(cells)


@njit(cache=True)
def apply(params, state, action):
    player = state[PLAYER]
    if action == PASS:
        state[PLAYER] = 1 - player
        return
    own, opp = sides(state)
    placed = ONE << np.uint64(action)
    turned = np.uint64(0)
    for d in range(8):
        run = np.uint64(0)
        at = step(placed, d)
        while at & opp:
            run |= at
            at = step(at, d)
        if at & own:
            turned |= run
    own |= placed | turned
    opp &= ~turned
    state[BLACK_BITS if player == 0 else WHITE_BITS] = np.int64(own)
    state[WHITE_BITS if player == 0 else BLACK_BITS] = np.int64(opp)
    if placing(opp, own) != 0 or placing(own, opp) != 0:  # the opponent (or else the player) can place
        state[PLAYER] = 1 - player
        return
    black = count(np.uint64(state[BLACK_BITS]))
    white = count(np.uint64(state[WHITE_BITS]))
    state[OUTCOME] = 1 if black > white else 2 if white > black else DRAW
    state[PLAYER] = TERMINAL


@njit(cache=True)
def returns(params, state, out):
    outcome_returns(state[OUTCOME], out)


@njit(cache=True)
def observation(params, state, player, out):
    black = np.uint64(state[BLACK_BITS])
    white = np.uint64(state[WHITE_BITS])
    own, opp = (black, white) if player == 0 else (white, black)
    out[:] = 0.0
    for cell in range(CELLS):
        bit = ONE << np.uint64(cell)
        out[(1 if own & bit else 2 if opp & bit else 0) * CELLS + cell] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    return np.int64(mix(state[BLACK_BITS]) ^ mix(state[WHITE_BITS] ^ np.int64(0x5DEECE66D)) ^ mix(state[PLAYER] + 16))


# --- the game ----------------------------------------------------------------------------------------------------
class Othello(PortGame):
    """OpenSpiel's othello, ported (no parameters: the 8x8 board)."""

    openspiel_name = "othello"
    plays = "the game (it has no parameters: the 8x8 board)"

    def new_initial_state(self, seed: int | None = None) -> OthelloState:
        return OthelloState(self)

    def kernels(self):
        return self.port_kernels(size=SIZE, encode=encode_state, legal=legal, apply=apply, mover=mover,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash,
                                 moves=moves, random_move=random_move, dtype=np.int64)
