"""Features of the built-in games: the right length, each player's own view, never another player's cards, and
the Kalah kernel's view equal to the Python one."""
from __future__ import annotations

import numpy as np
import pytest

from evoplay.games import load_game

SPECS = ["kalah", "kalah(pits=4,seeds=3)", "mnk", "mnk(m=3,n=3,k=3)", "tron(w=6,h=5)", "gems(w=5,h=5,ticks=20)",
         "sevens", "sevens(players=3)"]


def _random_states(spec: str, games: int = 20, seed: int = 0):
    """Every state of a few random games (both players' moves at simultaneous ticks)."""
    game = load_game(spec)
    rng = np.random.default_rng(seed)
    for g in range(games):
        state = game.new_initial_state(g)
        while True:
            yield state
            if state.is_terminal():
                break
            if state.is_simultaneous_node():
                state.apply_actions([int(rng.integers(5)), int(rng.integers(5))])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("spec", SPECS)
def test_features_have_one_finite_number_per_name(spec):
    game = load_game(spec)
    names = game.feature_names()
    assert len(set(names)) == len(names) == game.num_features()
    for state in _random_states(spec, games=5):
        for p in range(game.num_players):
            f = state.features(p)
            assert f.dtype == np.float64 and f.shape == (len(names),) and np.isfinite(f).all()


def test_kalah_features_are_the_board_from_each_side():
    game = load_game("kalah")
    state = game.new_initial_state()
    state.apply_action(2)  # pit 3: four seeds to pits 4, 5, 6 and the store; another turn
    names = game.feature_names()
    mine = dict(zip(names, state.features(0)))
    theirs = dict(zip(names, state.features(1)))
    assert mine["my_store"] == 1 and mine["my_pit_3"] == 0 and mine["opp_store"] == 0
    assert theirs["opp_store"] == 1 and theirs["opp_pit_3"] == 0 and theirs["my_pit_3"] == 4


def test_kalah_kernel_view_equals_the_python_features():
    """The gp agent's Numba kernel builds the mover's view in its scratch row: the same numbers as features()."""
    from evoplay.games.kalah.program_player import program_pit

    opcodes, args, consts = np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.float64)
    for spec in ("kalah", "kalah(pits=4,seeds=3)"):
        pits = load_game(spec).pits
        for state in _random_states(spec, games=10):
            if state.is_terminal():
                continue
            row, stack = np.zeros(2 * pits + 2), np.zeros(4)
            program_pit(opcodes, args, consts, 0, 1, state.board(), state.current_player(), pits, row, stack)
            assert np.array_equal(row, state.features(state.current_player()))


def test_mnk_features_are_own_plus_opponent_minus():
    game = load_game("mnk(m=3,n=3,k=3)")
    state = game.new_initial_state()
    state.apply_action(game.feature_names().index("b2"))
    state.apply_action(0)
    assert state.features(0).tolist() == [-1, 0, 0, 0, 1, 0, 0, 0, 0]
    assert state.features(1).tolist() == [1, 0, 0, 0, -1, 0, 0, 0, 0]


def test_tron_looks_the_same_from_both_seats_at_the_start():
    """The start is point-symmetric: each player, seeing the board turned to its side, sees the same thing."""
    state = load_game("tron(w=6,h=5,obstacles=6)").new_initial_state(3)
    assert np.array_equal(state.features(0), state.features(1))
    state.apply_actions([0, 0])  # both go up: mirror images no longer
    assert not np.array_equal(state.features(0), state.features(1))


def test_gems_pillars_and_players_look_the_same_from_both_seats():
    """Pillars and start cells are point-symmetric (gems fall at random, so they are not)."""
    game = load_game("gems(w=7,h=5,ticks=20)")
    state = game.new_initial_state(3)
    names = game.feature_names()
    f0, f1 = state.features(0), state.features(1)
    cells = game.w * game.h
    assert np.array_equal(f0[:cells] == -1, f1[:cells] == -1) and (f0[:cells] == -1).any()
    for name in ("my_row", "my_col", "opp_row", "opp_col"):
        assert f0[names.index(name)] == f1[names.index(name)]
    assert (f0[:cells] == 1).sum() == game.gems


def test_sevens_features_never_show_another_hand():
    """Two deals that differ only in the other players' cards give a player the same features."""
    game = load_game("sevens")
    rng = np.random.default_rng(4)
    for state in _random_states("sevens", games=5):
        if state.is_terminal():
            continue
        p = state.current_player()
        other = state.resample(p, rng)
        assert np.array_equal(other.features(p), state.features(p))
        assert other.hand(p) == state.hand(p) and other.hand_sizes() == state.hand_sizes()
    names = game.feature_names()
    state = game.new_initial_state(1)
    f = dict(zip(names, state.features(0)))
    assert sum(v for k, v in f.items() if k.startswith("hand_") and "size" not in k) == len(state.hand(0))


def test_sevens_resample_draws_the_hidden_hands():
    state = load_game("sevens").new_initial_state(2)
    rng = np.random.default_rng(0)
    hands = {tuple(state.resample(0, rng).hand(1)) for _ in range(10)}
    assert len(hands) > 1


def test_sevens_resample_keeps_a_card_sent_until_the_receiver_sends():
    """The sender knows where its card went, and nobody else learns it."""
    game = load_game("sevens")
    rng = np.random.default_rng(1)
    for seed in range(40):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if state.phase() == "send":
                sender, receiver = state.current_player(), state.receiver()
                card = state.legal_actions()[0]
                state.apply_action(card)
                if state.is_terminal() or card not in state.hand(receiver):
                    break
                copies = [state.resample(sender, rng) for _ in range(5)]
                assert all(card in c.hand(receiver) for c in copies)
                third = next(q for q in range(game.players) if q not in (sender, receiver))
                hidden = [c.history[-1][3] for c in (state.resample(third, rng),)]
                assert hidden == [-1]
                return
            state.apply_action(state.legal_actions()[0])
    pytest.fail("no send in 40 games")
