"""Kalah (mancala): the seed-003 rules and standard Kalah, as a readable Python reference and Numba kernels.

The board is one int8 array of ``2 * pits + 2`` numbers: the first player's pits, their store, the second
player's pits, their store. Sowing runs counter-clockwise (increasing index) and skips the opponent's store.
A last seed in the mover's own store gives another move. A last seed in an empty pit of the mover's side
captures that seed and the pit opposite; with ``empty_capture`` (the seed's rule, the default) it does so even
when the opposite pit is empty, without it only when the opposite pit holds seeds (standard Kalah, OpenSpiel's
``mancala``). When all pits of one side are empty, every remaining seed goes to its owner's store and the game
ends. Actions are the mover's pit numbers 0..pits-1, counted from the mover's left.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.spec import Param
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL, Game, State

# --------------------------------------------------------------------------------------------------------------
# Plain-Python reference rules (lists of ints). The kernels below must agree with these exactly.
# --------------------------------------------------------------------------------------------------------------


def store_index(player: int, pits: int) -> int:
    return pits if player == 0 else 2 * pits + 1


def pit_index(player: int, pit: int, pits: int) -> int:
    return pit if player == 0 else pits + 1 + pit


def reference_legal_actions(board: list[int], player: int, pits: int) -> list[int]:
    return [p for p in range(pits) if board[pit_index(player, p, pits)] > 0]


def reference_sow(board: list[int], player: int, pit: int, pits: int, empty_capture: bool) -> int:
    """Play ``pit`` for ``player`` on ``board`` in place; return the next player, or TERMINAL."""
    size = 2 * pits + 2
    own_store = store_index(player, pits)
    opp_store = store_index(1 - player, pits)
    index = pit_index(player, pit, pits)
    seeds = board[index]
    board[index] = 0
    while seeds > 0:
        index = (index + 1) % size
        if index == opp_store:
            continue
        board[index] += 1
        seeds -= 1
    first_own, last_own = pit_index(player, 0, pits), pit_index(player, pits - 1, pits)
    if first_own <= index <= last_own and board[index] == 1:
        opposite = 2 * pits - index
        if empty_capture or board[opposite] > 0:
            board[own_store] += board[opposite] + 1
            board[index] = 0
            board[opposite] = 0
    side0 = sum(board[0:pits])
    side1 = sum(board[pits + 1 : 2 * pits + 1])
    if side0 == 0 or side1 == 0:
        board[pits] += side0
        board[2 * pits + 1] += side1
        for i in range(pits):
            board[i] = 0
            board[pits + 1 + i] = 0
        return TERMINAL
    return player if index == own_store else 1 - player


# --------------------------------------------------------------------------------------------------------------
# Numba kernels: the same rules over int8 arrays.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def sow(board, player, pit, pits, empty_capture):
    """Kernel of ``reference_sow``: play ``pit`` in place and return the next player or TERMINAL (-4)."""
    size = 2 * pits + 2
    own_store = pits if player == 0 else 2 * pits + 1
    opp_store = 2 * pits + 1 if player == 0 else pits
    index = pit if player == 0 else pits + 1 + pit
    seeds = np.int64(board[index])
    board[index] = 0
    # Whole laps first: every pit but the opponent's store gets one seed per lap.
    if seeds > size - 1:
        laps = (seeds - 1) // (size - 1)  # leave at least one seed so the last one is sown below
        for i in range(size):
            if i != opp_store:
                board[i] += laps
        seeds -= laps * (size - 1)
    while seeds > 0:
        index += 1
        if index == size:
            index = 0
        if index == opp_store:
            continue
        board[index] += 1
        seeds -= 1
    first_own = 0 if player == 0 else pits + 1
    if first_own <= index < first_own + pits and board[index] == 1:
        opposite = 2 * pits - index
        if empty_capture or board[opposite] > 0:
            board[own_store] += board[opposite] + 1
            board[index] = 0
            board[opposite] = 0
    side0 = 0
    side1 = 0
    for i in range(pits):
        side0 += board[i]
        side1 += board[pits + 1 + i]
    if side0 == 0 or side1 == 0:
        board[pits] += side0
        board[2 * pits + 1] += side1
        for i in range(pits):
            board[i] = 0
            board[pits + 1 + i] = 0
        return TERMINAL
    if index == own_store:
        return player
    return 1 - player


@njit(cache=True)
def random_playouts(board, player, pits, empty_capture, count, seed):
    """Play ``count`` uniformly random games from (board, player); return the first player's total wins,
    draws and the summed final store difference (first minus second)."""
    np.random.seed(seed)
    work = np.empty_like(board)
    legal = np.empty(pits, np.int64)
    wins = 0
    draws = 0
    margin = 0
    for _ in range(count):
        work[:] = board
        p = player
        while p != TERMINAL:
            n = 0
            base = 0 if p == 0 else pits + 1
            for i in range(pits):
                if work[base + i] > 0:
                    legal[n] = i
                    n += 1
            p = sow(work, p, legal[np.random.randint(n)], pits, empty_capture)
        d = np.int64(work[pits]) - np.int64(work[2 * pits + 1])
        margin += d
        if d > 0:
            wins += 1
        elif d == 0:
            draws += 1
    return wins, draws, margin


# --------------------------------------------------------------------------------------------------------------
# The kernel protocol (evoplay.games.kernels): a position is the board, then the player to move (or TERMINAL);
# params are [pits, empty_capture, seeds].
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def k_initial(params, position, seed):
    pits = params[0]
    position[:] = params[2]
    position[pits] = 0
    position[2 * pits + 1] = 0
    position[2 * pits + 2] = 0


@njit(cache=True)
def k_mover(params, position):
    return np.int64(position[2 * params[0] + 2])


@njit(cache=True)
def k_legal(params, position, player, mask):
    mask[:] = 0
    pits = params[0]
    if position[2 * pits + 2] != player:
        return 0
    base = 0 if player == 0 else pits + 1
    count = 0
    for p in range(pits):
        if position[base + p] > 0:
            mask[p] = 1
            count += 1
    return count


@njit(cache=True)
def k_apply(params, position, action):
    pits = params[0]
    position[2 * pits + 2] = sow(position[: 2 * pits + 2], position[2 * pits + 2], action, pits, params[1] != 0)


@njit(cache=True)
def k_scores(params, position, out):
    pits = params[0]
    out[0] = position[pits]
    out[1] = position[2 * pits + 1]


@njit(cache=True)
def k_returns(params, position, out):
    pits = params[0]
    out[0] = 0.0
    out[1] = 0.0
    if position[2 * pits + 2] == TERMINAL:
        d = np.int64(position[pits]) - np.int64(position[2 * pits + 1])
        out[0] = np.sign(d)
        out[1] = -out[0]


@njit(cache=True)
def k_features(params, position, player, out):
    """``KalahState.features``: the board turned to ``player``'s side."""
    size = 2 * params[0] + 2
    shift = 0 if player == 0 else params[0] + 1
    for i in range(size):
        j = i + shift
        out[i] = position[j - size if j >= size else j]


def k_encode(state) -> np.ndarray:
    return np.append(state._board, np.int8(state._player))


MANCALA_OFFSET = (1, 8)  # OpenSpiel mancala's action of pit 0 for each player

# --------------------------------------------------------------------------------------------------------------
# The game and its state.
# --------------------------------------------------------------------------------------------------------------


class KalahGame(Game):
    name = "kalah"
    players = {"alphabeta": "evoplay.games.kalah.players:alphabeta", "genome": "evoplay.games.kalah.genome",
               "champion": "evoplay.games.kalah.players:CHAMPION",
               "gp": "evoplay.games.kalah.program_player:agent_from_document"}
    view = "kalah"
    default_opponent = "alphabeta(depth=4)"
    suggested_opponents = ("alphabeta(depth=2)", "alphabeta(depth=4)", "alphabeta(depth=6)", "alphabeta(depth=8)",
                           "mcts(iterations=2000)", "random")
    tournament_agents = ("random", "alphabeta(depth=2)", "alphabeta(depth=4)", "alphabeta(depth=8)")
    move_word = "pit "
    summary = "Kalah (mancala): sow counter-clockwise, extra move from the store, captures"
    parameters = (
        Param("pits", int, 6, "pits per side", min=1, max=20, why="the kernels' boards"),
        Param("seeds", int, 4, "seeds per pit at the start", min=1, why="a pit starts with seeds"),
        Param("empty_capture", bool, True, "capture even when the opposite pit is empty (the Mancala GP paper's rule)"),
    )
    num_players = 2

    def __init__(self, spec: str | None = None, params: dict | None = None, **values):
        super().__init__(spec, params, **values)  # a plain call builds the default game
        params = self.params
        self.pits = int(params["pits"])
        self.seeds = int(params["seeds"])
        self.empty_capture = bool(params["empty_capture"])
        if 2 * self.pits * self.seeds > 127:
            raise SpecError(
                f"kalah: {2 * self.pits * self.seeds} seeds in all do not fit the int8 board; "
                f"keep 2 x pits x seeds <= 127 (e.g. pits=6, seeds<=10)"
            )

    def num_distinct_actions(self) -> int:
        return self.pits

    def max_utility(self) -> float:
        return 1.0  # returns are the sign of the store difference

    def kernels(self):
        """The rules as kernels over [board, player to move]: every search runs in Numba on Kalah."""
        from evoplay.games.kernels import Kernels

        size = 2 * self.pits + 2
        return Kernels(size=size + 1, actions=self.pits, encode=k_encode, legal=k_legal, apply=k_apply,
                       mover=k_mover, returns=k_returns, scores=k_scores, features=k_features, n_features=size,
                       initial=k_initial, params=np.array([self.pits, int(self.empty_capture), self.seeds]))

    def initial_board(self) -> np.ndarray:
        board = np.full(2 * self.pits + 2, self.seeds, dtype=np.int8)
        board[self.pits] = 0
        board[2 * self.pits + 1] = 0
        return board

    def new_initial_state(self, seed: int | None = None) -> "KalahState":
        return KalahState(self, self.initial_board(), 0)

    def feature_names(self) -> list[str]:
        """The board from one player's side: its pits from its left, its store, the opponent's pits in sowing
        order, the opponent's store (the mover's view the ``gp`` agent's Kalah programs read)."""
        pits = self.pits
        return ([f"my_pit_{i + 1}" for i in range(pits)] + ["my_store"]
                + [f"opp_pit_{i + 1}" for i in range(pits)] + ["opp_store"])

    def openspiel_twin(self):
        """OpenSpiel's ``mancala`` is standard Kalah with 6 pits of 4 seeds (``kalah(empty_capture=false)``):
        pit p of the first player is its action p + 1, of the second p + 8."""
        if (self.pits, self.seeds, self.empty_capture) != (6, 4, False):
            return (f"OpenSpiel's mancala is standard Kalah, kalah(empty_capture=false) with 6 pits of 4 seeds; "
                    f"{self.spec} has no OpenSpiel equivalent")
        return "mancala", lambda a, p: a + MANCALA_OFFSET[p], lambda a, p: a - MANCALA_OFFSET[p]

    def state_from_board(self, board, player: int) -> "KalahState":
        """A state from 2*pits+2 numbers and the player to move (TERMINAL is derived from the board)."""
        raw = np.asarray(board)
        if raw.shape != (2 * self.pits + 2,):
            raise SpecError(f"kalah board must have {2 * self.pits + 2} numbers, got {raw.shape}")
        if not np.issubdtype(raw.dtype, np.integer) and not np.array_equal(raw, np.round(raw)):
            raise SpecError(f"kalah board must hold whole numbers of seeds, got {raw.tolist()}")
        counts = [int(x) for x in raw]
        if min(counts) < 0:
            raise SpecError(f"kalah board has a negative count ({min(counts)}); pits and stores hold 0 or more seeds")
        if sum(counts) > 127:
            raise SpecError(
                f"kalah board holds {sum(counts)} seeds; the engine's int8 board fits at most 127 in all "
                f"(any store could collect them all)"
            )
        b = np.array(counts, dtype=np.int8)
        if player not in (0, 1):
            raise SpecError(f"kalah player must be 0 or 1, got {player}")
        p = player
        if b[: self.pits].sum() == 0 or b[self.pits + 1 : 2 * self.pits + 1].sum() == 0:
            p = TERMINAL
        return KalahState(self, b, p)


class KalahState(State):
    __slots__ = ("game", "_board", "_player", "history")

    def __init__(self, game: KalahGame, board: np.ndarray, player: int):
        self.game = game
        self._board = board
        self._player = player
        self.history: list[int] = []

    def current_player(self) -> int:
        return self._player

    def board(self) -> np.ndarray:
        """The 2*pits+2 numbers: first player's pits, their store, second player's pits, their store."""
        return self._board.copy()

    def board_from_mover(self) -> np.ndarray:
        """The board turned so that the player to move owns indices 0..pits-1 and the store at ``pits``."""
        g = self.game
        if self._player == 1:
            return np.concatenate([self._board[g.pits + 1 :], self._board[: g.pits + 1]])
        return self._board.copy()

    def features(self, player: int) -> np.ndarray:
        """The board turned to ``player``'s side (``KalahGame.feature_names``); the whole board is public."""
        g = self.game
        b = self._board.astype(np.float64)
        if player == 1:
            return np.concatenate([b[g.pits + 1 :], b[: g.pits + 1]])
        if player != 0:
            raise SpecError(f"kalah has players 0 and 1, not {player}")
        return b

    def _legal_actions(self) -> list[int]:
        g = self.game
        base = 0 if self._player == 0 else g.pits + 1
        return [p for p in range(g.pits) if self._board[base + p] > 0]

    def _apply_action(self, action: int) -> None:
        g = self.game
        self._player = int(sow(self._board, self._player, action, g.pits, g.empty_capture))
        self.history.append(action)

    def apply_action_unchecked(self, action: int) -> None:
        """Apply a known-legal pit without validating it (agents' and the arena's fast path)."""
        self._apply_action(action)

    def _action_to_string(self, action: int) -> str:
        return str(action + 1)

    def why_illegal(self, action: int, player: int) -> str:
        pits = self.game.pits
        if 0 <= action < pits:
            return f"pit {self.action_to_string(action)} is empty; sow from a pit that holds seeds"
        return f"there is no pit {action + 1}; your pits are 1..{pits}"

    def view_fields(self, player: int) -> dict:
        """The web app's Kalah drawing: ``player``'s pits (from its left) and store, and the other side's."""
        pits, board = self.game.pits, [int(x) for x in self._board]

        def side(p):
            base = 0 if p == 0 else pits + 1
            return board[base : base + pits], board[pits if p == 0 else 2 * pits + 1]

        mine, my_store = side(player)
        theirs, their_store = side(1 - player)
        return {"pits": pits, "your_pits": mine, "your_store": my_store, "their_pits": theirs,
                "their_store": their_store, "text": str(self)}

    def _string_to_action(self, text: str) -> int:
        g = self.game
        if text.isascii() and text.isdigit() and 1 <= int(text) <= g.pits:
            return int(text) - 1
        raise IllegalActionError(f"{text!r} is not a pit; type a pit number 1..{g.pits} (from your left)")

    def returns(self) -> list[float]:
        if self._player != TERMINAL:
            return [0.0, 0.0]
        d = int(self._board[self.game.pits]) - int(self._board[2 * self.game.pits + 1])
        return [float(np.sign(d)), float(-np.sign(d))]

    def scores(self) -> list[float]:
        g = self.game
        return [float(self._board[g.pits]), float(self._board[2 * g.pits + 1])]

    def clone(self) -> "KalahState":
        s = KalahState(self.game, self._board.copy(), self._player)
        s.history = list(self.history)
        return s

    def __str__(self) -> str:
        to_move = "game over" if self._player == TERMINAL else f"player {self._player} to move"
        return _render([int(x) for x in self._board], self.game.pits, to_move)


def _render(b: list[int], pits: int, to_move: str) -> str:
    top_labels = " ".join(f"{i + 1:2d}" for i in reversed(range(pits)))
    top = " ".join(f"{b[pits + 1 + i]:2d}" for i in reversed(range(pits)))
    bottom = " ".join(f"{b[i]:2d}" for i in range(pits))
    bottom_labels = " ".join(f"{i + 1:2d}" for i in range(pits))
    return (
        f"        {top_labels}    player 1's pits (sown right to left)\n"
        f"  [{b[2 * pits + 1]:2d}]  {top}  [{b[pits]:2d}]\n"
        f"        {bottom}\n"
        f"        {bottom_labels}    player 0's pits ({to_move})"
    )
