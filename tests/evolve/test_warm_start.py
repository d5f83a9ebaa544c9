"""The warm start of real genomes: a linear evaluation fitted to the outcomes of seeded games."""
from __future__ import annotations

import numpy as np

from evoplay.agents.feature_view import FeatureView, measure_scales
from evoplay.evolve.warm_start import fit_outcomes, play_round, ridge
from evoplay.games import load_game


def test_ridge_recovers_a_linear_rule():
    rng = np.random.default_rng(0)
    rows = rng.normal(size=(500, 4))
    truth = np.array([1.0, -2.0, 0.0, 0.5])
    assert np.allclose(ridge(rows, rows @ truth, strength=1e-6), truth, atol=1e-4)


def test_the_fit_learns_that_seeds_in_the_own_store_win_kalah():
    game = load_game("kalah(pits=4,seeds=3)")
    view = FeatureView(game, True, measure_scales(game, True, 0))
    weights = fit_outcomes(game, view, seed=5, games=300, rounds=2)
    names = view.names()
    assert weights[names.index("my_score")] > 0 > weights[names.index("their_score")]
    assert np.isclose(np.sqrt(np.mean(weights ** 2)), 1.0)  # scaled to a root mean square of 1
    again = fit_outcomes(game, view, seed=5, games=300, rounds=2)
    assert np.array_equal(weights, again)  # drawn from the seed alone


def test_a_round_gives_a_row_per_player_per_position_and_each_players_return():
    game = load_game("openspiel:pig(winscore=15)")  # chance nodes: sampled, never a row
    view = FeatureView(game, True)
    rows, targets = play_round(game, view, None, games=5, explore=0.0, rng=np.random.default_rng(1))
    assert rows.shape == (len(targets), len(view)) and len(targets) % 2 == 0
    assert set(np.unique(targets)) <= {-1.0, 1.0}
    assert np.all(targets[0::2] == -targets[1::2])  # the two players' returns of each position


def test_the_search_fit_is_drawn_from_the_seed_and_learns_the_store():
    from evoplay.evolve.warm_start import fit_search

    game = load_game("kalah(pits=4,seeds=3)")
    view = FeatureView(game, True, measure_scales(game, True, 0))
    weights = fit_search(game, view, seed=3, games=20, rounds=2, nodes=60, start_games=100)
    names = view.names()
    assert weights[names.index("my_score")] > 0 > weights[names.index("their_score")]
    assert np.array_equal(weights, fit_search(game, view, seed=3, games=20, rounds=2, nodes=60, start_games=100))
    assert not np.array_equal(weights, fit_outcomes(game, view, seed=3, games=100, rounds=1))


def test_ridge_with_fewer_rows_than_weights_gives_the_primal_solution():
    rng = np.random.default_rng(4)
    rows, targets = rng.normal(size=(30, 200)), rng.normal(size=30)
    primal = np.linalg.solve(rows.T @ rows + 0.5 * np.eye(200), rows.T @ targets)
    assert np.allclose(ridge(rows, targets, strength=0.5), primal, atol=1e-9)


def test_the_outcome_fit_within_seconds_plays_fewer_games_of_the_same_sequence():
    # a run's budget bounds the fit (backgammon on pyspiel: its greedy round took minutes of a 2-minute run); past
    # its time a round still plays one game, the first of the sequence it plays without a limit
    game = load_game("kalah(pits=4,seeds=3)")
    view = FeatureView(game, True, measure_scales(game, True, 0))
    one = play_round(game, view, None, games=50, explore=0.1, rng=np.random.default_rng(3), until=0.0)
    all_ = play_round(game, view, None, games=50, explore=0.1, rng=np.random.default_rng(3))
    assert 0 < len(one[1]) < len(all_[1])
    assert np.array_equal(one[0], all_[0][:len(one[0])]) and np.array_equal(one[1], all_[1][:len(one[1])])
    assert np.array_equal(fit_outcomes(game, view, seed=5, games=100, rounds=2, seconds=1e6),
                          fit_outcomes(game, view, seed=5, games=100, rounds=2))  # in time: the same fit
    quick = fit_outcomes(game, view, seed=5, games=100, rounds=2, seconds=0.0)  # a game a round
    assert quick.shape == (len(view),) and np.all(np.isfinite(quick))
