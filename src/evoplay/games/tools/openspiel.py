"""Any OpenSpiel game as an evoplay game: ``openspiel:NAME`` or ``openspiel:NAME(param=value,...)``.

**Which engine.** Where evoplay has a port of the game (``evoplay.games.ports``: its rules in plain Python beside
Numba kernels, held move for move to OpenSpiel), ``openspiel:NAME`` plays the port: the same spec, parameters,
action numbers, features and returns, with every search inside Numba. ``engine=openspiel`` (``openspiel:hex(
board_size=5,engine=openspiel)``) forces OpenSpiel's own implementation through this adapter, and ``engine=port``
asks for the port, refusing where there is none. A game's canonical spec names the engine only when it is not the
one chosen by default.

The wrapped ``pyspiel`` objects stay reachable (``OpenSpielGame.pyspiel_game``, ``OpenSpielState.pyspiel_state``)
for agents that call OpenSpiel's own bots. Turn-based and simultaneous games of any number of players are
played through evoplay's API; chance nodes are exposed as ``CHANCE`` with ``chance_outcomes()`` and sampled by
the arena from the game's seed; a player's features are its observation tensor (the information-state tensor
for games that only have that), so imperfect information stays hidden. OpenSpiel accepts some illegal actions
silently; this adapter checks every action against the legal ones first.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import numpy as np

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import CHANCE, Game, State
from evoplay.spec import _format_value, parse_spec, suggest

PREFIX = "openspiel:"
INSTALL = "pip install 'evoplay[openspiel]'"
#: the ``engine=`` values: evoplay's port of the game, or OpenSpiel's own implementation
ENGINES = ("port", "openspiel")


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise SpecError(f"OpenSpiel games need the open_spiel package: {INSTALL} (or pip install open_spiel)") from None
    return pyspiel


def _coerce(game: str, key: str, raw: str, default: Any) -> Any:
    """A spec's text value as the type of the OpenSpiel parameter's default."""
    text = raw.strip()
    if isinstance(default, bool):
        low = text.lower()
        if low in ("true", "1", "yes", "on"):
            return True
        if low in ("false", "0", "no", "off"):
            return False
        raise SpecError(f"openspiel:{game}: parameter {key}={raw!r} is not true or false")
    if isinstance(default, int):
        body = text[1:] if text[:1] in "+-" else text
        if body.isascii() and body.isdigit():
            return int(text)
        raise SpecError(f"openspiel:{game}: parameter {key}={raw!r} is not an integer")
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise SpecError(f"openspiel:{game}: parameter {key}={raw!r} is not a number") from None
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text


def load_openspiel(spec: str) -> "OpenSpielGame | Game":
    """Build ``openspiel:NAME(param=value,...)``; parameters are typed by OpenSpiel's defaults. The game is
    evoplay's port of NAME where there is one that plays these parameters (``evoplay.games.ports``), else OpenSpiel's
    own; ``engine=openspiel`` or ``engine=port`` chooses."""
    pyspiel = _pyspiel()
    body = spec.strip()[len(PREFIX):]
    parsed = parse_spec(body, "OpenSpiel game")
    if parsed.args:
        raise SpecError(f"openspiel:{parsed.name}: give parameters by name, e.g. openspiel:goofspiel(num_cards=4)")
    kwargs = dict(parsed.kwargs)
    engine = kwargs.pop("engine", "").strip().strip("'\"").lower() or None
    if engine is not None and engine not in ENGINES:
        raise SpecError(f"openspiel:{parsed.name}: engine={parsed.kwargs['engine']!r} is unknown; use engine=port "
                        f"(evoplay's kernel port, where there is one) or engine=openspiel (OpenSpiel's own)")
    types = {t.short_name: t for t in pyspiel.registered_games()}
    if parsed.name not in types:
        try:  # OpenSpiel's games written in Python (python_*) register themselves on import
            import open_spiel.python.games  # noqa: F401
        except ImportError:
            pass
        types = {t.short_name: t for t in pyspiel.registered_games()}
    game_type = types.get(parsed.name)
    if game_type is None:
        raise SpecError(
            f"unknown OpenSpiel game '{parsed.name}'{suggest(parsed.name, types)}; see the names with "
            f"python -c \"import pyspiel; print(pyspiel.registered_names())\""
        )
    if game_type.dynamics not in (pyspiel.GameType.Dynamics.SEQUENTIAL, pyspiel.GameType.Dynamics.SIMULTANEOUS):
        raise SpecError(f"openspiel:{parsed.name} has {game_type.dynamics.name.lower()} dynamics; evoplay plays "
                        f"sequential and simultaneous games")
    defaults = dict(game_type.parameter_specification)
    values = {}
    for key, raw in kwargs.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults) + ["engine"])
            raise SpecError(f"openspiel:{parsed.name} has no parameter '{key}'{suggest(key, defaults)}; its "
                            f"parameters: {known}")
        values[key] = _coerce(parsed.name, key, raw, defaults[key])
    try:
        pyspiel_game = _load_pyspiel(parsed.name, tuple(sorted(values.items())))
    except pyspiel.SpielError as err:
        raise SpecError(f"openspiel:{parsed.name}: OpenSpiel refused the parameters {values}: {err}") from None
    changed = {k: v for k, v in sorted(values.items()) if v != defaults[k]}
    port, why_not = _port(parsed.name, pyspiel_game)
    if engine == "port" and port is None:
        raise SpecError(f"openspiel:{parsed.name}(engine=port): {why_not}; drop engine=port to play OpenSpiel's own "
                        f"implementation")
    shown = [f"{k}={_format_value(v)}" for k, v in changed.items()]
    if engine == "openspiel" and port is not None:
        shown.append("engine=openspiel")  # not the default: the spec keeps it
    canonical = PREFIX + parsed.name + (f"({','.join(shown)})" if shown else "")
    if port is not None and engine != "openspiel":
        return port(canonical, changed, pyspiel_game)
    game = OpenSpielGame(canonical, changed, pyspiel_game)
    game.engine_note = (f"OpenSpiel's own (pyspiel), asked for by engine=openspiel; without it evoplay's port runs"
                        if port is not None else f"OpenSpiel's own (pyspiel): {why_not}")
    return game


@functools.lru_cache(maxsize=64)
def _load_pyspiel(name: str, values: tuple):
    """``pyspiel.load_game(name, dict(values))``, once a process for each name and parameters: a game is loaded
    again wherever it is unpickled (each worker's task carries it by its spec), and OpenSpiel prints a game's
    warning at every load (quoridor: 'has known issues'), hundreds of lines in a run. A pyspiel game is immutable
    (its states are what change), so one serves every load."""
    return _pyspiel().load_game(name, dict(values))


def _port(name: str, pyspiel_game) -> tuple[type | None, str]:
    """(evoplay's port class of the OpenSpiel game ``name``, '') when there is one that plays the parameters of
    ``pyspiel_game``; else (None, why not)."""
    from evoplay.games.ports import PORTS, port_class  # the registry: a port module is imported by its path

    cls = port_class(name)
    if cls is None:
        return None, f"evoplay has no port of {name} (ports: {', '.join(sorted(PORTS))})"
    why = cls.refuses(dict(pyspiel_game.get_parameters()))
    return (None, f"evoplay's port of {name} does not play these parameters: {why}") if why else (cls, "")


def rules_spec(spec: str) -> str:
    """``spec`` without its ``engine=`` choice: two specs equal under it name the same rules, played by either
    engine (a champion evolved on one plays on the other)."""
    if not spec.startswith(PREFIX) or "engine=" not in spec:
        return spec
    parsed = parse_spec(spec[len(PREFIX):], "OpenSpiel game")
    rest = [f"{k}={v}" for k, v in parsed.kwargs.items() if k != "engine"]
    return PREFIX + parsed.name + (f"({','.join(rest)})" if rest else "")


def with_engine(spec: str, engine: str) -> str:
    """``spec`` with ``engine=`` set: ``openspiel:hex(board_size=5)`` -> ``openspiel:hex(board_size=5,engine=port)``."""
    base = rules_spec(spec)
    return base[:-1] + f",engine={engine})" if base.endswith(")") else base + f"(engine={engine})"


def engine_note(game) -> str:
    """Which engine plays ``game``, in words ('' for a game that is not an ``openspiel:`` game)."""
    return getattr(game, "engine_note", "") if getattr(game, "name", "").startswith(PREFIX) else ""


class OpenSpielGame(Game):
    """A pyspiel game behind evoplay's Game API; ``pyspiel_game`` is the wrapped game."""

    engine = "openspiel"
    engine_note = "OpenSpiel's own (pyspiel)"

    def __reduce__(self):
        return (load_openspiel, (self.spec,))

    def __init__(self, spec: str, params: dict, pyspiel_game):
        super().__init__(spec, params)
        pyspiel = _pyspiel()
        self.pyspiel_game = pyspiel_game
        game_type = pyspiel_game.get_type()
        self.name = PREFIX + game_type.short_name
        self.num_players = pyspiel_game.num_players()
        self.perfect_information = game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        self.simultaneous = game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        self._observer = None
        if game_type.provides_observation_tensor:
            self._tensor, self._shape = "observation", tuple(pyspiel_game.observation_tensor_shape())
            self._observer = _observer(pyspiel_game, int(np.prod(self._shape)))
        elif game_type.provides_information_state_tensor:
            self._tensor, self._shape = "infostate", tuple(pyspiel_game.information_state_tensor_shape())
        else:
            self._tensor, self._shape = None, ()
        self._planes = self._board_planes()
        self.rules_spec = rules_spec(spec)

    def _board_planes(self) -> tuple[tuple[int, ...], bool] | None:
        """For ``OpenSpielState.grid``: a game of perfect information whose observation is shaped (planes, rows,
        columns), at most 8 planes, one of them all ones at the start (the empty cells), gives the symbol index
        of each plane (-1: empty; 0, X: the plane the first player's first move fills; then the others in order)
        and whether to turn the rows upside down (a drop game whose first piece lands in row 0: row 0 is the
        bottom); any other game None."""
        if not self.perfect_information or self._tensor != "observation" or len(self._shape) != 3:
            return None
        if not 2 <= self._shape[0] <= 8:
            return None
        state = self.pyspiel_game.new_initial_state()
        if state.current_player() < 0:
            return None
        start = np.asarray(state.observation_tensor(0)).reshape(self._shape)
        full = [p for p in range(self._shape[0]) if start[p].min() == 1]
        if len(full) != 1:
            return None
        state.apply_action(state.legal_actions()[0])
        gained = (np.asarray(state.observation_tensor(0)).reshape(self._shape) - start).clip(0)
        first = int(gained.sum(axis=(1, 2)).argmax())
        pieces = [first] + [p for p in range(self._shape[0]) if p not in (first, full[0])]
        rows = np.nonzero(gained[first].any(axis=1))[0]
        drop = self.num_distinct_actions() == self._shape[2] and len(rows) == 1 and rows[0] == 0
        return tuple(-1 if p == full[0] else pieces.index(p) for p in range(self._shape[0])), bool(drop)

    def new_initial_state(self, seed: int | None = None) -> "OpenSpielState":
        """The start of a play; ``seed`` is not used here: the arena samples chance nodes from the game's seed."""
        return OpenSpielState(self, self.pyspiel_game.new_initial_state())

    def num_distinct_actions(self) -> int:
        return self.pyspiel_game.num_distinct_actions()

    def max_utility(self) -> float:
        return float(self.pyspiel_game.max_utility())

    def feature_names(self) -> list[str]:
        """The player's observation tensor (``obs[i,j,...]`` by its shape), or its information-state tensor
        (``info[...]``) for games that only have that."""
        if self._tensor is None:
            raise SpecError(
                f"{self.spec} provides neither an observation nor an information-state tensor, so programs and "
                f"weights have nothing to read; choose a game that has one"
            )
        prefix = "obs" if self._tensor == "observation" else "info"
        return [f"{prefix}[{','.join(map(str, idx))}]" for idx in np.ndindex(*self._shape)]

    def num_features(self) -> int:
        return int(np.prod(self._shape)) if self._tensor is not None else len(self.feature_names())

    def board_planes(self) -> tuple[int, int, int] | None:
        """The observation's shape when it is (planes, rows, columns) of a board (at most 8 planes, each cell's
        numbers 0 or 1); None otherwise."""
        if self._tensor != "observation" or len(self._shape) != 3 or not 2 <= self._shape[0] <= 8:
            return None
        state = self.pyspiel_game.new_initial_state()
        if state.current_player() < 0:
            return None
        start = np.asarray(state.observation_tensor(0))
        return tuple(int(n) for n in self._shape) if np.isin(start, (0.0, 1.0)).all() else None

    def relative_index(self):
        """Per player, the indices that make the tensor relative to its seat (None: the tensor as it is)."""
        layout = self.seat_layout
        self._relative = None if layout is None else layout.index
        return self._relative

    @property
    def seat_layout(self):
        """How the tensor is made relative to the seat (``evoplay.games.tools.seat_view``), inferred once from seeded
        random games; None when OpenSpiel's tensors already differ by player or nothing pairs up."""
        if not hasattr(self, "_seat_layout"):
            from evoplay.games.tools.seat_view import infer_layout

            self._seat_layout = None  # while inferring, features() reads the tensor as it is
            if self._tensor is not None:
                self._seat_layout = infer_layout(self, self._shape, lambda state, p: state.tensor(p))
        return self._seat_layout


def board_grid(game: OpenSpielGame, tensor) -> list[str] | None:
    """``State.grid()`` of a state of ``game`` whose first player's observation tensor is ``tensor``: the board
    from a shaped observation (see ``OpenSpielGame._board_planes``), or None."""
    if game._planes is None:
        return None
    planes, drop = game._planes
    which = np.asarray(tensor).reshape(game._shape).argmax(axis=0)
    rows = ["".join("." if planes[k] < 0 else "XOABCDEF"[planes[k]] for k in row) for row in which]
    return rows[::-1] if drop else rows


def _observer(pyspiel_game, size: int):
    """OpenSpiel's observer object for the game: it writes the observation tensor into a NumPy buffer, several
    times faster than ``state.observation_tensor(player)``'s list. None where the game has no such observer."""
    try:
        from open_spiel.python.observation import make_observation

        observer = make_observation(pyspiel_game)
    except Exception:  # noqa: BLE001 - any failure falls back to observation_tensor
        return None
    return observer if observer.tensor is not None and observer.tensor.size == size else None


class OpenSpielState(State):
    """A pyspiel state behind evoplay's State API; ``pyspiel_state`` is the wrapped state."""

    __slots__ = ("game", "pyspiel_state")
    # legal_actions/apply_action check and word errors; at a turn-based node the hooks below list and play the
    # mover's actions directly, which is all a search needs (games.base.search_moves)
    fast_moves = True

    def __init__(self, game: OpenSpielGame, pyspiel_state):
        self.game = game
        self.pyspiel_state = pyspiel_state

    def current_player(self) -> int:
        return self.pyspiel_state.current_player()  # OpenSpiel's ids are evoplay's: TERMINAL -4, CHANCE -1, ...

    def is_terminal(self) -> bool:
        return self.pyspiel_state.is_terminal()

    def is_chance_node(self) -> bool:
        return self.pyspiel_state.is_chance_node()

    def is_simultaneous_node(self) -> bool:
        return self.pyspiel_state.is_simultaneous_node()

    def grid(self) -> list[str] | None:
        """The board from a shaped observation (see ``OpenSpielGame._board_planes``), seen from the first seat:
        '.' an empty cell, X, O, A, B... the other planes in order; None for any other game."""
        return board_grid(self.game, self.pyspiel_state.observation_tensor(0))

    @property
    def history(self) -> list[int]:
        """Every action so far, chance outcomes included (a simultaneous move adds one per player)."""
        return self.pyspiel_state.history()

    def legal_actions(self, player: int | None = None) -> list[int]:
        s = self.pyspiel_state
        if s.is_terminal():
            return []
        if s.is_simultaneous_node():
            if player is None:
                raise IllegalActionError(
                    f"{self.game.spec}: every player moves at once here; ask legal_actions(player) for each player"
                )
            return s.legal_actions(player) if 0 <= player < self.game.num_players else []
        if player is not None and player != s.current_player():
            return []
        return s.legal_actions()

    def _legal_actions(self) -> list[int]:
        return self.pyspiel_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.pyspiel_state.apply_action(action)

    def apply_action(self, action: int) -> None:
        s = self.pyspiel_state
        if s.is_simultaneous_node():
            raise IllegalActionError(
                f"{self.game.spec} is at a simultaneous move: use apply_actions([one action per player])"
            )
        if action not in s.legal_actions():  # empty at a terminal state; State.apply_action words the error
            super().apply_action(action)
        s.apply_action(int(action))

    def apply_actions(self, actions: Sequence[int]) -> None:
        s = self.pyspiel_state
        if not s.is_simultaneous_node():
            super().apply_actions(actions)
            return
        n = self.game.num_players
        if len(actions) != n:
            raise IllegalActionError(f"{self.game.spec} needs one action per player ({n}), got {list(actions)!r}")
        joint = [int(a) for a in actions]
        for p, a in enumerate(joint):
            legal = s.legal_actions(p)
            if a not in legal:
                shown = ", ".join(f"{b} ({s.action_to_string(p, b)})" for b in legal)
                raise IllegalActionError(f"action {a!r} is not legal for player {p}; legal: {shown}")
        s.apply_actions(joint)

    def _viewer(self, player: int | None) -> int:
        if player is not None:
            return player
        p = self.pyspiel_state.current_player()
        return p if p >= 0 or p == CHANCE else 0

    def _action_to_string(self, action: int) -> str:
        return self.pyspiel_state.action_to_string(self._viewer(None), action)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self.pyspiel_state.action_to_string(self._viewer(player), int(action))

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """An action written as ``action_to_string`` writes it, or its number."""
        text = text.strip()
        viewer = self._viewer(player)
        legal = self.legal_actions(viewer if self.is_simultaneous_node() else None)
        for a in legal:
            if self.pyspiel_state.action_to_string(viewer, a) == text:
                return a
        lowered = [a for a in legal if self.pyspiel_state.action_to_string(viewer, a).lower() == text.lower()]
        if len(lowered) == 1:
            return lowered[0]
        if text.isascii() and text.lstrip("-").isdigit():
            return int(text)
        shown = ", ".join(self.pyspiel_state.action_to_string(viewer, a) for a in legal)
        raise IllegalActionError(f"{text!r} is not an action here; type one of: {shown} (or its number)")

    def returns(self) -> list[float]:
        return list(self.pyspiel_state.returns())

    def scores(self) -> list[float]:
        """OpenSpiel has no separate score: the returns."""
        return list(self.pyspiel_state.returns())

    def clone(self) -> "OpenSpielState":
        return OpenSpielState(self.game, self.pyspiel_state.clone())

    def features(self, player: int) -> np.ndarray:
        """``player``'s observation tensor (or information-state tensor): what OpenSpiel lets it see, made
        relative to its seat where OpenSpiel gives every player the same tensor (``OpenSpielGame.seat_layout``)."""
        g = self.game
        index = g._relative if hasattr(g, "_relative") else g.relative_index()
        raw = self.tensor(player)
        return raw if index is None else raw[index[player]]

    def tensor(self, player: int) -> np.ndarray:
        """``player``'s observation (or information-state) tensor as OpenSpiel gives it, flat."""
        g = self.game
        if g._tensor is None:
            g.feature_names()
        if not 0 <= player < g.num_players:
            raise SpecError(f"{g.spec} has players 0..{g.num_players - 1}, not {player}")
        if g._observer is not None:
            g._observer.set_from(self.pyspiel_state, player)
            return g._observer.tensor.astype(np.float64).reshape(-1)
        if g._tensor == "observation":
            return np.asarray(self.pyspiel_state.observation_tensor(player), dtype=np.float64)
        return np.asarray(self.pyspiel_state.information_state_tensor(player), dtype=np.float64)

    def transposition_key(self):
        """The player to move and OpenSpiel's text of the state, for perfect-information games (their text holds
        the whole position); None otherwise."""
        if not self.game.perfect_information:
            return None
        return (self.pyspiel_state.current_player(), str(self.pyspiel_state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.pyspiel_state.is_chance_node():
            raise IllegalActionError(f"{self.game.spec}: chance_outcomes() is for chance nodes only")
        return [(int(a), float(p)) for a, p in self.pyspiel_state.chance_outcomes()]

    def resample(self, player: int, rng: np.random.Generator) -> "OpenSpielState":
        """A state ``player`` cannot tell from this one (OpenSpiel's ``resample_from_infostate``)."""
        if self.game.perfect_information:
            return self.clone()
        pyspiel = _pyspiel()
        try:
            resampled = self.pyspiel_state.resample_from_infostate(int(player), lambda: float(rng.random()))
        except pyspiel.SpielError as err:
            raise SpecError(
                f"{self.game.spec} cannot resample a hidden state in OpenSpiel ({err}); searches that determinise "
                f"hidden information cannot play it, choose an agent that plays from the observation"
            ) from None
        return OpenSpielState(self.game, resampled)

    def render(self, viewer: int) -> str:
        """What ``viewer`` may see: the whole state in a perfect-information game, else its observation string."""
        g = self.game
        if g.perfect_information or self.pyspiel_state.is_terminal():
            return str(self.pyspiel_state)
        game_type = g.pyspiel_game.get_type()
        if game_type.provides_observation_string:
            return self.pyspiel_state.observation_string(viewer)
        if game_type.provides_information_state_string:
            return self.pyspiel_state.information_state_string(viewer)
        return f"(player {viewer}: {g.spec} shows you nothing)"

    def __str__(self) -> str:
        return str(self.pyspiel_state)
