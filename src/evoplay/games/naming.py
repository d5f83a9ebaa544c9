"""What a game class is called: the name it was registered under, its parameters, and the canonical spec that
``load_game`` turns back into an equal game (the registry, the file sources and ``Game()`` share these)."""
from __future__ import annotations

import inspect
from pathlib import Path

from evoplay.errors import SpecError
from evoplay.spec import Param, ParsedSpec, Registry, canonical_spec

#: Game class -> the name it was first registered under (what ``MyGame()`` calls itself)
_NAMES: dict[type, str] = {}


def record_name(cls, name: str) -> None:
    """Remember the first name ``cls`` is registered under."""
    _NAMES.setdefault(cls, name)


def registered_name(cls) -> str | None:
    """The name a Game class was registered under (``register_game``, a built-in, an entry point), or None."""
    return _NAMES.get(cls)


def game_parameters(cls) -> tuple[Param, ...]:
    """A Game class's parameters: its ``parameters`` attribute (a tuple of ``Param``), or none."""
    params = getattr(cls, "parameters", ())
    if not isinstance(params, (tuple, list)) or not all(isinstance(p, Param) for p in params):
        raise SpecError(
            f"{cls.__name__}.parameters must be a tuple of evoplay.spec.Param, e.g. "
            f"(Param('size', int, 6, 'board size'),); got {params!r}"
        )
    return tuple(params)


def checked_spec(name: str, cls, parsed) -> tuple[str, dict]:
    """The canonical spec ``name(...)`` of a game class and its parameters' values, checked against the class's
    ``parameters`` (``parsed``: the spec's parameters as given)."""
    registry = Registry("game")
    params = game_parameters(cls)
    registry.register(parsed.name, lambda **values: values, params)
    _, values = registry.resolve(parsed)
    return canonical_spec(name, values, params), values


def plain_spec(cls, values: dict) -> tuple[str, dict]:
    """The spec and parameters of a game built by calling its class (``Othello(size=8)``): the name it was
    registered under, else its file (``path/file.py:Othello(size=8)``), so ``load_game`` rebuilds an equal game."""
    parsed = ParsedSpec(cls.__name__, (), dict(values))
    name = registered_name(cls)
    if name is None:
        try:
            file = Path(inspect.getfile(cls)).resolve()
        except (TypeError, OSError):
            file = None
        if file is None or file.suffix != ".py" or not file.is_file():
            raise SpecError(f"{cls.__name__}() cannot say which game it is: it is defined in no .py file; define it "
                            f"in a file, or register_game('name', {cls.__name__}) first, or build it with "
                            f"load_game('path/file.py:{cls.__name__}')")
        name = f"{file}:{cls.__name__}"
    return checked_spec(name, cls, parsed)
