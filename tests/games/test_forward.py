"""The forward model: joint actions, copies, winners, scores, available actions; Kalah and m,n,k adapted to it."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.agents import rollout
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.forward import (
    HUGE_NEGATIVE, HUGE_POSITIVE, NO_WINNER, PLAYER_DRAWS, PLAYER_LOSES, PLAYER_WINS, forward_model, heuristic,
    xorshift32,
)

GAMES = ("tron(w=6,h=5)", "gems(w=5,h=5,ticks=20)", "kalah(pits=4,seeds=3)", "mnk(m=4,n=4,k=3)")


def _random_joint(fm, rng):
    return [int(rng.choice(fm.available_actions(p))) for p in range(2)]


@pytest.mark.parametrize("spec", GAMES)
def test_forward_model_follows_the_game_and_copies_are_independent(spec):
    game = load_game(spec)
    rng = np.random.default_rng(0)
    for seed in range(30):
        state = game.new_initial_state(seed)
        fm = forward_model(state)
        while not state.is_terminal():
            joint = _random_joint(fm, rng)
            before = fm.copy()
            fm.advance(joint)
            if state.current_player() >= 0:
                state.apply_action(joint[state.current_player()])
            else:
                state.apply_actions(joint)
            assert (forward_model(state).buf == fm.buf).all()
            assert not (before.buf is fm.buf)
            assert before.tick() == fm.tick() - 1
        assert fm.is_game_over() and fm.scores() == [float(x) for x in _final_scores(state)]
        w = state.winner()
        expected = [PLAYER_DRAWS] * 2 if w is None else [PLAYER_WINS if p == w else PLAYER_LOSES for p in range(2)]
        assert fm.winners() == expected
        assert fm.available_actions(0) == [] and fm.available_actions(1) == []


def _final_scores(state):
    if state.game.name == "mnk":  # the m,n,k forward model scores 1 for the winner, 0 otherwise
        return [1.0 if state.winner() == p else 0.0 for p in range(2)]
    return state.scores()


def test_turn_based_adapter_lets_only_the_mover_act():
    game = load_game("kalah")
    fm = forward_model(game.new_initial_state())
    assert fm.available_actions(0) == [0, 1, 2, 3, 4, 5]
    assert fm.available_actions(1) == [fm.nil] == [6]
    assert fm.winners() == [NO_WINNER, NO_WINNER]
    with pytest.raises(IllegalActionError, match="player 1 is not available"):
        fm.advance([0, 3])
    with pytest.raises(IllegalActionError, match="player 0 is not available"):
        fm.advance([fm.nil, fm.nil])  # a pass is not a Kalah move
    fm.advance([0, fm.nil])
    assert fm.available_actions(0) == [fm.nil] and len(fm.available_actions(1)) == 6


def test_simultaneous_model_offers_every_action_with_nil_last():
    fm = forward_model(load_game("tron").new_initial_state())
    assert fm.simultaneous and fm.available_actions(0) == fm.available_actions(1) == [0, 1, 2, 3, 4]
    assert fm.action_names[fm.nil] == "nil"
    with pytest.raises(IllegalActionError, match="one action per player"):
        fm.advance([0])
    with pytest.raises(IllegalActionError, match="player 2"):
        fm.available_actions(2)


def test_heuristic_is_the_seeds_win_score_heuristic():
    game = load_game("tron(w=4,h=3)")
    s = game.new_initial_state()
    fm = forward_model(s)
    assert fm.heuristic(0) == 1.0  # the trail length while running
    while not fm.is_game_over():
        fm.advance([0, 4])  # A turns up into the wall
    assert fm.heuristic(0) == HUGE_NEGATIVE and fm.heuristic(1) == HUGE_POSITIVE
    assert rollout.heuristic(fm.buf, 0) == HUGE_NEGATIVE and rollout.heuristic(fm.buf, 1) == HUGE_POSITIVE


def test_no_forward_model_for_a_game_without_one():
    class Other:
        game = type("G", (), {"name": "chess"})()

    with pytest.raises(SpecError, match="no forward model"):
        forward_model(Other())


@settings(max_examples=60, deadline=None)
@given(spec=st.sampled_from(GAMES), seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 99), min_size=2,
                                                                              max_size=120))
def test_numba_dispatch_matches_the_forward_model(spec, seed, picks):
    """The controllers' kernel ``rollout.advance`` and ``legal_mask`` agree with the Python-level model."""
    fm = forward_model(load_game(spec).new_initial_state(seed))
    work = fm.buf.copy()
    mask = rollout.mask_buffer(fm.params)
    for i in range(0, len(picks) - 1, 2):
        if fm.is_game_over():
            break
        for p in range(2):
            n = rollout.legal_mask(fm.params, work, p, mask)
            assert list(np.flatnonzero(mask)) == fm.available_actions(p) and n == len(fm.available_actions(p))
        joint = [fm.available_actions(p)[picks[i + p] % len(fm.available_actions(p))] for p in range(2)]
        fm.advance(joint)
        rollout.advance(fm.params, work, joint[0], joint[1])
        assert (work == fm.buf).all()
        for p in range(2):
            assert rollout.heuristic(work, p) == heuristic(fm.buf, p)


def test_play_step_repairs_an_illegal_move_and_gives_the_non_mover_nil():
    fm = forward_model(load_game("mnk(m=3,n=3,k=3)").new_initial_state())
    fm.advance([4, fm.nil])  # X takes the centre; O to move
    np.random.seed(0)
    mask = rollout.mask_buffer(fm.params)
    work = fm.buf.copy()
    played = rollout.play_step(fm.params, work, 1, 4, mask)  # O asks for the taken centre
    assert played != 4 and played in fm.available_actions(1)
    work = fm.buf.copy()
    assert rollout.play_step(fm.params, work, 0, 0, mask) == fm.nil  # X is not to move: contributes nothing


def test_xorshift_reference_matches_kernel():
    from evoplay.games.gems.game import _xorshift

    x = 12345
    for _ in range(1000):
        assert xorshift32(x) == _xorshift(x)
        x = xorshift32(x)
