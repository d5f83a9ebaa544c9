"""The deadline protocol (``Agent.deadline``): the Numba alpha-beta's node budget held equal to its reference, and
every search evoplay serve can reach stopping at its deadline with its best move so far. No timed assertions:
the bounds below say only "long before the search would have ended without the deadline"."""
from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay import load_game, make_agent
from evoplay.games.kalah import search as search_kalah
from evoplay.games.mnk import search as search_mnk

from test_alphabeta import _random_kalah_position, _random_mnk_position


@given(choices=st.lists(st.integers(0, 100), max_size=30), depth=st.integers(1, 5), budget=st.integers(1, 3000),
       weights=st.booleans())
def test_kalah_budget_cuts_kernel_and_reference_alike(choices, depth, budget, weights):
    s = _random_kalah_position(choices)
    if s.is_terminal():
        return
    w = np.array([3, -1, 2, 0, 1], np.int64) if weights else None
    board, player = s.board(), s.current_player()
    cut = np.array([0, budget], np.int64)
    values, best, nodes = search_kalah.search(board, player, depth, 6, True, False, w, nodes=cut)
    ref_values, ref_best, ref_nodes = search_kalah.reference_root_values(board.tolist(), player, depth, 6, True,
                                                                         False, w, budget=budget)
    assert nodes == ref_nodes  # cut off at the same node...
    if nodes <= budget:  # ...and, not cut off, with the same values (a search cut off means nothing: it is dropped)
        assert best == ref_best and values.tolist() == ref_values
    full_values, full_best, full_nodes = search_kalah.search(board, player, depth, 6, True, False, w)
    if nodes <= budget:  # not cut off: exactly the search without a budget
        assert (best, nodes, values.tolist()) == (full_best, full_nodes, full_values.tolist())
    else:
        assert nodes == budget + 1 and full_nodes > budget


@given(choices=st.lists(st.integers(0, 1000), max_size=15), depth=st.integers(1, 3), budget=st.integers(1, 3000))
def test_mnk_budget_cuts_kernel_and_reference_alike(choices, depth, budget):
    game = load_game("mnk")
    s = _random_mnk_position(game, choices)
    args = (s.current_player(), depth, 5, 5, 4, search_mnk.EVAL_LINES, search_mnk.default_line_weights(4),
            search_mnk.line_windows(5, 5, 4))
    values, best, nodes = search_mnk.search(s.board(), *args, nodes=np.array([0, budget], np.int64))
    ref_values, ref_best, ref_nodes = search_mnk.reference_root_values(s.board().tolist(), *args, False,
                                                                       budget=budget)
    assert nodes == ref_nodes
    if nodes <= budget:
        assert best == ref_best and values.tolist() == ref_values
    _, full_best, full_nodes = search_mnk.search(s.board(), *args)
    assert nodes == full_nodes if nodes <= budget else nodes == budget + 1


def test_without_a_deadline_alphabeta_plays_as_before():
    game = load_game("kalah")
    state = game.new_initial_state(0)
    agent = make_agent("alphabeta(depth=6)", game)
    values, best, _ = search_kalah.search(state.board(), 0, 6, 6, True)
    assert agent.deadline is None and agent.step(state) == best


def test_a_generous_deadline_gives_the_full_depth_move():
    game = load_game("mnk(m=3,n=3,k=3)")
    state = game.new_initial_state(0)
    agent = make_agent("alphabeta(depth=9)", game)
    plain = agent.step(state)
    agent.deadline = time.perf_counter() + 600.0
    assert agent.step(state) == plain  # iterative deepening ends at the requested depth with the same move


@pytest.mark.parametrize("spec, game", [
    ("alphabeta(depth=30)", "kalah"),
    ("alphabeta(depth=20)", "mnk"),
    ("mcts(iterations=5000000)", "kalah"),
    ("rs(iterations=100000000)", "kalah"),
    ("rhea(iterations=100000000)", "kalah"),
    ("rs(budget_ms=600000)", "tron"),
    ("mcts(budget_ms=600000)", "kalah"),
])
def test_a_search_that_would_take_minutes_stops_at_its_deadline(spec, game):
    g = load_game(game)
    agent = make_agent(spec, g)
    agent.restart(1, 0)
    state = g.new_initial_state(0)
    agent.deadline = time.perf_counter() + 0.05
    agent.step(state)  # compiled (or loaded from Numba's cache) before the timed decision
    agent.deadline = time.perf_counter() + 0.3
    started = time.perf_counter()
    action = agent.step(state)
    assert time.perf_counter() - started < 30.0  # minutes to hours without the deadline
    assert action in (state.legal_actions(0) if game == "tron" else state.legal_actions())


def test_a_deadline_moved_earlier_from_another_thread_stops_the_search_at_once():
    import threading

    game = load_game("kalah")
    state = game.new_initial_state(0)
    agent = make_agent("alphabeta(depth=30)", game)
    agent.deadline = time.perf_counter() + 0.05
    agent.step(state)  # compiled before the timed decision
    agent.deadline = time.perf_counter() + 3600.0
    threading.Timer(0.3, lambda: setattr(agent, "deadline", 0.0)).start()  # what serve does when a page leaves
    started = time.perf_counter()
    assert agent.step(state) in state.legal_actions()
    assert time.perf_counter() - started < 60.0  # an hour without the move


def test_a_deadline_already_past_still_gets_a_legal_move():
    game = load_game("kalah")
    state = game.new_initial_state(0)
    for spec in ("alphabeta(depth=30)", "mcts(iterations=5000000)", "rs(budget_ms=1000)"):
        agent = make_agent(spec, game)
        agent.restart(0, 0)
        agent.deadline = 0.0
        assert agent.step(state) in state.legal_actions()
