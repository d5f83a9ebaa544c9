"""Line patterns (an n-tuple network's counts shared over a board): the Python reference, the NumPy batch and the
kernel leaves agree, and a document reads them back."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from evoplay.agents.feature_view import (FeatureView, line_board, line_counts, line_counts_batch, line_names,
                                         line_patterns)
from evoplay.search.minimax import Budget
from evoplay.agents.feature_player import linear_agent
from evoplay.errors import SpecError
from evoplay.games import load_game


def test_a_line_and_its_reverse_are_one_pattern():
    slots, count = line_patterns(3, 4)
    assert count == (3 ** 4 + 3 ** 2) // 2  # palindromes count once
    assert slots[1 * 1 + 2 * 3] == slots[2 * 9 + 1 * 27]  # "1200" and "0021"
    names = line_names(3, 4)
    assert len(names) == 4 * count and names[0] == "line[E,0000]" and len(set(names)) == len(names)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(1, 6), st.integers(1, 6), st.integers(2, 4), st.integers(0, 2 ** 31 - 1))
def test_the_batch_counts_what_the_reference_counts(planes, rows, columns, length, seed):
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, planes + 1, size=(3, rows, columns))  # planes: a plane; the last: no plane set
    boards = np.zeros((3, planes, rows, columns))
    for k in range(planes):
        boards[:, k][cells == k] = 1.0
    batch = line_counts_batch(boards, planes + 1, length)
    for i in range(3):
        assert batch[i].tolist() == line_counts(boards[i].ravel().tolist(), planes, rows, columns, planes + 1, length)
    lines_of = {(0, 1): rows * max(0, columns - length + 1), (1, 0): max(0, rows - length + 1) * columns}
    count = line_patterns(planes + 1, length)[1]
    assert batch[0, :count].sum() == lines_of[(0, 1)] and batch[0, count:2 * count].sum() == lines_of[(1, 0)]


def test_connect_four_reads_its_69_lines_of_four():
    game = load_game("openspiel:connect_four")
    assert line_board(game) == (3, 6, 7, 3)  # every cell holds exactly one plane: no "none" reading
    view = FeatureView(game, True, lines=4)
    assert len(view) == 126 + 6 + 4 * 45
    assert view.row(game.new_initial_state(), 0)[-4 * 45:].sum() == 69
    again = FeatureView.from_document(game, view.document())
    assert again.names() == view.names() and again.lines == 4 and again.codes == 3
    with pytest.raises(SpecError, match="board"):
        FeatureView(load_game("kalah"), lines=3)
    with pytest.raises(SpecError, match="2..5"):
        FeatureView(game, lines=7)


# one game for the three leaves: the kernel search compiled once for it serves them all (each other game would compile
# it again, for half a minute of CPU)
@pytest.mark.parametrize("spec,options", [("openspiel:connect_four", {"lines": 4}),
                                          ("openspiel:connect_four", {"lines": 3}),
                                          ("openspiel:connect_four", {"pairs": True})])
def test_the_kernel_leaves_count_the_board_as_the_state_path_does(spec, options):
    game = load_game(spec)
    view = FeatureView(game, True, **options)
    rng = np.random.default_rng(1)
    weights = rng.normal(size=len(view))
    fast = linear_agent(game, weights, "search", 40, view=view, budget=Budget(nodes=400))
    slow = linear_agent(game, weights, "search", 40, view=view, budget=Budget(nodes=400))
    assert fast.kernel is not None
    slow.kernel = None
    for t in range(8):
        state = game.new_initial_state(t)
        for _ in range(int(rng.integers(0, 12))):
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            continue
        p = state.current_player()
        fast.restart(t, p)
        slow.restart(t, p)
        a, b = fast.root_values(state, p, state.legal_actions()), slow.root_values(state, p, state.legal_actions())
        assert a[0] == b[0] and np.array_equal(a[1], b[1])
