"""Racing pair features (evoplay.recipes.race): both settings evolve, a playoff picks one, the winner runs on."""
from __future__ import annotations

from pathlib import Path

import pytest

from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe
from evoplay.recipes.ga import GAEvolution
from evoplay.recipes.race import ARMS, Race

pytest.importorskip("pyspiel")

TAKE_AWAY = str(Path(__file__).parent.parent / "agents" / "take_away.py") + ":TakeAway"
SMALL = {"game": "openspiel:tic_tac_toe", "generations": 6, "minutes": 0.0, "population": 6, "report.games": 1,
         "fitness.games": 1, "report.playoff_games": 1, "report.play_games": 0, "genome.start_games": 40,
         "player.pair_race": 0.25}


def config(**extra):
    return load_config("ga", None, {**SMALL, **extra})


def strip(log):
    """The records without what the clock says (the race's seconds included)."""
    def timeless(v):
        return {k: timeless(x) for k, x in v.items() if k != "seconds"} if isinstance(v, dict) else v
    return [timeless(r) for r in log]


def test_a_race_alternates_the_settings_then_runs_the_winner(tmp_path):
    evo = load_recipe("ga").make(config())
    assert isinstance(evo, Race) and [a.pair_features for a in evo.arms] == [False, True]
    folder = RunFolder.create(tmp_path / "run", "ga", config())
    run_evolution(evo, folder)
    log = folder.read_log()
    # a quarter of six generations each, by generations (no time limit): two turns each, then the playoff
    assert [r["setting"] for r in log[:4]] == [ARMS[0], ARMS[1], ARMS[0], ARMS[1]]
    decided = [r["race"] for r in log if "race" in r]
    assert len(decided) == 1 and "race" in log[4]
    winner = decided[0]["winner"]
    assert {r["setting"] for r in log[4:]} == {winner}
    assert set(decided[0]["playoff"]) == {f"{arm}: {label}" for arm in ARMS for label in ("last best", "mean")}
    doc = folder.read_json("best.json")
    assert doc["race"] == decided[0]
    assert bool(doc.get("pair_features")) == (winner == ARMS[1])
    assert f"it evolved {winner}, the winner of the race after 2 and 2 generations" in load_recipe("ga").report(folder)


def test_the_first_setting_plays_as_a_run_without_the_race(tmp_path):
    raced = RunFolder.create(tmp_path / "raced", "ga", config())
    run_evolution(load_recipe("ga").make(config()), raced, stop_after=4)
    plain = RunFolder.create(tmp_path / "plain", "ga", config(**{"player.pair_race": 0.0}))
    run_evolution(load_recipe("ga").make(config(**{"player.pair_race": 0.0})), plain, stop_after=2)
    first = [{k: v for k, v in r.items() if k not in ("generation", "setting")}
             for r in strip(raced.read_log()) if r["setting"] == ARMS[0]]
    assert first == [{k: v for k, v in r.items() if k != "generation"} for r in strip(plain.read_log())]


def test_a_race_resumed_after_a_kill_gives_the_same_log_and_champion(tmp_path):
    whole = RunFolder.create(tmp_path / "whole", "ga", config())
    run_evolution(load_recipe("ga").make(config()), whole)
    parts = RunFolder.create(tmp_path / "parts", "ga", config())
    run_evolution(load_recipe("ga").make(config()), parts, stop_after=3)  # inside the race
    run_evolution(load_recipe("ga").make(config()), RunFolder.open(tmp_path / "parts"), stop_after=2)
    run_evolution(load_recipe("ga").make(config()), RunFolder.open(tmp_path / "parts"))
    assert strip(parts.read_log()) == strip(whole.read_log())
    assert strip([parts.read_json("best.json")]) == strip([whole.read_json("best.json")])


def test_a_run_folder_from_before_the_race_resumes_as_it_started(tmp_path):
    old = config()
    del old["player"]["pair_race"]  # written by an evoplay without the race: its default now races
    folder = RunFolder.create(tmp_path / "old", "ga", old)
    run_evolution(GAEvolution(config(**{"player.pair_race": 0.0})), folder, stop_after=2)
    evo = load_recipe("ga").make(RunFolder.open(tmp_path / "old").config)
    assert isinstance(evo, Race)
    run_evolution(evo, RunFolder.open(tmp_path / "old"))
    log = folder.read_log()
    assert len(log) == 6 and not any("setting" in r for r in log)
    doc = folder.read_json("best.json")
    assert "race" not in doc and "pair_features" not in doc


def test_a_run_that_ends_inside_the_race_decides_at_its_finish(tmp_path):
    cfg = config(generations=3)  # a quarter of three is one each; the third generation would start the winner
    folder = RunFolder.create(tmp_path / "run", "ga", config(generations=2))
    run_evolution(load_recipe("ga").make(config(generations=2)), folder)
    assert not any("race" in r for r in folder.read_log())
    doc = folder.read_json("best.json")
    assert doc["race"]["winner"] in ARMS and doc["race"]["steps"] == [1, 1]
    assert load_recipe("ga").make(cfg).generations == 3


def test_the_ga_default_races_on_a_board():
    evo = load_recipe("ga").make(load_config("ga", None, {"game": "openspiel:tic_tac_toe"}))
    assert isinstance(evo, Race) and evo.share == 0.2


def test_nothing_is_raced_without_a_board_or_with_pair_features_on():
    assert isinstance(load_recipe("ga").make(load_config("ga", None, {**SMALL, "game": TAKE_AWAY})), GAEvolution)
    assert isinstance(load_recipe("ga").make(config(**{"player.pair_features": True})), GAEvolution)
    assert isinstance(load_recipe("ga").make(config(**{"player.pair_race": 0.0})), GAEvolution)
    assert isinstance(load_recipe("gp").make(load_config("gp", None, {"game": "openspiel:tic_tac_toe",
                                                                      "player.pair_race": 0.2})), Race)


@pytest.mark.parametrize("share", [-0.1, 0.6])
def test_a_share_out_of_range_is_refused_with_the_range(share):
    with pytest.raises(ConfigError, match=r"player.pair_race = .*0\.\.0\.5"):
        load_recipe("ga").make(config(**{"player.pair_race": share}))


def test_a_gp_race_gives_the_paired_setting_pair_terminals_and_a_base_fitted_over_them(tmp_path):
    cfg = load_config("gp", None, {"game": "openspiel:tic_tac_toe", "generations": 4, "minutes": 0.0,
                                   "population": 4, "report.games": 1, "fitness.games": 1,
                                   "report.playoff_games": 1, "report.play_games": 0, "program.base_games": 40,
                                   "player.pair_race": 0.25})
    evo = load_recipe("gp").make(cfg)
    assert isinstance(evo, Race)
    def reads(arm):  # the names of the features the programs' terminals read
        return {arm.view.names()[t.index] for t in arm.pset.terminals if t.kind == "feature"}

    # the programs of the second setting read the pair counts, the first's only the game's features
    assert [any(name.startswith("pair[") for name in reads(arm)) for arm in evo.arms] == [False, True]
    assert reads(evo.arms[1]) == set(evo.arms[1].view.names())
    folder = RunFolder.create(tmp_path / "run", "gp", cfg)
    state = run_evolution(evo, folder)
    # each setting fits its own base, over its own features: the second one's weighs the pair counts too
    assert [len(arm["base"]) for arm in state["arms"]] == [len(arm.view) for arm in evo.arms]
    assert len(evo.arms[1].view) > len(evo.arms[0].view)
    doc = folder.read_json("best.json")
    winner = ARMS.index(doc["race"]["winner"])
    assert doc["features"] == evo.arms[winner].view.names() and len(doc["base_weights"]) == len(doc["features"])
    from evoplay.agents import make_agent

    make_agent(f"gp({folder.file('best.json')})", "openspiel:tic_tac_toe")  # the winner's setting plays
