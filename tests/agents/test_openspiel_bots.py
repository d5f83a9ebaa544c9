"""openspiel_mcts: OpenSpiel's MCTS bot on openspiel:* games and the built-ins with an OpenSpiel twin."""
import pickle

import numpy as np
import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.agents.openspiel_bots import mapping
from evoplay.arena import match, play_game
from evoplay.errors import SpecError

pytest.importorskip("pyspiel")


def _random_positions(game, count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(int(rng.integers(0, 30))):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        yield state


@pytest.mark.parametrize("spec", ("kalah(empty_capture=false)", "mnk(m=3,n=3,k=3)", "mnk(m=5,n=4,k=4)"))
def test_a_replayed_history_gives_the_same_position_in_openspiel(spec):
    game = load_game(spec)
    twin = mapping(game)
    for state in _random_positions(game, 40, 1):
        theirs = twin.state(state)
        assert theirs.is_terminal() == state.is_terminal()
        if state.is_terminal():
            assert list(theirs.returns()) == state.returns()
            continue
        player = state.current_player()
        assert theirs.current_player() == player
        assert sorted(twin.action(a, player) for a in theirs.legal_actions()) == state.legal_actions()


@pytest.mark.parametrize("spec, moves, win", [
    ("mnk(m=3,n=3,k=3)", (0, 3, 1, 4), 2),          # X on a1 b1, O on a2 b2: c1 wins
    ("openspiel:tic_tac_toe", (0, 3, 1, 4), 2),
    ("mnk(m=5,n=5,k=4)", (0, 5, 1, 6, 2, 7), 3),    # three in the first row, the fourth wins
])
def test_openspiel_mcts_takes_a_win_in_one(spec, moves, win):
    game = load_game(spec)
    state = game.new_initial_state()
    for a in moves:
        state.apply_action(a)
    agent = make_agent("openspiel_mcts(simulations=300)", game)
    agent.restart(3, 0)
    assert agent.step(state) == win


def test_openspiel_mcts_plays_kalah_in_the_second_seat_with_evoplay_pit_numbers():
    game = load_game("kalah(empty_capture=false)")
    result = match(game, make_agent("random", game), make_agent("openspiel_mcts(simulations=300)", game), games=4,
                   seed=5)
    assert result.stats()[1].wins >= 3  # the arena raises on any move that is not a legal pit for the mover


@pytest.mark.parametrize("spec", ("openspiel:connect_four", "kalah(empty_capture=false)", "mnk(m=4,n=4,k=3)"))
def test_the_same_seed_gives_the_same_moves(spec):
    game = load_game(spec)
    histories = []
    for seed in (7, 7, 8):
        agents = [make_agent("openspiel_mcts(simulations=50)", game) for _ in range(2)]
        histories.append(list(play_game(game, agents, seed=seed).history))
    assert histories[0] == histories[1]
    assert histories[0] != histories[2]


def test_it_travels_to_worker_processes():
    game = load_game("openspiel:connect_four")
    agent = make_agent("openspiel_mcts(simulations=100)", game)
    clone = pickle.loads(pickle.dumps(agent))
    state = game.new_initial_state()
    agent.restart(4, 0)
    clone.restart(4, 0)
    assert agent.step(state) == clone.step(state)


@pytest.mark.parametrize("spec, why", [
    ("kalah", "standard Kalah"),
    ("kalah(pits=4,empty_capture=false)", "6 pits of 4 seeds"),
    ("tron", "no OpenSpiel equivalent"),
    ("openspiel:leduc_poker", "hides information"),
    ("openspiel:goofspiel(num_cards=4)", "sequential games only"),
])
def test_a_game_without_an_openspiel_twin_is_refused_before_play(spec, why):
    with pytest.raises(SpecError, match=why):
        make_agent("openspiel_mcts", load_game(spec))


@pytest.mark.parametrize("spec, message", [
    ("openspiel_mcts(simulations=0)", "simulations"), ("openspiel_mcts(uct_c=-1)", "uct_c"),
    ("openspiel_mcts(rollouts=0)", "rollouts"),
])
def test_bad_parameters_say_what_would_be_right(spec, message):
    with pytest.raises(SpecError, match=message):
        make_agent(spec, load_game("openspiel:tic_tac_toe"))
