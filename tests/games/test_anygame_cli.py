"""play, match and tournament on a file game and on OpenSpiel games, from the command line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from evoplay.cli import main

OTHELLO = str(Path(__file__).resolve().parents[2] / "examples" / "othello6.py") + ":Othello"


def _run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin)


def test_play_a_file_game_in_the_terminal():
    result = _run(["play", OTHELLO, "--vs", "random"], "c4\nc2\nquit\n")
    assert result.exit_code == 0, result.output
    assert "X 2, O 2: X (player 0) to move" in result.output
    assert "c4 is not a legal move here; legal: c2 b3 e4 d5" in result.output
    assert "you stopped the game" in result.output


def test_match_and_tournament_on_a_file_game():
    result = _run(["match", OTHELLO, "random", "random(seed=1)", "--games", "4", "--backend", "serial", "--json"])
    assert result.exit_code == 0, result.output
    agents = json.loads(result.output)["agents"]
    assert [a["games"] for a in agents] == [4, 4]
    assert 0 < agents[0]["mean_score"] <= 36  # discs on a 6x6 board
    result = _run(["tournament", OTHELLO, "random", "random(seed=1)", "random(seed=2)", "--games", "1",
                   "--backend", "serial", "--json"])
    assert result.exit_code == 0 and [a["games"] for a in json.loads(result.output)["agents"]] == [4, 4, 4]


def test_play_a_simultaneous_openspiel_game_by_action_numbers():
    pytest.importorskip("pyspiel")
    result = _run(["play", "openspiel:goofspiel(num_cards=3,points_order=descending)", "--vs", "random"],
                  "2\n1\n0\n")
    assert result.exit_code == 0, result.output
    assert "2 = [P0]Bid: 3" in result.output  # strings with spaces are offered with their numbers
    assert "wins" in result.output or "a draw" in result.output


def test_play_hidden_information_shows_only_your_view():
    pytest.importorskip("pyspiel")
    result = _run(["play", "openspiel:leduc_poker", "--vs", "random", "--seed", "3"], "quit\n")
    assert result.exit_code == 0, result.output
    shown = result.output.split("your move")[0]
    assert "[Observer: 0]" in shown or "Private: " in shown
    assert "[Observer: 1]" not in shown


def test_tournament_of_three_players_on_openspiel():
    pytest.importorskip("pyspiel")
    result = _run(["tournament", "openspiel:kuhn_poker(players=3)", "random", "random(seed=1)", "random(seed=2)",
                   "--games", "1", "--backend", "serial", "--json"])
    assert result.exit_code == 0, result.output
    agents = json.loads(result.output)["agents"]
    assert [a["games"] for a in agents] == [6, 6, 6]  # every seating of the three, once each


def test_play_shows_what_the_die_rolled():
    pytest.importorskip("pyspiel")
    result = _run(["play", "openspiel:pig(winscore=10)", "--vs", "random"], "roll\nroll\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("chance: Roll ") >= 1
