"""Where games come from besides the built-ins: a user's Python file, an installed package, or OpenSpiel.

* ``path/to/file.py:ClassName`` or ``path/to/file.py:ClassName(param=1)``: a ``Game`` subclass in a plain Python
  file, imported by path. Its parameters are the class attribute ``parameters`` (a tuple of ``evoplay.spec.Param``;
  none if absent). The canonical spec holds the file's absolute path, so a worker process rebuilds the game from
  the spec alone (``Game.__reduce__`` pickles a game as ``load_game(spec)``). A file that records a game (a run's
  config.toml and best.json, shipped weights) names it relative to its own folder (``portable_spec``), so the
  two can move together, as in a checkout; readers turn it back into an absolute spec (``located_spec``).
* An ``evoplay.games`` entry point of an installed package: the entry point's name is the game's name, its value
  a ``Game`` subclass (``"mypkg.games:MyGame"``); loaded the first time that name is asked for.
* ``openspiel:NAME`` or ``openspiel:NAME(param=value,...)``: any pyspiel game (``evoplay.games.tools.openspiel``).

A file is imported once per process under a module name that encodes its path (``evoplay.games.file_<hex>``), so
its classes pickle by reference and a spawned worker imports the same file when it unpickles one.

Every file a spec names (a game file here, an agent's file such as ``gp(run/best.json)``, the game a best.json
names) is found by one resolver, ``resolve_file``. Inside ``confined_to(root)`` (what ``evoplay serve`` does with
its ``--runs`` folder) a name is taken relative to ``root`` and refused, before anything is read or imported, when
it or its real location after following symlinks lies outside ``root``.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import os
import re
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from evoplay.errors import GameError, OutsideRunsError, SpecError
from evoplay.games.base import Game
from evoplay.games.tools.guard import guard_game
from evoplay.games.naming import checked_spec
from evoplay.spec import parse_spec

OPENSPIEL_PREFIX = "openspiel:"
ENTRY_POINT_GROUP = "evoplay.games"
MODULE_PREFIX = "evoplay.games.file_"

_FILE_SPEC = re.compile(r"^(?P<path>.+?\.py):(?P<rest>[^:]*)$")
#: longest file name a spec may carry (the OS refuses longer ones anyway, with a less helpful error)
MAX_NAME = 1024
_ROOT: ContextVar[Path | None] = ContextVar("evoplay_files_root", default=None)


# --------------------------------------------------------------------------------------------------------------
# The one resolver of file names.
# --------------------------------------------------------------------------------------------------------------


@contextmanager
def confined_to(root: str | Path):
    """Within the block every file a spec names must lie inside ``root`` (its real location, symlinks followed),
    and a relative name is taken relative to ``root``; names outside raise OutsideRunsError before anything is
    read or imported. ``evoplay serve`` builds every game and agent a page names inside ``confined_to(--runs)``."""
    token = _ROOT.set(Path(root).resolve())
    try:
        yield
    finally:
        _ROOT.reset(token)


def resolve_file(name, what: str = "file") -> Path:
    """The absolute path of a file a spec names (``what`` says which, for errors): relative to the working folder,
    ``~`` expanded, symlinks resolved; inside ``confined_to(root)``, checked by ``confine`` to lie in ``root``."""
    text = os.fspath(name) if isinstance(name, os.PathLike) else name
    if not isinstance(text, str) or not text.strip():
        raise SpecError(f"empty {what}; name a file, e.g. runs/mancala-1/best.json")
    if "\x00" in text:
        raise SpecError(f"{what} {_shown(text)} contains a NUL character")
    if len(text) > MAX_NAME:
        raise SpecError(f"{what} {_shown(text)} is {len(text)} characters long; file names here have at most "
                        f"{MAX_NAME}")
    root = _ROOT.get()
    if root is not None:
        return confine(root, text, what)
    try:
        path = Path(text).expanduser()
        return (path if path.is_absolute() else Path.cwd() / path).resolve()
    except (OSError, RuntimeError) as err:  # a symlink loop, a name the OS refuses
        raise SpecError(f"{what} {_shown(text)} cannot be resolved: {getattr(err, 'strerror', None) or err}") from None


def confine(root: Path, name: str, what: str = "path") -> Path:
    """``name`` (relative to ``root``) as an absolute path inside ``root``, symlinks resolved.

    Refuses (OutsideRunsError) a ``~``, any ``..`` part, an absolute path and any path whose real location is not
    inside ``root``; an absolute path is accepted only when it lies inside ``root`` (a best.json written there
    names its game file so)."""
    if not isinstance(name, str) or not name.strip():
        raise SpecError(f"empty {what}; name a file or folder inside the runs folder, e.g. mancala-1/best.json")
    if "\x00" in name:
        raise OutsideRunsError(f"{what} {_shown(name)} contains a NUL character")
    if len(name) > MAX_NAME:
        raise SpecError(f"{what} {_shown(name)} is {len(name)} characters long; names here have at most {MAX_NAME}")
    text = name.strip().replace("\\", "/")
    if text.startswith("~"):
        raise OutsideRunsError(f"{what} {_shown(name)} starts with '~' (a home folder); name it relative to the runs "
                               f"folder, e.g. mancala-1/best.json")
    if any(part == ".." for part in text.split("/")):
        raise OutsideRunsError(f"{what} {_shown(name)} climbs out with '..'; name it relative to the runs folder")
    root = Path(root).resolve()
    absolute = text.startswith("/") or (len(text) > 1 and text[1] == ":")
    try:
        target = (Path(text) if absolute else root / text).resolve()
    except (OSError, RuntimeError) as err:
        raise SpecError(f"{what} {_shown(name)} cannot be resolved: {getattr(err, 'strerror', None) or err}") from None
    if target != root and root not in target.parents:
        if absolute:
            raise OutsideRunsError(f"{what} {_shown(name)} is absolute and outside the runs folder; name it relative "
                                   f"to the runs folder, e.g. mancala-1/best.json")
        raise OutsideRunsError(f"{what} {_shown(name)} leads outside the runs folder (a symlink?); only files under "
                               f"the runs folder can be named")
    return target


def is_inside(root: Path, path: Path) -> bool:
    """Whether ``path``'s real location is ``root`` or lies under it."""
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):
        return False
    root = Path(root).resolve()
    return real == root or root in real.parents


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")



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
    path = resolve_file(raw_path, "game file")
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
    guard_game(cls)  # a user's hooks that break are named (evoplay.games.tools.guard), before its first game
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
    except (Exception, SystemExit) as err:  # a user's constructor that breaks: one line, never a traceback
        raise GameError(f"{cls.__name__}(spec, params) raised {type(err).__name__}: {err} (building {spec})") from err
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
