"""Where games come from besides the built-ins: a user's Python file, an installed package, or OpenSpiel.

* ``path/to/file.py:ClassName`` or ``path/to/file.py:ClassName(param=1)``: a ``Game`` subclass in a plain Python
  file, imported by path. Its parameters are the class attribute ``parameters`` (a tuple of ``evoplay.spec.Param``;
  none if absent). The canonical spec holds the file's absolute path, so a worker process rebuilds the game from
  the spec alone (``Game.__reduce__`` pickles a game as ``load_game(spec)``). A file that records a game (a run's
  config.toml and best.json, shipped weights) names it relative to its own folder (``portable_spec``), so the
  two can move together, as in a checkout; readers turn it back into an absolute spec (``located_spec``).
* An ``evoplay.games`` entry point of an installed package: the entry point's name is the game's name, its value
  a ``Game`` subclass (``"mypkg.games:MyGame"``); loaded the first time that name is asked for.
* ``openspiel:NAME`` or ``openspiel:NAME(param=value,...)``: any pyspiel game (``evoplay.games.openspiel``).

A file is imported once per process under a module name that encodes its path (``evoplay.games.file_<hex>``), so
its classes pickle by reference and a spawned worker imports the same file when it unpickles one.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import os
import re
import sys
from pathlib import Path

from evoplay.errors import SpecError
from evoplay.games.base import Game
from evoplay.games.naming import checked_spec
from evoplay.spec import parse_spec

OPENSPIEL_PREFIX = "openspiel:"
ENTRY_POINT_GROUP = "evoplay.games"
MODULE_PREFIX = "evoplay.games.file_"

_FILE_SPEC = re.compile(r"^(?P<path>.+?\.py):(?P<rest>[^:]*)$")


def is_file_spec(spec: str) -> bool:
    """Does ``spec`` name a class in a Python file (``path/file.py:Class``)?"""
    return bool(_FILE_SPEC.match(spec.strip()))


def module_name(path: Path) -> str:
    """The module name a game file is imported under: its absolute path, hex-encoded (one module per file)."""
    return MODULE_PREFIX + str(path).encode("utf-8").hex()


def path_of_module(name: str) -> Path:
    return Path(bytes.fromhex(name[len(MODULE_PREFIX):]).decode("utf-8"))


class _GameFileFinder(importlib.abc.MetaPathFinder):
    """Finds ``evoplay.games.file_<hex>`` modules: the game file at the encoded path (for unpickling anywhere)."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(MODULE_PREFIX):
            return None
        try:
            file = path_of_module(fullname)
        except ValueError:
            return None
        if not file.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, file)


def install_finder() -> None:
    if not any(isinstance(f, _GameFileFinder) for f in sys.meta_path):
        sys.meta_path.append(_GameFileFinder())


def import_game_file(path: Path):
    """Import the Python file at ``path`` (absolute) once per process and return the module."""
    name = module_name(path)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SpecError(f"game file {str(path)!r} cannot be imported as Python; name a .py file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SpecError:
        del sys.modules[name]
        raise
    except BaseException as err:
        del sys.modules[name]
        raise SpecError(
            f"game file {str(path)!r} failed to import: {type(err).__name__}: {err}; fix the file so that "
            f"'python {path}' runs"
        ) from err
    return module


def located_spec(spec: str, folder: str | Path, absolute: str | None = None) -> str:
    """``spec`` with a file game's relative path read from ``folder`` (the folder of the file that recorded it)
    instead of the working directory; any other spec unchanged. ``absolute``: the same game as recorded with its
    absolute path, used when the relative path finds no file (the record moved without its game)."""
    m = _FILE_SPEC.match(spec.strip()) if isinstance(spec, str) else None
    if not m:
        return spec
    path = Path(m.group("path")).expanduser()
    if path.is_absolute():
        return spec
    path = Path(os.path.normpath(Path(folder).absolute() / path))
    if not path.is_file() and isinstance(absolute, str):
        other = _FILE_SPEC.match(absolute.strip())
        if other and Path(other.group("path")).is_file():
            return absolute
    return f"{path}:{m.group('rest')}"


def portable_spec(spec: str, folder: str | Path) -> str:
    """``spec`` as a file in ``folder`` records it: a file game's path relative to ``folder`` (a relative path in
    ``spec`` is read from the working directory), so the record and the game file can move together; absolute
    when the two share no folder but the file system's root. Any other spec unchanged."""
    m = _FILE_SPEC.match(spec.strip()) if isinstance(spec, str) else None
    if not m:
        return spec
    path = _absolute(m.group("path"))
    base = Path(os.path.abspath(folder))
    try:
        common = Path(os.path.commonpath([path, base]))
    except ValueError:  # another drive
        return f"{path}:{m.group('rest')}"
    if common == Path(common.anchor):
        return f"{path}:{m.group('rest')}"
    return f"{Path(os.path.relpath(path, base)).as_posix()}:{m.group('rest')}"


def _absolute(raw: str) -> Path:
    return Path(os.path.abspath(Path(raw).expanduser()))


#: the key beside ``game`` that holds the spec with its absolute path, in documents that name a file game
ABSOLUTE_KEY = "game_absolute"


def located_document(doc, folder: str | Path):
    """A copy of a JSON or TOML document (a run's config or best.json, a weights file) read from ``folder`` with
    its ``game`` made absolute (``located_spec``, falling back on the document's ``game_absolute``, which the
    copy drops); anything that is not a table with a game comes back as it is."""
    if not (isinstance(doc, dict) and isinstance(doc.get("game"), str)):
        return doc
    out = {k: v for k, v in doc.items() if k != ABSOLUTE_KEY}
    out["game"] = located_spec(doc["game"], folder, doc.get(ABSOLUTE_KEY))
    return out


def portable_document(doc, folder: str | Path):
    """A copy of a document about to be written into ``folder`` with a file game relative to it
    (``portable_spec``: the folder and the game can move together, as in a checkout) and, beside it, the game
    with its absolute path (``game_absolute``: the folder can move alone on this machine)."""
    if not (isinstance(doc, dict) and isinstance(doc.get("game"), str)):
        return doc
    spec = doc["game"]
    m = _FILE_SPEC.match(spec.strip())
    if not m:
        return doc
    out = dict(doc)
    out["game"] = portable_spec(spec, folder)
    absolute = f"{_absolute(m.group('path'))}:{m.group('rest')}"
    if absolute != out["game"]:
        out[ABSOLUTE_KEY] = absolute
    return out


def load_file_game(spec: str) -> Game:
    """Build a game from ``path/file.py:ClassName`` or ``path/file.py:ClassName(param=value,...)``."""
    m = _FILE_SPEC.match(spec.strip())
    if not m:
        raise SpecError(f"game {spec!r}: write a file game as path/to/file.py:ClassName or path/file.py:ClassName(param=1)")
    raw_path, rest = m.group("path"), m.group("rest").strip()
    path = Path(raw_path).expanduser()
    if not path.is_absolute():
        path = Path.cwd() / path
    path = path.resolve()
    if not path.is_file():
        where = f" (resolved to {path})" if str(path) != raw_path else ""
        raise SpecError(f"game file {raw_path!r} does not exist{where}; give the path of a .py file, e.g. "
                        f"examples/othello6.py:Othello")
    if not rest:
        raise SpecError(f"game {spec!r} names no class; add ':ClassName' after the file, e.g. {raw_path}:MyGame")
    parsed = parse_spec(rest, "game class")
    module = import_game_file(path)
    cls = getattr(module, parsed.name, None)
    if cls is None:
        found = sorted(n for n, v in vars(module).items() if isinstance(v, type) and issubclass(v, Game) and v is not Game)
        hint = f"; its Game classes: {', '.join(found)}" if found else "; it defines no Game subclass"
        raise SpecError(f"game file {str(path)!r} has no class {parsed.name!r}{hint}")
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise SpecError(
            f"{parsed.name} in {str(path)!r} is not a Game: subclass evoplay.games.Game (with a State subclass of "
            f"evoplay.games.State), as in examples/othello6.py"
        )
    spec, values = checked_spec(f"{path}:{parsed.name}", cls, parsed)
    return build_game(cls, spec, values)


def build_game(cls, spec: str, values: dict) -> Game:
    """``cls(spec, values)``, with a clear error when the class's constructor does not take them."""
    try:
        game = cls(spec, values)
    except SpecError:
        raise
    except TypeError as err:
        raise SpecError(
            f"{cls.__name__}(spec, params) failed: {err}; a Game's __init__ takes (spec, params) and calls "
            f"super().__init__(spec, params) (or defines no __init__ and reads self.params)"
        ) from err
    if not isinstance(getattr(game, "spec", None), str):
        raise SpecError(f"{cls.__name__}.__init__ must call super().__init__(spec, params)")
    return game


def entry_point_games() -> dict:
    """The ``evoplay.games`` entry points of installed packages, by name (not loaded)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def entry_point_class(name: str):
    """The Game class an installed package offers as ``name`` (an ``evoplay.games`` entry point), loaded and
    checked; None if no package offers it. ``load_game`` registers it under that name."""
    ep = entry_point_games().get(name)
    if ep is None:
        return None
    try:
        cls = ep.load()
    except Exception as err:
        raise SpecError(
            f"game {name!r} from the entry point {ep.value!r} ({ENTRY_POINT_GROUP}) failed to load: "
            f"{type(err).__name__}: {err}"
        ) from err
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise SpecError(
            f"entry point {name} = {ep.value!r} ({ENTRY_POINT_GROUP}) is not a Game subclass; point it at the "
            f"game's class, e.g. {name} = \"mypackage.games:MyGame\""
        )
    return cls


install_finder()
