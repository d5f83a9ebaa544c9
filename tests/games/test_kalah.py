"""Kalah: the Numba kernel against the Python reference, seed conservation, and the rules' special cases."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import reference_legal_actions, reference_sow, sow


def _play_both(pits, seeds, empty_capture, choices):
    """Play a game through the kernel and the reference side by side; return the number of moves."""
    game = load_game(f"kalah(pits={pits},seeds={seeds},empty_capture={str(empty_capture).lower()})")
    board = game.initial_board()
    ref = [int(x) for x in board]
    total = int(board.sum())
    player = 0
    moves = 0
    for choice in choices:
        legal = reference_legal_actions(ref, player, pits)
        kernel_legal = [p for p in range(pits) if board[(0 if player == 0 else pits + 1) + p] > 0]
        assert legal == kernel_legal
        pit = legal[choice % len(legal)]
        ref_next = reference_sow(ref, player, pit, pits, empty_capture)
        player_k = sow(board, player, pit, pits, empty_capture)
        assert ref_next == player_k
        assert ref == [int(x) for x in board]
        assert int(board.sum()) == total, "seeds must be conserved"
        assert (board >= 0).all()
        player = ref_next
        moves += 1
        if player == TERMINAL:
            assert board[:pits].sum() == 0 and board[pits + 1 : 2 * pits + 1].sum() == 0
            break
    return moves


@given(
    pits=st.integers(1, 8),
    seeds=st.integers(1, 7),
    empty_capture=st.booleans(),
    choices=st.lists(st.integers(0, 1000), min_size=1, max_size=400),
)
def test_kernel_matches_reference_on_random_games(pits, seeds, empty_capture, choices):
    if 2 * pits * seeds > 127:
        seeds = 127 // (2 * pits)
    _play_both(pits, seeds, empty_capture, choices)


def test_thousands_of_seeded_random_games_agree():
    rng = np.random.default_rng(0)
    finished = 0
    for g in range(2000):
        pits, seeds = (6, 4) if g % 2 == 0 else (int(rng.integers(2, 8)), int(rng.integers(1, 8)))
        seeds = min(seeds, 127 // (2 * pits))
        if _play_both(pits, seeds, bool(g % 3), rng.integers(0, 1000, size=500).tolist()) < 500:
            finished += 1
    assert finished == 2000


def test_extra_move_from_own_store():
    state = load_game("kalah").new_initial_state()
    state.apply_action(2)  # pit 3 holds 4 seeds: the last lands in the store
    assert state.current_player() == 0
    assert state.board().tolist() == [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]


def test_empty_capture_rule_and_standard_rule():
    board = [1, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 5, 3, 0]
    # Player 0 sows pit 0 into the empty pit 1; the opposite pit (index 11) holds 5.
    seed_rules = load_game("kalah").state_from_board(board, 0)
    seed_rules.apply_action(0)
    assert seed_rules.board().tolist()[6] == 6
    board_empty_opposite = [0, 0, 0, 1, 0, 0, 0,  0, 0, 0, 0, 5, 3, 0]
    s = load_game("kalah").state_from_board(board_empty_opposite, 0)
    s.apply_action(3)  # lands in pit index 4, opposite index 8 is empty: seed rule still captures the seed
    assert s.board().tolist()[6] == 1 and s.board().tolist()[4] == 0
    std = load_game("kalah(empty_capture=false)").state_from_board(board_empty_opposite, 0)
    std.apply_action(3)
    assert std.board().tolist()[6] == 0 and std.board().tolist()[4] == 1


def test_game_end_sweeps_remaining_seeds_to_their_owner():
    board = [0, 0, 0, 0, 0, 1, 20,  2, 2, 2, 0, 0, 0, 21]
    s = load_game("kalah").state_from_board(board, 0)
    s.apply_action(5)  # last seed into the store; player 0's side is empty: the game ends
    assert s.is_terminal()
    assert s.board().tolist() == [0, 0, 0, 0, 0, 0, 21, 0, 0, 0, 0, 0, 0, 27]
    assert s.returns() == [-1.0, 1.0] and s.scores() == [21.0, 27.0]
    assert s.winner() == 1


def test_sowing_skips_the_opponents_store():
    board = [0, 0, 0, 0, 0, 10, 0,  1, 1, 1, 1, 1, 1, 0]
    s = load_game("kalah").state_from_board(board, 0)
    s.apply_action(5)
    b = s.board().tolist()
    assert b[13] == 0 and sum(b) == 16


def test_actions_strings_and_errors():
    s = load_game("kalah").new_initial_state()
    assert s.action_to_string(0) == "1" and s.string_to_action("6") == 5
    with pytest.raises(IllegalActionError, match="pit number 1..6"):
        s.string_to_action("7")
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply_action(9)
    assert "player 0 to move" in str(s)
    assert len(s.board()) == 14


def test_board_from_movers_side():
    s = load_game("kalah").new_initial_state()
    s.apply_action(0)  # player 1 to move
    assert s.current_player() == 1
    mover = s.board_from_mover()
    assert mover.tolist() == s.board().tolist()[7:] + s.board().tolist()[:7]


def test_clone_is_independent():
    s = load_game("kalah").new_initial_state()
    c = s.clone()
    c.apply_action(0)
    assert s.board().tolist() != c.board().tolist()


def test_bad_specs_name_what_is_right():
    with pytest.raises(SpecError, match="keep 2 x pits x seeds <= 127"):
        load_game("kalah(pits=6,seeds=11)")
    with pytest.raises(SpecError, match="give 1 to 20"):
        load_game("kalah(pits=0)")
    with pytest.raises(SpecError, match="true or false"):
        load_game("kalah(empty_capture=maybe)")


@pytest.mark.parametrize("board, words", [
    ([10] * 6 + [0] + [10] * 6 + [14], "134 seeds.*at most 127"),  # a store would wrap to -128
    ([4] * 5 + [-1, 0] + [4] * 6 + [0], "negative count"),
    ([4] * 13, "must have 14 numbers"),
    ([4.5] + [4] * 13, "whole numbers"),
])
def test_state_from_board_refuses_boards_the_engine_cannot_hold(board, words):
    with pytest.raises(SpecError, match=words):
        load_game("kalah").state_from_board(board, 0)
