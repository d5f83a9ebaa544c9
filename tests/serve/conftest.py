"""Fixtures of the serve tests: a runs folder holding one finished Kalah GP run, and the app over it."""
from __future__ import annotations

import json
from pathlib import Path

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


HEXAPAWN = Path(__file__).resolve().parents[2] / "examples" / "hexapawn.py"


def evolve_run(root, recipe: str, name: str, game: str, **overrides):
    """A real run of the gp or ga recipe, as small as it goes (two generations of four, one game a pairing), run to
    the end in this process: its best.json, report and finish mark are what ``evoplay evolve`` writes."""
    from evoplay.evolve import RunFolder, load_config, run_evolution
    from evoplay.recipes import load_recipe

    values = {"game": game, "generations": 2, "population": 4, "fitness.games": 1, "report.games": 1, **overrides}
    if recipe == "ga":
        values.setdefault("genome.start_games", 20)
    config = load_config(recipe, None, values)
    folder = RunFolder.create(root / name, recipe, config)
    run_evolution(load_recipe(recipe).make(config), folder)
    return folder


def make_mnk_run(root, name: str, variant: str | None = None):
    """A finished run of the mnk recipe (seed 001's GA; variant "kalah": Kalah): best.json is a seeded genome of
    the recipe's schema, written by ``weights_document`` with the recipe's search settings, and a log of two
    rounds."""
    import numpy as np

    from evoplay.agents.weights import weights_document
    from evoplay.evolve import RunFolder, load_config
    from evoplay.recipes.mnk import make

    config = load_config("mnk", variant, {"generations": 2, "population": 4})
    folder = RunFolder.create(root / name, "mnk", config)
    for g in range(2):
        folder.log({"generation": g, "best": 10 + g, "mean": 2.0, "worst": -8, "games": 12, "draw_share": 0.25,
                    "seconds": 0.2})
    evo = make(config)
    s = evo.config["search"]
    genome = evo.schema.random(1, np.random.default_rng(0))[0]
    folder.write_json("best.json", weights_document(evo.game, evo.schema, genome, schedule=s["schedule"],
                                                    streaks=s["streaks"], depth=s["depth"], nodes=s.get("nodes", 0),
                                                    round=1, fitness=11, recipe="mnk", seed=0))
    folder.write_json("finished.json", {"generations": 2, "stopped": "2 generations run"})
    return folder


def make_sevens_run(root, name: str, players: int = 3):
    """A finished run of the sevens recipe with its difficulty levels: best.json and levels.json are specimens
    of the levels evoplay ships, written as the recipe writes them."""
    from evoplay.evolve import RunFolder, load_config
    from evoplay.games.sevens.agents import level_specimen, load_levels

    config = load_config("sevens", None, {"generations": 2, "population": 8, "game.players": players})
    folder = RunFolder.create(root / name, "sevens", config)
    for g in range(2):
        folder.log({"generation": g, "best": 0.4, "best_win_ratio": 0.4, "best_size": 8, "mean": 0.3,
                    "seconds": 0.3})
    folder.write_json("best.json", level_specimen("medium").to_dict())
    folder.write_json("levels.json", {k: v for k, v in load_levels().items() if k in ("easy", "medium")})
    folder.write_json("finished.json", {"generations": 2, "stopped": "2 generations run"})
    return folder


#: a game file of two players taking 1 to 3 stones from 10 (who takes the last wins), its view named VIEW
PILE_FILE = '''
from evoplay.games import TERMINAL, Game, State


class Pile(Game):
    """Two players take 1 to 3 stones in turn from a pile of 10; who takes the last wins."""

    name = "pile"
    view = VIEW

    def new_initial_state(self, seed=None):
        return PileState(self, 10, 0)

    def num_distinct_actions(self):
        return 3


class PileState(State):
    def __init__(self, game, stones, player):
        self.game, self.stones, self.player = game, stones, player

    def current_player(self):
        return TERMINAL if self.stones == 0 else self.player

    def _legal_actions(self):
        return [a for a in range(3) if a < self.stones]

    def _apply_action(self, a):
        self.stones, self.player = self.stones - a - 1, 1 - self.player

    def returns(self):
        return [0.0, 0.0] if self.stones else [-1.0 if p == self.player else 1.0 for p in range(2)]

    def clone(self):
        return PileState(self.game, self.stones, self.player)

    def view_fields(self, player):
        return {"stones": self.stones, "text": str(self.stones)}

    def __str__(self):
        return f"{self.stones} stones"
'''


def write_pile(folder, view: str, script: str | None = None, style: str | None = None):
    """A game file ``folder``/pile.py (the class ``Pile``) whose ``view`` is ``view``, with the drawing of its own
    ``script`` (view.js) and ``style`` (view.css) beside it where given."""
    folder.mkdir(parents=True)
    (folder / "pile.py").write_text(PILE_FILE.replace("VIEW", repr(view)), encoding="utf-8")
    for name, text in (("view.js", script), ("view.css", style)):
        if text is not None:
            (folder / name).write_text(text, encoding="utf-8")
