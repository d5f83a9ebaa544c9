"""The run pages' data: run folders under the runs folder, each read through evoplay.evolve's RunFolder."""
from __future__ import annotations

import os
from pathlib import Path

from evoplay.errors import CheckpointError, ConfigError, EvoplayError, SpecError
from evoplay.serve.safety import confine, is_inside, relative_name

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
    from evoplay.evolve import RunFolder

    path = confine(root, name, "run folder")
    return RunFolder.open(path)


def _best(folder) -> dict | None:
    if not folder.file("best.json").is_file():
        return None
    try:
        doc = folder.read_json("best.json")
    except CheckpointError:
        return None
    return doc if isinstance(doc, dict) else None


def opponent_of(root: Path, folder, doc: dict | None = None) -> dict | None:
    """The game spec and the agent spec (its file relative to the runs folder) that play a run's best."""
    doc = doc if doc is not None else _best(folder)
    if doc is None:
        return None
    rel = relative_name(root, folder.file("best.json"))
    if doc.get("kind") == "sevens-specimen":
        players = folder.config.get("game", {}).get("players", 4) if isinstance(folder.config.get("game"), dict) \
            else 4
        return {"game": f"sevens(players={players})" if players != 4 else "sevens",
                "agent": f"specimen(path={rel})"}
    game = doc.get("game")
    if not isinstance(game, str):
        return None
    game = _game_as_named(root, game)
    if "program" in doc and "primitive_set" in doc:
        out = {"game": game, "agent": f"gp({rel})"}
    elif "schema" in doc and "genome" in doc:
        out = {"game": game, "agent": f"weights({rel})"}
    else:
        return None
    path, sep, _ = game.partition(".py:")
    if sep and Path(path + ".py").is_absolute():  # a game file outside the runs folder: the page cannot name it
        out = {"why_not": f"its game file {Path(path).name}.py lies outside the runs folder, and the browser "
                          f"imports game files from there only: copy it into the runs folder, or start evoplay "
                          f"serve --runs on a folder that holds both"}
    return out


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
    return out


def scores(doc: dict | None) -> dict:
    """The plain numbers of best.json (fitness, scores, W/D/L), without the program itself."""
    if not doc:
        return {}
    skip = {"format", "program", "primitive_set", "schema", "genome", "params", "notation", "simplified", "play",
            "send", "primitives", "play_text", "send_text", "pit_rule", "kind"}
    return {k: v for k, v in doc.items() if k not in skip and isinstance(v, (int, float, str)) and len(str(v)) < 80}


def summary(root: Path, path: Path) -> dict:
    """One line of the runs list."""
    from evoplay.evolve import RunFolder

    name = relative_name(root, path)
    try:
        folder = RunFolder.open(path)
    except EvoplayError as err:
        return {"path": name, "error": str(err)}
    log = _read_log(folder)
    last = log[-1] if log else {}
    total = _generations(folder.config)
    return {"path": name, "recipe": folder.recipe, "generations": len(log), "total": total,
            "finished": folder.finished, "best": last.get("best"), "created": folder.meta.get("created"),
            "opponent": opponent_of(root, folder)}


def _read_log(folder) -> list[dict]:
    try:
        return folder.read_log()
    except CheckpointError:
        return []


def _generations(config: dict):
    value = config.get("generations")
    return value if isinstance(value, int) else None


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
    return {"path": relative_name(root, folder.path), "recipe": folder.recipe, "finished": folder.finished,
            "total": _generations(folder.config), "config": config_text, "report": report, "plots": plots,
            "downloads": downloads, "notation": notation(doc), "scores": scores(doc),
            "opponent": opponent_of(root, folder, doc), "has_best": doc is not None}


def log_since(root: Path, name: str, since: int) -> dict:
    """The log records after the first ``since`` (the page polls this to extend its curves)."""
    folder = open_run(root, name)
    log = _read_log(folder)
    since = max(0, min(int(since), len(log)))
    return {"records": [_plain(r) for r in log[since:]], "count": len(log), "finished": folder.finished,
            "total": _generations(folder.config)}


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
    if _best(folder) is None:
        raise FileNotFoundError(f"{relative_name(root, folder.path)} has no best agent yet; exports come when the "
                                f"run finishes")
    from evoplay.recipes import load_recipe

    try:
        written = Path(load_recipe(folder.recipe).export(folder, lang))
    except (ConfigError, CheckpointError) as err:
        raise SpecError(str(err)) from None
    if not is_inside(root, written):
        raise SpecError(f"the export was written outside the runs folder ({written})")
    return written
