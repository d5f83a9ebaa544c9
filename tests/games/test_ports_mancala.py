"""OpenSpiel's mancala (Kalah) on evoplay's port: equal to pyspiel over 2,000 seeded random games through its Python
rules and its kernels, the extra move and the capture as OpenSpiel plays them, OpenSpiel's 1,000-move limit,
check-game's promises, and OpenSpiel's referee on the port."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.kernels import KernelState  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.games.ports.mancala import MAX_GAME_LENGTH, Mancala  # noqa: E402

# (spec, seeded random games, seed): 2,000 games in all
SIDE_BY_SIDE = [("openspiel:mancala", 1000, 17), ("openspiel:mancala", 1000, 18)]


@pytest.mark.parametrize("spec,games,seed", SIDE_BY_SIDE, ids=[f"seed{s}" for _, _, s in SIDE_BY_SIDE])
def test_mancala_equals_openspiel_over_seeded_random_games(spec, games, seed):
    game = load_game(spec)
    assert isinstance(game, Mancala) and game.spec == "openspiel:mancala"
    report = against_openspiel(game, games=games, seed=seed)
    assert report.ok, str(report.difference)
    assert report.games == games and report.through == ("Python rules", "kernels")


def play(actions):
    """The port's State, its kernels' State and pyspiel's after ``actions``, checked equal on the way."""
    game = load_game("openspiel:mancala")
    ours, theirs = game.new_initial_state(), game.pyspiel_game.new_initial_state()
    kernel = KernelState.of(ours)
    for action in actions:
        for state in (ours, theirs, kernel):
            state.apply_action(action)
        assert ours.current_player() == theirs.current_player() == kernel.current_player()
        assert str(ours) == str(theirs)
        assert np.array_equal(ours.tensor(0), np.asarray(theirs.observation_tensor(0)))
    return ours, kernel


def test_a_last_bean_in_the_store_gives_another_move():
    ours, _ = play([3])  # pit 3's four beans: 4, 5, 6 and player 0's store
    assert ours.current_player() == 0 and ours.board[7] == 1 and ours.legal_actions() == [1, 2, 4, 5, 6]


def test_a_last_bean_in_an_empty_own_pit_takes_the_beans_facing_it():
    ours, _ = play([5, 8, 1])  # player 0's last bean lands in its emptied pit 5, facing pit 9's six beans
    assert ours.board[7] == 1 + 1 + 6 and ours.board[5] == ours.board[9] == 0
    assert str(ours) == "-5-5-5-5-0-0-\n0-----------8\n-0-5-5-5-0-5-\nCurrent player: 1\nMove number: 3"


def test_the_game_ends_once_its_move_number_passes_openspiels_limit():
    """OpenSpiel's IsTerminal: move_number_ > MaxGameLength() (1,000); Returns then compares each side's beans (pits
    and store). No random game comes near it, so the port's rules and kernels are held to the rule as written."""
    game = load_game("openspiel:mancala")
    state = game.new_initial_state()
    state.moves = MAX_GAME_LENGTH
    assert not state.is_terminal() and state.legal_actions() == [1, 2, 3, 4, 5, 6]
    kernel = KernelState.of(state)
    state.apply_action(6)  # pit 6 sows into player 0's store and three of player 1's pits: 21 beans to 27
    kernel.apply_action(6)
    assert state.is_terminal() and kernel.is_terminal() and state.moves == MAX_GAME_LENGTH + 1
    assert state.returns() == kernel.returns() == [-1.0, 1.0]
    assert state.tensor(0)[-2:].tolist() == kernel.features(0)[-2:].tolist() == [1.0, 1001.0]


def test_check_game_finds_every_promise_kept_and_the_port_equal_to_openspiel():
    report = check_game("openspiel:mancala", games=10, seed=4, against_openspiel=True)
    assert report.ok, [p.message for p in report.problems]
    rows = dict(report.summary())
    assert rows["engine"].startswith("evoplay's port of OpenSpiel's mancala")
    assert rows["held to OpenSpiel (--against-openspiel)"].startswith("equal to OpenSpiel (pyspiel)")


def test_openspiels_referee_plays_on_the_port():
    """OpenSpiel's MCTSBot searches the port's states (replayed into pyspiel) and beats random play."""
    game = load_game("openspiel:mancala")
    final = play_game(game, [make_agent("openspiel_mcts(simulations=300)", game), make_agent("random", game)], 3)
    assert final.is_terminal() and final.history == final.pyspiel_state.history()
    assert final.returns() == list(final.pyspiel_state.returns()) and final.returns()[0] == 1.0
    assert str(final) == str(final.pyspiel_state)
