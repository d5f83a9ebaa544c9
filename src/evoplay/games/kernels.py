"""The kernel protocol: Numba kernels a game may hand over beside its Python State, and the searches compiled over
them once per game.

A game whose rules are Numba kernels over one fixed-length integer array (a *position*) returns them from
``Game.kernels()`` as a :class:`Kernels`; every search of evoplay (alpha-beta, ``uct``, the rollout controllers,
the feature players) then runs inside Numba on that game, and a game that gives none is searched through its
Python ``State``, with the same results. The game's ``State`` stays the rules' reference: the arena, the web app
and a human play it; ``evoplay check-game`` plays seeded random games through both and names the first
difference.

Each kernel takes ``params`` first (the game's parameters as an int64 array, ``Kernels.params``) and the position
``state`` (the game's own integer dtype, ``Kernels.size`` numbers):

===========================================  ============================================================  ========
kernel                                       what it does                                                  needed
===========================================  ============================================================  ========
``legal(params, state, player, mask)``       set ``mask[a] = 1`` for every legal action of ``player``       yes
                                             (``mask`` is int8, ``Kernels.actions`` long, zeroed by the
                                             kernel) and return how many: the mover's at a turn-based
                                             node, any player's at a simultaneous one, 0 otherwise
``apply(params, state, action)``             play the mover's ``action`` (or a chance outcome) in place;    yes
                                             at a simultaneous node ``action`` is the joint action
                                             ``sum(a[p] * actions ** p)``
``mover(params, state)``                     ``current_player()``: a player, CHANCE, SIMULTANEOUS or        yes
                                             TERMINAL
``returns(params, state, out)``              ``returns()`` into ``out`` (float64, one per player)           yes
``scores(params, state, out)``               ``scores()`` into ``out``                                      yes
``features(params, state, player, out)``     ``features(player)`` into ``out`` (float64,                    for the
                                             ``Kernels.n_features`` numbers)                                players
``initial(params, state, seed)``             the position ``new_initial_state(seed)`` starts from           no
``state_hash(params, state)``                a 64-bit hash of ``transposition_key()``: equal for equal      no
                                             keys (only where the State gives that key)
``chance(params, state, probs)``             ``chance_outcomes()`` as ``probs[a]`` (float64, zeroed by the  no
                                             kernel) in action order; return how many
``hide(params, state, seed)``                draw afresh, from ``seed``, what no player can know yet (a     no
                                             rollout's copy must not see the game's future dice)
``leaf(params, state, player, ply, leaf,     the game's own leaf for its own players (the alpha-beta's      no
row, stack)``                                ``Leaf`` of kind GAME, evoplay.search.leaf_kernel): the value
                                             from ``player``'s side of a finished position or of one
                                             ``ply`` plies below the root, in ``Kernels.leaf_width``
                                             numbers of ``row`` and the stack
``order(params, state, actions, n, first)``  the game's own move order for its own players' search with a   no
                                             table: ``actions[:n]`` (the legal ones, increasing) reordered
                                             in place, ``first`` (the table's action, or -1) in front
===========================================  ============================================================  ========

``Kernels.encode(state)`` (plain Python) turns the game's State into its position; the searches start from it.

**Compiled per game.** A search module (say ``evoplay.search.minimax_kernel``) is written once against the names
``game_legal``, ``game_apply``, ... and :func:`specialise` loads a copy of it per game with those names bound to
the game's kernels, so Numba compiles each search with the game's kernels inlined, as if written for that game.
The copy's functions are renamed with the game's key (a hash of the files its kernels are written in) before they
compile, so Numba's disk cache keeps one compiled search per game and per version of its rules. A search module
that calls kernels of another search module names it in ``USES`` (a tuple of dotted names): the copy then calls
the other module's copy for the same game. (A kernel that
took the game's kernels as arguments would be the same one text, but Numba's cache cannot hold it: the
argument's type names the function object, which is new in every process, so every process would compile it
again; a first-class function type instead costs an indirect call per kernel and inlines nothing.)
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, State

REQUIRED = ("legal", "apply", "mover", "returns", "scores")
OPTIONAL = ("features", "initial", "state_hash", "chance", "hide", "leaf", "order")


# --- the defaults of the optional kernels: never called where the flags say the game has none --------------------
@njit(cache=True)
def no_features(params, state, player, out):
    out[:] = 0.0


@njit(cache=True)
def no_initial(params, state, seed):
    state[:] = 0


@njit(cache=True)
def no_state_hash(params, state):
    return np.int64(0)


@njit(cache=True)
def no_chance(params, state, probs):
    probs[:] = 0.0
    return 0


@njit(cache=True)
def no_hide(params, state, seed):
    pass


@njit(cache=True)
def no_leaf(params, state, player, ply, leaf, row, stack):
    return 0.0


@njit(cache=True)
def no_order(params, state, actions, n, first):
    pass


DEFAULTS = {"features": no_features, "initial": no_initial, "state_hash": no_state_hash, "chance": no_chance,
            "hide": no_hide, "leaf": no_leaf, "order": no_order}


# --- for the searches over kernels ---------------------------------------------------------------------------
@intrinsic
def uncounted(typingctx, array):
    """A view of ``array`` (the same memory, shape and strides) without its reference count: Numba counts no
    references to it, so it lives no longer than ``array`` itself, which the caller must hold (an argument of the
    running kernel is held until the kernel returns)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        for field in ("data", "shape", "strides", "itemsize", "nitems"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)  # no reference count: none to take or give back
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


@dataclass(frozen=True, eq=False)
class Kernels:
    """What a game hands over from ``Game.kernels()`` (see the module docstring for each kernel)."""

    size: int
    actions: int
    encode: Callable
    legal: Callable
    apply: Callable
    mover: Callable
    returns: Callable
    scores: Callable
    players: int = 2
    params: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    dtype: type = np.int8
    features: Callable | None = None
    n_features: int = 0
    initial: Callable | None = None
    state_hash: Callable | None = None
    chance: Callable | None = None
    hide: Callable | None = None
    simultaneous: bool = False
    leaf: Callable | None = None
    leaf_width: int = 0
    order: Callable | None = None

    def __post_init__(self):
        for name in REQUIRED + OPTIONAL:
            fn = getattr(self, name)
            if fn is None and name in OPTIONAL:
                continue
            if not hasattr(fn, "py_func"):
                raise SpecError(f"Kernels.{name} must be a Numba @njit function (got {fn!r}); write it with "
                                f"@numba.njit(cache=True) (see evoplay.games.kernels)")
        if self.features is not None and self.n_features < 1:
            raise SpecError("Kernels.features is given but n_features is not: give the number of features it writes")
        if self.size < 1 or self.actions < 1 or self.players < 1:
            raise SpecError(f"Kernels: size={self.size}, actions={self.actions}, players={self.players}; each must "
                            f"be at least 1")
        params = np.ascontiguousarray(self.params, dtype=np.int64)
        object.__setattr__(self, "params", params)

    # --- Python's view of the kernels (checks, tests, benchmarks) ---------------------------------------------
    def new_position(self) -> np.ndarray:
        return np.zeros(self.size, dtype=self.dtype)

    def position(self, state) -> np.ndarray:
        """``encode(state)``, checked: a new array of ``size`` numbers of the game's dtype (a search changes it)."""
        if isinstance(state, KernelState):
            return state.position.copy()
        arr = self.encode(state)
        if not isinstance(arr, np.ndarray) or arr.shape != (self.size,) or arr.dtype != np.dtype(self.dtype):
            shown = f"shape {arr.shape} and dtype {arr.dtype}" if isinstance(arr, np.ndarray) else type(arr).__name__
            raise SpecError(f"Kernels.encode gave {shown}; it must give a new array of {self.size} numbers of dtype "
                            f"{np.dtype(self.dtype).name} (Kernels.size, Kernels.dtype)")
        return arr

    def legal_actions(self, state: np.ndarray, player: int | None = None) -> list[int]:
        """``legal(...)`` as a list in increasing order (the mover's, or ``player``'s at a simultaneous node)."""
        mask = np.zeros(self.actions, np.int8)
        who = self.mover(self.params, state) if player is None else player
        count = self.legal(self.params, state, who, mask)
        found = mask.nonzero()[0].tolist()
        if count != len(found):
            raise SpecError(f"Kernels.legal returned {count} but marked {len(found)} actions; return the count")
        return found

    def returns_of(self, state: np.ndarray) -> list[float]:
        out = np.zeros(self.players)
        self.returns(self.params, state, out)
        return out.tolist()

    def scores_of(self, state: np.ndarray) -> list[float]:
        out = np.zeros(self.players)
        self.scores(self.params, state, out)
        return out.tolist()

    def features_of(self, state: np.ndarray, player: int) -> np.ndarray:
        out = np.zeros(self.n_features)
        self.features(self.params, state, player, out)
        return out

    def chance_of(self, state: np.ndarray) -> list[tuple[int, float]]:
        probs = np.zeros(self.actions)
        self.chance(self.params, state, probs)
        return [(int(a), float(probs[a])) for a in np.flatnonzero(probs > 0)]

    def joint(self, actions) -> int:
        """The action ``apply`` takes for one action per player at a simultaneous node."""
        return int(sum(int(a) * self.actions ** p for p, a in enumerate(actions)))

    # --- compiled per game ----------------------------------------------------------------------------------
    def bindings(self) -> dict:
        """The globals a search module is compiled with for this game."""
        out = {f"game_{name}": getattr(self, name) for name in REQUIRED}
        for name in OPTIONAL:
            fn = getattr(self, name)
            out[f"game_{name}"] = fn if fn is not None else DEFAULTS[name]
        out.update(HAS_FEATURES=self.features is not None, HAS_HASH=self.state_hash is not None,
                   HAS_CHANCE=self.chance is not None, SIMULTANEOUS_GAME=self.simultaneous,
                   HAS_GAME_LEAF=self.leaf is not None, HAS_GAME_ORDER=self.order is not None)
        return out

    @property
    def key(self) -> str:
        """A short hash naming this game's kernels: their names and the content of the files they are written in
        (an edited rules file compiles afresh)."""
        cached = self.__dict__.get("_key")
        if cached:
            return cached
        digest = hashlib.sha256()
        for name in REQUIRED + OPTIONAL:
            fn = getattr(self, name)
            if fn is None:
                digest.update(f"{name}:-;".encode())
                continue
            py = fn.py_func
            digest.update(f"{name}:{py.__module__}.{py.__qualname__};".encode())
            try:
                digest.update(open(inspect.getsourcefile(py), "rb").read())
            except (OSError, TypeError):
                digest.update(py.__code__.co_code)
        digest.update(repr((self.simultaneous, np.dtype(self.dtype).name)).encode())
        key = digest.hexdigest()[:12]
        object.__setattr__(self, "_key", key)
        return key


class KernelState(State):
    """A game's position played through its kernels: the State API over ``Kernels`` (the arena plays tournament
    and fitness games on it when every agent reads the State API alone, see ``Agent.state_api_only``), starting
    from the position of one of the game's own States. It has the rules of that State (check-game holds the
    kernels to them), lists legal actions and chance outcomes in increasing action order, and keeps ``history``."""

    __slots__ = ("game", "kernels", "position", "history", "_mover", "_legal", "_chance")

    def __init__(self, game, kernels: Kernels, position: np.ndarray, history=()):
        self.game, self.kernels, self.position = game, kernels, position
        self.history = list(history)
        self._moved()

    @classmethod
    def of(cls, state) -> "KernelState":
        return cls(state.game, kernels_of(state.game), kernels_of(state.game).position(state),
                   getattr(state, "history", ()))

    def _moved(self) -> None:
        """Read the new position's mover; its legal actions are listed when first asked for."""
        self._mover = int(self.kernels.mover(self.kernels.params, self.position))
        self._legal = self._chance = None

    def current_player(self) -> int:
        return self._mover

    def _legal_actions(self) -> list[int]:
        if self._legal is None:  # at a chance node: its outcomes (the kernels' ``legal`` lists none there)
            self._legal = ([a for a, _ in self.chance_outcomes()] if self._mover == CHANCE
                           else self.kernels.legal_actions(self.position, self._mover))
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._mover == SIMULTANEOUS and player is not None:
            return self.kernels.legal_actions(self.position, player)
        return super().legal_actions(player)

    def _apply_action(self, action: int) -> None:
        self.kernels.apply(self.kernels.params, self.position, action)
        self.history.append(action)
        self._moved()

    def apply_actions(self, actions) -> None:
        if self._mover != SIMULTANEOUS:
            return super().apply_actions(actions)
        for p, a in enumerate(actions):
            if int(a) not in self.legal_actions(p):
                raise IllegalActionError(f"action {a!r} is not legal for player {p}; legal: "
                                         f"{self.legal_actions(p)}")
        self.kernels.apply(self.kernels.params, self.position, self.kernels.joint(actions))
        self.history.append(tuple(int(a) for a in actions))
        self._moved()

    def returns(self) -> list[float]:
        return self.kernels.returns_of(self.position)

    def scores(self) -> list[float]:
        return self.kernels.scores_of(self.position)

    def features(self, player: int) -> np.ndarray:
        if self.kernels.features is None:
            return super().features(player)
        return self.kernels.features_of(self.position, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._chance is None:  # read once a position: the legality check and the draw both ask
            self._chance = self.kernels.chance_of(self.position)
        return list(self._chance)

    def transposition_key(self):
        k = self.kernels
        return None if k.state_hash is None else int(k.state_hash(k.params, self.position))

    def clone(self) -> "KernelState":
        return KernelState(self.game, self.kernels, self.position.copy(), self.history)

    def __str__(self) -> str:
        return f"{self.game.spec} position {self.position.tolist()} (player {self.current_player()} to move)"


def play_state(state, agents):
    """``state`` as a KernelState when its game gives kernels and every agent reads the State API alone (the
    arena's games then run on the kernels), else ``state`` itself. The kernels must give all the State gives
    that an agent may read: the features where the game has features, and nothing may be hidden."""
    game = state.game
    kernels = kernels_of(game)
    if kernels is None or not game.perfect_information or not all(getattr(a, "state_api_only", False)
                                                                  for a in agents):
        return state
    if kernels.features is None and _has_features(game):
        return state
    return KernelState.of(state)


def _has_features(game) -> bool:
    try:
        game.feature_names()
    except SpecError:
        return False
    return True


def kernels_of(game) -> Kernels | None:
    """The game's kernels (``Game.kernels()``), made once per game object; None for a game that gives none."""
    made = game.__dict__.get("_kernels", False)
    if made is False:
        made = game.kernels()
        if made is not None and not isinstance(made, Kernels):
            raise SpecError(f"{type(game).__name__}.kernels() returned {type(made).__name__}; return an "
                            f"evoplay.games.kernels.Kernels (or None)")
        game.__dict__["_kernels"] = made
    return made


def specialise(module: str, kernels: Kernels, recursive: bool = True):
    """The search module ``module`` (a dotted name) compiled for the game of ``kernels``: a copy of the module,
    loaded once per game and process, with the names ``game_*`` and the flags bound to that game's kernels.
    ``recursive`` False leaves its recursive kernels (``RECURSIVE``) uncompiled, for a module that borrows only its
    other kernels (``USES``); a later call compiles them."""
    name = f"{module}__game_{kernels.key}"
    copy = sys.modules.get(name)
    if copy is None:
        found = importlib.util.find_spec(module)
        if found is None or found.origin is None:
            raise SpecError(f"no search module {module!r} to compile for a game")
        spec = importlib.util.spec_from_file_location(name, found.origin)
        copy = importlib.util.module_from_spec(spec)
        sys.modules[name] = copy
        try:
            spec.loader.exec_module(copy)
            _bind(copy, name, kernels)
        except BaseException:
            del sys.modules[name]
            raise
    if recursive:
        _compile_recursive(copy, kernels)
    return copy


def _bind(copy, name: str, kernels: Kernels) -> None:
    """Bind the copy ``name`` of a search module to the game of ``kernels`` before any of it compiles."""
    from numba.core.registry import CPUDispatcher

    vars(copy).update(kernels.bindings())
    # Numba names a kernel's disk cache by its file and qualified name: give this game's copies names of their own,
    # or every game would load the first game's compiled searches.
    for value in list(vars(copy).values()):
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
            value.py_func.__qualname__ = f"{value.py_func.__qualname__}__{kernels.key}"
            if type(value._cache).__name__ != "NullCache":
                value.enable_caching()
    # Kernels this module imported from other search modules (its ``USES``) are replaced by their game's copies.
    for other in getattr(copy, "USES", ()):
        theirs = specialise(other, kernels, recursive=False)
        for attr, value in list(vars(copy).items()):
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == other:
                vars(copy)[attr] = getattr(theirs, value.py_func.__name__)


def _compile_recursive(copy, kernels: Kernels) -> None:
    """A recursive kernel is written undecorated and compiled here with its explicit signature for this game (Numba
    cannot load a recursive kernel from its cache without one), after everything it calls is bound."""
    for attr, signature in getattr(copy, "RECURSIVE", {}).items():
        py = vars(copy)[attr]
        if not inspect.isfunction(py):  # compiled by an earlier call
            continue
        py.__qualname__ = f"{py.__qualname__}__{kernels.key}"
        compiled = vars(copy)[attr] = njit(cache=True)(py)  # bound before it compiles: it calls itself
        compiled.compile(signature(kernels))
        compiled.disable_compile()


__all__ = ["CHANCE", "KernelState", "Kernels", "SIMULTANEOUS", "TERMINAL", "kernels_of", "play_state", "specialise",
           "uncounted"]
