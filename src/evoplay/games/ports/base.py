"""What every port of an OpenSpiel game shares: its Game (OpenSpiel's metadata, the seat layout, the kernels'
assembly), the base of its plain-Python State (and its returns from a winner or from totals), and the kernels'
helpers (returns, features relative to the seat, hashing).

A port's game is built by ``load_openspiel`` from the pyspiel game of the spec, whose parameters it reads, and keeps
that game as ``pyspiel_game``; OpenSpiel's adapter over the same pyspiel game (``OpenSpielGame``) supplies what is
not rules but evoplay's view of them, so the two engines cannot drift apart there: the feature names, the board's
planes, the seat layout that makes the tensor relative to the player (inferred by the adapter from seeded random
games of OpenSpiel's own implementation), the grid the web app draws. How a port is written: the docstring of
``evoplay.games.ports``.
"""
from __future__ import annotations

import hashlib
import inspect
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import CHANCE, TERMINAL, Game, State
from evoplay.games.kernels import Kernels
from evoplay.games.tools.openspiel import PREFIX, OpenSpielGame, board_grid, load_openspiel, rules_spec


class PortGame(Game):
    """An OpenSpiel game played by evoplay's port of it: subclasses give ``openspiel_name``, ``refuses``, ``setup``,
    ``new_initial_state`` and ``kernels`` (see the package docstring)."""

    #: OpenSpiel's short name of the game
    openspiel_name: str = ""
    #: which of OpenSpiel's parameters the port plays, in words (``evoplay games`` lists it)
    plays: str = "all of OpenSpiel's parameters"
    engine = "port"
    num_players = 2
    perfect_information = True
    simultaneous = False

    def __init__(self, spec: str, params: dict, pyspiel_game):
        super().__init__(spec, params)
        self.pyspiel_game = pyspiel_game
        self.name = PREFIX + self.openspiel_name
        self.rules_spec = rules_spec(spec)
        # OpenSpiel's adapter over the same game: the metadata below, and the tensors the side-by-side check reads
        self.adapter = OpenSpielGame(spec, params, pyspiel_game)
        self.settings = dict(pyspiel_game.get_parameters())
        self.engine_note = (f"evoplay's port of OpenSpiel's {self.openspiel_name} (Python rules, Numba kernels); "
                            f"engine=openspiel plays OpenSpiel's own")
        self.setup(self.settings)

    def __reduce__(self):
        return (load_openspiel, (self.spec,))

    # --- what a port fills in ---------------------------------------------------------------------------------
    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        """Why the port cannot play OpenSpiel's parameters ``settings`` (all of them, defaults included), or None
        when it can (``openspiel:NAME`` then plays OpenSpiel's own implementation, ``engine=port`` is refused)."""
        return None

    def setup(self, settings: dict) -> None:
        """Read OpenSpiel's parameters (all of them, defaults included) into the game's attributes."""

    def kernels(self) -> Kernels:
        raise NotImplementedError(f"{type(self).__name__}.kernels() is missing: return self.port_kernels(...)")

    # --- OpenSpiel's metadata -----------------------------------------------------------------------------------
    def num_distinct_actions(self) -> int:
        return self.pyspiel_game.num_distinct_actions()

    def max_chance_outcomes(self) -> int:
        """How many chance outcomes OpenSpiel numbers (0 for a game without chance nodes)."""
        return self.pyspiel_game.max_chance_outcomes()

    def max_utility(self) -> float:
        return float(self.pyspiel_game.max_utility())

    def feature_names(self) -> list[str]:
        """The observation tensor's entries, named by its shape, as OpenSpiel's adapter names them."""
        return self.adapter.feature_names()

    def num_features(self) -> int:
        return self.adapter.num_features()

    def board_planes(self) -> tuple[int, int, int] | None:
        return self.adapter.board_planes()

    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self.adapter._shape)

    @property
    def seat_layout(self):
        """How the tensor is made relative to the seat: the adapter's (``OpenSpielGame.seat_layout``)."""
        return self.adapter.seat_layout

    @property
    def seat_index(self) -> list[np.ndarray] | None:
        """Per player, the flat indices that make the observation tensor relative to its seat (the adapter's seat
        layout); None when the tensor is used as OpenSpiel gives it."""
        layout = self.adapter.seat_layout
        return None if layout is None else layout.index

    def port_kernels(self, *, size: int, encode, legal, apply, mover, returns, features, initial, state_hash,
                     moves=None, random_move=None, chance=None, params=(), dtype=np.int8) -> "PortKernels":
        """The port's ``Kernels``: its actions are OpenSpiel's, its scores its returns (OpenSpiel has no separate
        score), its features the observation tensor relative to the seat; ``params`` (the port's own numbers) get
        the seat index appended, which ``seat_relative`` reads from the end. ``moves`` and ``random_move``
        (optional) are the random playouts' (see ``PortKernels``); ``chance`` (a game with chance nodes) gives the
        chance outcomes' probabilities. The kernels' actions (the width of ``legal``'s mask and ``chance``'s
        probabilities) are OpenSpiel's distinct actions or its chance outcomes, whichever are more: OpenSpiel
        numbers a die's faces 0..MaxChanceOutcomes()-1, past the players' actions."""
        n = self.num_features()
        index = self.seat_index or [np.arange(n)] * self.num_players
        full = np.concatenate([np.asarray(params, np.int64).reshape(-1)] + [np.asarray(i, np.int64) for i in index])
        actions = max(self.num_distinct_actions(), self.max_chance_outcomes())
        return PortKernels(size=size, actions=actions, encode=encode, legal=legal, apply=apply,
                           mover=mover, returns=returns, scores=returns, features=features, n_features=n,
                           initial=initial, state_hash=state_hash, params=full, dtype=dtype, players=self.num_players,
                           moves=moves, random_move=random_move, chance=chance)

    def random_playouts(self, count: int, seed: int = 0) -> np.ndarray:
        """Each player's summed returns over ``count`` uniformly random games from the start, played inside Numba
        (``evoplay.games.ports.playouts``: through ``moves`` where the port gives it, else ``legal``)."""
        from evoplay.games.kernels import kernels_of, specialise

        k = kernels_of(self)
        loop = specialise("evoplay.games.ports.playouts", k)
        root = k.new_position()
        k.initial(k.params, root, seed)
        totals = np.zeros(self.num_players)
        loop.random_playouts(k.params, root, count, seed, np.zeros(k.actions, np.int64), np.zeros(k.actions, np.int8),
                             totals)
        return totals


@dataclass(frozen=True, eq=False)
class PortKernels(Kernels):
    """A port's ``Kernels``, with two more kernels that the searches do not need and random playouts use
    (``evoplay.games.ports.playouts``; both optional):

    - ``moves(params, state, out)`` writes the mover's legal actions into ``out`` (int64, ``actions`` long) in
      increasing order and returns how many: what ``legal`` marks, as a list (no mask of every action to scan);
    - ``random_move(params, state, out, rng)`` returns one of the mover's legal actions drawn uniformly with
      ``draw(rng, n)`` (``rng``: the playout's generator), -1 when it has none (``out`` is scratch of ``actions``
      numbers): drawn, say, by rejection from a set that holds each legal action once (a cell, a piece and a
      direction), falling back to ``moves`` after ``TRIES`` misses, which keeps the draw uniform. A
      ``random_move(params, state, out)`` of three arguments draws with ``below(n)`` (Numba's ``np.random``,
      seeded by the playouts too) instead: the same, slower.

    Both are for the players' moves: at a chance node ``moves`` lists none and ``random_move`` returns -1; the
    playouts draw a chance outcome there with its probability from the ``chance`` kernel (``chance_drawn``).
    """

    moves: Callable | None = None
    random_move: Callable | None = None

    def bindings(self) -> dict:
        out = super().bindings()
        takes_rng = self.random_move is not None and len(inspect.signature(self.random_move.py_func).parameters) == 4
        out.update(game_moves=self.moves or no_moves, HAS_MOVES=self.moves is not None,
                   game_random_move=self.random_move or no_random_move, HAS_RANDOM_MOVE=self.random_move is not None,
                   RANDOM_MOVE_TAKES_RNG=takes_rng)
        return out

    @property
    def key(self) -> str:
        """``Kernels.key``, with ``moves``, ``random_move`` and the files they are written in."""
        cached = self.__dict__.get("_port_key")
        if cached:
            return cached
        digest = hashlib.sha256(super().key.encode())
        for name in ("moves", "random_move"):
            fn = getattr(self, name)
            if fn is not None:
                py = fn.py_func
                digest.update(f"{name}:{py.__module__}.{py.__qualname__};".encode())
                digest.update(open(inspect.getsourcefile(py), "rb").read())
        key = digest.hexdigest()[:12]
        object.__setattr__(self, "_port_key", key)
        return key

    def moves_of(self, state: np.ndarray) -> list[int]:
        out = np.zeros(self.actions, np.int64)
        return out[:self.moves(self.params, state, out)].tolist()


def encode_state(state: "PortState") -> np.ndarray:
    """``Kernels.encode``: the position of a port's State (its ``encode()``)."""
    return state.encode()


class PortState(State):
    """A position of a port, its rules in plain Python (subclasses: see the package docstring). The base keeps the
    history, makes the features from ``observation``, clones, writes actions as OpenSpiel does and gives the equal
    pyspiel state (``pyspiel_state``, replayed from the history) for OpenSpiel's bots."""

    def __init__(self, game: PortGame):
        self.game = game
        self.history: list[int] = []

    # --- what a port fills in (besides current_player, _legal_actions, returns, transposition_key, __str__) ----
    def _do_apply_action(self, action: int) -> None:
        """OpenSpiel's ``DoApplyAction``: a player's action, or a chance outcome at a chance node."""
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """A game with chance nodes: OpenSpiel's ``ChanceOutcomes()`` at one, (outcome, probability) pairs in
        increasing outcome order (``_legal_actions`` lists the outcomes there, as OpenSpiel's ``LegalActions``
        does)."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    def observation(self, player: int):
        """OpenSpiel's ``observation_tensor(player)``, flat (a list or an array of numbers)."""
        raise NotImplementedError

    def action_string(self, player: int, action: int) -> str:
        """OpenSpiel's ``action_to_string(player, action)``."""
        raise NotImplementedError

    def encode(self) -> np.ndarray:
        """The position as the kernels hold it: a new array of ``Kernels.size`` numbers of ``Kernels.dtype``."""
        raise NotImplementedError

    # --- shared -----------------------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        self._do_apply_action(action)
        self.history.append(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: the outcomes with their probabilities, as OpenSpiel gives them (``_chance_outcomes``)."""
        if not self.is_chance_node():
            raise IllegalActionError(f"{self.game.spec}: chance_outcomes() is for chance nodes only (the player to "
                                     f"move is {self.current_player()})")
        return self._chance_outcomes()

    def clone(self) -> "PortState":
        """A copy: the subclass's fields are ints, strings and lists of them (lists are copied)."""
        copy = object.__new__(type(self))
        copy.__dict__.update({k: v[:] if isinstance(v, list) else v for k, v in self.__dict__.items()})
        return copy

    def scores(self) -> list[float]:
        """OpenSpiel has no separate score: the returns (as the adapter gives them)."""
        return self.returns()

    def tensor(self, player: int) -> np.ndarray:
        """``player``'s observation tensor as OpenSpiel gives it, flat."""
        if not 0 <= player < self.game.num_players:
            raise SpecError(f"{self.game.spec} has players 0..{self.game.num_players - 1}, not {player}")
        return np.asarray(self.observation(player), dtype=np.float64).reshape(-1)

    def features(self, player: int) -> np.ndarray:
        """``player``'s observation tensor, made relative to its seat as OpenSpiel's adapter makes it."""
        raw = self.tensor(player)
        index = self.game.seat_index
        return raw if index is None else raw[index[player]]

    def _viewer(self, player: int | None) -> int:
        if player is not None:
            return player
        p = self.current_player()
        return p if p >= 0 or p == CHANCE else 0

    def _action_to_string(self, action: int) -> str:
        return self.action_string(self._viewer(None), action)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self.action_string(self._viewer(player), int(action))

    def grid(self) -> list[str] | None:
        return board_grid(self.game.adapter, self.tensor(0))

    def render(self, viewer: int) -> str:
        return str(self)

    @property
    def pyspiel_state(self):
        """The equal pyspiel state: OpenSpiel's implementation replayed through this state's history (a new
        state at every call)."""
        theirs = self.game.pyspiel_game.new_initial_state()
        for action in self.history:
            theirs.apply_action(action)
        return theirs


def winner_returns(winner: int) -> list[float]:
    """A two-player State's ``returns`` when player ``winner`` has won: 1 and -1; 0 for both when ``winner`` is
    neither player (no winner yet, a draw)."""
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0] if winner == 1 else [0.0, 0.0]


def totals_returns(first, second) -> list[float]:
    """A two-player State's ``returns`` when the player with the larger total wins (1 and -1; 0 for both when the
    totals are equal)."""
    return [1.0, -1.0] if first > second else [-1.0, 1.0] if first < second else [0.0, 0.0]


# --- the kernels' helpers ------------------------------------------------------------------------------------------
#: the misses a ``random_move`` kernel allows itself before it lists the moves
TRIES = 32


@njit(cache=True)
def no_moves(params, state, out):
    return 0


@njit(cache=True)
def no_random_move(params, state, out, rng):
    return -1


@njit(cache=True, inline="always")
def uniform(rng):
    """A uniformly random number in [0, 1) (a multiple of 2**-53) from one step of the xorshift64* generator whose
    state is ``rng[0]`` (a uint64 array; ``seeded``)."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return ((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def draw(rng, n):
    """A uniformly random integer in [0, n) (to within 2**-53), from one step of the xorshift64* generator whose
    state is ``rng[0]`` (a uint64 array; ``seeded``): several times faster than Numba's ``np.random``, which a
    random playout would otherwise spend much of its time in."""
    return int(uniform(rng) * n)


@njit(cache=True)
def seeded(seed):
    """The state of ``draw``'s generator for ``seed`` (never 0, where xorshift would stay)."""
    rng = np.empty(1, np.uint64)
    rng[0] = mix(seed) | np.uint64(1)
    return rng


@njit(cache=True, inline="always")
def drawn_from(out, n, rng):
    """A uniformly random one of the ``n`` actions listed in ``out`` (by ``draw``), -1 when there are none."""
    return out[draw(rng, n)] if n > 0 else -1


@njit(cache=True, inline="always")
def chance_drawn(probs, u):
    """The chance outcome that the uniform number ``u`` (in [0, 1)) picks from ``probs`` (a probability by action,
    as the ``chance`` kernel writes it; outcomes of probability 0 are never picked): the first outcome whose share
    of the total holds ``u``, -1 when there is none."""
    total = 0.0
    for a in range(probs.shape[0]):
        if probs[a] > 0:
            total += probs[a]
    u *= total
    last = -1
    for a in range(probs.shape[0]):
        if probs[a] > 0:
            if u < probs[a]:
                return a
            u -= probs[a]
            last = a
    return last


@njit(cache=True, inline="always")
def ones(x):
    """How many bits of the uint64 ``x`` are set (a population count without a loop)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def nth_bit(x, k):
    """The index of the ``k``-th lowest set bit of the uint64 ``x`` (k from 0; ``x`` has more than k bits set)."""
    for _ in range(k):
        x &= x - np.uint64(1)
    return ones((x & (~x + np.uint64(1))) - np.uint64(1))


@njit(cache=True, inline="always")
def below(n):
    """A uniformly random integer in [0, n) from one draw of Numba's generator (``np.random.random``), for a
    ``random_move`` of three arguments (see ``PortKernels``; ``draw`` is faster)."""
    return int(np.random.random() * n)


@njit(cache=True, inline="always")
def drawn(out, n):
    """A uniformly random one of the ``n`` actions listed in ``out`` (by ``below``), -1 when there are none."""
    return out[below(n)] if n > 0 else -1


@njit(cache=True)
def seat_relative(params, player, raw, out):
    """``out`` = the observation tensor ``raw`` made relative to ``player``'s seat in a game of two players: the
    seat index that ``PortGame.port_kernels`` appends to the port's params (one row of ``len(out)`` numbers per
    player; ``seat_relative_among`` for any number of players)."""
    n = out.shape[0]
    base = params.shape[0] - 2 * n + player * n
    for i in range(n):
        out[i] = raw[params[base + i]]


@njit(cache=True, inline="always")
def seat_features(observation, params, state, player, out):
    """A ``features`` kernel's body in a game of two players: ``out`` = the port's ``observation`` kernel (passed
    in) for ``player``, made relative to its seat (``seat_relative``)."""
    raw = np.empty(out.shape[0])
    observation(params, state, player, raw)
    seat_relative(params, player, raw, out)


@njit(cache=True)
def seat_relative_among(params, players, player, raw, out):
    """``seat_relative`` in a game of ``players`` players (the seat index holds a row per player)."""
    n = out.shape[0]
    base = params.shape[0] - players * n + player * n
    for i in range(n):
        out[i] = raw[params[base + i]]


@njit(cache=True, inline="always")
def outcome_returns(outcome, out):
    """``out`` = a two-player game's returns from its outcome (1: player 0 won, 2: player 1 won; 1 and -1), 0 for
    both at any other outcome (none yet, a draw)."""
    out[0] = 0.0
    out[1] = 0.0
    if outcome == 1 or outcome == 2:
        out[outcome - 1] = 1.0
        out[2 - outcome] = -1.0


@njit(cache=True, inline="always")
def totals_returned(first, second, out):
    """``out`` = a two-player game's returns when the player with the larger total wins (1 and -1; 0 for both when
    the totals are equal): ``totals_returns`` as a kernel."""
    out[0] = 0.0
    out[1] = 0.0
    if first > second:
        out[0] = 1.0
        out[1] = -1.0
    elif first < second:
        out[0] = -1.0
        out[1] = 1.0


@njit(cache=True, inline="always")
def mix(x):
    """splitmix64's finaliser: a well-spread 64-bit number for the integer ``x`` (a state hash XORs one per
    occupied cell)."""
    z = np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def cells_hash(cells, player, extra):
    """A 64-bit hash of a board of small integers ``cells`` (0: empty), the player to move and one more number
    ``extra`` (what else the transposition key holds): equal inputs, equal numbers."""
    h = mix(np.int64(player) + 16) ^ mix(np.int64(extra) * 64 + 7)
    for c in range(cells.shape[0]):
        if cells[c] != 0:
            h ^= mix((np.int64(c) + 1) * 64 + np.int64(cells[c]) + 16)
    return np.int64(h)


__all__ = ["CHANCE", "TERMINAL", "TRIES", "PortGame", "PortKernels", "PortState", "below", "cells_hash",
           "chance_drawn", "draw", "drawn", "drawn_from", "encode_state", "mix", "nth_bit", "ones", "outcome_returns",
           "seat_features", "seat_relative", "seat_relative_among", "seeded", "totals_returned", "totals_returns",
           "uniform", "winner_returns"]
