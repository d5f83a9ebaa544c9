"""Bad input by the thousand: spec strings, config values and expressions, each classified as accepted, a clean
error (one of evoplay's errors) or a crash (anything else). The tests run small samples; run it as a script for
the counts in docs/reliability.md::

    python -m tests.reliability.census [N]          # N specs and expressions, N/10 configs
    python -m tests.reliability.census RUNS kills   # RUNS toy runs, each killed 8 times and resumed
    python -m tests.reliability.census N damage     # N damaged toy run folders (issue 36): report, then repair
"""
from __future__ import annotations

import random
import sys
import traceback
from collections import Counter

from evoplay.errors import EvoplayError

NAMES = ["kalah", "mnk", "tron", "gems", "sevens", "random", "alphabeta", "rs", "rhea", "mcts", "lookahead",
         "weights", "gp", "specimen", "kalha", "", "openspiel:tic_tac_toe", "x/y.py:Game"]
KEYS = ["pits", "seeds", "m", "n", "k", "w", "h", "depth", "seed", "iterations", "budget_ms", "population",
        "schedule", "random_ties", "file", "path", "level", "discount", "clock", "k", "elitism", "bogus", ""]
VALUES = ["-1", "0", "1", "4", "40", "1000000000", "9" * 5000, "1e999", "nan", "-inf", "0.5", "true", "maybe",
          "[0, 13]", "(", ")", "a=b", "'x'", "\u0663", "\x00", "/nonexistent/best.json", "x" * 300, "seed001",
          "none", "cpu", " ", "1_000", "0x10", "+5"]


def random_spec(rng: random.Random) -> str:
    name = rng.choice(NAMES)
    if rng.random() < 0.15:
        return name
    parts = []
    for _ in range(rng.randint(0, 4)):
        value = rng.choice(VALUES)
        parts.append(value if rng.random() < 0.2 else f"{rng.choice(KEYS)}={value}")
    spec = f"{name}({','.join(parts)})"
    if rng.random() < 0.2:  # damage it
        i = rng.randrange(len(spec) + 1)
        spec = spec[:i] + rng.choice("(),=[]{}\"' \u2212\uff08") + spec[i + 1:]
    return spec


def try_spec(spec: str) -> str:
    from evoplay.agents import make_agent
    from evoplay.games import load_game

    try:
        game = load_game(spec)
    except EvoplayError:
        try:
            make_agent(spec, load_game("kalah"))
        except EvoplayError:
            return "clean"
    return "accepted"


CONFIG_VALUES = [-1, 0, 1, 3, 2**70, -(2**70), 0.5, float("inf"), float("nan"), True, "a", "", "9" * 5000,
                 ["a", 3], [1.5, 2], [], [[1]], {"x": 1}, [{"a": 1}], "1,2", "random"]


def random_config(rng: random.Random, default: dict, depth: int = 0) -> dict:
    out = {}
    for key, value in default.items():
        if rng.random() < 0.25:
            if isinstance(value, dict) and depth < 2 and rng.random() < 0.6:
                out[key] = random_config(rng, value, depth + 1)
            else:
                out[key] = rng.choice(CONFIG_VALUES)
    if rng.random() < 0.1:
        out[rng.choice(["bogus", "populaton", "seeds"])] = 1
    return out


def try_config(recipe: str, user: dict) -> str:
    from evoplay.evolve.config import load_config, merge
    from evoplay.recipes import load_recipe

    try:
        config = merge(load_config(recipe), user, "fuzz.toml")
        config = load_config(recipe, None, {}, base=config)
        load_recipe(recipe).make(config)
    except EvoplayError:
        return "clean"
    return "accepted"


def random_expression(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return "(" * rng.randint(40, 400) + "1" + ")" * rng.randint(0, 400)
    if kind < 0.2:
        return "+".join(str(rng.randint(1, 100)) for _ in range(rng.randint(50, 1200)))
    return "".join(rng.choice("0123456789+-*/()[] x:\u2212\u00f7.a") for _ in range(rng.randint(0, 30)))


def try_expression(text: str) -> str:
    from evoplay.games.target.parser import parse_expression

    try:
        parse_expression(text, (1, 3, 7, 9, 15, 75))
    except EvoplayError:
        return "clean"
    return "accepted"


def census(kind: str, n: int, seed: int = 0) -> tuple[Counter, list[str]]:
    """Counts of accepted / clean / crash over ``n`` cases of ``kind`` (spec, config, expression), and the first
    crashes' inputs with their exception."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    crashes: list[str] = []
    recipes = ("mancala", "mnk", "sevens")
    for i in range(n):
        if kind == "spec":
            case = random_spec(rng)
            run = lambda: try_spec(case)  # noqa: E731
        elif kind == "config":
            from evoplay.evolve.config import load_config

            recipe = recipes[i % len(recipes)]
            case = random_config(rng, load_config(recipe))
            run = lambda: try_config(recipe, case)  # noqa: E731
        else:
            case = random_expression(rng)
            run = lambda: try_expression(case)  # noqa: E731
        try:
            counts[run()] += 1
        except Exception as err:  # the finding: anything that is not one of evoplay's errors
            counts["crash"] += 1
            if len(crashes) < 10:
                crashes.append(f"{case!r:.200}: {type(err).__name__}: {err}\n{traceback.format_exc(limit=3)}")
    return counts, crashes


def kill_census(runs: int, kills: int, seed: int = 0) -> Counter:
    """``runs`` toy runs each killed (SIGKILL) ``kills`` times at random moments and resumed: how many kills
    were made, how many runs ended equal to the uninterrupted run (log and best), how many differ (data lost)."""
    import tempfile
    from pathlib import Path

    from .test_kill_resume import _kill_and_resume, _straight, _strip

    rng = random.Random(seed)
    counts: Counter = Counter()
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            straight = _straight(base, 25)
            resumed = _kill_and_resume(base, 25, kills, rng)
            counts["kills"] += kills
            same = (_strip(resumed.read_log()) == _strip(straight.read_log())
                    and resumed.read_json("best.json") == straight.read_json("best.json"))
            counts["equal" if same else "data lost"] += 1
    return counts


DAMAGES = ("rename a key", "edit a value", "cut the file", "delete a line", "garble a line", "edit the config")


def damage_census(n: int, seed: int = 0) -> Counter:
    """``n`` toy run folders (finished or stopped) each damaged one way (DAMAGES) at a random line: ``report``
    (verify_folder) must refuse naming the damage or accept an undamaged log, and ``resume`` / ``report --rewrite``
    must end with the log of the undamaged run or refuse in one line (issue 36). Counts: refused by report, repaired,
    refused by the repair, wrong (a finished log unlike the undamaged one), crash."""
    import json
    import tempfile
    from pathlib import Path

    from evoplay.errors import CheckpointError
    from evoplay.evolve.loop import rewrite_outputs, run_evolution, verify_folder
    from evoplay.evolve.runs import RunFolder

    from .toy import RECIPE, Toy

    gens, rng, counts = 5, random.Random(seed), Counter()
    strip = lambda text: [{k: v for k, v in json.loads(x).items() if k != "seconds"} for x in text.splitlines()]
    with tempfile.TemporaryDirectory() as tmp:
        good = RunFolder.create(Path(tmp) / "good", RECIPE, {"seed": 3, "generations": gens, "population": 16})
        run_evolution(Toy(gens), good)
        whole = strip(good.file("log.jsonl").read_text())
        for i in range(n):
            finished = rng.random() < 0.5
            folder = RunFolder.create(Path(tmp) / f"run{i}", RECIPE, {"seed": 3, "generations": gens,
                                                                      "population": 16})
            run_evolution(Toy(gens), folder, stop_after=None if finished else rng.randint(2, gens - 1))
            log = folder.file("log.jsonl")
            lines = log.read_text().splitlines(keepends=True)
            at, damage = rng.randrange(len(lines)), rng.choice(DAMAGES)
            if damage == "rename a key":
                lines[at] = lines[at].replace('"mean"', '"mdan"')
            elif damage == "edit a value":
                lines[at] = lines[at].replace('"best": ', '"best": 1')
            elif damage == "delete a line":
                del lines[at]
            elif damage == "garble a line":
                lines[at] = lines[at][: rng.randrange(1, len(lines[at]))] + "\n"
            text = "".join(lines)
            if damage == "cut the file":
                text = text[: rng.randrange(len(text))]
            log.write_text(text)
            if damage == "edit the config":
                config = folder.file("config.toml")
                config.write_text(config.read_text().replace("population = 16", "population = 64"))
            try:
                try:
                    verify_folder(RunFolder.open(folder.path), gens)
                    counts["accepted by report"] += 1
                except CheckpointError:
                    counts["refused by report"] += 1
                try:
                    if finished:
                        rewrite_outputs(Toy(gens), RunFolder.open(folder.path))
                    else:
                        run_evolution(Toy(gens), RunFolder.open(folder.path))
                except CheckpointError:
                    counts["refused by the repair"] += 1
                    counts[f"refused by the repair: {damage}"] += 1
                    continue
                counts["repaired" if strip(log.read_text()) == whole else "wrong"] += 1
            except Exception:  # noqa: BLE001 - what the census counts
                counts["crash"] += 1
    return counts


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    if len(sys.argv) > 2 and sys.argv[2] == "kills":
        print(dict(kill_census(n, 8)))
        sys.exit(0)
    if len(sys.argv) > 2 and sys.argv[2] == "damage":
        print(dict(damage_census(n)))
        sys.exit(0)
    for what in ("spec", "config", "expression"):
        counts, crashes = census(what, n if what != "config" else max(1, n // 10))
        print(f"{what}: {sum(counts.values())} cases, {counts['accepted']} accepted, {counts['clean']} clean errors, "
              f"{counts['crash']} crashes")
        for c in crashes:
            print("  ", c)
