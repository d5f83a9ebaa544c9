"""Hexapawn (Martin Gardner, 1962) in plain Python: three pawns a side on a 3x3 board, a game you can evolve for.

Try it:  evoplay check-game examples/hexapawn.py:Hexapawn
         evoplay play examples/hexapawn.py:Hexapawn --vs random
         evoplay evolve ga --game examples/hexapawn.py:Hexapawn --minutes 1

White (player 0, X) starts on row 1 and moves up; Black (player 1, O) starts on row 3 and moves down. A pawn
steps straight forward onto an empty cell (``a1-a2``) or captures diagonally forward (``a1xb2``). A player wins
by reaching the far row, by taking every enemy pawn, or when the opponent cannot move. There are no draws.

Two moves can end on one cell (``a1xb2`` and ``c1xb2``): ``action_cell`` places a move on the cell it ends on, so
in the browser clicking such a cell asks which of the moves you mean.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import IllegalActionError
from evoplay.games import TERMINAL, Game, State

SIZE = 3
CELLS = SIZE * SIZE
EMPTY, WHITE, BLACK = 0, 1, 2  # a cell's content; a player's pawns are player + 1
VIEW = (np.array([0.0, 1.0, -1.0]), np.array([0.0, -1.0, 1.0]))  # cell content -> feature, from each side


def cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"{chr(ord('a') + col)}{row + 1}"


def pawn_moves(board: list[int], player: int) -> list[int]:
    """The moves of ``player``'s pawns, each as ``from * CELLS + to``, in order of the cell they leave."""
    me, forward = player + 1, 1 if player == 0 else -1
    out = []
    for cell in range(CELLS):
        if board[cell] != me:
            continue
        row, col = divmod(cell, SIZE)
        ahead = row + forward
        if not 0 <= ahead < SIZE:
            continue
        if board[ahead * SIZE + col] == EMPTY:
            out.append(cell * CELLS + ahead * SIZE + col)
        for side in (col - 1, col + 1):
            if 0 <= side < SIZE and board[ahead * SIZE + side] == 3 - me:
                out.append(cell * CELLS + ahead * SIZE + side)
    return out


class Hexapawn(Game):
    """Hexapawn: pawns on a 3x3 board; reach the far row, take every enemy pawn, or leave the opponent no move."""

    name = "hexapawn"

    def new_initial_state(self, seed=None) -> "HexapawnState":
        return HexapawnState(self, [WHITE] * SIZE + [EMPTY] * SIZE + [BLACK] * SIZE, 0)

    def num_distinct_actions(self) -> int:
        return CELLS * CELLS  # from * 9 + to

    def max_utility(self) -> float:
        return 1.0

    def feature_names(self) -> list[str]:
        """Each cell seen from the viewer's side (the board turned so its pawns move up: +1 own pawn, -1 enemy,
        0 empty), then pawn counts, how far each side's lead pawn has come, whether the viewer is to move, and the
        moves the player to move has."""
        cells = [f"cell_{r}{c}" for r in range(SIZE) for c in range(SIZE)]
        return cells + ["my_pawns", "opp_pawns", "my_lead", "opp_lead", "to_move", "mobility"]


class HexapawnState(State):
    def __init__(self, game: Hexapawn, board: list[int], player: int):
        self.game, self.board, self.player = game, board, player
        self.legal = pawn_moves(board, player)
        self.winner = None if self.legal else 1 - player  # a player without a move has lost

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.player

    def _legal_actions(self) -> list[int]:
        return self.legal

    def _apply_action(self, action: int) -> None:
        start, end = divmod(action, CELLS)
        me = self.player + 1
        self.board[end], self.board[start] = me, EMPTY
        far = SIZE - 1 if self.player == 0 else 0
        if end // SIZE == far or (3 - me) not in self.board:
            self.winner, self.legal = self.player, []
            return
        self.player = 1 - self.player
        self.legal = pawn_moves(self.board, self.player)
        if not self.legal:
            self.winner = 1 - self.player

    def _action_to_string(self, action: int) -> str:
        start, end = divmod(action, CELLS)
        return f"{cell_name(start)}{'-' if start % SIZE == end % SIZE else 'x'}{cell_name(end)}"

    def _string_to_action(self, text: str) -> int:
        t = text.strip().lower()
        for action in self.legal:
            if self._action_to_string(action) == t:
                return action
        raise IllegalActionError(f"{text!r} is not a move here; type one of "
                                 f"{', '.join(self._action_to_string(a) for a in self.legal) or '(none)'}")

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else -1.0 for p in (0, 1)]

    def scores(self) -> list[float]:
        return [float(self.board.count(WHITE)), float(self.board.count(BLACK))]

    def transposition_key(self):
        return (self.current_player(), tuple(self.board))

    def clone(self) -> "HexapawnState":
        copy = HexapawnState.__new__(HexapawnState)
        copy.game, copy.board, copy.player = self.game, list(self.board), self.player
        copy.legal, copy.winner = list(self.legal), self.winner
        return copy

    def features(self, player: int) -> np.ndarray:
        board = np.array(self.board if player == 0 else self.board[::-1])  # turned: the viewer moves up
        cells = VIEW[player][board]
        rows = np.arange(CELLS) // SIZE
        mine, theirs = cells > 0, cells < 0
        lead = float(rows[mine].max()) if mine.any() else 0.0
        opp_lead = float(SIZE - 1 - rows[theirs].min()) if theirs.any() else 0.0
        extra = [mine.sum(), theirs.sum(), lead, opp_lead, self.current_player() == player, len(self.legal)]
        return np.concatenate([cells, np.array(extra, dtype=np.float64)])

    def grid(self) -> list[str]:
        """The board for evoplay serve: row 3 at the top, X white, O black."""
        return ["".join(".XO"[v] for v in self.board[r * SIZE : (r + 1) * SIZE]) for r in reversed(range(SIZE))]

    def action_cell(self, action: int):
        """The grid cell a move ends on (row 3 is the grid's top row)."""
        row, col = divmod(action % CELLS, SIZE)
        return SIZE - 1 - row, col

    def __str__(self) -> str:
        lines = [f"{r + 1} " + " ".join(".XO"[v] for v in self.board[r * SIZE : (r + 1) * SIZE])
                 for r in reversed(range(SIZE))]
        lines.append("  " + " ".join(chr(ord("a") + c) for c in range(SIZE)))
        status = (f"{'XO'[self.winner]} (player {self.winner}) wins" if self.winner is not None
                  else f"{'XO'[self.player]} (player {self.player}) to move")
        return "\n".join(lines) + "\n" + status
