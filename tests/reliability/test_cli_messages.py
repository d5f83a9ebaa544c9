"""The command line's smaller points from issue 24: what Ctrl-C advises, and what export, report and resume say about
unfinished runs and damaged outputs (each was misleading before)."""
from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from evoplay.cli import main

from . import broken_user_games as games


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished gp run on a small take-away game (a couple of seconds)."""
    base = tmp_path_factory.mktemp("cli")
    spec = games.write(base, "fixed")
    run = base / "run"
    result = CliRunner().invoke(main, ["evolve", "gp", "--game", spec, "--generations", "2", "--population", "4",
                                       "--backend", "serial", "--out", str(run)])
    assert result.exit_code == 0, result.output
    return run


@pytest.fixture
def run(finished_run, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(finished_run, copy)
    return copy


def _error(result, code):
    assert result.exit_code == code, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")][-1]


@pytest.mark.parametrize("command, patched", [
    (["play", "kalah", "--vs", "random"], "evoplay.arena.play_game"),
    (["match", "kalah", "random", "random", "--backend", "serial"], "evoplay.arena.match"),
])
def test_ctrl_c_in_play_and_match_does_not_advise_resuming_a_run(monkeypatch, command, patched):
    import importlib

    module, name = patched.rsplit(".", 1)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), name, interrupted)
    line = _error(CliRunner().invoke(main, command), 130)
    assert line == "error: interrupted"


def test_export_of_an_unfinished_run_says_to_finish_it(run):
    (run / "finished.json").unlink()
    (run / "best.json").unlink()
    line = _error(CliRunner().invoke(main, ["export", str(run)]), 1)
    assert "has not finished (2 of 2 generations ran)" in line and f"evoplay resume {run}" in line


def test_a_corrupt_best_json_says_how_to_write_it_again(run):
    (run / "best.json").write_text("{not json")
    line = _error(CliRunner().invoke(main, ["report", str(run)]), 1)
    assert "is corrupt" in line and f"evoplay report --rewrite {run}" in line
    assert CliRunner().invoke(main, ["report", "--rewrite", str(run)]).exit_code == 0
    assert CliRunner().invoke(main, ["report", str(run)]).exit_code == 0


def test_a_finished_run_with_a_corrupt_checkpoint_is_refused_by_report_and_resume_alike(run):
    data = bytearray((run / "checkpoint.npz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (run / "checkpoint.npz").write_bytes(bytes(data))
    reported = _error(CliRunner().invoke(main, ["report", str(run)]), 1)
    resumed = _error(CliRunner().invoke(main, ["resume", str(run), "--backend", "serial"]), 1)
    assert resumed == reported and "checkpoint.npz" in reported
