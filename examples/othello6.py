"""6x6 Othello in plain Python: the worked example of docs/your-game.md (a user's own game, evolved end to end).

Try it:  evoplay check-game examples/othello6.py:Othello
         evoplay play examples/othello6.py:Othello --vs random

Black (player 0) moves first. A move puts a disc on an empty cell so that it outflanks a line of the opponent's
discs (in any of the 8 directions) and turns them. A player without such a move passes; when neither can move
the game ends and the player with more discs wins.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import IllegalActionError
from evoplay.games import TERMINAL, Game, State

SIZE = 6
CELLS = SIZE * SIZE
PASS = CELLS  # the action of a player who has no move
CORNERS = (0, SIZE - 1, CELLS - SIZE, CELLS - 1)
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
VIEW = (np.array([0.0, 1.0, -1.0]), np.array([0.0, -1.0, 1.0]))  # cell code -> feature, from each player's side


def _ray(cell: int, dr: int, dc: int) -> list[int]:
    """The cells from ``cell``'s neighbour in direction (dr, dc) to the edge of the board."""
    row, col = divmod(cell, SIZE)
    out, row, col = [], row + dr, col + dc
    while 0 <= row < SIZE and 0 <= col < SIZE:
        out.append(row * SIZE + col)
        row, col = row + dr, col + dc
    return out


# For every cell, its rays in the 8 directions (only those with room for a flip), computed once.
RAYS = [[r for r in (_ray(c, dr, dc) for dr, dc in DIRECTIONS) if len(r) >= 2] for c in range(CELLS)]


def flips(board: list[int], cell: int, me: int) -> list[int]:
    """The opponent's discs a disc of ``me`` (1 or 2) on the empty ``cell`` would turn."""
    turned = []
    for ray in RAYS[cell]:
        run = []
        for c in ray:
            if board[c] != 3 - me:
                turned.extend(run if board[c] == me else [])
                break
            run.append(c)
    return turned


def moves(board: list[int], me: int) -> list[int]:
    """The cells where ``me`` can play."""
    return [c for c in range(CELLS) if board[c] == 0 and flips(board, c, me)]


class Othello(Game):
    """6x6 Othello (Reversi): outflank the opponent's discs to turn them; more discs at the end wins."""

    name = "othello6"  # two players, the base class's default

    def new_initial_state(self, seed=None) -> "OthelloState":
        board, mid = [0] * CELLS, SIZE // 2
        board[(mid - 1) * SIZE + mid - 1] = board[mid * SIZE + mid] = 2  # white
        board[(mid - 1) * SIZE + mid] = board[mid * SIZE + mid - 1] = 1  # black
        return OthelloState(self, board, 0)

    def num_distinct_actions(self) -> int:
        return CELLS + 1

    def max_utility(self) -> float:
        """A win's return: lets a search's solver stop at a proven win (optional)."""
        return 1.0

    def feature_names(self) -> list[str]:
        """Each cell from the viewer's side (+1 own disc, -1 opponent's, 0 empty), then disc and corner counts,
        whether the viewer is to move, and how many moves the player to move has (its mobility)."""
        return [_cell_name(c) for c in range(CELLS)] + ["my_discs", "opp_discs", "my_corners", "opp_corners", "to_move", "mobility"]


class OthelloState(State):
    def __init__(self, game: Othello, board: list[int], player: int, legal: list[int] | None = None):
        self.game, self.player = game, player
        self.board = board  # 0 empty, 1 black (player 0), 2 white (player 1)
        self.legal = legal if legal is not None else moves(board, player + 1)
        self.history: list[int] = []

    def current_player(self) -> int:
        return self.player

    def _legal_actions(self) -> list[int]:
        return self.legal or [PASS]

    def _apply_action(self, action: int) -> None:
        me = self.player + 1
        if action != PASS:
            for c in flips(self.board, action, me) + [action]:
                self.board[c] = me
        self.history.append(action)
        nxt = 1 - self.player
        self.legal = moves(self.board, nxt + 1)
        if not self.legal and (action == PASS or not moves(self.board, me)):
            self.player, self.legal = TERMINAL, []  # neither player can move
        else:
            self.player = nxt

    def _action_to_string(self, action: int) -> str:
        return "pass" if action == PASS else _cell_name(action)

    def _string_to_action(self, text: str) -> int:
        t = text.lower()
        if t == "pass":
            return PASS
        if len(t) == 2 and "a" <= t[0] < chr(ord("a") + SIZE) and t[1].isdigit() and 1 <= int(t[1]) <= SIZE:
            return (int(t[1]) - 1) * SIZE + ord(t[0]) - ord("a")
        raise IllegalActionError(f"{text!r} is not a move; type a cell a1..f6 or 'pass'")

    def scores(self) -> list[float]:
        return [float(self.board.count(1)), float(self.board.count(2))]

    def returns(self) -> list[float]:
        if self.player != TERMINAL:
            return [0.0, 0.0]
        margin = float(np.sign(self.board.count(1) - self.board.count(2)))
        return [margin, -margin]

    def transposition_key(self):
        """Equal for equal positions: searches keep what they learnt of a position reached by another order."""
        return (self.player, tuple(self.board))

    def clone(self) -> "OthelloState":
        copy = OthelloState(self.game, list(self.board), self.player, list(self.legal))
        copy.history = list(self.history)
        return copy

    def features(self, player: int) -> np.ndarray:
        me, opp = player + 1, 2 - player
        corners = [self.board[c] for c in CORNERS]
        out = np.empty(CELLS + 6)
        out[:CELLS] = VIEW[player][self.board]
        out[CELLS:] = (self.board.count(me), self.board.count(opp), corners.count(me), corners.count(opp),
                       self.player == player, len(self.legal))
        return out

    def grid(self) -> list[str]:
        """The board for evoplay serve: row 6 at the top, X black, O white, '.' empty."""
        return ["".join(".XO"[v] for v in self.board[r * SIZE : (r + 1) * SIZE]) for r in reversed(range(SIZE))]

    def action_cell(self, action: int):
        """The grid cell of a move (row 6 is the grid's top row); a pass has none."""
        if action == PASS:
            return None
        row, col = divmod(action, SIZE)
        return SIZE - 1 - row, col

    def __str__(self) -> str:
        lines = ["  " + " ".join(chr(ord("a") + c) for c in range(SIZE))]
        for r in reversed(range(SIZE)):
            lines.append(f"{r + 1} " + " ".join(".XO"[v] for v in self.board[r * SIZE : (r + 1) * SIZE]))
        black, white = self.scores()
        to_move = "game over" if self.player == TERMINAL else f"{'XO'[self.player]} (player {self.player}) to move"
        return "\n".join(lines) + f"\nX {black:g}, O {white:g}: {to_move}"


def _cell_name(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"{chr(ord('a') + col)}{row + 1}"
