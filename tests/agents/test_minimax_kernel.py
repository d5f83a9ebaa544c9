"""The kernel alpha-beta (evoplay.search.minimax_kernel) against evoplay.search.minimax through the State: the same
actions, values and node counts at every position of seeded games (every leaf kind, with and without a node budget
and a transposition table, chance nodes and three players), and whole games of the agents that take it replay move
for move on either path."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from evoplay import gp
from evoplay.search import minimax as gs
from evoplay.agents import make_agent
from evoplay.agents.alphabeta import FeatureValue, score_difference
from evoplay.agents.feature_view import FeatureView
from evoplay.search.minimax_kernel import FEATURE, LINEAR, PROGRAM, SCORE, KernelSearch, make_leaf, new_table, supports
from evoplay.agents.feature_player import FeatureAgent, LinearScorer, ProgramScorer, _Leaves, game_primitive_set
from evoplay.arena.match import play_game
from evoplay.games import load_game

ROOT = Path(__file__).resolve().parents[2]
FAST = f"{ROOT / 'examples' / 'othello6_kernel.py'}:Othello"
PLAIN = f"{ROOT / 'examples' / 'othello6.py'}:Othello"
DICE = f"{Path(__file__).with_name('dice_race.py')}:DiceRace(players=3,goal=9)"


def _leaves(game, kind: str):
    """(the State path's evaluate, the kernel path's Leaf) of one leaf kind."""
    rng = np.random.default_rng(7)
    view = FeatureView(game, True, np.round(np.abs(rng.normal(size=game.num_features() + 6)), 3))
    if kind == "score":
        return score_difference, make_leaf(SCORE)
    if kind == "feature":
        name = game.feature_names()[-1]
        return FeatureValue(game, name), make_leaf(FEATURE, index=game.feature_names().index(name))
    if kind == "linear":
        w = rng.normal(size=len(view))
        return _Leaves(FeatureAgent(game, LinearScorer(w), "search", 2, view=view)), make_leaf(LINEAR, True, view=view,
                                                                                              weights=w)
    pset = game_primitive_set(game, names=view.names())
    program = gp.grow(pset, np.random.default_rng(5), 5, function_probability=0.7)
    agent = FeatureAgent(game, ProgramScorer(program), "search", 2, view=view)
    return _Leaves(agent), make_leaf(PROGRAM, True, view=view, program=program)


def _compare_over_a_game(spec: str, kind: str, depth: int, budget, seed: int) -> int:
    game = load_game(spec)
    evaluate, leaf = _leaves(game, kind)
    kernel = KernelSearch(game)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    python_table, kernel_table = {}, new_table()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(3)))
            continue
        player = state.current_player()
        seen, found = {}, {}
        a1, v1 = gs.search(state, player, depth, evaluate, None, seen, budget=budget, table=python_table)
        a2, v2 = kernel.search(state, player, depth, leaf, budget, kernel_table, found)
        assert a1 == a2
        assert np.array_equal(v1, v2), (v1, v2)
        assert seen == found
        searched += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return searched


@pytest.mark.parametrize("kind", ["score", "feature", "linear", "program"])
@pytest.mark.parametrize("depth,budget", [(2, None), (6, gs.Budget(nodes=150))])
def test_othello_kernel_search_equals_the_state_search(kind, depth, budget):
    assert _compare_over_a_game(FAST, kind, depth, budget, seed=3) > 10


@pytest.mark.parametrize("kind", ["score", "linear"])
@pytest.mark.parametrize("depth,budget", [(3, None), (8, gs.Budget(nodes=300))])
def test_chance_and_three_players_search_equals_the_state_search(kind, depth, budget):
    assert supports(load_game(DICE))
    assert _compare_over_a_game(DICE, kind, depth, budget, seed=1) > 5


def test_a_time_budget_stops_the_kernel_search():
    game = load_game(FAST)
    kernel = KernelSearch(game)
    stats: dict = {}
    start = time.perf_counter()
    actions, values = kernel.search(game.new_initial_state(), 0, 40, make_leaf(SCORE), gs.Budget(seconds=0.05),
                                    new_table(), stats)
    assert time.perf_counter() - start < 5  # stopped by the budget, not by 40 plies of Othello
    assert 1 <= stats["depth"] < 40 and len(actions) == 4 and len(values) == 4


def _players(game):
    rng = np.random.default_rng(0)
    view = FeatureView(game, True, np.round(np.abs(rng.normal(size=48)), 3))
    w = rng.normal(size=48)
    from evoplay.agents.feature_player import linear_agent

    return [linear_agent(game, w, "search", 2, view=view), linear_agent(game, w, "move", 1, view=view),
            linear_agent(game, w, "search", 8, view=view, budget=gs.Budget(nodes=200)),
            make_agent("alphabeta(depth=2,random_ties=true)", game), make_agent("random", game)]


def test_whole_games_replay_move_for_move_on_either_path():
    fast, plain = load_game(FAST), load_game(PLAIN)
    kernel_players, state_players = _players(fast), _players(plain)
    assert all(p.kernel is not None for p in kernel_players[:3])
    assert all(p.kernel is None for p in state_players[:3])
    assert kernel_players[3]._kernel is not None and state_players[3]._kernel is None
    for i, j in [(0, 4), (4, 1), (2, 3), (3, 0), (1, 2)]:
        for seed in (1, 2):
            a = play_game(fast, [kernel_players[i], kernel_players[j]], seed)
            b = play_game(plain, [state_players[i], state_players[j]], seed)
            assert a.history == b.history, (i, j, seed)


def test_the_move_policy_takes_the_expectation_over_dice_on_either_path():
    """A move whose after-state waits for dice is valued as the mean over the dice (each outcome a position a player is
    to move in), the same on the kernels as through the State."""
    from evoplay.agents.feature_player import linear_agent

    game = load_game(DICE)
    view = FeatureView(game, True, np.ones(game.num_features() + 6))
    agent = linear_agent(game, np.random.default_rng(2).normal(size=len(view)), "move", 1, view=view)
    assert agent.kernel is not None
    rng = np.random.default_rng(4)
    state, compared = game.new_initial_state(0), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(3)))
            continue
        player = state.current_player()
        actions, kernel_values = agent.kernel.move_values(state, player)
        np.testing.assert_allclose(kernel_values, agent.move_values(state, player, actions), rtol=1e-12, atol=1e-12)
        for a, v in zip(actions, kernel_values):  # a move that does not win hands the next player a die to roll
            child = state.clone()
            child.apply_action(a)
            if child.is_chance_node():
                mean = 0.0
                for roll, p in child.chance_outcomes():
                    after = child.clone()
                    after.apply_action(roll)
                    mean += p * float(agent.score_rows(agent.rows([after], player))[0])
                assert v == pytest.approx(mean, rel=1e-12, abs=1e-12)
                compared += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert compared > 5
