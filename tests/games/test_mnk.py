"""The m,n,k-game: kernel against reference, win detection in all four directions, notation."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL
from evoplay.games.mnk.game import play, reference_play


def _play_both(m, n, k, choices):
    board = np.zeros(m * n, np.int8)
    ref = [0] * (m * n)
    player = 0
    empties = m * n
    for choice in choices:
        free = [i for i, v in enumerate(ref) if v == 0]
        assert free == [int(i) for i in np.flatnonzero(board == 0)]
        cell = free[choice % len(free)]
        r_next, r_win = reference_play(ref, player, cell, m, n, k)
        k_next, k_win = play(board, player, cell, m, n, k, empties)
        empties -= 1
        assert (r_next, r_win) == (k_next, k_win)
        assert ref == board.tolist()
        player = r_next
        if player == TERMINAL:
            return r_win
    return None


@given(m=st.integers(1, 7), n=st.integers(1, 7), k=st.integers(1, 5),
       choices=st.lists(st.integers(0, 10_000), min_size=49, max_size=49))
def test_kernel_matches_reference(m, n, k, choices):
    k = min(k, max(m, n))
    _play_both(m, n, k, choices)


def test_thousands_of_5_5_4_games_agree():
    rng = np.random.default_rng(1)
    outcomes = [_play_both(5, 5, 4, rng.integers(0, 10_000, 25).tolist()) for _ in range(3000)]
    assert set(outcomes) <= {-1, 0, 1} and outcomes.count(0) > 0 and outcomes.count(1) > 0


@pytest.mark.parametrize("cells", [
    [0, 1, 2, 3],          # row
    [0, 5, 10, 15],        # column
    [0, 6, 12, 18],        # diagonal
    [4, 8, 12, 16],        # anti-diagonal
    [24, 18, 12, 6],       # diagonal, placed from the far end
])
def test_four_in_a_line_wins_in_every_direction(cells):
    game = load_game("mnk")
    s = game.new_initial_state()
    fillers = [c for c in range(25) if c not in cells][:3]  # three O stones cannot make four
    for i, c in enumerate(cells):
        s.apply_action(c)
        if i < 3:
            s.apply_action(fillers[i])
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_three_in_a_row_does_not_win_5_5_4():
    s = load_game("mnk").new_initial_state()
    for c in (0, 20, 1, 21, 2):
        s.apply_action(c)
    assert not s.is_terminal()


def test_tic_tac_toe_draw_and_notation():
    game = load_game("mnk(m=3,n=3,k=3)")
    s = game.new_initial_state()
    for text in ("b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1"):
        s.apply_action(s.string_to_action(text))
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and "draw" in str(s)
    with pytest.raises(IllegalActionError, match="a1..c3"):
        s.string_to_action("d9")


def test_state_from_board_finds_the_winner():
    game = load_game("mnk(m=3,n=3,k=3)")
    s = game.state_from_board([1, 1, 1, 2, 2, 0, 0, 0, 0])
    assert s.is_terminal() and s.winner() == 0


def test_bad_specs():
    with pytest.raises(SpecError, match="cannot fit"):
        load_game("mnk(m=3,n=3,k=4)")
