"""Fixtures of the serve tests: a runs folder holding one finished Kalah GP run, and the app over it."""
from __future__ import annotations

import json

import pytest


def make_mancala_run(root, name: str = "mancala-1", generations: int = 3, finished: bool = True):
    """A run folder as ``evoplay evolve mancala`` leaves it: config, log, best.json (seed 003's published run-1
    program), a plot and the exports; written through RunFolder."""
    from evoplay import gp
    from evoplay.games.kalah.program_player import program_document
    from evoplay.evolve import RunFolder, load_config
    from evoplay.evolve.plots import plot_log
    from evoplay.recipes import mancala

    config = load_config("mancala", None, {"generations": 10, "population": 8})
    folder = RunFolder.create(root / name, "mancala", config)
    for g in range(generations):
        folder.log({"generation": g, "best": 30.0 + g, "mean": 20.0 + g, "worst": 5.0, "mean_size": 12.0 + g,
                    "max_size": 30 + g, "seconds": 0.1})
    if finished:
        program = mancala.seed_programs()["seed run 1"]
        pset = gp.seed003_primitive_set()
        doc = program_document(program, pset, "kalah", policy="kalah_pit", recipe="mancala", fitness=33.0,
                               generation=2, score_first=30, score_second=25, minimax_depth=4,
                               simplified=gp.to_notation(program, pset), simplified_size=program.size)
        folder.write_json("best.json", doc)
        plot_log(folder)
        folder.write_json("finished.json", {"generations": generations})
    return folder


@pytest.fixture(scope="session")
def template_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("template") / "runs"
    root.mkdir()
    make_mancala_run(root)
    return root


@pytest.fixture
def runs_root(tmp_path, template_runs):
    """A fresh copy of the template runs folder for each test (drawing the plots once is the slow part)."""
    import shutil

    root = tmp_path / "runs"
    shutil.copytree(template_runs, root)
    return root


@pytest.fixture
def client(runs_root):
    from starlette.testclient import TestClient

    from evoplay.serve.app import make_app

    with TestClient(make_app(runs_root)) as c:
        yield c


def record_line(generation: int) -> str:
    return json.dumps({"generation": generation, "best": 40.0 + generation, "mean": 25.0, "worst": 4.0,
                       "mean_size": 15.0, "max_size": 33, "seconds": 0.1}) + "\n"
