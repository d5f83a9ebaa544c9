"""The run pages' data: run folders under the runs folder, each read through evoplay.evolve's RunFolder."""
from __future__ import annotations

import os
from pathlib import Path

from evoplay.errors import CheckpointError, ConfigError, EvoplayError, OutsideRunsError, SpecError
from evoplay.ga.schema import GENOME_FORMAT
from evoplay.gp.program import PROGRAM_FORMAT
from evoplay.serve.safety import confine, confined_to, is_inside, relative_name

MAX_DEPTH = 3  # run folders are found this many levels below the runs folder
#: files of a run folder the browser may download, besides its PNG plots
DOWNLOADS = ("best.py", "best.lua", "computer.py", "computer.lua", "best.json", "config.toml", "log.jsonl")
EXPORT_NAMES = {"python": ("best.py", "computer.py"), "lua": ("best.lua", "computer.lua")}


def find_runs(root: Path) -> list[Path]:
    """Folders under ``root`` (at most MAX_DEPTH deep, symlinks not followed out) that hold a run.json."""
    from evoplay.evolve.runs import META

    found = []
    if not root.is_dir():
        return found
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        if META in filenames and here != root and is_inside(root, here):
            found.append(here)
            dirnames[:] = []
            continue
        if len(here.parts) - base_depth >= MAX_DEPTH:
            dirnames[:] = []
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
    return sorted(found)


def open_run(root: Path, name: str):
    """The RunFolder the browser names (relative to the runs folder); errors say what is wrong."""
    return _open(root, confine(root, name, "run folder"))


def _open(root: Path, path: Path):
    """The run folder at ``path`` (inside ``root``), refused when one of its entries is a symlink that leads out of
    the runs folder: the run pages read its run.json, config, log and best.json, and would show what they hold."""
    from evoplay.evolve import RunFolder

    try:
        entries = list(path.iterdir()) if path.is_dir() else []
    except OSError as err:
        raise CheckpointError(f"{relative_name(root, path)} cannot be listed: {err.strerror or err}") from None
    for entry in entries:
        if entry.is_symlink() and not is_inside(root, entry):
            raise OutsideRunsError(f"{relative_name(root, path)}/{entry.name} is a symlink that leads outside the "
                                   f"runs folder; the run pages read only files under the runs folder")
    return RunFolder.open(path)


def _best(folder) -> dict | None:
    if not folder.file("best.json").is_file():
        return None
    try:
        doc = folder.read_json("best.json")
    except CheckpointError:
        return None
    return doc if isinstance(doc, dict) else None


#: the agent that plays each format of best.json any game's runs write: the spec ``evoplay play GAME --vs SPEC``
#: takes, as each recipe's report prints it (the kinds only one game's runs write: ``Game.run_player``)
PLAYERS = {PROGRAM_FORMAT: "gp({file})", GENOME_FORMAT: "weights({file})"}


def player_spec(doc: dict, file: str) -> str | None:
    """The agent spec that plays the best.json ``doc`` read from ``file``, or None for a document no agent reads.
    (Older documents carry no format string: a program or a genome is known by its keys.)"""
    marks = [doc.get(key) for key in ("kind", "format")]
    template = next((PLAYERS[m] for m in marks if isinstance(m, str) and m in PLAYERS), None)
    if template is None and "program" in doc and "primitive_set" in doc:
        template = PLAYERS[PROGRAM_FORMAT]
    if template is None and "schema" in doc and "genome" in doc:
        template = PLAYERS[GENOME_FORMAT]
    return None if template is None else template.format(file=file)


def opponent_of(root: Path, folder, doc: dict | None = None) -> dict | None:
    """How the browser plays a run's best agent: ``{"game", "agent"}``, the game spec and the agent spec ``evoplay
    play`` takes for the run (its best.json through gp(FILE), weights(FILE) or specimen(path=FILE)), files named
    relative to the runs folder, with ``levels`` when the run has difficulty levels (``[{"level", "agent"}]``); or
    ``{"why_not": ...}`` for a run the browser cannot play (every page says why); None while the run has no best
    agent."""
    doc = doc if doc is not None else _best(folder)
    if doc is None:
        return None
    rel = relative_name(root, folder.file("best.json"))
    game = doc.get("game")
    own = _game_class(game).run_player(doc, rel, folder.config)  # a kind only the game's own runs write
    agent = own[0] if own else player_spec(doc, rel)
    if agent is None:
        from evoplay.recipes import RECIPES

        what = doc.get("format", doc.get("kind"))
        *most, last = sorted(RECIPES)
        return {"why_not": f"its best.json is no player evoplay knows (format {str(what)[:40]!r}); "
                           f"{', '.join(most)} and {last} runs write one"}
    if not isinstance(game, str) or not game.strip():
        return {"why_not": "its best.json names no game"}
    if own:
        game = own[1]
    why = _game_file_refused(root, game)
    if why:
        path, _, rest = game.partition(".py:")
        return {"why_not": why, "game_name": f"{Path(path).name}.py:{rest}"}  # the file's name, not where it is
    out = {"game": _game_as_named(root, game), "agent": agent}
    levels = _levels(root, folder)
    if levels:
        out["levels"] = levels
    return out


def _game_class(spec) -> type:
    """The registered Game class a best.json's game spec names (the base Game for a file game or none)."""
    from evoplay.games import CLASSES, Game

    name = spec.partition("(")[0].strip() if isinstance(spec, str) else ""
    return CLASSES.get(name, Game)


def _game_file_refused(root: Path, game: str) -> str | None:
    """Why the browser cannot load a run's file game (None when it can, or the game is no file): the file must lie
    in the runs folder, since the app imports nothing from elsewhere, and must be there."""
    path, sep, _ = game.partition(".py:")
    if not sep or not Path(path + ".py").is_absolute():
        return None
    file = Path(path + ".py")
    if not is_inside(root, file):
        return (f"its game file {file.name} lies outside the runs folder, and the browser imports game files from "
                f"there only: copy it into the runs folder, or start evoplay serve --runs on a folder that holds both")
    if not file.is_file():
        return f"its game file {relative_name(root, file)} is missing; put the game file back where the run found it"
    return None


def _levels(root: Path, folder) -> list[dict]:
    """A run's difficulty levels (its levels.json: ``evoplay evolve gp|ga|sevens --levels``), each as the agent spec
    that plays it, in the file's order: ``level(RUN,NAME)`` for a level with a player file (gp, ga), else a Sevens
    specimen."""
    file = folder.file("levels.json")
    if not file.is_file() or not is_inside(root, file):
        return []
    try:
        levels = folder.read_json("levels.json")
    except CheckpointError:
        return []
    if not isinstance(levels, dict):
        return []
    rel, run = relative_name(root, file), relative_name(root, folder.path)
    return [{"level": name, "agent": f"level({run},{name})" if isinstance(entry, dict) and "player" in entry
             else f"specimen(level={name},computer={rel})"} for name, entry in levels.items()
            if isinstance(name, str) and name.isidentifier()]


def _game_as_named(root: Path, game: str) -> str:
    """A file game's spec with its path relative to the runs folder when the file lies in it (the page can only
    name files there; a game file elsewhere keeps its path, and the play form then says why it is refused)."""
    path, sep, rest = game.partition(".py:")
    if not sep or not Path(path + ".py").is_absolute():
        return game
    file = Path(path + ".py")
    return f"{relative_name(root, file)}:{rest}" if is_inside(root, file) else game


def notation(doc: dict | None) -> list[dict]:
    """The best agent in its notation: a program, a play and a send tree, or a genome's parameters."""
    if not doc:
        return []
    out = []
    if "notation" in doc:
        out.append({"label": f"program ({doc.get('size', '?')} nodes)", "text": doc["notation"]})
    if doc.get("simplified") and doc.get("simplified") != doc.get("notation"):
        out.append({"label": f"simplified ({doc.get('simplified_size', '?')} nodes)", "text": doc["simplified"]})
    if "play_text" in doc:
        out.append({"label": "play tree", "text": doc["play_text"]})
        out.append({"label": "send tree", "text": doc.get("send_text", "")})
    if "params" in doc and isinstance(doc["params"], dict):
        out.append({"label": "genome", "text": ", ".join(f"{k}={v}" for k, v in doc["params"].items())})
    if "pit_rule" in doc:
        out.append({"label": "move rule", "text": str(doc["pit_rule"])})
    weights, features = doc.get("weights"), doc.get("features")
    if isinstance(weights, list) and isinstance(features, list) and len(features) >= len(weights):
        text = ", ".join(f"{name} {w:.3g}" if isinstance(w, (int, float)) else f"{name} {w}"
                         for name, w in zip(features, weights))
        out.append({"label": f"weights ({len(weights)} features)", "text": text})
    return out


def scores(doc: dict | None, opponent: dict | None = None) -> dict:
    """The plain numbers of best.json (fitness, scores, W/D/L), without the program itself; its game as the page
    names it."""
    if not doc:
        return {}
    skip = {"format", "program", "primitive_set", "schema", "genome", "params", "notation", "simplified", "play",
            "send", "primitives", "play_text", "send_text", "pit_rule", "kind", "game"}
    out = {k: v for k, v in doc.items() if k not in skip and isinstance(v, (int, float, str)) and len(str(v)) < 80}
    if opponent and "game" in opponent:
        out = {"game": opponent["game"], **out}
    return out


def summary(root: Path, path: Path) -> dict:
    """One line of the runs list."""
    name = relative_name(root, path)
    try:
        folder = _open(root, path)
    except EvoplayError as err:
        return {"path": name, "error": str(err)}
    log = _read_log(folder)
    last = log[-1] if log else {}
    return {"path": name, "recipe": folder.recipe, "generations": len(log), "total": _generations(folder.config),
            "progress": progress(folder, log), "finished": folder.finished, "best": last.get("best"),
            "created": folder.meta.get("created"), "opponent": opponent_of(root, folder)}


def _read_log(folder) -> list[dict]:
    try:
        return folder.read_log()
    except CheckpointError:
        return []


def _generations(config: dict):
    value = config.get("generations")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _minutes(config: dict) -> float | None:
    """The run's time budget in minutes (``minutes`` of its config, ``evolve --minutes``), None without one."""
    value = config.get("minutes")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


def progress(folder, log: list[dict]) -> dict:
    """How far a run has come, in its budget's units: generations of its cap, or minutes of its time budget when
    it has one the cap will not beat; and for a finished run why it stopped (its finish mark's ``stopped``).
    Minutes are counted as the driver counts them: the logged generations' own seconds, summed over resumes."""
    count, cap, budget = len(log), _generations(folder.config), _minutes(folder.config)
    seconds = sum(float(r["seconds"]) for r in log if isinstance(r.get("seconds"), (int, float)))
    spent = seconds / 60.0
    out = {"generations": count, "total": cap, "minutes": budget, "spent_minutes": round(spent, 3),
           "finished": folder.finished, "stopped": None}
    noun = "generation" if count == 1 else "generations"
    if folder.finished:
        mark = _finish_mark(folder)
        stopped = mark.get("stopped") if isinstance(mark.get("stopped"), str) else None
        out["stopped"] = stopped
        out["text"] = f"stopped: {stopped}" if stopped else f"{count} {noun} run"  # beside the 'finished' badge
        out["short"] = f"{count} {noun}"
        return out
    cap_first = cap is not None and (budget is None or (count > 0 and (cap - count) * seconds / count
                                                        <= 60.0 * budget - seconds))
    if budget is None or cap_first:
        out["unit"] = "generations"
        out["text"] = f"{count}{f' / {cap}' if cap is not None else ''} generations logged"
        if budget is not None:
            out["text"] += f" ({spent:.1f} of {budget:g} min spent)"
        out["short"] = f"{count} / {cap} generations" if cap is not None else f"{count} {noun}"
        return out
    out["unit"] = "minutes"
    left = max(0.0, budget - spent)
    out["text"] = f"{count} {noun} logged; {spent:.1f} of {budget:g} min spent, {left:.1f} min left"
    out["short"] = f"{spent:.1f} / {budget:g} min ({count} {noun})"
    return out


def _finish_mark(folder) -> dict:
    from evoplay.evolve.runs import FINISHED

    try:
        mark = folder.read_json(FINISHED)
    except (CheckpointError, OSError, ValueError):
        return {}
    return mark if isinstance(mark, dict) else {}


def detail(root: Path, name: str) -> dict:
    """Everything the run page shows, except the log (fetched separately while the run goes)."""
    folder = open_run(root, name)
    doc = _best(folder)
    try:
        from evoplay.recipes import load_recipe

        report = load_recipe(folder.recipe).report(folder)
    except (EvoplayError, KeyError, TypeError, ValueError, OSError) as err:
        report = f"(the recipe's report could not be made: {type(err).__name__}: {err})"
    plots = sorted(p.name for p in folder.path.iterdir() if p.suffix == ".png" and is_inside(root, p))
    downloads = [n for n in DOWNLOADS if folder.file(n).is_file() and is_inside(root, folder.file(n))]
    config_text = folder.file("config.toml").read_text(encoding="utf-8") if folder.file("config.toml").is_file() \
        else ""
    opponent = opponent_of(root, folder, doc)
    return {"path": relative_name(root, folder.path), "recipe": folder.recipe, "finished": folder.finished,
            "total": _generations(folder.config), "progress": progress(folder, _read_log(folder)),
            "config": config_text, "report": report, "plots": plots, "downloads": downloads,
            "notation": notation(doc), "scores": scores(doc, opponent), "opponent": opponent,
            "has_best": doc is not None}


def log_since(root: Path, name: str, since: int) -> dict:
    """The log records after the first ``since`` (the page polls this to extend its curves)."""
    folder = open_run(root, name)
    log = _read_log(folder)
    since = max(0, min(int(since), len(log)))
    return {"records": [_plain(r) for r in log[since:]], "count": len(log), "finished": folder.finished,
            "total": _generations(folder.config), "progress": progress(folder, log)}


def _plain(record: dict) -> dict:
    return {k: v for k, v in record.items() if isinstance(v, (int, float, str, bool)) or v is None}


def run_file(root: Path, name: str, file: str) -> Path:
    """A plot or a download of a run folder, only among the names the run page offers."""
    folder = open_run(root, name)
    if "/" in file or "\\" in file or not (file in DOWNLOADS or file.endswith(".png")):
        raise SpecError(f"{file!r} is not a file the run page offers; plots (*.png) and {', '.join(DOWNLOADS)}")
    path = confine(root, f"{relative_name(root, folder.path)}/{file}", "file")
    if not path.is_file():
        raise FileNotFoundError(f"{file} is not in {relative_name(root, folder.path)}")
    return path


def export(root: Path, name: str, lang: str) -> Path:
    """The best agent as Python or Lua source: the run's exported file, written by the recipe if missing."""
    if lang not in EXPORT_NAMES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(EXPORT_NAMES)}")
    folder = open_run(root, name)
    for candidate in EXPORT_NAMES[lang]:
        if folder.file(candidate).is_file():
            return confine(root, f"{relative_name(root, folder.path)}/{candidate}", "file")
    doc = _best(folder)
    if doc is None:
        raise FileNotFoundError(f"{relative_name(root, folder.path)} has no best agent yet; exports come when the "
                                f"run finishes")
    opponent = opponent_of(root, folder, doc)
    if opponent and "why_not" in opponent:  # writing the export would import the game file
        raise OutsideRunsError(f"{relative_name(root, folder.path)} cannot be exported here: {opponent['why_not']}; "
                               f"or export it at the terminal: evoplay export RUN --lang {lang}")
    from evoplay.recipes import load_recipe

    try:
        with confined_to(root):  # the recipe loads the run's game: from the runs folder only, as every page does
            written = Path(load_recipe(folder.recipe).export(folder, lang))
    except (ConfigError, CheckpointError) as err:
        raise SpecError(str(err)) from None
    if not is_inside(root, written):
        raise SpecError(f"the export was written outside the runs folder ({written})")
    return written
