"""uct through a game's kernels against uct through the State: Python's Mersenne Twister inside Numba draws what
random.Random draws, the same search grows the same root, and whole games replay move for move."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.agents import make_agent, mt19937
from evoplay.arena import play_game

ROOT = Path(__file__).resolve().parents[2]
FAST = f"{ROOT / 'examples' / 'othello6_kernel.py'}:Othello"
DICE = f"{Path(__file__).with_name('dice_race.py')}:DiceRace(players=3,goal=9)"


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(1, 2**31), max_size=20))
def test_the_kernel_generator_draws_what_random_random_draws(seed, bounds):
    ours, theirs = random.Random(seed), random.Random(seed)
    state = mt19937.state_of(ours)
    assert [mt19937.random(state) for _ in range(50)] == [theirs.random() for _ in range(50)]
    assert [mt19937.randbelow(state, n) for n in bounds] == [theirs._randbelow(n) for n in bounds]
    values = np.arange(25)
    mt19937.shuffle(state, values, 25)
    expected = list(range(25))
    theirs.shuffle(expected)
    assert values.tolist() == expected
    mt19937.restore(ours, state)
    assert ours.random() == theirs.random()  # the Python generator continues from the kernel's state


def _both_paths(spec: str, agent_spec: str, state):
    """The root the kernel path and the State path grow from ``state`` (same agent seed)."""
    game = load_game(spec)
    fast, slow = make_agent(agent_spec, game), make_agent(agent_spec, game)
    assert fast._kernel is not None
    slow._kernel = None
    fast.restart(11, 0)
    slow.restart(11, 0)
    return (fast.step(state), fast.last_root), (slow.step(state), slow.last_root)


def _summary(root):
    return (root.explore_count, root.total_reward, root.outcome,
            [(c.action, c.player, c.prior, c.explore_count, c.total_reward, c.outcome) for c in root.children])


@pytest.mark.parametrize("agent_spec", ["uct(simulations=400)", "uct(simulations=300,rollouts=2,solve=false)",
                                        "uct(simulations=300,uct_c=0.7)"])
def test_the_same_root_grows_on_both_paths(agent_spec):
    game = load_game(FAST)
    state = game.new_initial_state()
    for action in (8, 7, 6):
        state.apply_action(action)
    (a, ra), (b, rb) = _both_paths(FAST, agent_spec, state)
    assert a == b and _summary(ra) == _summary(rb)


def test_a_solved_position_is_proven_on_the_kernel_path_as_on_the_state_path():
    game = load_game("mnk(m=3,n=3,k=3)")
    state = game.new_initial_state()
    for action in (0, 3, 1, 4):  # X to move completes the top row
        state.apply_action(action)
    (a, ra), (b, rb) = _both_paths("mnk(m=3,n=3,k=3)", "uct(simulations=2000)", state)
    assert a == b == 2 and ra.outcome == rb.outcome == [1.0, -1.0]
    assert _summary(ra) == _summary(rb)


@pytest.mark.parametrize("spec", [FAST, DICE, "kalah(pits=4,seeds=3)"])
def test_whole_games_replay_move_for_move_on_either_path(spec):
    game = load_game(spec)
    histories = []
    for kernel in (True, False):
        agents = [make_agent("uct(simulations=150)", game), make_agent("uct(simulations=80,rollouts=2)", game)]
        agents += [make_agent("random", game) for _ in range(game.num_players - 2)]
        if not kernel:
            for a in agents[:2]:
                a._kernel = None
        histories.append([list(play_game(game, agents, seed).history) for seed in (1, 2)])
    assert histories[0] == histories[1]


def test_a_time_budget_runs_simulations_on_the_kernel_path():
    game = load_game(FAST)
    agent = make_agent("uct(ms=30)", game)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()
    assert agent._kernel is not None and agent.last_root.explore_count > 10
