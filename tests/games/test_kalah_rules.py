"""Kalah's game object: limits, boards given by hand, the mover's view, text in and out."""
import numpy as np
import pytest

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL

SMALL = load_game("kalah(pits=3,seeds=2)")


def test_spec_limits_are_exact():
    assert load_game("kalah(pits=20,seeds=3)").pits == 20
    assert load_game("kalah(pits=7,seeds=9)").seeds == 9  # 126 seeds in all fit
    with pytest.raises(SpecError) as err:
        load_game("kalah(pits=21,seeds=1)")
    assert str(err.value) == "kalah: parameter pits='21' is out of range; give 1 to 20 (the kernels' boards)"
    with pytest.raises(SpecError) as err:
        load_game("kalah(pits=8,seeds=8)")
    assert str(err.value) == ("kalah: 128 seeds in all do not fit the int8 board; keep 2 x pits x seeds <= 127 "
                              "(e.g. pits=6, seeds<=10)")
    with pytest.raises(SpecError) as err:
        load_game("kalah(seeds=0)")
    assert str(err.value) == "kalah: parameter seeds='0' is out of range; give at least 1 (a pit starts with seeds)"
    assert load_game("kalah").new_initial_state().board().dtype == np.int8


def test_state_from_board_takes_whole_floats_up_to_127_seeds_on_an_int8_board():
    s = SMALL.state_from_board([1.0, 0.0, 3.0, 4.0, 0.0, 2.0, 5.0, 6.0], 1)
    assert s.board().tolist() == [1, 0, 3, 4, 0, 2, 5, 6] and s.board().dtype == np.int8
    assert s.current_player() == 1
    full = load_game("kalah").state_from_board([10] * 6 + [0] + [10] * 6 + [7], 0)  # 127 in all
    assert full.board()[13] == 7 and full.current_player() == 0
    with pytest.raises(SpecError) as err:
        load_game("kalah").state_from_board([10] * 6 + [0] + [10] * 6 + [8], 0)
    assert str(err.value) == ("kalah board holds 128 seeds; the engine's int8 board fits at most 127 in all "
                              "(any store could collect them all)")
    with pytest.raises(SpecError) as err:
        SMALL.state_from_board([1] * 8, 2)
    assert str(err.value) == "kalah player must be 0 or 1, got 2"


@pytest.mark.parametrize("board, over", [
    ([0, 0, 0, 4, 1, 2, 5, 6], True),  # the first player's pits are empty
    ([1, 0, 3, 4, 0, 0, 0, 6], True),  # the second player's pits are empty, its store is not
    ([0, 0, 5, 4, 0, 0, 0, 0], True),  # the second player's side empty, a seed in the first's last pit
    ([1, 0, 0, 0, 3, 0, 0, 0], False),  # only the second player's first pit holds seeds
    ([0, 0, 1, 0, 0, 0, 1, 0], False),
])
def test_a_board_with_one_side_empty_is_over(board, over):
    s = SMALL.state_from_board(board, 0)
    assert s.current_player() == (TERMINAL if over else 0)
    assert s.is_terminal() == over


def test_feature_names_and_features_are_the_board_from_a_players_side():
    assert SMALL.feature_names() == ["my_pit_1", "my_pit_2", "my_pit_3", "my_store",
                                     "opp_pit_1", "opp_pit_2", "opp_pit_3", "opp_store"]
    s = SMALL.state_from_board([1, 0, 3, 4, 0, 2, 5, 6], 1)
    assert s.features(0).tolist() == [1.0, 0.0, 3.0, 4.0, 0.0, 2.0, 5.0, 6.0]
    assert s.features(1).tolist() == [0.0, 2.0, 5.0, 6.0, 1.0, 0.0, 3.0, 4.0]
    assert s.features(0).dtype == np.float64
    assert s.board_from_mover().tolist() == [0, 2, 5, 6, 1, 0, 3, 4]
    with pytest.raises(SpecError) as err:
        s.features(2)
    assert str(err.value) == "kalah has players 0 and 1, not 2"


def test_legal_actions_history_and_the_unchecked_path():
    s = SMALL.state_from_board([1, 0, 3, 4, 0, 2, 5, 6], 0)
    assert s.legal_actions() == [0, 2]  # pit 2 is empty
    t = s.clone()
    s.apply_action(2)  # 3 seeds: to the store, then the opponent's pits 1 and 2
    t.apply_action_unchecked(2)
    assert s.board().tolist() == t.board().tolist() == [1, 0, 0, 5, 1, 3, 5, 6]
    assert s.history == t.history == [2]
    assert s.current_player() == 1


def test_pits_are_typed_from_1_and_rendered_from_each_players_left():
    s = SMALL.state_from_board([1, 0, 3, 4, 0, 2, 5, 6], 1)
    assert s.string_to_action("1") == 0 and s.string_to_action("3") == 2
    assert s.action_to_string(0) == "1"
    for text in ("0", "4", "x", "²"):
        with pytest.raises(IllegalActionError) as err:
            s.string_to_action(text)
        assert str(err.value) == f"{text!r} is not a pit; type a pit number 1..3 (from your left)"
    assert str(s) == ("         3  2  1    player 1's pits (sown right to left)\n"
                      "  [ 6]   5  2  0  [ 4]\n"
                      "         1  0  3\n"
                      "         1  2  3    player 0's pits (player 1 to move)")
    over = SMALL.state_from_board([0, 0, 0, 4, 0, 2, 5, 6], 1)
    assert str(over).endswith("player 0's pits (game over)")
    assert over.returns() == [-1.0, 1.0] and over.scores() == [4.0, 6.0]
    assert s.returns() == [0.0, 0.0]  # not over: nobody has won yet
