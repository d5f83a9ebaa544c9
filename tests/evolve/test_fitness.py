"""Fitness composition: outcomes, points, schedules, parsimony, hall of fame, executor independence."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evoplay.agents import make_agent
from evoplay.agents.feature_player import program_agent
from evoplay.arena.executors import ProcessExecutor, SerialExecutor
from evoplay.errors import ConfigError
from evoplay.evolve.fitness import (
    DRAW, LOSS, WIN, FitnessSpec, evaluate_population, outcome, points, schedule,
)
from evoplay.games import load_game
from evoplay.gp.primitives import ABS, FEATURE, NEG
from evoplay.gp.program import Program

TAKE_AWAY = str(Path(__file__).parent.parent / "agents" / "take_away.py") + ":TakeAway"
PERFECT = Program([NEG, ABS, FEATURE], [0, 0, 1], [0.0, 0.0, 0.0])
WORST = Program([ABS, FEATURE], [0, 1], [0.0, 0.0])  # leaves the opponent a winning pile whenever it can


def test_outcomes_two_and_more_players():
    assert outcome([1.0, -1.0], 0) == WIN and outcome([1.0, -1.0], 1) == LOSS
    assert outcome([0.0, 0.0], 1) == DRAW
    assert outcome([3.0, 1.0, 3.0], 0) == DRAW  # a shared top return
    assert outcome([3.0, 1.0, 2.0], 2) == LOSS
    assert outcome([0.0, 5.0, 2.0], 1) == WIN


def test_points_seed001_weights_and_margin():
    seed001 = FitnessSpec(win=5, draw=1, loss=-4)
    assert [points(seed001, r, [0, 0], 0) for r in ([1, -1], [0, 0], [-1, 1])] == [5, 1, -4]
    margin = FitnessSpec(scoring="margin")
    assert points(margin, [1, -1], [30.0, 18.0], 0) == 12.0
    assert points(margin, [1, -1, -1], [5.0, 9.0, 2.0], 0) == -4.0  # own minus the best other


def test_schedule_has_every_seat_for_every_opponent_and_distinct_keys():
    spec = FitnessSpec(opponents=("random", "random"), games=3, hall_games=2, round_robin=1)
    pairings = schedule(spec, 4, 3, generation=7, opponent_slots=[[4, 5], [6, 7]], hall_slots=[[8, 9]])
    fixed = [p for p in pairings if p.key[1] == 1]
    assert len(fixed) == 4 * 2 * 3  # candidates x opponents x seats
    assert {p.seats.index(0) for p in fixed if 0 in p.seats} == {0, 1, 2}
    assert all(p.games == 3 for p in fixed)
    assert len([p for p in pairings if p.key[1] == 2]) == 4 * 3
    assert len([p for p in pairings if p.key[1] == 3]) == 4 * 3
    keys = [p.key for p in pairings]
    assert len(set(keys)) == len(keys) and all(k[0] == 7 for k in keys)


def test_config_errors_are_clear():
    game3 = load_game("sevens(players=3)")
    with pytest.raises(ConfigError, match="round_robin is for two-player games"):
        FitnessSpec.from_config({"round_robin": 2}, game3)
    with pytest.raises(ConfigError, match="scoring"):
        FitnessSpec.from_config({"scoring": "elo"})
    with pytest.raises(ConfigError, match="unknown key"):
        FitnessSpec.from_config({"gamez": 3})
    with pytest.raises(ConfigError, match="plays no games"):
        FitnessSpec.from_config({"opponents": []})


def test_fitness_ranks_the_perfect_player_first():
    game = load_game(TAKE_AWAY)
    agents = [program_agent(game, WORST), program_agent(game, PERFECT)]
    spec = FitnessSpec(("random",), games=10, win=5, draw=1, loss=-4)
    res = evaluate_population(game, agents, spec, seed=1, generation=0)
    assert res.games.tolist() == [20, 20]
    assert res.fitness[1] > res.fitness[0]
    assert res.wins[1] >= 18
    assert res.by_opponent["random"][1].sum() == 20
    # fitness is the mean of the points: 5 per win, -4 per loss
    assert res.score[1] == pytest.approx((5 * res.wins[1] - 4 * res.losses[1]) / 20)


def test_round_robin_and_hall_of_fame_count_their_games():
    game = load_game(TAKE_AWAY)
    agents = [program_agent(game, WORST), program_agent(game, PERFECT), program_agent(game, WORST)]
    spec = FitnessSpec((), games=0, hall_of_fame=1, hall_games=2, round_robin=1)
    res = evaluate_population(game, agents, spec, seed=1, generation=0, hall=[program_agent(game, PERFECT)])
    # hall: 2 seats x 2 games; round robin: 2 others x 2 seats (as first and as second in each ordered pair)
    assert res.games.tolist() == [8, 8, 8]
    assert res.by_opponent["round robin"][1].tolist() == [4, 0, 0]
    assert res.fitness[1] == res.fitness.max()


def test_parsimony_seed000_and_seed003():
    game = load_game(TAKE_AWAY)
    agents = [program_agent(game, PERFECT), program_agent(game, PERFECT)]
    base = evaluate_population(game, agents, FitnessSpec(("random",), games=2), 0, 0, sizes=[3, 3])
    s0 = evaluate_population(game, agents, FitnessSpec(("random",), games=2, parsimony="seed000"), 0, 0,
                             sizes=[10, 120])
    assert s0.fitness[0] == base.score[0]  # the first 20 nodes are free
    assert s0.fitness[1] == pytest.approx(base.score[1] - 0.0004 * 100)
    s3 = evaluate_population(game, agents, FitnessSpec(("random",), games=2, parsimony="seed003"), 0, 0,
                             sizes=[10, 500])
    assert s3.fitness[0] == pytest.approx(max(1.0, 100 * base.score[0] - 10))
    assert s3.fitness[1] == 1.0


def test_same_fitness_on_serial_and_process_executors():
    game = load_game(TAKE_AWAY + "(stones=21)")
    rng = np.random.default_rng(5)
    from evoplay import gp
    from evoplay.agents.feature_player import game_primitive_set

    pset = game_primitive_set(game)
    programs = gp.population(pset, rng, 8, max_depth=3)
    agents = [program_agent(game, p) for p in programs]
    spec = FitnessSpec(("random",), games=6, hall_games=2)
    serial = evaluate_population(game, agents, spec, 11, 3, SerialExecutor(), hall=[make_agent("random", game)])
    with ProcessExecutor(2) as ex:
        parallel = evaluate_population(game, agents, spec, 11, 3, ex, hall=[make_agent("random", game)])
    np.testing.assert_array_equal(serial.fitness, parallel.fitness)
    np.testing.assert_array_equal(serial.wins, parallel.wins)
    other = evaluate_population(game, agents, spec, 12, 3, SerialExecutor(), hall=[make_agent("random", game)])
    assert not np.array_equal(other.wins, serial.wins) or not np.array_equal(other.losses, serial.losses)
