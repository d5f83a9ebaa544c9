"""What the browser may name: paths confined to the runs folder, and game and agent specs whose files lie in it."""
from __future__ import annotations

import os
from pathlib import Path

from evoplay.errors import SpecError
from evoplay.spec import ParsedSpec, parse_spec


class OutsideRunsError(SpecError):
    """A path from the browser that would leave the runs folder (``..``, an absolute path, a symlink out)."""


# Parameters that name files by their name; others are checked by what their value looks like.
FILE_PARAMS = frozenset({"file", "path", "computer", "folder", "dir", "config", "source"})
_FILE_WORDS = ("file", ".json", ".py", "folder", "path")
_FILE_SUFFIXES = (".json", ".py", ".lua", ".toml", ".txt")


def confine(root: Path, name: str, what: str = "path") -> Path:
    """``name`` (relative to ``root``, the runs folder) as an absolute path inside ``root``, symlinks resolved.

    Raises OutsideRunsError for an absolute path, any ``..`` part, or a path whose real location (after
    following symlinks) is not inside ``root``."""
    if not isinstance(name, str) or not name.strip():
        raise SpecError(f"empty {what}; name a file or folder inside the runs folder, e.g. mancala-1/best.json")
    if "\x00" in name:
        raise OutsideRunsError(f"{what} {name!r} contains a NUL character")
    text = name.strip().replace("\\", "/")
    if text.startswith(("/", "~")) or (len(text) > 1 and text[1] == ":"):
        raise OutsideRunsError(f"{what} {name!r} is absolute; name it relative to the runs folder, "
                               f"e.g. mancala-1/best.json")
    if any(part == ".." for part in text.split("/")):
        raise OutsideRunsError(f"{what} {name!r} climbs out with '..'; name it relative to the runs folder")
    root = root.resolve()
    target = (root / text).resolve()
    if target != root and root not in target.parents:
        raise OutsideRunsError(f"{what} {name!r} leads outside the runs folder (a symlink?); only files under "
                               f"{root} can be named")
    return target


def relative_name(root: Path, path: Path) -> str:
    """``path`` as the browser names it: relative to the runs folder, with forward slashes."""
    rel = path.resolve().relative_to(root.resolve())
    return rel.as_posix() if str(rel) != "." else ""


def _looks_like_path(value: str) -> bool:
    v = value.strip()
    return ("/" in v or "\\" in v or v.startswith((".", "~")) or v.lower().endswith(_FILE_SUFFIXES)
            or (len(v) > 1 and v[1] == ":"))


def _names_file(param, value: str) -> bool:
    if not isinstance(value, str) or not value.strip():
        return False
    if getattr(param, "choices", None):
        return False
    if getattr(param, "type", str) is not str:
        return False
    return (param.name in FILE_PARAMS or any(w in (param.help or "").lower() for w in _FILE_WORDS)
            or _looks_like_path(value))


def _rebuild(parsed: ParsedSpec, args: list[str], kwargs: dict[str, str]) -> str:
    parts = list(args) + [f"{k}={v}" for k, v in kwargs.items()]
    return f"{parsed.name}({','.join(parts)})" if parts else parsed.name


def _safe_value(path: Path, original: str) -> str:
    text = str(path)
    if any(c in text for c in ",()=") and text != original:
        raise SpecError(f"{original!r}: the runs folder's path {text!r} holds one of , ( ) =, which a spec cannot "
                        f"carry; start evoplay serve with a --runs folder without them")
    return text


class Confined:
    """A spec rewritten so its files are absolute paths inside the runs folder, and how to say errors back."""

    def __init__(self, spec: str, replacements: dict[str, str]):
        self.spec = spec
        self.replacements = replacements  # absolute path -> what the browser wrote

    def say(self, text: str) -> str:
        """``text`` with the absolute paths turned back into what the browser wrote."""
        for absolute, written in self.replacements.items():
            text = text.replace(absolute, written)
        return text

    def message(self, err: BaseException) -> str:
        return self.say(str(err))


def confine_agent_spec(spec: str, root: Path) -> Confined:
    """Check an agent spec from the browser: the registry's own parse, ``human`` refused (the person is already
    at the table), and every argument that names a file confined to the runs folder."""
    from evoplay.agents import AGENTS

    parsed = parse_spec(spec, "agent")
    if parsed.name == "human":
        raise SpecError("'human' is the person at the terminal; in the browser you take a seat yourself, so choose "
                        "an agent to play against, e.g. alphabeta(depth=4)")
    entry = AGENTS.entry(parsed.name)
    params = list(entry.params)
    args, kwargs, replacements = list(parsed.args), dict(parsed.kwargs), {}
    for i, raw in enumerate(args):
        if i < len(params) and _names_file(params[i], raw):
            path = confine(root, raw, f"{parsed.name} {params[i].name}")
            args[i] = _safe_value(path, raw)
            replacements[args[i]] = raw
    by_name = {p.name: p for p in params}
    for key, raw in kwargs.items():
        if key in by_name and _names_file(by_name[key], raw):
            path = confine(root, raw, f"{parsed.name} {key}")
            kwargs[key] = _safe_value(path, raw)
            replacements[kwargs[key]] = raw
    return Confined(_rebuild(parsed, args, kwargs), replacements)


def confine_game_spec(spec: str, root: Path) -> Confined:
    """Check a game spec from the browser. Registered games and ``openspiel:NAME`` pass as they are; a game
    from a file (``path/file.py:Class``) runs that file's code, so the file must lie inside the runs folder."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError("empty game; write a name such as 'kalah' or 'mnk(m=3,n=3,k=3)'")
    text = spec.strip()
    head = text.split("(", 1)[0]
    if ":" not in head:
        return Confined(text, {})
    source, _, rest = text.partition(":")
    if source.strip().lower() == "openspiel":
        return Confined(text, {})
    path = confine(root, source, "game file")
    absolute = _safe_value(path, source)
    return Confined(f"{absolute}:{rest}", {absolute: source})


def is_inside(root: Path, path: Path) -> bool:
    """Whether ``path``'s real location is ``root`` or lies under it."""
    try:
        real = Path(os.path.realpath(path))
    except OSError:
        return False
    root = root.resolve()
    return real == root or root in real.parents
