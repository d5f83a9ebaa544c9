"""OpenSpiel's dots_and_boxes on evoplay's port: equal to pyspiel over 2,000 seeded random games through its Python
rules and its kernels (boards of 1x1 to 4x3 boxes, utility_margin), the extra turn after a box and a line that takes
two, sizes the port does not play, check-game's promises, and OpenSpiel's referee on the port."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.errors import SpecError  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.kernels import KernelState  # noqa: E402
from evoplay.games.tools.openspiel import OpenSpielGame  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.games.ports.dots_and_boxes import DotsAndBoxes  # noqa: E402

# (spec, seeded random games, seed): 2,000 games in all
SIDE_BY_SIDE = [
    ("openspiel:dots_and_boxes", 700, 17),  # 2x2 boxes
    ("openspiel:dots_and_boxes(num_cols=3,num_rows=3)", 500, 18),
    ("openspiel:dots_and_boxes(num_cols=4,num_rows=2,utility_margin=true)", 300, 19),
    ("openspiel:dots_and_boxes(num_cols=3,num_rows=4)", 200, 20),
    ("openspiel:dots_and_boxes(num_cols=1,num_rows=5)", 200, 21),
    ("openspiel:dots_and_boxes(num_cols=1,num_rows=1)", 100, 22),
]


@pytest.mark.parametrize("spec,games,seed", SIDE_BY_SIDE, ids=[v[0][10:] for v in SIDE_BY_SIDE])
def test_dots_and_boxes_equals_openspiel_over_seeded_random_games(spec, games, seed):
    game = load_game(spec)
    assert isinstance(game, DotsAndBoxes)
    report = against_openspiel(game, games=games, seed=seed)
    assert report.ok, str(report.difference)
    assert report.games == games and report.through == ("Python rules", "kernels")
    assert set(report.lengths) == {game.lines}  # every game draws every line


def play(spec: str, actions):
    """The port's State, its kernels' State and pyspiel's after ``actions``, checked equal on the way."""
    game = load_game(spec)
    ours, theirs = game.new_initial_state(), game.pyspiel_game.new_initial_state()
    kernel = KernelState.of(ours)
    for action in actions:
        assert ours.action_to_string(action) == theirs.action_to_string(theirs.current_player(), action)
        for state in (ours, theirs, kernel):
            state.apply_action(action)
        assert ours.current_player() == theirs.current_player() == kernel.current_player()
    assert str(ours) == str(theirs) and ours.returns() == list(theirs.returns()) == kernel.returns()
    assert np.array_equal(ours.tensor(0), np.asarray(theirs.observation_tensor(0)))
    return ours, theirs


def test_taking_a_box_gives_another_turn():
    ours, _ = play("openspiel:dots_and_boxes", [0, 2, 6])  # P1(h,0,0), P2(h,1,0), P1(v,0,0)
    assert ours.current_player() == 1 and ours.action_to_string(7) == "P2(v,0,1)"
    ours, _ = play("openspiel:dots_and_boxes", [0, 2, 6, 7])  # player 1 closes the top-left box: it moves again
    assert ours.current_player() == 1 and ours.points == [0, 1] and ours.p[0] == 2
    assert str(ours).splitlines()[1] == "│ 2 │    "


@pytest.mark.parametrize("margin,returns", [(False, [1.0, -1.0]), (True, [2.0, -2.0])])
def test_a_line_between_two_open_boxes_takes_both_and_ends_the_game(margin, returns):
    spec = f"openspiel:dots_and_boxes(num_cols=2,num_rows=1{',utility_margin=true' if margin else ''})"
    ours, theirs = play(spec, [0, 1, 2, 3, 4, 6, 5])  # the middle line, drawn last by player 0
    assert ours.is_terminal() and theirs.is_terminal() and ours.points == [2, 0]
    assert ours.returns() == returns
    assert load_game(spec).max_utility() == (2.0 if margin else 1.0)


def test_sizes_the_port_does_not_play_fall_back_to_openspiel_and_engine_port_says_why():
    spec = "openspiel:dots_and_boxes(num_cols=101,num_rows=1)"
    assert isinstance(load_game(spec), OpenSpielGame) and "1..100 of each" in load_game(spec).engine_note
    with pytest.raises(SpecError, match="1..100 of each"):
        load_game(spec[:-1] + ",engine=port)")


def test_check_game_finds_every_promise_kept_and_the_port_equal_to_openspiel():
    report = check_game("openspiel:dots_and_boxes(num_cols=3,num_rows=2)", games=10, seed=4, against_openspiel=True)
    assert report.ok, [p.message for p in report.problems]
    rows = dict(report.summary())
    assert rows["engine"].startswith("evoplay's port of OpenSpiel's dots_and_boxes")
    assert rows["held to OpenSpiel (--against-openspiel)"].startswith("equal to OpenSpiel (pyspiel)")


def test_openspiels_referee_plays_on_the_port():
    """OpenSpiel's MCTSBot searches the port's states (replayed into pyspiel) and beats random play."""
    game = load_game("openspiel:dots_and_boxes(num_cols=3,num_rows=3)")
    final = play_game(game, [make_agent("openspiel_mcts(simulations=300)", game), make_agent("random", game)], 3)
    assert final.is_terminal() and final.history == final.pyspiel_state.history()
    assert final.returns() == list(final.pyspiel_state.returns()) and final.returns()[0] == 1.0
    assert str(final) == str(final.pyspiel_state)
