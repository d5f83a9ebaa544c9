"""The grid duels' position (tron, gems) as kernels, and the rollout kernels every controller shares, compiled for a
game: the seed's heuristic, a step that repairs an illegal plan, joint actions."""
import numpy as np
import pytest

from evoplay import load_game
from evoplay.search.rollout import HUGE_NEGATIVE, HUGE_POSITIVE
from evoplay.games.forward import xorshift32
from evoplay.games.kernels import kernels_of, specialise


def _rollout(game):
    k = kernels_of(game)
    return k, specialise("evoplay.search.rollout", k), (np.zeros(k.actions, np.int8), np.zeros(k.actions),
                                                        np.zeros(k.players))


@pytest.mark.parametrize("spec", ["tron(w=6,h=5)", "gems(w=5,h=5,ticks=20)"])
def test_a_grid_duel_offers_every_action_to_both_players_and_plays_joint_actions(spec):
    game = load_game(spec)
    k = kernels_of(game)
    assert k.simultaneous and k.actions == 5 and k.players == 2
    state = game.new_initial_state(3)
    pos = k.position(state)
    assert k.legal_actions(pos, 0) == k.legal_actions(pos, 1) == [0, 1, 2, 3, 4]
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        joint = [int(rng.integers(5)), int(rng.integers(5))]
        state.apply_actions(joint)
        k.apply(k.params, pos, k.joint(joint))
        assert (pos == k.position(state)).all()
    assert k.legal_actions(pos, 0) == [] and k.returns_of(pos) == state.returns()


def test_the_heuristic_is_the_seeds_win_score_heuristic():
    game = load_game("tron(w=4,h=3)")
    k, rollout, (mask, probs, scores) = _rollout(game)
    state = game.new_initial_state()
    pos = k.position(state)
    assert rollout.heuristic(k.params, pos, 0, scores) == 1.0  # the trail length while running
    while not state.is_terminal():
        state.apply_actions([0, 4])  # A turns up into the wall
    pos = k.position(state)
    assert rollout.heuristic(k.params, pos, 0, scores) == HUGE_NEGATIVE
    assert rollout.heuristic(k.params, pos, 1, scores) == HUGE_POSITIVE


def test_play_step_repairs_an_illegal_plan_and_the_non_mover_plays_nothing():
    game = load_game("mnk(m=3,n=3,k=3)")
    k, rollout, scratch = _rollout(game)
    state = game.new_initial_state()
    state.apply_action(4)  # X takes the centre; O to move
    np.random.seed(0)
    work = k.position(state)
    played = rollout.play_step(k.params, work, 1, 4, scratch)  # O asks for the taken centre
    assert played != 4 and played in state.legal_actions()
    work = k.position(state)
    assert rollout.play_step(k.params, work, 0, 0, scratch) == -1  # X is not to move: O moved at random
    assert (work != k.position(state)).sum() == 3  # a stone more, the player to move, the empty cells


def test_a_rollout_copy_of_gems_draws_its_own_gems():
    game = load_game("gems(w=5,h=5,ticks=20)")
    k, rollout, scratch = _rollout(game)
    pos = k.position(game.new_initial_state(1))
    copy = pos.copy()
    rollout.hide_future(k.params, copy)
    assert (copy != pos).sum() == 1  # only the random state differs


def test_xorshift_reference_matches_kernel():
    from evoplay.games.gems.game import _xorshift

    x = 12345
    for _ in range(1000):
        assert xorshift32(x) == _xorshift(x)
        x = xorshift32(x)
