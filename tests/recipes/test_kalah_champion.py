"""The kalah_champion config of the mnk recipe: Kalah genomes searched within a node budget, and the shipped
champion it produced."""
import json
from importlib import resources

import pytest

from evoplay.games.kalah import deepening as kd
from evoplay.agents import make_agent
from evoplay.arena.executors import SerialExecutor
from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.games import load_game
from evoplay.recipes import mnk as M


def _small(config: dict) -> dict:
    config = dict(config, generations=1, population=3)
    config["fitness"] = dict(config["fitness"], hosts=["alphabeta(depth=2,random_ties=true)"], host_games=2)
    config["baselines"] = dict(config["baselines"], agents=["random"], games=2, final_games=2)
    config["search"] = dict(config["search"], nodes=500)
    return config


def test_the_shipped_champion_is_the_configs_player():
    config = load_config("mnk", "kalah_champion")
    doc = json.loads(resources.files("evoplay.games.kalah").joinpath("champion.json").read_text())
    assert doc["game"] == config["game"] == "kalah(empty_capture=false)"
    assert doc["nodes"] == config["search"]["nodes"]
    assert [f["name"] for f in doc["schema"]] == [f["name"] for f in config["genome"]["fields"]]
    agent = make_agent("champion", load_game(config["game"]))
    assert agent.nodes_budget == config["search"]["nodes"] and agent.record == doc["params"]


def test_a_node_budget_run_writes_it_and_its_best_searches_within_it(tmp_path):
    config = _small(load_config("mnk", "kalah_champion"))
    folder = RunFolder.create(tmp_path / "r", "mnk", config)
    run_evolution(M.make(config), folder, SerialExecutor())
    best = json.loads((tmp_path / "r" / "best.json").read_text())
    assert best["nodes"] == 500
    game = load_game(config["game"])
    agent = make_agent(f"weights({tmp_path / 'r' / 'best.json'})", game)
    state = game.new_initial_state(0)
    weights = [best["params"].get(f, 0) for f in ("store", "seeds", "empty", "extra", "capture")]
    assert agent.step(state) == kd.search(state._board, 0, 6, False, weights, 500)[0]


def test_a_node_budget_on_mnk_is_a_config_error():
    config = load_config("mnk", overrides={"search.nodes": 1000})
    with pytest.raises(ConfigError, match="node budget is for Kalah"):
        M.make(config)
