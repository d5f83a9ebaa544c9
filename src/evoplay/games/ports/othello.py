"""OpenSpiel's othello, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/othello/othello.cc (no parameters; an 8x8 board). Cell ``row * 8 + column`` is the action of
placing a disc there (row 0 is the top, printed ``1``; column 0 is ``a``: action 0 is ``a1``); action 64 is the
pass, legal only when the player has no placing move. Black (player 0, ``x``) moves first from the four centre
discs. A disc must outflank at least one line of the opponent's discs, which all turn; when after a placing move
neither player can place, the game ends and more discs win (returns 1 and -1; equal counts draw). Cells hold
OpenSpiel's ``CellState`` (0 empty, 1 black, 2 white); the observation tensor has 3 planes of 8x8: the empty cells,
the viewer's discs, the opponent's. The kernels' position is the cells, the player to move (or TERMINAL) and the
outcome (0 none yet, 1 black won, 2 white won, 3 a draw).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import TERMINAL, PortGame, PortState, cells_hash, encode_state, seat_relative

SIDE = 8
CELLS = SIDE * SIDE
PASS = CELLS
EMPTY, BLACK, WHITE = 0, 1, 2
DISC = (BLACK, WHITE)  # each player's discs
# OpenSpiel's kDirections: up, down, left, right, up-left, up-right, down-left, down-right
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
UNDECIDED, DRAW = 0, 3  # outcomes besides a player's win (player + 1)
PLAYER, OUTCOME = CELLS, CELLS + 1  # the position's numbers after the cells
SIZE = CELLS + 2


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
        if self.outcome == 1:
            return [1.0, -1.0]
        if self.outcome == 2:
            return [-1.0, 1.0]
        return [0.0, 0.0]

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
        return np.array(self.board + [self.current_player(), self.outcome], np.int8)

    def __str__(self) -> str:
        labels = "  a b c d e f g h  "
        top = "Terminal State:\n" if self.outcome != UNDECIDED else f"{('Black (x)', 'White (o)')[self.player]} to play:\n"
        rows = "".join(f"{r + 1} {' '.join(map('-xo'.__getitem__, self.board[r * SIDE:(r + 1) * SIDE]))} {r + 1}\n"
                       for r in range(SIDE))
        return top + labels + "\n" + rows + labels


# --- the same rules as kernels -----------------------------------------------------------------------------------
DIRECTION_STEPS = np.array(DIRECTIONS, np.int64)


@njit(cache=True)
def initial(params, state, seed):
    state[:] = EMPTY
    state[3 * SIDE + 3] = WHITE
    state[4 * SIDE + 4] = WHITE
    state[3 * SIDE + 4] = BLACK
    state[4 * SIDE + 3] = BLACK
    state[PLAYER] = 0
    state[OUTCOME] = UNDECIDED


@njit(cache=True)
def mover(params, state):
    return np.int64(state[PLAYER])


@njit(cache=True, inline="always")
def run_length(state, mine, cell, dr, dc):
    """outflanked(): the opponent's discs outflanked from ``cell`` along (dr, dc) by a disc ``mine``."""
    r = cell // SIDE + dr
    c = cell % SIDE + dc
    count = 0
    while 0 <= r < SIDE and 0 <= c < SIDE:
        s = state[r * SIDE + c]
        if s == mine:
            return count
        if s == EMPTY:
            return 0
        count += 1
        r += dr
        c += dc
    return 0


@njit(cache=True)
def placeable(state, mine, cell):
    if state[cell] != EMPTY:
        return False
    for d in range(8):
        if run_length(state, mine, cell, DIRECTION_STEPS[d, 0], DIRECTION_STEPS[d, 1]) > 0:
            return True
    return False


@njit(cache=True)
def any_placing(state, mine):
    for cell in range(CELLS):
        if placeable(state, mine, cell):
            return True
    return False


@njit(cache=True)
def legal(params, state, player, mask):
    mask[:] = 0
    if state[PLAYER] != player:
        return 0
    mine = BLACK if player == 0 else WHITE
    n = 0
    for cell in range(CELLS):
        if placeable(state, mine, cell):
            mask[cell] = 1
            n += 1
    if n == 0:
        mask[PASS] = 1
        n = 1
    return n


@njit(cache=True)
def apply(params, state, action):
    player = state[PLAYER]
    if action == PASS:
        state[PLAYER] = 1 - player
        return
    mine = BLACK if player == 0 else WHITE
    for d in range(8):
        dr = DIRECTION_STEPS[d, 0]
        dc = DIRECTION_STEPS[d, 1]
        n = run_length(state, mine, action, dr, dc)
        r = action // SIDE
        c = action % SIDE
        for _ in range(n):
            r += dr
            c += dc
            state[r * SIDE + c] = mine
    state[action] = mine
    # the game goes on when the opponent (or else the player) can place; checked opponent first, the likelier
    if any_placing(state, WHITE if player == 0 else BLACK) or any_placing(state, mine):
        state[PLAYER] = 1 - player
        return
    black = 0
    white = 0
    for cell in range(CELLS):
        if state[cell] == BLACK:
            black += 1
        elif state[cell] == WHITE:
            white += 1
    state[OUTCOME] = 1 if black > white else 2 if white > black else DRAW
    state[PLAYER] = TERMINAL


@njit(cache=True)
def returns(params, state, out):
    outcome = state[OUTCOME]
    out[0] = 0.0
    out[1] = 0.0
    if outcome == 1 or outcome == 2:
        out[outcome - 1] = 1.0
        out[2 - outcome] = -1.0


@njit(cache=True)
def observation(params, state, player, out):
    mine = BLACK if player == 0 else WHITE
    out[:] = 0.0
    for cell in range(CELLS):
        s = state[cell]
        plane = 0 if s == EMPTY else 1 if s == mine else 2
        out[plane * CELLS + cell] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    raw = np.empty(out.shape[0])
    observation(params, state, player, raw)
    seat_relative(params, player, raw, out)


@njit(cache=True)
def state_hash(params, state):
    return cells_hash(state[:CELLS], state[PLAYER], 0)


# --- the game ----------------------------------------------------------------------------------------------------
class Othello(PortGame):
    """OpenSpiel's othello, ported (no parameters: the 8x8 board)."""

    openspiel_name = "othello"
    plays = "the game (it has no parameters: the 8x8 board)"

    def new_initial_state(self, seed: int | None = None) -> OthelloState:
        return OthelloState(self)

    def kernels(self):
        return self.port_kernels(size=SIZE, encode=encode_state, legal=legal, apply=apply, mover=mover,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash)
