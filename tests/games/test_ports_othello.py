"""OpenSpiel's othello on evoplay's port: equal to pyspiel over 2,000 seeded random games through its Python rules and
its kernels (games ending on a full board, early, and with passes), a pass as OpenSpiel plays it, check-game's
promises, and uct on the kernels against OpenSpiel's referee."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.kernels import KernelState, kernels_of  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.games.ports.othello import PASS, Othello  # noqa: E402

# (spec, seeded random games, seed): 2,000 games in all
SIDE_BY_SIDE = [("openspiel:othello", 500, seed) for seed in (17, 18, 19, 20)]


@pytest.mark.parametrize("spec,games,seed", SIDE_BY_SIDE, ids=[f"seed{s}" for _, _, s in SIDE_BY_SIDE])
def test_othello_equals_openspiel_over_seeded_random_games(spec, games, seed):
    game = load_game(spec)
    assert isinstance(game, Othello)
    report = against_openspiel(game, games=games, seed=seed)
    assert report.ok, str(report.difference)
    assert report.games == games and report.through == ("Python rules", "kernels")
    # games that stop before the board is full (no one can place) and games with passes (more than 60 moves)
    assert min(report.lengths) < 60 < max(report.lengths)


def test_a_player_who_cannot_place_passes_as_openspiel_plays_it():
    game = load_game("openspiel:othello")
    ours, theirs = game.new_initial_state(), game.pyspiel_game.new_initial_state()
    for action in (26, 18, 44, 25, 24, 32, 10, 16):  # black c4, white c3, ...: black is left without a move
        ours.apply_action(action)
        theirs.apply_action(action)
    assert ours.legal_actions() == theirs.legal_actions() == [PASS]
    assert ours.current_player() == theirs.current_player() == 0
    assert ours.action_to_string(PASS) == theirs.action_to_string(0, PASS) == "pass"
    kernel = KernelState.of(ours)
    for state in (ours, theirs, kernel):
        state.apply_action(PASS)
    assert ours.current_player() == theirs.current_player() == kernel.current_player() == 1
    assert not ours.is_terminal() and ours.legal_actions() == theirs.legal_actions() == kernel.legal_actions()
    assert str(ours) == str(theirs) and str(ours).startswith("White (o) to play:\n")
    assert np.array_equal(ours.tensor(1), np.asarray(theirs.observation_tensor(1)))
    assert np.array_equal(kernels_of(game).features_of(kernel.position, 1), ours.features(1))


def test_check_game_finds_every_promise_kept_and_the_port_equal_to_openspiel():
    report = check_game("openspiel:othello", games=6, seed=4, against_openspiel=True)
    assert report.ok, [p.message for p in report.problems]
    rows = dict(report.summary())
    assert rows["engine"].startswith("evoplay's port of OpenSpiel's othello")
    assert rows["held to OpenSpiel (--against-openspiel)"].startswith("equal to OpenSpiel (pyspiel)")


def test_uct_searches_the_port_on_its_kernels_against_openspiels_referee():
    game = load_game("openspiel:othello")
    uct = make_agent("uct(simulations=60)", game)
    assert uct._kernel is not None
    final = play_game(game, [make_agent("openspiel_mcts(simulations=60)", game), uct], 3)
    assert final.is_terminal() and final.history == final.pyspiel_state.history()
    assert final.returns() == list(final.pyspiel_state.returns())
