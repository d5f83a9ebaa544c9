"""The random playouts of the ports of othello, pentago, dots_and_boxes, oware, mancala and pig: their ``moves``
kernel lists the legal actions as ``legal`` marks them, their ``random_move`` (where a port gives one) draws each
legal action as often as the others, early and late in a game, and whole playouts end with zero-sum returns; the
playout loop over the kernels plays the very games its plain-Python reference plays through the ports' Python rules,
chance outcomes (pig's dice) drawn with their probabilities from the same generator."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pyspiel")

from evoplay.games import load_game  # noqa: E402
from evoplay.games.kernels import kernels_of, specialise  # noqa: E402
from evoplay.games.ports import dots_and_boxes, pig  # noqa: E402
from evoplay.games.ports.base import seeded  # noqa: E402
from evoplay.games.ports.playouts import python_random_playouts  # noqa: E402

SPECS = ["openspiel:othello", "openspiel:pentago", "openspiel:dots_and_boxes(num_cols=3,num_rows=3)",
         "openspiel:oware", "openspiel:mancala"]


@pytest.mark.parametrize("spec", SPECS, ids=[s[10:] for s in SPECS])
def test_random_playouts_draw_every_legal_move_uniformly(spec):
    game = load_game(spec)
    k = kernels_of(game)
    loop = specialise("evoplay.games.ports.playouts", k)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            position = state.encode()
            assert k.moves_of(position) == legal
            if len(legal) > 1 and rng.random() < 0.2:
                counts = np.zeros(k.actions, np.int64)
                draws = 300 * len(legal)
                loop.draws(k.params, position, draws, checked, np.zeros(k.actions, np.int64),
                           np.zeros(k.actions, np.int8), counts)
                assert np.flatnonzero(counts).tolist() == legal
                expected = draws / len(legal)
                assert np.abs(counts[legal] - expected).max() < 6 * np.sqrt(expected), (state.history, counts[legal])
                checked += 1
            state.apply_action(legal[int(rng.integers(len(legal)))])
        assert k.moves_of(state.encode()) == []
    assert checked >= 5
    totals = game.random_playouts(200, seed=1)
    assert totals.sum() == 0 and 0 < np.abs(totals).max() <= 200  # zero-sum returns of 200 whole games


# (spec, the Python reference of its random_move kernel, or None: the draw(n)-th of the legal actions)
REFERENCE = [
    ("openspiel:oware", None),
    ("openspiel:oware(num_houses_per_player=3,num_seeds_per_house=2)", None),
    ("openspiel:dots_and_boxes", dots_and_boxes.python_random_move),
    ("openspiel:dots_and_boxes(num_cols=4,num_rows=4,utility_margin=true)", dots_and_boxes.python_random_move),
    ("openspiel:pig(winscore=30,diceoutcomes=4)", pig.python_random_move),
    ("openspiel:pig(players=3,winscore=20,piglet=true)", pig.python_random_move),
]


@pytest.mark.parametrize("spec,random_move", REFERENCE, ids=[s[10:] for s, _ in REFERENCE])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 40))
def test_the_playout_loop_plays_the_games_of_its_python_reference(spec, random_move, seed):
    """Seeded playouts inside Numba (the loop, its uncounted views, the port's kernels) end each game where the Python
    rules end it, drawn from the same generator: the last game's final position and every return are equal."""
    game = load_game(spec)
    k = kernels_of(game)
    loop = specialise("evoplay.games.ports.playouts", k)
    root, work = k.new_position(), k.new_position()
    k.initial(k.params, root, 0)
    totals = np.zeros(game.num_players)
    loop.play(k.params, root, 3, seeded(seed), work, np.zeros(k.actions, np.int64), np.zeros(k.actions, np.int8),
              np.zeros(k.actions), np.zeros(game.num_players), totals)
    expected, last = python_random_playouts(game, 3, seed, random_move)
    assert totals.tolist() == expected
    assert np.array_equal(work, last.encode()), last.history
    assert game.random_playouts(3, seed).tolist() == expected
