"""gp's base evaluation tuned by CMA-ES inside its generations (``program.base_tune``): the base moves, best.json
keeps the tuned base that ``gp(best.json)`` plays, a resumed run is the uninterrupted one, the workers change
nothing, and bad values are refused naming the key and its range."""
from __future__ import annotations

import numpy as np
import pytest

from evoplay.agents import make_agent
from evoplay.arena.executors import ProcessExecutor, SerialExecutor
from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe

GAME = "openspiel:tic_tac_toe"


def config(**more):
    settings = {"game": GAME, "minutes": 0.0, "generations": 4, "population": 6, "fitness.games": 1,
                "report.games": 1, "report.playoff": 0, "report.play_games": 0, "program.base_games": 80,
                "program.base_tune": 1, "program.base_population": 6, "seed": 3}
    return load_config("gp", None, {**settings, **more})


def strip(log):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in log]


def test_the_base_is_tuned_and_best_json_ships_the_tuned_base(tmp_path):
    from evoplay.agents.feature_player import ProgramScorer
    from evoplay.evolve.warm_start import fit_outcomes

    cfg = config()
    folder = RunFolder.create(tmp_path / "run", "gp", cfg)
    evo = load_recipe("gp").make(cfg)
    state = run_evolution(evo, folder)
    fitted = np.asarray(state["base_cma"]["x0"])
    # the start is the fit of the untuned recipe (the same games), and the base has moved away from it
    assert np.array_equal(fitted, fit_outcomes(evo.game, evo.view, cfg["seed"] + 0xBA5E, 80, 2))
    assert not np.allclose(state["base"], fitted)
    log = folder.read_log()
    assert all(r["base_best"] is not None and r["base_step"] > 0 for r in log)
    doc = folder.read_json("best.json")
    assert doc["base_tunings"] == 4 and np.array_equal(doc["base_weights"], state["base"])
    agent = make_agent(f"gp({folder.file('best.json')})", GAME)
    assert isinstance(agent.scorer, ProgramScorer) and np.array_equal(agent.scorer.base, doc["base_weights"])
    # every k-th generation: generations 0 and 2 of 4 tune, the others keep the base
    every = RunFolder.create(tmp_path / "every2", "gp", config(**{"program.base_tune": 2}))
    run_evolution(load_recipe("gp").make(every.config), every)
    assert [r["base_best"] is not None for r in every.read_log()] == [True, False, True, False]
    assert every.read_json("best.json")["base_tunings"] == 2
    # off: the base stays as fitted, as before
    off = RunFolder.create(tmp_path / "off", "gp", config(**{"program.base_tune": 0}))
    kept = run_evolution(load_recipe("gp").make(off.config), off)
    assert np.array_equal(kept["base"], fitted) and "base_cma" not in kept
    assert "base_best" not in off.read_log()[0] and "base_tunings" not in off.read_json("best.json")


@pytest.mark.parametrize("tune", [1, 2])
def test_a_resumed_run_tunes_the_base_as_an_uninterrupted_one(tmp_path, tune):
    cfg = config(**{"program.base_tune": tune, "generations": 5})
    whole = RunFolder.create(tmp_path / "whole", "gp", cfg)
    run_evolution(load_recipe("gp").make(cfg), whole)
    parts = RunFolder.create(tmp_path / "parts", "gp", cfg)
    run_evolution(load_recipe("gp").make(cfg), parts, stop_after=3)  # killed after generation 2
    assert not parts.finished
    run_evolution(load_recipe("gp").make(cfg), RunFolder.open(tmp_path / "parts"))  # a new process's objects
    assert strip(parts.read_log()) == strip(whole.read_log())
    assert parts.read_json("best.json") == whole.read_json("best.json")


def test_the_tuned_base_does_not_depend_on_the_workers(tmp_path):
    cfg = config(**{"generations": 2})
    serial = RunFolder.create(tmp_path / "serial", "gp", cfg)
    run_evolution(load_recipe("gp").make(cfg), serial, SerialExecutor())
    pooled = RunFolder.create(tmp_path / "pooled", "gp", cfg)
    with ProcessExecutor(2) as executor:
        run_evolution(load_recipe("gp").make(cfg), pooled, executor)
    assert strip(pooled.read_log()) == strip(serial.read_log())
    assert pooled.read_json("best.json")["base_weights"] == serial.read_json("best.json")["base_weights"]


@pytest.mark.parametrize("key, value, says", [
    ("program.base_tune", -1, r"program.base_tune = -1; .*every 1\.\.1000 generations \(0: never\)"),
    ("program.base_tune", 1001, r"program.base_tune = 1001; .*1\.\.1000"),
    ("program.base_population", 3, r"program.base_population = 3; .*4\.\.256"),
    ("program.base_sigma", 0.0, r"program.base_sigma = 0; .*\(0, 10\]"),
    ("program.base_sigma", 11.0, r"program.base_sigma = 11; .*\(0, 10\]"),
])
def test_bad_tuning_values_name_the_key_and_the_range(key, value, says):
    with pytest.raises(ConfigError, match=says):
        load_recipe("gp").make(config(**{key: value}))
