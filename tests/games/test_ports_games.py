"""Every port held to OpenSpiel: 2,000 seeded random games or more a port through its Python rules and its kernels
side by side with pyspiel (spread over the parameters it plays: several board sizes, hex's swap rule and string
forms, connect four's lines and egocentric tensor, boards small enough to end full, pig's players, dice, piglet and
horizon), check-game's promises on each, and OpenSpiel's referee and evoplay's uct playing on them."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.errors import SpecError  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.tools.openspiel import OpenSpielGame  # noqa: E402
from evoplay.games.ports import PORTS  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.games.ports.base import PortGame  # noqa: E402

# (spec, seeded random games); each port's games add up to 2,000 or more (tic_tac_toe: tests/games/test_ports.py)
SIDE_BY_SIDE = {
    "connect_four": [
        ("openspiel:connect_four", 900),
        ("openspiel:connect_four(rows=4,columns=5,x_in_row=3)", 400),
        ("openspiel:connect_four(egocentric_obs_tensor=true)", 300),
        ("openspiel:connect_four(rows=3,columns=3,x_in_row=3)", 300),  # most games end on a full board
        ("openspiel:connect_four(rows=2,columns=2,x_in_row=5)", 100),  # every game ends on a full board
    ],
    "breakthrough": [
        ("openspiel:breakthrough", 250),
        ("openspiel:breakthrough(rows=5,columns=5)", 700),
        ("openspiel:breakthrough(rows=6,columns=3)", 400),
        ("openspiel:breakthrough(rows=4,columns=7)", 400),
        ("openspiel:breakthrough(rows=12,columns=4)", 150),
        ("openspiel:breakthrough(rows=2,columns=2)", 100),
    ],
    "hex": [
        ("openspiel:hex", 60),
        ("openspiel:hex(board_size=7)", 200),
        ("openspiel:hex(board_size=5)", 600),
        ("openspiel:hex(board_size=2)", 200),
        ("openspiel:hex(num_cols=5,num_rows=3)", 250),
        ("openspiel:hex(num_cols=2,num_rows=4)", 200),
        ("openspiel:hex(board_size=4,swap=true)", 400),
        ("openspiel:hex(board_size=4,string_rep=explicit)", 100),
        ("openspiel:hex(board_size=4,plain_obs_tensor=true)", 150),
    ],
    "clobber": [
        ("openspiel:clobber", 900),
        ("openspiel:clobber(rows=4,columns=4)", 400),
        ("openspiel:clobber(rows=2,columns=7)", 250),
        ("openspiel:clobber(rows=11,columns=3)", 200),
        ("openspiel:clobber(rows=8,columns=8)", 150),
        ("openspiel:clobber(rows=2,columns=2)", 100),
    ],
    "pig": [  # chance nodes: each die drawn once with its probability and thrown on all three
        ("openspiel:pig", 500),
        ("openspiel:pig(winscore=30,diceoutcomes=4)", 600),
        ("openspiel:pig(players=3,winscore=20)", 400),
        ("openspiel:pig(players=4,winscore=10,diceoutcomes=3,piglet=true)", 200),
        ("openspiel:pig(piglet=true,winscore=10)", 150),
        ("openspiel:pig(horizon=15,winscore=40)", 150),  # most games reach the horizon, some on a roll ("rolling")
    ],
}
VARIANTS = [(name, spec, games) for name, rows in SIDE_BY_SIDE.items() for spec, games in rows]


def test_each_of_these_ports_has_2000_games_or_more_side_by_side():
    assert set(SIDE_BY_SIDE) <= set(PORTS)
    for name, rows in SIDE_BY_SIDE.items():
        assert sum(games for _, games in rows) >= 2000, name


@pytest.mark.parametrize("name,spec,games", VARIANTS, ids=[v[1].removeprefix("openspiel:") for v in VARIANTS])
def test_the_port_equals_openspiel_over_seeded_random_games(name, spec, games):
    game = load_game(spec)
    assert isinstance(game, PortGame) and game.openspiel_name == name
    report = against_openspiel(game, games=games, seed=17)
    assert report.ok, str(report.difference)
    assert report.games == games and report.through == ("Python rules", "kernels")


def test_small_connect_four_boards_end_full_and_drawn():
    game = load_game("openspiel:connect_four(rows=2,columns=2,x_in_row=5)")
    state = game.new_initial_state()
    for action in (0, 1, 0, 1):
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and str(state) == "xo\nxo\n"


def test_hex_swap_and_the_explicit_board_as_openspiel_plays_them():
    game = load_game("openspiel:hex(board_size=4,swap=true,string_rep=explicit)")
    ours, theirs = game.new_initial_state(), game.pyspiel_game.new_initial_state()
    for action in (1, 16, 0, 8, 5):  # black b1; white swaps (its stone on a2, mirrored); black a1; ...
        assert ours.legal_actions() == theirs.legal_actions()
        assert ours.action_to_string(action) == theirs.action_to_string(theirs.current_player(), action)
        ours.apply_action(action)
        theirs.apply_action(action)
        assert str(ours) == str(theirs) and ours.current_player() == theirs.current_player()
        assert np.array_equal(ours.tensor(0), np.asarray(theirs.observation_tensor(0)))
    assert ours.action_to_string(16) == "swap" and 16 not in ours.legal_actions()


@pytest.mark.parametrize("spec,words", [
    ("openspiel:hex(board_size=1)", "2..26 of each"),
    ("openspiel:hex(num_cols=3,num_rows=4,swap=true)", "square boards"),
    ("openspiel:breakthrough(rows=27)", "2..26 of each"),
    ("openspiel:connect_four(x_in_row=0)", "lines of 1 or more"),
    ("openspiel:pig(players=1)", "2 or more"),
    ("openspiel:pig(piglet=true,diceoutcomes=1)", "probability 0"),
])
def test_parameters_a_port_does_not_play_fall_back_to_openspiel_and_engine_port_says_why(spec, words):
    game = load_game(spec)
    assert isinstance(game, OpenSpielGame) and words in game.engine_note
    with pytest.raises(SpecError, match=words):
        load_game(spec[:-1] + ",engine=port)")


@pytest.mark.parametrize("spec", ["openspiel:connect_four", "openspiel:breakthrough(rows=6,columns=5)",
                                  "openspiel:hex(board_size=5,swap=true)", "openspiel:clobber",
                                  "openspiel:pig(players=3,winscore=30)"])
def test_check_game_finds_every_promise_kept(spec):
    report = check_game(spec, games=15, seed=4)
    assert report.ok, [p.message for p in report.problems]
    assert "port" in dict(report.summary())["engine"]


@pytest.mark.parametrize("spec", ["openspiel:connect_four", "openspiel:breakthrough(rows=5,columns=5)",
                                  "openspiel:hex(board_size=5)", "openspiel:clobber"])
def test_openspiels_referee_plays_on_the_port(spec):
    game = load_game(spec)
    final = play_game(game, [make_agent("openspiel_mcts(simulations=200)", game), make_agent("random", game)], 3)
    assert final.is_terminal() and final.returns()[0] == 1.0  # the referee beats random play as the first player
    assert str(final.pyspiel_state) == str(final)


@pytest.mark.parametrize("spec", ["openspiel:pig(winscore=30,diceoutcomes=4)", "openspiel:pig(players=3,winscore=20)"])
def test_openspiels_referee_plays_pig_with_its_dice_on_the_port(spec):
    """The referee moves on the port's pyspiel_state (replayed through the dice thrown so far); the arena throws the
    dice on the port's own chance outcomes."""
    game = load_game(spec)
    agents = [make_agent("openspiel_mcts(simulations=100)", game)] + [make_agent("random", game)] * (
        game.num_players - 1)
    final = play_game(game, agents, 5)
    assert final.is_terminal() and max(final.returns()) == 1.0
    assert str(final.pyspiel_state) == str(final) and final.pyspiel_state.history() == final.history
    assert final.pyspiel_state.returns() == final.returns()


def test_pig_ends_at_the_horizon_on_a_roll_as_openspiel_prints_it():
    game = load_game("openspiel:pig(horizon=3)")
    state = game.new_initial_state()
    for action in (0, 3, 1, 0):  # roll, a 4, stop (4 banked), roll: the third move reaches the horizon
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert str(state) == str(state.pyspiel_state) == "Scores: 4 0, Turn total: 0\nCurrent player: 1 (rolling)\n"


def test_uct_searches_a_port_on_its_kernels_against_the_referee():
    game = load_game("openspiel:connect_four")
    uct = make_agent("uct(simulations=400)", game)
    assert uct._kernel is not None  # the search runs inside Numba, on the port's kernels
    final = play_game(game, [uct, make_agent("openspiel_mcts(simulations=400)", game)], 2)
    assert final.is_terminal() and final.history == final.pyspiel_state.history()


@pytest.mark.parametrize("spec", ["openspiel:tic_tac_toe", "openspiel:connect_four(rows=4,columns=5,x_in_row=3)",
                                  "openspiel:breakthrough(rows=6,columns=5)", "openspiel:hex(board_size=4,swap=true)",
                                  "openspiel:clobber(rows=4,columns=5)"])
def test_random_playouts_draw_every_legal_move_uniformly(spec):
    """The playouts' random_move kernel (rejection from a set holding each move once, or a walk) draws each legal
    action as often as the others, early and late in a game, and moves lists them as legal marks them."""
    from evoplay.games.kernels import kernels_of, specialise

    game = load_game(spec)
    k = kernels_of(game)
    loop = specialise("evoplay.games.ports.playouts", k)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            pos = state.encode()
            assert k.moves_of(pos) == legal
            if len(legal) > 1 and rng.random() < 0.3:
                counts = np.zeros(k.actions, np.int64)
                draws = 300 * len(legal)
                loop.draws(k.params, pos, draws, checked, np.zeros(k.actions, np.int64), np.zeros(k.actions, np.int8),
                           counts)
                assert np.flatnonzero(counts).tolist() == legal
                expected = draws / len(legal)
                assert np.abs(counts[legal] - expected).max() < 6 * np.sqrt(expected), (state.history, counts[legal])
                checked += 1
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked >= 5
    totals = game.random_playouts(200, seed=1)
    assert totals.sum() == 0 and np.abs(totals).max() <= 200  # zero-sum returns of 200 whole games
