"""Short seeded runs of every seed recipe, pinned: their logs, best agents, solutions and the moves their exported
Python and Lua players choose must not change.

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

# What the generic recipes' defaults were before issue 22 (ladder, halving, free features, playoff...).
_BEFORE_THE_LADDER = {
    "minutes": 0.0, "fitness.opponents": ["random"], "fitness.ladder": [], "fitness.crn": False,
    "fitness.openings": 0, "fitness.racing": "none", "fitness.scoring": "wdl", "fitness.hall_of_fame": 0,
    "player.free_features": False, "player.scale_features": False, "play.ms": 0.0, "report.playoff": 0,
}

# recipe, config variant, overrides: a few generations of small populations, serial.
RUNS = {
    # The default: programs at the leaves of a 4-ply search, seeded with the store difference, a pool fitness
    # with openings.
    "mancala": ("mancala", None, {"population": 12, "generations": 2, "report.random_programs": 20,
                                  "report.heldout_depths": [2], "pool.random_programs": 4,
                                  "pool.minimax_depths": [1, 2], "pool.openings": 2, "seed": 7}),
    # Seed 003's run 2 (the default until issue 33; its pin is the one the default had then).
    "mancala_run2": ("mancala", "run2", {"population": 16, "generations": 3, "fitness.minimax_depth": 3,
                                         "report.random_programs": 30, "report.heldout_depths": [2, 4],
                                         "pool.random_programs": 4, "pool.minimax_depths": [1, 3], "seed": 7}),
    "mancala_pool_move": ("mancala", "pool_move", {"population": 12, "generations": 2, "fitness.minimax_depth": 3,
                                                   "report.random_programs": 20, "report.heldout_depths": [2],
                                                   "pool.random_programs": 4, "pool.minimax_depths": [1, 3],
                                                   "seed": 3}),
    "mnk": ("mnk", None, {"population": 4, "generations": 2, "baselines.games": 2, "baselines.final_games": 4,
                          "seed": 5}),
    "mnk_kalah": ("mnk", "kalah", {"population": 4, "generations": 2, "baselines.games": 2,
                                   "baselines.final_games": 4, "seed": 5}),
    "sevens": ("sevens", None, {"population": 9, "generations": 3, "seed": 4, "fitness.games": 30,
                                "monitor.heuristic_games": 30}),
    # The generic recipes on two built-in games as they ran before the ladder, common random numbers, halving,
    # free and scaled features and CMA-ES came (those are their defaults now; these runs turn them off): a
    # move-scoring program on 3,3,3 against random, with a hall of fame, and a searching bit-string genome on a
    # small Kalah with a round robin and margin scoring.
    "gp": ("gp", None, {**_BEFORE_THE_LADDER, "program.base": "none", "game": "mnk(m=3,n=3,k=3)", "population": 8,
                        "generations": 3,
                        "seed": 2, "fitness.games": 2, "fitness.hall_of_fame": 2, "fitness.hall_games": 1,
                        "report.games": 4}),
    "ga": ("ga", None, {**_BEFORE_THE_LADDER, "game": "kalah(pits=4,seeds=3)", "population": 6, "generations": 3,
                        "seed": 3, "player.depth": 2, "fitness.games": 2, "fitness.round_robin": 1,
                        "fitness.scoring": "margin", "report.games": 4, "genome.kind": "bits"}),
}

# Runs whose recipe exports players (``export(folder, lang)``): their moves on fixed positions are pinned too.
EXPORTED = ("mancala", "mancala_run2", "mancala_pool_move", "mnk", "mnk_kalah")
LANGUAGES = ("python", "lua")
POSITIONS = 40  # seeded positions per exported run

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
    """The run's log and result files (stripped of timings); the run folder stays in ``folder``."""
    recipe, variant, overrides = RUNS[name]
    base = None
    if variant:
        from evoplay.evolve.config import default_config_text, parse_toml

        base = parse_toml(default_config_text(recipe, variant), variant)
        if recipe == "mnk":  # its shipped variants give only what they change: the defaults go under them
            from evoplay.evolve.config import merge

            base = merge(load_config(recipe), base, variant)
    config = load_config(recipe, None, overrides, base=base)
    module = load_recipe(recipe)
    run = RunFolder.create(folder, recipe, config)
    run_evolution(module.make(config), run)
    out = {"log": _strip(run.read_log())}
    for file in RESULT_FILES:
        if run.file(file).is_file():
            out[file] = _strip(json.loads(run.file(file).read_text(encoding="utf-8")))
    return out


def positions(game, count: int, seed: int) -> list:
    """``count`` non-terminal positions of seeded random games (one game per position, of random length)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(int(rng.integers(0, 3 * len(state.legal_actions()) + 1))):
            trial = state.clone()
            legal = trial.legal_actions()
            trial.apply_action(legal[int(rng.integers(len(legal)))])
            if trial.is_terminal():
                break
            state = trial
        out.append(state)
    return out


def _choices(source: str, lang: str, states) -> list[int]:
    """The move the exported player's choose function picks in each state (its own numbering: a pit 0..pits-1
    from the mover's left for ``choose_pit`` in Python, 1..pits in Lua; a pit or cell for ``choose_move``)."""
    if lang == "python":
        namespace: dict = {}
        exec(compile(source, "player.py", "exec"), namespace)
        pit, move = namespace.get("choose_pit"), namespace.get("choose_move")
        table = list
    else:
        import lupa

        lua = lupa.LuaRuntime()
        module = lua.execute(source)
        pit, move = module["choose_pit"], module["choose_move"]
        table = lua.table_from
    out = []
    for s in states:
        if pit is not None:
            out.append(int(pit(table(s.board_from_mover().tolist()))))
        else:
            out.append(int(move(table(s.board().tolist()), s.current_player())))
    return out


def exported_moves(name: str, folder: Path) -> dict:
    """The moves the run's exported Python and Lua players choose on fixed seeded positions; for the
    move-scoring Mancala run, also its program at the leaves of a 2-ply search (the kalah_search policy)."""
    from evoplay.games import load_game

    recipe = load_recipe(RUNS[name][0])
    run = RunFolder.open(folder)
    doc = json.loads(run.file("best.json").read_text(encoding="utf-8"))
    game = load_game(doc["game"])
    states = positions(game, POSITIONS, 12)
    out = {lang: _choices(recipe.export(run, lang).read_text(encoding="utf-8"), lang, states) for lang in LANGUAGES}
    if name == "mancala_pool_move":
        from evoplay.agents.program_file import load_program
        from evoplay.games.kalah.export import lua_player, python_player

        program, pset, _ = load_program(run.file("best.json"))
        for lang, maker in (("python", python_player), ("lua", lua_player)):
            out[f"kalah_search_{lang}"] = _choices(
                maker(program, pset, game.pits, "kalah_search", game.empty_capture, 2), lang, states)
    return out


def target_solutions() -> dict:
    """The target-number GA (seed and improved configs) on fixed draws, bounded by generations, not time."""
    from evoplay.games.target.cpu_player import TargetGA, TargetGAConfig

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


_RUN_CACHE: dict = {}


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("pinned_runs")


def _run_once(name: str, root: Path) -> dict:
    """Each pinned run is played once per test session; the log test and the export test share its folder."""
    if name not in _RUN_CACHE:
        _RUN_CACHE[name] = _roundtrip(run_pinned(name, root / name))
    return _RUN_CACHE[name]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_short_seeded_run_reproduces_its_pinned_log_and_best(name, runs_dir):
    got = _run_once(name, runs_dir)
    want = _pinned(name)
    assert got["log"] == want["log"]
    for file in RESULT_FILES:
        assert got.get(file) == want.get(file), file


@pytest.mark.parametrize("name", EXPORTED)
def test_the_exported_players_choose_their_pinned_moves(name, runs_dir):
    pytest.importorskip("lupa")
    _run_once(name, runs_dir)
    assert exported_moves(name, runs_dir / name) == _pinned(f"{name}_exports")


def test_the_target_ga_reproduces_its_pinned_solutions():
    assert _roundtrip(target_solutions()) == _pinned("target")


def write_all() -> None:
    PINNED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(RUNS):
            data = _roundtrip(run_pinned(name, Path(tmp) / name))
            (PINNED / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print("wrote", PINNED / f"{name}.json")
            if name in EXPORTED:
                moves = exported_moves(name, Path(tmp) / name)
                (PINNED / f"{name}_exports.json").write_text(json.dumps(moves, sort_keys=True) + "\n")
                print("wrote", PINNED / f"{name}_exports.json")
    (PINNED / "target.json").write_text(json.dumps(_roundtrip(target_solutions()), indent=1, sort_keys=True) + "\n")
    print("wrote", PINNED / "target.json")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python {sys.argv[0]} --write   (rewrites the pinned results)")
    write_all()
