"""Observation tensors made relative to the seat (evoplay.games.tools.seat_view): owned planes and board turns."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel")

from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402


@pytest.mark.parametrize("spec, turn", [
    ("openspiel:breakthrough(rows=5,columns=5)", "flip rows"),
    ("openspiel:chess", "flip rows"),
    ("openspiel:checkers", "half turn"),
])
def test_a_symmetric_start_looks_the_same_from_both_seats(spec, turn):
    game = load_game(spec)
    layout = game.seat_layout
    assert layout is not None and layout.turn == turn
    start = game.new_initial_state()
    assert np.array_equal(start.tensor(0), start.tensor(1))  # OpenSpiel shows both the same tensor...
    assert not np.array_equal(layout.index[1], np.arange(len(layout.index[1])))  # ...which player 1 reorders
    assert np.array_equal(start.features(0), start.features(1))  # ...into the same view of its own side


def test_each_player_sees_its_own_stones_in_the_first_players_plane():
    game = load_game("openspiel:connect_four")
    layout = game.seat_layout
    assert layout is not None and layout.turn == ""  # gravity is the same for both: no turn
    state = game.new_initial_state()
    state.apply_action(3)  # player 0 drops a stone in the middle column
    mine = layout.owned[0][0]
    cells = 6 * 7
    own0 = state.features(0)[mine * cells:(mine + 1) * cells]
    own1 = state.features(1)[mine * cells:(mine + 1) * cells]
    assert own0.sum() == 1 and own1.sum() == 0
    state.apply_action(3)  # player 1 answers on top
    assert state.features(1)[mine * cells:(mine + 1) * cells].sum() == 1


def test_hex_pairs_each_sides_edge_planes_and_transposes_the_board():
    game = load_game("openspiel:hex(board_size=5)")
    layout = game.seat_layout
    assert layout is not None and layout.turn in ("transpose", "anti-transpose")
    assert len(layout.owned[0]) == len(layout.owned[1]) == 4
    # The first player's stone on a cell and the second player's on the mirrored cell look the same to each.
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(0 * 5 + 2)  # player 0 at row 0, column 2
    a.apply_action(24)
    cell = (0, 2)
    mirrored = (cell[1], cell[0]) if layout.turn == "transpose" else (4 - cell[1], 4 - cell[0])
    b.apply_action(24 if mirrored[0] * 5 + mirrored[1] != 24 else 23)
    b.apply_action(mirrored[0] * 5 + mirrored[1])
    first = a.features(0).reshape(9, 5, 5)
    second = b.features(1).reshape(9, 5, 5)
    owned = layout.owned[0]
    assert np.array_equal(first[owned].sum(axis=0)[cell], second[owned].sum(axis=0)[cell])
    assert first[owned].sum(axis=0)[cell] == 1


def test_games_whose_tensors_already_differ_by_player_keep_them():
    assert load_game("openspiel:clobber(rows=5,columns=5)").seat_layout is None


def test_check_game_warns_when_no_feature_depends_on_the_seat():
    blind = check_game("openspiel:oware", games=3)  # pits are seen the same way by both: nothing pairs up
    assert blind.ok and any("no feature depends on the seat" in w for w in blind.warnings)
    relative = check_game("openspiel:connect_four", games=3)
    assert relative.ok and not relative.warnings
