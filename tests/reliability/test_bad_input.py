"""Bad input of every kind gets one clear line and exit code 2, never a traceback: fuzzed specs, configs and
expressions (hypothesis, bounded), and the cases the issue found, through the command line."""
from __future__ import annotations

import os
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.cli import main

from . import census

_spec_text = st.one_of(
    st.builds(lambda name, parts: f"{name}({','.join(parts)})", st.sampled_from(census.NAMES),
              st.lists(st.one_of(st.sampled_from(census.VALUES),
                                 st.builds(lambda k, v: f"{k}={v}", st.sampled_from(census.KEYS),
                                           st.one_of(st.sampled_from(census.VALUES), st.text(max_size=12)))),
                       max_size=4)),
    st.text(max_size=40),
)


@settings(max_examples=60, deadline=None)
@given(_spec_text)
def test_fuzzed_specs_are_accepted_or_refused_cleanly(spec):
    census.try_spec(spec)  # raises only if a spec ends in something other than evoplay's errors


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(("mancala", "mnk", "sevens")), st.randoms(use_true_random=False))
def test_fuzzed_configs_are_accepted_or_refused_cleanly(recipe, rnd):
    from evoplay.evolve.config import load_config

    census.try_config(recipe, census.random_config(rnd, load_config(recipe)))


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(alphabet="0123456789+-*/()[] x:\u2212\u00f7", max_size=40),
                 st.integers(1, 600).map(lambda n: "(" * n + "3" + ")" * n),
                 st.integers(1, 1500).map(lambda n: "+".join(["1"] * n))))
def test_fuzzed_expressions_are_accepted_or_refused_cleanly(text):
    census.try_expression(text)


def test_a_census_sample_has_no_crash():
    for kind, n in (("spec", 200), ("config", 12), ("expression", 200)):
        counts, crashes = census.census(kind, n, seed=3)
        assert counts["crash"] == 0, crashes
        assert counts["clean"] > 0


def _one_clean_line(result, code=2):
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture
def cli():
    return CliRunner()


def test_a_negative_seed_is_refused_before_any_run_folder_exists(cli, tmp_path):
    out = tmp_path / "run"
    line = _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--seed", "-1", "--out", str(out)]))
    assert "non-negative" in line and not out.exists()
    line = _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--set", "seed=-1", "--out", str(out)]))
    assert not out.exists()
    line = _one_clean_line(cli.invoke(main, ["match", "kalah", "random(seed=-1)", "random"]))
    assert "seed='-1' is out of range" in line


@pytest.mark.parametrize("content, words", [
    (b'[program]\nintegers = ["a", 3]\n', "'program.integers[0]' must be an integer"),
    (b"seed = \xff\n", "not UTF-8"),
    (b"population = " + b"9" * 5000 + b"\n", "out of range"),
    (b"population = 1000000000\n", "more than 1,000,000"),
    (b"population = 'x'\n", "must be an integer"),
    (b"seed = 1\nseed = 2\n", "not valid TOML"),
    (b"[fitness]\nminimax_depth = inf\n", "must be an integer"),
])
def test_bad_configs_get_one_line(cli, tmp_path, content, words):
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    line = _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--config", str(path), "--out",
                                             str(tmp_path / "run")]))
    assert words in line and not (tmp_path / "run").exists()


def test_bad_files_get_one_line(cli, tmp_path):
    long_name = str(tmp_path / ("x" * 300))
    assert "too long" in _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--config", long_name]))
    assert "does not exist" in _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--config",
                                                                 str(tmp_path / "none.toml")]))
    assert "not a run folder" in _one_clean_line(cli.invoke(main, ["report", str(tmp_path / "nothing")]), 1)


def test_a_read_only_folder_gets_one_line(cli, tmp_path, monkeypatch):
    import errno
    import pathlib

    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    if os.geteuid() == 0:  # root writes anywhere: make the folder refuse as a read-only one would
        real = pathlib.Path.mkdir

        def refuse(self, *args, **kwargs):
            if str(self).startswith(str(ro)):
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(pathlib.Path, "mkdir", refuse)
    line = _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--generations", "1", "--out", str(ro / "run")]),
                           1)
    assert "permission denied" in line and str(ro / "run") in line


def test_a_full_disk_gets_one_line(tmp_path, monkeypatch):
    import errno

    from evoplay.errors import CheckpointError
    from evoplay.evolve import runs

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    folder = runs.RunFolder.create(tmp_path / "run", "toy", {"seed": 1})
    monkeypatch.setattr(runs.os, "fsync", full)
    with pytest.raises(CheckpointError, match=r"cannot write .*checkpoint.npz: the disk is full"):
        folder.save_checkpoint(1, {"x": 1})
    assert not [n for n in os.listdir(folder.path) if n.startswith(".tmp-")]


def test_text_in_brackets_survives_the_error_line(cli):
    line = _one_clean_line(cli.invoke(main, ["evolve", "mancala", "--set", "program.integers=[0, \"a\"]"]))
    assert "[1]" in line


@pytest.mark.parametrize("spec, words", [
    ("alphabeta(depth=2000)", "depth='2000' is out of range; give 0 to 1000"),
    ("rs(iterations=1000000000)", "iterations per decision"),
    ("mcts(iterations=1000000000)", "mcts keeps a tree node per iteration in memory"),
    ("rhea(budget_ms=600000000)", "at most an hour"),
    ("rs(budget_ms=nan)", "finite number"),
    ("random(seed=" + "9" * 5000 + ")", "5000 digits"),
])
def test_limits_that_protect_the_machine_are_named(cli, spec, words):
    assert words in _one_clean_line(cli.invoke(main, ["match", "kalah", spec, "random"]))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
