"""What a ``gp`` or ``ga`` run folder tells and hands over: ``evoplay report`` (its generations, champion, race,
play check, strength table and the commands that play and export it) and ``evoplay export`` (best.py, best.lua,
best.js)."""
from __future__ import annotations

from pathlib import Path

from evoplay.errors import SpecError
from evoplay.recipes import levels
from evoplay.recipes.generic import STOPPED

LANGUAGES = ("python", "lua", "js")


def final_table(final: dict) -> str:
    lines = ["| opponent | games | wins | draws | losses | win rate (draws half) |", "| --- | --- | --- | --- | --- | --- |"]
    for name, r in final.items():
        lines.append(f"| {name} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
                     f"{100 * r['win_rate']:.1f} % |")
    return "\n".join(lines)


def report(folder, recipe: str) -> str:
    log = folder.read_log()
    c = folder.config
    lines = [f"run {folder.path}: recipe {recipe}, game {c['game']}, population {c['population']}, "
             f"policy {c['player']['policy']}" + (f" (depth {c['player']['depth']})"
                                                  if c['player']['policy'] == "search" else "")]
    if not log and not folder.file("best.json").exists():
        return lines[0] + "\nno generation has finished yet"
    if log:
        last = log[-1]
        lines.append(f"generations: {len(log)}; last: best {last['best']:.4g}, mean {last['mean']:.4g}, worst "
                     f"{last['worst']:.4g}, mean size {last['mean_size']:.1f}, {last['games']} games, "
                     f"{last['seconds']:.1f} s")
    if folder.file("best.json").exists():
        doc = folder.read_json("best.json")
        if doc.get("fitness") is None:
            lines.append(f"generations: {len(log)}; the champion is the start, unevaluated: {doc.get('unevaluated')} "
                         f"(a game is slow for the budget: give more --minutes) -> {folder.file('best.json')}")
        else:
            lines.append(f"champion: generation {doc['generation']}, fitness {doc['fitness']:.4g} -> "
                         f"{folder.file('best.json')}")
        if doc.get("notation"):
            lines.append(f"  program ({doc['size']} nodes): {doc['notation']}")
        race = doc.get("race")
        if race:
            scores = ", ".join(f"{label} {score:.3g}" for label, score in race["playoff"].items())
            lines.append(f"it evolved {race['winner']}, the winner of the race after "
                         f"{' and '.join(map(str, race['steps']))} generations"
                         + (f" (playoff: {scores})" if scores else ""))
        check = doc.get("play_check")
        if check and check["scores"] == STOPPED:
            lines.append(f"it plays {check['shipped']}, unchecked: the play check was {STOPPED}")
        elif check:
            scores = ", ".join(f"{label} {score:.3g}" for label, score in check["scores"].items())
            budget = ", ".join(f"{k}={v:g}" for k, v in (folder.config.get("play") or {}).items()
                               if v and isinstance(v, (int, float)))
            lines.append(f"it plays {check['shipped']}" + (f" ({budget} a move)" if "budget" in check["shipped"]
                                                           else "") + f"; the play check scored {scores}"
                         + (f" against {' and '.join(check['against'])} and each other" if check.get("against")
                            else "")
                         + ("; won/drawn/lost against " + " and ".join(check["against"]) + ": " + ", ".join(
                             f"{label} " + " ".join("/".join(map(str, wdl)) for wdl in by.values())
                             for label, by in check["wdl"].items()) if check.get("wdl") and check.get("against")
                            else "")
                         + (f" (stopped {check['stopped']})" if check.get("stopped") else "")
                         + (f", every player of the check thinking {check['ms']:g} ms a move (what the time left "
                            f"could afford)" if check.get("ms") else ""))
        kind = "gp" if recipe == "gp" else "weights"
        spec = f"{kind}({folder.file('best.json')})"
        if doc.get("plays"):
            lines.append(f"the player, {spec}: {doc['plays']}")
        if doc.get("final"):
            # a best.json written before the player was named was measured as evolution played it
            lines.append("its strength in fresh games, every seat" + (", as evolution played it (before the play "
                         "check chose how it plays):" if "plays" not in doc else ":"))
            lines.append(final_table(doc["final"]))
        game = doc["game"] if "(" not in doc["game"] else f"'{doc['game']}'"
        lines.append(f"play it: evoplay play {game} --vs '{spec}'")
        lines += levels.ladder(folder)
        lines.append(f"export it: evoplay export {folder.path} --lang python")
        lines.append(f"plots: {folder.file('fitness.png')}, {folder.file('size.png')}")
    else:
        lines.append(f"the run has not finished: evoplay resume {folder.path}")
    return "\n".join(lines)


def export(folder, lang: str) -> Path:
    """The player as best.py, the player ``gp(best.json)`` / ``weights(best.json)`` is (its evaluation, search
    and budget: ``evoplay.agents.feature_export``), or as best.lua / best.js over the host game's interface
    (``evoplay.agents.host_export``); every level of ``levels.json`` in each language."""
    from evoplay.agents.feature_export import export_python
    from evoplay.agents.host_export import export_host

    if lang not in LANGUAGES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(LANGUAGES)}")
    if lang == "python":
        return export_python(folder)
    return export_host(folder, lang)
