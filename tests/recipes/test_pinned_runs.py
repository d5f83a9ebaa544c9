"""Short seeded runs of every seed recipe, pinned: their logs, best agents and solutions must not change.

A refactor of the shared machinery (fitness loops, searches, exports) proves itself here: the pinned files in
``tests/recipes/pinned/`` were written before the code moved and every run must reproduce them exactly
(timings aside). After a deliberate change of results, rewrite them with
``python tests/recipes/test_pinned_runs.py --write`` and say why in the commit.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import pytest

from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe

PINNED = Path(__file__).with_name("pinned")

# recipe, config variant, overrides: a few generations of small populations, serial.
RUNS = {
    "mancala": ("mancala", None, {"population": 16, "generations": 3, "fitness.minimax_depth": 3,
                                  "report.random_programs": 30, "report.heldout_depths": [2, 4],
                                  "pool.random_programs": 4, "pool.minimax_depths": [1, 3], "seed": 7}),
    "mancala_pool_move": ("mancala", "pool_move", {"population": 12, "generations": 2, "fitness.minimax_depth": 3,
                                                   "report.random_programs": 20, "report.heldout_depths": [2],
                                                   "pool.random_programs": 4, "pool.minimax_depths": [1, 3],
                                                   "seed": 3}),
    "mnk": ("mnk", None, {"population": 4, "generations": 2, "baselines.games": 2, "baselines.final_games": 4,
                          "seed": 5}),
    "sevens": ("sevens", None, {"population": 9, "generations": 3, "seed": 4, "fitness.games": 30,
                                "monitor.heuristic_games": 30}),
}

# Files each recipe writes whose content is the result (pictures and timings are not compared).
RESULT_FILES = ("best.json",)
VOLATILE = ("seconds", "time", "created", "finished", "elapsed")


def _strip(value):
    """Drop wall-clock numbers, keep everything that the seed decides."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if not any(w in k for w in VOLATILE)}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def run_pinned(name: str, folder: Path) -> dict:
    recipe, variant, overrides = RUNS[name]
    base = None
    if variant:
        from evoplay.evolve.config import default_config_text, parse_toml

        base = parse_toml(default_config_text(recipe, variant), variant)
    config = load_config(recipe, None, overrides, base=base)
    module = load_recipe(recipe)
    run = RunFolder.create(folder, recipe, config)
    run_evolution(module.make(config), run)
    out = {"log": _strip(run.read_log())}
    for file in RESULT_FILES:
        if run.file(file).is_file():
            out[file] = _strip(json.loads(run.file(file).read_text(encoding="utf-8")))
    return out


def target_solutions() -> dict:
    """The target-number GA (seed and improved configs) on fixed draws, bounded by generations, not time."""
    from evoplay.games.target.ga import TargetGA, TargetGAConfig

    draws = [((1, 3, 7, 9, 15, 75), 731), ((2, 4, 5, 8, 10, 100), 469), ((6, 6, 1, 9, 20, 50), 999)]
    out = {}
    for kind in ("seed", "improved"):
        config = getattr(TargetGAConfig, kind)(max_generations=40, time_limit=1000.0, clock="cpu")
        ga = TargetGA(config)
        out[kind] = [
            {"value": r.value, "expression": r.expression, "generations": r.generations, "evaluations": r.evaluations}
            for r in (ga.solve(numbers, target, seed=11) for numbers, target in draws)
        ]
    return out


def _pinned(name: str) -> dict:
    path = PINNED / f"{name}.json"
    if not path.is_file():
        pytest.fail(f"{path} is missing; write it with python {__file__} --write")
    return json.loads(path.read_text(encoding="utf-8"))


def _roundtrip(obj) -> dict:
    return json.loads(json.dumps(obj, default=float))


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_short_seeded_run_reproduces_its_pinned_log_and_best(name, tmp_path):
    got = _roundtrip(run_pinned(name, tmp_path / name))
    want = _pinned(name)
    assert got["log"] == want["log"]
    for file in RESULT_FILES:
        assert got.get(file) == want.get(file), file


def test_the_target_ga_reproduces_its_pinned_solutions():
    assert _roundtrip(target_solutions()) == _pinned("target")


def write_all() -> None:
    PINNED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(RUNS):
            data = _roundtrip(run_pinned(name, Path(tmp) / name))
            (PINNED / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print("wrote", PINNED / f"{name}.json")
    (PINNED / "target.json").write_text(json.dumps(_roundtrip(target_solutions()), indent=1, sort_keys=True) + "\n")
    print("wrote", PINNED / "target.json")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python {sys.argv[0]} --write   (rewrites the pinned results)")
    write_all()
