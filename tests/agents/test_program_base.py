"""A program over a base evaluation (the gp recipe's ``program.base``): the kernel path and the State path give the
same values, and a program's NaN leaves the base's value standing."""
from __future__ import annotations

import numpy as np

from evoplay.agents.feature_view import FeatureView
from evoplay.search.minimax import Budget
from evoplay.agents.feature_player import ProgramScorer, game_primitive_set, program_agent
from evoplay.games import load_game
from evoplay.gp import population


def test_the_kernels_and_the_state_agree_on_a_program_over_a_base():
    game = load_game("openspiel:connect_four")
    view = FeatureView(game, True)
    pset = game_primitive_set(game, ("add", "sub", "mul", "min", "max", "if_lt"), (-1.0, 1.0), names=view.names())
    rng = np.random.default_rng(2)
    base = rng.normal(size=len(view))
    for program in population(pset, rng, 4, "ramped", 1, 4):
        fast = program_agent(game, program, "search", 40, view=view, budget=Budget(nodes=300), base=base)
        slow = program_agent(game, program, "search", 40, view=view, budget=Budget(nodes=300), base=base)
        assert fast.kernel is not None
        slow.kernel = None
        state = game.new_initial_state()
        for _ in range(int(rng.integers(0, 10))):
            state.apply_action(int(rng.choice(state.legal_actions())))
        p = state.current_player()
        fast.restart(1, p)
        slow.restart(1, p)
        a, b = fast.root_values(state, p, state.legal_actions()), slow.root_values(state, p, state.legal_actions())
        assert a[0] == b[0] and np.array_equal(a[1], b[1])


def test_a_program_adds_to_the_base_and_its_nan_adds_nothing():
    from evoplay.gp.primitives import CONST, EPHEMERAL
    from evoplay.gp.program import leaf

    rows = np.zeros((2, 5))
    rows[0, 3] = 2.0
    base = np.arange(5, dtype=float)
    assert ProgramScorer(leaf(CONST, EPHEMERAL, 0.5), base)(rows).tolist() == [6.5, 0.5]
    nan = ProgramScorer(leaf(CONST, EPHEMERAL, float("nan")), base)
    assert nan(rows).tolist() == [6.0, 0.0] == nan.reference(rows).tolist()
    assert ProgramScorer(leaf(CONST, EPHEMERAL, float("nan")))(rows).tolist() == [0.0, 0.0]  # no base: neutral
