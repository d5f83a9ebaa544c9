"""The forward model for simultaneous moves: joint actions, cheap copies, per-player winners, scores and actions.

This is GVGAI's two-player ``StateObservationMulti`` in evoplay's terms. A forward model is a position held in
two small integer arrays that Numba kernels can read and write:

``params`` (int64): what does not change during a game -- ``params[P_KIND]`` the game (KIND_TRON, KIND_GEMS,
KIND_KALAH, KIND_MNK), ``params[P_ACTIONS]`` the size A of every player's action space (the last action, A - 1,
is NIL, "do nothing"), ``params[P_SIMULTANEOUS]`` 1 for a simultaneous-move game, then game-specific numbers from
``P_GAME`` on (grid width and height, pits, m, n, k...).

``buf`` (int32): the position -- a header ``buf[PHASE]`` (SIMULTANEOUS, the player to move of a turn-based
game, or TERMINAL), ``buf[WINNER]`` (-1 while running, 0 or 1 the winner, DRAW), ``buf[SCORE:SCORE+2]`` each
player's score, ``buf[TICK]`` steps played, ``buf[RNG]`` the game's own random state (gem spawns), then the
board from ``BODY`` on.

Copying a position is one ``buf.copy()`` of a few hundred bytes. ``ForwardModel`` wraps the pair with the
methods a controller needs (``advance``, ``copy``, ``is_game_over``, ``winners``, ``scores``,
``available_actions``); the controllers' rollouts run the same rules inside Numba (evoplay.agents.rollout).

Turn-based games (Kalah, m,n,k) are presented through ``TurnBasedForwardModel``: a joint action holds one
action per player, the mover's is played and the other player's must be NIL -- the player not to move
contributes nothing. The mover's available actions are its legal moves (a pass is not a move in Kalah or
m,n,k); the other player's only available action is NIL.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL, State

# The header of ``buf``.
PHASE, WINNER, SCORE, TICK, RNG = 0, 1, 2, 4, 5
BODY = 8
DRAW = 2  # buf[WINNER] of a drawn game; -1 while running

# The layout of ``params``.
P_KIND, P_ACTIONS, P_SIMULTANEOUS = 0, 1, 2
P_GAME = 4

# Games a forward model can hold (the dispatch in evoplay.agents.rollout switches on these).
KIND_TRON, KIND_GEMS, KIND_KALAH, KIND_MNK = 0, 1, 2, 3

# Per-player outcome of a finished game, GVGAI's Types.WINNER.
PLAYER_WINS, PLAYER_LOSES, PLAYER_DRAWS, NO_WINNER = 1, -1, 0, None

# WinScoreHeuristic of the seed.
HUGE_POSITIVE = 1000.0
HUGE_NEGATIVE = -1000.0


def new_buffer(body: int) -> np.ndarray:
    """An empty position with ``body`` board numbers after the header."""
    return np.zeros(BODY + body, dtype=np.int32)


def xorshift32(x: int) -> int:
    """One step of Marsaglia's xorshift32 (the games' own seeded randomness; never returns 0 for x != 0)."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x & 0xFFFFFFFF


def seed_word(seed: int | None) -> int:
    """A non-zero 31-bit xorshift state from a game seed."""
    s = int(np.random.SeedSequence(0 if seed is None else int(seed) & 0xFFFFFFFFFFFFFFFF).generate_state(1)[0])
    return (s & 0x7FFFFFFF) or 1


def heuristic(buf: np.ndarray, player: int) -> float:
    """The seed's WinScoreHeuristic: +1000 won, -1000 lost, otherwise the player's own score."""
    winner = int(buf[WINNER])
    if int(buf[PHASE]) == TERMINAL:
        if winner == 1 - player:
            return HUGE_NEGATIVE
        if winner == player:
            return HUGE_POSITIVE
    return float(buf[SCORE + player])


class ForwardModel:
    """A position of a two-player game seen as simultaneous moves (GVGAI's StateObservationMulti).

    ``step_fn(params, buf, a0, a1)`` advances ``buf`` in place by one joint action; it is the game's Numba
    kernel. Subclasses for turn-based games adapt the actions.
    """

    num_players = 2

    def __init__(self, params: np.ndarray, buf: np.ndarray, step_fn, action_names: Sequence[str]):
        self.params = params
        self.buf = buf
        self._step = step_fn
        self.action_names = tuple(action_names)

    # --- GVGAI's queries --------------------------------------------------------------------------------------
    @property
    def nil(self) -> int:
        """The do-nothing action: the last of the action space."""
        return int(self.params[P_ACTIONS]) - 1

    @property
    def simultaneous(self) -> bool:
        return bool(self.params[P_SIMULTANEOUS])

    def is_game_over(self) -> bool:
        return int(self.buf[PHASE]) == TERMINAL

    def tick(self) -> int:
        return int(self.buf[TICK])

    def winners(self) -> list[int | None]:
        """Per player: PLAYER_WINS, PLAYER_LOSES, PLAYER_DRAWS, or NO_WINNER (None) while the game runs."""
        if not self.is_game_over():
            return [NO_WINNER, NO_WINNER]
        w = int(self.buf[WINNER])
        if w == DRAW:
            return [PLAYER_DRAWS, PLAYER_DRAWS]
        return [PLAYER_WINS if p == w else PLAYER_LOSES for p in range(2)]

    def scores(self) -> list[float]:
        return [float(self.buf[SCORE]), float(self.buf[SCORE + 1])]

    def available_actions(self, player: int) -> list[int]:
        """Every action of a simultaneous game, NIL (do nothing) last; none once the game is over."""
        self._check_player(player)
        if self.is_game_over():
            return []
        return list(range(int(self.params[P_ACTIONS])))

    def heuristic(self, player: int) -> float:
        """The seed's win/score heuristic of this position for ``player``."""
        self._check_player(player)
        return heuristic(self.buf, player)

    # --- changing the position --------------------------------------------------------------------------------
    def copy(self) -> "ForwardModel":
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.buf = self.buf.copy()
        return clone

    def advance(self, actions: Sequence[int]) -> None:
        """Play one joint action: ``actions[p]`` for player p."""
        self._check_joint(actions)
        self._step(self.params, self.buf, int(actions[0]), int(actions[1]))

    def _check_player(self, player: int) -> None:
        if player not in (0, 1):
            raise IllegalActionError(f"player {player!r} does not exist; players are 0 and 1")

    def _check_joint(self, actions: Sequence[int]) -> None:
        if self.is_game_over():
            raise IllegalActionError("the game is over; no joint action can be applied")
        if len(actions) != 2:
            raise IllegalActionError(f"a joint action holds one action per player (2), got {len(actions)}")
        for p, a in enumerate(actions):
            legal = self.available_actions(p)
            if int(a) not in legal:
                shown = ", ".join(f"{x} ({self.action_names[x]})" for x in legal)
                raise IllegalActionError(f"action {a!r} of player {p} is not available; available: {shown}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} kind={int(self.params[P_KIND])} tick={self.tick()} phase={int(self.buf[PHASE])}>"


class TurnBasedForwardModel(ForwardModel):
    """A turn-based game through the simultaneous interface: the player not to move contributes NIL."""

    def __init__(self, params, buf, step_fn, action_names, legal_fn):
        super().__init__(params, buf, step_fn, action_names)
        self._legal = legal_fn

    def mover(self) -> int:
        return int(self.buf[PHASE])

    def available_actions(self, player: int) -> list[int]:
        self._check_player(player)
        if self.is_game_over():
            return []
        if player != self.mover():
            return [self.nil]
        return self._legal(self.params, self.buf)


# ----------------------------------------------------------------------------------------------------------------
# The turn-based adapters: Kalah and m,n,k as forward models.
# ----------------------------------------------------------------------------------------------------------------

# Kalah params: P_GAME pits, P_GAME+1 empty_capture. Body: the 2*pits+2 board of evoplay.games.kalah.game.
# m,n,k params: P_GAME m, +1 n, +2 k. Body: the m*n board, then the number of empty cells.


def kalah_params(game) -> np.ndarray:
    p = np.zeros(P_GAME + 2, dtype=np.int64)
    p[P_KIND], p[P_ACTIONS], p[P_SIMULTANEOUS] = KIND_KALAH, game.pits + 1, 0
    p[P_GAME], p[P_GAME + 1] = game.pits, int(game.empty_capture)
    return p


def mnk_params(game) -> np.ndarray:
    p = np.zeros(P_GAME + 3, dtype=np.int64)
    p[P_KIND], p[P_ACTIONS], p[P_SIMULTANEOUS] = KIND_MNK, game.m * game.n + 1, 0
    p[P_GAME], p[P_GAME + 1], p[P_GAME + 2] = game.m, game.n, game.k
    return p


def _kalah_legal(params, buf) -> list[int]:
    pits = int(params[P_GAME])
    base = BODY + (0 if buf[PHASE] == 0 else pits + 1)
    return [p for p in range(pits) if buf[base + p] > 0]


def _mnk_legal(params, buf) -> list[int]:
    size = int(params[P_GAME] * params[P_GAME + 1])
    return [int(c) for c in np.flatnonzero(buf[BODY : BODY + size] == 0)]


def _kalah_step(params, buf, a0, a1):
    from evoplay.games.kalah.game import sow

    pits = int(params[P_GAME])
    mover = int(buf[PHASE])
    board = buf[BODY : BODY + 2 * pits + 2]
    nxt = int(sow(board, mover, a0 if mover == 0 else a1, pits, bool(params[P_GAME + 1])))
    buf[PHASE] = nxt
    buf[SCORE], buf[SCORE + 1] = board[pits], board[2 * pits + 1]
    buf[TICK] += 1
    if nxt == TERMINAL:
        d = int(board[pits]) - int(board[2 * pits + 1])
        buf[WINNER] = 0 if d > 0 else (1 if d < 0 else DRAW)


def _mnk_step(params, buf, a0, a1):
    from evoplay.games.mnk.game import play

    m, n, k = int(params[P_GAME]), int(params[P_GAME + 1]), int(params[P_GAME + 2])
    mover = int(buf[PHASE])
    board = buf[BODY : BODY + m * n]
    empties = int(buf[BODY + m * n])
    nxt, w = play(board, mover, a0 if mover == 0 else a1, m, n, k, empties)
    buf[BODY + m * n] = empties - 1
    buf[PHASE] = int(nxt)
    buf[TICK] += 1
    if int(nxt) == TERMINAL:
        buf[WINNER] = DRAW if int(w) < 0 else int(w)
        if int(w) >= 0:
            buf[SCORE + int(w)] = 1


def kalah_buffer(state) -> np.ndarray:
    g = state.game
    buf = new_buffer(2 * g.pits + 2)
    board = state.board()
    buf[BODY : BODY + 2 * g.pits + 2] = board
    buf[PHASE] = state.current_player()
    buf[SCORE], buf[SCORE + 1] = board[g.pits], board[2 * g.pits + 1]
    buf[TICK] = len(state.history)
    if state.is_terminal():
        d = int(board[g.pits]) - int(board[2 * g.pits + 1])
        buf[WINNER] = 0 if d > 0 else (1 if d < 0 else DRAW)
    else:
        buf[WINNER] = -1
    return buf


def mnk_buffer(state) -> np.ndarray:
    g = state.game
    size = g.m * g.n
    buf = new_buffer(size + 1)
    board = state.board()
    buf[BODY : BODY + size] = board
    buf[BODY + size] = int((board == 0).sum())
    buf[PHASE] = state.current_player()
    buf[TICK] = len(state.history)
    buf[WINNER] = -1
    if state.is_terminal():
        w = state.winner()
        buf[WINNER] = DRAW if w is None else w
        if w is not None:
            buf[SCORE + w] = 1
    return buf


def forward_model(state) -> ForwardModel:
    """The forward model of any evoplay state that has one: tron, gems (native) and Kalah, m,n,k (adapted)."""
    from evoplay.games.kalah.game import KalahState
    from evoplay.games.mnk.game import MnkState

    if hasattr(state, "forward_model"):
        return state.forward_model()
    if isinstance(state, KalahState):
        g = state.game
        names = [str(p + 1) for p in range(g.pits)] + ["nil"]
        return TurnBasedForwardModel(kalah_params(g), kalah_buffer(state), _kalah_step, names, _kalah_legal)
    if isinstance(state, MnkState):
        g = state.game
        names = [g.cell_name(c) for c in range(g.m * g.n)] + ["nil"]
        return TurnBasedForwardModel(mnk_params(g), mnk_buffer(state), _mnk_step, names, _mnk_legal)
    raise SpecError(
        f"game '{state.game.name}' has no forward model; the forward-model controllers play: tron, gems, kalah, mnk"
    )


def game_params(game) -> np.ndarray:
    """The ``params`` array of a game (what the controllers' kernels need besides the position)."""
    return forward_model(game.new_initial_state(0)).params


def is_simultaneous(state) -> bool:
    return state.current_player() == SIMULTANEOUS


# --------------------------------------------------------------------------------------------------------------
# The state of a two-player grid duel (tron, gems): what the common Game/State API adds to the buffer.
# --------------------------------------------------------------------------------------------------------------

UP, DOWN, LEFT, RIGHT, NIL = 0, 1, 2, 3, 4
GRID_ACTIONS = ("up", "down", "left", "right", "nil")
GRID_ALIASES = {"u": UP, "w": UP, "up": UP, "d": DOWN, "s": DOWN, "down": DOWN, "l": LEFT, "a": LEFT,
                "left": LEFT, "r": RIGHT, "right": RIGHT, "n": NIL, "nil": NIL, "stay": NIL, ".": NIL, "": NIL}


class GridDuelState(State):
    """A simultaneous-move position on a grid: both players pick one of up, down, left, right, nil each tick.

    Subclasses set ``step`` (the game's Numba kernel ``step(params, buf, a0, a1)``) and ``marks`` (the character of
    each cell code in ``rows()``).
    """

    __slots__ = ("game", "buf", "history")
    step = None  # set by the subclass: the game's kernel
    marks = ".#"  # set by the subclass: the character of each cell code

    def __init__(self, game, buf: np.ndarray):
        self.game = game
        self.buf = buf
        self.history: list[tuple[int, int]] = []

    def current_player(self) -> int:
        return int(self.buf[PHASE])

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal() or (player is not None and player not in (0, 1)):
            return []
        return list(range(len(GRID_ACTIONS)))  # the same five actions for both players, NIL last

    def _legal_actions(self) -> list[int]:
        return list(range(len(GRID_ACTIONS)))

    def apply_action(self, action: int) -> None:
        raise IllegalActionError(f"{self.game.name} is a simultaneous game: use apply_actions([first, second])")

    def apply_actions(self, actions) -> None:
        name = self.game.name
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; no action can be applied ({name})")
        if len(actions) != 2 or any(int(a) not in range(len(GRID_ACTIONS)) for a in actions):
            raise IllegalActionError(f"{name} needs one action per player, each 0..4 (up, down, left, right, nil); "
                                     f"got {list(actions)!r}")
        type(self).step(self.game.params_array, self.buf, int(actions[0]), int(actions[1]))
        self.history.append((int(actions[0]), int(actions[1])))

    def _action_to_string(self, action: int) -> str:
        return GRID_ACTIONS[action]

    def _string_to_action(self, text: str) -> int:
        key = text.lower()
        if key in GRID_ALIASES:
            return GRID_ALIASES[key]
        raise IllegalActionError(
            f"{text!r} is not a {self.game.name} action; type up, down, left, right or nil (or w a s d)"
        )

    def returns(self) -> list[float]:
        w = int(self.buf[WINNER])
        if self.current_player() != TERMINAL or w == DRAW:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def scores(self) -> list[float]:
        return [float(self.buf[SCORE]), float(self.buf[SCORE + 1])]

    def clone(self):
        s = type(self)(self.game, self.buf.copy())
        s.history = list(self.history)
        return s

    def forward_model(self) -> ForwardModel:
        return ForwardModel(self.game.params_array, self.buf.copy(), type(self).step, GRID_ACTIONS)

    def positions(self) -> tuple[int, int]:
        """The two players' cells (the cycles' heads in tron)."""
        cells = self.game.width * self.game.height
        return int(self.buf[BODY + cells]), int(self.buf[BODY + cells + 1])

    def rows(self) -> list[str]:
        """The board as text: each cell's character (``marks``), 'A' and 'B' where the players are."""
        g = self.game
        chars = [self.marks[int(v)] for v in self.buf[BODY : BODY + g.width * g.height]]
        a, b = self.positions()
        chars[a], chars[b] = "A", "B"
        return ["".join(chars[r * g.width : (r + 1) * g.width]) for r in range(g.height)]

    def interior(self, player: int) -> np.ndarray:
        """The cell codes inside the walls as an (h, w) array seen from ``player``'s side: turned half round for
        player 1, so that both players see themselves starting in the same corner (the features' view)."""
        if player not in (0, 1):
            raise SpecError(f"{self.game.name} has players 0 and 1, not {player}")
        g = self.game
        grid = self.buf[BODY : BODY + g.width * g.height].reshape(g.height, g.width)[1:-1, 1:-1]
        return grid[::-1, ::-1] if player == 1 else grid

    def seen_from(self, player: int, cell: int) -> tuple[int, int]:
        """(row, column) inside the walls of board ``cell``, from ``player``'s side (see ``interior``)."""
        g = self.game
        row, col = divmod(cell, g.width)
        row, col = row - 1, col - 1
        return (g.h - 1 - row, g.w - 1 - col) if player == 1 else (row, col)
