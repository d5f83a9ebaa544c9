"""OpenSpiel's pentago on evoplay's port: equal to pyspiel over 2,000 seeded random games through its Python rules and
its kernels (with its coloured text too; games won, drawn on a full board and drawn by a turn that makes both
players' lines), actions read from their text, check-game's promises, and OpenSpiel's referee on the port."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.errors import IllegalActionError  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.kernels import KernelState  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.games.ports.pentago import Pentago  # noqa: E402

# (spec, seeded random games, seed): 2,000 games in all
SIDE_BY_SIDE = [
    ("openspiel:pentago", 850, 17),
    ("openspiel:pentago", 850, 18),
    ("openspiel:pentago(ansi_color_output=true)", 300, 19),
]


@pytest.mark.parametrize("spec,games,seed", SIDE_BY_SIDE, ids=[f"{v[0][10:]}-{v[2]}" for v in SIDE_BY_SIDE])
def test_pentago_equals_openspiel_over_seeded_random_games(spec, games, seed):
    game = load_game(spec)
    assert isinstance(game, Pentago)
    report = against_openspiel(game, games=games, seed=seed)
    assert report.ok, str(report.difference)
    assert report.games == games and report.through == ("Python rules", "kernels")
    assert max(report.lengths) == 36  # games that fill the board


def test_a_turn_that_makes_both_players_lines_draws_as_in_openspiel():
    game = load_game("openspiel:pentago")
    moves = (37, 93, 60, 134, 260, 245, 13, 254, 223, 119, 109, 255, 209, 119, 203, 239, 185, 55)
    ours, theirs = game.new_initial_state(), game.pyspiel_game.new_initial_state()
    for action in moves:
        assert ours.action_to_string(action) == theirs.action_to_string(theirs.current_player(), action)
        ours.apply_action(action)
        theirs.apply_action(action)
    kernel = KernelState.of(game.new_initial_state())
    for action in moves:
        kernel.apply_action(action)
    assert ours.is_terminal() and theirs.is_terminal() and kernel.is_terminal()
    assert ours.returns() == list(theirs.returns()) == kernel.returns() == [0.0, 0.0]
    assert ours.outcome == 3 and str(ours) == str(theirs)
    board = np.asarray(theirs.observation_tensor(0)).reshape(3, 36)
    assert board[0].sum() + board[1].sum() == 18  # the board is not full: the turn drew the game


def test_actions_are_read_from_their_text_and_sit_on_their_cell():
    game = load_game("openspiel:pentago")
    state = game.new_initial_state()
    assert state.string_to_action("b3u") == 106 and state.action_to_string(106) == "b3u"
    assert state.action_cell(106) == state.action_cell(104) == (2, 1)  # b3's eight turns are clicked on b3
    assert state.string_to_action("B3U") == 106 and state.string_to_action("106") == 106
    state.apply_action(state.string_to_action("a1s"))  # quadrant 0 turns anticlockwise: the marble moves to a3
    assert state.board[12] == 1 and state.action_to_string(state.string_to_action("a1t")) == "a1t"
    with pytest.raises(IllegalActionError, match="'a3s' is not an action here"):
        state.string_to_action("a3s")


def test_check_game_finds_every_promise_kept_and_the_port_equal_to_openspiel():
    report = check_game("openspiel:pentago", games=3, seed=4, against_openspiel=True)
    assert report.ok, [p.message for p in report.problems]
    rows = dict(report.summary())
    assert rows["engine"].startswith("evoplay's port of OpenSpiel's pentago")
    assert rows["held to OpenSpiel (--against-openspiel)"].startswith("equal to OpenSpiel (pyspiel)")


def test_openspiels_referee_plays_on_the_port():
    """OpenSpiel's MCTSBot searches the port's states (replayed into pyspiel) and beats random play."""
    game = load_game("openspiel:pentago")
    final = play_game(game, [make_agent("openspiel_mcts(simulations=300)", game), make_agent("random", game)], 3)
    assert final.is_terminal() and final.history == final.pyspiel_state.history()
    assert final.returns() == list(final.pyspiel_state.returns()) and final.returns()[0] == 1.0
    assert str(final) == str(final.pyspiel_state)
