"""Run folders, configs and the generational driver: resume after a kill ends identical to a straight run."""
import os
import pickle

import numpy as np
import pytest

from evoplay.errors import CheckpointError, ConfigError
from evoplay.evolve import RunFolder, dump_toml, run_evolution
from evoplay.evolve.config import merge, parse_assignment, parse_toml
from evoplay.evolve.selection import elite, roulette, tournament


class OneMax:
    """A tiny bit-string GA: enough to exercise the driver."""

    def __init__(self, generations=6):
        self.generations = generations

    def start(self, rng):
        return {"rng": rng, "pop": rng.integers(0, 2, size=(12, 20))}

    def step(self, state, generation, executor):
        rng, pop = state["rng"], state["pop"]
        fit = pop.sum(axis=1)
        parents = pop[tournament(fit, 12, 3, rng)]
        flips = rng.random(parents.shape) < 0.05
        return {"rng": rng, "pop": parents ^ flips}, {"best": int(fit.max()), "mean": float(fit.mean()),
                                                     "worst": int(fit.min())}

    def finish(self, state, folder):
        folder.write_json("best.json", {"bits": state["pop"][0].tolist()})


def _strip(log):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in log]


def test_resume_after_stop_is_identical(tmp_path):
    cfg = {"seed": 4, "generations": 6}
    straight = RunFolder.create(tmp_path / "a", "onemax", cfg)
    run_evolution(OneMax(), straight)
    stopped = RunFolder.create(tmp_path / "b", "onemax", cfg)
    run_evolution(OneMax(), stopped, stop_after=3)
    assert not stopped.finished
    # Simulate a kill between the log append and the checkpoint: an extra log line and a torn one.
    with open(stopped.file("log.jsonl"), "a") as f:
        f.write('{"generation": 3, "best": 999}\n{"gener')
    run_evolution(OneMax(), RunFolder.open(tmp_path / "b"))
    assert _strip(straight.read_log()) == _strip(RunFolder.open(tmp_path / "b").read_log())
    assert straight.read_json("best.json") == stopped.read_json("best.json")
    assert stopped.finished


def test_corrupt_checkpoint_and_folder_errors(tmp_path):
    from evoplay.evolve import checkpoint as ckpt

    folder = RunFolder.create(tmp_path / "r", "onemax", {"seed": 1})
    folder.file("checkpoint.npz").write_bytes(b"PK not an archive")
    with pytest.raises(CheckpointError, match="corrupt"):
        folder.load_checkpoint()
    folder.file("checkpoint.npz").write_bytes(ckpt.dumps({"recipe": "other", "generation": 0}, 1))
    with pytest.raises(CheckpointError, match="belongs to recipe 'other'"):
        folder.load_checkpoint()
    folder.file("checkpoint.npz").unlink()
    folder.file("checkpoint.pkl").write_bytes(pickle.dumps({"format": 1, "recipe": "onemax", "generation": 0,
                                                            "state": 1}))
    with pytest.raises(CheckpointError, match="pickle checkpoint of an older evoplay; it is not loaded"):
        folder.load_checkpoint()
    with pytest.raises(CheckpointError, match="not a run folder"):
        RunFolder.open(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match="run.json is missing"):
        RunFolder.open(tmp_path / "empty")
    folder.file("run.json").write_text("{broken")
    with pytest.raises(CheckpointError, match="corrupt"):
        RunFolder.open(tmp_path / "r")
    with pytest.raises(CheckpointError, match="not empty"):
        RunFolder.create(tmp_path / "r", "onemax", {})


def test_atomic_write_leaves_no_temp_files(tmp_path):
    folder = RunFolder.create(tmp_path / "r", "onemax", {"seed": 1})
    for i in range(5):
        folder.save_checkpoint(i, {"i": i})
    assert folder.load_checkpoint() == (4, {"i": 4})
    assert not [n for n in os.listdir(folder.path) if n.startswith(".") and n != ".lock"]


def test_toml_round_trip_and_merge_errors():
    cfg = {"seed": 1, "rate": 0.5, "name": 'a "quoted" name', "flag": True, "list": [1, 2],
           "sel": {"size": 3, "inner": {"x": "y"}}, "pool": [{"spec": "random", "weight": 1.0}]}
    assert parse_toml(dump_toml(cfg), "test") == cfg
    with pytest.raises(ConfigError, match=r"unknown key 'sel.sise' \(did you mean 'sel.size'\?\)"):
        merge(cfg, {"sel": {"sise": 2}}, "user.toml")
    with pytest.raises(ConfigError, match="'rate' must be a number"):
        merge(cfg, {"rate": "fast"}, "user.toml")
    with pytest.raises(ConfigError, match="'seed' must be an integer"):
        merge(cfg, {"seed": 1.5}, "user.toml")
    assert merge(cfg, {"rate": 1}, "u")["rate"] == 1.0
    with pytest.raises(ConfigError, match="not valid TOML"):
        parse_toml("a = = 1", "user.toml")
    assert parse_assignment("sel.size=4") == ("sel.size", 4)
    assert parse_assignment("name=hello") == ("name", "hello")
    with pytest.raises(ConfigError, match="key=value"):
        parse_assignment("novalue")


def test_selection_operators():
    rng = np.random.default_rng(0)
    picks = roulette([0, 0, 10], 50, rng)
    assert set(picks.tolist()) == {2}
    assert len(set(roulette([0, 0, 0], 200, rng).tolist())) == 3
    with pytest.raises(ConfigError, match="non-negative"):
        roulette([-1, 2], 3, rng)
    wins = tournament([1, 5, 3, 9], 200, 4, rng)
    assert np.bincount(wins, minlength=4)[3] > 100
    assert elite([3, 9, 9, 1], 3).tolist() == [1, 2, 0]


def test_config_names_a_shipped_variant():
    from evoplay.evolve.config import load_config, shipped_variants

    assert "run1" in shipped_variants("mancala")
    run1 = load_config("mancala", "run1")
    assert run1 == load_config("mancala", "mancala_run1.toml") and run1["fitness"]["parsimony"] == "none"
    with pytest.raises(ConfigError, match="configs shipped with mancala: .*run1"):
        load_config("mancala", "run3")
