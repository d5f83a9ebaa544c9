"""A user's game that breaks ends the run in one line, exit 2, naming the hook, the move and the game's seed (before:
a traceback, a hang, SystemExit's code, or a run that finished with every game counted a loss); the run resumes once
the game is fixed, and check-game from the named seed finds the problem."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from evoplay.cli import main

from . import broken_user_games as broken

EVOLVE = ["evolve", "gp", "--generations", "2", "--population", "4", "--backend", "serial"]


def _error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and result.stderr.rstrip().splitlines()[-1] == errors[0], result.stderr
    return errors[0]


@pytest.mark.parametrize("case", [c for c in broken.CASES if c != "fixed"])
def test_a_broken_game_ends_the_run_in_one_line_naming_hook_move_and_seed(case, tmp_path):
    spec = broken.write(tmp_path, case)
    result = CliRunner().invoke(main, [*EVOLVE, "--game", spec, "--out", str(tmp_path / "run")])
    line = _error_line(result)
    assert broken.CASES[case][2] in line, line
    if case != "constructor":  # the others break while a game is played
        assert re.search(r"at move \d+ of the game with seed \d+, ", line), line
        assert "evoplay check-game " in line and "--seed " in line


def test_the_run_resumes_once_the_game_is_fixed(tmp_path):
    spec = broken.write(tmp_path, "raises")
    run = str(tmp_path / "run")
    first = _error_line(CliRunner().invoke(main, [*EVOLVE, "--game", spec, "--out", run]))
    again = _error_line(CliRunner().invoke(main, ["resume", run, "--backend", "serial"]))
    assert again == first  # the same game breaks the same way
    broken.write(tmp_path, "fixed")
    done = subprocess.run([sys.executable, "-m", "evoplay.cli", "resume", run, "--backend", "serial"],
                          capture_output=True, text=True)  # a new process: this one holds the broken file imported
    assert done.returncode == 0, done.stderr
    assert "run finished" in done.stderr


def test_a_game_that_breaks_in_a_worker_process_gives_the_same_line(tmp_path):
    spec = broken.write(tmp_path, "raises")
    serial = _error_line(CliRunner().invoke(main, [*EVOLVE, "--game", spec, "--out", str(tmp_path / "a")]))
    pooled = _error_line(CliRunner().invoke(main, [*EVOLVE[:-2], "--workers", "2", "--game", spec,
                                                   "--out", str(tmp_path / "b")]))
    assert pooled == serial


def test_check_game_from_the_named_seed_finds_the_broken_hook(tmp_path):
    spec = broken.write(tmp_path, "raises")
    line = _error_line(CliRunner().invoke(main, [*EVOLVE, "--game", spec, "--out", str(tmp_path / "run")]))
    seed = re.search(r"--seed (\d+)", line).group(1)
    report = CliRunner().invoke(main, ["check-game", spec, "--seed", seed, "--games", "1"])
    assert report.exit_code == 2 and "apply_action raised ValueError: boom" in report.output
    assert f"game 0, seed {seed}, move 3" in report.output  # game 0 starts from the seed itself
