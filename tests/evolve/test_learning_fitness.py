"""The fitness that separates candidates: common random numbers, openings, successive halving, the ladder, the
auto and rating scorings (evoplay.evolve.fitness)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evoplay.agents import make_agent
from evoplay.agents.feature_player import program_agent
from evoplay.arena.match import play_game, play_opening
from evoplay.errors import ConfigError
from evoplay.evolve.fitness import (
    FitnessSpec, FitnessResult, Ladder, evaluate_population, keeps_score, playable_rungs, schedule,
)
from evoplay.games import load_game
from evoplay.gp.primitives import ABS, FEATURE, NEG
from evoplay.gp.program import Program

TAKE_AWAY = str(Path(__file__).parent.parent / "agents" / "take_away.py") + ":TakeAway"
PERFECT = Program([NEG, ABS, FEATURE], [0, 0, 1], [0.0, 0.0, 0.0])
WORST = Program([ABS, FEATURE], [0, 1], [0.0, 0.0])


def test_common_random_numbers_give_every_candidate_the_same_games():
    spec = FitnessSpec(("random",), games=3, crn=True)
    pairings = schedule(spec, 4, 2, generation=5, opponent_slots=[[4]], hall_slots=[])
    by_candidate: dict = {}
    for p in pairings:
        candidate = min(p.seats)
        by_candidate.setdefault(candidate, []).append((p.seats.index(candidate), p.key))
    keys = {c: sorted(v) for c, v in by_candidate.items()}
    assert keys[0] == keys[1] == keys[2] == keys[3]  # the same seeds, seat by seat
    independent = schedule(FitnessSpec(("random",), games=3), 4, 2, 5, [[4]], [])
    assert len({p.key for p in independent}) == len(independent)  # without crn every candidate has its own


def test_with_common_random_numbers_equal_players_score_exactly_alike():
    game = load_game("openspiel:pig(winscore=15)")
    agents = [make_agent("random", game) for _ in range(3)]
    common = evaluate_population(game, agents, FitnessSpec(("random",), games=6, crn=True), seed=3, generation=0)
    assert common.fitness[0] == common.fitness[1] == common.fitness[2]  # same dice, same opponent: same games
    apart = evaluate_population(game, agents, FitnessSpec(("random",), games=6), seed=3, generation=0)
    assert len(set(apart.fitness.tolist())) > 1  # independent games: luck tells them apart


def test_openings_are_the_same_for_every_player_and_drawn_from_the_seed():
    game = load_game("mnk(m=5,n=5,k=4)")
    a, b = game.new_initial_state(), game.new_initial_state()
    play_opening(a, 4, seed=99)
    play_opening(b, 4, seed=99)
    assert str(a) == str(b) and len(a.history) == 4
    c = game.new_initial_state()
    play_opening(c, 4, seed=100)
    assert str(c) != str(a)
    # a game played with openings starts from them: the first four moves are the opening's
    agents = [make_agent("random", game), make_agent("random", game)]
    final = play_game(game, agents, 99, openings=4)
    assert list(final.history[:4]) == list(a.history)


def test_halving_gives_the_better_half_more_games_and_ranks_them_first():
    game = load_game(TAKE_AWAY)
    agents = [program_agent(game, WORST) for _ in range(4)] + [program_agent(game, PERFECT) for _ in range(4)]
    spec = FitnessSpec(("random",), games=4, crn=True, racing="halving", rounds=3)
    res = evaluate_population(game, agents, spec, seed=2, generation=0)
    per_round = 2 * 4  # both seats, 4 games each
    assert sorted(res.games.tolist()) == [per_round] * 4 + [2 * per_round] * 2 + [3 * per_round] * 2
    assert all(res.games[i] == per_round for i in range(4))  # the worst players stop after one round
    assert set(np.argsort(-res.selection)[:4].tolist()) == {4, 5, 6, 7}
    assert res.rounds.tolist()[:4] == [0, 0, 0, 0] and max(res.rounds) == 2


def test_the_ladder_climbs_when_the_best_quarter_win_clearly():
    spec = FitnessSpec((), games=4, ladder=("random", "alphabeta(depth=1)", "hall", "alphabeta(depth=3)"),
                       hall_of_fame=2, promote=0.75, rungs=2)
    ladder = Ladder(spec)
    assert ladder.opponents() == ["random"] and not ladder.plays_hall()

    def result(rate: float) -> FitnessResult:
        n = 8
        wins = np.full(n, int(round(8 * rate)))
        wdl = np.stack([wins, np.zeros(n, int), 8 - wins], axis=1)
        fit = np.linspace(0, 1, n)
        return FitnessResult(fit, fit, wins, wdl[:, 1], wdl[:, 2], np.full(n, 8), {ladder.top_name(): wdl})

    assert ladder.climb(result(0.5), hall_size=0) == "" and ladder.top == 0  # not yet clearly better
    assert ladder.climb(result(0.875), hall_size=0) == "alphabeta(depth=1)"
    assert ladder.opponents() == ["random", "alphabeta(depth=1)"]
    # the hall rung is empty before any champion is kept: the next rung joins instead
    assert ladder.climb(result(1.0), hall_size=0) == "alphabeta(depth=3)" and ladder.top == 3
    assert ladder.climb(result(1.0), hall_size=2) == ""  # the top of the ladder
    hall_ladder = Ladder(spec, top=2)
    assert hall_ladder.plays_hall() and hall_ladder.opponents() == ["alphabeta(depth=1)"]


def test_ladder_configs_are_checked_and_fitted_to_the_game():
    assert FitnessSpec.from_config({"opponents": ["random"], "ladder": ["random", "random"]}).ladder == ()
    with pytest.raises(ConfigError, match="hall_of_fame = 0"):
        FitnessSpec.from_config({"opponents": [], "ladder": ["random", "hall"]})
    with pytest.raises(ConfigError, match="promote"):
        FitnessSpec.from_config({"opponents": [], "ladder": ["random"], "promote": 0.4})
    tron = load_game("tron(w=6,h=6)")
    assert playable_rungs(["random", "uct(simulations=10)", "alphabeta(depth=1)"], tron) == \
        ["random", "alphabeta(depth=1)"]  # uct cannot play simultaneous moves: left out with a warning
    spec = FitnessSpec.from_config({"opponents": [], "ladder": ["random", "uct(simulations=10)"]}, tron)
    assert spec.ladder == ("random",)


def test_auto_scoring_is_margin_where_the_game_keeps_a_score():
    assert keeps_score(load_game("kalah"))
    assert not keeps_score(load_game("openspiel:connect_four"))
    spec = FitnessSpec(scoring="auto")
    assert spec.resolved_scoring(load_game("kalah")) == "margin"
    assert spec.resolved_scoring(load_game("openspiel:connect_four")) == "wdl"


def test_rating_scoring_ranks_the_perfect_player_first():
    pytest.importorskip("openskill")
    game = load_game(TAKE_AWAY)
    agents = [program_agent(game, WORST), program_agent(game, PERFECT), make_agent("random", game)]
    spec = FitnessSpec(("random",), games=6, scoring="rating", crn=True)
    res = evaluate_population(game, agents, spec, seed=4, generation=0)
    assert int(np.argmax(res.fitness)) == 1  # the perfect player never loses: the highest rating
    wins = FitnessSpec(("random",), games=6, crn=True)
    assert np.argsort(res.fitness).tolist() == np.argsort(
        evaluate_population(game, agents, wins, seed=4, generation=0).fitness).tolist()
