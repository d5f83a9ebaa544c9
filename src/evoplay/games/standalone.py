"""evoplay's own source carried into exported players: the game API's base, a built-in game's rules, OpenSpiel's adapter.

An exported player (``evoplay export``) is a file that runs without evoplay where it can. Rather than a second,
hand-written copy of what it needs, it carries the very functions and classes evoplay runs, read with
``inspect.getsource``: the base ``State`` and ``search_moves`` (how a search lists and plays moves), a built-in
game's plain-Python rules and ``State`` class where its package offers a standalone form (``standalone(game)`` in
``evoplay/games/<name>/export.py``, Kalah's and m,n,k's), and for ``openspiel:NAME`` the adapter's ``OpenSpielState``
over pyspiel. A Numba kernel travels as its Python body (NumPy runs it as it is).

``missing_names`` reads a whole file's text and names every global it uses but does not define, so a change to
the carried code that needs something new fails when the file is written, not when it is played.
"""
from __future__ import annotations

import builtins
import dis
import importlib
import inspect
import textwrap
import types

from evoplay.errors import SpecError

#: the imports of every exported player file (the carried code's annotations are evaluated: no __future__ import,
#: whose string annotations a dataclass cannot read in a file imported by its path)
IMPORTS = """\
import functools
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
"""


def carried(obj, indent: str = "") -> str:
    """The source of a function, class, method or Numba kernel as evoplay runs it, without Numba's decorators (a
    kernel's body is plain Python over NumPy), dedented, then indented by ``indent``."""
    if isinstance(obj, property):
        obj = obj.fget
    obj = getattr(obj, "py_func", obj)  # a Numba dispatcher: its Python function
    lines = textwrap.dedent(inspect.getsource(obj)).splitlines()
    lines = [line for line in lines if not line.lstrip().startswith("@njit")]
    return textwrap.indent("\n".join(lines), indent).rstrip() + "\n"


def carried_class(cls: type, members: tuple[str, ...], name: str | None = None, base: str = "",
                  attributes: dict | None = None, doc: str | None = None) -> str:
    """A class of the exported file made of ``cls``'s own ``members`` (methods and properties, their source as
    evoplay runs them) and ``attributes`` (class attributes, written with ``repr``), named ``name`` (default: as in
    evoplay), on ``base``."""
    doc = doc if doc is not None else (inspect.getdoc(cls) or "").split("\n\n")[0]
    lines = [f"class {name or cls.__name__}{f'({base})' if base else ''}:", f'    """{doc}"""', ""]
    lines += [f"    {key} = {value!r}" for key, value in (attributes or {}).items()]
    for member in members:
        found = next((k.__dict__[member] for k in cls.__mro__ if member in k.__dict__), None)
        if found is None:
            raise SpecError(f"export: {cls.__name__} has no member {member!r} to carry")
        lines += ["", carried(found, "    ").rstrip()]
    return "\n".join(lines) + "\n"


def constants(module, *names: str) -> str:
    """Module constants of evoplay written as the file's own (``NAME = value``)."""
    return "".join(f"{n} = {getattr(module, n)!r}\n" for n in names)


def errors_source() -> str:
    """The errors a game raises, as the file's own."""
    return ("class SpecError(ValueError):\n    \"\"\"A spec, parameter or value that is malformed or unknown.\"\"\"\n\n\n"
            "class IllegalActionError(ValueError):\n    \"\"\"An action that is not legal in the state it was applied "
            "to.\"\"\"\n\n\n"
            "class GameError(Exception):\n    \"\"\"A game that does not keep the game API's contract.\"\"\"\n")


_GAME = '''class Game:
    """What a standalone game keeps of evoplay's Game: its spec, its parameters, its players."""

    num_players = 2
    perfect_information = True

    def __init__(self, spec=None, params=None, **values):
        self.spec = spec
        self.params = dict(params or {}, **values)

    def num_features(self):
        return len(self.feature_names())
'''


def base_source() -> str:
    """What every standalone game needs of evoplay's game API: OpenSpiel's player ids, the errors a game
    raises, a ``Game`` of a spec and parameters, the base ``State`` (legality and terminal handling, once) and
    ``search_moves``."""
    from evoplay.games import base

    return "\n\n".join([constants(base, "CHANCE", "SIMULTANEOUS", "TERMINAL"), errors_source(), _GAME,
                        carried(base.State), carried(base.search_moves)])


def standalone_source(game) -> str | None:
    """Standalone Python of a built-in ``game`` (rules, features and a ``GAME`` of its parameters) where its
    package offers one (``evoplay.games.<name>.export.standalone``); None for any other game."""
    from evoplay.games import BUILTINS

    name = getattr(game, "name", "")
    if name not in BUILTINS or not type(game).__module__.startswith(f"evoplay.games.{name}."):
        return None
    try:
        module = importlib.import_module(f"evoplay.games.{name}.export")
    except ModuleNotFoundError:
        return None
    make = getattr(module, "standalone", None)
    return None if make is None else base_source() + "\n\n" + make(game)


def openspiel_source(game) -> str:
    """An OpenSpiel game over pyspiel as the file's ``GAME``: evoplay's adapter ``OpenSpielState`` carried, the
    game's name and parameters, and the seat layout evoplay inferred for its features (the indices that turn each
    player's tensor to its own side)."""
    from evoplay.games.tools import openspiel

    adapter = getattr(game, "adapter", game)  # a port of the game keeps OpenSpiel's adapter beside it
    pyspiel_game = adapter.pyspiel_game
    short = pyspiel_game.get_type().short_name
    settings = dict(pyspiel_game.get_parameters())
    relative = adapter.relative_index()
    layout = None if relative is None else [[int(i) for i in index] for index in relative]
    size = adapter.num_features() if adapter._tensor else 0
    shim = textwrap.dedent(f'''\
        class OpenSpielGame:
            """An OpenSpiel game as evoplay's adapter sees it: the pyspiel game, its players, what its features
            are (the observation tensor, else the information-state tensor) and the seat layout."""

            def __init__(self):
                pyspiel = _pyspiel()
                types = {{t.short_name for t in pyspiel.registered_games()}}
                if {short!r} not in types:
                    import open_spiel.python.games  # noqa: F401 - OpenSpiel's Python games register on import
                self.pyspiel_game = pyspiel.load_game({short!r}, {settings!r})
                self.spec = {game.spec!r}
                self.name = {adapter.name!r}
                self.num_players = {adapter.num_players!r}
                self.perfect_information = {adapter.perfect_information!r}
                self._tensor = {adapter._tensor!r}
                self._shape = {tuple(adapter._shape)!r}
                self._planes = {adapter._planes!r}  # the board's planes and whether its rows turn (for grid())
                size = {size!r}
                self._observer = _observer(self.pyspiel_game, size) if self._tensor == "observation" else None
                self._relative = None if RELATIVE is None else [np.array(index) for index in RELATIVE]

        ''')
    return "\n\n".join([
        base_source(),
        constants(openspiel, "INSTALL"),
        carried(openspiel._pyspiel),
        carried(openspiel._observer),
        f"RELATIVE = {layout!r}  # per player: the tensor's indices seen from its seat (None: as OpenSpiel gives it)\n",
        shim + carried(openspiel.OpenSpielGame.new_initial_state, "    "),
        carried(openspiel.board_grid),
        carried(openspiel.OpenSpielState),
        "GAME = OpenSpielGame()\n",
    ])


def _definition(name: str, value) -> str | None:
    """``name``'s definition in an exported file: a function's or class's source, a plain constant's value; None
    for anything else."""
    if inspect.isfunction(value) or inspect.isclass(value) or hasattr(value, "py_func"):
        own = getattr(value, "py_func", value).__name__
        return carried(value) + ("" if own == name else f"\n\n{name} = {own}\n")  # imported under another name
    if value is None or isinstance(value, (bool, int, float, str, tuple, frozenset)):
        text = repr(value)
        try:
            eval(text, {"slice": slice})  # noqa: S307 - our own constants, read back to be sure they can be
        except Exception:  # noqa: BLE001
            return None
        return f"{name} = {text}\n"
    return None


def resolved(text: str, modules) -> str:
    """The definitions ``text`` (a whole file) lacks, carried from ``modules`` (the first that has a name gives
    it), and those they lack in turn, each placed after what it uses (annotations and defaults are read when a
    function is defined); names none of them can give stay missing (``missing_names`` then names them)."""
    found: dict[str, str] = {}
    while True:
        new = {}
        for name in missing_names("\n\n".join([*found.values(), text])):
            for module in modules:
                if name in vars(module):
                    definition = _definition(name, vars(module)[name])
                    if definition is not None:
                        new[name] = definition
                    break
        if not new:
            break
        found.update(new)
    ordered: list[str] = []

    def place(name: str, path: tuple) -> None:
        if name in ordered or name in path:
            return
        for used in missing_names(found[name]):
            if used in found:
                place(used, path + (name,))
        ordered.append(name)

    for name in sorted(found):
        place(name, ())
    return "\n\n".join(found[name] for name in ordered)


def missing_names(source: str) -> list[str]:
    """The globals ``source`` (a whole module's text) reads but never defines: names a function, method, class body
    or the module body loads from the module's namespace that no assignment, import, ``def`` or ``class`` at the
    module's top level binds (a class body's own names count for that body only) and that are not builtins."""
    code = compile(source, "<export>", "exec", dont_inherit=True)  # not this module's __future__ annotations
    bound = set(dir(builtins)) | {"__annotations__", "__file__", "__name__", "__doc__"}
    used = set()

    def walk(c: types.CodeType, module: bool) -> None:
        function = bool(c.co_flags & inspect.CO_OPTIMIZED)
        own = set()  # a class body's names
        loads = []
        for ins in dis.get_instructions(c):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                loads.append((ins.opname, ins.argval))
            elif ins.opname == "STORE_GLOBAL" or (module and ins.opname == "STORE_NAME"):
                bound.add(ins.argval)
            elif ins.opname == "STORE_NAME" and not function:
                own.add(ins.argval)
        used.update(name for op, name in loads if not (op == "LOAD_NAME" and name in own))
        for const in c.co_consts:
            if isinstance(const, types.CodeType):
                walk(const, False)

    walk(code, True)
    return sorted(used - bound)


# --------------------------------------------------------------------------------------------------------------
# The exported files' command lines share these two helpers (carried into each file).
# --------------------------------------------------------------------------------------------------------------


def command_error(message: str, usage: str) -> int:
    """An exported file's command line refusing what it was given: what was wrong and what it takes, on stderr;
    the exit status 2."""
    import os
    import sys

    print(f"{os.path.basename(sys.argv[0])}: {message}", file=sys.stderr)
    print(usage, file=sys.stderr)
    return 2


def command_options(args: list, allowed: tuple) -> tuple:
    """(the positional arguments, {option: whole number}) of an exported file's command line, whose options are
    ``--name N`` for the names in ``allowed``; ValueError says what is wrong."""
    positional, values = [], {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            positional.append(arg)
            i += 1
            continue
        name = arg[2:]
        if name not in allowed:
            raise ValueError(f"unknown option {arg}; this command takes {', '.join('--' + a for a in allowed)}")
        if i + 1 >= len(args) or not args[i + 1].isdigit():
            raise ValueError(f"{arg} needs a whole number >= 0 after it")
        values[name] = int(args[i + 1])
        i += 2
    return positional, values


def command_source() -> str:
    """The two helpers' source, for an exported file."""
    return carried(command_error) + "\n\n" + carried(command_options)
