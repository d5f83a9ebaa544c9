"""A user's game under guard: a hook that raises, runs past its time limit or returns what no game may ends in one
``GameError`` naming the hook, where a traceback (or a silent wrong result) came before.

``guard_game(cls)`` wraps the game API's hooks (the methods ``evoplay.games.base.Game`` and ``State`` define, such
as ``_apply_action``, ``legal_actions``, ``features``, ``returns``) wherever a user's class or its user-written
bases define them; the classes of the states its games make are guarded when first seen. Games from a file and
from an installed package's entry point are guarded when they load (``evoplay.games.tools.sources``); evoplay's own
games are not (their tests hold them to the API, and their hot paths are kernels).

What a guarded hook refuses, where it first appears:

- any exception but evoplay's own (an ``IllegalActionError`` for an illegal action is the API's answer), and
  ``SystemExit``: ``BrokenState._apply_action raised ValueError: boom``; ``os._exit(n)`` called inside a hook
  (which would end the process with no word) raises instead: ``BrokenState._apply_action called os._exit(3)``;
- a call running longer than the game's ``hook_seconds`` (class attribute; ``HOOK_SECONDS`` by default): a
  watchdog thread raises in the looping thread (a hook blocked inside C code, such as a long ``time.sleep``,
  is stopped only when it returns to Python);
- ``current_player()`` other than a seat, CHANCE, SIMULTANEOUS or TERMINAL; legal actions that are not whole
  numbers, or none where a player moves; ``features()`` that are not finite numbers of the length
  ``feature_names()`` gives; ``returns()`` and ``scores()`` that are not one finite number per player; a
  ``new_initial_state`` or ``clone`` that is not a State. What is checked is what the state's own class returns:
  a hook that calls its base class's hook (``super().features(player)``) is checked once, on the outer call.

``check-game`` runs the hooks under ``unguarded()``: no result is refused (it names each broken promise by its own
rule), but the time limit, ``SystemExit`` and ``os._exit`` are caught as in a run, so a looping hook is named within
the same limit.

``evoplay.arena.match.play_game`` (and every other loop that plays a game: :func:`in_game`) adds the move number
and the game's seed to the error.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import inspect
import math
import os
import threading
import time
import warnings

import numpy as np

from evoplay.errors import EvoplayError, GameError
from evoplay.games import base

HOOK_SECONDS = 10.0
_WATCH_SECONDS = 0.25  # how often the watchdog looks at the running hooks
_SPECIAL = (base.CHANCE, base.SIMULTANEOUS, base.TERMINAL)
#: the hooks guarded: every method evoplay's Game and State define, and how a state prints
STATE_HOOKS = frozenset(n for n, v in vars(base.State).items() if callable(v) and not n.startswith("__")) | {"__str__"}
GAME_HOOKS = frozenset(n for n, v in vars(base.Game).items() if callable(v) and not n.startswith("__"))


def in_game(err: GameError, spec: str, seed: int, move: int | None) -> GameError:
    """``err`` said at which move (None: unknown) of the game of which seed it happened, and how to check the game
    from that seed; an error that already names its game comes back as it is."""
    if getattr(err, "seed", None) is not None:
        return err
    at = f"at move {move} " if move is not None else ""
    named = GameError(f"{spec}: {at}of the game with seed {seed}, {err}; check the game from that seed with: "
                      f"evoplay check-game {spec} --seed {seed}")
    named.seed = seed
    return named


class HookTimeout(BaseException):
    """Raised by the watchdog inside a hook that ran past its time limit (a BaseException, so a hook's own
    ``except Exception`` does not swallow it)."""


class HookExit(BaseException):
    """Raised instead of ending the process when a guarded hook calls ``os._exit`` (a BaseException, like
    SystemExit, so a hook's own ``except Exception`` does not swallow it)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


class HookTimedOut(GameError):
    """A hook ran past its time limit: one more call would take as long again, so a checker stops here."""


#: thread -> (the hook, its time limit, when it started) of the outermost guarded hook call running in that thread,
#: set and cleared by the wrappers; the watchdog reads only this table (walking other threads' stacks, as it did,
#: crashed CPython 3.11 now and then: a segmentation fault in the watchdog)
_RUNNING: dict[int, tuple[str, float, float]] = {}
_TIMED_OUT: dict[int, tuple[str, float]] = {}  # thread -> the hook the watchdog stopped in it, and its limit
_LOCK = threading.Lock()
_watching = False
_suspended = 0  # > 0 inside ``unguarded()``: the hooks run as written (check-game judges them itself)
# The features check multiplies by zeros: an infinity there makes NumPy warn before the check's own error says so.
warnings.filterwarnings("ignore", "invalid value encountered in dot", RuntimeWarning, __name__)


def _in_hook() -> bool:
    """Whether the calling thread is inside a guarded hook call."""
    return threading.get_ident() in _RUNNING


_process_exit = os._exit


def _guarded_exit(code):
    """``os._exit`` as a guarded hook sees it: the hook is stopped (HookExit, reported as a broken game naming the
    hook) instead of the process ending with no word; anywhere else the process ends as asked."""
    if _RUNNING and _in_hook():
        raise HookExit(code)
    _process_exit(code)


# Replaced when this module is imported, before any user's game file runs (evoplay.games.tools.sources imports it at its
# top), so a game file's ``from os import _exit`` gets the guarded one too.
os._exit = _guarded_exit


def _watch() -> None:
    """The watchdog: every _WATCH_SECONDS it looks at the table of running hook calls; a thread whose outermost
    guarded hook call has run past that hook's limit gets HookTimeout raised in it, once per call."""
    fired: dict[int, tuple] = {}  # thread -> the call HookTimeout was raised in
    while True:
        time.sleep(_WATCH_SECONDS)
        now = time.monotonic()
        running = list(_RUNNING.items())  # one copy under the GIL: the wrappers change the table as they run
        current = dict(running)
        for ident in [i for i, call in fired.items() if current.get(i) is not call]:
            del fired[ident]
        for ident, call in running:
            hook, limit, started = call
            if now - started >= limit and fired.get(ident) is not call:
                fired[ident] = call
                _TIMED_OUT[ident] = (hook, limit)
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(HookTimeout))


def _start_watchdog() -> None:
    global _watching
    with _LOCK:
        if _watching:
            return
        _watching = True
    threading.Thread(target=_watch, name="evoplay-hook-watchdog", daemon=True).start()


def _after_fork() -> None:
    """A forked worker has no watchdog thread (threads do not survive a fork) and the lock may have been copied
    held: start afresh, with a watchdog of its own when this process guards a game."""
    global _watching, _LOCK
    guarding, _watching = _watching, False
    _LOCK = threading.Lock()
    _TIMED_OUT.clear()
    _RUNNING.clear()  # the calls of the parent's other threads do not run here
    if guarding:
        _start_watchdog()


os.register_at_fork(after_in_child=_after_fork)


def _wrap(fn, name: str, owner: str, check, limit: float):
    """``fn`` guarded: a wrapper of the same arity where it can (hooks are called millions of times in a search,
    and packing ``*args`` would cost a third of the wrapper's time). Its result is checked only when it is what the
    object's own class answers: a subclass's hook calling ``super()`` is checked on its own, outer call."""
    hook = f"{owner}.{name}"
    arity = _arity(fn)
    outer: dict[type, bool] = {}  # class of the object -> whether this wrapper is that class's hook

    def own(cls) -> bool:
        answer = outer[cls] = getattr(cls, name, None) is guarded
        return answer

    if arity == 0:
        def inner(self):
            if _suspended:
                return _unguarded(fn, hook, limit, name, self)
            try:
                result = fn(self)
            except BaseException as err:
                raise _failure(hook, limit, err)
            if check is not None and (outer.get(type(self)) or type(self) not in outer and own(type(self))):
                check(hook, self, False, result)
            return result
    elif arity == 1:
        def inner(self, arg):
            if _suspended:
                return _unguarded(fn, hook, limit, name, self, arg)
            try:
                result = fn(self, arg)
            except BaseException as err:
                raise _failure(hook, limit, err)
            if check is not None and (outer.get(type(self)) or type(self) not in outer and own(type(self))):
                check(hook, self, arg is not None, result)
            return result
    else:
        def inner(self, *args, **kwargs):
            if _suspended:
                return _unguarded(fn, hook, limit, name, self, *args, **kwargs)
            try:
                result = fn(self, *args, **kwargs)
            except BaseException as err:
                raise _failure(hook, limit, err)
            if check is not None and (outer.get(type(self)) or type(self) not in outer and own(type(self))):
                given = any(a is not None for a in args) or any(v is not None for v in kwargs.values())
                check(hook, self, given, result)
            return result

    get_ident, clock = threading.get_ident, time.monotonic

    # The outermost guarded call in a thread is entered in _RUNNING, where the watchdog times it; a hook called
    # inside another (a super() call, a hook calling a hook) runs on that call's clock.
    if arity == 0:
        def guarded(self):
            ident = get_ident()
            if ident in _RUNNING:
                return inner(self)
            _RUNNING[ident] = (hook, limit, clock())
            try:
                return inner(self)
            finally:
                _RUNNING.pop(ident, None)
    elif arity == 1:
        def guarded(self, arg):
            ident = get_ident()
            if ident in _RUNNING:
                return inner(self, arg)
            _RUNNING[ident] = (hook, limit, clock())
            try:
                return inner(self, arg)
            finally:
                _RUNNING.pop(ident, None)
    else:
        def guarded(self, *args, **kwargs):
            ident = get_ident()
            if ident in _RUNNING:
                return inner(self, *args, **kwargs)
            _RUNNING[ident] = (hook, limit, clock())
            try:
                return inner(self, *args, **kwargs)
            finally:
                _RUNNING.pop(ident, None)

    # Code objects of their own, named after the hook, as tracebacks and profilers show them.
    guarded.__code__ = guarded.__code__.replace(co_name=name, co_qualname=hook)
    inner.__code__ = inner.__code__.replace(co_name=name, co_qualname=hook)
    functools.update_wrapper(guarded, fn)
    guarded.__evoplay_guarded__ = True
    return guarded


def _arity(fn) -> int | None:
    """0 for ``f(self)``, 1 for ``f(self, x)`` (no default, no keywords), else None."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
    return len(params) - 1 if plain and len(params) in (1, 2) else None


def _unguarded(fn, hook: str, limit: float, name: str, *args, **kwargs):
    """The hook as written (inside ``unguarded()``), but still stopped past its time limit, and a hook that exits
    (SystemExit, os._exit) is a GameError naming it; the states it makes are guarded as in a run."""
    try:
        result = fn(*args, **kwargs)
    except (HookTimeout, HookExit, SystemExit) as err:
        raise _failure(hook, limit, err) from None
    if name in _MAKES_STATES and isinstance(result, base.State) and "__evoplay_guard__" not in type(result).__dict__:
        guard_class(type(result), getattr(type(args[0]), "__evoplay_guard__", None))
    return result


def _failure(hook: str, limit: float, err: BaseException) -> BaseException:
    """What a hook's exception becomes: evoplay's own errors (an IllegalActionError is the API's answer),
    KeyboardInterrupt and GeneratorExit as they are, a timeout or anything else (SystemExit too: a user's hook never
    ends the run) a GameError naming the hook."""
    if isinstance(err, (EvoplayError, KeyboardInterrupt, GeneratorExit)):
        return err
    if isinstance(err, HookTimeout):
        timeout = _timed_out(hook, limit)
        timeout.__suppress_context__ = True
        return timeout
    if isinstance(err, HookExit):
        exited = GameError(f"{hook} called os._exit({err.code!r}); a game's hook must return or raise, never end the "
                           f"process")
        exited.__suppress_context__ = True
        return exited
    failure = GameError(f"{hook} raised {type(err).__name__}: {_short(err)}")
    failure.__cause__ = err
    return failure


def _timed_out(hook: str, limit: float) -> GameError:
    stopped, seconds = _TIMED_OUT.pop(threading.get_ident(), (hook, limit))
    return HookTimedOut(f"{stopped} ran past its time limit of {seconds:g} s (a loop that never ends?); set the game's "
                     f"hook_seconds if a call may rightly take longer")


def _short(err: BaseException) -> str:
    text = str(err)
    return text if len(text) <= 300 else text[:297] + "..."


def _is_action(a) -> bool:
    return type(a) is int or (isinstance(a, (int, np.integer)) and not isinstance(a, bool))


def _players(thing) -> int:
    game = getattr(thing, "game", thing)
    return int(getattr(game, "num_players", 0) or 0)


def _check_player(hook, state, given, result) -> None:
    if type(result) is int and 0 <= result < state.game.num_players:
        return
    n = _players(state)
    if not _is_action(result) or not (0 <= result < n or result in _SPECIAL):
        raise GameError(f"{hook} returned {_shown(result)}; return a seat 0..{n - 1}, CHANCE (-1), SIMULTANEOUS (-2) "
                        f"or TERMINAL (-4)")


def _check_legal(hook, state, given, result) -> None:
    count = 0
    try:
        for a in result:
            if type(a) is not int and not _is_action(a):
                raise GameError(f"{hook} returned {_shown(a)} among the legal actions; actions are whole numbers")
            count += 1
    except TypeError:
        raise GameError(f"{hook} returned {type(result).__name__}; return a list of action numbers") from None
    if not count and not given:
        player = state.current_player()
        if player >= 0:
            raise GameError(f"{hook} returned no legal action while player {player} is to move; end the game "
                            f"(current_player() returns TERMINAL, -4) or give the player a pass")


def _check_features(hook, state, given, result) -> None:
    if type(result) is np.ndarray and result.dtype == np.float64:
        values = result
    else:
        try:
            values = np.asarray(result, dtype=np.float64)
        except (TypeError, ValueError):
            raise GameError(f"{hook} returned {_shown(result)}, not numbers; return a float64 NumPy array") from None
    game = getattr(state, "game", None)
    zeros = None if game is None else game.__dict__.get("_evoplay_zero_features")
    if zeros is None:  # once per game: the length feature_names() gives, as a vector of zeros
        zeros = np.zeros(len(game.feature_names()) if game is not None else values.size)
        if game is not None:
            game.__dict__["_evoplay_zero_features"] = zeros
    if values.shape != zeros.shape:
        raise GameError(f"{hook} returned shape {values.shape}; feature_names() names {zeros.size} numbers")
    with np.errstate(invalid="ignore"):
        finite = values.dot(zeros) == 0.0  # 0 x NaN and 0 x infinity are NaN, 0 x any finite number is 0
    if not finite:
        raise GameError(f"{hook} returned {_shown(result)}; features must be finite numbers (no NaN or infinity)")


def _check_per_player(hook, state, given, result) -> None:
    n = _players(state)
    try:
        fine = len(result) == n
        for v in result:
            if not math.isfinite(v):
                fine = False
    except TypeError:
        fine = False
    if not fine:
        raise GameError(f"{hook} returned {_shown(result)}; return {n} finite numbers, one per player")


def _check_state(hook, owner, given, result) -> None:
    if not isinstance(result, base.State):
        raise GameError(f"{hook} returned {type(result).__name__}, not a State; return a State of the game")
    if "__evoplay_guard__" not in type(result).__dict__:
        guard_class(type(result), getattr(type(owner), "__evoplay_guard__", None))


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


_MAKES_STATES = frozenset({"clone", "resample", "new_initial_state"})
CHECKS = {"current_player": _check_player, "legal_actions": _check_legal, "_legal_actions": _check_legal,
          "features": _check_features, "returns": _check_per_player, "scores": _check_per_player,
          "clone": _check_state, "resample": _check_state, "new_initial_state": _check_state}


@contextlib.contextmanager
def unguarded():
    """Within the block guarded hooks run as written, raising and returning what they do (``check-game`` calls
    them so, to name each broken promise by its own rule)."""
    global _suspended
    _suspended += 1
    try:
        yield
    finally:
        _suspended -= 1


def guard_class(cls, limit: float | None = None) -> None:
    """Wrap the API hooks that ``cls`` and its user-written bases define (once per class)."""
    limit = HOOK_SECONDS if limit is None else limit
    names = GAME_HOOKS if issubclass(cls, base.Game) else STATE_HOOKS
    for klass in cls.__mro__:
        if klass.__module__.startswith("evoplay.") and not klass.__module__.startswith("evoplay.games.file_"):
            continue  # evoplay's own classes (their base behaviour calls the guarded hooks)
        if klass is object or "__evoplay_guard__" in vars(klass):
            continue
        for name in names & set(vars(klass)):
            fn = vars(klass)[name]
            if callable(fn) and not getattr(fn, "__evoplay_guarded__", False):
                setattr(klass, name, _wrap(fn, name, klass.__name__, CHECKS.get(name), limit))
        klass.__evoplay_guard__ = limit


def guard_game(cls) -> None:
    """Guard a user's Game class: its hooks now, its states' hooks when its games make them. The per-call time
    limit is the class's ``hook_seconds`` (default ``HOOK_SECONDS``)."""
    limit = float(getattr(cls, "hook_seconds", HOOK_SECONDS))
    if not limit > 0:
        raise GameError(f"{cls.__name__}.hook_seconds = {limit!r}; give the seconds a hook call may take (> 0)")
    guard_class(cls, limit)
    _start_watchdog()
