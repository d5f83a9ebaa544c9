"""Standard Kalah (empty_capture=false) against OpenSpiel's ``mancala``, move for move, when pyspiel is installed."""
import numpy as np
import pytest

from evoplay import load_game

pyspiel = pytest.importorskip("pyspiel")


def _openspiel_board_as_ours(state) -> list[int]:
    # OpenSpiel: index 0 is the second player's store, 1..6 the first player's pits, 7 their store, 8..13 the
    # second player's pits. Ours: first player's pits, store, second player's pits, store.
    b = [int(x) for x in state.observation_tensor(0)[:14]]
    return b[1:8] + b[8:14] + [b[0]]


def test_standard_kalah_matches_openspiel_mancala():
    game = pyspiel.load_game("mancala")
    ours = load_game("kalah(empty_capture=false)")
    rng = np.random.default_rng(0)
    for _ in range(300):
        s, t = game.new_initial_state(), ours.new_initial_state()
        while not s.is_terminal():
            p = s.current_player()
            assert t.current_player() == p
            offset = 1 if p == 0 else 8
            assert t.legal_actions() == [a - offset for a in s.legal_actions()]
            a = s.legal_actions()[int(rng.integers(len(s.legal_actions())))]
            s.apply_action(a)
            t.apply_action(a - offset)
            if not s.is_terminal():
                assert _openspiel_board_as_ours(s) == t.board().tolist()
        assert t.is_terminal()
        assert list(s.returns()) == t.returns()
