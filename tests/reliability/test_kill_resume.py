"""Kill -9 a run at random moments, resume it, and demand the uninterrupted run's log and best, number for number."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evoplay.evolve.loop import run_evolution
from evoplay.evolve.runs import RunFolder

from .toy import RECIPE, Toy

TOY = Path(__file__).with_name("toy.py")


def _strip(log):
    return [{k: v for k, v in r.items() if k not in ("seconds", "eval_seconds")} for r in log]


def _straight(tmp_path, generations):
    folder = RunFolder.create(tmp_path / "straight", RECIPE, {"seed": 3, "generations": generations})
    run_evolution(Toy(generations), folder)
    return folder


def _kill_and_resume(tmp_path, generations, kills, rng):
    path = tmp_path / "killed"
    for _ in range(kills):
        proc = subprocess.Popen([sys.executable, str(TOY), str(path), str(generations), "0.02"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # Wait until the run has a checkpoint, then kill it at a random moment of its generations.
        deadline = time.time() + 30
        while not (path / "checkpoint.npz").exists() and proc.poll() is None and time.time() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.12))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        err = proc.stderr.read().decode()
        assert "Traceback" not in err, err
        proc.stderr.close()
        if (path / "finished.json").exists():
            break
    folder = RunFolder.open(path)
    run_evolution(Toy(generations), folder)  # the rest, in this process
    return folder


def _compare(straight, resumed):
    assert _strip(resumed.read_log()) == _strip(straight.read_log())
    assert resumed.read_json("best.json") == straight.read_json("best.json")
    assert not [n for n in os.listdir(resumed.path) if n.startswith(".tmp-")]


def test_a_run_killed_at_random_moments_resumes_to_the_uninterrupted_result(tmp_path):
    rng = random.Random(1)
    _compare(_straight(tmp_path, 10), _kill_and_resume(tmp_path, 10, 3, rng))


@pytest.mark.slow
def test_many_kills_over_longer_runs(tmp_path):
    rng = random.Random(7)
    for trial in range(3):
        base = tmp_path / f"t{trial}"
        base.mkdir()
        _compare(_straight(base, 25), _kill_and_resume(base, 25, 8, rng))


@pytest.mark.slow
def test_a_killed_mancala_run_resumes_exactly_through_the_cli(tmp_path):
    """The real command line: evolve, kill -9 mid-run, resume: every logged number (timings aside) and best.json
    equal the uninterrupted run's, the Mancala counters (evaluations, memo_hits, searches) too."""
    args = ["--config", "run2", "--set", "population=10", "--generations", "4", "--set", "fitness.minimax_depth=2",
            "--set", "report.random_programs=5", "--set", "report.heldout_depths=[2]", "--seed", "2",
            "--backend", "serial"]
    evoplay = [sys.executable, "-m", "evoplay.cli"]
    subprocess.run([*evoplay, "evolve", "mancala", *args, "--out", str(tmp_path / "a")], check=True,
                   capture_output=True)
    proc = subprocess.Popen([*evoplay, "evolve", "mancala", *args, "--out", str(tmp_path / "b"),
                             "--workers", "2", "--backend", "process"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = tmp_path / "b" / "log.jsonl"
    deadline = time.time() + 120
    while (not log.exists() or log.read_text().count("\n") < 2) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = subprocess.run([*evoplay, "resume", str(tmp_path / "b"), "--backend", "serial"], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    a, b = RunFolder.open(tmp_path / "a"), RunFolder.open(tmp_path / "b")
    assert _strip(a.read_log()) == _strip(b.read_log())
    best = json.loads(a.file("best.json").read_text())
    assert best == json.loads(b.file("best.json").read_text())
    # A finished run whose outputs were deleted: report says how to get them back; report --rewrite and
    # resume both write them again, equal to the first ones.
    for command in (["report", "--rewrite"], ["resume", "--backend", "serial"]):
        a.file("best.json").unlink()
        told = subprocess.run([*evoplay, "report", str(a.path)], capture_output=True, text=True)
        assert told.returncode == 1 and f"evoplay report --rewrite {a.path}" in told.stderr, told.stderr
        done = subprocess.run([*evoplay, command[0], str(a.path), *command[1:]], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert json.loads(a.file("best.json").read_text()) == best
