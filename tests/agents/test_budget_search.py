"""Iterative deepening within a budget, the transposition table, and the free features and scales a feature
player reads (evoplay.search.minimax, evoplay.agents.feature_view)."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from evoplay.agents.feature_view import FREE_FEATURES, FeatureView, free_features, measure_scales
from evoplay.search.minimax import Budget, search
from evoplay.agents.feature_player import linear_agent
from evoplay.errors import SpecError
from evoplay.games import load_game

OTHELLO = str(Path(__file__).parents[2] / "examples" / "othello6.py") + ":Othello"


def material(state, player):
    s = state.scores()
    return s[player] - s[1 - player]


def _position(game, plies: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        legal = state.legal_actions()
        state.apply_action(int(legal[int(rng.integers(len(legal)))]))
    return state


def test_a_node_budget_large_enough_gives_the_fixed_depth_search_values():
    game = load_game(OTHELLO)
    state = _position(game, 6)
    player = state.current_player()
    fixed_actions, fixed = search(state, player, 3, material)
    stats: dict = {}
    actions, values = search(state, player, 3, material, budget=Budget(nodes=10**7), table={}, stats=stats)
    assert actions == fixed_actions and stats["depth"] == 3
    best = fixed.max()
    # the best move and its value agree; every other move is known to be no better
    assert values.max() == best and int(np.argmax(values)) == int(np.argmax(fixed))
    assert all(v <= best for v in values)


def test_a_node_budget_is_reproducible_and_deepens_as_far_as_it_pays():
    game = load_game(OTHELLO)
    state = _position(game, 4)
    player = state.current_player()
    runs = []
    for _ in range(2):
        stats: dict = {}
        runs.append((search(state, player, 20, material, budget=Budget(nodes=3000), table={}, stats=stats), stats))
    (a1, v1), s1 = runs[0]
    (a2, v2), s2 = runs[1]
    assert a1 == a2 and np.array_equal(v1, v2) and s1 == s2
    assert 2 <= s1["depth"] < 20
    small: dict = {}
    search(state, player, 20, material, budget=Budget(nodes=200), table={}, stats=small)
    assert small["depth"] < s1["depth"]


def test_the_transposition_table_changes_the_work_not_the_answer():
    game = load_game(OTHELLO)
    state = _position(game, 8, seed=3)
    player = state.current_player()
    plain: dict = {}
    cached: dict = {}
    a, v = search(state, player, 4, material, budget=Budget(nodes=10**7), stats=plain)  # table None: no key kept
    b, w = search(state, player, 4, material, budget=Budget(nodes=10**7), table={}, stats=cached)
    assert int(np.argmax(v)) == int(np.argmax(w)) and v.max() == w.max()
    assert cached["nodes"] < plain["nodes"]


def test_a_time_budget_or_a_passed_deadline_still_answers_a_legal_move():
    game = load_game("openspiel:connect_four")
    state = game.new_initial_state()
    actions, values = search(state, 0, 30, material, budget=Budget(seconds=0.05), table={})
    assert actions == state.legal_actions() and np.isfinite(values).all()
    agent = linear_agent(game, np.zeros(game.num_features()), budget=Budget(seconds=10.0))
    agent.restart(0, 0)
    agent.deadline = time.perf_counter() - 1.0  # a caller (the web app) already out of time
    assert agent.step(state) in state.legal_actions()
    assert agent.last_depth == 1  # the first iteration always finishes


def test_free_features_say_whose_turn_and_seat_it_is():
    game = load_game("openspiel:connect_four")
    state = game.new_initial_state()
    row0, row1 = free_features(state, 0), free_features(state, 1)
    names = dict(zip(FREE_FEATURES, zip(row0, row1)))
    assert names["seat"] == (0.0, 1.0)
    assert names["my_turn"] == (1.0, 0.0)
    assert names["my_moves"] == (7.0, 0.0) and names["their_moves"] == (0.0, 7.0)
    view = FeatureView(game, free=True)
    assert view.names()[-6:] == list(FREE_FEATURES) and len(view) == game.num_features() + 6


def test_scales_are_reciprocal_spreads_and_drop_constant_features():
    game = load_game(OTHELLO)
    scales = measure_scales(game, True, seed=0, positions=200)
    names = FeatureView(game, True).names()
    assert scales.shape == (len(names),)
    assert scales[names.index("my_score")] > 0 and scales[names.index("my_score")] < 1  # discs spread over > 1
    again = measure_scales(game, True, seed=0, positions=200)
    assert np.array_equal(scales, again)
    with pytest.raises(SpecError, match="scales"):
        FeatureView(game, True, scales[:-1])
    row = FeatureView(game, True, scales).row(game.new_initial_state(), 0)
    raw = FeatureView(game, True).row(game.new_initial_state(), 0)
    assert np.allclose(row, raw * scales)


def test_the_game_api_alphabeta_stops_at_its_deadline_with_a_legal_move():
    from evoplay.agents import make_agent

    game = load_game(OTHELLO)
    agent = make_agent("alphabeta(depth=30)", game)  # hours without a deadline
    agent.restart(0, 0)
    state = game.new_initial_state()
    agent.deadline = time.perf_counter() + 0.05
    assert agent.step(state) in state.legal_actions()
    assert agent.nodes < 10**6  # stopped at the deadline, long before a 30-ply search
