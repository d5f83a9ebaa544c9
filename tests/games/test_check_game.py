"""The game checker: a correct game passes, and each broken promise is reported with its own clear message."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from evoplay.cli import main
from evoplay.games.tools.check import check_game

BROKEN = Path(__file__).with_name("broken_games.py")


def _check(cls: str, games: int = 40):
    return check_game(f"{BROKEN}:{cls}", games=games, seed=1, max_moves=200)


def _rules(report) -> set[str]:
    return {p.rule for p in report.problems}


def test_a_correct_game_passes_with_a_summary():
    report = _check("Nim")
    assert report.ok, report.problems
    assert report.played == 40 and report.num_features == 2
    assert all(2 <= n <= 9 for n in report.lengths)  # 9 stones, 1 to 3 a move
    assert dict(report.summary())["players"] == "2"


@pytest.mark.parametrize("spec", ["kalah", "mnk(m=3,n=3,k=3)", "tron(w=6,h=5)", "gems(w=5,h=5,ticks=15)", "sevens"])
def test_every_builtin_passes(spec):
    report = check_game(spec, games=15, seed=2)
    assert report.ok, [p.message for p in report.problems]


@pytest.mark.parametrize(
    "cls,rule,words",
    [
        ("AcceptsIllegal", "illegal-accepted", "an illegal action was accepted"),
        ("SharedClone", "clone", "clone() is not independent"),
        ("TerminalLegal", "terminal-legal", "a terminal state has legal actions"),
        ("Stuck", "no-legal", "a non-terminal state has no legal actions"),
        ("EmptyChance", "no-legal", "a chance node has no outcomes"),
        ("OffGrid", "grid", "action_cell(0) is (1, 0), off the 1 x 9 grid"),
        ("LongReturns", "returns-length", "returns() has 3 numbers for 2 players"),
        ("Unseeded", "nondeterministic", "the same seed gave different games"),
        ("ShortFeatures", "features-length", "feature_names() names 2 numbers"),
        ("NanFeatures", "features-finite", "is not finite at mover"),
        ("RepeatedNames", "feature-names", "feature_names() repeats stones"),
        ("NoFeatures", "feature-names", "defines no features"),
        ("AppliesAfterEnd", "terminal-apply", "on a finished game was accepted"),
        ("Crashing", "exception:apply_action", "apply_action raised KeyError: 'no such heap' (game"),
        ("Endless", "never-ends", "did not end within 200 moves"),
        ("SameStrings", "action-strings", "give each legal action its own text"),
        ("IllegalErrorType", "illegal-error-type", "raised ValueError: nope"),
    ],
)
def test_each_broken_promise_has_its_message(cls, rule, words):
    report = _check(cls)
    assert not report.ok
    found = {p.rule: p.message for p in report.problems}
    assert rule in found, report.problems
    assert words in found[rule]


def test_the_move_of_an_exception_is_named():
    report = _check("Crashing")
    message = next(p.message for p in report.problems if p.rule == "exception:apply_action")
    assert "move " in message and "seed " in message


def test_cli_check_game_exit_codes():
    runner = CliRunner()
    good = runner.invoke(main, ["check-game", f"{BROKEN}:Nim", "--games", "20"])
    assert good.exit_code == 0, good.output
    assert "all promises hold" in good.output
    bad = runner.invoke(main, ["check-game", f"{BROKEN}:SharedClone", "--games", "20"])
    assert bad.exit_code == 2
    assert "clone() is not independent" in bad.output


@pytest.mark.parametrize(
    "spec,words",
    [
        (f"{BROKEN.parent}/no_such_file.py:Nim", "does not exist"),
        (f"{BROKEN}:Nope", "has no class 'Nope'; its Game classes:"),
        (f"{BROKEN}:NotAGame", "is not a Game"),
        (f"{BROKEN}", "names a file but no class"),
    ],
)
def test_cli_check_game_bad_spec_is_one_clear_line(spec, words):
    result = CliRunner().invoke(main, ["check-game", spec])
    assert result.exit_code == 2
    assert words in result.output


def test_a_chance_node_without_outcomes_is_not_told_to_pass():
    message = next(p.message for p in _check("EmptyChance").problems if p.rule == "no-legal")
    assert "pass" not in message and "chance_outcomes()" in message


def test_a_board_of_planes_is_shown_and_a_wrong_one_refused():
    report = _check("TwoCellBoard", games=5)
    assert report.ok and dict(report.summary())["board of planes (Game.board_planes())"].startswith("1 x 1 x 2")
    report = _check("WrongBoard", games=5)
    assert _rules(report) == {"board_planes"}
    assert "product is the 2 features" in report.problems[0].message


def test_legal_moves_sharing_a_grid_cell_are_noted_not_failed():
    hexapawn = Path(__file__).resolve().parents[2] / "examples" / "hexapawn.py"
    report = check_game(f"{hexapawn}:Hexapawn", games=40, seed=0)
    assert report.ok, [p.message for p in report.problems]
    note = dict(report.summary())["legal moves sharing a grid cell"]
    assert "xb2 and " in note and "xb2 both on grid()[1][1]" in note and "evoplay serve asks which" in note
    assert report.shared_cell_positions > 0
    othello = check_game(f"{hexapawn.with_name('othello6.py')}:Othello", games=5, seed=0)
    assert othello.ok and "legal moves sharing a grid cell" not in dict(othello.summary())
    result = CliRunner().invoke(main, ["check-game", f"{hexapawn}:Hexapawn", "--games", "20"])
    assert result.exit_code == 0 and "legal moves sharing a grid cell" in result.output


def test_a_game_over_before_anyone_moves_is_warned_of_not_called_seat_blind():
    # parameters that make no playable game (as OpenSpiel's checkers(rows=6,columns=6) does): every game ends at
    # its start; the warning says so rather than that the features ignore the seat (there are no positions)
    report = _check("Nim(stones=0)", games=5)
    assert report.ok and report.lengths == [0] * 5
    assert len(report.warnings) == 1 and "over before anyone moved" in report.warnings[0]
