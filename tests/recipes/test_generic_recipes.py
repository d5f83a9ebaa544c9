"""The gp and ga recipes end to end: the CLI on a file game, resume after a stop, exports, tron and sevens."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from evoplay.agents import make_agent
from evoplay.agents.feature_view import FREE_FEATURES
from evoplay.cli import main
from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe

TAKE_AWAY = str(Path(__file__).parent.parent / "agents" / "take_away.py") + ":TakeAway"
SLOW_TAKE_AWAY = TAKE_AWAY.replace(":TakeAway", ":SlowTakeAway")  # a move in a game takes a millisecond
SMALL = ["--generations", "3", "--population", "8", "--set", "report.games=4", "--backend", "serial"]


def run_cli(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("recipe", ["gp", "ga"])
def test_evolve_on_a_file_game_through_the_cli(tmp_path, recipe):
    out = tmp_path / "run"
    text = run_cli("evolve", recipe, "--game", TAKE_AWAY, "--vs", "random", "--vs", "random(seed=3)", *SMALL,
                   "--out", str(out))
    assert "champion" in text and "| random |" in text
    folder = RunFolder.open(out)
    assert folder.config["game"] == TAKE_AWAY
    assert folder.config["fitness"]["opponents"] == ["random", "random(seed=3)"]
    assert len(folder.read_log()) == 3
    doc = json.loads((out / "best.json").read_text())
    assert doc["features"] == ["pile", "pile_mod_4", "one", *FREE_FEATURES]
    assert set(doc["final"]) == {"random", "random(seed=3)"}
    kind = "gp" if recipe == "gp" else "weights"
    agent = make_agent(f"{kind}({out / 'best.json'},ms=0,nodes=200)", TAKE_AWAY)  # a node budget: reproducible
    agent.restart(0, 0)
    chosen = agent.step(agent.game.new_initial_state())
    # the exported player needs only the game file and chooses as the agent does, seeded alike
    exported = run_cli("export", str(out), "--lang", "python").strip()
    spec = importlib.util.spec_from_file_location("exported_player", exported)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    player = module.Player(0, ms=0, nodes=200)
    assert player.choose(module.GAME.new_initial_state()) == chosen


@pytest.mark.parametrize("recipe", ["gp", "ga"])
def test_resume_after_stop_gives_the_same_log_and_best(tmp_path, recipe):
    config = load_config(recipe, None, {"game": TAKE_AWAY, "generations": 4, "population": 6, "report.games": 2,
                                        "fitness.games": 2})
    module = load_recipe(recipe)
    whole = RunFolder.create(tmp_path / "whole", recipe, config)
    run_evolution(module.make(config), whole)
    parts = RunFolder.create(tmp_path / "parts", recipe, config)
    run_evolution(module.make(config), parts, stop_after=2)
    assert not parts.finished
    run_evolution(module.make(config), RunFolder.open(tmp_path / "parts"))

    def strip(log):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in log]
    assert strip(parts.read_log()) == strip(whole.read_log())
    assert parts.read_json("best.json") == whole.read_json("best.json")


def test_lua_export_of_a_built_in_runs_alone_and_a_file_game_without_a_host_cannot_be_checked(tmp_path):
    out = tmp_path / "mnk"
    # an alpha-beta player (a champion the play check ships as uct has no Lua form: test_play_uct)
    run_cli("evolve", "gp", "--game", "mnk(m=3,n=3,k=3)", *SMALL, "--set", "play.uct=never", "--out", str(out))
    lua = run_cli("export", str(out), "--lang", "lua").strip()
    import lupa

    module = lupa.LuaRuntime().execute(Path(lua).read_text())
    assert list(module.levels.values()) == ["best"]
    state = module.GAME.new_game()  # the file carries mnk's rules: it plays alone
    module.GAME.apply(state, 4)
    assert module.choose_move(state) in set(module.GAME.legal_moves(state).values())
    file_run = tmp_path / "file"
    run_cli("evolve", "ga", "--game", TAKE_AWAY, *SMALL, "--out", str(file_run))
    written = Path(run_cli("export", str(file_run), "--lang", "lua").strip()).read_text()
    assert "local GAME = nil" in written  # the player, for a host game that passes its own interface
    result = CliRunner().invoke(main, ["export", str(file_run), "--lang", "lua", "--check", "--positions", "5"])
    assert result.exit_code != 0 and "has no host game to run on" in result.output


@pytest.mark.parametrize("game", ["tron(w=6,h=6)", "sevens"])
def test_evolve_gp_on_tron_and_sevens(tmp_path, game):
    out = tmp_path / "run"
    text = run_cli("evolve", "gp", "--game", game, "--generations", "2", "--population", "4", "--set",
                   "report.games=1", "--set", "fitness.games=1", "--set", "program.base_games=40", "--backend",
                   "serial", "--out", str(out))
    assert "champion" in text
    agent = make_agent(f"gp({out / 'best.json'})", game)
    g = agent.game
    assert agent.n_features == g.num_features() + len(FREE_FEATURES)


def test_bad_configs_say_what_is_wrong():
    module = load_recipe("gp")
    with pytest.raises(ConfigError, match="player.policy"):
        module.make(load_config("gp", None, {"player.policy": "greedy"}))
    with pytest.raises(ConfigError, match="fitness.opponents"):
        module.make(load_config("gp", None, {"fitness.opponents": ["nosuchagent"], "fitness.ladder": []}))
    fixed = module.make(load_config("gp", None, {"fitness.opponents": ["random"]}))
    assert fixed.fitness_spec.opponents == ("random",) and fixed.fitness_spec.ladder == ()  # they replace the ladder
    with pytest.raises(ConfigError, match="fitness.ladder: unknown agent 'nosuchagent'"):
        module.make(load_config("gp", None, {"fitness.ladder": ["random", "nosuchagent"]}))
    with pytest.raises(ConfigError, match="program"):
        module.make(load_config("gp", None, {"program.functions": ["add", "pow"]}))
    with pytest.raises(ConfigError, match="parsimony is for programs"):
        load_recipe("ga").make(load_config("ga", None, {"fitness.parsimony": "seed000"}))


@pytest.mark.parametrize("recipe", ["gp", "ga"])
def test_the_report_measures_the_player_best_json_plays(tmp_path, recipe):
    """One player: the final table is the player ``gp(best.json)`` / ``weights(best.json)`` loads -- here a search
    by iterative deepening within a node budget -- and the report says how it thinks."""
    from evoplay.evolve.fitness import strength

    config = load_config(recipe, None, {"game": "mnk(m=3,n=3,k=3)", "generations": 2, "population": 4,
                                        "minutes": 0.0, "fitness.games": 1, "report.games": 3,
                                        "report.play_games": 0, "report.opponents": ["random"],
                                        "play.ms": 0.0, "play.nodes": 60, "seed": 4})
    folder = RunFolder.create(tmp_path / "run", recipe, config)
    run_evolution(load_recipe(recipe).make(config), folder)
    doc = folder.read_json("best.json")
    assert doc["plays"].startswith("alpha-beta by iterative deepening within 60 nodes a move")
    kind = "gp" if recipe == "gp" else "weights"
    shipped = make_agent(f"{kind}({folder.file('best.json')})", "mnk(m=3,n=3,k=3)")
    assert shipped.describe() == doc["plays"]
    again = strength(shipped.game, shipped, list(doc["final"]), 3, int(config["seed"]) + 7919)
    assert again == doc["final"]
    text = load_recipe(recipe).report(folder)
    assert f"the player, {kind}({folder.file('best.json')}): alpha-beta by iterative deepening" in text


def test_a_time_budget_bounds_the_closing_tables(tmp_path):
    """--minutes is the whole run: the generations stop early enough to leave ``closing`` of it, and the final
    table plays only the rounds that fit in what is left (the first always)."""
    config = load_config("ga", None, {"game": TAKE_AWAY, "minutes": 0.02, "closing": 0.5, "population": 4,
                                      "fitness.games": 1, "report.games": 10000, "report.playoff": 0,
                                      "report.play_games": 0, "play.ms": 5.0})
    folder = RunFolder.create(tmp_path / "run", "ga", config)
    run_evolution(load_recipe("ga").make(config), folder)
    spent = sum(r["seconds"] for r in folder.read_log())
    assert len(folder.read_log()) >= 1
    assert spent < 60 * 0.02 or len(folder.read_log()) == 1  # stopped at the closing share (after the first)
    final = folder.read_json("best.json")["final"]
    assert all(2 <= r["games"] < 20000 for r in final.values())
    with pytest.raises(ConfigError, match="closing"):
        load_recipe("ga").make(load_config("ga", None, {"closing": 0.9}))


def test_the_new_learning_settings_are_checked():
    ga = load_recipe("ga")
    with pytest.raises(ConfigError, match="line_features"):
        ga.make(load_config("ga", None, {"game": "openspiel:tic_tac_toe", "player.line_features": 9}))
    with pytest.raises(ConfigError, match="search_mix"):
        ga.make(load_config("ga", None, {"genome.start": "search", "genome.search_mix": 2.0}))
    with pytest.raises(ConfigError, match="genome.start"):
        ga.make(load_config("ga", None, {"genome.start": "values"}))
    with pytest.raises(ConfigError, match="caps the deepening"):
        ga.make(load_config("ga", None, {"player.depth": 30}))
    assert ga.make(load_config("ga", None, {"player.depth": 30, "player.nodes": 300})).train_budget.nodes == 300
    lined = ga.make(load_config("ga", None, {"game": "openspiel:tic_tac_toe", "player.line_features": 3}))
    assert lined.view.lines == 3 and "line[E,000]" in lined.view.names()
    assert ga.make(load_config("ga", None, {"game": "kalah", "player.line_features": 3})).view.lines == 0  # no board


def test_a_search_started_run_reproduces(tmp_path):
    settings = {"game": "kalah(pits=4,seeds=3)", "genome.start": "search", "genome.start_games": 60,
                "genome.search_games": 8, "genome.search_nodes": 40, "genome.start_rounds": 1, "minutes": 0.0,
                "generations": 2, "population": 6, "fitness.games": 1, "report.games": 1, "report.playoff": 0,
                "report.play_games": 0, "play.ms": 0.0}
    docs = []
    for name in ("a", "b"):
        config = load_config("ga", None, settings)
        folder = RunFolder.create(tmp_path / name, "ga", config)
        run_evolution(load_recipe("ga").make(config), folder)
        docs.append(folder.read_json("best.json"))
    assert docs[0]["weights"] == docs[1]["weights"]


def test_gp_programs_add_to_a_fitted_base_that_the_zero_program_plays_alone(tmp_path):
    from evoplay.agents.feature_player import ProgramScorer

    config = load_config("gp", None, {"game": "openspiel:tic_tac_toe", "minutes": 0.0, "generations": 2,
                                      "population": 6, "fitness.games": 1, "report.games": 1, "report.playoff": 0,
                                      "report.play_games": 0, "program.base_games": 80, "seed": 3})
    evo = load_recipe("gp").make(config)
    folder = RunFolder.create(tmp_path / "run", "gp", config)
    state = run_evolution(evo, folder)
    doc = folder.read_json("best.json")
    assert len(doc["base_weights"]) == len(doc["features"]) and np.array_equal(state["base"], doc["base_weights"])
    agent = make_agent(f"gp({folder.file('best.json')})", "openspiel:tic_tac_toe")
    assert isinstance(agent.scorer, ProgramScorer) and np.array_equal(agent.scorer.base, doc["base_weights"])
    assert "added to" in doc["plays"] or "added to" in agent.describe()
    rows = np.random.default_rng(0).normal(size=(7, len(doc["features"])))
    assert np.allclose(agent.scorer(rows), agent.scorer.reference(rows))
    from evoplay.recipes.export_check import check_export

    results = check_export(folder, ("python",), positions=200, nodes=200, say=lambda *_: None)
    assert results and all(r.equal == r.positions for r in results)  # the export plays the program over its base
    zero = load_recipe("gp").make(config).start(np.random.default_rng(0))["population"][0]
    assert zero.size == 1 and float(zero.consts[0]) == 0.0
    with pytest.raises(ConfigError, match="program.base"):
        load_recipe("gp").make(load_config("gp", None, {"program.base": "fitted"}))


def test_a_kernel_game_that_starts_with_dice_runs_its_play_check(tmp_path):
    """The start compiles the play check's players by a move at the game's first decision: a game whose first
    node is a roll of the dice (no player to move) is rolled to it first, rather than asking a player to move."""
    from evoplay.evolve import RunFolder, load_config, run_evolution
    from evoplay.recipes import load_recipe

    dice = f"{Path(__file__).parents[1] / 'agents' / 'dice_race.py'}:DiceRace(players=2,goal=6)"
    config = load_config("ga", None, {"game": dice, "generations": 1, "population": 4, "fitness.games": 1,
                                      "report.games": 0, "report.playoff": 0, "report.play_games": 1,
                                      "play.ms": 2.0, "genome.start": "zero", "minutes": 0.0})
    folder = RunFolder.create(tmp_path / "run", "ga", config)
    run_evolution(load_recipe("ga").make(config), folder)
    assert set(folder.read_json("best.json")["play_check"]["scores"]) >= {"as trained", "within the play budget"}


@pytest.mark.parametrize("recipe", ["ga", "gp"])
def test_a_game_over_before_anyone_moves_is_refused_clearly(recipe):
    # OpenSpiel accepts parameters that give such a game (checkers(rows=6,columns=6)); a run on it used to
    # "evolve" in seconds and ship a player that never moves
    over = str(Path(__file__).parent.parent / "games" / "broken_games.py") + ":Nim(stones=0)"
    with pytest.raises(ConfigError, match="over before anyone moves"):
        load_recipe(recipe).make(load_config(recipe, None, {"game": over}))
    result = CliRunner().invoke(main, ["evolve", recipe, "--game", over, "--generations", "1"])
    assert result.exit_code == 2 and "over before anyone moves" in result.output


@pytest.mark.parametrize("recipe, game", [("ga", SLOW_TAKE_AWAY), ("gp", SLOW_TAKE_AWAY), ("ga", "openspiel:tic_tac_toe")])
def test_a_first_generation_longer_than_the_budget_is_stopped_and_the_start_ships(tmp_path, recipe, game):
    """--minutes is a promise even when one generation cannot fit in it (backgammon on pyspiel: 224 games of
    seconds each took 8.6 minutes of a 2-minute run): the first generation is stopped at the budget's end, and
    the start ships unevaluated (for CMA-ES its warm start), a player that loads, plays and says what it is."""
    from evoplay.arena import play_game

    # (tic-tac-toe has a board: the run is a race of two settings, the first one's start ships)
    config = load_config(recipe, None, {"game": game, "minutes": 0.0005, "population": 4, "fitness.games": 2,
                                        "report.games": 4, "play.ms": 5.0})
    folder = RunFolder.create(tmp_path / "run", recipe, config)
    evo = load_recipe(recipe).make(config)
    run_evolution(evo, folder)
    assert folder.read_log() == []
    assert "ran out during the first generation" in folder.read_json("finished.json")["stopped"]
    doc = folder.read_json("best.json")
    assert doc["fitness"] is None and "first generation" in doc["unevaluated"] and doc["generation"] == 0
    if recipe == "ga":  # the warm start the cut step fitted, not CMA-ES's zero mean
        assert np.any(np.asarray(doc["weights"]) != 0.0)
    kind = "weights" if recipe == "ga" else "gp"
    agent = make_agent(f"{kind}({folder.file('best.json')})", evo.game)
    assert play_game(evo.game, [agent, make_agent("random", evo.game)], seed=1).is_terminal()
    text = load_recipe(recipe).report(folder)
    assert "the champion is the start, unevaluated" in text and "give more --minutes" in text
