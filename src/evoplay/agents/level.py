"""``level(RUN,NAME)``: a difficulty level of a run folder (its levels.json, written by ``evoplay evolve gp|ga
--levels``), played as ``gp(FILE)`` or ``weights(FILE)`` plays the level's player file."""
from __future__ import annotations

import json
from pathlib import Path

from evoplay.errors import SpecError

LEVELS_FILE = "levels.json"


def read_levels(run: str | Path) -> tuple[Path, dict]:
    """(the run folder, its levels: {name: entry}, easiest first) of a run folder (or its levels.json); SpecError
    says what is missing or wrong."""
    from evoplay.games.tools.sources import resolve_file

    path = resolve_file(run, "level: run folder")  # confined to the runs folder inside evoplay serve
    folder = path.parent if path.name == LEVELS_FILE and path.is_file() else path
    if not folder.is_dir():
        raise SpecError(f"level: {run} is no run folder; give the folder of a run made with evoplay evolve gp|ga "
                        f"--levels, e.g. level(runs/ga-0-20261126-101500,hard)")
    file = folder / LEVELS_FILE
    if not file.is_file():
        best = (f" (its best player: gp({run}) or weights({run}))" if (folder / "best.json").is_file() else "")
        raise SpecError(f"level: {run} has no {LEVELS_FILE}, so it has no levels{best}; a run of evoplay evolve "
                        f"gp|ga --levels writes one when it finishes")
    try:
        levels = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SpecError(f"level: {file} cannot be read ({err}); write it again with evoplay report --rewrite "
                        f"{run}") from None
    if not isinstance(levels, dict) or not levels:
        raise SpecError(f"level: {file} must be a table of levels, {{name: {{\"player\": FILE, ...}}}}")
    return folder, levels


def level_file(run: str | Path, level: str) -> Path:
    """The player file of level ``level`` of a run (inside the run folder)."""
    folder, levels = read_levels(run)
    if level not in levels:
        raise SpecError(f"level: {run} has no level {level!r}; its levels: {', '.join(map(str, levels))}")
    entry = levels[level]
    player = entry.get("player") if isinstance(entry, dict) else None
    if not isinstance(player, str) or not player.strip():
        raise SpecError(f"level: level {level!r} of {folder / LEVELS_FILE} names no player file (\"player\": "
                        f"\"levels/{level}.json\"); levels of the gp and ga recipes name one each")
    path = (folder / player).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise SpecError(f"level: level {level!r} of {folder / LEVELS_FILE} names {player!r}, outside the run folder")
    if not path.is_file():
        raise SpecError(f"level: the player of level {level!r}, {path}, is missing; write the run's outputs again "
                        f"with evoplay report --rewrite {run}")
    return path


def make_level_agent(game, spec: str, run: str, level: str):
    """The player of a level: its file played as ``gp(FILE)`` (a program) or ``weights(FILE)`` (weights) plays it,
    checked against ``game``."""
    from evoplay.agents.program_file import FORMAT as PROGRAM
    from evoplay.agents.program_file import make_gp_agent
    from evoplay.agents.weights import from_file

    path = level_file(run, level)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SpecError(f"level: {path} is not JSON ({err})") from None
    if isinstance(doc, dict) and doc.get("format") == PROGRAM:
        return make_gp_agent(game, spec, str(path))
    return from_file(game, str(path), spec=spec)
