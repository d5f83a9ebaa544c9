"""m,n,k-games' game object: boards given by hand, who moves, the features, text in and out."""
import numpy as np
import pytest

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL

G = load_game("mnk(m=4,n=3,k=3)")
BOARD = [1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2]  # rows from a1: X O . . / . X . . / . . . O


def test_state_from_board_infers_the_mover_and_keeps_an_int8_board():
    s = G.state_from_board(BOARD)
    assert s.current_player() == 0 and s.board().dtype == np.int8  # as many X as O: X moves
    assert G.state_from_board([1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]).current_player() == 1  # one X more
    assert G.state_from_board(BOARD, 1).current_player() == 1  # a given mover is kept
    assert G.state_from_board(np.array(BOARD).reshape(3, 4)).board().tolist() == BOARD  # rows are flattened
    assert G.state_from_board([0] * 12).current_player() == 0  # an empty board is not over
    assert G.state_from_board([0] * 11 + [2], 0).current_player() == 0  # a board without X is not over
    assert G.num_distinct_actions() == 12
    for bad in ([0] * 11, [0] * 11 + [3]):
        with pytest.raises(SpecError) as err:
            G.state_from_board(bad)
        assert str(err.value) == "mnk board must have 12 cells of 0, 1 or 2"


def test_a_line_of_k_or_a_full_board_ends_the_game():
    won = G.state_from_board([1, 1, 1, 0, 2, 2, 0, 0, 0, 0, 0, 0])
    assert won.current_player() == TERMINAL and won.returns() == [1.0, -1.0]
    assert str(won).endswith("game over: X wins")
    lost = G.state_from_board([1, 1, 0, 0, 2, 2, 2, 1, 0, 0, 0, 0])
    assert lost.current_player() == TERMINAL and lost.returns() == [-1.0, 1.0]
    full = load_game("mnk(m=3,n=3,k=3)").state_from_board([1, 2, 1, 1, 2, 2, 2, 1, 1])
    assert full.current_player() == TERMINAL and full.returns() == [0.0, 0.0]
    assert str(full).endswith("game over: draw")
    assert G.state_from_board(BOARD).returns() == [0.0, 0.0]


def test_features_name_cells_like_moves_and_show_the_board_from_a_side():
    assert G.feature_names() == ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3"]
    s = G.state_from_board(BOARD)
    assert s.features(0).tolist() == [1, -1, 0, 0, 0, 1, 0, 0, 0, 0, 0, -1]
    assert s.features(1).tolist() == [-1, 1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 1]
    for bad in (2, -1):
        with pytest.raises(SpecError) as err:
            s.features(bad)
        assert str(err.value) == f"mnk has players 0 and 1, not {bad}"


def test_clone_copies_everything_and_shares_nothing():
    s = G.state_from_board(BOARD)
    s.apply_action(2)
    c = s.clone()
    assert (c.game, c.board().tolist(), c.current_player(), c.empties(), c.history) == \
        (G, s.board().tolist(), 1, 7, [2])
    c.apply_action_unchecked(3)
    assert s.board().tolist()[3] == 0 and s.history == [2] and s.empties() == 7
    assert c.board().tolist()[3] == 2 and c.history == [2, 3] and c.empties() == 6


def test_cells_are_typed_as_column_letter_and_row_number():
    s = G.state_from_board(BOARD)
    assert [s.string_to_action(t) for t in ("a1", "D3", " b 2")] == [0, 11, 5]
    assert [s.action_to_string(a) for a in (0, 5, 11)] == ["a1", "b2", "d3"]
    for text in ("e1", "a4", "a0", "1a", "ab", "a", "a²", "ä1"):
        with pytest.raises(IllegalActionError) as err:
            s.string_to_action(text)
        assert str(err.value) == f"{text!r} is not a cell; type a column letter and a row number, a1..d3"


def test_the_board_prints_row_1_at_the_bottom():
    assert str(G.state_from_board(BOARD)) == "   a b c d\n 3 . . . O\n 2 . X . .\n 1 X O . .\nX (player 0) to move"
    assert str(G.state_from_board(BOARD, 1)).endswith("O (player 1) to move")


def test_board_and_line_limits_are_exact():
    for spec in ("mnk(m=26,n=99,k=5)", "mnk(m=1,n=1,k=1)", "mnk(m=3,n=3,k=1)"):
        assert load_game(spec).new_initial_state().returns() == [0.0, 0.0]
    for m, n, bad in ((27, 3, "m='27'"), (3, 100, "n='100'"), (0, 3, "m='0'"), (3, 0, "n='0'")):
        with pytest.raises(SpecError) as err:
            load_game(f"mnk(m={m},n={n},k=1)")
        give = "1 to 26 (columns are named a to z)" if bad[0] == "m" else "1 to 99 (rows are numbered 1 to 99)"
        assert str(err.value) == f"mnk: parameter {bad} is out of range; give {give}"
    with pytest.raises(SpecError) as err:
        load_game("mnk(m=3,n=4,k=5)")
    assert str(err.value) == "mnk: k=5 cannot fit a 3x4 board; use 1..4"
    one = load_game("mnk(m=3,n=3,k=1)").new_initial_state()
    one.apply_action(4)
    assert one.is_terminal() and one.returns() == [1.0, -1.0]  # k=1: the first stone wins
