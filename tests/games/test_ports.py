"""The ports' framework on its first port, tic_tac_toe: openspiel:NAME loads the port (engine=openspiel forces
OpenSpiel's own), the port equals pyspiel over 2,000 seeded random games through its Python rules and its kernels,
the side-by-side check names a difference, and OpenSpiel's referee and the evolved players play on it."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from evoplay.agents import make_agent  # noqa: E402
from evoplay.arena import play_game  # noqa: E402
from evoplay.errors import SpecError  # noqa: E402
from evoplay.games import load_game  # noqa: E402
from evoplay.games.tools.check import check_game  # noqa: E402
from evoplay.games.kernels import KernelState, kernels_of  # noqa: E402
from evoplay.games.tools.openspiel import OpenSpielGame, engine_note, rules_spec  # noqa: E402
from evoplay.games.ports import PORTS, port_class, port_table  # noqa: E402
from evoplay.games.ports.against import against_openspiel  # noqa: E402
from evoplay.games.ports.base import PortGame  # noqa: E402
from evoplay.games.ports.tic_tac_toe import TicTacToe, TicTacToeState  # noqa: E402


def test_tic_tac_toe_equals_openspiel_over_2000_random_games_through_rules_and_kernels():
    report = against_openspiel("openspiel:tic_tac_toe", games=2000, seed=0)
    assert report.ok, str(report.difference)
    assert report.games == 2000 and report.moves > 14_000
    assert min(report.lengths) == 5 and max(report.lengths) == 9  # wins in five moves and full-board endings
    assert report.through == ("Python rules", "kernels")


def test_openspiel_name_loads_the_port_and_engine_openspiel_forces_openspiel():
    port = load_game("openspiel:tic_tac_toe")
    own = load_game("openspiel:tic_tac_toe(engine=openspiel)")
    assert isinstance(port, TicTacToe) and port.engine == "port" and port.spec == "openspiel:tic_tac_toe"
    assert isinstance(own, OpenSpielGame) and own.spec == "openspiel:tic_tac_toe(engine=openspiel)"
    assert load_game("openspiel:tic_tac_toe(engine=port)") == port  # the default is not written in the spec
    assert port != own and rules_spec(own.spec) == rules_spec(port.spec) == "openspiel:tic_tac_toe"
    assert "port" in engine_note(port) and "OpenSpiel's own" in engine_note(own)
    assert engine_note(load_game("kalah")) == ""
    for game in (port, own):  # a worker process rebuilds the same engine from the spec
        copy = pickle.loads(pickle.dumps(game))
        assert copy == game and type(copy) is type(game)
    assert port.feature_names() == own.feature_names() and port.board_planes() == own.board_planes() == (3, 3, 3)
    assert port.num_distinct_actions() == 9 and port.max_utility() == 1.0


def test_the_engine_choice_is_checked():
    with pytest.raises(SpecError, match="engine='fast' is unknown; use engine=port"):
        load_game("openspiel:tic_tac_toe(engine=fast)")
    with pytest.raises(SpecError, match="evoplay has no port of kuhn_poker .*drop engine=port"):
        load_game("openspiel:kuhn_poker(engine=port)")
    assert load_game("openspiel:kuhn_poker(engine=openspiel)").spec == "openspiel:kuhn_poker"  # no port: no choice
    assert "no port of kuhn_poker" in engine_note(load_game("openspiel:kuhn_poker"))
    with pytest.raises(SpecError, match="has no parameter 'engin'"):
        load_game("openspiel:tic_tac_toe(engin=port)")


def test_the_registry_lists_every_port_with_what_it_plays():
    assert dict(port_table())["openspiel:tic_tac_toe"] == "the game (it has no parameters)"
    for name in PORTS:
        cls = port_class(name)
        assert issubclass(cls, PortGame) and cls.openspiel_name == name
    assert port_class("kuhn_poker") is None


def test_the_side_by_side_check_names_the_first_difference(monkeypatch):
    def forgets_the_centre(self):
        return [c for c in range(9) if self.board[c] == 0 and c != 4]

    monkeypatch.setattr(TicTacToeState, "_legal_actions", forgets_the_centre)
    report = against_openspiel("openspiel:tic_tac_toe", games=5, seed=3)
    d = report.difference
    assert not report.ok and d.what == "legal actions" and d.engine == "Python rules"
    assert (d.game, d.seed, d.move, d.actions) == (0, 3, 0, [])
    assert "OpenSpiel's are [0, 1, 2, 3, 4, 5, 6, 7, 8], the port's [0, 1, 2, 3, 5, 6, 7, 8]" in str(d)
    assert "seed 3, move 0" in report.summary()


def test_the_side_by_side_check_names_a_kernel_that_differs(monkeypatch):
    from evoplay.games.ports import tic_tac_toe

    game = load_game("openspiel:tic_tac_toe")
    k = kernels_of(game)
    object.__setattr__(k, "returns", tic_tac_toe.mover)  # a kernel of the wrong rule: writes nothing
    calls = []
    monkeypatch.setattr(type(k), "returns_of", lambda self, pos: calls.append(1) or [9.0, 9.0])
    report = against_openspiel(game, games=3, seed=1)
    assert report.difference.what == "returns" and report.difference.engine == "kernels" and calls


def test_check_game_says_which_engine_and_holds_the_port_to_openspiel():
    report = check_game("openspiel:tic_tac_toe", games=30, seed=2, against_openspiel=True)
    assert report.ok, [p.message for p in report.problems]
    rows = dict(report.summary())
    assert rows["engine"].startswith("evoplay's port of OpenSpiel's tic_tac_toe")
    assert rows["held to OpenSpiel (--against-openspiel)"].startswith("equal to OpenSpiel (pyspiel) at")
    assert "of 30 seeded random games" in rows["held to OpenSpiel (--against-openspiel)"]
    assert rows["Numba kernels (Game.kernels())"].startswith("equal to the State at")
    assert dict(check_game("openspiel:tic_tac_toe(engine=openspiel)", games=2).summary())["engine"].startswith(
        "OpenSpiel's own")
    with pytest.raises(SpecError, match="not played by an evoplay port"):
        check_game("openspiel:tic_tac_toe(engine=openspiel)", games=2, against_openspiel=True)


def test_a_port_state_replays_into_pyspiel_and_openspiel_mcts_referees_on_it():
    game = load_game("openspiel:tic_tac_toe")
    state = game.new_initial_state()
    for action in (4, 0, 8):
        state.apply_action(action)
    assert str(state.pyspiel_state) == str(state) == "o..\n.x.\n..x"
    assert state.pyspiel_state.history() == [4, 0, 8]
    mcts = make_agent("openspiel_mcts(simulations=300)", game)
    final = play_game(game, [mcts, make_agent("random", game)], seed=5)
    assert final.is_terminal() and final.returns()[0] >= 0  # the referee does not lose to random play
    assert KernelState.of(state).position.tolist() == state.encode().tolist()


def test_features_are_the_adapters_made_relative_to_the_seat():
    port, own = load_game("openspiel:tic_tac_toe"), load_game("openspiel:tic_tac_toe(engine=openspiel)")
    a, b = port.new_initial_state(), own.new_initial_state()
    for action in (0, 4, 5):
        a.apply_action(action)
        b.apply_action(action)
    for p in (0, 1):
        assert np.array_equal(a.features(p), b.features(p))
        assert np.array_equal(kernels_of(port).features_of(a.encode(), p), b.features(p))
    # a player's own pieces are on plane 2 (the crosses' plane of OpenSpiel's tensor): x's cross on cell 0 for
    # player 0, o's nought on cell 4 for player 1
    assert a.features(0)[18] == 1.0 and a.features(1)[22] == 1.0 and a.features(1)[18] == 0.0


def test_an_evolved_player_plays_the_same_moves_on_either_engine(tmp_path):
    """A champion's weights file (depth 2) evolved on the port plays on engine=openspiel as it is, through OpenSpiel's
    Python API instead of the port's kernels: the same features, so the same moves, whole games against the same
    opponent, and no warning that the rules differ."""
    import json

    from evoplay.agents.feature_player import check_game as check_evolved_for
    from evoplay.agents.weights import FORMAT

    port, own = load_game("openspiel:tic_tac_toe"), load_game("openspiel:tic_tac_toe(engine=openspiel)")
    weights = np.random.default_rng(7).uniform(-1, 1, port.num_features())
    best = tmp_path / "best.json"
    best.write_text(json.dumps({"format": FORMAT, "game": port.spec, "features": port.feature_names(),
                                "weights": weights.tolist(), "depth": 2, "policy": "search"}))
    histories = []
    for game in (port, own):
        champion = make_agent(f"weights({best})", game)
        assert champion.note == ""
        assert (champion.kernel is not None) == (game is port)  # the port's kernels search; OpenSpiel's Python API
        for seed in range(4):
            champion = make_agent(f"weights({best})", game)
            seats = [champion, make_agent("random", game)] if seed % 2 == 0 else [make_agent("random", game), champion]
            histories.append(list(play_game(game, seats, seed).history))
    assert histories[:4] == histories[4:]
    assert check_evolved_for("a file", port.spec, own) == check_evolved_for("a file", own.spec, port) == ""
