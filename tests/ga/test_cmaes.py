"""CMA-ES for real-valued genomes (evoplay.ga.cmaes, pycma): a known optimum, seeding, replay, and the ga
recipe's real genome resumed after a stop."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("cma")

from evoplay.errors import ConfigError  # noqa: E402
from evoplay.evolve import RunFolder, load_config, run_evolution  # noqa: E402
from evoplay.ga.cmaes import CmaSearch  # noqa: E402
from evoplay.recipes import load_recipe  # noqa: E402

TAKE_AWAY = str(Path(__file__).parents[1] / "agents" / "take_away.py") + ":TakeAway"


def test_cma_es_finds_the_minimum_of_a_shifted_ellipsoid():
    optimum = np.array([1.5, -2.0, 0.5, 3.0, -1.0])
    scale = np.array([1.0, 3.0, 10.0, 1.0, 30.0])
    search = CmaSearch(5, 1.0, 10, seed=7)
    for _ in range(200):
        xs = search.ask()
        loss = (((xs - optimum) * scale) ** 2).sum(axis=1)
        search.tell(xs, -loss)  # higher is better
    assert np.allclose(search.mean, optimum, atol=1e-3)


def test_the_same_seed_gives_the_same_search_and_replay_rebuilds_it():
    def run(seed, generations=6):
        s = CmaSearch(4, 0.5, 8, seed)
        for _ in range(generations):
            xs = s.ask()
            s.tell(xs, -np.abs(xs).sum(axis=1))
        return s

    a, b, c = run(3), run(3), run(4)
    assert np.array_equal(a.ask(), b.ask()) and not np.array_equal(a.ask(), c.ask())
    replayed = CmaSearch.replay(4, 0.5, 8, 3, a.history)
    assert np.array_equal(replayed.ask(), a.ask()) and replayed.step_size == a.step_size
    with pytest.raises(ValueError, match="unchanged"):
        replayed.tell(replayed.ask() + 1.0, np.zeros(8))
    with pytest.raises(ConfigError, match="at least 4"):
        CmaSearch(4, 0.5, 3, 0)


def test_a_real_genome_run_resumed_after_a_stop_ends_as_one_without(tmp_path):
    # a node budget a move (not play.ms): a search within a time plays by the machine's speed, and so would the
    # play check's choice
    config = load_config("ga", None, {"game": TAKE_AWAY, "generations": 4, "population": 6, "report.games": 2,
                                      "fitness.games": 2, "minutes": 0.0, "report.playoff": 3,
                                      "report.playoff_games": 2, "play.ms": 0.0, "play.nodes": 60})
    module = load_recipe("ga")
    whole = RunFolder.create(tmp_path / "whole", "ga", config)
    run_evolution(module.make(config), whole)
    parts = RunFolder.create(tmp_path / "parts", "ga", config)
    run_evolution(module.make(config), parts, stop_after=2)
    run_evolution(module.make(config), RunFolder.open(tmp_path / "parts"))  # a new process: replays the history

    def strip(log):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in log]
    assert strip(parts.read_log()) == strip(whole.read_log())
    best = whole.read_json("best.json")
    assert parts.read_json("best.json") == best
    assert len(best["weights"]) == len(best["features"]) and "playoff" in best
    # the playoff also weighs CMA-ES's mean and the warm start, so a run never ships worse than where it began
    assert {"mean", "start"} <= set(best["playoff"]) and len(best["playoff"]) == 5


def test_from_a_warm_start_the_step_size_is_relative_to_the_fitted_weights():
    config = load_config("ga", None, {"game": TAKE_AWAY, "population": 6})
    evolution = load_recipe("ga").make(config)
    n, sigma, popsize, seed = evolution.cma_args
    x0 = np.full(n, 0.02)
    x0[0] = -0.04
    scaled = evolution.search_args({"cma_x0": x0})[1]
    assert scaled == pytest.approx(sigma * np.sqrt(np.mean(x0 ** 2)))
    assert evolution.search_args({})[1] == sigma  # from zero weights: sigma itself


def test_a_time_budget_stops_the_run_and_says_why(tmp_path):
    config = load_config("gp", None, {"game": TAKE_AWAY, "generations": 50, "population": 6, "report.games": 2,
                                      "fitness.games": 1, "minutes": 1e-4})
    folder = RunFolder.create(tmp_path / "run", "gp", config)
    run_evolution(load_recipe("gp").make(config), folder)
    finished = folder.read_json("finished.json")
    assert finished["generations"] == len(folder.read_log()) < 50
    assert "time budget" in finished["stopped"]


def _play_check_run(tmp_path, name):
    config = load_config("ga", None, {"game": TAKE_AWAY, "generations": 2, "population": 6, "report.games": 0,
                                      "fitness.games": 2, "minutes": 0.0, "report.playoff": 2,
                                      "report.playoff_games": 1, "report.play_games": 2, "play.ms": 0.0,
                                      "play.nodes": 60})
    folder = RunFolder.create(tmp_path / name, "ga", config)
    run_evolution(load_recipe("ga").make(config), folder)
    return folder


def test_the_play_check_ships_deepening_or_the_trained_search_by_what_scored_better(tmp_path, monkeypatch):
    from evoplay.agents import make_agent
    from evoplay.games import load_game
    from evoplay.recipes import generic

    game = load_game(TAKE_AWAY)
    folder = _play_check_run(tmp_path, "measured")
    best = folder.read_json("best.json")
    check = best["play_check"]
    assert set(check["scores"]) == {"as trained", "within the play budget"}
    # the search unless the trained player won clearly more against the yardstick (the top rungs: a plain-Python game
    # has no MCTS here)
    labels = list(check["scores"])
    games = np.array([[sum(x) for x in zip(*check["wdl"][label].values())] for label in labels], dtype=float)
    played = games.sum(axis=1)
    better = generic.ship_label(labels, (games[:, 0] + 0.5 * games[:, 1]) / np.maximum(played, 1), played,
                                np.array([check["scores"][label] for label in labels]))
    assert check["shipped"] == better
    agent = make_agent(f"weights({folder.file('best.json')})", game)
    assert (agent.budget is not None) == (better == "within the play budget") == ("play" in best)

    # when the evaluation plays better as trained, that is what ships: no play budget in best.json
    real = generic.evaluate_population

    def trained_wins(game_, agents, spec, *args, **kwargs):
        res = real(game_, agents, spec, *args, **kwargs)
        if [a.spec for a in agents] == ["as trained", "within the play budget"]:
            res.fitness = np.array([1.0, 0.0])
            for name in res.by_opponent:
                res.by_opponent[name] = np.array([[2, 0, 0], [0, 0, 2]], dtype=np.int64)
        return res
    monkeypatch.setattr(generic, "evaluate_population", trained_wins)
    folder = _play_check_run(tmp_path, "trained")
    best = folder.read_json("best.json")
    assert best["play_check"]["shipped"] == "as trained" and "play" not in best
    assert make_agent(f"weights({folder.file('best.json')})", game).budget is None
    assert "it plays as trained; the play check scored as trained 1" in load_recipe("ga").report(folder)


def test_a_negative_play_check_is_refused():
    with pytest.raises(ConfigError, match="report.play_games"):
        load_recipe("ga").make(load_config("ga", None, {"game": TAKE_AWAY, "report.play_games": -1}))
