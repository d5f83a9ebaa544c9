"""The game registry and ``load_game``, which builds a game from a spec: ``kalah(pits=6)``, ``file.py:MyGame``, ``openspiel:NAME``.

``evoplay.games`` has three rooms:

* the game API, at this top level: what a game and a player are (``base``: ``Game``, ``State``, ``TERMINAL``;
  ``agent``: ``Agent``), the kernel protocol (``kernels``: ``Kernels``), names (``naming``), the registry and
  ``load_game`` (here), the random-game driver (``playout``), the grid duels' buffer (``forward``) and the source
  carried into exported players (``standalone``). A user's game imports from here:
  ``from evoplay.games import Game, State, TERMINAL``, ``from evoplay.games.kernels import Kernels``;
* the tools around games, in ``evoplay.games.tools``: game files and entry points (``sources``), the OpenSpiel
  adapter (``openspiel``), the guard of users' games (``guard``), ``evoplay check-game`` (``check``,
  ``check_kernels``, ``seat_view``) and shipped champions (``champions``);
* one package per game: ``kalah``, ``mnk``, ``sevens``, ``tron``, ``gems``, ``target`` and OpenSpiel's games
  ported to evoplay (``ports``).
"""
from __future__ import annotations

from evoplay.errors import SpecError
from evoplay.games.tools import sources
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from evoplay.games.naming import game_parameters, record_name
from evoplay.games.tools.sources import build_game
from evoplay.spec import Registry, canonical_spec, parse_spec

GAMES = Registry("game")


def register_game(name: str, cls, params=None, help: str = "") -> None:
    """Add a game under ``name`` so ``load_game("name(param=value)")`` and the command line build it.

    ``cls`` is a ``Game`` subclass whose constructor takes ``(spec, params)`` (the base class's: a plain subclass
    needs no ``__init__`` and reads ``self.params``). ``params`` is a tuple of ``evoplay.spec.Param``; without it,
    the class attribute ``parameters`` (none if absent). ``help`` defaults to the first line of the docstring::

        class Nim(Game):
            parameters = (Param("heaps", int, 3, "heaps at the start"),)
            ...
        register_game("nim", Nim)
        load_game("nim(heaps=4)")
    """
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise SpecError(f"register_game({name!r}, ...): {cls!r} is not a Game subclass")
    if not name or not all(c.isalnum() or c in "_-" for c in name) or not name.isascii():
        raise SpecError(f"register_game: {name!r} is not a game name (letters, digits, '_' and '-')")
    params = game_parameters(cls) if params is None else tuple(params)
    if not help:
        help = getattr(cls, "summary", "") or ((cls.__doc__ or "").strip().splitlines() or [""])[0]

    def factory(**values):
        return build_game(cls, canonical_spec(name, values, params), values)

    GAMES.register(name, factory, params, help)
    record_name(cls, name)
    CLASSES[name] = cls


#: registered name -> its Game class (the agents' registry reads the players a game class offers, Game.players)
CLASSES: dict[str, type] = {}


def register_entry_point(name: str) -> bool:
    """Register the installed game ``name`` from its entry point; False if no package offers it."""
    cls = sources.entry_point_class(name)
    if cls is None:
        return False
    from evoplay.games.tools.guard import guard_game

    guard_game(cls)
    register_game(name, cls)
    return True


def load_game(spec: str) -> Game:
    """Build a game from its spec string, from any source:

    * a built-in or registered game: ``kalah``, ``kalah(pits=6,seeds=4,empty_capture=false)``, ``mnk(m=3,n=3,k=3)``;
    * a class in a Python file: ``path/to/file.py:ClassName`` or ``path/to/file.py:ClassName(param=1)``;
    * a game of an installed package (an ``evoplay.games`` entry point), by its name;
    * OpenSpiel: ``openspiel:connect_four``, ``openspiel:goofspiel(num_cards=4)`` (the ``openspiel`` extra).
    """
    if not isinstance(spec, str):
        raise SpecError(f"a game spec must be a string such as 'kalah' or 'file.py:MyGame', got {spec!r}")
    text = spec.strip()
    if text.startswith(sources.OPENSPIEL_PREFIX):
        from evoplay.games.tools.openspiel import load_openspiel

        return load_openspiel(text)
    if sources.is_file_spec(text):
        return sources.load_file_game(text)
    if text.endswith(".py"):
        raise SpecError(f"game {text!r} names a file but no class; add ':ClassName', e.g. {text}:MyGame")
    parsed = parse_spec(text, "game")
    if parsed.name not in GAMES:
        register_entry_point(parsed.name)
    entry, values = GAMES.resolve(parsed)
    return entry.factory(**values)


def load_installed_games() -> list[str]:
    """Register every game that installed packages offer (``evoplay.games`` entry points); return their names."""
    names = []
    for name in sorted(sources.entry_point_games()):
        if name not in GAMES:
            register_entry_point(name)
        names.append(name)
    return names


#: the game the web app's play page and the requests that name none play
DEFAULT_GAME = "kalah"
#: built-in game name -> its Game class (module:Class); each class carries its ``parameters`` and ``summary``
BUILTINS = {
    "kalah": "evoplay.games.kalah.game:KalahGame",
    "mnk": "evoplay.games.mnk.game:MnkGame",
    "tron": "evoplay.games.tron.game:TronGame",
    "gems": "evoplay.games.gems.game:GemsGame",
    "sevens": "evoplay.games.sevens.game:SevensGame",
}


def _register_builtins() -> None:
    from importlib import import_module

    for name, path in BUILTINS.items():
        module, cls = path.split(":")
        register_game(name, getattr(import_module(module), cls))


_register_builtins()

__all__ = [
    "CHANCE", "GAMES", "SIMULTANEOUS", "TERMINAL", "Game", "State", "load_game", "load_installed_games", "register_game",
]
