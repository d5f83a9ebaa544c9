"""The OpenSpiel adapter: equal to pyspiel move for move, seeded chance, hidden information, clear errors."""
from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.errors import IllegalActionError, SpecError  # noqa: E402
from evoplay.games import CHANCE, SIMULTANEOUS, TERMINAL, load_game  # noqa: E402
from evoplay.games.tools.openspiel import OpenSpielGame, OpenSpielState  # noqa: E402

# (evoplay spec, the same game loaded in pyspiel, random games): turn-based, chance, simultaneous, imperfect
# information, three players.
GAMES = [
    ("openspiel:tic_tac_toe(engine=openspiel)", ("tic_tac_toe", {}), 1500),
    ("openspiel:connect_four(engine=openspiel)", ("connect_four", {}), 300),
    ("openspiel:pig(winscore=15,engine=openspiel)", ("pig", {"winscore": 15}), 300),  # chance (the adapter's)
    ("openspiel:goofspiel(num_cards=4)", ("goofspiel", {"num_cards": 4}), 600),
    ("openspiel:kuhn_poker", ("kuhn_poker", {}), 1500),
    ("openspiel:leduc_poker", ("leduc_poker", {}), 400),
    ("openspiel:kuhn_poker(players=3)", ("kuhn_poker", {"players": 3}), 600),
]


def _lockstep(ours: OpenSpielState, theirs, rng: np.random.Generator) -> None:
    """Play one random game on both states, comparing everything the API exposes at every step."""
    game = ours.game
    n = game.num_players
    while True:
        assert ours.is_terminal() == theirs.is_terminal()
        if theirs.is_terminal():
            assert ours.current_player() == TERMINAL
            assert ours.returns() == list(theirs.returns())
            assert ours.legal_actions() == []
            return
        assert ours.current_player() == theirs.current_player()
        assert ours.is_chance_node() == theirs.is_chance_node()
        layout = game.seat_layout
        for p in range(n):
            tensor = np.asarray(theirs.observation_tensor(p))
            assert np.array_equal(ours.tensor(p), tensor)
            assert np.array_equal(ours.features(p), tensor if layout is None else tensor[layout.index[p]])
        assert ours.returns() == list(theirs.returns())
        if theirs.is_chance_node():
            assert ours.current_player() == CHANCE
            outcomes = theirs.chance_outcomes()
            assert ours.chance_outcomes() == [(a, p) for a, p in outcomes]
            probs = np.array([p for _, p in outcomes])
            action = outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0]
            ours.apply_action(action)
            theirs.apply_action(action)
        elif theirs.is_simultaneous_node():
            assert ours.current_player() == SIMULTANEOUS
            joint = []
            for p in range(n):
                legal = list(theirs.legal_actions(p))
                assert ours.legal_actions(p) == legal
                joint.append(legal[int(rng.integers(len(legal)))])
            ours.apply_actions(joint)
            theirs.apply_actions(joint)
        else:
            legal = list(theirs.legal_actions())
            assert ours.legal_actions() == legal
            assert ours.legal_actions(theirs.current_player()) == legal
            action = legal[int(rng.integers(len(legal)))]
            assert ours.action_to_string(action) == theirs.action_to_string(theirs.current_player(), action)
            ours.apply_action(action)
            theirs.apply_action(action)
        assert str(ours) == str(theirs)


@pytest.mark.parametrize("spec,native,games", GAMES, ids=[g[0] for g in GAMES])
def test_adapter_equals_pyspiel_over_random_games(spec, native, games):
    game = load_game(spec)
    reference = pyspiel.load_game(*native)
    assert isinstance(game, OpenSpielGame) and game.num_players == reference.num_players()
    assert game.num_distinct_actions() == reference.num_distinct_actions()
    assert game.num_features() == len(game.feature_names()) == int(np.prod(reference.observation_tensor_shape()))
    rng = np.random.default_rng(11)
    for _ in range(games):
        _lockstep(game.new_initial_state(), reference.new_initial_state(), rng)


def test_game_kinds_are_read_from_pyspiel():
    assert load_game("openspiel:tic_tac_toe").perfect_information
    assert not load_game("openspiel:kuhn_poker").perfect_information
    assert load_game("openspiel:goofspiel(num_cards=4)").simultaneous
    assert load_game("openspiel:kuhn_poker(players=3)").num_players == 3


def test_spec_is_canonical_and_pickles_as_a_spec():
    game = load_game("openspiel:goofspiel( points_order=descending , num_cards=4, players=2)")
    assert game.spec == "openspiel:goofspiel(num_cards=4,points_order=descending)"
    assert load_game("openspiel:goofspiel(num_cards=13)").spec == "openspiel:goofspiel"
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game and copy.pyspiel_game.get_parameters() == game.pyspiel_game.get_parameters()
    assert load_game("openspiel:kuhn_poker(players=3)").pyspiel_game.num_players() == 3


def test_same_seed_same_chance_events_in_the_arena():
    game = load_game("openspiel:pig(winscore=15,engine=openspiel)")
    histories = []
    for seed in (3, 3, 4):
        state = play_game(game, [make_agent("random", game), make_agent("random", game)], seed)
        histories.append(state.history)
    assert histories[0] == histories[1]
    assert histories[0] != histories[2]


def test_simultaneous_game_plays_in_the_arena_with_each_players_actions():
    game = load_game("openspiel:goofspiel(num_cards=4,points_order=descending)")
    state = play_game(game, [make_agent("random", game), make_agent("random", game)], 1)
    assert state.is_terminal() and len(state.history) == 6  # three rounds of two cards; the last card plays itself


def test_illegal_actions_are_refused_though_pyspiel_would_take_them():
    state = load_game("openspiel:tic_tac_toe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(4)
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(99)
    goof = load_game("openspiel:goofspiel(num_cards=4,points_order=descending)").new_initial_state()
    with pytest.raises(IllegalActionError, match="one action per player"):
        goof.apply_actions([0])
    with pytest.raises(IllegalActionError, match="not legal for player 1"):
        goof.apply_actions([0, 7])
    with pytest.raises(IllegalActionError, match="apply_actions"):
        goof.apply_action(0)
    with pytest.raises(IllegalActionError, match="legal_actions\\(player\\)"):
        goof.legal_actions()


def test_clone_is_independent():
    state = load_game("openspiel:connect_four").new_initial_state()
    copy = state.clone()
    copy.apply_action(3)
    assert state.history == [] and copy.history == [3]


def test_features_are_the_players_own_view():
    state = load_game("openspiel:kuhn_poker").new_initial_state()
    state.apply_action(0)  # player 0 gets the jack
    state.apply_action(2)  # player 1 gets the king
    mine, theirs = state.features(0), state.features(1)
    assert not np.array_equal(mine, theirs)
    assert np.array_equal(mine, np.asarray(state.pyspiel_state.observation_tensor(0)))
    with pytest.raises(SpecError, match="players 0..1"):
        state.features(2)


def test_resample_keeps_what_the_player_sees():
    state = load_game("openspiel:leduc_poker").new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    seen = set()
    for _ in range(30):
        other = state.resample(0, rng)
        assert isinstance(other, OpenSpielState)
        assert np.array_equal(other.features(0), state.features(0))
        seen.add(tuple(other.features(1)))
    assert len(seen) > 1  # player 1's hidden card is drawn, not copied
    perfect = load_game("openspiel:tic_tac_toe").new_initial_state()
    assert perfect.resample(0, rng).history == perfect.history


def test_resample_where_openspiel_cannot_is_a_clear_error():
    state = load_game("openspiel:liars_dice").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(SpecError, match="cannot resample a hidden state"):
        state.resample(0, np.random.default_rng(0))


def test_openspiels_python_games_load_too():
    game = load_game("openspiel:python_tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    assert state.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8] and game.num_features() == 27


def test_action_strings_round_trip():
    state = load_game("openspiel:tic_tac_toe").new_initial_state()
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    assert state.string_to_action("4") == 4
    with pytest.raises(IllegalActionError, match="type one of"):
        state.string_to_action("nowhere")


def test_unknown_game_and_parameter_errors_say_what_is_right():
    with pytest.raises(SpecError, match="did you mean 'connect_four'"):
        load_game("openspiel:connect_fuor")
    with pytest.raises(SpecError, match="no parameter 'cards'.*num_cards"):
        load_game("openspiel:goofspiel(cards=4)")
    with pytest.raises(SpecError, match="not an integer"):
        load_game("openspiel:goofspiel(num_cards=four)")
    with pytest.raises(SpecError, match="by name"):
        load_game("openspiel:goofspiel(4)")


def test_missing_open_spiel_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(SpecError, match=r"pip install 'evoplay\[openspiel\]'"):
        load_game("openspiel:tic_tac_toe")


def test_a_game_is_loaded_from_pyspiel_once_a_process(capfd):
    # OpenSpiel prints some games' warnings at every load (quoridor: 'has known issues'); a game is loaded again
    # wherever it is unpickled (each worker task), and a 2-minute run printed the warning 791 times
    from evoplay.games.tools.openspiel import _load_pyspiel

    _load_pyspiel.cache_clear()
    games = [load_game("openspiel:quoridor(board_size=5)") for _ in range(3)]
    games.append(pickle.loads(pickle.dumps(games[0])))
    assert len({id(g.pyspiel_game) for g in games}) == 1
    assert capfd.readouterr().err.count("known issues") <= 1  # once (or never, in an OpenSpiel without it)
    a, b = games[0].new_initial_state(0), games[1].new_initial_state(0)
    a.apply_action(a.legal_actions()[0])
    assert b.legal_actions() == games[2].new_initial_state(0).legal_actions()  # states stay their own
    assert load_game("openspiel:quoridor(board_size=7)").pyspiel_game is not games[0].pyspiel_game
