"""--minutes is the whole command: a generation that runs past the time budget is stopped within a game and does
not count; the closing phases stop in time too (evoplay.arena.tournament.games_until)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from evoplay.agents.random_agent import RandomAgent
from evoplay.arena.tournament import games_until, match
from evoplay.errors import TimeBudgetSpent
from evoplay.evolve import RunFolder, run_evolution
from evoplay.evolve.loop import CUT, START, time_left
from evoplay.games import load_game

TAKE_AWAY = str(Path(__file__).parents[1] / "agents" / "take_away.py") + ":TakeAway"


class Slow(RandomAgent):
    """A random player that thinks 20 ms a move."""

    def step(self, state):
        time.sleep(0.02)
        return super().step(state)


class SlowerEachGeneration:
    """Generation 0 plays two quick games; every later one 400 slow games (80 s and more), far past a 1.2 s budget."""

    generations = 5

    def __init__(self):
        self.game = load_game(TAKE_AWAY)
        self.finished_with = None

    def start(self, rng):
        return {"generation": 0}

    def step(self, state, generation, executor):
        make = RandomAgent if generation == 0 else Slow
        games = 2 if generation == 0 else 400
        match(self.game, make(self.game), make(self.game), games, seed=generation, executor=executor)
        return {"generation": generation + 1}, {"best": 0.0}

    def finish(self, state, folder):
        self.finished_with = dict(state)


def test_a_generation_past_the_budget_is_stopped_and_does_not_count(tmp_path):
    evo = SlowerEachGeneration()
    folder = RunFolder.create(tmp_path / "run", "slow", {"seed": 1, "minutes": 0.02, "closing": 0.0})
    start = time.perf_counter()
    run_evolution(evo, folder)
    took = time.perf_counter() - start
    assert took < 40.0  # 400 games of 20 ms moves would take 80 s and more: stopped, not finished
    assert len(folder.read_log()) == 1 and evo.finished_with == {"generation": 1}
    stopped = folder.read_json("finished.json")["stopped"]
    assert "ran out during generation 2" in stopped and "does not count" in stopped
    assert folder.read_json(CUT)["generation"] == 1
    # the start and the stopped generation count
    spent = folder.read_json(START)["seconds"] + folder.read_log()[0]["seconds"] + folder.read_json(CUT)["seconds"]
    assert time_left(folder) == pytest.approx(max(0.0, 1.2 - spent))


class SlowStart(SlowerEachGeneration):
    """A start that takes a second (a warm start, a first compile) before generations of random games."""

    def start(self, rng):
        time.sleep(1.0)
        return {"generation": 0}

    def step(self, state, generation, executor):
        match(self.game, RandomAgent(self.game), RandomAgent(self.game), 2, seed=generation, executor=executor)
        return {"generation": generation + 1}, {"best": 0.0}


def test_the_first_generation_runs_when_the_start_took_the_whole_budget(tmp_path):
    """A cold start (its compiles) can spend the budget: the run still plays generation 0 and ships its best."""
    evo = SlowStart()
    evo.generations = 1000
    folder = RunFolder.create(tmp_path / "run", "slow", {"seed": 1, "minutes": 0.01, "closing": 0.0})
    run_evolution(evo, folder)
    assert folder.read_json(START)["seconds"] >= 0.6 and len(folder.read_log()) == 1
    assert "spent after 1 generations" in folder.read_json("finished.json")["stopped"]


def test_the_start_counts_against_the_budget(tmp_path):
    """A run of 1.2 s whose start took 1 s has 0.2 s left for its generations, on resume too."""
    evo = SlowStart()
    evo.generations = 1000
    folder = RunFolder.create(tmp_path / "run", "slow", {"seed": 1, "minutes": 0.02, "closing": 0.0})
    run_evolution(evo, folder)
    began = folder.read_json(START)["seconds"]
    assert began >= 1.0
    generations = sum(r["seconds"] for r in folder.read_log())
    assert generations < 0.6  # without the start counted they would take the whole 1.2 s
    assert time_left(folder) == pytest.approx(max(0.0, 1.2 - began - generations -
                                                  (folder.read_json(CUT)["seconds"] if folder.file(CUT).exists()
                                                   else 0.0)))


def test_no_game_starts_past_the_deadline_and_the_innermost_wins():
    game = load_game(TAKE_AWAY)
    with pytest.raises(TimeBudgetSpent):
        with games_until(time.time() - 1):
            match(game, RandomAgent(game), RandomAgent(game), 4)
    with games_until(time.time() - 1):
        with pytest.raises(TimeBudgetSpent):
            with games_until(time.time() + 60):  # a later end inside an earlier one keeps the earlier
                match(game, RandomAgent(game), RandomAgent(game), 4)
    with games_until(None):
        assert len(match(game, RandomAgent(game), RandomAgent(game), 4).records) == 4


def test_a_closing_cut_short_ships_the_last_generations_best_unchecked(tmp_path, monkeypatch):
    """The playoff and the play check stopped by the budget: the best of the last generation ships, within the
    play budget, and the report says the check was stopped."""
    from evoplay.evolve import load_config
    from evoplay.recipes import generic, load_recipe

    def out_of_time(*args, **kwargs):
        raise TimeBudgetSpent("the time budget ran out during the games")

    config = load_config("ga", None, {"game": TAKE_AWAY, "generations": 3, "population": 4, "report.games": 0,
                                      "fitness.games": 1, "minutes": 0.0, "report.playoff": 3,
                                      "report.playoff_games": 1, "report.play_games": 1, "play.ms": 1.0,
                                      "genome.start": "zero"})
    evo = load_recipe("ga").make(config)
    folder = RunFolder.create(tmp_path / "run", "ga", config)
    run_evolution(evo, folder, stop_after=3)
    state = folder.load_checkpoint()[1]
    monkeypatch.setattr(generic, "evaluate_population", out_of_time)
    run_evolution(evo, folder)
    best = folder.read_json("best.json")
    last = state["champions"][-1]
    assert best["generation"] == last["generation"] == 2 and best["fitness"] == last["fitness"]
    assert best["playoff"] == generic.STOPPED and best["play"] == {"ms": 1.0}
    assert "it plays within the play budget, unchecked: the play check was stopped" in load_recipe("ga").report(folder)


def test_a_play_check_stopped_after_a_round_decides_by_the_rounds_played(tmp_path, monkeypatch):
    """The check plays a game a seat a round; the budget running out in the second round leaves the first to
    decide, and best.json and the report say it stopped."""
    import numpy as np

    from evoplay.evolve import load_config
    from evoplay.recipes import generic, load_recipe

    config = load_config("ga", None, {"game": TAKE_AWAY, "generations": 2, "population": 4, "report.games": 0,
                                      "fitness.games": 1, "minutes": 0.0, "report.playoff": 0,
                                      "report.play_games": 3, "play.ms": 0.0, "play.nodes": 40,
                                      "genome.start": "zero"})
    real = generic.evaluate_population
    rounds = []

    def one_round_then_out_of_time(game, agents, spec, *args, **kwargs):
        if [a.spec for a in agents][:2] != ["as trained", "within the play budget"]:
            return real(game, agents, spec, *args, **kwargs)
        assert spec.games == 1  # a game a seat a round
        if rounds:
            raise TimeBudgetSpent("the time budget ran out during the games")
        rounds.append(1)
        res = real(game, agents, spec, *args, **kwargs)
        res.fitness = np.array([0.75, 0.25])
        for name in res.by_opponent:
            res.by_opponent[name] = np.array([[2, 0, 0], [0, 0, 2]], dtype=np.int64)  # a lead beyond chance
        return res

    monkeypatch.setattr(generic, "evaluate_population", one_round_then_out_of_time)
    folder = RunFolder.create(tmp_path / "run", "ga", config)
    run_evolution(load_recipe("ga").make(config), folder)
    check = folder.read_json("best.json")["play_check"]
    assert check["scores"] == {"as trained": 0.75, "within the play budget": 0.25}
    assert check["shipped"] == "as trained" and check["rounds"] == 1
    assert check["stopped"] == "after 1 of 3 rounds by the time budget"
    assert "(stopped after 1 of 3 rounds by the time budget)" in load_recipe("ga").report(folder)


def test_the_loop_keeps_what_the_closing_says_it_needs(tmp_path):
    """A recipe's closing_seconds (the play check's rounds at play.ms a move) stops evolution early enough, at
    most half the budget; the ga recipe estimates it from the games' length, the rungs and the workers."""
    from evoplay.evolve import load_config
    from evoplay.recipes import load_recipe

    class Reserving(SlowerEachGeneration):
        def step(self, state, generation, executor):
            time.sleep(0.3)
            return {"generation": state["generation"] + 1}, {"best": 0.0}

        def closing_seconds(self, state, workers):
            return 0.45 if state["generation"] else 0.0  # of a 1.8 s budget: four 0.3 s generations fit, not five

    evo = Reserving()
    folder = RunFolder.create(tmp_path / "run", "slow", {"seed": 1, "minutes": 0.03, "closing": 0.0})
    run_evolution(evo, folder)
    assert len(folder.read_log()) == 4 and "was spent after 4" in folder.read_json("finished.json")["stopped"]
    Reserving.closing_seconds = lambda self, state, workers: 60.0  # more than all: half the budget is kept
    folder = RunFolder.create(tmp_path / "half", "slow", {"seed": 1, "minutes": 0.03, "closing": 0.0})
    run_evolution(Reserving(), folder)
    assert len(folder.read_log()) == 2

    config = load_config("ga", None, {"game": TAKE_AWAY, "play.ms": 100.0, "play.uct": "never"})
    ga = load_recipe("ga").make(config)
    state = {"plies": 20.0, "ladder": 0}
    assert ga.check_spec(state, 1).opponents == ("uct(ms=100,clock=wall)",)  # MCTS within the same time
    # the deepening candidate meets it (a game a seat: 20 of its moves, 20 of MCTS's), MCTS meets the champion as
    # trained (20 of MCTS's moves), and the two candidates meet (20 of deepening's): 80 moves of 0.1 s on 2
    # workers, two rounds in the check's 70 % of what the playoff's 25 % leaves
    assert ga.closing_seconds(state, 2) == pytest.approx(2 * 80 * 0.1 / 2 / (0.75 * 0.7))
    assert ga.closing_seconds({"ladder": 0}, 2) == 0.0  # no game played yet
    assert load_recipe("ga").make({**config, "play": {"ms": 0.0, "nodes": 50}}).closing_seconds(state, 2) == 0.0


def test_a_check_the_time_left_cannot_afford_plays_every_player_at_a_smaller_time(tmp_path):
    """Long games and little time: the candidates and MCTS all think the time a round can afford (at least
    MIN_CHECK_MS), the result says so, and what ships keeps play.ms."""
    from evoplay.evolve import load_config
    from evoplay.recipes import generic, load_recipe

    config = load_config("ga", None, {"game": TAKE_AWAY, "generations": 2, "population": 4, "report.games": 0,
                                      "fitness.games": 1, "minutes": 0.0, "report.play_games": 1,
                                      "play.ms": 40.0, "play.uct": "always", "genome.start": "zero"})
    evo = load_recipe("ga").make(config)
    folder = RunFolder.create(tmp_path / "run", "ga", config)
    run_evolution(evo, folder, stop_after=2)
    state = folder.load_checkpoint()[1]
    evo.use_view(state)
    individual = state["best"]["individual"]
    doc = {**evo.document(individual), **evo.view.document(), "play": dict(evo.play)}
    state["plies"] = 1000.0  # games that long: a round at 40 ms a move would take minutes
    check = evo.play_check(individual, doc, state, None, seconds=1.0)
    assert check["ms"] == generic.MIN_CHECK_MS and check["against"] == ["uct(ms=5,clock=wall)"]
    assert set(check["scores"]) == {"as trained", "within the play budget", "uct within the play budget"}
    assert check["uct"]["ms"] == 40.0 and doc["play"]["ms"] == 40.0  # what ships thinks the play budget
    state["plies"] = 4.0  # short games: a round fits, the check plays at play.ms
    check = evo.play_check(individual, doc, state, None, seconds=60.0)
    assert "ms" not in check and check["against"] == ["uct(ms=40,clock=wall)"]


def test_a_new_runs_start_counts_from_when_the_command_began(tmp_path):
    """Making the evolution before the loop (it compiles the ladder opponents' searches: a minute on a fresh
    install) is spent budget: the start counts from ``began``; a resume counts from its own start."""
    evo = SlowStart()
    evo.generations = 1
    folder = RunFolder.create(tmp_path / "run", "slow", {"seed": 1, "minutes": 1.0, "closing": 0.0})
    run_evolution(evo, folder, began=time.time() - 5.0)
    assert 6.0 <= folder.read_json(START)["seconds"] < 60.0  # the 5 s before the loop and the start's 1 s


def test_evolve_counts_making_its_evolution_in_the_start(tmp_path, monkeypatch):
    """``evoplay evolve`` begins the run's clock when the command begins, before it makes (and compiles) the
    evolution it validates the config with."""
    from click.testing import CliRunner

    from evoplay.cli import main
    from evoplay.recipes import ga

    real = ga.make

    def slow_make(config, **options):
        time.sleep(0.5)
        return real(config, **options)
    monkeypatch.setattr(ga, "make", slow_make)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["evolve", "ga", "--game", TAKE_AWAY, "--minutes", "0.2", "--population", "4",
                                       "--set", "report.games=0", "--set", "report.play_games=0", "--backend",
                                       "serial", "--out", str(out)])
    assert result.exit_code == 0, result.output
    # two makes (the config's check, then the run's) before the start
    assert RunFolder.open(out).read_json(START)["seconds"] >= 1.0
