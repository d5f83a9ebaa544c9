"""OpenSpiel's pentago, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/pentago/pentago.cc, with its parameter ``ansi_color_output`` (how ``str(state)`` colours the
board). The board is 6x6, cell ``x + 6 * y`` (x the column ``a``..``f``, y the row ``1``..``6`` from the top), in four
3x3 quadrants: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left. A move places a marble on an empty cell and
then turns one quadrant a quarter: action ``(y * 6 + x) * 8 + r`` turns quadrant ``r // 2`` anticlockwise (``r`` even)
or clockwise (odd); OpenSpiel writes it ``a1s`` (the rotation as a letter from ``s``). Five in a row (a row, column or
diagonal) after the turn wins (returns 1 and -1); both players' lines at once, or a full board without one, draw.
Player 0 (``O``) moves first. The observation tensor has 3 planes of 6x6: the viewer's marbles, the opponent's, the
empty cells. The rules below turn a quadrant's ring of cells; the kernels keep OpenSpiel's bitboards (each player's
marbles on the bits of its ``xy_to_bit``, which puts each quadrant's ring on eight bits in a row, so a turn is two
shifts) and test its 32 win masks. The kernels' position is the two bitboards, the player to move (or TERMINAL), the
outcome (0 none yet, 1 player 0 won, 2 player 1 won, 3 a draw) and the marbles placed.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, TRIES, PortGame, PortState, draw, drawn_from, encode_state, mix,
                                     outcome_returns, seat_features, winner_returns)

SIDE = 6
CELLS = SIDE * SIDE
ROTATIONS = 8
EMPTY = 0
UNDECIDED, DRAW = 0, 3  # outcomes besides a player's win (player + 1)
FIRST_BITS, SECOND_BITS, PLAYER, OUTCOME, PLACED = 0, 1, 2, 3, 4  # the kernels' position
SIZE = 5

# OpenSpiel's xy_to_bit: quadrant q holds the bits 9q..9q+8, its ring of eight cells clockwise from bit 9q and its
# centre on bit 9q+8; turning a quadrant clockwise moves each ring cell two bits on, anticlockwise two bits back.
XY_TO_BIT = (0, 1, 2, 15, 16, 9,
             7, 8, 3, 14, 17, 10,
             6, 5, 4, 13, 12, 11,
             29, 30, 31, 22, 23, 24,
             28, 35, 32, 21, 26, 25,
             27, 34, 33, 20, 19, 18)
BIT_TO_XY = tuple(XY_TO_BIT.index(b) for b in range(CELLS))
# per quadrant, its ring of eight cells in clockwise order
RINGS = tuple(tuple(BIT_TO_XY[9 * q + k] for k in range(8)) for q in range(4))


def five(x: int, y: int, dx: int, dy: int) -> tuple[int, ...]:
    return tuple(x + i * dx + (y + i * dy) * SIDE for i in range(5))


# OpenSpiel's win_mask: the 32 lines of five
LINES = tuple([five(x, y, 1, 0) for y in range(SIDE) for x in (0, 1)]
              + [five(x, y, 0, 1) for x in range(SIDE) for y in (0, 1)]
              + [five(0, 0, 1, 1), five(1, 1, 1, 1), five(0, 1, 1, 1), five(1, 0, 1, 1)]
              + [five(0, 5, 1, -1), five(1, 4, 1, -1), five(0, 4, 1, -1), five(1, 5, 1, -1)])

ARROWS = ("v", ">", "<", "v", "^", "<", ">", "^")
LEFT = (ARROWS[0], "s", " ", " ", "z", ARROWS[7])
RIGHT = (ARROWS[3], "v", " ", " ", "w", ARROWS[4])


# --- the rules, plain Python ---------------------------------------------------------------------------------
def turn(board: list[int], rotation: int) -> None:
    """Turn quadrant ``rotation // 2`` a quarter: anticlockwise for an even ``rotation``, clockwise for odd."""
    ring = RINGS[rotation >> 1]
    shift = 2 if rotation & 1 else 6  # clockwise: each cell's marble moves two ring places on
    old = [board[c] for c in ring]
    for k in range(8):
        board[ring[(k + shift) % 8]] = old[k]


def lines_of(board: list[int], mark: int) -> bool:
    return any(all(board[c] == mark for c in line) for line in LINES)


class PentagoState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.board = [EMPTY] * CELLS
        self.player = 0
        self.outcome = UNDECIDED
        self.placed = 0

    def current_player(self) -> int:
        return TERMINAL if self.outcome != UNDECIDED else self.player

    def _legal_actions(self) -> list[int]:
        return [cell * ROTATIONS + r for cell in range(CELLS) if self.board[cell] == EMPTY for r in range(ROTATIONS)]

    def _do_apply_action(self, action: int) -> None:
        cell, rotation = divmod(action, ROTATIONS)
        self.board[cell] = self.player + 1
        turn(self.board, rotation)
        self.placed += 1
        first, second = lines_of(self.board, 1), lines_of(self.board, 2)  # a turn can make the opponent's line
        if first and second:
            self.outcome = DRAW
        elif first or second:
            self.outcome = 1 if first else 2
        elif self.placed == CELLS:
            self.outcome = DRAW
        self.player = 1 - self.player

    def returns(self) -> list[float]:
        return winner_returns(self.outcome - 1)

    def observation(self, player: int) -> list[float]:
        board, mine, theirs = self.board, player + 1, 2 - player
        return ([1.0 if s == mine else 0.0 for s in board] + [1.0 if s == theirs else 0.0 for s in board]
                + [1.0 if s == EMPTY else 0.0 for s in board])

    def action_string(self, player: int, action: int) -> str:
        cell, rotation = divmod(action, ROTATIONS)
        y, x = divmod(cell, SIDE)
        return f"{chr(ord('a') + x)}{chr(ord('1') + y)}{chr(ord('s') + rotation)}"

    def action_cell(self, action: int) -> tuple[int, int] | None:
        """The marble's cell on ``grid()`` (row y, column x): the eight turns of a cell share it (a click asks
        which)."""
        if not 0 <= action < CELLS * ROTATIONS:
            return None
        return divmod(action // ROTATIONS, SIDE)

    def _string_to_action(self, text: str) -> int:
        """``a1s`` read straight off the text (the base's way compares it with all ~250 legal moves' strings)."""
        t = text.lower()
        if (len(t) == 3 and "a" <= t[0] <= "f" and "1" <= t[1] <= "6" and "s" <= t[2] <= "z"
                and self.outcome == UNDECIDED):
            cell = (ord(t[1]) - ord("1")) * SIDE + ord(t[0]) - ord("a")
            if self.board[cell] == EMPTY:
                return cell * ROTATIONS + ord(t[2]) - ord("s")
        return super()._string_to_action(text)

    def transposition_key(self):
        return self.current_player(), tuple(self.board)

    def encode(self) -> np.ndarray:
        bits = [sum(1 << XY_TO_BIT[cell] for cell, s in enumerate(self.board) if s == mark) for mark in (1, 2)]
        return np.array(bits + [self.current_player(), self.outcome, self.placed], np.int64)

    def __str__(self) -> str:
        if self.game.ansi:
            esc = "\033"
            reset, coord = esc + "[0m", esc + "[1;37m"
            marks = (reset + ".", esc + "[1;33m@", esc + "[1;34m@")
        else:
            reset = coord = ""
            marks = (".", "O", "@")
        out = [coord, f"    {ARROWS[1]} t     u {ARROWS[2]}\n", "    a b c d e f\n"]
        for y in range(SIDE):
            out.append(f"{LEFT[y]} {y + 1} " + "".join(marks[s] + " " for s in self.board[y * SIDE:(y + 1) * SIDE])
                       + coord + RIGHT[y] + "\n")
        out.append(f"    {ARROWS[6]} y     x {ARROWS[5]}{reset}\n")
        return "".join(out)


# --- the same rules as kernels: OpenSpiel's bitboards (each player's marbles on the bits of XY_TO_BIT) --------
CELL_BIT = np.array(XY_TO_BIT, np.int64)
WIN_MASKS = np.array([sum(1 << XY_TO_BIT[c] for c in line) for line in LINES], np.int64)
RING = 0xFF  # a quadrant's ring of eight bits, shifted up to its quadrant


@njit(cache=True, inline="always")
def taken(state):
    """Both players' marbles, as bits."""
    return state[FIRST_BITS] | state[SECOND_BITS]


@njit(cache=True)
def initial(params, state, seed):
    state[:] = 0


@njit(cache=True)
def mover(params, state):
    return np.int64(state[PLAYER])


@njit(cache=True)
def legal(params, state, player, mask):
    if state[PLAYER] != player:
        mask[:] = 0
        return 0
    mask[:] = 1  # every move, then the taken cells' off (fewer, most of a game)
    full = taken(state)
    n = CELLS * ROTATIONS
    for cell in range(CELLS):
        if (full >> CELL_BIT[cell]) & 1:
            mask[cell * ROTATIONS:(cell + 1) * ROTATIONS] = 0
            n -= ROTATIONS
    return n


@njit(cache=True)
def moves(params, state, out):
    if state[PLAYER] < 0:
        return 0
    full = taken(state)
    n = 0
    for cell in range(CELLS):
        if not (full >> CELL_BIT[cell]) & 1:
            for r in range(ROTATIONS):
                out[n] = cell * ROTATIONS + r
                n += 1
    return n


@njit(cache=True)
def random_move(params, state, out, rng):
    """A uniformly random move: a random cell until it is empty (``TRIES`` at most), else one of the list; then a
    random turn (every empty cell takes all eight)."""
    if state[PLAYER] < 0:
        return -1
    full = taken(state)
    for _ in range(TRIES):
        cell = draw(rng, CELLS)
        if not (full >> CELL_BIT[cell]) & 1:
            return cell * ROTATIONS + draw(rng, ROTATIONS)
    return drawn_from(out, moves(params, state, out), rng)


@njit(cache=True, inline="always")
def turned(bits, rotation):
    """OpenSpiel's rotate_quadrant_ccw (``rotation`` even) or rotate_quadrant_cw (odd) of quadrant
    ``rotation // 2``: the ring's bits two places back or on."""
    m = RING << ((rotation >> 1) * 9)
    if rotation & 1:
        return (bits & ~m) | (((bits & m) >> 6) & m) | (((bits & m) << 2) & m)
    return (bits & ~m) | (((bits & m) >> 2) & m) | (((bits & m) << 6) & m)


@njit(cache=True)
def apply(params, state, action):
    player = state[PLAYER]
    cell = action // ROTATIONS
    rotation = action % ROTATIONS
    state[FIRST_BITS + player] |= np.int64(1) << CELL_BIT[cell]
    first = turned(state[FIRST_BITS], rotation)
    second = turned(state[SECOND_BITS], rotation)
    state[FIRST_BITS] = first
    state[SECOND_BITS] = second
    state[PLACED] += 1
    first_won = False
    second_won = False
    for i in range(WIN_MASKS.shape[0]):
        w = WIN_MASKS[i]
        first_won |= (first & w) == w
        second_won |= (second & w) == w
    if first_won and second_won:
        state[OUTCOME] = DRAW
    elif first_won:
        state[OUTCOME] = 1
    elif second_won:
        state[OUTCOME] = 2
    elif state[PLACED] == CELLS:
        state[OUTCOME] = DRAW
    state[PLAYER] = TERMINAL if state[OUTCOME] != UNDECIDED else 1 - player


@njit(cache=True)
def returns(params, state, out):
    outcome_returns(state[OUTCOME], out)


@njit(cache=True)
def observation(params, state, player, out):
    own = state[FIRST_BITS + player]
    opp = state[SECOND_BITS - player]
    out[:] = 0.0
    for cell in range(CELLS):
        b = CELL_BIT[cell]
        out[(0 if (own >> b) & 1 else 1 if (opp >> b) & 1 else 2) * CELLS + cell] = 1.0


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    return np.int64(mix(state[FIRST_BITS]) ^ mix(state[SECOND_BITS] + (np.int64(1) << 40)) ^ mix(state[PLAYER] + 16))


# --- the game ----------------------------------------------------------------------------------------------------
class Pentago(PortGame):
    """OpenSpiel's pentago, ported (its one parameter, ansi_color_output, colours the text)."""

    openspiel_name = "pentago"
    plays = "the game with ansi_color_output (its one parameter)"

    def setup(self, settings: dict) -> None:
        self.ansi = bool(settings["ansi_color_output"])

    def new_initial_state(self, seed: int | None = None) -> PentagoState:
        return PentagoState(self)

    def kernels(self):
        return self.port_kernels(size=SIZE, encode=encode_state, legal=legal, apply=apply, mover=mover,
                                 returns=returns, features=features, initial=initial, state_hash=state_hash,
                                 moves=moves, random_move=random_move, dtype=np.int64)
