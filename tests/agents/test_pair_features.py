"""Pair features: the counts of neighbouring cell pairs on a board of planes (evoplay.agents.feature_view)."""
from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.agents import make_agent
from evoplay.agents.feature_view import (FREE_FEATURES, FeatureView, decisions, pair_board, pair_counts,
                                         pair_counts_batch, pair_names)
from evoplay.cli import main
from evoplay.errors import SpecError
from evoplay.games import load_game

pytest.importorskip("pyspiel")


@st.composite
def boards(draw):
    planes = draw(st.integers(1, 4))
    rows = draw(st.integers(1, 5))
    columns = draw(st.integers(1, 5))
    cells = draw(st.lists(st.integers(0, 1), min_size=planes * rows * columns, max_size=planes * rows * columns))
    return planes, rows, columns, cells


@settings(max_examples=150, deadline=None)
@given(boards())
def test_the_batched_count_is_the_reference_count(board):
    planes, rows, columns, cells = board
    batch = pair_counts_batch(np.array(cells, dtype=np.float64).reshape(1, planes, rows, columns))
    assert batch.shape == (1, len(pair_names(planes)))
    assert batch[0].tolist() == pair_counts(cells, planes, rows, columns)


def test_counts_of_a_small_board_by_hand():
    # one row of three cells, plane 0 "mine" and plane 1 "theirs": X X O
    cells = [1, 1, 0,
             0, 0, 1]
    counts = dict(zip(pair_names(2), pair_counts(cells, 2, 1, 3)))
    assert counts["pair[0,0,E]"] == 1  # the two Xs side by side
    assert counts["pair[0,1,E]"] == 1  # X next to O, either way round
    assert counts["pair[1,1,E]"] == 0
    assert all(v == 0 for k, v in counts.items() if not k.endswith(",E]"))  # one row: nothing below


def test_the_view_reads_pair_counts_of_openspiel_boards():
    game = load_game("openspiel:connect_four")
    assert pair_board(game) == (3, 6, 7)
    view = FeatureView(game, True, pairs=True)
    assert len(view) == game.num_features() + len(FREE_FEATURES) + 24 and view.names()[-1] == "pair[2,2,SW]"
    states = [d.state for d in decisions(game, 12, 0)]
    rows = view.rows(states, 1)
    for s, row in zip(states, rows):
        assert row[-24:].tolist() == pair_counts(list(s.features(1)), 3, 6, 7)
    doc = view.document()
    assert doc["pair_features"] is True and FeatureView.from_document(game, doc).pair_count == 24


def test_games_without_a_board_of_planes_have_no_pair_counts():
    assert pair_board(load_game("kalah")) is None
    assert pair_board(load_game("openspiel:hex(board_size=5)")) is None  # nine planes: more than four
    with pytest.raises(SpecError, match="no board of at most 4 planes"):
        FeatureView(load_game("kalah"), True, pairs=True)


def _evolve(tmp_path, game: str, name: str) -> dict:
    out = tmp_path / name
    result = CliRunner().invoke(main, ["evolve", "ga", "--game", game, "--generations", "2", "--population", "6",
                                       "--set", "report.games=2", "--set", "player.pair_features=true",
                                       "--set", "genome.start=zero", "--set", "report.play_games=0",
                                       "--backend", "serial", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads((out / "best.json").read_text())


def test_a_run_with_pair_features_ships_a_player_that_reads_them(tmp_path):
    doc = _evolve(tmp_path, "openspiel:tic_tac_toe", "ttt")
    assert doc["pair_features"] is True and doc["features"][-1] == "pair[2,2,SW]"
    game = load_game("openspiel:tic_tac_toe")
    agent = make_agent(f"weights({tmp_path / 'ttt' / 'best.json'})", game)
    state = game.new_initial_state()
    state.apply_action(4)
    assert agent.step(state) in state.legal_actions()
    # the exported player reads the same numbers
    exported = CliRunner().invoke(main, ["export", str(tmp_path / "ttt"), "--lang", "python"]).output.strip()
    spec = importlib.util.spec_from_file_location("exported_pairs", exported)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    view = FeatureView.from_document(game, doc)
    theirs = module.GAME.new_initial_state()
    theirs.apply_action(4)
    assert module.View(module.GAME).rows([theirs], 0)[0].tolist() == view.row(state, 0).tolist()
    assert module.Player(0).choose(theirs) in state.legal_actions()


def test_pair_features_are_left_out_where_the_game_has_no_board(tmp_path):
    from pathlib import Path

    take_away = str(Path(__file__).parent / "take_away.py") + ":TakeAway"
    doc = _evolve(tmp_path, take_away, "take")
    assert "pair_features" not in doc and doc["features"][-1] == FREE_FEATURES[-1]
