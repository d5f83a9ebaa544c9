"""What the browser may name: agent specs checked against the runs folder, and names shown relative to it.

Every file a request names is found by the library's one resolver (``evoplay.games.tools.sources.resolve_file``): the
app builds games and agents inside ``confined_to(--runs)``, so a game file, an agent's file and the game a
best.json names are each refused before anything is read or imported when they lie outside the runs folder.
"""
from __future__ import annotations

from pathlib import Path

from evoplay.errors import OutsideRunsError, SpecError
from evoplay.games.tools.sources import confine, confined_to, is_inside, resolve_file
from evoplay.spec import parse_spec

__all__ = ["OutsideRunsError", "confine", "confine_agent_spec", "confined_to", "is_inside", "relative_name",
           "shown_names"]

# Parameters that name files by their name; others are checked by what their value looks like.
FILE_PARAMS = frozenset({"file", "path", "computer", "folder", "dir", "config", "source"})
_FILE_WORDS = ("file", ".json", ".py", "folder", "path")
_FILE_SUFFIXES = (".json", ".py", ".lua", ".toml", ".txt")


def relative_name(root: Path, path: Path) -> str:
    """``path`` as the browser names it: relative to the runs folder, with forward slashes."""
    rel = path.resolve().relative_to(root.resolve())
    return rel.as_posix() if str(rel) != "." else ""


def shown_names(root: Path, text: str) -> str:
    """``text`` (a spec, an error) with the runs folder's absolute path taken out, as the browser names files."""
    return text.replace(str(root.resolve()) + "/", "")


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


def confine_agent_spec(spec: str, root: Path) -> str:
    """Check an agent spec from the browser: the registry's own parse, ``human`` refused (the person is already
    at the table), and every argument that names a file (or looks like a path) resolved inside the runs folder.
    The agents' loaders resolve their files again through the same resolver when the app builds the agent inside
    ``confined_to(root)``; this check also covers an agent whose loader does not."""
    from evoplay.agents import AGENTS

    parsed = parse_spec(spec, "agent")
    if parsed.name == "human":
        raise SpecError("'human' is the person at the terminal; in the browser you take a seat yourself, so choose "
                        "an agent to play against, e.g. alphabeta(depth=4)")
    params = list(AGENTS.entry(parsed.name).params)
    by_name = {p.name: p for p in params}
    named = [(params[i], raw) for i, raw in enumerate(parsed.args) if i < len(params)]
    named += [(by_name[key], raw) for key, raw in parsed.kwargs.items() if key in by_name]
    with confined_to(root):
        for param, raw in named:
            if _names_file(param, raw):
                resolve_file(raw, f"{parsed.name} {param.name}")
    return spec
